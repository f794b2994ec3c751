#!/usr/bin/env bash
# Prepares a fresh Debian machine: Debian packages (when asked), a virtualenv and
# the project's Python packages. Safe to run again; it skips what is already done.
set -euo pipefail
cd "$(dirname "$0")/.."

extras="${1:-}"          # "test" also installs the test tools, fc-solve and chromium;
debian_tools=""          # "test-quick" the test tools only (./test.sh --quick uses neither)
case "$extras" in
test) debian_tools=1 ;;
test-quick) extras=test ;;
"") ;;
*) echo "usage: $0 [test | test-quick]" >&2; exit 2 ;;
esac
py="${PYTHON:-python3}"

if ! "$py" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "Boulanger needs Python 3.11 or newer (found: $("$py" --version 2>&1))." >&2
    exit 1
fi

# Another apt-get or dpkg (an unattended upgrade, another setup) may hold apt's locks:
# wait for them (up to DPKG_LOCK_WAIT seconds, default 300) instead of failing at once.
lock_wait="${DPKG_LOCK_WAIT:-300}"

apt_install() {
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    # `apt-get update` waits for dpkg's lock but not for the lists lock another update holds:
    # retry it until that one is done.
    local waited=0
    until $sudo apt-get -o DPkg::Lock::Timeout="$lock_wait" update -qq; do
        if [ "$waited" -ge "$lock_wait" ]; then
            echo "apt-get update kept failing for ${lock_wait}s." >&2
            return 1
        fi
        sleep 5
        waited=$((waited + 5))
    done
    DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout="$lock_wait" \
        install -y -qq "$@" >/dev/null
}

if ! "$py" -m venv --help >/dev/null 2>&1 || ! "$py" -c 'import ensurepip' 2>/dev/null; then
    apt_install python3-venv
fi
if [ -n "$debian_tools" ] && ! command -v fc-solve >/dev/null 2>&1; then
    echo "Installing fc-solve (Debian freecell-solver-bin) for the solver checks…"
    apt_install freecell-solver-bin
fi
if [ -n "$debian_tools" ] && ! command -v tmux >/dev/null 2>&1; then
    echo "Installing tmux for the console's terminal tests…"
    apt_install tmux
fi
if [ -n "$debian_tools" ] && ! command -v g++ >/dev/null 2>&1; then
    echo "Installing g++ for the independent Klondike solver the tests compile…"
    apt_install g++
fi
if [ -n "$debian_tools" ] && ! command -v chromium >/dev/null 2>&1; then
    # The Activity's page is tested in Debian's own Chromium, driven by Playwright's Python API
    # (given executable_path): Playwright's downloaded browsers are not used.
    echo "Installing chromium (Debian) for the Activity's page tests…"
    apt_install chromium chromium-driver
fi
# Docker is not installed for the tests: they check compose.yaml against the Compose
# Specification's JSON schema, and run `docker compose config` only where Docker already is.

if [ ! -x .venv/bin/python ]; then
    "$py" -m venv .venv
fi
stamp=".venv/.installed-${extras:-run}"
want="$(cat pyproject.toml | sha256sum | cut -c1-16)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    .venv/bin/python -m pip install -q --upgrade pip
    if [ "$extras" = "test" ]; then
        .venv/bin/python -m pip install -q -e ".[test]"
    else
        .venv/bin/python -m pip install -q -e .
    fi
    echo "$want" > "$stamp"
fi
# Byte-compile the project's own modules: where PYTHONDONTWRITEBYTECODE is set (as on the CI
# machine) Python never caches them, and every start (the bot, each test's bot process) would
# compile them again: about 0.25 s of CPU a start. pip already compiles the installed packages.
.venv/bin/python -m compileall -q -j 0 engine renderer storage bot benchmarks tests >/dev/null
