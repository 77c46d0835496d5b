#!/usr/bin/env bash
# The test command (README, .ci/run): static checks, unit tests, then integration and end-to-end
# tests against real Kafka, Postgres and Redis that this script makes available (scripts/infra.sh).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
source scripts/infra.sh

ensure_node_modules
say "lint"; npm run --silent lint
say "typecheck"; npm run --silent typecheck
ensure_build
say "generated artifacts are up to date"; npm run --silent openapi:check; npm run --silent contracts:check

mkdir -p .run/test
status=0
say "unit tests"
npx jest --selectProjects unit --json --outputFile=.run/test/unit.json || status=1

ensure_postgres test
ensure_redis
ensure_kafka
say "entities and migrations agree"; npm run --silent db:check
say "integration and end-to-end tests (DATABASE_URL=${DATABASE_URL%%@*}@..., KAFKA_BROKERS=$KAFKA_BROKERS)"
npx jest --selectProjects integration --runInBand --json --outputFile=.run/test/integration.json || status=1

# One plain closing line over both runs.
node -e '
  const fs = require("fs");
  let passed = 0, failed = 0, skipped = 0;
  for (const f of [".run/test/unit.json", ".run/test/integration.json"]) {
    if (!fs.existsSync(f)) { failed += 1; continue; }
    const r = JSON.parse(fs.readFileSync(f, "utf8"));
    passed += r.numPassedTests; failed += r.numFailedTests + r.numRuntimeErrorTestSuites; skipped += r.numPendingTests;
  }
  console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
'
exit $status
