#!/usr/bin/env bash
# Builds the demo (the first build downloads dependencies and takes a few minutes) and starts N instances
# (default 3) of samples/leader-demo in this terminal, electing over the filesystem store ./.hoplock-demo.
# Only the leader logs its heartbeat. Kill the leader with the kill -9 line printed below and watch another
# instance take over after the 6 s TTL; Ctrl-C stops all of them.
#
#   bash samples/leader-demo/demo.sh [N]
set -euo pipefail
cd "$(dirname "$0")/../.."
instances="${1:-3}"

echo "building the demo (mvn install -DskipTests of the modules it needs)..."
mvn -q -B -ntp install -DskipTests -pl samples/leader-demo -am
jar="$(ls samples/leader-demo/target/leader-demo-*.jar | grep -v '\.original$' | head -n 1)"

pids=()
stop_all() {
  trap - INT TERM EXIT
  if [ "${#pids[@]}" -gt 0 ]; then
    kill "${pids[@]}" 2>/dev/null || true
    wait "${pids[@]}" 2>/dev/null || true
  fi
}
trap stop_all INT TERM EXIT

for i in $(seq 1 "$instances"); do
  java -jar "$jar" --spring.main.banner-mode=off \
    > >(sed -u "s/^/[instance $i] /") 2>&1 &
  pids+=("$!")
  echo "[instance $i] pid $! (kill -9 $! to crash it)"
done
echo "all ${instances} instances started; Ctrl-C stops them"
wait
