extends Node2D
## The e2e game's player: moves right every frame, counts jumps and HUD resizes, reports a problem
## on request.

var speed := 60.0
var jumps := 0
var resizes := 0


func _process(delta: float) -> void:
	position.x += speed * delta


func _unhandled_input(event: InputEvent) -> void:
	if event.is_action_pressed("jump"):
		jumps += 1


func on_hud_resized() -> void:
	resizes += 1


func report_problem(message: String) -> void:
	push_error(message)
