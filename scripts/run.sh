#!/usr/bin/env bash
# The whole pipeline on the bundled sample (sample/fixtures, real SEC files; see sample/SOURCES.md):
#   bash scripts/run.sh        (npm start)     start Kafka, Postgres, the fixture EDGAR server, the
#                                              projector and the API; ingest; print the API URL and a key
#   bash scripts/run.sh down   (npm run stop)  stop everything it started
#   bash scripts/run.sh setup                  only the infrastructure and the settings: Postgres and
#                                              Kafka up, .run/secrets.env and .run/ops.env written, the
#                                              database migrated (expects a build; tests call it)
# Operator CLIs (npm run keys / ops / db:migrate) read .run/*.env, so they work from a plain shell.
# Environment honoured: DATABASE_URL, KAFKA_BROKERS, REDIS_URL, PORT (API, default 3000),
# FIXTURE_PORT (default 8089), PROJECTOR_OPS_PORT / WEBHOOKS_OPS_PORT (9101 / 9102), EDGAR_USER_AGENT.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
source scripts/infra.sh

APPS=(api projector webhooks fixture-server)

stop_all() {
  stop_pids "$RUN_DIR/live" # what `npm run live` started, if anything
  stop_pids "$RUN_DIR" "${APPS[@]}"
  stop_infra
}

case "${1:-up}" in
  down) stop_all; exit 0 ;;
  setup) setup; say "infrastructure up; settings in .run/ops.env and .run/secrets.env"; exit 0 ;;
  up) ;;
  *) echo "usage: bash scripts/run.sh [up|setup|down]" >&2; exit 2 ;;
esac

ensure_node_modules
ensure_build
setup

FIXTURE_PORT="${FIXTURE_PORT:-8089}"
export PORT="${PORT:-3000}"
export PUBLIC_BASE_URL="${PUBLIC_BASE_URL:-http://127.0.0.1:$PORT}"
export EDGAR_USER_AGENT="${EDGAR_USER_AGENT:-Filings Platform sample run ops@filings.example}"
export EDGAR_WWW_BASE_URL="http://127.0.0.1:$FIXTURE_PORT"
export EDGAR_DATA_BASE_URL="http://127.0.0.1:$FIXTURE_PORT"
export LOG_LEVEL="${LOG_LEVEL:-info}"
# The worker apps' /healthz, /readyz and /metrics.
PROJECTOR_OPS_PORT="${PROJECTOR_OPS_PORT:-9101}"
WEBHOOKS_OPS_PORT="${WEBHOOKS_OPS_PORT:-9102}"

start_bg "$RUN_DIR" fixture-server node dist/libs/testing/src/fixture-server.cli.js --dir "$ROOT/sample/fixtures" --port "$FIXTURE_PORT"
wait_tcp 127.0.0.1 "$FIXTURE_PORT" 30 "fixture server"
start_bg "$RUN_DIR" projector env OPS_PORT="$PROJECTOR_OPS_PORT" node dist/apps/projector/src/main.js
# Webhook endpoints of the sample run may be local http receivers (registration and delivery both check).
export WEBHOOKS_ALLOW_HTTP=true WEBHOOKS_ALLOW_PRIVATE_HOSTS=true
start_bg "$RUN_DIR" webhooks env OPS_PORT="$WEBHOOKS_OPS_PORT" node dist/apps/webhooks/src/main.js
# POST /v1/citations/verify re-reads issuer pages and decks where ingest-ir read them: the fixture server on 127.0.0.1.
IR_ALLOW_PRIVATE_HOSTS=true start_bg "$RUN_DIR" api node dist/apps/api/src/main.js
wait_tcp 127.0.0.1 "$PORT" 60 "api" || { tail -30 "$RUN_DIR/api.log" >&2; exit 1; }

KEY_OUTPUT="$(npm run --silent keys -- create --plan builder --account sample-run --label "scripts/run.sh")"
API_KEY="$(grep -o 'sk_live_[A-Za-z0-9_-]*' <<<"$KEY_OUTPUT" | head -1)"
[[ -n "$API_KEY" ]] || { echo "$KEY_OUTPUT" >&2; say "could not create an API key"; exit 1; }

