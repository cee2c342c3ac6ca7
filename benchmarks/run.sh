#!/usr/bin/env bash
# Runs every benchmark of issue 6 and writes docs/BENCHMARKS.md and docs/failover.png.
#
#   benchmarks/run.sh                      everything (about 25 minutes on 2 cores with the defaults, 15 of them stores)
#   STAGES="failover jmh" benchmarks/run.sh  some stages only; the report is rebuilt from the latest results of all
#   FAILOVER_REPS=10 REQUESTS_SECONDS=20 benchmarks/run.sh   a quicker, noisier run
#   BUILD=reactor STAGES=rolling benchmarks/run.sh   builds the hoplock modules from this checkout (mvn -am) instead
#                                        of taking them from ~/.m2 (every stage but startup, which resolves the starter
#                                        from ~/.m2)
#
# Stages: failover (crash and graceful handover over S3Mock; the es stage repeats it on OpenSearch), jmh (@LeaderOnly gate cost), requests (store requests and
# added latency, hoplock over S3Mock, @WithLock over S3Mock, and ShedLock over PostgreSQL), jdbc (the same, hoplock's JDBC store and ShedLock's
# JDBC provider on one PostgreSQL, one after the other, and @WithLock on hoplock's JDBC store), es (the same harness, hoplock's Elasticsearch store over an
# in-JVM OpenSearch 2.19.6 node through the application's Rest5Client), startup (start-up added by the starter),
# rolling (rolling restarts of three Spring Boot JVMs over one filesystem store: time with no leader at each
# handover), ownership (per-key ownership: spread and churn, store requests per hour against N, hand-over time, JMH
# check cost, and ownership at scale: 10, 100 and 1,000 members in virtual time, 10 and 100 real members over S3Mock
# and PostgreSQL), stores (failover after kill -9 and SIGTERM and store requests per hour of the Redis, NATS, Azure Blob
# and DynamoDB stores, each over its own server or emulator started by the store module's figures test: Maven runs
# RedisFailoverFigures, NatsFailoverFigures, AzureBlobFailoverFigures and DynamoDbFailoverFigures with -Pfailover-figures,
# each writing benchmarks/results/store-<store>.properties; about 15 minutes at the default 30 repetitions). The report
# is written after the stages, always. Raw results: benchmarks/results/ (CSV, .properties, JMH CSV); logs of the run:
# benchmarks/target/bench-logs/.
#
# Network: only 127.0.0.1 (S3Mock, PostgreSQL, OpenSearch) and Maven Central for the build. Needs the hoplock modules in
# the local Maven repository (mvn -q install -pl hoplock-core,hoplock-test,hoplock-s3,hoplock-jdbc,hoplock-elasticsearch,
# hoplock-spring-boot-autoconfigure,hoplock-spring-boot-starter -DskipTests), or BUILD=reactor, which builds them from
# this checkout with the benchmarks and installs nothing (the startup stage still needs the starter installed);
# PostgreSQL on 127.0.0.1:5432 (started, or installed, if missing). The stores stage needs redis-server and nats-server
# on the PATH (Debian packages redis-server and nats-server) and node and npm (Azurite and dynalite are installed once
# per machine from the npm registry by their test harnesses); with BUILD=installed, the store modules' upstream
# hoplock modules (hoplock-core, hoplock-test, hoplock-s3 with its test jar) must be in the local Maven repository.
#
#   STAGES=stores STORES_REPS=30 benchmarks/run.sh   the four stores' figures only (STORES_LIST="redis nats" for some)
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

