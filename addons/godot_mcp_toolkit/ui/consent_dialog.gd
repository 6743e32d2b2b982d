@tool
extends RefCounted
## The bridge's question for the person at the editor (GODOT_MCP_CONFIRM_IN_EDITOR=1): a dialog
## over the editor saying what the AI assistant wants to do and why it cannot be undone, with
## "Allow" and "Don't allow". ask() waits for one of: Allow (accept), Don't allow or closing the
## dialog (decline), the time running out, or the request being cancelled (cancel: the bridge
## withdrew the question). The dialog is removed whatever the answer. Core classes only (no
## Editor*), so the engine tests drive it; editor/editor_context.gd gives it the editor to sit on.

signal settled

const ALLOW := "Allow"
const REFUSE := "Don't allow"
const SIZE := Vector2i(720, 440)

var dialog: ConfirmationDialog = null
var _answer := ""


func _init(title: String, message: String) -> void:
	dialog = ConfirmationDialog.new()
	dialog.title = title
	dialog.ok_button_text = ALLOW
	dialog.cancel_button_text = REFUSE
	dialog.exclusive = false
	# The question can carry code the person must read in full: a scrolling, read-only text.
	var text := TextEdit.new()
	text.text = message
	text.editable = false
	text.wrap_mode = TextEdit.LINE_WRAPPING_BOUNDARY
	text.custom_minimum_size = Vector2(SIZE.x - 40, SIZE.y - 110)
	dialog.add_child(text)


## Shows the dialog on `parent` and returns the answer once there is one.
func ask(parent: Node, timeout_ms: int, job: RefCounted) -> String:
	dialog.confirmed.connect(_settle.bind("accept"))
	dialog.canceled.connect(_settle.bind("decline"))
	if job != null and job.has_signal("cancelled"):
		job.connect("cancelled", _settle.bind("cancel"))
	parent.add_child(dialog)
	var timer := parent.get_tree().create_timer(maxf(0.001, timeout_ms / 1000.0))
	timer.timeout.connect(_settle.bind("cancel"))
	if job != null and job.call("is_cancelled"):
		_settle("cancel")
	if _answer.is_empty():
		dialog.popup_centered(SIZE)
		await settled
	return _answer


## The first answer counts; the dialog goes away with it.
func _settle(answer: String) -> void:
	if not _answer.is_empty():
		return
	_answer = answer
	if is_instance_valid(dialog):
		dialog.hide()
		dialog.queue_free()
	settled.emit()
