#!/usr/bin/env bash
# The test command (README, .ci/run): static checks, unit tests, then integration and end-to-end
# tests against real Kafka, Postgres and Redis.
#   bash scripts/test.sh               everything (npm test)
#   bash scripts/test.sh integration   builds, then only the integration and end-to-end tests
#                                      (npm run test:containers runs this with TEST_INFRA=containers)
# Kafka, Postgres and Redis come, in this order, from the environment (KAFKA_BROKERS, DATABASE_URL,
# REDIS_URL), else from containers when a container engine answers (Testcontainers, the images and
# settings of docker-compose.yml), else from scripts/infra.sh (the project's Kafka, the machine's or
# an embedded Postgres). TEST_INFRA=containers|local forces one; libs/testing/src/test-infra.ts decides.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
source scripts/infra.sh
MODE="${1:-all}"
[[ "$MODE" == all || "$MODE" == integration ]] || { echo "usage: scripts/test.sh [integration]" >&2; exit 2; }

ensure_node_modules
mkdir -p .run/test
rm -f .run/test/unit.json .run/test/integration.json
status=0
if [[ "$MODE" == all ]]; then
  say "lint"; npm run --silent lint
  say "typecheck"; npm run --silent typecheck
  ensure_build
  say "generated artifacts are up to date"; npm run --silent openapi:check; npm run --silent contracts:check
  say "OpenAPI lint (redocly, recommended rules)"; REDOCLY_TELEMETRY=off npx redocly lint apps/api/openapi.json --format=summary
  say "unit tests"
  npx jest --selectProjects unit --json --outputFile=.run/test/unit.json || status=1
else
  # In place (no rm -rf dist): the end-to-end tests start the apps from dist.
  say "building (tsc, in place)"
  npx tsc -p tsconfig.build.json && npx tsc-alias -p tsconfig.build.json
fi

# --forceExit: a failed test can leave a client retrying a broker it killed; jest then reports the
# failure but never exits (seen: CI waited out its 90 minutes). Jest still says it forced the exit.
INTEGRATION=(bash -c 'npm run --silent db:check && npx jest --selectProjects integration --runInBand --forceExit --json --outputFile=.run/test/integration.json')
INFRA="$(node dist/libs/testing/src/test-infra.cli.js choose)"
case "$INFRA" in
  containers)
    # Started, handed to the tests and stopped (also on failure or Ctrl-C) by the CLI.
    node dist/libs/testing/src/test-infra.cli.js with-containers "${INTEGRATION[@]}" || status=1
    ;;
  local | environment)
    # Forced local: ignore whatever the shell exports; otherwise a partial environment still counts.
    if [[ "${TEST_INFRA:-}" == local ]]; then unset KAFKA_BROKERS DATABASE_URL REDIS_URL; fi
    ensure_postgres test
    ensure_redis
    ensure_kafka
    say "integration and end-to-end tests (DATABASE_URL=${DATABASE_URL%%@*}@..., KAFKA_BROKERS=$KAFKA_BROKERS)"
    "${INTEGRATION[@]}" || status=1
    ;;
esac

# One plain closing line over the runs.
MODE="$MODE" INFRA="$INFRA" node -e '
  const fs = require("fs");
  const files = process.env.MODE === "all" ? [".run/test/unit.json", ".run/test/integration.json"] : [".run/test/integration.json"];
  let passed = 0, failed = 0, skipped = 0;
  for (const f of files) {
    if (!fs.existsSync(f)) { failed += 1; continue; }
    const r = JSON.parse(fs.readFileSync(f, "utf8"));
    passed += r.numPassedTests; failed += r.numFailedTests + r.numRuntimeErrorTestSuites; skipped += r.numPendingTests;
  }
  console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped (Kafka, Postgres and Redis: ${process.env.INFRA})`);
'
exit $status
