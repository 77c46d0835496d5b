#!/usr/bin/env bash
# Local Kafka without Docker: one KRaft node (broker + controller in one JVM), or three.
#
#   bash scripts/kafka.sh up       start it (idempotent: starts the nodes not running), print the bootstrap addresses
#   bash scripts/kafka.sh down     stop it (SIGTERM, then SIGKILL after KAFKA_STOP_TIMEOUT s)
#   bash scripts/kafka.sh status   print running/stopped; exit 0 when every node runs, 1 otherwise
#
# KAFKA_NODES=3: three nodes, node i (0, 1, 2) on broker port KAFKA_PORT+2i and controller port
# KAFKA_CONTROLLER_PORT+2i (defaults 9092/9093, 9094/9095, 9096/9097), one controller quorum;
# replication factor 3 and min.insync.replicas 2 (internal topics too), so with acks=all a
# broker can die without losing an acknowledged record or stopping writes. One node: 1 and 1.
#
# The broker jars are Apache Kafka's own, resolved from Maven Central into
# .cache/kafka/<version>/libs (plus the logging backend the published POM lacks).
#
# Environment: KAFKA_VERSION (default below), KAFKA_NODES (1 or 3), KAFKA_PORT (9092), KAFKA_CONTROLLER_PORT (9093),
# KAFKA_RUN_DIR (.run), KAFKA_CACHE_DIR (.cache/kafka), KAFKA_START_TIMEOUT (120),
# KAFKA_STOP_TIMEOUT (30), KAFKA_HEAP_OPTS (-Xms128m -Xmx512m), KAFKA_MAVEN_OFFLINE=1 (mvn -o).
# Files: .run/kafka-<port>.pid, .run/kafka-<port>.log, .run/kafka-<port>/{server.properties,data}.
# auto.create.topics.enable=false: topics come from ensureTopics (libs/messaging), so a wrong
# topic name fails instead of silently creating a stray topic.
#
# Version choice: the newest Kafka that kafkajs 2.2.4 is proven to work with. Proof is
# libs/messaging/src/messaging.int-spec.ts (produce, consume in a group, commit, stop, rejoin in
# the same group: committed records not redelivered, uncommitted one redelivered; DLQ; retries),
# run against each broker below (jars from Maven Central, OpenJDK 17, this 2-core machine):
#   4.4.0  could not be tested: Maven Central lacks org.apache.kafka:kafka-tools-api:4.4.0, so it cannot resolve
#   4.3.1  PASS 7/7 (fresh data dir, metadata.version 4.3-IV0)  <- default
#          PASS 7/7 also after an in-place upgrade of a 4.1.1 data dir (metadata.version 4.1-IV1)
#   4.1.1  PASS 7/7 (the first version tried)
#   3.9.1  PASS 7/7 (fallback; reload4j logging branch below)
#   4.0.x  not tried (4.1.1 and 4.3.1 passed, so no fallback was needed)
# kafkajs never checks a broker's minimum API versions; all it uses stayed in 4.x (KIP-896).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TEMPLATES="$ROOT/scripts/kafka"

KAFKA_VERSION="${KAFKA_VERSION:-4.3.1}"
KAFKA_NODES="${KAFKA_NODES:-1}"
KAFKA_PORT="${KAFKA_PORT:-9092}"
KAFKA_CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-9093}"
[[ "$KAFKA_NODES" == 1 || "$KAFKA_NODES" == 3 ]] || { echo "kafka.sh: KAFKA_NODES must be 1 or 3" >&2; exit 2; }
FIRST_PORT="$KAFKA_PORT"
FIRST_CONTROLLER_PORT="$KAFKA_CONTROLLER_PORT"
KAFKA_RUN_DIR="${KAFKA_RUN_DIR:-$ROOT/.run}"
KAFKA_CACHE_DIR="${KAFKA_CACHE_DIR:-$ROOT/.cache/kafka}"
KAFKA_START_TIMEOUT="${KAFKA_START_TIMEOUT:-120}"
KAFKA_STOP_TIMEOUT="${KAFKA_STOP_TIMEOUT:-30}"
KAFKA_HEAP_OPTS="${KAFKA_HEAP_OPTS:--Xms128m -Xmx512m}"
DEPENDENCY_PLUGIN="org.apache.maven.plugins:maven-dependency-plugin:3.6.1"
# Any valid base64 UUID works; a fixed one keeps re-formatting deterministic.
CLUSTER_ID="${KAFKA_CLUSTER_ID:-MkU3OEVBNTcwNTJENDM2Qg}"

