#!/usr/bin/env bash
# Live operation: the whole pipeline following EDGAR as filings arrive.
#   bash scripts/live.sh [up]         (npm run live)              against sec.gov: EDGAR_USER_AGENT required
#   bash scripts/live.sh --fixtures   (npm run live -- --fixtures, or LIVE_SOURCE=fixtures)
#                                     against a simulated EDGAR day on the fixture server (sample/fixtures)
#   bash scripts/live.sh status       each process: running, or exited (with the end of its log);
#                                     a watcher also writes every exit to .run/live/watch.log
#   bash scripts/live.sh coverage     fixtures: what the API serves of each filing of the day, and
#                                     the fixture server's busiest second
#   bash scripts/live.sh down         (npm run live -- down; npm run stop stops it too)
# Starts Kafka/Postgres/Redis as scripts/run.sh does, loads the companies once (ticker map +
# submissions of the coverage), then every process of scripts/live.processes in the background,
# logs and pids under .run/live/. Environment honoured (besides run.sh's): SEC_COVERAGE (all or a
# list of tickers/CIKs; default all), FILINGS_POLL_INTERVAL_S (60; fixtures 5), FILINGS_CURRENT_FORMS,
# EDGAR_MAX_RPS (the shared budget's rate, 10), LIVE_DAY_SECONDS (fixtures: the day's
# length, 120), LIVE_DAY_BACKGROUND (fixtures: rows of a real daily index listed too, 0),
# LIVE_DAY_THROTTLE_AFTER_S (fixtures: answer SEC's 403 to the first filing document asked after
# that many seconds, to watch every reader pause for EDGAR_THROTTLE_PAUSE_MS),
# LIVE_DAY_INDEX_DELAY_MS, LIVE_DAY_COMPLETE_SUBMISSION_DELAY_MS, LIVE_DAY_FEED_DELAY_MS,
# LIVE_DAY_LISTING_DELAY_MS (fixtures: how long after acceptance a filing's directory, its complete
# submission, the latest-filings Atom feed and the current-events listing show it; 0 each), LIVE_DAY_DAILY_INDEX (fixtures: immediate, or night to publish the day's form index
# only once the day is over; immediate), LIVE_DAY_PEAK (fixtures: "burstCount,burstMs,tailPerMinute,tailMs",
# a peak hour instead of an even spread over LIVE_DAY_SECONDS; fixture filings cloned under synthetic
# accessions when more are needed; unset), LIVE_DAY_PEAK_SEED (its jitter's seed, 1) and
# LIVE_DAY_START_DELAY_S (fixtures: the day's first filing that long after the fixture server starts, 0).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
source scripts/infra.sh
LIVE_DIR="$RUN_DIR/live"

COMMAND=up
for arg in "$@"; do
  case "$arg" in
    --fixtures) LIVE_SOURCE=fixtures ;;
    up | down | status | coverage | watch) COMMAND="$arg" ;;
    *) echo "usage: bash scripts/live.sh [up|status|coverage|down] [--fixtures]" >&2; exit 2 ;;
  esac
done
LIVE_SOURCE="${LIVE_SOURCE:-sec}"
[[ "$LIVE_SOURCE" == sec || "$LIVE_SOURCE" == fixtures ]] || { echo "LIVE_SOURCE must be sec or fixtures" >&2; exit 2; }

# name -> command, from scripts/live.processes (comments and blank lines skipped).
processes() { grep -v '^\s*\(#\|$\)' "$ROOT/scripts/live.processes"; }

status() { # prints one line per process; returns 1 when any has exited
  local name cmd pid dead=0
  while read -r name cmd; do
    pid="$(cat "$LIVE_DIR/$name.pid" 2>/dev/null || true)"
    if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; then
      printf '  %-14s running  (pid %s, log .run/live/%s.log)\n' "$name" "$pid" "$name"
    else
      printf '  %-14s EXITED   (log .run/live/%s.log):\n' "$name" "$name"
      tail -3 "$LIVE_DIR/$name.log" 2>/dev/null | sed 's/^/      /'
      dead=1
    fi
  done < <(processes)
  return "$dead"
}

