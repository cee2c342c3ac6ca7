#!/usr/bin/env bash
# Builds the demo (the first build downloads dependencies and takes a few minutes) and starts N instances
# (default 3) of samples/ownership-demo in this terminal, members of one ownership group over the filesystem store
# ./.hoplock-ownership-demo. Each instance processes only its own tenants and logs which tenants it gained and lost
# at every membership change. Kill one with the kill line printed below (kill: graceful, its tenants move within
# about 2 s; kill -9: a crash, they move after about 8 to 15 s) and start it again with the printed command;
# Ctrl-C stops all of them.
#
#   bash samples/ownership-demo/demo.sh [N]
set -euo pipefail
cd "$(dirname "$0")/../.."
instances="${1:-3}"

echo "building the demo (mvn package -DskipTests of the modules it needs)..."
mvn -q -B -ntp package -DskipTests -pl samples/ownership-demo -am
jar="$(ls samples/ownership-demo/target/ownership-demo-*.jar | grep -v '\.original$' | head -n 1)"

pids=()
stop_all() {
  trap - INT TERM EXIT
  if [ "${#pids[@]}" -gt 0 ]; then
    kill "${pids[@]}" 2>/dev/null || true
    wait "${pids[@]}" 2>/dev/null || true
  fi
}
trap stop_all INT TERM EXIT

start() {
  local i="$1"
  MEMBER_ID="instance-$i" java -jar "$jar" --spring.main.banner-mode=off --logging.level.root=WARN \
    --logging.level.dev.hoplock.samples=INFO > >(sed -u "s/^/[instance $i] /") 2>&1 &
  pids+=("$!")
  echo "[instance $i] pid $! (kill $! to stop it, kill -9 $! to crash it)"
}

for i in $(seq 1 "$instances"); do
  start "$i"
done
echo "all ${instances} instances started; Ctrl-C stops them. To start another one in a second terminal:"
echo "  MEMBER_ID=instance-$((instances + 1)) java -jar $jar --logging.level.root=WARN --logging.level.dev.hoplock.samples=INFO"
wait
