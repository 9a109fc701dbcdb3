#!/usr/bin/env bash
# Start Debian's nginx with the repository's deploy/nginx.conf, for the tests and the
# benchmarks (a server uses that file itself: docs/production.md):
#
#   scripts/nginx.sh --run-dir DIR --listen PORT --upstream 127.0.0.1:8001 \
#                    [--upstream 127.0.0.1:8002 ...] [--static DIR]
#
# renders the file into DIR/nginx.conf with those values (DIR also holds the pid file,
# the cache, the temporary files and the logs: nothing is written into the checkout or
# under /var), starts nginx as a daemon, waits until it answers on 127.0.0.1:PORT and
# prints its URL. --static is the folder of the app's static files (default: this
# checkout's companion/static). Stop it with `nginx -c DIR/nginx.conf -s quit`. Works
# as root (its workers then run as root too, to write DIR) and as a normal user.
# Installs Debian's nginx when missing.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
NGINX=/usr/sbin/nginx

usage() {
  echo "usage: $0 --run-dir DIR --listen PORT --upstream HOST:PORT [--upstream ...] [--static DIR]" >&2
  exit 2
}

run_dir="" listen="" static="$ROOT/companion/static" upstreams=()
while [ $# -gt 0 ]; do
  case "$1" in
    --run-dir) run_dir=${2:?}; shift 2 ;;
    --listen) listen=${2:?}; shift 2 ;;
    --upstream) upstreams+=("${2:?}"); shift 2 ;;
    --static) static=${2:?}; shift 2 ;;
    *) usage ;;
  esac
done
[ -n "$run_dir" ] && [ -n "$listen" ] && [ ${#upstreams[@]} -gt 0 ] || usage
case "$listen" in *[!0-9]*) echo "--listen takes a port number, not $listen" >&2; exit 2 ;; esac
for upstream in "${upstreams[@]}"; do
  case "$upstream" in
    *[!0-9A-Za-z.:_\[\]-]* | "") echo "--upstream takes HOST:PORT, not $upstream" >&2; exit 2 ;;
  esac
done

if [ ! -x "$NGINX" ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q >&2
  apt-get install -y -q nginx-light >&2 || apt-get install -y -q nginx >&2
fi

mkdir -p "$run_dir"
run_dir=$(cd "$run_dir" && pwd)
static=$(cd "$static" && pwd)
conf="$run_dir/nginx.conf"

# Stop an nginx still running from this folder (a previous start).
if [ -f "$run_dir/nginx.pid" ] && kill -0 "$(cat "$run_dir/nginx.pid")" 2>/dev/null; then
  "$NGINX" -c "$conf" -s quit >&2 || true
  for _ in $(seq 100); do
    [ -f "$run_dir/nginx.pid" ] || break
    sleep 0.1
  done
fi

servers=""
for upstream in "${upstreams[@]}"; do
  servers+="        server $upstream max_fails=3 fail_timeout=5s;\n"
done
if [ "$(id -u)" = 0 ]; then user_line="user root;"; else user_line=""; fi

# Each value the file names for a real server, replaced by this start's own.
sed -e "s|^user www-data;|$user_line|" \
    -e "s|/run/nginx.pid|$run_dir/nginx.pid|" \
    -e "s|/var/log/nginx/|$run_dir/|" \
    -e "s|/var/lib/nginx/|$run_dir/|" \
    -e "s|/var/cache/nginx/companion|$run_dir/cache|" \
    -e "s|/srv/quiddler-companion/companion/static|$static|" \
    -e "s|^\( *\)listen 80 default_server;|\1listen 127.0.0.1:$listen default_server;|" \
    -e "/listen \[::\]:80 default_server;/d" \
    -e "s|^ *server 127.0.0.1:8000 max_fails=3 fail_timeout=5s;|$servers|" \
    "$ROOT/deploy/nginx.conf" > "$conf"
if grep -nE '[[:space:]](/var/(log|lib|cache)/nginx|/run/nginx.pid|/srv/quiddler-companion)|listen (\[::\]:)?80 |127.0.0.1:8000|www-data' "$conf" >&2; then
  echo "$0: deploy/nginx.conf has values this script does not replace (above)" >&2
  exit 1
fi

"$NGINX" -c "$conf" >&2
for _ in $(seq 100); do  # until it answers HTTP
  if exec 3<>"/dev/tcp/127.0.0.1/$listen" 2>/dev/null; then
    printf 'HEAD /favicon.ico HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' >&3
    read -r -t 2 status <&3 || status=""
    exec 3<&-
    case "$status" in HTTP/*) echo "http://127.0.0.1:$listen"; exit 0 ;; esac
  fi
  sleep 0.1
done
echo "$0: nginx did not answer on 127.0.0.1:$listen (log: $run_dir/error.log)" >&2
exit 1
