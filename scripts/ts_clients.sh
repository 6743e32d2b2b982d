#!/usr/bin/env bash
# Install the TypeScript MCP client and its tasks extension (pinned) from npm into .cache/ts-clients/
# (gitignored), then print that directory. Used by tests/bridge/test_jobs_ts_client.py; safe to
# run again (a no-op once installed).
set -euo pipefail
cd "$(dirname "$0")/.."
CLIENT_VERSION=2.4.0      # @modelcontextprotocol/client: both protocol eras
EXT_TASKS_VERSION=0.2.2   # @modelcontextprotocol/ext-tasks: MCP tasks, 2025-11-25 and 2026-07-28
DIR=.cache/ts-clients
installed() {
  grep -q "\"version\": \"$CLIENT_VERSION\"" "$DIR/node_modules/@modelcontextprotocol/client/package.json" 2>/dev/null &&
    grep -q "\"version\": \"$EXT_TASKS_VERSION\"" "$DIR/node_modules/@modelcontextprotocol/ext-tasks/package.json" 2>/dev/null
}
if ! installed; then
  mkdir -p "$DIR"
  npm install --prefix "$DIR" --no-save --no-audit --no-fund --loglevel=error \
    "@modelcontextprotocol/client@$CLIENT_VERSION" "@modelcontextprotocol/ext-tasks@$EXT_TASKS_VERSION" >&2
fi
installed || { echo "ts_clients.sh: install incomplete" >&2; exit 1; }
echo "$PWD/$DIR"
