#!/usr/bin/env bash
# Sets everything up (Python packages; Debian's fc-solve and chromium when absent), then runs lint,
# type checks and the whole test suite over every core (pytest-xdist). Arguments go on to pytest.
#
#   ./test.sh            everything (what CI runs: .ci/run)
#   ./test.sh --quick    the contributors' fast path: no Chromium, no programs started (the bot as a
#                        process, the command lines), no fc-solve comparisons, SQLite only (no
#                        PostgreSQL), no slow checks; no Debian package installed for it (the marks in
#                        pyproject.toml; tests/conftest.py keeps them honest)
set -euo pipefail
cd "$(dirname "$0")"
quick=""
extras=test
if [ "${1:-}" = "--quick" ]; then
    quick=1
    extras=test-quick  # the test packages, not chromium nor fc-solve (nothing here uses them)
    shift
fi
bash scripts/setup.sh "$extras"
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy --strict engine renderer storage bot
if [ -n "$quick" ]; then
    exec .venv/bin/python -m pytest -n auto --dist worksteal \
        -m "not (browser or processes or fcsolve or postgres or slow)" "$@"
fi
exec .venv/bin/python -m pytest -n auto --dist worksteal "$@"
