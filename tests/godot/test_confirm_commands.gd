extends RefCounted
## editor.confirm (commands/editor/confirm_commands.gd) and the dialog it shows in the editor
## (ui/consent_dialog.gd). The runtime context has nobody to ask (HEADLESS_UNSUPPORTED, as a game or
## a headless editor); a context that answers like the editor does shows the command passing the
## person's answer through, and the request's cancel withdrawing the question. The dialog runs for
## real on the engine's tree: its buttons' signals are emitted as a click would, and a cancelled job
## closes it. Not covered here: the SceneTreeTimer that ends an unanswered dialog (no frames run
## during a test) and the editor's base control the plugin gives the context (editor-only glue).

const Assert := preload("assert.gd")
const ResultExamples := preload("result_examples.gd")
const CommandRegistry := preload("res://addons/godot_mcp_toolkit/transport/mcp_toolkit_command_registry.gd")
const RuntimeContext := preload("res://addons/godot_mcp_toolkit/context/runtime_context.gd")
const PersonRole := preload("res://addons/godot_mcp_toolkit/context/person_role.gd")
const ToolContext := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_tool_context.gd")
const ConfirmCommands := preload("res://addons/godot_mcp_toolkit/commands/editor/confirm_commands.gd")
const ConsentDialog := preload("res://addons/godot_mcp_toolkit/ui/consent_dialog.gd")

const DOMAIN := "confirm"
const METHOD := "editor.confirm"


## A person who answers when the test says so (as the editor's dialog would).
class AskingPerson:
	extends PersonRole

	signal answered(answer: String)
	var asked: Array[Dictionary] = []

	func ask_person(title: String, message: String, timeout_ms: int, job: RefCounted) -> Dictionary:
		asked.append({"title": title, "message": message, "timeout_ms": timeout_ms})
		var answer: String = await answered
		if job != null and job.call("is_cancelled"):
			return {"answer": "cancel"}
		return {"answer": answer}


var _registry := CommandRegistry.new()
var _asking := AskingPerson.new(null)
var _asking_registry := CommandRegistry.new()
var _result: Dictionary = {}
var _dialog_answer := ""
var _parent: Node = null


func _init() -> void:
	ConfirmCommands.register(_registry, RuntimeContext.new(null))
	var asking_context := RuntimeContext.new(null)
	asking_context.person = _asking
	ConfirmCommands.register(_asking_registry, asking_context)
	_parent = Node.new()
	(Engine.get_main_loop() as SceneTree).root.add_child(_parent)


func cleanup() -> void:
	_registry.clear()
	_asking_registry.clear()
	_parent.free()


func test_nobody_to_ask_outside_an_editor_with_a_window() -> void:
	var result := _call(_registry, ResultExamples.params(DOMAIN, METHOD, 0), null)
	ResultExamples.check(DOMAIN, METHOD, result, 0)


func test_registered_as_a_cancellable_read() -> void:
	var info := _registry.dispatch_info(METHOD)
	Assert.eq(info["read_only"], true, "the lane keeps serving while the person reads")
	Assert.eq(info["cancellable"], true, "the bridge can withdraw the question")


func test_bad_params_are_refused_before_anyone_is_asked() -> void:
	for params: Dictionary in [{}, {"message": ""}, {"message": 3}, {"message": "x", "title": 1},
			{"message": "x", "timeout_ms": 0}, {"message": "x", "timeout_ms": 1.5}, {"message": "x", "timeout_ms": 600001}]:
		var result := _call(_asking_registry, params, null)
		Assert.eq(result.get("code"), "INVALID_PARAMS", "refused: %s" % JSON.stringify(params))
	Assert.eq(_asking.asked.size(), 0, "nobody was asked")


func test_the_answer_comes_back_as_given() -> void:
	var params := ResultExamples.params(DOMAIN, METHOD, 1)
	_result = {}
	_run(_asking_registry, params, ToolContext.new(7, 1, METHOD))
	Assert.eq(_result, {}, "waits for the person")
	Assert.eq(_asking.asked.back(), {"title": params["title"], "message": params["message"], "timeout_ms": 120000},
		"asked with the bridge's words")
	_asking.answered.emit("accept")
	ResultExamples.check(DOMAIN, METHOD, _result, 1)
	for answer: String in ["decline", "cancel"]:
		_run(_asking_registry, params, ToolContext.new(8, 1, METHOD))
		_asking.answered.emit(answer)
		Assert.eq(_result, {"success": true, "answer": answer}, "%s passes through" % answer)


