#!/usr/bin/env bash
# Rebuilds the Activity's SDK bundle, bot/activity/static/sdk.js, from activity-sdk/ (Discord's
# Embedded App SDK at the version its package-lock.json pins, bundled by esbuild). The bundle is
# committed, so running the bot or its tests needs no Node: run this after changing the SDK's
# version (npm install @discord/embedded-app-sdk@X in activity-sdk/, then this) and commit both.
set -euo pipefail
cd "$(dirname "$0")/../activity-sdk"
if ! command -v npm >/dev/null 2>&1; then
    echo "npm is needed to rebuild the bundle (Debian: apt-get install npm)." >&2
    exit 1
fi
npm ci --no-audit --no-fund
npm run build
sdk="$(node -p 'require("./package-lock.json").packages["node_modules/@discord/embedded-app-sdk"].version')"
# The bundle starts with the versions it was built from (tests/test_activity_bundle.py reads it).
bundle=../bot/activity/static/sdk.js
printf '/* @discord/embedded-app-sdk %s, bundled by esbuild from activity-sdk/ (scripts/build_activity.sh) */\n%s\n' \
    "$sdk" "$(cat "$bundle")" > "$bundle.tmp"
mv "$bundle.tmp" "$bundle"
echo "built $bundle (@discord/embedded-app-sdk $sdk)"