: "${FAILOVER_REPS:=30}"        # crash repetitions (kill -9 of the leader's JVM)
: "${HANDOVER_REPS:=30}"        # graceful handover repetitions
: "${FAILOVER_TTL_MS:=2000}"    # TTL of the failover runs; renew TTL/3, poll TTL/15
: "${JMH_FORKS:=4}"
: "${JMH_WARMUP:=5}"            # warm-up iterations per fork
: "${JMH_ITERATIONS:=5}"        # measured iterations per fork
: "${JMH_TIME:=1s}"             # length of each iteration
: "${REQUESTS_SECONDS:=60}"     # counting window of the requests benchmark, per library
: "${REQUESTS_WARMUP:=5}"
: "${REQUESTS_TTL:=30s}"        # hoplock's TTL in the requests benchmark (the starter's default)
: "${JDBC_SECONDS:=60}"         # counting window of the jdbc stage, per library
: "${JDBC_WARMUP:=5}"
: "${JDBC_TTL:=30s}"            # hoplock's TTL in the jdbc stage (the starter's default)
: "${ES_SECONDS:=60}"           # counting window of the es stage
: "${ES_WARMUP:=5}"
: "${ES_TTL:=30s}"              # hoplock's TTL in the es stage (the starter's default)
: "${STARTUP_REPS:=10}"         # JVM starts per variant
: "${ROLLING_ROUNDS:=10}"       # rolling restarts of all three instances
: "${ROLLING_TTL_MS:=2000}"     # TTL of the rolling stage; renew TTL/3, poll TTL/15
: "${ROLLING_WARMUP_MS:=1000}"  # each instance's warm-up (started, not ready)
: "${OWNERSHIP_REPS:=5}"        # departures per mode (graceful, crash) in the ownership hand-over bench
: "${OWNERSHIP_TTL_MS:=3000}"   # TTL of the ownership hand-over bench; renew TTL/3, poll TTL/15
: "${OWNERSHIP_SCALE_MEMBERS:=10,100,1000}"   # group sizes of the ownership scale bench in virtual time
: "${OWNERSHIP_SCALE_REAL_MEMBERS:=10,100}"   # group sizes of the ownership scale bench on S3Mock and PostgreSQL
: "${OWNERSHIP_SCALE_S3_TTL_MS:=30000}"       # TTL of the ownership scale bench on S3Mock (one request thread)
: "${OWNERSHIP_SCALE_PG_TTL_MS:=15000}"       # TTL of the ownership scale bench on PostgreSQL
: "${STORES_REPS:=30}"          # stores stage: SIGKILLs, and as many SIGTERMs, of the leader's JVM per store (TTL 2 s)
: "${STORES_SECONDS:=60}"       # stores stage: counting window of the request count per store (3 electors, TTL 30 s)
: "${STORES_LIST:=redis nats azure-blob dynamodb}"  # stores stage: which stores
: "${STAGES:=failover jmh requests jdbc es startup rolling ownership stores}"
: "${BUILD:=reactor}"           # reactor: hoplock jars built from this checkout (mvn -am); installed: from ~/.m2
: "${PG_URL:=jdbc:postgresql://127.0.0.1:5432/test}"
: "${PG_USER:=postgres}"
: "${PG_PASSWORD:=}"

RESULTS="$ROOT/benchmarks/results"
TARGET="$ROOT/benchmarks/target"
LOGS="$TARGET/bench-logs"
STAGES_FILE="$RESULTS/stages.properties"
MACHINE_FILE="$RESULTS/machine.properties"
mkdir -p "$LOGS" "$RESULTS"
touch "$STAGES_FILE"

say() { printf '\n== %s  %s\n' "$(date -u +%H:%M:%S)" "$*"; }

# set_prop FILE KEY VALUE: sets KEY in a .properties file, replacing its line (backslashes and newlines escaped).
set_prop() {
  local file="$1" key="$2" value="$3"
  value="${value//\\/\\\\}"
  value="${value//$'\n'/\\n}"
  touch "$file"
  awk -v k="$key=" 'index($0, k) != 1' "$file" > "$file.tmp"
  printf '%s=%s\n' "$key" "$value" >> "$file.tmp"
  sort -o "$file" "$file.tmp" && rm -f "$file.tmp"
}

wants() { [[ " $STAGES " == *" $1 "* ]]; }

