#!/usr/bin/env bash
# The ownership starvation run (issue 19): OwnershipProcessesTest-style members (OwnershipProcessMain, one JVM each)
# of one ownership group over S3Mock 5.2.0, while CPU hogs keep both cores busy the way a busy host does (busy loops,
# a javac loop that keeps starting JVMs and collecting garbage, fsync-heavy dd), and a chaos loop pauses members
# (SIGSTOP/SIGCONT 0.1 to 2 s, like GC pauses), stops one past the TTL, kills one (kill -9), stops one (SIGTERM),
# starts new ones (a restarted id or a new id that sorts last, whose join appends the registry's last line) and pauses
# the store (slow answers: single pauses, and a burst of short ones while a new member joins). Every member
# appends each 100 ms interval of acting ownership (key, token, start, end, owner) to a sink in the run's directory;
# after each run every interval is checked: no two intervals of one key by different processes overlap, and the
# token rises at every change of owner (and never falls for one owner); and no epoch was reported (MembershipChanged)
# with two different member sets by different members (one of them acted under a view the store never held).
#
# Usage: chaos/ownership-stress.sh [runs=20] [seconds=60] [tree=DIR] [hogs=on|off] [out=DIR] [seed=N] [ttl=MS]
#   runs     number of runs (a bare number as first argument works too)
#   seconds  length of one run's chaos phase plus start and stop (about a minute: 20 runs fit in ~25 minutes)
#   tree     the hoplock checkout to build and run (default: the one this script is in), e.g. an export of main
#   hogs     off: no CPU hogs (to compare)
#   ttl      the members' TTL in ms (default 3000, as OwnershipProcessesTest; polls at TTL/10: a shorter TTL means more
#            registry reads, so more reads racing a join)
#   out      where run directories go (default /tmp/hoplock-ownership-stress-<time>); passing runs are deleted
# Builds hoplock-s3's test classes in TREE offline (mvn -o test-compile, no install), and runs S3Mock from the local
# Maven repository (the hoplock-s3 build fetches it). Only 127.0.0.1. Every loop is bounded in count and time; the
# hogs, members and S3Mock are stopped on exit (trap), by their own process ids.
# Prints one summary line per run and one at the end; exit status 0 when every run passed.
set -uo pipefail

RUNS=20 SECONDS_PER_RUN=60 TREE="$(cd "$(dirname "$0")/.." && pwd)" HOGS=on OUT="" SEED=$$ TTL_MS=3000
for arg in "$@"; do
  case "$arg" in
    [0-9]*) RUNS="$arg" ;;
    runs=*) RUNS="${arg#runs=}" ;;
    seconds=*) SECONDS_PER_RUN="${arg#seconds=}" ;;
    tree=*) TREE="$(cd "${arg#tree=}" && pwd)" ;;
    hogs=*) HOGS="${arg#hogs=}" ;;
    out=*) OUT="${arg#out=}" ;;
    seed=*) SEED="${arg#seed=}" ;;
    ttl=*) TTL_MS="${arg#ttl=}" ;;
    *) echo "ownership-stress: unknown argument '$arg' (see the usage at the top of $0)" >&2; exit 2 ;;
  esac
done
[[ "$RUNS" =~ ^[0-9]+$ && "$RUNS" -ge 1 && "$RUNS" -le 500 ]] || { echo "ownership-stress: runs must be 1..500" >&2; exit 2; }
[[ "$SECONDS_PER_RUN" =~ ^[0-9]+$ && "$SECONDS_PER_RUN" -ge 30 && "$SECONDS_PER_RUN" -le 600 ]] \
  || { echo "ownership-stress: seconds must be 30..600" >&2; exit 2; }
RANDOM=$SEED
OUT="${OUT:-/tmp/hoplock-ownership-stress-$(date +%Y%m%d-%H%M%S)}"
mkdir -p "$OUT"
[[ "$TTL_MS" =~ ^[0-9]+$ && "$TTL_MS" -ge 1000 && "$TTL_MS" -le 30000 ]] || { echo "ownership-stress: ttl must be 1000..30000 ms" >&2; exit 2; }
KEYS=12 BUCKET=hoplock-stress
S3MOCK_JAR="${S3MOCK_JAR:-$HOME/.m2/repository/com/adobe/testing/s3mock/5.2.0/s3mock-5.2.0-exec.jar}"
[[ -f "$S3MOCK_JAR" ]] || { echo "ownership-stress: no S3Mock jar at $S3MOCK_JAR (build hoplock-s3 once to fetch it)" >&2; exit 2; }

