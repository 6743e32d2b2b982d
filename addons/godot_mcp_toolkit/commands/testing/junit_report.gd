@tool
extends RefCounted
## Reads the JUnit XML report GUT (-gjunit_xml_file) and gdUnit4 (report_N/results.xml) write into
## one result per test: {name, suite, status, message, file, line, duration_s}. The status comes
## from the testcase's child element (failure -> failed, error -> errored, skipped -> skipped) or,
## for GUT, its `status` attribute (fail, pending, skipped, and "no asserts": a test that asserted
## nothing, which GUT itself calls risky). Where the report names a source position
## ("res://x.gd:12" in gdUnit4's message, "at line 12" in GUT's text) it becomes file and line; a
## line below 1 (neither framework knows the line without a call stack, as in release builds) is
## dropped and the file kept. A gdUnit4 skip's text is boilerplate around its reason: the reason is
## the message. XMLParser only, so it runs on 4.2 and in any context.

const STATUSES := ["passed", "failed", "errored", "skipped", "risky"]
## A failure text can hold a whole stack; the model needs its head.
const MESSAGE_CHARS := 2000
const OUTCOMES := {"failure": "failed", "error": "errored", "skipped": "skipped"}
const GUT_STATUSES := {"fail": "failed", "pending": "skipped", "skipped": "skipped", "error": "errored",
	"no asserts": "risky"}
const RISKY_MESSAGE := "the test made no assertion"


## {"ok": true, "tests": Array[Dictionary]} or {"ok": false, "error": String}.
static func parse(text: String) -> Dictionary:
	var parser := XMLParser.new()
	if text.strip_edges().is_empty() or parser.open_buffer(text.to_utf8_buffer()) != OK:
		return {"ok": false, "error": "the report is empty"}
	var tests: Array[Dictionary] = []
	var suite := ""
	var current: Dictionary = {}
	var outcome := ""
	var saw_root := false
	while true:
		var error := parser.read()
		if error == ERR_FILE_EOF:
			break
		if error != OK:
			return {"ok": false, "error": "the report is not well-formed XML (line %d)" % parser.get_current_line()}
		match parser.get_node_type():
			XMLParser.NODE_ELEMENT:
				var tag := parser.get_node_name()
				saw_root = saw_root or tag in ["testsuites", "testsuite"]
				if tag == "testsuite":
					suite = _attr(parser, "name")
				elif tag == "testcase":
					current = _start_case(parser, suite)
					if parser.is_empty():
						tests.append(_finish_case(current))
						current = {}
				elif OUTCOMES.has(tag) and not current.is_empty():
					current["status"] = OUTCOMES[tag]
					current["_attr_message"] = _attr(parser, "message")
					# <skipped .../> has no end tag and no text of its own.
					outcome = "" if parser.is_empty() else tag
			XMLParser.NODE_TEXT, XMLParser.NODE_CDATA:
				if not outcome.is_empty() and not current.is_empty():
					current["_text"] = str(current.get("_text", "")) + _node_text(parser)
			XMLParser.NODE_ELEMENT_END:
				var tag := parser.get_node_name()
				if tag == outcome:
					outcome = ""
				elif tag == "testcase" and not current.is_empty():
					tests.append(_finish_case(current))
					current = {}
	if not saw_root:
		return {"ok": false, "error": "the report has no <testsuites> or <testsuite> element"}
	if not current.is_empty():
		# A process killed while writing leaves a report that stops inside a test.
		return {"ok": false, "error": "the report is cut off inside testcase %s" % current["name"]}
	return {"ok": true, "tests": tests}


## Counts per status plus the summed duration.
static func totals(tests: Array) -> Dictionary:
	var counts := {"tests": tests.size(), "passed": 0, "failed": 0, "errored": 0, "skipped": 0, "risky": 0,
		"duration_s": 0.0}
	for test: Dictionary in tests:
		counts[test["status"]] += 1
		counts["duration_s"] += float(test.get("duration_s", 0.0))
	counts["duration_s"] = snappedf(counts["duration_s"], 0.001)
	return counts


static func _start_case(parser: XMLParser, suite: String) -> Dictionary:
	var time := _attr(parser, "time").strip_edges()
	return {
		"name": _attr(parser, "name"),
		"suite": suite if not suite.is_empty() else _attr(parser, "classname"),
		"status": GUT_STATUSES.get(_attr(parser, "status"), "passed"),
		"duration_s": snappedf(time.to_float(), 0.001) if time.is_valid_float() else 0.0,
	}


## Picks the message (the element's text, else its message attribute) and a source position.
static func _finish_case(case: Dictionary) -> Dictionary:
	var text := str(case.get("_text", "")).strip_edges()
	var attr := str(case.get("_attr_message", "")).strip_edges()
	var result := {"name": case["name"], "suite": case["suite"], "status": case["status"],
		"duration_s": case["duration_s"]}
	var message := text if not text.is_empty() else attr
	if case["status"] == "skipped":
		message = _skip_reason(message)
	elif case["status"] == "risky" and message.is_empty():
		message = RISKY_MESSAGE
	if not message.is_empty():
		result["message"] = message.left(MESSAGE_CHARS)
	var where := _position("%s\n%s" % [attr, text])
	if not where.is_empty():
		result.merge(where)
	return result


## gdUnit4 writes "This test is skipped!\n  Reason: '<reason>'": the reason alone says it.
static func _skip_reason(text: String) -> String:
	var reason := RegEx.create_from_string("Reason: '(.*)'\\s*$").search(text)
	return reason.get_string(1) if reason != null else text


## {"file", "line"} from "res://path.gd:12", or {"line"} from GUT's "at line 12"; {} when neither.
## A line below 1 is unknown: the file stays, the line goes.
static func _position(text: String) -> Dictionary:
	var located := RegEx.create_from_string("(res://[^\\s:\"'<>]+\\.gd):(-?\\d+)").search(text)
	if located != null:
		var at := {"file": located.get_string(1)}
		if located.get_string(2).to_int() >= 1:
			at["line"] = located.get_string(2).to_int()
		return at
	var gut := RegEx.create_from_string("at line (-?\\d+)").search(text)
	if gut != null and gut.get_string(1).to_int() >= 1:
		return {"line": gut.get_string(1).to_int()}
	return {}


## XMLParser keeps a CDATA section's content as the node's *name*; plain text is its data.
static func _node_text(parser: XMLParser) -> String:
	if parser.get_node_type() == XMLParser.NODE_CDATA:
		return parser.get_node_name()
	return parser.get_node_data()


static func _attr(parser: XMLParser, name: String) -> String:
	return parser.get_named_attribute_value_safe(name)