say "ingesting the sample (SEC ticker map + submissions of MSFT, TSLA, MUR) from the fixture EDGAR server"
SEC_COVERAGE=all SEC_SUBMISSIONS=MSFT,TSLA,MUR node dist/apps/ingest-sec/src/main.js >"$RUN_DIR/ingest-sec.log" 2>&1 \
  || { tail -20 "$RUN_DIR/ingest-sec.log" >&2; say "ingest-sec failed"; exit 1; }
grep -o "\"published\":[0-9]*,\"withDetail\":[0-9]*" "$RUN_DIR/ingest-sec.log" | tail -1 >&2

run_ingest() { # name, command...: one ingest run, its log under .run/, its summary line on the terminal
  local name="$1"; shift
  "$@" >"$RUN_DIR/$name.log" 2>&1 || { tail -20 "$RUN_DIR/$name.log" >&2; say "$name failed"; exit 1; }
  say "$name done (log .run/$name.log)"
}

say "ingesting filings: MSFT, TSLA and MUR from their submissions; the 2020-03-18 daily form index (live mode, one poll)"
run_ingest ingest-filings-backfill node dist/apps/ingest-sec/src/filings.main.js backfill --companies MSFT,TSLA,MUR
SEC_COVERAGE=all run_ingest ingest-filings-live node dist/apps/ingest-sec/src/filings.main.js live --once --date 2020-03-18
# A webhook endpoint of the sample account, subscribed just before the feed's filings (not the
# history above): the fixture server's sink takes the deliveries, so freshness reaches "delivered".
# Once: a later run on the same database finds it.
SINK_URL="http://127.0.0.1:$FIXTURE_PORT/webhooks/sink"
if ! curl -fsS -H "Authorization: Bearer $API_KEY" "http://127.0.0.1:$PORT/v1/webhook-endpoints?limit=100" |
  node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => process.exit(JSON.parse(s).data.some((e) => e.url === process.argv[1]) ? 0 : 1));' "$SINK_URL"; then
  curl -fsS -X POST -H "Authorization: Bearer $API_KEY" -H "Content-Type: application/json" \
    -d "{\"url\":\"$SINK_URL\",\"topics\":[\"filing.created\"],\"description\":\"sample run: the fixture server's sink\"}" \
    "http://127.0.0.1:$PORT/v1/webhook-endpoints" >/dev/null || { say "could not subscribe the sample webhook endpoint; see .run/api.log"; exit 1; }
fi
say "reading EDGAR's latest-filings feed (a real one, recorded on 2026-01-12: 73 filings with their acceptance times)"
SEC_COVERAGE=all run_ingest ingest-filings-feed node dist/apps/ingest-sec/src/filings.main.js live --once
say "reading Items 1, 1A and 7 of Tesla's 10-K for 2024 (the description of TSLA:US)"
run_ingest ingest-sections node dist/apps/ingest-sec/src/sections.main.js \
  --filing 1318605:0001628280-25-003063:/Archives/edgar/data/1318605/000162828025003063/tsla-20241231.htm
say "ingesting segment figures from the AAPL, TSLA and NVDA 10-Q inline XBRL"
run_ingest ingest-segments node dist/apps/ingest-sec/src/segments.main.js \
  --filing 320193:0000320193-25-000057:/Archives/edgar/data/320193/000032019325000057/aapl-20250329.htm \
  --filing 1318605:0001628280-25-035806:/Archives/edgar/data/1318605/000162828025035806/tsla-20250630.htm \
  --filing 1045810:0001045810-25-000209:/Archives/edgar/data/1045810/000104581025000209/nvda-20250727.htm
say "ingesting the XBRL company facts of GOOGL, SNOW, AAPL and LPA (IFRS; not in the sample's ticker map: by CIK)"
run_ingest ingest-facts node dist/apps/ingest-sec/src/facts.main.js --symbols GOOGL:US,SNOW:US,AAPL:US --cik 1997711
say "ingesting N-PORT holdings of ADX and the Goldman Sachs Bond Fund"
SEC_COVERAGE=all run_ingest ingest-nport node dist/apps/ingest-sec/src/nport.main.js \
  --filing 2230:0000002230-23-990001 --filing 822977:0000822977-23-990001
