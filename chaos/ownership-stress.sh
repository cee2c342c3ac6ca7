#!/usr/bin/env bash
# The ownership starvation run (issue 19): members of one ownership group, each its own JVM, over S3Mock 5.2.0, a
# private PostgreSQL server or an OpenSearch node (its own process), while CPU hogs keep both cores busy the way a busy
# host does (busy loops, a javac loop that keeps starting JVMs and collecting garbage, fsync-heavy dd) and a chaos loop
# pauses members (SIGSTOP/SIGCONT 0.1 to 2 s, like GC pauses), stops one past the TTL, kills one (kill -9), stops one
# (SIGTERM), starts new ones (a restarted id, or a scale-out of 2 to 4 new ids) and slows the store (single pauses of
# all its processes, and a burst of short ones while new members join). On S3 another client downloads a large object
# slowly throughout the chaos phase (chaos/slow_reader.py), holding the thread that streams S3Mock's GET bodies, so
# every other GET's body is streamed late, after the PUTs served meanwhile: a registry GET that a join's PUT overtakes
# is answered torn, the fault behind issue 19's split. Every member appends each 100 ms interval of acting ownership
# (key, token, start, end, owner) to a sink in the run's directory; after each run every interval is checked: no two
# intervals of one key by different processes overlap, the token rises at every change of owner (and never falls for
# one owner), and no epoch was announced (MembershipChanged) with two different member sets (SPLIT-EPOCH: a member
# adopted a view the store never held). docs/RELIABILITY.md ("The starvation run") says what each fault stands for and
# gives the figures with their commands.
#
# Usage: chaos/ownership-stress.sh [runs=20] [store=s3|postgres|opensearch|all] [seconds=60] [ttl=3000]
#          [s3-body-threads=1] [slow-readers=N] [slow-hold=LO-HI] [hogs=on|off] [tree=DIR] [m2=DIR] [out=DIR]
#          [keep=failed|all] [seed=N]
#   runs             runs per store (a bare number as first argument works too)
#   store            the store the members use; all: the runs on each store in turn (s3, postgres, opensearch)
#   seconds          length of one run: start, about 45 s of chaos, stop (20 runs of 60 s take about 25 minutes)
#   ttl              the members' TTL in ms (polls at TTL/10)
#   s3-body-threads  S3Mock's threads that stream GET bodies (spring.task.execution.pool.core-size of its Spring Boot
#                    application task executor; S3Mock's own default is 8)
#   slow-readers     S3 only: how many slow downloads run at once (default: s3-body-threads, which holds all of them;
#                    0: no such fault)
#   slow-hold        how long each slow download holds its thread, a range in ms (default TTL/15 to TTL/5: 200-600 at
#                    TTL 3 s; another GET's body then waits up to about two holds, within the members' read budget of
#                    a third of the TTL)
#   hogs             off: no CPU hogs (to compare)
#   tree             the hoplock checkout whose members run (default: the one this script is in), e.g. the code
#                    before the fix: git worktree add --detach /tmp/prefix 3d762da; then tree=/tmp/prefix (store=s3
#                    runs the tree's own OwnershipProcessMain, which every tree since issue 19 was filed has; postgres
#                    and opensearch need JdbcOwnershipMemberMain / SearchOwnershipMemberMain)
#   m2               the local Maven repository (default: -Dmaven.repo.local from MAVEN_OPTS, else ~/.m2/repository)
#   out              where run directories go (default /tmp/hoplock-ownership-stress-<time>)
#   keep             failed (default): passing runs' directories are deleted; all: every run's is kept
# Examples: chaos/ownership-stress.sh runs=20 store=all m2=/work/m2/me
#           MAVEN_OPTS=-Dmaven.repo.local=/work/m2/me chaos/ownership-stress.sh runs=10 tree=/tmp/prefix
# Builds the members' test classes in TREE offline (mvn -o test-compile, nothing installed), runs S3Mock from the
# local Maven repository (the hoplock-s3 build fetches it), PostgreSQL from the Debian binaries
# (/usr/lib/postgresql/*/bin: initdb into the run directory, trust on 127.0.0.1, a free port; as root it runs as the
# user postgres) and the OpenSearch node from hoplock-elasticsearch's test class path. Only 127.0.0.1. Every loop is
# bounded in count and time; hogs, members, slow readers and stores are stopped on exit (trap), by their own ids.
# Prints one line per run (a failed run's directory and first violations), one per store and one at the end; exit
# status 0 when every run passed. Run directories hold each member's sink, stdout (.out: MEMBERS lines) and log
# (.err, with times), events.txt (what the chaos loop did, with times), slow-readers.log and violations.txt.
set -uo pipefail