case "$COMMAND" in
  down)
    stop_pids "$LIVE_DIR" watch # first: the others' exits are not news
    stop_pids "$LIVE_DIR"
    stop_infra
    exit 0
    ;;
  status)
    status && exit 0 || exit 1
    ;;
  watch)
    # Started by `up`: writes to .run/live/watch.log when a process exits, with the end of its log.
    declare -A reported=()
    while sleep 5; do
      while read -r name cmd; do
        pid="$(cat "$LIVE_DIR/$name.pid" 2>/dev/null || true)"
        if [[ -n "$pid" && -z "${reported[$name]:-}" ]] && ! kill -0 "$pid" 2>/dev/null; then
          reported[$name]=1
          say "$name (pid $pid) exited; the end of .run/live/$name.log:"
          tail -5 "$LIVE_DIR/$name.log" 2>/dev/null | sed 's/^/    /' >&2
        fi
      done < <(processes)
    done
    ;;
  coverage)
    [[ -f "$LIVE_DIR/day.json" ]] || { echo "no simulated day here (start with: npm run live -- --fixtures)" >&2; exit 2; }
    set -a; source "$LIVE_DIR/live.env"; set +a
    KEY="$(npm run --silent keys -- create --plan enterprise --account live-day --label "live.sh coverage" | grep -o 'sk_live_[A-Za-z0-9_-]*' | head -1)"
    exec node dist/libs/testing/src/day-coverage.cli.js --api "http://127.0.0.1:$PORT" --key "$KEY" \
      --day "$LIVE_DIR/day.json" --requests "$LIVE_DIR/fixture-requests.log"
    ;;
esac

if [[ "$LIVE_SOURCE" == sec && -z "${EDGAR_USER_AGENT:-}" ]]; then
  cat >&2 <<'TXT'
live.sh: EDGAR_USER_AGENT is required against sec.gov: SEC asks every client to declare who it is,
e.g. EDGAR_USER_AGENT="Your Company ops@your-company.example" npm run live
(or try it locally on a simulated EDGAR day: npm run live -- --fixtures)
TXT
  exit 2
fi

# Every follower's group named (the apps' defaults), so .run/ops.env lists them and `npm run ops -- lag`
# reports each one, even one that has not committed yet.
export PROJECTOR_GROUP_ID="${PROJECTOR_GROUP_ID:-projector}" SEGMENTS_GROUP_ID="${SEGMENTS_GROUP_ID:-ingest-sec-segments}" \
  SECTIONS_GROUP_ID="${SECTIONS_GROUP_ID:-ingest-sec-sections}" FORM4_GROUP_ID="${FORM4_GROUP_ID:-ingest-form4}" \
  NPORT_GROUP_ID="${NPORT_GROUP_ID:-ingest-sec-nport}" EIGHTK_GROUP_ID="${EIGHTK_GROUP_ID:-ingest-sec-eightk}" \
  THIRTEENF_GROUP_ID="${THIRTEENF_GROUP_ID:-ingest-sec-13f}" IR_GROUP_ID="${IR_GROUP_ID:-ingest-ir}" DECKS_GROUP_ID="${DECKS_GROUP_ID:-ingest-decks}"

ensure_node_modules
# The e2e test runs a copy of the build it made (LIVE_BUILD=0).
[[ "${LIVE_BUILD:-1}" == 0 ]] || ensure_build
setup
mkdir -p "$LIVE_DIR"

