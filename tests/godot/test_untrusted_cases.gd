extends RefCounted
## security/untrusted.gd's envelope against tests/fixtures/toolkit/untrusted_cases.json, the table
## the bridge's envelope (godot_bridge/safety/untrusted.py) runs too.

const Assert := preload("assert.gd")
const Untrusted := preload("res://addons/godot_mcp_toolkit/security/untrusted.gd")
const CASES := "res://tests/fixtures/toolkit/untrusted_cases.json"
## The table's nonce, 0000002a.
const NONCE := 42


func test_the_envelope_is_the_tables() -> void:
	var parsed: Variant = JSON.parse_string(FileAccess.get_file_as_string(CASES))
	Assert.is_true(parsed is Dictionary, "%s parses" % CASES)
	if not parsed is Dictionary:
		return
	for case: Dictionary in parsed["cases"]:
		var wrapped := Untrusted.wrap(String(case["body"]), String(case["kind"]), String(case["source"]), NONCE)
		Assert.eq(wrapped, case["toolkit"], String(case["name"]))
		Assert.eq(Untrusted.unwrap(wrapped), Untrusted.strip_tags(String(case["body"])),
			String(case["name"]) + ": unwrap gives the body back")
