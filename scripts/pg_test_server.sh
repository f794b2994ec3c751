#!/usr/bin/env bash
# A throw-away PostgreSQL server for the test suite, when no other is at hand.
#
#   scripts/pg_test_server.sh start       prints "URL DIR": a new cluster in the temporary folder DIR,
#                                         listening on 127.0.0.1 on a free port, trust login as postgres
#   scripts/pg_test_server.sh stop DIR    stops that cluster and deletes DIR
#
# Installs Debian's postgresql package first when no initdb is found. The
# cluster runs as an unprivileged user (postgres refuses to run as root): the
# postgres system user if there is one, else nobody. It is built for speed,
# not safety (fsync off): never put data you want to keep in it.
set -euo pipefail

find_bin() {
    local dir
    for dir in /usr/lib/postgresql/*/bin; do
        [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ] && echo "$dir"
    done | sort -V | tail -n 1
}

as_owner() {  # run "$@" as the (unprivileged) owner of folder $1
    local owner
    owner="$(stat -c %U "$1")"
    shift
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u "$owner" -- "$@"
    else
        "$@"
    fi
}

case "${1:-}" in
start)
    bin="$(find_bin)"
    if [ -z "$bin" ]; then
        # The suite's workers (pytest-xdist) may all get here at once: one installs, the others
        # wait for it on this lock, then find it installed.
        exec 9>/tmp/boulanger-pg-install.lock
        flock 9
        bin="$(find_bin)"
    fi
    if [ -z "$bin" ]; then
        echo "Installing PostgreSQL (Debian postgresql) for the storage tests…" >&2
        sudo=""
        [ "$(id -u)" -eq 0 ] || sudo="sudo"
        $sudo apt-get -o DPkg::Lock::Timeout=300 update -qq >&2
        DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout=300 install -y -qq postgresql >/dev/null
        bin="$(find_bin)"
    fi
    exec 9>&-
    if [ -z "$bin" ]; then
        echo "no initdb/pg_ctl under /usr/lib/postgresql/*/bin, even after installing postgresql" >&2
        exit 1
    fi
    dir="$(mktemp -d /tmp/boulanger-pg.XXXXXX)"
    if [ "$(id -u)" -eq 0 ]; then
        user=postgres
        id -u "$user" >/dev/null 2>&1 || user=nobody
        chown "$user" "$dir"
    fi
    chmod 700 "$dir"
    port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    if ! as_owner "$dir" "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --no-locale \
        >"$dir/initdb.log" 2>&1; then
        cat "$dir/initdb.log" >&2
        rm -rf "$dir"
        exit 1
    fi
    if ! as_owner "$dir" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off" \
        start >/dev/null; then
        cat "$dir/server.log" >&2
        rm -rf "$dir"
        exit 1
    fi
    echo "postgresql://postgres@127.0.0.1:$port/postgres $dir"
    ;;
stop)
    dir="${2:?usage: $0 stop DIR}"
    case "$dir" in /tmp/boulanger-pg.*) ;; *) echo "not a folder this script made: $dir" >&2; exit 1 ;; esac
    bin="$(find_bin)"
    if [ -d "$dir/data" ] && [ -n "$bin" ]; then
        as_owner "$dir" "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    ;;
*)
    echo "usage: $0 start | stop DIR" >&2
    exit 2
    ;;
esac
