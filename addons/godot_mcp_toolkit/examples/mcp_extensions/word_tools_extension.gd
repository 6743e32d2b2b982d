@tool
extends MCPToolkitExtension
## Example extension: copy this file into res://mcp_extensions/ to try it. It adds one read-only
## command, `wordtools.count`, which counts the words in a string. It lives in a .gdignore'd
## folder so the toolkit never loads it from here.


func register(registry: Object, _server: Object) -> void:
	var options: Object = registry.create_extension_options("Count the words in a piece of text.")
	# The options builder is optional API surface; guard so the example survives older toolkits.
	if options != null and options.has_method("with_input_schema"):
		options.call("with_input_schema", {
			"type": "object",
			"properties": {"text": {"type": "string", "description": "Text to count words in."}},
			"required": ["text"],
		})
	if options != null and options.has_method("with_read_only"):
		options.call("with_read_only", true)
	registry.register_command("wordtools.count", _count.bind(registry), options)


func _count(params: Dictionary, registry: Object) -> Dictionary:
	var text: Variant = params.get("text")
	if not text is String:
		return registry.fail("INVALID_PARAMS", "text must be a string")
	var words := (text as String).split(" ", false)
	return {"success": true, "words": words.size()}