mkdir -p "$KAFKA_RUN_DIR"
KAFKA_RUN_DIR="$(cd "$KAFKA_RUN_DIR" && pwd)"
VERSION_DIR="$KAFKA_CACHE_DIR/$KAFKA_VERSION"
LIBS_DIR="$VERSION_DIR/libs"
LOCK_FILE="$KAFKA_RUN_DIR/kafka-$FIRST_PORT.lock"

# Node i's ports and files: the functions below work on the selected node.
select_node() {
  NODE_INDEX="$1"
  KAFKA_PORT=$((FIRST_PORT + 2 * NODE_INDEX))
  KAFKA_CONTROLLER_PORT=$((FIRST_CONTROLLER_PORT + 2 * NODE_INDEX))
  NODE_DIR="$KAFKA_RUN_DIR/kafka-$KAFKA_PORT"
  DATA_DIR="$NODE_DIR/data"
  PROPS_FILE="$NODE_DIR/server.properties"
  PID_FILE="$KAFKA_RUN_DIR/kafka-$KAFKA_PORT.pid"
  LOG_FILE="$KAFKA_RUN_DIR/kafka-$KAFKA_PORT.log"
  BOOTSTRAP="127.0.0.1:$KAFKA_PORT"
}
select_node 0

all_bootstrap() {
  local i out=()
  for ((i = 0; i < KAFKA_NODES; i++)); do out+=("127.0.0.1:$((FIRST_PORT + 2 * i))"); done
  (IFS=,; echo "${out[*]}")
}

voters() {
  local i out=()
  for ((i = 0; i < KAFKA_NODES; i++)); do out+=("$((i + 1))@127.0.0.1:$((FIRST_CONTROLLER_PORT + 2 * i))"); done
  (IFS=,; echo "${out[*]}")
}

log() { echo "kafka.sh: $*" >&2; }
die() { log "$*"; exit 1; }

major_version() { echo "${KAFKA_VERSION%%.*}"; }

# True when something accepts TCP connections on 127.0.0.1:<port>.
port_open() {
  timeout 2 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null
}

# Pid of our broker when it is alive (and really is a Kafka JVM, not a recycled pid).
running_pid() {
  [[ -f "$PID_FILE" ]] || return 1
  local pid
  pid="$(cat "$PID_FILE" 2>/dev/null || true)"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  kill -0 "$pid" 2>/dev/null || return 1
  grep -q 'kafka.Kafka' "/proc/$pid/cmdline" 2>/dev/null || return 1
  echo "$pid"
}

logging_dependencies() {
  if (( $(major_version) >= 4 )); then
    # Kafka 4.x logs through SLF4J 1.7 to log4j2; the published POM does not carry the backend.
    cat <<'EOF'
    <dependency><groupId>org.slf4j</groupId><artifactId>slf4j-api</artifactId><version>1.7.36</version></dependency>
    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-api</artifactId><version>2.24.3</version></dependency>
    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-core</artifactId><version>2.24.3</version></dependency>
    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-slf4j-impl</artifactId><version>2.24.3</version></dependency>
EOF
  else
    cat <<'EOF'
    <dependency><groupId>org.slf4j</groupId><artifactId>slf4j-reload4j</artifactId><version>1.7.36</version></dependency>
    <dependency><groupId>ch.qos.reload4j</groupId><artifactId>reload4j</artifactId><version>1.2.25</version></dependency>
EOF
  fi
}

resolve_jars() {
  if [[ -f "$LIBS_DIR/.complete" ]]; then
    return 0
  fi
  command -v mvn >/dev/null || die "mvn not found: Maven is needed once to fetch the Kafka jars"
  log "resolving Apache Kafka $KAFKA_VERSION jars with Maven into $LIBS_DIR"
  mkdir -p "$VERSION_DIR"
  rm -rf "$LIBS_DIR"
  local deps
  deps="$(logging_dependencies)"
  # awk rather than sed: the replacement spans lines.
  awk -v version="$KAFKA_VERSION" -v deps="$deps" '
    { gsub(/@KAFKA_VERSION@/, version) }
    /@LOGGING_DEPENDENCIES@/ { print deps; next }
    { print }
  ' "$TEMPLATES/pom.xml.tmpl" >"$VERSION_DIR/pom.xml"
  local offline=()
  # Second and later runs work without the network once ~/.m2 holds everything.
  if [[ "${KAFKA_MAVEN_OFFLINE:-0}" == "1" ]]; then offline=(-o); fi
  mvn -B -q "${offline[@]}" -f "$VERSION_DIR/pom.xml" \
    "$DEPENDENCY_PLUGIN:copy-dependencies" \
    -DincludeScope=runtime \
    -DoutputDirectory="$LIBS_DIR" >&2 || die "Maven could not resolve Kafka $KAFKA_VERSION"
  ls "$LIBS_DIR"/kafka_2.13-"$KAFKA_VERSION".jar >/dev/null 2>&1 || die "kafka_2.13-$KAFKA_VERSION.jar missing after resolution"
  touch "$LIBS_DIR/.complete"
  log "resolved $(find "$LIBS_DIR" -name '*.jar' | wc -l) jars"
}

