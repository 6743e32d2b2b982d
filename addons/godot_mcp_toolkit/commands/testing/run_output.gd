@tool
extends RefCounted
## What a test process printed, read back from the log file it was told to write (--log-file):
## when a run ends without a report, its error lines and its last lines are the only account of
## what went wrong (a framework whose own scripts do not compile on this Godot still exits 0).
## Runtime-safe.

const LogFile := preload("res://addons/godot_mcp_toolkit/logs/log_file.gd")

const MAX_ERRORS := 10
const MAX_LAST_LINES := 10
## Terminal colour and cursor codes some frameworks print (gdUnit4 colours every line).
const ANSI_CODE := "\u001b\\[[0-9;?]*[A-Za-z]"
## Where each framework keeps its own scripts: errors there mean the framework itself is broken.
const FRAMEWORK_DIRS := {"gut": "res://addons/gut/", "gdunit4": "res://addons/gdUnit4/"}


## {"errors": [line], "last_lines": [line]} from the log at `log_path` (an absolute path), or
## {"unavailable": why} when there is nothing to read.
static func excerpt(log_path: String) -> Dictionary:
	var read := LogFile.read(log_path)
	if not read["ok"]:
		return {"unavailable": read["reason"]}
	var codes := RegEx.create_from_string(ANSI_CODE)
	var errors: Array[String] = []
	var lines: Array[String] = []
	for entry: Dictionary in read["entries"]:
		var line := codes.sub(str(entry["message"]), "", true).strip_edges()
		if line.is_empty():
			continue
		lines.append(line)
		if entry["level"] == "error" and errors.size() < MAX_ERRORS:
			errors.append("%s (at %s)" % [line, entry["source"]] if entry.has("source") else line)
	return {"errors": errors, "last_lines": lines.slice(-MAX_LAST_LINES)}


## The hint for a run in which `framework` (`version` as its plugin.cfg says) wrote no report.
static func no_report_hint(framework: String, version: String, output: Dictionary) -> String:
	var named := ("%s %s" % [framework, version]).strip_edges()
	var engine := "%d.%d" % [Engine.get_version_info()["major"], Engine.get_version_info()["minor"]]
	for line: String in output.get("errors", []):
		if line.contains(FRAMEWORK_DIRS.get(framework, "\n")):
			return "%s does not compile on Godot %s: its own scripts report errors (suites[].output). " % [named, engine] \
				+ "Update %s to a release made for Godot %s, then run the tests again." % [framework, engine]
	if output.has("unavailable"):
		return "The %s test process ended without writing a report, and left no output to read (%s)." % [
			named, output["unavailable"]]
	return "The %s test process ended without writing a report; suites[].output holds its error lines " % named \
		+ "and last lines."