# After N-PORT: ADX's holdings put MSFT's CUSIP in the crosswalk the 13F holdings are matched through
# (the projection re-matches whichever arrives first, so the order only saves work).
say "ingesting three 13F-HR filings (ACTIAM 2020Q4, LTS One 2023Q3, Acorn Creek 2024Q4) and SEC's 13(f) securities list for 2020Q3"
run_ingest ingest-13f node dist/apps/ingest-sec/src/thirteenf.main.js \
  --filing 1619124:0001619124-21-000002 --filing 1894188:0001894188-23-000007 --filing 1994827:0001951757-25-000093
run_ingest ingest-13f-list node dist/apps/ingest-sec/src/thirteenf-list.main.js --quarter 2020Q3

say "reading six 8-Ks (ADBE, ABVC and MMM press releases; NVDA and JWN agreements; Apple's 2000 8-K): items and exhibits"
run_ingest ingest-eightk node dist/apps/ingest-sec/src/eightk.main.js \
  --filing 796343:0000796343-23-000044 --filing 1173313:0001213900-25-032135 --filing 66740:0000066740-24-000023 \
  --filing 1045810:0001045810-26-000024 --filing 72333:0000072333-23-000015 --filing 320193:0000912057-00-002128

say "ingesting the nine sample Form 4 filings (TSLA, MSFT, PLTR, SQ, GUTS, DKNG, BETR, SNOW, SCWO)"
run_ingest ingest-form4 node dist/apps/ingest-form4/src/main.js \
  --filing 1318605:0000899243-21-044060:xslF345X03/doc4.xml --filing 789019:0001062993-24-016587:xslF345X05/form4.xml \
  --filing 1321655:0001321655-24-000181:wk-form4_1727395357.xml --filing 1512673:0001062993-23-020702:form4.xml \
  --filing 1572616:0000950170-24-012830:ownership.xml --filing 1883685:0001104659-25-025206 --filing 1835856:0001493152-25-009612 \
  --filing 1640147:0001640147-22-990001:form4.snow.xml --filing 933972:0000933972-25-990001:374WaterForm4.xml

