#!/usr/bin/env bash
# Runs the headless GDScript tests against a throwaway Godot project that links in the addon,
# the tests and their fixtures. Skips (exit 0, says so) when no `godot` binary is on PATH.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
godot_bin="${GODOT:-godot}"

if ! command -v "$godot_bin" >/dev/null 2>&1; then
  echo "godot tests: skipped (no godot binary on PATH)"
  exit 0
fi

project="$(mktemp -d)"
trap 'rm -rf "$project"' EXIT
mkdir -p "$project/tests"
ln -s "$repo/addons" "$project/addons"
ln -s "$repo/tests/godot" "$project/tests/godot"
ln -s "$repo/tests/fixtures" "$project/tests/fixtures"
cat >"$project/project.godot" <<'GODOT'
config_version=5

[application]
config/name="godot-mcp-toolkit tests"
GODOT

# One editor pass builds the global class cache, so `extends MCPToolkitExtension` resolves.
"$godot_bin" --headless --path "$project" --editor --quit >/dev/null 2>&1 || true
"$godot_bin" --headless --path "$project" --script res://tests/godot/runner.gd