SCRIPT_DIR="$(cd "$(dirname "$0")" && pwd)"
RUNS=20 SECONDS_PER_RUN=60 TREE="$(cd "$SCRIPT_DIR/.." && pwd)" HOGS=on OUT="" SEED=$$ TTL_MS=3000 STORE=s3
SLOW_READERS="" S3_BODY_THREADS=1 SLOW_HOLD="" M2="" KEEP=failed
for arg in "$@"; do
  case "$arg" in
    [0-9]*) RUNS="$arg" ;;
    runs=*) RUNS="${arg#runs=}" ;;
    store=*) STORE="${arg#store=}" ;;
    seconds=*) SECONDS_PER_RUN="${arg#seconds=}" ;;
    tree=*) TREE="$(cd "${arg#tree=}" && pwd)" || exit 2 ;;
    hogs=*) HOGS="${arg#hogs=}" ;;
    out=*) OUT="${arg#out=}" ;;
    seed=*) SEED="${arg#seed=}" ;;
    ttl=*) TTL_MS="${arg#ttl=}" ;;
    slow-readers=*) SLOW_READERS="${arg#slow-readers=}" ;;
    s3-body-threads=*) S3_BODY_THREADS="${arg#s3-body-threads=}" ;;
    slow-hold=*) SLOW_HOLD="${arg#slow-hold=}" ;;
    m2=*) M2="${arg#m2=}" ;;
    keep=*) KEEP="${arg#keep=}" ;;
    *) echo "ownership-stress: unknown argument '$arg' (see the usage at the top of $0)" >&2; exit 2 ;;
  esac
done
fail() { echo "ownership-stress: $*" >&2; exit 2; }
[[ "$RUNS" =~ ^[0-9]+$ && "$RUNS" -ge 1 && "$RUNS" -le 500 ]] || fail "runs must be 1..500"
[[ "$SECONDS_PER_RUN" =~ ^[0-9]+$ && "$SECONDS_PER_RUN" -ge 30 && "$SECONDS_PER_RUN" -le 600 ]] \
  || fail "seconds must be 30..600"
[[ "$TTL_MS" =~ ^[0-9]+$ && "$TTL_MS" -ge 1000 && "$TTL_MS" -le 30000 ]] || fail "ttl must be 1000..30000 ms"
[[ "$S3_BODY_THREADS" =~ ^[0-9]+$ && "$S3_BODY_THREADS" -ge 1 && "$S3_BODY_THREADS" -le 64 ]] \
  || fail "s3-body-threads must be 1..64"
SLOW_READERS="${SLOW_READERS:-$S3_BODY_THREADS}"
[[ "$SLOW_READERS" =~ ^[0-9]+$ && "$SLOW_READERS" -le 64 ]] || fail "slow-readers must be 0..64"
SLOW_HOLD="${SLOW_HOLD:-$(( TTL_MS / 15 ))-$(( TTL_MS / 5 ))}"
[[ "$SLOW_HOLD" =~ ^[0-9]+-[0-9]+$ ]] || fail "slow-hold must be a range in ms, like 200-600"
[[ "$HOGS" == on || "$HOGS" == off ]] || fail "hogs must be on or off"
[[ "$KEEP" == failed || "$KEEP" == all ]] || fail "keep must be failed or all"
case "$STORE" in
  s3|postgres|opensearch) STORES=("$STORE") ;;
  all) STORES=(s3 postgres opensearch) ;;
  *) fail "store must be s3, postgres, opensearch or all" ;;
esac
if [[ -z "$M2" ]]; then
  if [[ "${MAVEN_OPTS:-}" =~ -Dmaven\.repo\.local=([^[:space:]]+) ]]; then M2="${BASH_REMATCH[1]}"
  else M2="$HOME/.m2/repository"; fi
fi
[[ -d "$M2" ]] || fail "no local Maven repository at $M2 (m2=DIR)"
M2="$(cd "$M2" && pwd)"
RANDOM=$SEED
OUT="${OUT:-/tmp/hoplock-ownership-stress-$(date +%Y%m%d-%H%M%S)}"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
KEYS=12

