#!/usr/bin/env bash
# Install a real MCP client library the consent tests drive the bridge with, pinned, into
# .cache/clients/ (gitignored), then print where it is:
#   client_libraries.sh ts       -> the folder holding node_modules/@modelcontextprotocol/client
#   client_libraries.sh fastmcp  -> the python of a venv with fastmcp (which brings mcp 2.3.0)
# Used by tests/bridge/test_consent_clients.py; safe to run again (a no-op once installed).
set -euo pipefail
cd "$(dirname "$0")/.."
TS_CLIENT_VERSION=2.4.0   # @modelcontextprotocol/client: the TypeScript SDK 2.x, both eras
FASTMCP_VERSION=4.1.6
DIR=.cache/clients
case "${1:-}" in
  ts)
    manifest="$DIR/ts/node_modules/@modelcontextprotocol/client/package.json"
    if ! grep -q "\"version\": \"$TS_CLIENT_VERSION\"" "$manifest" 2>/dev/null; then
      mkdir -p "$DIR/ts"
      npm install --prefix "$DIR/ts" --no-save --no-audit --no-fund --loglevel=error \
        "@modelcontextprotocol/client@$TS_CLIENT_VERSION" >&2
    fi
    grep -q "\"version\": \"$TS_CLIENT_VERSION\"" "$manifest" || { echo "client_libraries.sh: ts install incomplete" >&2; exit 1; }
    echo "$PWD/$DIR/ts"
    ;;
  fastmcp)
    venv="$DIR/fastmcp"
    installed() { "$venv/bin/python" -c "import sys, fastmcp; sys.exit(fastmcp.__version__ != '$FASTMCP_VERSION')" 2>/dev/null; }
    if ! installed; then
      rm -rf "$venv"
      "${PYTHON:-python3}" -m venv "$venv"
      "$venv/bin/python" -m pip install -q --disable-pip-version-check "fastmcp==$FASTMCP_VERSION" >&2
    fi
    installed || { echo "client_libraries.sh: fastmcp install incomplete" >&2; exit 1; }
    echo "$PWD/$venv/bin/python"
    ;;
  *)
    echo "usage: client_libraries.sh ts|fastmcp" >&2
    exit 2
    ;;
esac