func test_a_cancelled_request_answers_cancel() -> void:
	var job := ToolContext.new(9, 1, METHOD)
	_run(_asking_registry, {"message": "m"}, job)
	job.cancel()
	_asking.answered.emit("accept")
	Assert.eq(_result.get("answer"), "cancel", "an accept after the cancel does not count")


func test_dialog_says_what_and_takes_the_allow_click() -> void:
	var dialog := ConsentDialog.new("The AI assistant asks", "The AI assistant wants to: Delete res://big.bin.")
	_ask(dialog, ToolContext.new(1, 1, METHOD))
	Assert.is_true(dialog.dialog.is_inside_tree() and dialog.dialog.visible, "shown over the parent")
	Assert.eq(dialog.dialog.ok_button_text, "Allow", "the yes button says what it does")
	Assert.eq(dialog.dialog.cancel_button_text, "Don't allow", "so does the no button")
	var shown := ""
	for child: Node in dialog.dialog.get_children():
		if child is TextEdit:
			shown = (child as TextEdit).text
	Assert.eq(shown, "The AI assistant wants to: Delete res://big.bin.", "the whole question is in the dialog")
	Assert.eq(_dialog_answer, "", "no answer before a click")
	var allow := dialog.dialog.get_ok_button()
	Assert.is_true(allow.disabled, "a key typed as the dialog opens cannot allow: Allow waits until it could be read")
	Assert.is_true(not allow.has_focus(), "and the question has the focus, not Allow")
	dialog.allow_now()
	Assert.is_true(not allow.disabled, "then Allow can be pressed")
	dialog.dialog.confirmed.emit()
	Assert.eq(_dialog_answer, "accept", "Allow is accept")
	Assert.is_true(not dialog.dialog.visible, "the dialog closes with the answer")
	dialog.dialog.canceled.emit()
	Assert.eq(_dialog_answer, "accept", "only the first answer counts")


func test_dialog_refusal_and_withdrawal() -> void:
	var refused := ConsentDialog.new("t", "m")
	_ask(refused, null)
	refused.dialog.canceled.emit()
	Assert.eq(_dialog_answer, "decline", "Don't allow (or closing it) is decline")
	var job := ToolContext.new(2, 1, METHOD)
	var withdrawn := ConsentDialog.new("t", "m")
	_ask(withdrawn, job)
	job.cancel()
	Assert.eq(_dialog_answer, "cancel", "the bridge's cancel withdraws the question")
	Assert.is_true(not withdrawn.dialog.visible, "and closes the dialog")
	var late := ToolContext.new(3, 1, METHOD)
	late.cancel()
	var never := ConsentDialog.new("t", "m")
	_ask(never, late)
	Assert.eq(_dialog_answer, "cancel", "a request cancelled before the dialog opens never shows it")
	Assert.is_true(not never.dialog.visible, "not shown")


func test_the_context_asks_over_the_window_the_plugin_gave_it() -> void:
	var context := RuntimeContext.new(null)
	var asked := {}
	_ask_context(context, asked)
	Assert.eq(asked.get("answer", {}).get("unavailable", "").is_empty(), false, "no window given: nobody to ask")
	context.person.dialog_parent = _parent
	context.runtime_host.headless = true
	_ask_context(context, asked)
	Assert.is_true(str(asked["answer"].get("unavailable")).contains("headless"), "a headless editor: nobody to ask")
	context.runtime_host.headless = false
	_ask_context(context, asked)
	Assert.eq(asked, {}, "waits for the person")
	var dialogs := _parent.get_children().filter(func(child: Node) -> bool: return child is ConfirmationDialog)
	Assert.eq(dialogs.size(), 1, "the question is a dialog over the given window")
	(dialogs[0] as ConfirmationDialog).confirmed.emit()
	Assert.eq(asked.get("answer"), {"answer": "accept"}, "Allow answers accept")


func _ask_context(context: RefCounted, into: Dictionary) -> void:
	into.clear()
	into["answer"] = await context.person.ask_person("t", "m", 60000, ToolContext.new(5, 1, METHOD))


func _call(registry: CommandRegistry, params: Dictionary, job: RefCounted) -> Dictionary:
	_result = {}
	_run(registry, params, job)
	return _result


## The handler as the dispatch lane runs it (params, then the request's ToolContext), awaited.
func _run(registry: CommandRegistry, params: Dictionary, job: RefCounted) -> void:
	var handler: Callable = registry.dispatch_info(METHOD)["handler"]
	_result = await handler.call(params, job)


func _ask(dialog: RefCounted, job: RefCounted) -> void:
	_dialog_answer = ""
	_dialog_answer = await dialog.call("ask", _parent, 60000, job)
