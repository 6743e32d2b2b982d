#!/usr/bin/env bash
# Install the official MCP conformance suite and the Node 22 it needs, pinned, into
# .cache/conformance/ (gitignored), then print the directory holding their binaries.
# Used by tests/bridge/test_http_conformance.py; safe to run again (a no-op once installed).
set -euo pipefail
cd "$(dirname "$0")/.."
CONFORMANCE_VERSION=0.2.0-alpha.12   # the 0.2 pre-releases carry the 2026-07-28 scenarios
NODE_VERSION=22.23.3                 # the suite needs Node >= 22; npm ships it as a package
DIR=.cache/conformance
installed() {
  grep -q "\"version\": \"$CONFORMANCE_VERSION\"" "$DIR/node_modules/@modelcontextprotocol/conformance/package.json" 2>/dev/null &&
    grep -q "\"version\": \"$NODE_VERSION\"" "$DIR/node_modules/node/package.json" 2>/dev/null &&
    [ -x "$DIR/node_modules/.bin/conformance" ] && [ -x "$DIR/node_modules/.bin/node" ]
}
if ! installed; then
  mkdir -p "$DIR"
  npm install --prefix "$DIR" --no-save --no-audit --no-fund --loglevel=error \
    "@modelcontextprotocol/conformance@$CONFORMANCE_VERSION" "node@$NODE_VERSION" >&2
fi
installed || { echo "conformance.sh: install incomplete" >&2; exit 1; }
echo "$PWD/$DIR/node_modules/.bin"
