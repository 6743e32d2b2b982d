#!/usr/bin/env bash
# The tests that depend on what the MCP SDK does (tests/mcp_lowest_tests.txt, each with why), run
# against the lowest mcp pyproject.toml's range allows: a venv of its own, .venv-mcp-low, with the
# bridge installed under constraints/mcp-lowest.txt. scripts/test.sh runs it after the whole suite,
# which runs at the newest mcp the range allows. Extra arguments go to pytest.
# Four pytest workers on any machine: these tests mostly wait on bridge processes, not on the CPU.
# --prepare only makes the venv (test.sh does that while the whole suite runs); --installed only
# runs the tests in the venv a --prepare made.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.venv-mcp-low
step=${1:-}
case "$step" in --prepare|--installed) shift ;; *) step= ;; esac
if [ "$step" != --installed ]; then
  if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
  fi
  # No fastmcp here (the test-fastmcp extra): fastmcp 4 needs mcp>=2.3.
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -c constraints/mcp-lowest.txt '.[test,fast]'
  [ "$step" = --prepare ] && exit 0
fi
mapfile -t tests < <(sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' tests/mcp_lowest_tests.txt)
echo "test_mcp_lowest.sh: ${#tests[@]} entries of tests/mcp_lowest_tests.txt at mcp $("$venv/bin/python" -c \
  'from importlib.metadata import version; print(version("mcp"), "and mcp-types", version("mcp-types"))')" >&2
exec "$venv/bin/python" -m pytest -q -rs -n 4 "${tests[@]}" "$@"
