#!/usr/bin/env bash
# Runs a command beside a throw-away PostgreSQL cluster: initdb in a temporary directory, the server on
# 127.0.0.1 at a free port (as an unprivileged user when run as root: PostgreSQL refuses root), a random password,
# SLEEPANALYSIS_TEST_DATABASE_URL set for the command; the cluster is stopped and deleted when the command ends.
#   Tools/postgres/with-test-cluster.sh swift test --filter NightQueueTests
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: $0 COMMAND [ARGUMENT…]" >&2; exit 64; }

pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }
if [ -z "$(pg_bin)" ] || [ ! -x "$(pg_bin)/initdb" ]; then
    echo "Installing the Debian package postgresql (for the test cluster)" >&2
    sudo_cmd=()
    [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
    "${sudo_cmd[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq postgresql >/dev/null
fi
bin="$(pg_bin)"

# As root, the server runs as `nobody`; otherwise as the caller.
as_server_user() { if [ "$(id -u)" -eq 0 ]; then runuser -u nobody -- "$@"; else "$@"; fi; }

# The cluster lives in a temporary directory the server user can reach ($TMPDIR may be private to root).
base="${TMPDIR:-/tmp}"
if [ "$(id -u)" -eq 0 ] && ! runuser -u nobody -- test -x "$base" 2>/dev/null; then base=/tmp; fi
cluster="$(mktemp -d "$base/sleepanalysis-pg.XXXXXX")"
chmod 700 "$cluster"
[ "$(id -u)" -ne 0 ] || chown nobody "$cluster"
stop_cluster() {
    status=$?
    if [ -f "$cluster/data/postmaster.pid" ]; then
        (cd "$cluster" && as_server_user "$bin/pg_ctl" -D "$cluster/data" -m immediate -w -t 30 stop >/dev/null 2>&1) || true
    fi
    rm -rf "$cluster"
    exit "$status"
}
trap stop_cluster EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

cd "$cluster"
password="$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
printf '%s\n' "$password" >"$cluster/pwfile"
[ "$(id -u)" -ne 0 ] || chown nobody "$cluster/pwfile"
as_server_user "$bin/initdb" -D "$cluster/data" -U sleepanalysis --pwfile="$cluster/pwfile" \
    --auth=scram-sha-256 -E UTF8 --no-locale >"$cluster/initdb.log" 2>&1 ||
    { cat "$cluster/initdb.log" >&2; exit 1; }
rm -f "$cluster/pwfile"
mkdir -p "$cluster/socket"
[ "$(id -u)" -ne 0 ] || chown nobody "$cluster/socket"

# A free port: try a few random ones (one taken meanwhile makes the start fail, and the next is tried).
started=""
for _ in 1 2 3 4 5 6 7 8; do
    port=$((20000 + RANDOM % 40000))
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then continue; fi
    if as_server_user "$bin/pg_ctl" -D "$cluster/data" -l "$cluster/server.log" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $port -k $cluster/socket -c fsync=off -c max_connections=200" \
        start >/dev/null 2>&1; then
        started=yes
        break
    fi
done
[ -n "$started" ] || { echo "the test PostgreSQL cluster did not start:" >&2; cat "$cluster/server.log" >&2; exit 1; }

export SLEEPANALYSIS_TEST_DATABASE_URL="postgresql://sleepanalysis:$password@127.0.0.1:$port/postgres"
echo "Test PostgreSQL cluster on 127.0.0.1:$port (SLEEPANALYSIS_TEST_DATABASE_URL set)" >&2
cd "$OLDPWD"
"$@"
