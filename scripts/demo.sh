#!/usr/bin/env bash
# `make run`: the bundled sample → the pipeline → a demo key → the API on http://HOST:PORT.
set -euo pipefail
cd "$(dirname "$0")/.."
export FDS_DATA_DIR="${FDS_DATA_DIR:-./data}"
host="${HOST:-127.0.0.1}"
port="${PORT:-8080}"
sample="$FDS_DATA_DIR/sample"
# The sample ends on the business day before today (America/Santiago), so /health is ok on the
# day the demo runs. Rebuilt each time (about a second): one left from an earlier day would be stale.
rm -rf "$sample"
./fds sample --out "$sample" --end previous-business-day
./fds pipeline run --source "$sample"
key="$(./fds keys create --email demo@example.com --name demo)"
cat <<EOT

Demo API key (shown once; only its hash is stored):
  $key

Try:
  curl -s -H "X-Api-Key: $key" http://$host:$port/api/asset_providers

EOT
exec ./fds serve
