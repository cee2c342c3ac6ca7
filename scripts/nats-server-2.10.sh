#!/usr/bin/env bash
# Fetches nats-server 2.10 from Debian 13's (trixie) package into a directory of ours, without touching the system's
# apt state or the nats-server on the PATH (Debian 12 has 2.9.10, whose clustered compare-and-swap is not atomic and
# which has no 'sync_interval: always'). Prints the path of the binary.
#
#   bin=$(scripts/nats-server-2.10.sh)      # default target: hoplock-nats/target/nats-server-2.10
#   mvn -B -ntp -pl hoplock-nats -am verify -Pnats-cluster -Dhoplock.nats.server="$bin" -Dsurefire.failIfNoSpecifiedTests=false
set -euo pipefail
dir="${1:-$(cd "$(dirname "$0")/.." && pwd)/hoplock-nats/target/nats-server-2.10}"
if [ -x "$dir/usr/sbin/nats-server" ]; then
  echo "$dir/usr/sbin/nats-server"
  exit 0
fi
apt="$dir/apt"
mkdir -p "$apt/lists/partial" "$apt/archives/partial" "$apt/etc"
echo 'deb http://deb.debian.org/debian trixie main' > "$apt/etc/sources.list"
touch "$apt/status"
opts=(-o "Dir::Etc::sourcelist=$apt/etc/sources.list" -o "Dir::Etc::sourceparts=-" -o "Dir::State::Lists=$apt/lists"
      -o "Dir::State::status=$apt/status" -o "Dir::Cache::archives=$apt/archives" -o "APT::Get::List-Cleanup=0")
apt-get "${opts[@]}" -qq update >&2
(cd "$apt" && apt-get "${opts[@]}" -qq download nats-server >&2 2>/dev/null || apt-get "${opts[@]}" download nats-server >&2)
dpkg-deb -x "$apt"/nats-server_*.deb "$dir"
"$dir/usr/sbin/nats-server" --version >&2
echo "$dir/usr/sbin/nats-server"
