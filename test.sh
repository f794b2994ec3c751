#!/usr/bin/env bash
# Sets everything up (Python packages, fc-solve), then runs lint, type checks and the whole test suite.
set -euo pipefail
cd "$(dirname "$0")"
bash scripts/setup.sh test
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy --strict engine renderer storage bot
exec .venv/bin/python -m pytest "$@"