write_config() {
  mkdir -p "$NODE_DIR"
  local replication=1 min_isr=1
  if (( KAFKA_NODES == 3 )); then replication=3; min_isr=2; fi
  sed -e "s|@PORT@|$KAFKA_PORT|g" \
      -e "s|@CONTROLLER_PORT@|$KAFKA_CONTROLLER_PORT|g" \
      -e "s|@DATA_DIR@|$DATA_DIR|g" \
      -e "s|@NODE_ID@|$((NODE_INDEX + 1))|g" \
      -e "s|@VOTERS@|$(voters)|g" \
      -e "s|@REPLICATION@|$replication|g" \
      -e "s|@MIN_ISR@|$min_isr|g" \
      "$TEMPLATES/server.properties.tmpl" >"$PROPS_FILE"
}

java_opts() {
  # shellcheck disable=SC2206
  local heap=($KAFKA_HEAP_OPTS)
  JAVA_OPTS=("${heap[@]}" -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Djava.awt.headless=true)
  if (( $(major_version) >= 4 )); then
    JAVA_OPTS+=("-Dlog4j2.configurationFile=$TEMPLATES/log4j2.properties")
  else
    JAVA_OPTS+=("-Dlog4j.configuration=file:$TEMPLATES/log4j.properties")
  fi
}

format_storage() {
  # The stamp holds the newest Kafka version that ran on this data dir. Same or newer version:
  # keep the data (KRaft upgrades in place; metadata.version stays until raised on purpose).
  # Older version: wipe and format afresh, since metadata does not downgrade (local state only).
  local stamp="$NODE_DIR/formatted-version" voters_stamp="$NODE_DIR/formatted-voters"
  # A data dir formatted for another quorum (1 node vs 3) cannot join this one: local state, wiped.
  if [[ -f "$voters_stamp" && "$(cat "$voters_stamp")" != "$(voters)" ]]; then
    log "data dir $DATA_DIR belongs to another quorum: wiping it"
    rm -rf "$DATA_DIR" "$stamp"
  fi
  if [[ -f "$DATA_DIR/meta.properties" && -f "$stamp" ]]; then
    local ran newest
    ran="$(cat "$stamp")"
    newest="$(printf '%s\n%s\n' "$ran" "$KAFKA_VERSION" | sort -V | tail -n 1)"
    if [[ "$newest" == "$KAFKA_VERSION" ]]; then
      echo "$KAFKA_VERSION" >"$stamp"
      return 0
    fi
    log "data dir was used by Kafka $ran, newer than $KAFKA_VERSION: wiping it"
  fi
  rm -rf "$DATA_DIR"
  mkdir -p "$DATA_DIR"
  log "formatting storage in $DATA_DIR"
  java "${JAVA_OPTS[@]}" -cp "$LIBS_DIR/*" kafka.tools.StorageTool format \
    -t "$CLUSTER_ID" -c "$PROPS_FILE" >>"$LOG_FILE" 2>&1 || {
      tail -n 30 "$LOG_FILE" >&2
      die "storage format failed (log: $LOG_FILE)"
    }
  echo "$KAFKA_VERSION" >"$stamp"
  voters >"$voters_stamp"
}

wait_ready() {
  local pid="$1" deadline=$((SECONDS + KAFKA_START_TIMEOUT))
  while ! port_open "$KAFKA_PORT"; do
    if ! kill -0 "$pid" 2>/dev/null; then
      tail -n 40 "$LOG_FILE" >&2 || true
      rm -f "$PID_FILE"
      die "broker exited during start-up (log: $LOG_FILE)"
    fi
    if (( SECONDS >= deadline )); then
      tail -n 40 "$LOG_FILE" >&2 || true
      die "broker not ready on $BOOTSTRAP after ${KAFKA_START_TIMEOUT}s (pid $pid still running; log: $LOG_FILE)"
    fi
    sleep 0.5
  done
}

