#!/usr/bin/env bash
# The chaos run against the real S3 test server (not part of CI): three or more elector JVMs over S3Mock 5.2.0,
# a fencing log, a fault-injecting TCP proxy, kill -9, SIGSTOP/SIGCONT and server restarts. See docs/RELIABILITY.md.
#
# Needs hoplock-core, hoplock-s3 and hoplock-jdbc installed in the local Maven repository (mvn -o install
# -pl hoplock-core,hoplock-s3,hoplock-jdbc -am -DskipTests), and S3Mock's jar there too (the hoplock-s3 build fetches
# it). Builds this module alone, offline.
#
# Usage: chaos/run.sh [ttlMs=5000] [pollMs=250] [nodes=3] [kills=8] [stops=5] [restarts=2] [workGapMs=50] [out=DIR]
#        chaos/run.sh brokenSlot=n1 ...   negative control: n1's leader work ignores isLeader(); the run must FAIL
#        chaos/run.sh sink=postgresql ... the fenced database run: leader work writes to a table on the local
#        chaos/run.sh sink=mariadb ...    PostgreSQL (postgres@127.0.0.1:5432/test) or MariaDB (root@127.0.0.1:3306/test),
#                                         each write a transaction with the JdbcFence check before its insert
#        chaos/run.sh sink=postgresql fenced=false ...  negative control: no fence check; the run must FAIL
# Exit status 0 when there were no overlaps, no stale appends accepted (with a database: no stale write accepted and
# no legitimate write refused) and every scenario found a leader in time.
set -euo pipefail
cd "$(dirname "$0")"
mvn -q -f pom.xml package -DskipTests
CP="target/classes:$(cat target/classpath.txt)"
exec java -Xmx256m -cp "$CP" dev.hoplock.chaos.ChaosRun s3mockJar=target/s3mock/s3mock-5.2.0-exec.jar "$@"
