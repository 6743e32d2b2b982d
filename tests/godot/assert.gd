extends RefCounted
## Minimal assertions for the headless GDScript tests. Failures are collected, not thrown (GDScript
## has no exceptions), and the runner reports them per test method.

static var failures: Array[String] = []
static var checks := 0
## Set by the runner to "file::method" so each failure says where it came from.
static var current := ""


static func reset() -> void:
	failures.clear()
	checks = 0


static func eq(actual: Variant, expected: Variant, msg: String = "") -> bool:
	checks += 1
	if deep_equal(actual, expected):
		return true
	_record("%s\n      expected: %s\n      actual:   %s" % [msg, _show(expected), _show(actual)])
	return false


static func ne(actual: Variant, unexpected: Variant, msg: String = "") -> bool:
	checks += 1
	if not deep_equal(actual, unexpected):
		return true
	_record("%s\n      did not expect: %s" % [msg, _show(actual)])
	return false


static func is_true(condition: bool, msg: String = "") -> bool:
	checks += 1
	if condition:
		return true
	_record(msg if not msg.is_empty() else "expected true")
	return false


static func is_false(condition: bool, msg: String = "") -> bool:
	return is_true(not condition, msg if not msg.is_empty() else "expected false")


static func contains(haystack: String, needle: String, msg: String = "") -> bool:
	checks += 1
	if haystack.contains(needle):
		return true
	_record("%s\n      %s does not contain %s" % [msg, _show(haystack), _show(needle)])
	return false


## Structural equality where 1 == 1.0 (JSON parsing turns every number into a float) and
## dictionary key order does not matter.
static func deep_equal(a: Variant, b: Variant) -> bool:
	var a_number := a is int or a is float
	var b_number := b is int or b is float
	if a_number or b_number:
		return a_number and b_number and is_equal_approx(float(a), float(b))
	if a is Dictionary and b is Dictionary:
		if (a as Dictionary).size() != (b as Dictionary).size():
			return false
		for key: Variant in a:
			if not (b as Dictionary).has(key) or not deep_equal(a[key], b[key]):
				return false
		return true
	var a_list := a is Array or a is PackedStringArray
	var b_list := b is Array or b is PackedStringArray
	if a_list and b_list:
		var left := Array(a)
		var right := Array(b)
		if left.size() != right.size():
			return false
		for i in left.size():
			if not deep_equal(left[i], right[i]):
				return false
		return true
	if typeof(a) != typeof(b):
		return false
	return a == b


static func _record(text: String) -> void:
	failures.append("%s: %s" % [current, text])


static func _show(value: Variant) -> String:
	if value is Dictionary or value is Array:
		return JSON.stringify(value, "", true)
	return var_to_str(value)