# ---------------------------------------------------------------- what runs where, per store
module_of() { case "$1" in s3) echo hoplock-s3 ;; postgres) echo hoplock-jdbc ;; opensearch) echo hoplock-elasticsearch ;; esac; }
main_of() {
  case "$1" in
    s3) echo dev.hoplock.s3.ownership.OwnershipProcessMain ;;
    postgres) echo dev.hoplock.jdbc.JdbcOwnershipMemberMain ;;
    opensearch) echo dev.hoplock.elasticsearch.SearchOwnershipMemberMain ;;
  esac
}
MODULES=()
for s in "${STORES[@]}"; do
  m="$(module_of "$s")" main="$(main_of "$s")"
  [[ -f "$TREE/$m/src/test/java/${main//.//}.java" ]] \
    || fail "the tree $TREE has no ${main##*.} (store=$s needs it; store=s3 runs on any tree since issue 19)"
  MODULES+=("$m")
done

# ---------------------------------------------------------------- processes we started (and only those)
STORE_PID="" SLOW_PID="" HOG_PGIDS=() MEMBER_PIDS=() PAUSER_PIDS=() PG_DATA=""
stop_members() {
  for pid in "${MEMBER_PIDS[@]}"; do kill -CONT "$pid" 2>/dev/null; kill -9 "$pid" 2>/dev/null; done
  MEMBER_PIDS=()
}
cleanup() {
  for pid in "${PAUSER_PIDS[@]}"; do kill "$pid" 2>/dev/null; done
  [[ -n "$SLOW_PID" ]] && kill "$SLOW_PID" 2>/dev/null
  for pgid in "${HOG_PGIDS[@]}"; do kill -- "-$pgid" 2>/dev/null; done
  stop_members
  store_stop
  HOG_PGIDS=() PAUSER_PIDS=() SLOW_PID=""
}
trap 'cleanup; exit 130' INT TERM
trap cleanup EXIT

# ---------------------------------------------------------------- build (offline, no install)
MVN=(mvn -B -ntp -q -o "-Dmaven.repo.local=$M2")
MODULE_LIST="$(IFS=,; echo "${MODULES[*]}")"
echo "ownership-stress: building the test classes of $MODULE_LIST in $TREE (offline, local repository $M2)"
(cd "$TREE" && "${MVN[@]}" -pl "$MODULE_LIST" -am test-compile dependency:build-classpath \
    -Dmdep.outputFile=target/stress-classpath.txt -Dmdep.includeScope=test) >"$OUT/build.log" 2>&1 \
  || fail "build failed, see $OUT/build.log"
classpath_of() { # the module's own classes and the tree's, never a hoplock snapshot from the local repository
  local m="$1" deps
  deps="$(tr ':' '\n' <"$TREE/$m/target/stress-classpath.txt" | grep -v "^$TREE/" | grep -v "^$M2/dev/hoplock/" \
    | paste -sd: -)"
  echo "$TREE/$m/target/test-classes:$TREE/$m/target/classes:$TREE/hoplock-core/target/classes:$TREE/hoplock-test/target/classes:$deps"
}
JAVA_OPTS=(-Xmx96m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xshare:auto -Dorg.slf4j.simpleLogger.showDateTime=true
  -Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS)
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
ms_sleep() { sleep "$(printf '%d.%03d' $(( $1 / 1000 )) $(( $1 % 1000 )))"; }

