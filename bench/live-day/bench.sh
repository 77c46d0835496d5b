#!/usr/bin/env bash
# A larger simulated EDGAR day through `npm run live -- --fixtures` (see README.md): the fixture
# filings plus BENCH_BACKGROUND rows of a real daily index over BENCH_DAY_SECONDS; prints the
# coverage table and the fixture server's request figures. Asserts nothing about speed.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
SUFFIX="$(node -e 'console.log(require("crypto").randomBytes(4).toString("hex"))')"
SERVER_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
DB="live_bench_$SUFFIX"
psql "$SERVER_URL" -qc "CREATE DATABASE \"$DB\""
free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }

# The bench's own checkout copy: its .run/live never meets a developer's running pipeline.
CHECKOUT="$(mktemp -d /tmp/live-bench-XXXXXX)"
cp package.json "$CHECKOUT/" && cp -r scripts dist "$CHECKOUT/" && ln -s "$ROOT/node_modules" "$CHECKOUT/node_modules"
export DATABASE_URL="${SERVER_URL%/*}/$DB" KAFKA_BROKERS="${KAFKA_BROKERS:-127.0.0.1:9092}"
export KAFKA_TOPIC_NAMESPACE="livebench$SUFFIX"
export PROJECTOR_GROUP_ID="$KAFKA_TOPIC_NAMESPACE-projector" SEGMENTS_GROUP_ID="$KAFKA_TOPIC_NAMESPACE-segments" \
  SECTIONS_GROUP_ID="$KAFKA_TOPIC_NAMESPACE-sections" FORM4_GROUP_ID="$KAFKA_TOPIC_NAMESPACE-form4" \
  NPORT_GROUP_ID="$KAFKA_TOPIC_NAMESPACE-nport" IR_GROUP_ID="$KAFKA_TOPIC_NAMESPACE-ir" \
  EDGAR_BUDGET_KEY_PREFIX="edgar-budget-$KAFKA_TOPIC_NAMESPACE:"
export PORT="$(free_port)" FIXTURE_PORT="$(free_port)" PROJECTOR_OPS_PORT="$(free_port)" WEBHOOKS_OPS_PORT="$(free_port)"
export FIXTURES_DIR="${BENCH_FIXTURES:-$ROOT/sample/fixtures}" LIVE_BUILD=0 LOG_LEVEL="${LOG_LEVEL:-info}"
export LIVE_DAY_SECONDS="${BENCH_DAY_SECONDS:-300}" LIVE_DAY_BACKGROUND="${BENCH_BACKGROUND:-2000}"
cleanup() {
  (cd "$CHECKOUT" && bash scripts/live.sh down >/dev/null 2>&1) || true
  rm -rf "$CHECKOUT"
  psql "$SERVER_URL" -qc "DROP DATABASE IF EXISTS \"$DB\" WITH (FORCE)" || true
}
trap cleanup EXIT

(cd "$CHECKOUT" && bash scripts/live.sh --fixtures)
KEY="$(cd "$CHECKOUT" && npm run --silent keys -- create --plan enterprise --account live-bench | grep -o 'sk_live_[A-Za-z0-9_-]*' | head -1)"
coverage() { node "$CHECKOUT/dist/libs/testing/src/day-coverage.cli.js" --api "http://127.0.0.1:$PORT" --key "$KEY" \
  --day "$CHECKOUT/.run/live/day.json" --requests "$CHECKOUT/.run/live/fixture-requests.log" "$@"; }

END_MS="$(node -e 'console.log(require(process.argv[1]).endAt)' "$CHECKOUT/.run/live/day.json")"
echo "[bench] the day runs ${LIVE_DAY_SECONDS}s with $LIVE_DAY_BACKGROUND background rows; waiting for it to end" >&2
while (( $(date +%s%3N) < END_MS )); do sleep 5; done
# Then until the served count holds for three checks 10 s apart (the followers and the projector drain).
last=""; same=0
for ((i = 0; i < 60 && same < 3; i++)); do
  served="$(coverage --json | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const c=JSON.parse(s);console.log(c.rows.filter(r=>r.served).length)})')"
  [[ "$served" == "$last" ]] && same=$((same + 1)) || same=0
  last="$served"; sleep 10
done
coverage | node -e '
  // The table in full for the fixture filings; background filings summed up (one filing row each).
  let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
    const fixture = new Set(require(process.argv[1]).filings.filter((f) => !f.background).map((f) => f.accession));
    const lines = s.split("\n");
    console.log(lines.filter((l) => !/^\d{10}-\d{2}-\d{6} /.test(l) || fixture.has(l.slice(0, 20))).join("\n"));
  });' "$CHECKOUT/.run/live/day.json"
echo
(cd "$CHECKOUT" && grep -c '"filings poll finished"' .run/live/filings-live.log | sed 's/^/polls of the live poller: /')
(cd "$CHECKOUT" && bash scripts/live.sh status)
