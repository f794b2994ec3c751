#!/usr/bin/env bash
# Sets everything up, then runs the bot (SQLite in ./data by default).
# Needs DISCORD_TOKEN in the environment or in .env; see README.md.
set -euo pipefail
cd "$(dirname "$0")"
bash scripts/setup.sh
exec .venv/bin/python -m bot "$@"
