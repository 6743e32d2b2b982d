extends RefCounted
## Stand-ins for a real project's imported assets (images, sounds, fonts), which this engine
## cannot import: a resource of the asset's class put in the resource cache under the asset's
## path, so a scene or resource file that names it loads (tests/fixtures/projects/*/stand_ins.json,
## sent by tests/e2e/fixture_projects.py). Kept referenced here: the cache holds them weakly.

## An abstract class a file names -> the concrete class that stands in for it.
const CONCRETE := {"Texture2D": "PlaceholderTexture2D", "Texture": "PlaceholderTexture2D",
	"AudioStream": "AudioStreamWAV", "Font": "FontFile", "Mesh": "ArrayMesh"}

var _kept: Array[Resource] = []


## Caches one stand-in per {"path", "class"[, "size": [w, h]]}; the paths it could not stand in for.
func add(entries: Array) -> Array:
	var refused := []
	for entry: Dictionary in entries:
		var path := str(entry.get("path", ""))
		var type_name := str(CONCRETE.get(str(entry.get("class", "")), entry.get("class", "")))
		if path.is_empty() or not ClassDB.can_instantiate(type_name) or not ClassDB.is_parent_class(type_name, "Resource"):
			refused.append(path)
			continue
		var stand_in: Resource = ClassDB.instantiate(type_name)
		if stand_in is PlaceholderTexture2D and entry.get("size") is Array:
			(stand_in as PlaceholderTexture2D).size = Vector2(entry["size"][0], entry["size"][1])
		stand_in.take_over_path(path)
		_kept.append(stand_in)
	return refused