export PORT="${PORT:-3000}"
export PUBLIC_BASE_URL="${PUBLIC_BASE_URL:-http://127.0.0.1:$PORT}"
export LOG_LEVEL="${LOG_LEVEL:-info}"
export PROJECTOR_OPS_PORT="${PROJECTOR_OPS_PORT:-9101}" WEBHOOKS_OPS_PORT="${WEBHOOKS_OPS_PORT:-9102}"
# The live poller's /metrics (its freshness stages) only when asked: FILINGS_OPS_PORT.
export FILINGS_OPS_PORT="${FILINGS_OPS_PORT:-}"
export SEC_COVERAGE="${SEC_COVERAGE:-all}"
# Form 4s of the covered issuers as they are filed; no history read from submissions at start.
FORM4_ISSUERS_SET="${FORM4_ISSUERS:-}"
export FORM4_ISSUERS="${FORM4_ISSUERS:-$SEC_COVERAGE}" FORM4_SUBMISSIONS="${FORM4_SUBMISSIONS:-none}"
# Every form the followers read, asked of the current-events listing each poll (one request each).
export FILINGS_CURRENT_FORMS="${FILINGS_CURRENT_FORMS:-10-K,10-Q,8-K,4,NPORT-P,13F-HR}"
# SEC allows 10 requests/s per client: every SEC reader takes its requests from one budget in Redis
# (the poller first, then the followers' documents, then the company load).
[[ -n "${REDIS_URL:-}" ]] || { say "live operation needs Redis (REDIS_URL) for the shared EDGAR request budget"; exit 1; }
export EDGAR_BUDGET_REDIS_URL="${EDGAR_BUDGET_REDIS_URL:-$REDIS_URL}"

SUBMISSIONS_DEFAULT=""
FILINGS_LIVE_ARGS=""
if [[ "$LIVE_SOURCE" == fixtures ]]; then
  FIXTURE_PORT="${FIXTURE_PORT:-8089}"
  DAY_DATE="$(date -u +%Y-%m-%d)"
  start_bg "$LIVE_DIR" fixture-server node dist/libs/testing/src/fixture-server.cli.js --dir "${FIXTURES_DIR:-$ROOT/sample/fixtures}" \
    --port "$FIXTURE_PORT" --day --day-date "$DAY_DATE" --day-seconds "${LIVE_DAY_SECONDS:-120}" \
    --day-background "${LIVE_DAY_BACKGROUND:-0}" --day-manifest "$LIVE_DIR/day.json" --requests-log "$LIVE_DIR/fixture-requests.log" \
    ${LIVE_DAY_THROTTLE_AFTER_S:+--throttle-after-ms "$((LIVE_DAY_THROTTLE_AFTER_S * 1000))" --throttle-path-prefix /Archives/edgar/data/} \
    ${LIVE_DAY_INDEX_DELAY_MS:+--day-index-delay-ms "$LIVE_DAY_INDEX_DELAY_MS"} ${LIVE_DAY_COMPLETE_SUBMISSION_DELAY_MS:+--day-complete-submission-delay-ms "$LIVE_DAY_COMPLETE_SUBMISSION_DELAY_MS"} ${LIVE_DAY_FEED_DELAY_MS:+--day-feed-delay-ms "$LIVE_DAY_FEED_DELAY_MS"} \
    ${LIVE_DAY_LISTING_DELAY_MS:+--day-listing-delay-ms "$LIVE_DAY_LISTING_DELAY_MS"} ${LIVE_DAY_DAILY_INDEX:+--day-daily-index "$LIVE_DAY_DAILY_INDEX"} \
    ${LIVE_DAY_PEAK:+--day-peak "$LIVE_DAY_PEAK"} ${LIVE_DAY_PEAK_SEED:+--day-peak-seed "$LIVE_DAY_PEAK_SEED"} \
    ${LIVE_DAY_START_DELAY_S:+--day-start-delay-ms "$((LIVE_DAY_START_DELAY_S * 1000))"}
  wait_tcp 127.0.0.1 "$FIXTURE_PORT" 30 "fixture server"
  export EDGAR_USER_AGENT="${EDGAR_USER_AGENT:-Filings Platform live day ops@filings.example}"
  export EDGAR_WWW_BASE_URL="http://127.0.0.1:$FIXTURE_PORT" EDGAR_DATA_BASE_URL="http://127.0.0.1:$FIXTURE_PORT"
  export FILINGS_POLL_INTERVAL_S="${FILINGS_POLL_INTERVAL_S:-5}"
  # A simulated day is a business day whatever the clock says: the feed keeps its daytime pace.
  export FILINGS_FEED_QUIET_INTERVAL_MS="${FILINGS_FEED_QUIET_INTERVAL_MS:-${FILINGS_FEED_MAX_INTERVAL_MS:-2000}}"
  # The simulated day's date, whatever the clock says by the time it ends.
  FILINGS_LIVE_ARGS="--date $DAY_DATE"
  # The day's companies get their submissions read (three real files; the others fall back to the ticker map).
  for ((i = 0; i < 20; i++)); do [[ -s "$LIVE_DIR/day.json" ]] && break; sleep 0.5; done
  SUBMISSIONS_DEFAULT="$(node -e 'console.log([...new Set(require(process.argv[1]).filings.filter((f) => !f.background).map((f) => f.cik))].join(","))' "$LIVE_DIR/day.json")"
  # Form 4s of the day's companies: the background rows' documents are not served.
  [[ -n "${FORM4_ISSUERS_SET:-}" ]] || export FORM4_ISSUERS="$SUBMISSIONS_DEFAULT"
  # Local receivers and the 127.0.0.1 fixture host are allowed in a local trial only.
  export WEBHOOKS_ALLOW_HTTP=true WEBHOOKS_ALLOW_PRIVATE_HOSTS=true IR_ALLOW_PRIVATE_HOSTS=true DECKS_ALLOW_PRIVATE_HOSTS=true
