#!/usr/bin/env bash
# Install the real assistant CLIs the tests in tests/assistants/ drive, pinned, with the Node 22 they
# need, into .cache/assistants/ (gitignored), then print that folder (its node_modules/.bin holds
# claude, codex, gemini, copilot, qwen, opencode and node). Safe to run again: a no-op once every
# pinned version is there. ASSISTANTS_DIR=<folder> installs (or finds) them elsewhere.
# The tests skip, with the reason, when this script fails (tests/assistants/conftest.py).
set -euo pipefail
cd "$(dirname "$0")/.."
DIR="${ASSISTANTS_DIR:-.cache/assistants}"
PINS=(
  "node@22"
  "@anthropic-ai/claude-code@2.1.328"
  "@openai/codex@0.169.0"
  "@google/gemini-cli@0.61.0"
  "@github/copilot@1.0.102"
  "@qwen-code/qwen-code@0.24.4"
  "opencode-ai@1.18.33"
)

installed() {  # every pinned package at its version (node: major 22), and every command there
  local pin name version manifest
  for pin in "${PINS[@]}"; do
    name="${pin%@*}"
    version="${pin##*@}"
    manifest="$DIR/node_modules/$name/package.json"
    grep -q "\"version\": \"$version" "$manifest" 2>/dev/null || return 1
  done
  for cli in node claude codex gemini copilot qwen opencode; do
    [ -x "$DIR/node_modules/.bin/$cli" ] || return 1
  done
}

mkdir -p "$DIR"
exec 9>"$DIR/.install.lock"
flock 9  # test workers may call this at once: one installs, the others wait and find it done
if ! installed; then
  [ -f "$DIR/package.json" ] || echo '{"private": true}' >"$DIR/package.json"
  npm install --prefix "$DIR" --no-save --no-audit --no-fund --loglevel=error "${PINS[@]}" >&2
fi
installed || { echo "assistants.sh: install incomplete in $DIR" >&2; exit 1; }
(cd "$DIR" && pwd)
