#!/usr/bin/env bash
# Start Debian's PostgreSQL server on this machine and make the Companion's role and test
# database: `scripts/postgres.sh` prints the URL to give TEST_DATABASE_URL (or DATABASE_URL).
# Run as root (CI) or as a user who may sudo to postgres. Installs the packages when missing.
set -euo pipefail
ROLE=${PG_ROLE:-companion}
PASSWORD=${PG_PASSWORD:-companion}
DATABASE=${PG_DATABASE:-companion_test}
PORT=${PG_PORT:-5432}

as_postgres() {
  if [ "$(id -u)" = 0 ]; then su postgres -c "$*"; else sudo -u postgres sh -c "$*"; fi
}

if ! command -v pg_lsclusters >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q >&2
  apt-get install -y -q postgresql >&2
fi
version=$(ls /usr/lib/postgresql | sort -n | tail -1)
if ! pg_lsclusters -h | grep -q .; then
  pg_createcluster "$version" main --port "$PORT" >&2
fi
read -r cluster_version cluster_name cluster_port status _ < <(pg_lsclusters -h | head -1)
if [ "$status" != online ]; then
  pg_ctlcluster "$cluster_version" "$cluster_name" start >&2
fi
for _ in $(seq 50); do  # until it takes connections
  pg_isready -q -h 127.0.0.1 -p "$cluster_port" && break
  sleep 0.2
done
as_postgres "psql -q -p $cluster_port -v ON_ERROR_STOP=1" >&2 <<SQL
SELECT 'CREATE ROLE $ROLE LOGIN CREATEDB PASSWORD ''$PASSWORD'''
  WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$ROLE')\gexec
SELECT 'CREATE DATABASE $DATABASE OWNER $ROLE'
  WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = '$DATABASE')\gexec
SQL
echo "postgresql+psycopg://$ROLE:$PASSWORD@127.0.0.1:$cluster_port/$DATABASE"
