#!/usr/bin/env bash
# The chaos run against the real S3 test server (not part of CI): three or more node JVMs over S3Mock 5.2.0 running
# one primitive (an elector, named locks, or members of an ownership group), fenced writes to a log or a database,
# a fault-injecting TCP proxy, kill -9, SIGSTOP/SIGCONT and server restarts. See docs/RELIABILITY.md.
#
# Builds this module and the modules it depends on (hoplock-core, hoplock-s3, hoplock-jdbc) from this checkout's
# reactor, offline, with nothing installed into the local Maven repository: mvn -o -pl chaos -am package -DskipTests.
# The dependencies (and S3Mock's jar) must already be in the local repository (any earlier build of hoplock-s3 fetched
# them). CHAOS_SKIP_BUILD=1 skips the build (for a series of runs after one build).
#
# Usage: chaos/run.sh [ttlMs=5000] [pollMs=250] [nodes=3] [kills=8] [stops=5] [restarts=2] [workGapMs=50] [out=DIR]
#          [s3StartSeconds=180] [s3RestartSeconds=180] [proxyConnectMs=10000]  patience with a loaded machine: how long
#                                         S3Mock's start and restarts may take, how long the proxy waits for it to accept
#        chaos/run.sh primitive=lock [resources=3] [holdMs=3000] ...  named locks: every node contends for the same
#                                         lock names; a holder writes with the lock's token to resource lock/<name>,
#                                         keeps the lock alive, releases it after holdMs and takes it again later
#        chaos/run.sh primitive=ownership [resources=6] [holdMs=3000] ...  each node a member of one ownership group;
#                                         it works on the keys it owns through claim(), writing with the key's token
#                                         to resource key/<key>
#        chaos/run.sh brokenSlot=n1 ...   negative control: n1's work ignores isLeader() / isHeld() / isValid() and
#                                         refusals; the run must FAIL
#        chaos/run.sh sink=postgresql ... the fenced database run: the work writes to a table on the local
#        chaos/run.sh sink=mariadb ...    PostgreSQL (postgres@127.0.0.1:5432/test) or MariaDB (root@127.0.0.1:3306/test),
#                                         each write a transaction with the JdbcFence check (token and holder) before
#                                         its insert
#        chaos/run.sh sink=postgresql fenced=false ...  negative control: no fence check; the run must FAIL
# Exit status 2 (RESULT: INCOMPLETE, the report naming what happened) when S3Mock did not come back within
# s3RestartSeconds of a restart: the remaining scenarios are skipped, what ran is still checked.
# Exit status 0 when, per resource (the elector's one, each lock name, each key), there were no overlaps, no stale
# appends accepted (with a database: no stale write accepted, no legitimate write refused, the token rising at every
# change of holder) and every scenario found a leader / holder / owner in time.
set -euo pipefail
cd "$(dirname "$0")/.."
[[ "${CHAOS_SKIP_BUILD:-}" == 1 ]] || mvn -o -q -pl chaos -am package -DskipTests
CP="chaos/target/classes:$(cat chaos/target/classpath.txt)"
exec java -Xmx256m -cp "$CP" dev.hoplock.chaos.ChaosRun s3mockJar=chaos/target/s3mock/s3mock-5.2.0-exec.jar \
    out="chaos/target/chaos/$(date +%Y%m%d-%H%M%S)" "$@"
