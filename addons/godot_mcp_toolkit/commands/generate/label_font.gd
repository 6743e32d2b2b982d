@tool
extends RefCounted
## A built-in 3x5 pixel font for placeholder labels (Image has no text drawing, and a real font
## raster needs a renderer). Each glyph is five rows of three bits, one octal digit per row, the
## high bit on the left. Text is upper-cased, scaled by a whole factor to fit, and centred. Pure.

const GLYPH_WIDTH := 3
const GLYPH_HEIGHT := 5
const GAP := 1
const GLYPHS := {
	"A": "25755", "B": "65656", "C": "34443", "D": "65556", "E": "74647", "F": "74644", "G": "34553",
	"H": "55755", "I": "72227", "J": "11152", "K": "55655", "L": "44447", "M": "57755", "N": "57775",
	"O": "25552", "P": "65644", "Q": "25563", "R": "65655", "S": "34216", "T": "72222", "U": "55557",
	"V": "55552", "W": "55775", "X": "55255", "Y": "55222", "Z": "71247",
	"0": "75557", "1": "26227", "2": "61247", "3": "61216", "4": "55711", "5": "74616", "6": "34757",
	"7": "71222", "8": "75757", "9": "75716",
	" ": "00000", "-": "00700", "!": "22202", "?": "61202", ".": "00002", ":": "02020", "+": "02720", "/": "11244",
}


## The characters of `text` this font cannot draw ("" when it can draw all).
static func unsupported(text: String) -> String:
	var missing := ""
	for character: String in text.to_upper():
		if not GLYPHS.has(character) and not character in missing:
			missing += character
	return missing


## The whole-number scale that fits `text` inside `size` with a 1 px margin; 0 when it cannot fit.
static func fit_scale(text: String, size: Vector2i) -> int:
	var width := text.length() * (GLYPH_WIDTH + GAP) - GAP
	return mini((size.x - 2) / maxi(width, 1), (size.y - 2) / GLYPH_HEIGHT)


## Draws `text` centred on `image` in `color` (call fit_scale first; scale must be >= 1).
static func draw(image: Image, text: String, color: Color, scale: int) -> void:
	var upper := text.to_upper()
	var width := (upper.length() * (GLYPH_WIDTH + GAP) - GAP) * scale
	var origin := Vector2i((image.get_width() - width) / 2, (image.get_height() - GLYPH_HEIGHT * scale) / 2)
	for index: int in upper.length():
		var rows: String = GLYPHS[upper[index]]
		var left := origin.x + index * (GLYPH_WIDTH + GAP) * scale
		for row: int in GLYPH_HEIGHT:
			var bits := rows[row].to_int()
			for column: int in GLYPH_WIDTH:
				if bits & (4 >> column):
					image.fill_rect(Rect2i(left + column * scale, origin.y + row * scale, scale, scale), color)
