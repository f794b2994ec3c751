#!/usr/bin/env bash
# Sets everything up (Python packages, fc-solve), then runs lint and the whole test suite.
set -euo pipefail
cd "$(dirname "$0")"
bash scripts/setup.sh test
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy --strict engine
exec .venv/bin/python -m pytest "$@"