# Starts the selected node unless it runs; does not wait for it.
start_node() {
  local pid
  if pid="$(running_pid)"; then
    log "node $BOOTSTRAP already running (pid $pid)"
    return 0
  fi
  if port_open "$KAFKA_PORT"; then
    die "port $KAFKA_PORT is taken by a process this script did not start; set KAFKA_BROKERS to use it or KAFKA_PORT to pick another"
  fi
  write_config
  format_storage
  log "starting Kafka $KAFKA_VERSION on $BOOTSTRAP (log: $LOG_FILE)"
  # setsid: the broker outlives the shell (and a test runner's process group) that started it.
  setsid java "${JAVA_OPTS[@]}" -cp "$LIBS_DIR/*" kafka.Kafka "$PROPS_FILE" \
    </dev/null >>"$LOG_FILE" 2>&1 9>&- &
  pid=$!
  echo "$pid" >"$PID_FILE"
  # Until the forked shell has exec'd java, /proc/<pid>/cmdline is bash's and running_pid says no;
  # on a loaded machine that window is long enough to fail `up` (seen in CI).
  local deadline=$((SECONDS + 30))
  until running_pid >/dev/null; do
    if ! kill -0 "$pid" 2>/dev/null; then
      tail -n 40 "$LOG_FILE" >&2 || true
      rm -f "$PID_FILE"
      die "broker exited during start-up (log: $LOG_FILE)"
    fi
    (( SECONDS < deadline )) || die "pid $pid did not become a Kafka JVM within 30s (log: $LOG_FILE)"
    sleep 0.1
  done
}

cmd_up() {
  command -v java >/dev/null || die "java not found (Kafka needs Java 17+)"
  resolve_jars
  java_opts
  local i pid
  # Every node first, then the waits: a 3-node quorum elects its controller only once two answer.
  for ((i = 0; i < KAFKA_NODES; i++)); do select_node "$i"; start_node; done
  for ((i = 0; i < KAFKA_NODES; i++)); do
    select_node "$i"
    pid="$(running_pid)" || die "node $BOOTSTRAP is not running (log: $LOG_FILE)"
    wait_ready "$pid"
    log "ready: $BOOTSTRAP (pid $pid)"
  done
  all_bootstrap
}

cmd_down() {
  local i
  for ((i = 0; i < KAFKA_NODES; i++)); do select_node "$i"; stop_node; done
}

stop_node() {
  local pid
  if ! pid="$(running_pid)"; then
    rm -f "$PID_FILE"
    log "$BOOTSTRAP not running"
    return 0
  fi
  log "stopping pid $pid"
  kill -TERM "$pid" 2>/dev/null || true
  local deadline=$((SECONDS + KAFKA_STOP_TIMEOUT))
  while kill -0 "$pid" 2>/dev/null; do
    if (( SECONDS >= deadline )); then
      log "still running after ${KAFKA_STOP_TIMEOUT}s: SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
      break
    fi
    sleep 0.5
  done
  rm -f "$PID_FILE"
  log "stopped $BOOTSTRAP"
}

cmd_status() {
  local i status=0
  for ((i = 0; i < KAFKA_NODES; i++)); do select_node "$i"; node_status || status=1; done
  return "$status"
}

node_status() {
  local pid
  if pid="$(running_pid)"; then
    if port_open "$KAFKA_PORT"; then
      echo "running (pid $pid, Kafka $(cat "$NODE_DIR/formatted-version" 2>/dev/null || echo '?'), bootstrap $BOOTSTRAP)"
      return 0
    fi
    echo "starting (pid $pid, $BOOTSTRAP not answering yet)"
    return 1
  fi
  echo "stopped ($BOOTSTRAP)"
  return 1
}

main() {
  local cmd="${1:-}"
  case "$cmd" in
    up|down)
      # One caller at a time per port: parallel test workers may all call `up`.
      exec 9>"$LOCK_FILE"
      flock 9
      "cmd_$cmd"
      ;;
    status) cmd_status ;;
    *) echo "usage: $0 up|down|status" >&2; exit 2 ;;
  esac
}

main "$@"
