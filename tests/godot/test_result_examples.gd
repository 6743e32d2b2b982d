extends RefCounted
## The example matcher the domain tests use (tests/godot/result_examples.gd).

const Assert := preload("assert.gd")
const ResultExamples := preload("result_examples.gd")


func test_placeholders_match_by_type() -> void:
	var expected := {"success": true, "path": "<string>", "n": "<number>", "x": "<any>", "list": "<array>"}
	Assert.eq(ResultExamples.mismatch({"success": true, "path": "a", "n": 3, "x": null, "list": []}, expected, "r"),
		"", "typed placeholders accept their type")
	Assert.eq(ResultExamples.mismatch({"success": true, "path": 1, "n": 3, "x": 1, "list": []}, expected, "r"),
		"r.path: expected <string>", "a wrong type is named")


func test_extra_and_missing_keys_are_named() -> void:
	Assert.eq(ResultExamples.mismatch({"a": 1, "b": 2}, {"a": 1}, "r"), "r.b: not in the example", "extra key")
	Assert.eq(ResultExamples.mismatch({"a": 1}, {"a": 1, "c": [1]}, "r"), "r.c: missing", "missing key")
	Assert.eq(ResultExamples.mismatch({"a": [1, 2]}, {"a": [1, 3]}, "r"), "r.a[1]: 2, the example has 3", "item")
	Assert.eq(ResultExamples.mismatch({"a": 1.0}, {"a": 1}, "r"), "", "JSON numbers compare by value")