fi
export FILINGS_LIVE_ARGS
export DECKS_USER_AGENT="${DECKS_USER_AGENT:-$EDGAR_USER_AGENT}" IR_USER_AGENT="${IR_USER_AGENT:-$EDGAR_USER_AGENT}"
# IR sites found from the companies (and 10-Ks) keep their validators here between restarts.
export IR_STATE_FILE="${IR_STATE_FILE:-$LIVE_DIR/ir-state.json}"

# What `live.sh coverage` needs from a plain shell.
{
  echo "PORT=$PORT"
  for name in DATABASE_URL KAFKA_BROKERS KAFKA_TOPIC_NAMESPACE; do [[ -n "${!name:-}" ]] && echo "$name=${!name}"; done
  [[ -f "$RUN_DIR/secrets.env" ]] && cat "$RUN_DIR/secrets.env"
} >"$LIVE_DIR/live.env"
chmod 600 "$LIVE_DIR/live.env"

say "loading the companies (ticker map + submissions of ${SEC_SUBMISSIONS:-${SUBMISSIONS_DEFAULT:-the coverage}}), once"
SEC_SUBMISSIONS="${SEC_SUBMISSIONS:-${SUBMISSIONS_DEFAULT:-}}" node dist/apps/ingest-sec/src/main.js >"$LIVE_DIR/companies.log" 2>&1 \
  || { tail -20 "$LIVE_DIR/companies.log" >&2; say "the company load failed (.run/live/companies.log)"; exit 1; }

while read -r name cmd; do
  # shellcheck disable=SC2086 # the command's words, its $VARIABLES expanded
  eval "start_bg \"\$LIVE_DIR\" \"\$name\" $cmd"
done < <(processes)
start_bg "$LIVE_DIR" watch bash "$ROOT/scripts/live.sh" watch
wait_tcp 127.0.0.1 "$PORT" 60 "api" || { tail -30 "$LIVE_DIR/api.log" >&2; exit 1; }
sleep 3
say "processes:"
status >&2 || { say "a process exited at start; see its log"; exit 1; }

cat <<TXT

Live: following $([[ "$LIVE_SOURCE" == fixtures ]] && echo "a simulated EDGAR day ($DAY_DATE, ${LIVE_DAY_SECONDS:-120} s) on http://127.0.0.1:$FIXTURE_PORT" || echo "sec.gov") for coverage $SEC_COVERAGE.
  API:       http://127.0.0.1:$PORT/v1   (a key: npm run keys -- create --plan builder)
  lag:       npm run ops -- lag          processes: npm run live -- status (exits: .run/live/watch.log)
  logs:      .run/live/                  stop: npm run live -- down
$([[ "$LIVE_SOURCE" == fixtures ]] && echo "  coverage:  npm run live -- coverage     (after the day: what the API serves of each filing)")
TXT