# ---------------------------------------------------------------- processes we started (and only those)
S3MOCK_PID="" HOG_PGIDS=() MEMBER_PIDS=() PAUSER_PIDS=()
cleanup() {
  for pid in "${PAUSER_PIDS[@]}"; do kill "$pid" 2>/dev/null; done
  for pgid in "${HOG_PGIDS[@]}"; do kill -- "-$pgid" 2>/dev/null; done
  for pid in "${MEMBER_PIDS[@]}"; do kill -CONT "$pid" 2>/dev/null; kill -9 "$pid" 2>/dev/null; done
  if [[ -n "$S3MOCK_PID" ]]; then kill -CONT "$S3MOCK_PID" 2>/dev/null; kill "$S3MOCK_PID" 2>/dev/null; fi
  HOG_PGIDS=() MEMBER_PIDS=() PAUSER_PIDS=()
}
trap 'cleanup; exit 130' INT TERM
trap cleanup EXIT

# ---------------------------------------------------------------- build (offline, no install)
echo "ownership-stress: building hoplock-s3 test classes in $TREE (offline)"
(cd "$TREE" && mvn -B -ntp -q -o -pl hoplock-s3 -am test-compile dependency:build-classpath \
    -Dmdep.outputFile=target/stress-classpath.txt -Dmdep.includeScope=test) >"$OUT/build.log" 2>&1 \
  || { echo "ownership-stress: build failed, see $OUT/build.log" >&2; exit 2; }
# The tree's own classes, never a hoplock snapshot from the shared local repository.
DEPS="$(tr ':' '\n' <"$TREE/hoplock-s3/target/stress-classpath.txt" | grep -v '/dev/hoplock/' | grep -v '/hoplock-' | paste -sd: -)"
CP="$TREE/hoplock-s3/target/test-classes:$TREE/hoplock-s3/target/classes:$TREE/hoplock-core/target/classes"
CP="$CP:$TREE/hoplock-test/target/classes:$DEPS"
JAVA_OPTS=(-Xmx96m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xshare:auto)

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# ---------------------------------------------------------------- S3Mock, once for all runs (each run its own prefix)
PORT="$(free_port)"
mkdir -p "$OUT/s3mock-store"
setsid java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xmx128m -jar "$S3MOCK_JAR" --server.address=127.0.0.1 \
  --server.port="$PORT" --server.ssl.enabled=false --server.tomcat.threads.max=1 --http.port=0 \
  --com.adobe.testing.s3mock.store.root="$OUT/s3mock-store" \
  --com.adobe.testing.s3mock.store.initial-buckets="$BUCKET" \
  --com.adobe.testing.s3mock.store.retain-files-on-exit=false >"$OUT/s3mock.log" 2>&1 &
S3MOCK_PID=$!
ENDPOINT="http://127.0.0.1:$PORT"
for _ in $(seq 1 90); do
  curl -s -o /dev/null -m 2 "$ENDPOINT/" && break
  kill -0 "$S3MOCK_PID" 2>/dev/null || { echo "ownership-stress: S3Mock exited, see $OUT/s3mock.log" >&2; exit 2; }
  sleep 1
done
curl -s -o /dev/null -m 2 "$ENDPOINT/" || { echo "ownership-stress: S3Mock not up in 90 s" >&2; exit 2; }
echo "ownership-stress: S3Mock at $ENDPOINT (pid $S3MOCK_PID); $RUNS runs of ${SECONDS_PER_RUN} s, ttl $TTL_MS ms, hogs $HOGS, seed $SEED, out $OUT"