# ---------------------------------------------------------------- stores: start, per-run preparation, pause, stop
# store_start sets STORE_PID (the process paused for slow answers) and STORE_ENDPOINT; store_args prints the member
# arguments before its own for run $1; store_pids prints every process of the store (PostgreSQL: the postmaster and
# its children, each in a session of its own).
S3_BUCKET=hoplock-stress PG_BIN="" PG_PORT="" RUN_AS_PG=() STORE_NOW="" STORE_ENDPOINT=""
store_start() {
  local dir="$OUT/$STORE_NOW"
  mkdir -p "$dir"
  case "$STORE_NOW" in
    s3)
      local jar="$M2/com/adobe/testing/s3mock/5.2.0/s3mock-5.2.0-exec.jar" port
      [[ -f "$jar" ]] || fail "no S3Mock jar at $jar (build hoplock-s3 once with this local repository to fetch it)"
      port="$(free_port)"
      setsid java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xmx128m -jar "$jar" --server.address=127.0.0.1 \
        --server.port="$port" --server.ssl.enabled=false --server.tomcat.threads.max=1 --http.port=0 \
        --spring.task.execution.pool.core-size="$S3_BODY_THREADS" \
        --com.adobe.testing.s3mock.store.root="$dir/store" \
        --com.adobe.testing.s3mock.store.initial-buckets="$S3_BUCKET" \
        --com.adobe.testing.s3mock.store.retain-files-on-exit=false >"$dir/s3mock.log" 2>&1 &
      STORE_PID=$!
      STORE_ENDPOINT="http://127.0.0.1:$port"
      for _ in $(seq 1 120); do
        curl -s -o /dev/null -m 2 "$STORE_ENDPOINT/" && return 0
        kill -0 "$STORE_PID" 2>/dev/null || fail "S3Mock exited, see $dir/s3mock.log"
        sleep 1
      done
      fail "S3Mock not up in 120 s, see $dir/s3mock.log" ;;
    postgres)
      PG_BIN="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
      [[ -x "$PG_BIN/initdb" ]] || fail "no PostgreSQL binaries under /usr/lib/postgresql/*/bin"
      RUN_AS_PG=()
      if (( EUID == 0 )); then RUN_AS_PG=(runuser -u postgres --); install -d -o postgres "$dir/pg"; else mkdir -p "$dir/pg"; fi
      PG_DATA="$dir/pg/data" PG_PORT="$(free_port)"
      "${RUN_AS_PG[@]}" "$PG_BIN/initdb" -D "$PG_DATA" -U postgres -A trust -N -E UTF8 >"$dir/initdb.log" 2>&1 \
        || fail "initdb failed, see $dir/initdb.log"
      "${RUN_AS_PG[@]}" "$PG_BIN/pg_ctl" -D "$PG_DATA" -l "$dir/pg/postgresql.log" -w -t 120 \
        -o "-p $PG_PORT -k $dir/pg -c listen_addresses=127.0.0.1 -c max_connections=200" start >"$dir/pg_ctl.log" 2>&1 \
        || fail "PostgreSQL did not start, see $dir/pg/postgresql.log"
      STORE_PID="$(head -1 "$PG_DATA/postmaster.pid")"
      STORE_ENDPOINT="jdbc:postgresql://127.0.0.1:$PG_PORT/postgres" ;;
    opensearch)
      rm -f "$dir/endpoint"
      setsid java -Xmx384m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC \
        -Dlog4j.provider=org.apache.logging.log4j.core.impl.Log4jProvider -Dhoplock.test.dir="$dir" \
        -cp "$(classpath_of hoplock-elasticsearch)" dev.hoplock.elasticsearch.node.OpenSearchNodeMain "$dir/endpoint" \
        >"$dir/opensearch.log" 2>&1 &
      STORE_PID=$!
      for _ in $(seq 1 180); do
        [[ -s "$dir/endpoint" ]] && { STORE_ENDPOINT="$(cat "$dir/endpoint")"; return 0; }
        kill -0 "$STORE_PID" 2>/dev/null || fail "the OpenSearch node exited, see $dir/opensearch.log"
        sleep 1
      done
      fail "the OpenSearch node not up in 180 s, see $dir/opensearch.log" ;;
  esac
}
store_pids() {
  [[ -n "$STORE_PID" ]] || return 0
  echo "$STORE_PID"
  [[ "$STORE_NOW" == postgres ]] && pgrep -P "$STORE_PID"
  return 0
}
store_signal() { local pid; for pid in $(store_pids); do kill "-$1" "$pid" 2>/dev/null; done; }
store_args() { # $1 = run number
  case "$STORE_NOW" in
    s3) echo "$STORE_ENDPOINT $S3_BUCKET t/stress-$SEED-$1/" ;;
    postgres) echo "$STORE_ENDPOINT postgres hoplock_stress_$1" ;;
    opensearch) echo "$STORE_ENDPOINT hoplock-stress-$SEED-$1" ;;
  esac
}
store_prepare_run() { # $1 = run number; PostgreSQL: the run's table from the tree's shipped DDL
  [[ "$STORE_NOW" == postgres ]] || return 0
  sed "s/hoplock_lease/hoplock_stress_$1/g" "$TREE/hoplock-jdbc/src/main/resources/META-INF/hoplock/jdbc/schema-postgresql.sql" \
    | psql -q -h 127.0.0.1 -p "$PG_PORT" -U postgres -d postgres -v ON_ERROR_STOP=1 >"$RUN_DIR/ddl.log" 2>&1 \
    || fail "cannot create the table hoplock_stress_$1, see $RUN_DIR/ddl.log"
}
store_stop() {
  [[ -n "$STORE_PID" ]] || return 0
  store_signal CONT
  case "$STORE_NOW" in
    postgres) "${RUN_AS_PG[@]}" "$PG_BIN/pg_ctl" -D "$PG_DATA" -m immediate -w -t 30 stop >/dev/null 2>&1 ;;
    *) kill "$STORE_PID" 2>/dev/null
       for _ in $(seq 1 30); do kill -0 "$STORE_PID" 2>/dev/null || break; sleep 1; done
       kill -9 "$STORE_PID" 2>/dev/null; wait "$STORE_PID" 2>/dev/null ;;
  esac
  STORE_PID=""
}

