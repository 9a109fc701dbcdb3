#!/usr/bin/env bash
# Start Debian's Redis on loopback, for the rate limits that worker processes share
# (RATELIMIT_STORAGE_URI): `scripts/redis.sh` prints the URL. Installs it when missing.
set -euo pipefail
PORT=${REDIS_PORT:-6379}
if ! command -v redis-server >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q >&2
  apt-get install -y -q redis-server >&2
fi
if ! redis-cli -p "$PORT" ping >/dev/null 2>&1; then
  redis-server --bind 127.0.0.1 --port "$PORT" --daemonize yes --save "" --appendonly no >&2
  for _ in $(seq 50); do
    redis-cli -p "$PORT" ping >/dev/null 2>&1 && break
    sleep 0.1
  done
fi
echo "redis://127.0.0.1:$PORT/0"
