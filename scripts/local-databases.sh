#!/usr/bin/env bash
# Makes sure PostgreSQL (127.0.0.1:5432, trust auth, database "test") and MariaDB (127.0.0.1:3306, root without a
# password, database "test") answer, as the JDBC tests expect. Starts a stopped server with the machine's own
# commands; never installs or reconfigures anything. Exits non-zero, saying which server is missing, when one
# cannot be reached.
set -uo pipefail

answers() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

wait_for() {
  local port=$1 i
  for i in $(seq 1 60); do
    answers "$port" && return 0
    sleep 0.5   # polling a server start from a shell script; no test synchronises on this
  done
  return 1
}

ok=0
if ! answers 5432; then
  echo "PostgreSQL is not answering on 127.0.0.1:5432; starting it"
  if command -v pg_ctlcluster >/dev/null && [ -d /etc/postgresql ]; then
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n 1)" main start || true
  fi
  wait_for 5432 || { echo "PostgreSQL could not be started: the JDBC tests need it on 127.0.0.1:5432"; ok=1; }
fi
if ! answers 3306; then
  echo "MariaDB is not answering on 127.0.0.1:3306; starting it"
  if [ -x /usr/sbin/mariadbd ]; then
    start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd || true
  fi
  wait_for 3306 || { echo "MariaDB could not be started: the JDBC tests need it on 127.0.0.1:3306"; ok=1; }
fi
if [ "$ok" -eq 0 ]; then
  psql -h 127.0.0.1 -U postgres -d test -Atc 'select 1' >/dev/null 2>&1 \
    || echo "warning: PostgreSQL answers but database 'test' is not reachable as user postgres"
  mariadb -h 127.0.0.1 -u root -e 'select 1' test >/dev/null 2>&1 \
    || echo "warning: MariaDB answers but database 'test' is not reachable as root"
fi
exit "$ok"