say "crawling FRP Holdings' IR site (the saved copy in the sample) and extracting the text of its PDFs"
# The registry: FRPH's landing page, plus two PDFs the saved pages do not link (the January 2015
# deck and the 2019 annual report); both ingestors send a declared User-Agent.
export IR_SITES="[{\"cik\":\"844059\",\"ticker\":\"FRPH\",\"name\":\"FRP Holdings, Inc.\",\"landing_url\":\"http://127.0.0.1:$FIXTURE_PORT/investor-relations.html\",
  \"pages\":{\"contact\":\"http://127.0.0.1:$FIXTURE_PORT/contactus.html\",\"management\":\"http://127.0.0.1:$FIXTURE_PORT/executive-team.html\",\"presentations\":\"http://127.0.0.1:$FIXTURE_PORT/frppresent.html\"},
  \"documents\":[{\"url\":\"http://127.0.0.1:$FIXTURE_PORT/assets/presentations/1_CURRENT_12_JAN_2015_FRP_Holdings_Inc_Presentation_Pre-Spin-Off.pdf\",\"title\":\"FRP Holdings Inc Presentation Pre-Spin-Off, January 12, 2015\",\"kind\":\"presentation\"},
               {\"url\":\"http://127.0.0.1:$FIXTURE_PORT/assets/FRP_2019_Annual_Report.pdf\",\"title\":\"FRP Holdings 2019 Annual Report\",\"kind\":\"annual_report\"}]}]"
export IR_USER_AGENT="${IR_USER_AGENT:-$EDGAR_USER_AGENT}" DECKS_USER_AGENT="${DECKS_USER_AGENT:-$EDGAR_USER_AGENT}"
# The sample IR site is served from 127.0.0.1, an address ingest-ir refuses unless allowed.
export IR_ALLOW_PRIVATE_HOSTS=true
# The sample's PDFs are served from 127.0.0.1, an address ingest-decks refuses unless allowed.
export DECKS_ALLOW_PRIVATE_HOSTS=true
export IR_MAX_RPS_PER_HOST=10
run_ingest ingest-ir node dist/apps/ingest-ir/src/main.js
# PDFs the saved pages link but the sample does not hold answer 404 and go to ir.documents.v1.dlq with the reason.
run_ingest ingest-decks node dist/apps/ingest-decks/src/main.js --once
say "extracting a first-party call transcript (Citigroup, Q4 2024) through ingest-decks' one-PDF path"
run_ingest ingest-decks-transcript node dist/apps/ingest-decks/src/main.js \
  --url "http://127.0.0.1:$FIXTURE_PORT/transcripts/C-citi-4Q2024-earnings-call-transcript.pdf" --cik 831001 --ticker C

say "waiting for the projector to catch up with the topic"
for ((i = 0; i < 600; i++)); do
  if node dist/apps/projector/src/lag.cli.js >"$RUN_DIR/projector-lag.txt" 2>&1; then ready=1; break; fi
  # A background app that died will not catch up: say so now, not after ten minutes.
  for app in projector webhooks api; do
    kill -0 "$(cat "$RUN_DIR/$app.pid")" 2>/dev/null || { tail -5 "$RUN_DIR/$app.log" >&2; say "$app exited; see .run/$app.log"; exit 1; }
  done
  sleep 1
done
[[ "${ready:-0}" == 1 ]] || { cat "$RUN_DIR/projector-lag.txt" >&2; say "the projector has not caught up; see .run/projector.log"; exit 1; }
curl -fsS -H "Authorization: Bearer $API_KEY" "http://127.0.0.1:$PORT/v1/companies/MSFT:US" >/dev/null \
  || { say "MSFT:US is not served; see .run/api.log and .run/projector.log"; exit 1; }
# The 13F examples below answer with rows: MSFT's holders and ACTIAM's portfolio.
# The feed's filings were seen, served and their filing.created delivered to the sample endpoint.
for ((i = 0; i < 30; i++)); do
  delivered="$(curl -fsS -H "Authorization: Bearer $API_KEY" "http://127.0.0.1:$PORT/v1/status/freshness" |
    node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => console.log(JSON.parse(s).lag_from_acceptance.delivered.filings));')"
  [[ "$delivered" -gt 0 ]] && break
  sleep 1
done
[[ "${delivered:-0}" -gt 0 ]] || { say "/v1/status/freshness counts no delivered filing; see .run/ingest-filings-feed.log and .run/webhooks.log"; exit 1; }
for path in /v1/companies/MSFT:US/institutional-holders /v1/institutions/0001619124/holdings; do
  curl -fsS -H "Authorization: Bearer $API_KEY" "http://127.0.0.1:$PORT$path" |
    node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => process.exit(JSON.parse(s).data?.length > 0 ? 0 : 1));' \
    || { say "$path answers no rows; see .run/ingest-13f.log, .run/projector.log and .run/api.log"; exit 1; }
done
# The facts examples below answer with real figures: statements and a concept's reports.
for path in "/v1/companies/AAPL:US/financials?statement=income&period=quarter&limit=4" "/v1/companies/GOOGL:US/financials?statement=balance&as_of=2024-06-30" "/v1/companies/AAPL:US/facts?concept=SalesRevenueNet&period=annual&history=true"; do
  curl -fsS -H "Authorization: Bearer $API_KEY" "http://127.0.0.1:$PORT$path" |
    node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => { const b = JSON.parse(s); process.exit((b.data ?? b.periods)?.length > 0 ? 0 : 1); });' \
    || { say "$path answers no figures; see .run/ingest-facts.log, .run/projector.log and .run/api.log"; exit 1; }
done

# The pages example names a document whose text was extracted: the IR site lists decks whose PDF
# the sample does not hold, and those have no pages.
DOC_ID="$(curl -fsS -H "Authorization: Bearer $API_KEY" "http://127.0.0.1:$PORT/v1/documents?symbols=FRPH:US&limit=100" |
  node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => { const d = JSON.parse(s).data.find((x) => x.pages !== null); console.log(d ? d.id : 1); });')"

