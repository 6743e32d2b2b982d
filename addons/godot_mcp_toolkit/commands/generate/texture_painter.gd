@tool
extends RefCounted
## Paints placeholder shapes into an Image (solid, circle, triangle, diamond, arrow, checkerboard,
## grid) with a fill, an outline and a background. Pure pixel work on Image; runtime-safe.

const SHAPES := ["solid", "circle", "triangle", "diamond", "arrow", "checkerboard", "grid"]
const DIRECTIONS := ["up", "down", "left", "right"]


## `style`: shape, width, height, fill, outline, background (Colors), outline_width, direction,
## cell_size (all checked by the caller).
static func paint(style: Dictionary) -> Image:
	var width: int = style["width"]
	var height: int = style["height"]
	var image := Image.create(width, height, false, Image.FORMAT_RGBA8)
	image.fill(style["background"])
	var shape: String = style["shape"]
	if shape == "checkerboard" or shape == "grid":
		_pattern(image, style)
		return image
	var outline_width: int = style["outline_width"]
	for y: int in height:
		for x: int in width:
			var p := _unit(x, y, width, height, style["direction"])
			if not _inside(shape, p):
				continue
			var edge := _is_edge(shape, x, y, width, height, outline_width, style["direction"])
			image.set_pixel(x, y, style["outline"] if edge else style["fill"])
	return image


## Pixel centre in [-1, 1]², rotated so "up" is the canonical arrow/triangle direction.
static func _unit(x: int, y: int, width: int, height: int, direction: String) -> Vector2:
	var p := Vector2((x + 0.5) / width * 2.0 - 1.0, (y + 0.5) / height * 2.0 - 1.0)
	match direction:
		"down":
			return Vector2(p.x, -p.y)
		"left":
			return Vector2(p.y, p.x)
		"right":
			return Vector2(p.y, -p.x)
	return p


static func _inside(shape: String, p: Vector2) -> bool:
	match shape:
		"circle":
			return p.length_squared() <= 1.0
		"triangle":
			# Apex at the top centre, base along the bottom.
			return abs(p.x) <= (p.y + 1.0) / 2.0
		"diamond":
			return abs(p.x) + abs(p.y) <= 1.0
		"arrow":
			# A head over the top half, a shaft half as wide below it.
			return abs(p.x) <= (p.y + 1.0) if p.y < 0.0 else abs(p.x) <= 0.35
	return true


## On the outline when some pixel within outline_width is outside the shape (or the image).
static func _is_edge(shape: String, x: int, y: int, width: int, height: int, outline_width: int,
		direction: String) -> bool:
	if outline_width <= 0:
		return false
	for offset: Vector2i in [Vector2i(outline_width, 0), Vector2i(-outline_width, 0),
			Vector2i(0, outline_width), Vector2i(0, -outline_width)]:
		var nx := x + offset.x
		var ny := y + offset.y
		if nx < 0 or ny < 0 or nx >= width or ny >= height:
			return true
		if not _inside(shape, _unit(nx, ny, width, height, direction)):
			return true
	return false


## checkerboard: alternating fill/outline cells; grid: outline lines every cell_size over the fill.
static func _pattern(image: Image, style: Dictionary) -> void:
	var cell: int = style["cell_size"]
	var line: int = max(int(style["outline_width"]), 1)
	for y: int in image.get_height():
		for x: int in image.get_width():
			if style["shape"] == "checkerboard":
				var odd := (x / cell + y / cell) % 2 == 1
				image.set_pixel(x, y, style["outline"] if odd else style["fill"])
			else:
				var on_line := x % cell < line or y % cell < line
				image.set_pixel(x, y, style["outline"] if on_line else style["fill"])
