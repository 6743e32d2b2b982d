@tool
extends RefCounted
## The bridge's question for the person at the editor (GODOT_MCP_CONFIRM_IN_EDITOR=1): a dialog
## over the editor saying what the AI assistant wants to do and why it cannot be undone, with
## "Allow" and "Don't allow". ask() waits for one of: Allow (accept), Don't allow or closing the
## dialog (decline), the time running out, or the request being cancelled (cancel: the bridge
## withdrew the question). The dialog is removed whatever the answer. Core classes only (no
## Editor*), so the engine tests drive it; editor/editor_context.gd gives it the editor to sit on.
## The bridge takes its answer as the person's however soon it comes, so a key the person was
## typing as it opened must not allow anything: the dialog opens with the question focused, not
## Allow (Godot focuses a dialog's OK button), and Allow can be pressed only READ_FIRST_S later.

signal settled

const ALLOW := "Allow"
const REFUSE := "Don't allow"
const SIZE := Vector2i(720, 440)
## No person reads the question faster (the bridge's rule for answers through the client too).
const READ_FIRST_S := 1.5

var dialog: ConfirmationDialog = null
var _text: TextEdit = null
var _answer := ""


func _init(title: String, message: String) -> void:
	dialog = ConfirmationDialog.new()
	dialog.title = title
	dialog.ok_button_text = ALLOW
	dialog.cancel_button_text = REFUSE
	dialog.exclusive = false
	# The question can carry code the person must read in full: a scrolling, read-only text.
	_text = TextEdit.new()
	_text.text = message
	_text.editable = false
	_text.wrap_mode = TextEdit.LINE_WRAPPING_BOUNDARY
	_text.custom_minimum_size = Vector2(SIZE.x - 40, SIZE.y - 110)
	dialog.add_child(_text)
	dialog.get_ok_button().disabled = true


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
		_text.grab_focus()
		parent.get_tree().create_timer(READ_FIRST_S).timeout.connect(allow_now)
		await settled
	return _answer


## Allow can be pressed from now on (READ_FIRST_S after the dialog opened).
func allow_now() -> void:
	if is_instance_valid(dialog):
		dialog.get_ok_button().disabled = false


## The first answer counts; the dialog goes away with it.
func _settle(answer: String) -> void:
	if not _answer.is_empty():
		return
	_answer = answer
	if is_instance_valid(dialog):
		dialog.hide()
		dialog.queue_free()
	settled.emit()
