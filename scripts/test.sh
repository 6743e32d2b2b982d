#!/usr/bin/env bash
# The whole test suite from a clean checkout: make a venv, install the bridge with its test
# extras, set up the Godot engine the GDScript tests run in (tests/godot/web/setup.sh: Debian's
# chromium-headless-shell and the pinned Godot 4.6 web template, idempotent, skipped when a
# `godot` binary is on PATH), then run every test, one pytest worker per core (pytest-xdist; each
# file stays on one worker, tests/engine/e2e all on one: tests/conftest.py). Extra arguments go to pytest
# (`-n 0`: in this process only). scripts/assistants.sh installs the pinned assistant CLIs (npm,
# idempotent) that tests/assistants drives.
# Without an engine the GDScript tests are reported as skipped with the reason, never as passed.
# Both ends of the mcp range in pyproject.toml: the whole suite runs at the newest release the
# range allows (what a fresh .venv gets), then scripts/test_mcp_lowest.sh runs the tests that
# depend on the SDK at the lowest, in .venv-mcp-low. Both always run; the script fails if either fails.
set -euo pipefail
cd "$(dirname "$0")/.."
# The assistant CLIs (npm) install while pip installs the bridge: neither uses the other.
bash scripts/assistants.sh </dev/null >/dev/null &
assistants=$!
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check '.[test,test-fastmcp,fast]'
if ! command -v "${GODOT:-godot}" >/dev/null 2>&1; then
  bash tests/godot/web/setup.sh </dev/null >&2 \
    || echo "test.sh: the Godot web engine could not be set up; GDScript engine tests will be skipped" >&2
fi
wait "$assistants" \
  || echo "test.sh: the assistant CLIs could not be installed; tests/assistants will be skipped" >&2
echo "test.sh: the whole suite at mcp $(.venv/bin/python -c \
  'from importlib.metadata import version; print(version("mcp"), "and mcp-types", version("mcp-types"))')" >&2
# The lowest-mcp venv is made while the whole suite runs (after the install above: two builds of
# the bridge from this folder at once would share its build files).
low_log=$(mktemp)
trap 'rm -f "$low_log"' EXIT
bash scripts/test_mcp_lowest.sh --prepare </dev/null >"$low_log" 2>&1 &
low_venv=$!
status=0
.venv/bin/python -m pytest -q -rs -n auto "$@" || status=$?
if wait "$low_venv"; then
  bash scripts/test_mcp_lowest.sh --installed </dev/null || status=$?
else
  echo "test.sh: the venv at the lowest mcp could not be made:" >&2
  cat "$low_log" >&2
  status=1
fi
exit "$status"