cat <<TXT

The pipeline is running on the bundled sample.
  API:     http://127.0.0.1:$PORT/v1   (docs: http://127.0.0.1:$PORT/docs)
  API key: $API_KEY   (shown once; create more with: npm run keys -- create --plan builder)

  curl -H "Authorization: Bearer $API_KEY" http://127.0.0.1:$PORT/v1/companies/TSLA:US    (description from Item 1 of its 10-K)
  curl -H "Authorization: Bearer $API_KEY" "http://127.0.0.1:$PORT/v1/companies?limit=5"
  curl -H "Authorization: Bearer $API_KEY" "http://127.0.0.1:$PORT/v1/companies/MSFT:US/filings?forms=10-K&limit=3"
  curl -H "Authorization: Bearer $API_KEY" http://127.0.0.1:$PORT/v1/companies/TSLA:US/sections/1A
  curl -H "Authorization: Bearer $API_KEY" "http://127.0.0.1:$PORT/v1/companies/AAPL:US/segments?unit=million"
  curl -H "Authorization: Bearer $API_KEY" "http://127.0.0.1:$PORT/v1/companies/AAPL:US/financials?statement=income&period=quarter&limit=4"    (standard lines, Q4 derived)
  curl -H "Authorization: Bearer $API_KEY" "http://127.0.0.1:$PORT/v1/companies/GOOGL:US/financials?statement=balance&as_of=2024-06-30"    (as it stood that day)
  curl -H "Authorization: Bearer $API_KEY" "http://127.0.0.1:$PORT/v1/companies/AAPL:US/facts?concept=SalesRevenueNet&period=annual&history=true"    (first reported, restated)
  curl -H "Authorization: Bearer $API_KEY" "http://127.0.0.1:$PORT/v1/companies/MSFT:US/fund-exposure"
  curl -H "Authorization: Bearer $API_KEY" "http://127.0.0.1:$PORT/v1/companies/MSFT:US/institutional-holders"    (13F managers holding it)
  curl -H "Authorization: Bearer $API_KEY" "http://127.0.0.1:$PORT/v1/institutions/0001619124/holdings"    (ACTIAM's 13F portfolio)
  curl -H "Authorization: Bearer $API_KEY" "http://127.0.0.1:$PORT/v1/companies/FRPH:US/executives?category=ir"
  curl -H "Authorization: Bearer $API_KEY" "http://127.0.0.1:$PORT/v1/companies/TSLA:US/insiders?derivative=false&limit=5"
  curl -H "Authorization: Bearer $API_KEY" "http://127.0.0.1:$PORT/v1/companies/TSLA:US/executives?current_only=false"
  curl -H "Authorization: Bearer $API_KEY" "http://127.0.0.1:$PORT/v1/filings?items=2.02"    (8-Ks reporting results)
  curl -H "Authorization: Bearer $API_KEY" http://127.0.0.1:$PORT/v1/status/freshness    (lag per stage; the sample's feed is months old: see lag_from_first_seen)
  curl -H "Authorization: Bearer $API_KEY" http://127.0.0.1:$PORT/v1/webhook-endpoints    (the sample endpoint receiving filing.created)
  curl -H "Authorization: Bearer $API_KEY" "http://127.0.0.1:$PORT/v1/documents?doc_types=press_release"    (8-K exhibits, with pages)
  curl -H "Authorization: Bearer $API_KEY" "http://127.0.0.1:$PORT/v1/documents?symbols=FRPH:US"
  curl -H "Authorization: Bearer $API_KEY" "http://127.0.0.1:$PORT/v1/documents/$DOC_ID/pages?page=0"
  curl -H "Authorization: Bearer $API_KEY" "http://127.0.0.1:$PORT/v1/transcripts?symbols=C:US"
  curl http://127.0.0.1:$WEBHOOKS_OPS_PORT/metrics    (projector: $PROJECTOR_OPS_PORT; also /healthz, /readyz)

Logs are in .run/; stop everything with: npm run stop
TXT