# ---------------------------------------------------------------- CPU hogs, bounded by time
start_hogs() { # $1 = seconds
  local until=$(( $(date +%s) + $1 )) scratch="$OUT/hog-scratch"
  mkdir -p "$scratch"
  for _ in 1 2; do
    setsid bash -c "while (( \$(date +%s) < $until )); do for i in {1..20000}; do :; done; done" >/dev/null 2>&1 &
    HOG_PGIDS+=($!)
  done
  # Starting JVMs, JIT and GC, disk writes: javac of hoplock-core's sources, again and again.
  { echo "-cp"; echo "$HOG_CP"; find "$TREE/hoplock-core/src/main/java" -name '*.java'; } >"$scratch/javac.args"
  setsid bash -c "while (( \$(date +%s) < $until )); do rm -rf '$scratch/javac'; mkdir -p '$scratch/javac'; \
    timeout --foreground \$(( $until - \$(date +%s) + 1 )) javac -J-Xmx256m -J-XX:+UseSerialGC -nowarn -proc:none \
    -d '$scratch/javac' @'$scratch/javac.args'; done" >/dev/null 2>&1 &
  HOG_PGIDS+=($!)
  # fsync-heavy writes: every 64 KiB block synced.
  setsid bash -c "while (( \$(date +%s) < $until )); do dd if=/dev/zero of='$scratch/dd.bin' bs=64k count=64 \
    oflag=dsync 2>/dev/null; rm -f '$scratch/dd.bin'; done" >/dev/null 2>&1 &
  HOG_PGIDS+=($!)
}
stop_hogs() {
  for pgid in "${HOG_PGIDS[@]}"; do kill -- "-$pgid" 2>/dev/null; done
  for pgid in "${HOG_PGIDS[@]}"; do wait "$pgid" 2>/dev/null; done
  HOG_PGIDS=()
}