# run_stage NAME TIMEOUT_SECONDS SHOWN_COMMAND -- COMMAND...: runs one stage, logs it, records its status and command.
run_stage() {
  local name="$1" limit="$2" shown="$3"
  shift 4
  say "stage $name: $shown"
  local start end rc load_before
  start=$(date +%s)
  load_before=$(cut -d' ' -f1 /proc/loadavg)
  timeout --kill-after=30 "$limit" "$@" 2>&1 | tee "$LOGS/$name.log"
  rc=${PIPESTATUS[0]}
  end=$(date +%s)
  reap_s3mock
  set_prop "$STAGES_FILE" "$name.command" "$shown"
  set_prop "$STAGES_FILE" "$name.seconds" "$((end - start))"
  set_prop "$STAGES_FILE" "$name.load" "$load_before to $(cut -d' ' -f1 /proc/loadavg)"
  set_prop "$STAGES_FILE" "$name.finished" "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  set_prop "$STAGES_FILE" "$name.cpu" "$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores"
  if [[ $rc -eq 0 ]]; then
    set_prop "$STAGES_FILE" "$name.status" "ok"
  elif [[ $rc -eq 124 || $rc -eq 137 ]]; then
    set_prop "$STAGES_FILE" "$name.status" "failed: timed out after ${limit} s"
  else
    set_prop "$STAGES_FILE" "$name.status" "failed: exit code $rc"
  fi
  return 0
}

# Stops S3Mock servers this benchmark started (store under benchmarks/target) that a killed stage left behind. Each JVM
# stops its own server in a shutdown hook; this only matters after a SIGKILL.
reap_s3mock() {
  local pid
  for pid in $(pgrep -f -- "--com.adobe.testing.s3mock.store.root=$TARGET/s3mock/" || true); do
    kill "$pid" 2>/dev/null || true
  done
}

pg_up() { (exec 3<>/dev/tcp/127.0.0.1/5432) 2>/dev/null; }

ensure_postgres() {
  if pg_up; then return 0; fi
  say "PostgreSQL is not answering on 127.0.0.1:5432; starting it"
  if command -v pg_ctlcluster >/dev/null 2>&1 && [[ -d /etc/postgresql ]]; then
    # The command of /work/.library/env/machines/java-maven-svc.md.
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start || true
  elif command -v apt-get >/dev/null 2>&1 && [[ $(id -u) -eq 0 ]]; then
    say "no PostgreSQL on this machine; installing Debian's package"
    DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql >/dev/null || return 1
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start || true
    if [[ -z "$PG_PASSWORD" ]]; then
      # Debian's default pg_hba.conf asks for a password on 127.0.0.1.
      PG_PASSWORD=postgres
      su postgres -c "psql -qc \"ALTER USER postgres PASSWORD 'postgres'\"" || true
    fi
  fi
  for _ in $(seq 1 60); do pg_up && return 0; sleep 0.5; done
  return 1
}

RUN_START=$(date +%s)
RUN_STARTED="$(date -u +%Y-%m-%dT%H:%M:%SZ)"

# ---------------------------------------------------------------- build
BUILD_ARGS=()
[[ "$BUILD" == reactor ]] && BUILD_ARGS=(-am)
say "build: mvn -q -pl benchmarks ${BUILD_ARGS[*]} -Pbench package -DskipTests"
BUILD_START=$(date +%s)
if ! mvn -q -pl benchmarks "${BUILD_ARGS[@]}" -Pbench package -DskipTests; then
  echo "The benchmarks module did not build. If a hoplock module is missing from ~/.m2, install the modules first:" >&2
  echo "  mvn -q install -pl hoplock-core,hoplock-test,hoplock-s3,hoplock-jdbc,hoplock-elasticsearch,hoplock-spring-boot-autoconfigure,hoplock-spring-boot-starter -DskipTests" >&2
  echo "or build them from this checkout: BUILD=reactor benchmarks/run.sh" >&2
  exit 1
fi
if wants startup; then
  for variant in without-starter with-starter; do
    mvn -q -f benchmarks/startup/pom.xml -P"$variant" dependency:build-classpath \
      -Dmdep.outputFile="$TARGET/startup-$variant.txt" || { echo "cannot resolve the $variant class path" >&2; exit 1; }
  done
