#!/usr/bin/env bash
# Install, pinned, the bridges the context-cost benchmark compares with (bench/context_cost.py):
# the reference bridge and the other Godot MCP servers that list their tools without an editor.
# Each goes in a folder of its own under bench/.peers/ (gitignored): npm packages with `npm install
# --prefix`, PyPI packages in a venv each (their dependencies disagree with each other and with
# ours). Node 22 comes from the npm package node@22. Safe to run again; prints the folder.
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=bench/.peers
NODE=node@22
NPM_PEERS=("@npgamedev/godot-mcp-server@1.0.2" "@satelliteoflove/godot-mcp@4.1.11" "gopeak@2.3.8")
PYPI_PEERS=("godot-editor-mcp==2026.10.20.1" "godot-ai==4.3.1")
mkdir -p "$DIR"
for spec in "${NPM_PEERS[@]}"; do
  name=${spec%@*}; folder="$DIR/npm-${name//[@\/]/_}"
  if ! grep -q "\"version\": \"${spec##*@}\"" "$folder/node_modules/$name/package.json" 2>/dev/null; then
    npm install --prefix "$folder" --no-save --no-audit --no-fund --loglevel=error "$spec" "$NODE" >&2
  fi
done
for spec in "${PYPI_PEERS[@]}"; do
  name=${spec%%==*}; folder="$DIR/pypi-$name"
  if ! "$folder/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('$name') != '${spec##*==}')" 2>/dev/null; then
    rm -rf "$folder"
    "${PYTHON:-python3}" -m venv "$folder"
    "$folder/bin/python" -m pip install -q --disable-pip-version-check "$spec" >&2
  fi
done
echo "$PWD/$DIR"