# ---------------------------------------------------------------- CPU hogs, bounded by time
start_hogs() { # $1 = seconds
  local until=$(( $(date +%s) + $1 )) scratch="$OUT/hog-scratch"
  mkdir -p "$scratch"
  for _ in 1 2; do
    setsid bash -c "while (( \$(date +%s) < $until )); do for i in {1..20000}; do :; done; done" >/dev/null 2>&1 &
    HOG_PGIDS+=($!)
  done
  # Starting JVMs, JIT and GC, disk writes: javac of hoplock-core's sources, again and again.
  { echo "-cp"; echo "$DEPS"; find "$TREE/hoplock-core/src/main/java" -name '*.java'; } >"$scratch/javac.args"
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
  setsid java "${JAVA_OPTS[@]}" -cp "$CP" dev.hoplock.s3.ownership.OwnershipProcessMain "$ENDPOINT" "$BUCKET" \
    "$PREFIX" "$id" "$owner" "$TTL_MS" "$RUN_DIR" "$KEYS" >"$RUN_DIR/$owner.out" 2>"$RUN_DIR/$owner.err" &
  PID_OF[$owner]=$!
  MEMBER_PIDS+=($!)
  LIVE+=("$owner")
  EVENTS+=("start:$owner")
}
drop_live() { local keep=() o; for o in "${LIVE[@]}"; do [[ "$o" != "$1" ]] && keep+=("$o"); done; LIVE=("${keep[@]}"); }
random_live() { echo "${LIVE[$(( RANDOM % ${#LIVE[@]} ))]}"; }
ms_sleep() { sleep "$(printf '%d.%03d' $(( $1 / 1000 )) $(( $1 % 1000 )))"; }
pause() { # $1 = pid, $2 = ms: SIGSTOP, then SIGCONT, in the background
  ( kill -STOP "$1" 2>/dev/null; ms_sleep "$2"; kill -CONT "$1" 2>/dev/null ) &
  PAUSER_PIDS+=($!)
}
slow_store_burst() { # slow store answers while members join: once one of them ($@) leads its member lease (its join
  # write follows at once), 15 short pauses of S3Mock (80-150 ms stopped, 80-200 ms running); bounded to 20 s of waiting
  local errs=() o; for o in "$@"; do errs+=("$RUN_DIR/$o.err"); done
  ( for _ in $(seq 1 200); do grep -qs " leads '" "${errs[@]}" && break; sleep 0.1; done
    for _ in $(seq 1 15); do
      kill -STOP "$S3MOCK_PID" 2>/dev/null; ms_sleep $(( 80 + RANDOM % 71 )); kill -CONT "$S3MOCK_PID" 2>/dev/null
      ms_sleep $(( 80 + RANDOM % 121 ))
    done ) &
  PAUSER_PIDS+=($!)
  EVENTS+=("store-burst:")
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

# ---------------------------------------------------------------- the runs
FAILED=0 TOTAL_INTERVALS=0 TOTAL_OVERLAPS=0 TOTAL_FALLS=0 TOTAL_TORN=0 TOTAL_DIVERGENT=0
START_ALL=$(date +%s)
for run in $(seq 1 "$RUNS"); do
  RUN_DIR="$OUT/run-$run"; mkdir -p "$RUN_DIR"
  PREFIX="t/stress-$SEED-$run/"
  PID_OF=() INCARNATION=() LIVE=() EVENTS=() MEMBER_PIDS=() PAUSER_PIDS=() NEXT_ID=3
  run_start=$(date +%s)
  chaos_end=$(( run_start + SECONDS_PER_RUN - 12 ))
  [[ "$HOGS" == on ]] && start_hogs "$SECONDS_PER_RUN"
  start_member m-a; start_member m-b; start_member m-c
  sleep 10
  for _ in $(seq 1 40); do          # at most 40 events, and none after chaos_end
    (( $(date +%s) >= chaos_end )) && break
    ms_sleep $(( 1000 + RANDOM % 2000 ))
    (( ${#LIVE[@]} == 0 )) && { start_member "m-a"; continue; }
    victim="$(random_live)"; pid="${PID_OF[$victim]}"
    roll=$(( RANDOM % 12 ))
    if (( roll < 3 )); then ms=$(( 100 + RANDOM % 1901 )); pause "$pid" "$ms"; EVENTS+=("pause:$victim:${ms}ms")
    elif (( roll < 4 )); then ms=$(( TTL_MS + 1000 + RANDOM % 2000 )); pause "$pid" "$ms"; EVENTS+=("stop-past-ttl:$victim:${ms}ms")
    elif (( roll < 5 )) && (( ${#LIVE[@]} >= 2 )); then
      kill -9 "$pid" 2>/dev/null; drop_live "$victim"; EVENTS+=("kill9:$victim"); replacement "$victim"
    elif (( roll < 7 )) && (( ${#LIVE[@]} >= 2 )); then
      kill -CONT "$pid" 2>/dev/null; kill -TERM "$pid" 2>/dev/null; drop_live "$victim"; EVENTS+=("term:$victim")
      replacement "$victim"
    elif (( roll < 10 )) && (( ${#LIVE[@]} < 7 )) && (( NEXT_ID < ${#ID_LETTERS[@]} )); then
      join_new
    else
      ms=$(( 200 + RANDOM % 801 )); pause "$S3MOCK_PID" "$ms"; EVENTS+=("store-pause:${ms}ms")
    fi
  done
  while (( $(date +%s) < run_start + SECONDS_PER_RUN - 5 )); do sleep 1; done
  for p in "${PAUSER_PIDS[@]}"; do wait "$p" 2>/dev/null; done
  PAUSER_PIDS=()
  kill -CONT "$S3MOCK_PID" 2>/dev/null
  for pid in "${MEMBER_PIDS[@]}"; do kill -CONT "$pid" 2>/dev/null; kill -TERM "$pid" 2>/dev/null; done
  for _ in $(seq 1 20); do
    alive=0; for pid in "${MEMBER_PIDS[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    (( alive == 0 )) && break; sleep 1
  done
  for pid in "${MEMBER_PIDS[@]}"; do kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; done
  MEMBER_PIDS=()
  stop_hogs
  printf '%s\n' "${EVENTS[@]}" >"$RUN_DIR/events.txt"
  read -r intervals owners changes overlaps falls < <(check_run)
  torn=$(cat "$RUN_DIR"/*.err 2>/dev/null | grep -c "answered torn")
  # On code without the registry's end line a torn read cut mid-line shows as an unreadable registry instead.
  unreadable=$(cat "$RUN_DIR"/*.err 2>/dev/null | grep -c "registry .* cannot be read")
  # Two members that adopted different member sets at one epoch: one of them acts under a view the store never held.
  divergent=$(cat "$RUN_DIR"/*.out 2>/dev/null | awk '$1 == "type=MEMBERS" { sub("epoch=", "", $3); v = $3 " " $4
      if (!(v in seen)) { seen[v] = 1; n[$3]++ } } END { c = 0; for (e in n) if (n[e] > 1) c++; print c }')
  (( divergent > 0 )) && grep -h "type=MEMBERS" "$RUN_DIR"/*.out | sort -t= -k4,4n | awk '{ print "VIEW " $0 }' >>"$RUN_DIR/violations.txt"
  count() { printf '%s\n' "${EVENTS[@]}" | grep -c "^$1:"; }
  verdict=PASS
  (( overlaps > 0 || falls > 0 || divergent > 0 )) && verdict=FAIL
  (( intervals == 0 )) && verdict="FAIL(no work)"
  [[ "$verdict" != PASS ]] && FAILED=$(( FAILED + 1 ))
  TOTAL_INTERVALS=$(( TOTAL_INTERVALS + intervals )) TOTAL_OVERLAPS=$(( TOTAL_OVERLAPS + overlaps ))
  TOTAL_FALLS=$(( TOTAL_FALLS + falls )) TOTAL_TORN=$(( TOTAL_TORN + torn )) TOTAL_DIVERGENT=$(( TOTAL_DIVERGENT + divergent ))
  echo "run $run/$RUNS: $verdict intervals=$intervals owners=$owners changes=$changes overlaps=$overlaps token-falls=$falls" \
    "divergent-epochs=$divergent torn-reads-refused=$torn unreadable-reads=$unreadable events: starts=$(count start) pauses=$(count pause) stops-past-ttl=$(count stop-past-ttl)" \
    "kill9=$(count kill9) term=$(count term) store-pauses=$(count store-pause) store-bursts=$(count store-burst)" \
    "($(( $(date +%s) - run_start )) s)"
  if [[ "$verdict" == PASS ]]; then rm -rf "$RUN_DIR"; else echo "  kept $RUN_DIR:"; head -3 "$RUN_DIR/violations.txt" 2>/dev/null | sed 's/^/  /'; fi
done
echo "ownership-stress: $RUNS runs over S3Mock, $FAILED failed; $TOTAL_INTERVALS intervals, $TOTAL_OVERLAPS overlapping," \
  "$TOTAL_FALLS token falls, $TOTAL_DIVERGENT epochs seen with two member sets, $TOTAL_TORN torn registry reads refused; $(( $(date +%s) - START_ALL )) s; tree $TREE; out $OUT"
(( FAILED == 0 ))
