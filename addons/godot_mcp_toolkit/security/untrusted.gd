@tool
extends RefCounted
## Marks project content as data, not instructions, before a model reads it (contract C21):
##   <untrusted-1a2b3c4d kind="script" source="res://player.gd">
##   ...body...
##   </untrusted-1a2b3c4d>
## The random nonce means content cannot guess the closing tag, and any untrusted-tag already in
## the body is removed first so it cannot close the envelope early. Read paths only. The bridge's
## envelope and this one run the cases of tests/fixtures/toolkit/untrusted_cases.json.
## Runtime-safe.

# Spaces may stand after "<" and after "/": a model may read "< / untrusted-…>" as a closing tag too.
const TAG_PATTERN := "(?i)<\\s*/?\\s*untrusted[^>]*>"
const TAG_REPLACEMENT := "[untrusted tag removed]"

static var _tag: RegEx = null
static var _envelope: RegEx = null


## Wraps `body`; `nonce` < 0 picks a random one (tests pass a fixed value).
static func wrap(body: String, kind: String, source: String, nonce: int = -1) -> String:
	var tag := "untrusted-%08x" % (nonce if nonce >= 0 else randi())
	return "<%s kind=\"%s\" source=\"%s\">\n%s\n</%s>" % [
		tag, _attribute(kind), _attribute(source), strip_tags(body), tag]


## The body of an envelope wrap() made, so a value read with one can be written back as it was;
## any other text as it is.
static func unwrap(text: String) -> String:
	if _envelope == null:
		_envelope = RegEx.create_from_string(
			"(?s)^<(untrusted-[0-9a-f]{8}) kind=\"[^\"<>]*\" source=\"[^\"<>]*\">\n(.*)\n</\\1>$")
	var found := _envelope.search(text)
	return found.get_string(2) if found != null else text


## `text` with every <untrusted...> / </untrusted...> tag replaced by a visible marker.
static func strip_tags(text: String) -> String:
	if _tag == null:
		_tag = RegEx.create_from_string(TAG_PATTERN)
	return _tag.sub(text, TAG_REPLACEMENT, true)


## Attribute values cannot carry quotes or angle brackets that would break the opening tag.
static func _attribute(value: String) -> String:
	return value.replace("&", "&amp;").replace("\"", "&quot;").replace("<", "&lt;").replace(">", "&gt;")
