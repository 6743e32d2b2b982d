#!/usr/bin/env bash
# Install the MCP Inspector (pinned) from npm into .cache/inspector/ (gitignored), then print that
# directory. Used by tests/bridge/test_inspector_client.py, which runs its CLI (`mcp-inspector
# --cli`) against the bridge; safe to run again (a no-op once installed).
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION=2.12.0   # @modelcontextprotocol/inspector: both protocol eras (--protocol-era legacy|modern)
DIR=.cache/inspector
installed() {
  grep -q "\"version\": \"$VERSION\"" "$DIR/node_modules/@modelcontextprotocol/inspector/package.json" 2>/dev/null
}
if ! installed; then
  mkdir -p "$DIR"
  npm install --prefix "$DIR" --no-save --no-audit --no-fund --loglevel=error \
    "@modelcontextprotocol/inspector@$VERSION" >&2
fi
installed || { echo "inspector.sh: install incomplete" >&2; exit 1; }
echo "$PWD/$DIR"
