@tool
extends RefCounted
## Canonical project key and per-project hash (contract C17).
##
## The key is the contract: the bridge looks a project up in projects.json by this exact string,
## recomputing the same recipe on its side. The 12-hex hash only names toolkit-owned things
## (the registry entry file, the user:// instance dir); nothing outside the toolkit recomputes it.
## Export-clean: the runtime autoload reaches this file through the registry client.

const HASH_LENGTH := 12
## Hosts whose default filesystems fold case, so "C:/Game" and "c:/game" are one project.
const CASE_FOLDING_HOSTS := ["Windows", "macOS"]


## `\` becomes `/`, trailing `/` go (a lone "/" stays), and case folds where the host's
## filesystem folds it. `os_name` defaults to the running host (OS.get_name()).
static func canonical(path: String, os_name: String = "") -> String:
	var host := os_name if not os_name.is_empty() else OS.get_name()
	var key := path.replace("\\", "/")
	while key.length() > 1 and key.ends_with("/"):
		key = key.left(key.length() - 1)
	if host in CASE_FOLDING_HOSTS:
		key = key.to_lower()
	return key


## First 12 hex digits of the SHA-256 of the canonical path.
static func project_hash(path: String, os_name: String = "") -> String:
	return canonical(path, os_name).sha256_text().left(HASH_LENGTH)


## The absolute root of the running project (editor or game), not yet canonical.
static func current_project_root() -> String:
	return ProjectSettings.globalize_path("res://")


static func current_key() -> String:
	return canonical(current_project_root())


static func current_hash() -> String:
	return project_hash(current_project_root())
