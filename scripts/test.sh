#!/usr/bin/env bash
# The whole test suite from a clean checkout: make a venv, install the bridge with its
# test extras, run every test (Python, GDScript static checks, headless Godot tests when
# a godot binary is on PATH). Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check '.[test]'
exec .venv/bin/python -m pytest -q "$@"
