#!/usr/bin/env bash
# The test command (README, .ci/run): static checks, unit tests, then integration and end-to-end
# tests against real Kafka, Postgres and Redis.
#   bash scripts/test.sh               everything (npm test)
#   bash scripts/test.sh integration   builds, then only the integration and end-to-end tests
#   bash scripts/test.sh infra-path    builds, then only the integration and end-to-end tests whose
#                                      file has a `// @infra-path: <why>` line: those whose result
#                                      depends on how Kafka, Postgres and Redis are provided, not only
#                                      on being given their addresses (npm run test:containers runs
#                                      this with TEST_INFRA=containers)
# Kafka, Postgres and Redis come, in this order, from the environment (KAFKA_BROKERS, DATABASE_URL,
# REDIS_URL), else from containers when a container engine answers (Testcontainers, the images and
# settings of docker-compose.yml), else from scripts/infra.sh (the project's Kafka, the machine's or
# an embedded Postgres). TEST_INFRA=containers|local forces one; libs/testing/src/test-infra.ts decides.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
source scripts/infra.sh
MODE="${1:-all}"
[[ "$MODE" == all || "$MODE" == integration || "$MODE" == infra-path ]] || { echo "usage: scripts/test.sh [integration|infra-path]" >&2; exit 2; }

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
JEST=(npx jest --selectProjects integration --runInBand --forceExit --json --outputFile=.run/test/integration.json)
# A spec gets `// @infra-path: <why>` when what it checks is the servers themselves (SQL on that
# Postgres, the broker's settings and admin API, Redis scripts) or how they are started; a spec that
# only connects to the addresses it is given needs none.
if [[ "$MODE" == infra-path ]]; then
  mapfile -t SPECS < <(grep -rlE '^// @infra-path: .+' --include='*.int-spec.ts' --include='*.e2e-spec.ts' apps libs test | sort)
  # Without paths jest would run every spec: none tagged is a mistake, not "all".
  (( ${#SPECS[@]} > 0 )) || { echo "no spec has a '// @infra-path: <why>' line" >&2; exit 1; }
  say "integration and end-to-end tests whose infrastructure path differs (// @infra-path:): ${#SPECS[@]} files"
  JEST+=(--runTestsByPath "${SPECS[@]}")
fi
INTEGRATION=(bash -c 'npm run --silent db:check && "$@"' integration "${JEST[@]}")
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
