extends RefCounted
## The result examples in tests/fixtures/toolkit/results/<domain>.json (see the README there): the
## shapes the toolkit simulator serves to the bridge's tests. A domain test runs an example's params
## and checks the real reply against the example, so the simulator never serves a guessed shape.

const Assert := preload("assert.gd")
const RESULTS_DIR := "res://tests/fixtures/toolkit/results"
const TYPED := {
	"<string>": TYPE_STRING, "<bool>": TYPE_BOOL, "<array>": TYPE_ARRAY, "<object>": TYPE_DICTIONARY,
}


## The examples of one method (each {about, params, result}); empty when the file or method is missing.
static func examples(domain: String, method: String) -> Array:
	var path := RESULTS_DIR.path_join(domain + ".json")
	var text := FileAccess.get_file_as_string(path)
	var parsed: Variant = JSON.parse_string(text)
	if not parsed is Dictionary:
		Assert.is_true(false, "%s does not parse as a JSON object" % path)
		return []
	var found: Variant = (parsed as Dictionary).get(method, [])
	return found if found is Array else []


## The params of example `index` of a method (so a test calls exactly what the fixture records).
static func params(domain: String, method: String, index: int = 0) -> Dictionary:
	var list := examples(domain, method)
	if index >= list.size():
		Assert.is_true(false, "no example %d for %s in %s.json" % [index, method, domain])
		return {}
	return (list[index] as Dictionary).get("params", {})


## Asserts that `actual` matches example `index`'s result (placeholders allowed there).
static func check(domain: String, method: String, actual: Variant, index: int = 0) -> bool:
	var list := examples(domain, method)
	if index >= list.size():
		return Assert.is_true(false, "no example %d for %s in %s.json" % [index, method, domain])
	var expected: Variant = (list[index] as Dictionary).get("result")
	var where := mismatch(actual, expected, "result")
	return Assert.is_true(where.is_empty(), "%s example %d: %s\n      actual: %s" % [
		method, index, where, JSON.stringify(actual)])


## "" when `actual` matches `expected` (with placeholders), else where and how it differs.
static func mismatch(actual: Variant, expected: Variant, at: String) -> String:
	if expected is String and (expected == "<any>" or TYPED.has(expected) or expected == "<number>"):
		if expected == "<any>":
			return ""
		if expected == "<number>":
			return "" if (actual is int or actual is float) else "%s: expected a number" % at
		return "" if typeof(actual) == TYPED[expected] else "%s: expected %s" % [at, expected]
	if expected is Dictionary:
		if not actual is Dictionary:
			return "%s: expected an object" % at
		var want := expected as Dictionary
		var got := actual as Dictionary
		for key: Variant in want:
			if not got.has(key):
				return "%s.%s: missing" % [at, key]
			var inner := mismatch(got[key], want[key], "%s.%s" % [at, key])
			if not inner.is_empty():
				return inner
		for key: Variant in got:
			if not want.has(key):
				return "%s.%s: not in the example" % [at, key]
		return ""
	if expected is Array:
		if not (actual is Array or actual is PackedStringArray):
			return "%s: expected an array" % at
		var got_list := Array(actual)
		if got_list.size() != (expected as Array).size():
			return "%s: %d items, the example has %d" % [at, got_list.size(), (expected as Array).size()]
		for i in got_list.size():
			var inner := mismatch(got_list[i], expected[i], "%s[%d]" % [at, i])
			if not inner.is_empty():
				return inner
		return ""
	return "" if Assert.deep_equal(actual, expected) else "%s: %s, the example has %s" % [
		at, JSON.stringify(actual), JSON.stringify(expected)]
