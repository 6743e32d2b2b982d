@tool
extends RefCounted
## Redacts secrets from text the toolkit hands back (logs, console, file reads) before it reaches
## a model (contract C21). Three narrow patterns rather than one broad one: a false positive hides
## text the user asked to see, so each pattern names a shape secrets actually have.
## Runtime-safe.

const REDACTED := "[REDACTED]"

## 1. `key = value` / `"key": "value"` where the key names a credential; keeps the key.
const ASSIGNMENT_PATTERN := "(?i)(\\b(?:[a-z0-9]+[_-])*(?:api[_-]?key|access[_-]?key|secret|client[_-]?secret" \
	+ "|token|auth[_-]?token|password|passwd|private[_-]?key)\\b[\"']?\\s*[:=]\\s*[\"']?)[^\\s\"',;]{6,}"
## 2. HTTP bearer credentials.
const BEARER_PATTERN := "(?i)(\\bbearer\\s+)[A-Za-z0-9._~+/=-]{16,}"
## 3. Self-identifying vendor keys: OpenAI/Anthropic style sk-, GitHub tokens, AWS access key ids,
## Slack tokens.
const VENDOR_PATTERN := "\\b(?:sk-[A-Za-z0-9_-]{20,}|gh[pousr]_[A-Za-z0-9]{30,}|AKIA[0-9A-Z]{16}" \
	+ "|xox[abprs]-[A-Za-z0-9-]{10,})\\b"

static var _assignment: RegEx = null
static var _bearer: RegEx = null
static var _vendor: RegEx = null


static func scrub(text: String) -> String:
	_compile()
	var out := _assignment.sub(text, "$1" + REDACTED, true)
	out = _bearer.sub(out, "$1" + REDACTED, true)
	return _vendor.sub(out, REDACTED, true)


static func _compile() -> void:
	if _assignment != null:
		return
	_assignment = RegEx.create_from_string(ASSIGNMENT_PATTERN)
	_bearer = RegEx.create_from_string(BEARER_PATTERN)
	_vendor = RegEx.create_from_string(VENDOR_PATTERN)