# ---------------------------------------------------------------- members
declare -A PID_OF=() INCARNATION=()
LIVE=()        # owners currently running
NEXT_ID=3      # m-a, m-b, m-c first; new ids m-d, m-e, ... sort after every earlier one
ID_LETTERS=(a b c d e f g h i j k l m n o p q r s t u v w x y z)
start_member() { # $1 = member id; starts the next incarnation of it
  local id="$1" n=$(( ${INCARNATION[$1]:-0} + 1 ))
  INCARNATION[$id]=$n
  local owner="$id#$n"
  # shellcheck disable=SC2046 # the store's arguments are words without spaces
  setsid java "${JAVA_OPTS[@]}" -cp "$MEMBER_CP" "$MEMBER_MAIN" $(store_args "$run") "$id" "$owner" "$TTL_MS" \
    "$RUN_DIR" "$KEYS" >"$RUN_DIR/$owner.out" 2>"$RUN_DIR/$owner.err" &
  PID_OF[$owner]=$!
  MEMBER_PIDS+=($!)
  disown "$!"   # no "Killed" line from the shell when the chaos loop kills it
  LIVE+=("$owner")
  event "start:$owner"
}
event() { EVENTS+=("$1@$(date +%T.%3N)"); }   # what the chaos loop did, with the wall clock's time
drop_live() { local keep=() o; for o in "${LIVE[@]}"; do [[ "$o" != "$1" ]] && keep+=("$o"); done; LIVE=("${keep[@]}"); }
random_live() { echo "${LIVE[$(( RANDOM % ${#LIVE[@]} ))]}"; }
pause() { # $1 = pid, $2 = ms: SIGSTOP, then SIGCONT, in the background
  ( kill -STOP "$1" 2>/dev/null; ms_sleep "$2"; kill -CONT "$1" 2>/dev/null ) &
  PAUSER_PIDS+=($!)
}
store_pause() { # $1 = ms: every process of the store stopped, then continued, in the background
  ( store_signal STOP; ms_sleep "$1"; store_signal CONT ) &
  PAUSER_PIDS+=($!)
}
slow_store_burst() { # slow store answers while members join: once one of them ($@) leads its member lease (its join
  # write follows at once), 15 short pauses of the store (80-150 ms stopped, 80-200 ms running); bounded to 20 s of
  # waiting
  local errs=() o; for o in "$@"; do errs+=("$RUN_DIR/$o.err"); done
  ( for _ in $(seq 1 200); do grep -qs " leads '" "${errs[@]}" && break; sleep 0.1; done
    for _ in $(seq 1 15); do
      store_signal STOP; ms_sleep $(( 80 + RANDOM % 71 )); store_signal CONT
      ms_sleep $(( 80 + RANDOM % 121 ))
    done ) &
  PAUSER_PIDS+=($!)
  event "store-burst:"
}
slow_readers() { # S3: other clients' slow downloads in pulses, from now until the members are stopped (so every join
  # after the first three meets them: a member's JVM takes 5 to 30 s to start and join on a starved host)
  [[ "$STORE_NOW" == s3 ]] && (( SLOW_READERS > 0 )) || return 0
  local seconds=$(( run_start + SECONDS_PER_RUN - 5 - $(date +%s) ))
  (( seconds > 0 )) || return 0
  python3 "$SCRIPT_DIR/slow_reader.py" "$STORE_ENDPOINT" "$S3_BUCKET" readers="$SLOW_READERS" hold="$SLOW_HOLD" \
    seconds="$seconds" trace=on >>"$RUN_DIR/slow-readers.log" 2>&1 &
  SLOW_PID=$!
  event "slow-readers:${seconds}s"
}
new_id() { NEW_OWNER="m-${ID_LETTERS[$NEXT_ID]}"; NEXT_ID=$(( NEXT_ID + 1 )); }
join_new() { # 2 to 4 members with new ids at once (a scale-out), which sort after every earlier one: each join
  # appends the registry's last line
  local n=$(( 2 + RANDOM % 3 )) owners=() i
  for i in $(seq 1 "$n"); do
    (( NEXT_ID < ${#ID_LETTERS[@]} && ${#LIVE[@]} < 8 )) || break
    new_id; start_member "$NEW_OWNER"; owners+=("$NEW_OWNER#${INCARNATION[$NEW_OWNER]}")
  done
  (( ${#owners[@]} > 0 )) && slow_store_burst "${owners[@]}"
}
replacement() { # after a departure: the same id again (a rescheduled process, 1 in 4) or new ids
  if (( RANDOM % 4 == 0 || NEXT_ID >= ${#ID_LETTERS[@]} )); then start_member "${1%#*}"; else join_new; fi
}

# ---------------------------------------------------------------- the checker
check_run() { # prints "intervals owners changes overlaps falls" and writes violations to $RUN_DIR/violations.txt
  cat "$RUN_DIR"/*.sink 2>/dev/null | awk 'NF == 5' | sort -k1,1 -k3,3n -k4,4n | awk -v out="$RUN_DIR/violations.txt" '
    {
      key = $1; tok = $2 + 0; s = $3 + 0; e = $4 + 0; o = $5; n++; owners[o] = 1
      split(seen[key], list, " ")
      for (i in list) {
        other = list[i]
        if (other != o && maxend[key, other] > s) {
          overlaps++
          if (overlaps <= 20) printf "OVERLAP %s: %s token %d [%d,%d] starts before %s ended at %d (its token %d)\n", key, o, tok, s, e, other, maxend[key, other], maxtok[key, other] >> out
        }
      }
      if (key in lastOwner) {
        if (lastOwner[key] != o) {
          changes++
          if (tok <= lastTok[key]) { falls++; if (falls <= 20) printf "TOKEN %s: %s token %d at %d after %s token %d\n", key, o, tok, s, lastOwner[key], lastTok[key] >> out }
        } else if (tok < lastTok[key]) { falls++; if (falls <= 20) printf "TOKEN %s: %s token fell from %d to %d at %d\n", key, o, lastTok[key], tok, s >> out }
      }
      if (!((key, o) in maxend)) seen[key] = seen[key] " " o
      if (e > maxend[key, o]) { maxend[key, o] = e; maxtok[key, o] = tok }
      lastOwner[key] = o; lastTok[key] = tok
    }
    END { c = 0; for (x in owners) c++; printf "%d %d %d %d %d\n", n, c, changes, overlaps, falls }'
}
check_epochs() { # prints how many epochs were announced with two member sets, and writes each as a SPLIT-EPOCH line
  cat "$RUN_DIR"/*.out 2>/dev/null | awk -v out="$RUN_DIR/violations.txt" '
    $1 == "type=MEMBERS" {
      owner = $2; sub("owner=", "", owner); epoch = $3; sub("epoch=", "", epoch)
      members = $4; for (i = 5; i <= NF; i++) members = members " " $i
      sub("members=", "", members)
      if (!((epoch, members) in seen)) { seen[epoch, members] = owner; sets[epoch] = sets[epoch] "; " owner " saw " members; n[epoch]++ }
    }
    END {
      c = 0
      for (e in n) if (n[e] > 1) { c++; printf "SPLIT-EPOCH %s:%s\n", e, substr(sets[e], 2) >> out }
      print c
    }'
}

# ---------------------------------------------------------------- the runs
ALL_FAILED=0 START_ALL=$(date +%s) SUMMARIES=()
HOG_CP="$(tr ':' '\n' <"$TREE/${MODULES[0]}/target/stress-classpath.txt" | grep -v "^$TREE/" | paste -sd: -)"
for STORE_NOW in "${STORES[@]}"; do
  MEMBER_MAIN="$(main_of "$STORE_NOW")" MEMBER_CP="$(classpath_of "$(module_of "$STORE_NOW")")"
  store_start
  echo "ownership-stress: $STORE_NOW at $STORE_ENDPOINT (pid $STORE_PID); $RUNS runs of ${SECONDS_PER_RUN} s, ttl $TTL_MS ms," \
    "hogs $HOGS, slow readers $([[ "$STORE_NOW" == s3 ]] && echo "$SLOW_READERS x $SLOW_HOLD ms on $S3_BODY_THREADS body threads" || echo none), seed $SEED, out $OUT"
  FAILED=0 TOTAL_INTERVALS=0 TOTAL_OVERLAPS=0 TOTAL_FALLS=0 TOTAL_TORN=0 TOTAL_DIVERGENT=0 TOTAL_UNREADABLE=0
  START_STORE=$(date +%s)
  for run in $(seq 1 "$RUNS"); do
    RUN_DIR="$OUT/$STORE_NOW/run-$run"; mkdir -p "$RUN_DIR"
    store_prepare_run "$run"
    PID_OF=() INCARNATION=() LIVE=() EVENTS=() MEMBER_PIDS=() PAUSER_PIDS=() NEXT_ID=3
    run_start=$(date +%s)
    chaos_end=$(( run_start + SECONDS_PER_RUN - 12 ))
    [[ "$HOGS" == on ]] && start_hogs "$SECONDS_PER_RUN"
    start_member m-a; start_member m-b; start_member m-c
    sleep 10
    slow_readers
    for _ in $(seq 1 40); do          # at most 40 events, and none after chaos_end
      (( $(date +%s) >= chaos_end )) && break
      ms_sleep $(( 1000 + RANDOM % 2000 ))
      (( ${#LIVE[@]} == 0 )) && { start_member "m-a"; continue; }
      victim="$(random_live)"; pid="${PID_OF[$victim]}"
      roll=$(( RANDOM % 12 ))
      if (( roll < 3 )); then ms=$(( 100 + RANDOM % 1901 )); pause "$pid" "$ms"; event "pause:$victim:${ms}ms"
      elif (( roll < 4 )); then ms=$(( TTL_MS + 1000 + RANDOM % 2000 )); pause "$pid" "$ms"; event "stop-past-ttl:$victim:${ms}ms"
      elif (( roll < 5 )) && (( ${#LIVE[@]} >= 2 )); then
        kill -9 "$pid" 2>/dev/null; drop_live "$victim"; event "kill9:$victim"; replacement "$victim"
      elif (( roll < 7 )) && (( ${#LIVE[@]} >= 2 )); then
        kill -CONT "$pid" 2>/dev/null; kill -TERM "$pid" 2>/dev/null; drop_live "$victim"; event "term:$victim"
        replacement "$victim"
      elif (( roll < 10 )) && (( ${#LIVE[@]} < 7 )) && (( NEXT_ID < ${#ID_LETTERS[@]} )); then
        join_new
      else
        ms=$(( 200 + RANDOM % 801 )); store_pause "$ms"; event "store-pause:${ms}ms"
      fi
    done
    while (( $(date +%s) < run_start + SECONDS_PER_RUN - 5 )); do sleep 1; done
    for p in "${PAUSER_PIDS[@]}"; do wait "$p" 2>/dev/null; done
    PAUSER_PIDS=()
    if [[ -n "$SLOW_PID" ]]; then kill "$SLOW_PID" 2>/dev/null; wait "$SLOW_PID" 2>/dev/null; SLOW_PID=""; fi
    store_signal CONT
    for pid in "${MEMBER_PIDS[@]}"; do kill -CONT "$pid" 2>/dev/null; kill -TERM "$pid" 2>/dev/null; done
    for _ in $(seq 1 20); do
      alive=0; for pid in "${MEMBER_PIDS[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
      (( alive == 0 )) && break; sleep 1
    done
    for pid in "${MEMBER_PIDS[@]}"; do kill -9 "$pid" 2>/dev/null; { wait "$pid"; } 2>/dev/null; done
    MEMBER_PIDS=()
    stop_hogs
    printf '%s\n' "${EVENTS[@]}" >"$RUN_DIR/events.txt"
    read -r intervals owners changes overlaps falls < <(check_run)
    divergent="$(check_epochs)"
    torn=$(cat "$RUN_DIR"/*.err 2>/dev/null | grep -c "answered torn")
    # On code without the registry's end line a torn read cut mid-line shows as an unreadable registry instead.
    unreadable=$(cat "$RUN_DIR"/*.err 2>/dev/null | grep -c "registry .* cannot be read")
    count() { printf '%s\n' "${EVENTS[@]}" | grep -c "^$1:"; }
    slow_busy=$(grep -ho '[0-9]*% of the time' "$RUN_DIR/slow-readers.log" 2>/dev/null | tail -1 | cut -d% -f1)
    verdict=PASS
    (( overlaps > 0 || falls > 0 || divergent > 0 )) && verdict=FAIL
    (( intervals == 0 )) && verdict="FAIL(no work)"
    [[ "$verdict" != PASS ]] && FAILED=$(( FAILED + 1 ))
    TOTAL_INTERVALS=$(( TOTAL_INTERVALS + intervals )) TOTAL_OVERLAPS=$(( TOTAL_OVERLAPS + overlaps ))
    TOTAL_FALLS=$(( TOTAL_FALLS + falls )) TOTAL_TORN=$(( TOTAL_TORN + torn )) TOTAL_DIVERGENT=$(( TOTAL_DIVERGENT + divergent ))
    TOTAL_UNREADABLE=$(( TOTAL_UNREADABLE + unreadable ))
    echo "$STORE_NOW run $run/$RUNS: $verdict intervals=$intervals owners=$owners changes=$changes overlaps=$overlaps" \
      "token-falls=$falls divergent-epochs=$divergent torn-reads-refused=$torn unreadable-reads=$unreadable" \
      "events: starts=$(count start) pauses=$(count pause) stops-past-ttl=$(count stop-past-ttl) kill9=$(count kill9)" \
      "term=$(count term) store-pauses=$(count store-pause) store-bursts=$(count store-burst)" \
      "slow-readers=$(count slow-readers)${slow_busy:+ (busy ${slow_busy}% of the time)} ($(( $(date +%s) - run_start )) s)"
    if [[ "$verdict" == PASS ]]; then [[ "$KEEP" == all ]] || rm -rf "$RUN_DIR"; else echo "  kept $RUN_DIR:"; head -4 "$RUN_DIR/violations.txt" 2>/dev/null | sed 's/^/  /'; fi
  done
  store_stop
  SUMMARIES+=("$STORE_NOW: $RUNS runs, $FAILED failed; $TOTAL_INTERVALS intervals, $TOTAL_OVERLAPS overlapping,"\
" $TOTAL_FALLS token falls, $TOTAL_DIVERGENT epochs seen with two member sets, $TOTAL_TORN torn registry reads refused,"\
" $TOTAL_UNREADABLE unreadable; $(( $(date +%s) - START_STORE )) s")
  echo "ownership-stress: ${SUMMARIES[-1]}"
  ALL_FAILED=$(( ALL_FAILED + FAILED ))
done
echo "ownership-stress: done in $(( $(date +%s) - START_ALL )) s; tree $TREE ($(git -C "$TREE" rev-parse --short HEAD 2>/dev/null || echo 'not a git checkout')); out $OUT"
for s in "${SUMMARIES[@]}"; do echo "  $s"; done
(( ALL_FAILED == 0 ))