fi
set_prop "$STAGES_FILE" "build.seconds" "$(( $(date +%s) - BUILD_START ))"
# Pin the hoplock jars of this run: copies, so that another build installing new snapshots into ~/.m2 while the
# benchmarks run can neither break a running JVM nor mix two versions in one run.
PINNED="$TARGET/pinned"
rm -rf "$PINNED" && mkdir -p "$PINNED"
pin() {
  local out="" jar
  IFS=':' read -r -a jars <<< "$(cat "$1")"
  for jar in "${jars[@]}"; do
    if [[ "$jar" == */dev/hoplock/* || "$jar" == "$ROOT"/*/target/*.jar ]]; then
      cp -p "$jar" "$PINNED/" && jar="$PINNED/$(basename "$jar")"
    fi
    out="${out:+$out:}$jar"
  done
  printf '%s' "$out" > "$1"
}
pin "$TARGET/bench-classpath.txt"
if wants startup; then
  pin "$TARGET/startup-without-starter.txt"
  pin "$TARGET/startup-with-starter.txt"
fi
set_prop "$MACHINE_FILE" hoplock_build "$BUILD"
set_prop "$MACHINE_FILE" hoplock_jars "$(cd "$PINNED" && for j in *.jar; do printf '%s (%s %s), ' "$j" "$([[ $BUILD == reactor ]] && echo built || echo installed)" "$(date -u -r "$j" +%Y-%m-%dT%H:%M:%SZ)"; done | sed 's/, $//')"
CP="$TARGET/classes:$(cat "$TARGET/bench-classpath.txt")"
JAVA=(java -Duser.language=en -Duser.country=US -Dbench.results="$RESULTS" -Dhoplock.test.dir="$TARGET"
      -Dbench.logs="$LOGS" -Dhoplock.s3mock.jar="$TARGET/s3mock/s3mock-5.2.0-exec.jar" -cp "$CP")
SHOWN_JAVA="java -cp <benchmarks class path>"

# ---------------------------------------------------------------- machine
set_prop "$MACHINE_FILE" run_started "$RUN_STARTED"
set_prop "$MACHINE_FILE" run_stages "$STAGES"
set_prop "$MACHINE_FILE" nproc "$(nproc)"
set_prop "$MACHINE_FILE" mem_total "$(awk '/MemTotal/ {printf "%.1f GiB (%d kB)", $2/1048576, $2}' /proc/meminfo)"
set_prop "$MACHINE_FILE" cpu_model "$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)"
set_prop "$MACHINE_FILE" kernel "$(uname -srm)"
set_prop "$MACHINE_FILE" java_version "$(java -version 2>&1)"
set_prop "$MACHINE_FILE" mvn_version "$(mvn -v 2>/dev/null | head -1 | sed 's/\x1b\[[0-9;]*m//g')"
set_prop "$MACHINE_FILE" git_commit "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
# Uncommitted changes to the code measured; the results and the report this script writes itself do not count.
set_prop "$MACHINE_FILE" git_dirty "$([[ -n "$(git status --porcelain -- . ':!benchmarks/results' ':!docs/BENCHMARKS.md' 2>/dev/null)" ]] && echo true || echo false)"
# record_env STAGE VARIABLE...: the settings the stage ran with (the report shows them with their defaults).
record_env() {
  local stage="$1" name
  shift
  for name in "$@"; do
    set_prop "$STAGES_FILE" "env.$name" "${!name}"
  done
}

# ---------------------------------------------------------------- stages
if wants failover; then
  rm -f "$RESULTS"/failover-*
  record_env failover FAILOVER_REPS HANDOVER_REPS FAILOVER_TTL_MS
  run_stage failover 1800 "$SHOWN_JAVA -Dbench.failover.crash=$FAILOVER_REPS -Dbench.failover.graceful=$HANDOVER_REPS -Dbench.failover.ttlMs=$FAILOVER_TTL_MS dev.hoplock.bench.failover.FailoverBench" -- \
    "${JAVA[@]}" -Dlogback.configurationFile=bench-logback.xml -Dbench.failover.crash="$FAILOVER_REPS" \
    -Dbench.failover.graceful="$HANDOVER_REPS" -Dbench.failover.ttlMs="$FAILOVER_TTL_MS" \
    dev.hoplock.bench.failover.FailoverBench
fi

if wants jmh; then
  rm -f "$RESULTS/jmh-gate.csv"
  record_env jmh JMH_FORKS JMH_WARMUP JMH_ITERATIONS JMH_TIME
  JMH_ARGS=(GateCostBenchmark -f "$JMH_FORKS" -wi "$JMH_WARMUP" -i "$JMH_ITERATIONS" -w "$JMH_TIME" -r "$JMH_TIME"
            -prof gc -rf csv -rff "$RESULTS/jmh-gate.csv")
  set_prop "$STAGES_FILE" "jmh.settings" "$JMH_FORKS forks x $JMH_ITERATIONS iterations of $JMH_TIME after $JMH_WARMUP warm-up iterations of $JMH_TIME, 1 thread"
  run_stage jmh 1200 "$SHOWN_JAVA org.openjdk.jmh.Main ${JMH_ARGS[*]/#$RESULTS/benchmarks/results}" -- \
    "${JAVA[@]}" org.openjdk.jmh.Main "${JMH_ARGS[@]}"
fi

if wants ownership; then
  rm -f "$RESULTS"/ownership-* "$RESULTS/jmh-ownership.csv"
  record_env ownership OWNERSHIP_REPS OWNERSHIP_TTL_MS
  run_stage ownership-spread 300 "$SHOWN_JAVA dev.hoplock.bench.ownership.SpreadAndChurn 10 100000" -- \
    "${JAVA[@]}" dev.hoplock.bench.ownership.SpreadAndChurn 10 100000
  run_stage ownership-requests 900 "$SHOWN_JAVA dev.hoplock.bench.ownership.OwnershipRequestsBench" -- \
    "${JAVA[@]}" -Dlogback.configurationFile=bench-logback.xml dev.hoplock.bench.ownership.OwnershipRequestsBench
  run_stage ownership-handover 1200 "$SHOWN_JAVA -Dbench.ownership.reps=$OWNERSHIP_REPS -Dbench.ownership.ttlMs=$OWNERSHIP_TTL_MS dev.hoplock.bench.ownership.OwnershipHandoverBench" -- \
    "${JAVA[@]}" -Dlogback.configurationFile=bench-logback.xml -Dbench.ownership.reps="$OWNERSHIP_REPS" \
    -Dbench.ownership.ttlMs="$OWNERSHIP_TTL_MS" dev.hoplock.bench.ownership.OwnershipHandoverBench
  record_env ownership OWNERSHIP_SCALE_MEMBERS OWNERSHIP_SCALE_REAL_MEMBERS OWNERSHIP_SCALE_S3_TTL_MS OWNERSHIP_SCALE_PG_TTL_MS
  # Issue 24: 10, 100 and 1,000 members in virtual time, then real members (many per JVM, each with its own client)
  # over S3Mock and PostgreSQL.
  run_stage ownership-scale 3600 "$SHOWN_JAVA -Xmx6g -Dbench.scale.members=$OWNERSHIP_SCALE_MEMBERS dev.hoplock.bench.ownership.OwnershipScaleBench" -- \
    "${JAVA[@]}" -Xmx6g -Dlogback.configurationFile=bench-logback.xml -Dbench.scale.members="$OWNERSHIP_SCALE_MEMBERS" \
    dev.hoplock.bench.ownership.OwnershipScaleBench
  run_stage ownership-scale-s3 1800 "$SHOWN_JAVA -Xmx2g -Dbench.scale.ttlMs=$OWNERSHIP_SCALE_S3_TTL_MS dev.hoplock.bench.ownership.OwnershipScaleRealBench s3 $OWNERSHIP_SCALE_REAL_MEMBERS" -- \
    "${JAVA[@]}" -Xmx2g -Dlogback.configurationFile=bench-logback.xml -Dhoplock.s3mock.startupSeconds=240 \
    -Dbench.scale.ttlMs="$OWNERSHIP_SCALE_S3_TTL_MS" \
    dev.hoplock.bench.ownership.OwnershipScaleRealBench s3 "$OWNERSHIP_SCALE_REAL_MEMBERS"
  if ensure_postgres; then
    run_stage ownership-scale-pg 1800 "$SHOWN_JAVA -Xmx2g -Dbench.scale.ttlMs=$OWNERSHIP_SCALE_PG_TTL_MS dev.hoplock.bench.ownership.OwnershipScaleRealBench pg $OWNERSHIP_SCALE_REAL_MEMBERS" -- \
      "${JAVA[@]}" -Xmx2g -Dlogback.configurationFile=bench-logback.xml -Dbench.scale.ttlMs="$OWNERSHIP_SCALE_PG_TTL_MS" \
      -Dbench.pg.url="$PG_URL" -Dbench.pg.user="$PG_USER" -Dbench.pg.password="$PG_PASSWORD" \
      dev.hoplock.bench.ownership.OwnershipScaleRealBench pg "$OWNERSHIP_SCALE_REAL_MEMBERS"
  else
    set_prop "$STAGES_FILE" "ownership-scale-pg.status" "skipped: PostgreSQL is not reachable on 127.0.0.1:5432"
  fi
  OWN_JMH=(OwnershipCheckBenchmark -f 1 -wi 3 -i 5 -w 1s -r 1s -prof gc -rf csv -rff "$RESULTS/jmh-ownership.csv")
  run_stage ownership-jmh 1200 "$SHOWN_JAVA org.openjdk.jmh.Main ${OWN_JMH[*]/#$RESULTS/benchmarks/results}" -- \
    "${JAVA[@]}" org.openjdk.jmh.Main "${OWN_JMH[@]}"
fi

if wants requests; then
  rm -f "$RESULTS"/requests-*
  record_env requests REQUESTS_SECONDS REQUESTS_WARMUP REQUESTS_TTL
  set_prop "$STAGES_FILE" "requests.seconds" "$REQUESTS_SECONDS"
  set_prop "$STAGES_FILE" "requests.warmup" "$REQUESTS_WARMUP"
  REQ=(-Dbench.requests.seconds="$REQUESTS_SECONDS" -Dbench.requests.warmup="$REQUESTS_WARMUP")
  run_stage requests-hoplock 900 "$SHOWN_JAVA ${REQ[*]} -Dbench.requests.ttl=$REQUESTS_TTL dev.hoplock.bench.requests.RequestsBench hoplock" -- \
    "${JAVA[@]}" "${REQ[@]}" -Dbench.requests.ttl="$REQUESTS_TTL" dev.hoplock.bench.requests.RequestsBench hoplock
  # @WithLock over the same S3Mock (ShedLock's S3 provider is not served at the version of benchmarks/pom.xml).
  run_stage requests-hoplock-lock 900 "$SHOWN_JAVA ${REQ[*]} -Dbench.requests.ttl=$REQUESTS_TTL dev.hoplock.bench.requests.RequestsBench hoplock-s3-lock" -- \
    "${JAVA[@]}" "${REQ[@]}" -Dbench.requests.ttl="$REQUESTS_TTL" dev.hoplock.bench.requests.RequestsBench hoplock-s3-lock
  if ensure_postgres; then
    set_prop "$MACHINE_FILE" pg_version "PostgreSQL $(PGPASSWORD="$PG_PASSWORD" psql -h 127.0.0.1 -U "$PG_USER" -d postgres -Atc 'show server_version' 2>/dev/null || echo '?')"
    set_prop "$MACHINE_FILE" pg_synchronous_commit "$(PGPASSWORD="$PG_PASSWORD" psql -h 127.0.0.1 -U "$PG_USER" -d postgres -Atc 'show synchronous_commit' 2>/dev/null || echo '?')"
    set_prop "$MACHINE_FILE" pg_fsync "$(PGPASSWORD="$PG_PASSWORD" psql -h 127.0.0.1 -U "$PG_USER" -d postgres -Atc 'show fsync' 2>/dev/null || echo '?')"
    run_stage requests-shedlock 900 "$SHOWN_JAVA ${REQ[*]} -Dbench.jdbc.url=$PG_URL dev.hoplock.bench.requests.RequestsBench shedlock" -- \
      "${JAVA[@]}" "${REQ[@]}" -Dbench.jdbc.url="$PG_URL" -Dbench.jdbc.user="$PG_USER" \
      -Dbench.jdbc.password="$PG_PASSWORD" dev.hoplock.bench.requests.RequestsBench shedlock
  else
    set_prop "$STAGES_FILE" "requests-shedlock.status" "failed: PostgreSQL could not be started on 127.0.0.1:5432"
  fi
fi

if wants jdbc; then
  rm -f "$RESULTS"/jdbc-requests-*
  record_env jdbc JDBC_SECONDS JDBC_WARMUP JDBC_TTL
  set_prop "$STAGES_FILE" "jdbc.window" "$JDBC_SECONDS"
  set_prop "$STAGES_FILE" "jdbc.warmup" "$JDBC_WARMUP"
  if ensure_postgres; then
    set_prop "$MACHINE_FILE" pg_version "PostgreSQL $(PGPASSWORD="$PG_PASSWORD" psql -h 127.0.0.1 -U "$PG_USER" -d postgres -Atc 'show server_version' 2>/dev/null || echo '?')"
    JREQ=(-Dbench.requests.prefix=jdbc-requests- -Dbench.requests.seconds="$JDBC_SECONDS"
          -Dbench.requests.warmup="$JDBC_WARMUP" -Dbench.jdbc.url="$PG_URL")
    run_stage jdbc-hoplock 900 "$SHOWN_JAVA ${JREQ[*]} -Dbench.requests.ttl=$JDBC_TTL dev.hoplock.bench.requests.RequestsBench hoplock-jdbc" -- \
      "${JAVA[@]}" "${JREQ[@]}" -Dbench.requests.ttl="$JDBC_TTL" -Dbench.jdbc.user="$PG_USER" \
      -Dbench.jdbc.password="$PG_PASSWORD" dev.hoplock.bench.requests.RequestsBench hoplock-jdbc
    run_stage jdbc-shedlock 900 "$SHOWN_JAVA ${JREQ[*]} dev.hoplock.bench.requests.RequestsBench shedlock" -- \
      "${JAVA[@]}" "${JREQ[@]}" -Dbench.jdbc.user="$PG_USER" \
      -Dbench.jdbc.password="$PG_PASSWORD" dev.hoplock.bench.requests.RequestsBench shedlock
    run_stage jdbc-hoplock-lock 900 "$SHOWN_JAVA ${JREQ[*]} -Dbench.requests.ttl=$JDBC_TTL dev.hoplock.bench.requests.RequestsBench hoplock-jdbc-lock" -- \
      "${JAVA[@]}" "${JREQ[@]}" -Dbench.requests.ttl="$JDBC_TTL" -Dbench.jdbc.user="$PG_USER" \
      -Dbench.jdbc.password="$PG_PASSWORD" dev.hoplock.bench.requests.RequestsBench hoplock-jdbc-lock
  else
    set_prop "$STAGES_FILE" "jdbc-hoplock.status" "failed: PostgreSQL could not be started on 127.0.0.1:5432"
  fi
fi

if wants es; then
  rm -f "$RESULTS"/es-requests-*
  record_env es ES_SECONDS ES_WARMUP ES_TTL
  set_prop "$STAGES_FILE" "es.window" "$ES_SECONDS"
  set_prop "$STAGES_FILE" "es.warmup" "$ES_WARMUP"
  EREQ=(-Dbench.requests.prefix=es-requests- -Dbench.requests.seconds="$ES_SECONDS"
        -Dbench.requests.warmup="$ES_WARMUP" -Dbench.requests.ttl="$ES_TTL")
  # The in-JVM OpenSearch node logs through log4j's core, although Boot's log4j-to-slf4j bridge is on the class path.
  run_stage es-hoplock 900 "$SHOWN_JAVA ${EREQ[*]} dev.hoplock.bench.requests.RequestsBench hoplock-es" -- \
    "${JAVA[@]}" -Dlog4j.provider=org.apache.logging.log4j.core.impl.Log4jProvider "${EREQ[@]}" \
    dev.hoplock.bench.requests.RequestsBench hoplock-es
  # Failover as in the failover stage (same settings), with the electors' JVMs on the Elasticsearch store.
  rm -f "$RESULTS"/es-failover-*
  record_env es FAILOVER_REPS HANDOVER_REPS FAILOVER_TTL_MS
  run_stage es-failover 1800 "$SHOWN_JAVA -Dbench.failover.store=es -Dbench.failover.crash=$FAILOVER_REPS -Dbench.failover.graceful=$HANDOVER_REPS -Dbench.failover.ttlMs=$FAILOVER_TTL_MS dev.hoplock.bench.failover.FailoverBench" -- \
    "${JAVA[@]}" -Dlog4j.provider=org.apache.logging.log4j.core.impl.Log4jProvider \
    -Dlogback.configurationFile=bench-logback.xml -Dbench.failover.store=es -Dbench.failover.crash="$FAILOVER_REPS" \
    -Dbench.failover.graceful="$HANDOVER_REPS" -Dbench.failover.ttlMs="$FAILOVER_TTL_MS" \
    dev.hoplock.bench.failover.FailoverBench
fi

if wants startup; then
  rm -f "$RESULTS"/startup*
  record_env startup STARTUP_REPS
  run_stage startup 1200 "$SHOWN_JAVA -Dbench.startup.reps=$STARTUP_REPS dev.hoplock.bench.startup.StartupBench" -- \
    "${JAVA[@]}" -Dbench.startup.reps="$STARTUP_REPS" -Dbench.startup.work="$TARGET/startup" \
    -Dbench.startup.cp.without="$TARGET/startup-without-starter.txt" \
    -Dbench.startup.cp.with="$TARGET/startup-with-starter.txt" dev.hoplock.bench.startup.StartupBench
fi

if wants rolling; then
  rm -f "$RESULTS"/rolling-*
  record_env rolling ROLLING_ROUNDS ROLLING_TTL_MS ROLLING_WARMUP_MS
  run_stage rolling 1800 "$SHOWN_JAVA -Dbench.rolling.rounds=$ROLLING_ROUNDS -Dbench.rolling.ttlMs=$ROLLING_TTL_MS -Dbench.rolling.warmupMs=$ROLLING_WARMUP_MS dev.hoplock.bench.rolling.RollingRestartBench" -- \
    "${JAVA[@]}" -Dlogback.configurationFile=bench-logback.xml -Dbench.rolling.rounds="$ROLLING_ROUNDS" \
    -Dbench.rolling.ttlMs="$ROLLING_TTL_MS" -Dbench.rolling.warmupMs="$ROLLING_WARMUP_MS" \
    dev.hoplock.bench.rolling.RollingRestartBench
fi

if wants stores; then
  record_env stores STORES_REPS STORES_SECONDS
  for store in $STORES_LIST; do
    case "$store" in
      redis) figures=RedisFailoverFigures ;;
      nats) figures=NatsFailoverFigures ;;
      azure-blob) figures=AzureBlobFailoverFigures ;;
      dynamodb) figures=DynamoDbFailoverFigures ;;
      *) echo "unknown store in STORES_LIST: $store (redis, nats, azure-blob, dynamodb)" >&2; continue ;;
    esac
    rm -f "$RESULTS/store-$store.properties"
    STORE_ARGS=(-B -ntp -pl "hoplock-$store" "${BUILD_ARGS[@]}" verify -Pfailover-figures -Dtest="$figures"
                -Dsurefire.failIfNoSpecifiedTests=false -Dhoplock.failover.reps="$STORES_REPS"
                -Dhoplock.figures.window="$STORES_SECONDS")
    run_stage "stores-$store" 2400 "mvn ${STORE_ARGS[*]} -Dhoplock.figures.out=benchmarks/results/store-$store.properties" -- \
      mvn "${STORE_ARGS[@]}" -Dhoplock.figures.out="$RESULTS/store-$store.properties"
  done
fi

# ---------------------------------------------------------------- report
set_prop "$MACHINE_FILE" run_finished "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
set_prop "$MACHINE_FILE" run_seconds "$(( $(date +%s) - RUN_START ))"
say "report: docs/BENCHMARKS.md, docs/failover.png"
"${JAVA[@]}" -Dbench.docs="$ROOT/docs" dev.hoplock.bench.report.Report
grep -h '\.status=' "$STAGES_FILE" | sed 's/^/   /'
