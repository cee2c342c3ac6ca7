#!/usr/bin/env bash
# A single-node Ceph cluster with a RADOS Gateway on 127.0.0.1, as a second real S3 server for hoplock's tests.
#
#   scripts/ceph-rgw.sh start    installs Debian's ceph-mon ceph-osd radosgw ceph-common when missing (as root,
#                                apt-get update once), then starts one monitor, one OSD (memstore) and radosgw (beast
#                                on 127.0.0.1:$CEPH_RGW_PORT) under $CEPH_RGW_DIR, creates an S3 user and writes
#                                $CEPH_RGW_DIR/s3.env (endpoint and keys; mode 600)
#   scripts/ceph-rgw.sh stop     stops the three daemons by their recorded PIDs and removes $CEPH_RGW_DIR
#   scripts/ceph-rgw.sh status   says which daemons run, their RSS, and the endpoint
#
# Environment: CEPH_RGW_DIR (default ${TMPDIR:-/tmp}/hoplock-ceph-rgw), CEPH_RGW_PORT (default 7480),
# CEPH_MON_PORT (msgr v1 port, default 6789; msgr v2 uses CEPH_MON_PORT2, default 3300),
# CEPH_RGW_KEEP=1 keeps the directory (logs) on stop.
# No systemd: every daemon runs in the foreground (-f), in its own session, with its PID in $CEPH_RGW_DIR/pids.
# cephx is on; pool size 1; no manager daemon (none is needed for S3). See docs in README.md, "Ceph RGW".
set -euo pipefail

DIR="${CEPH_RGW_DIR:-${TMPDIR:-/tmp}/hoplock-ceph-rgw}"
RGW_PORT="${CEPH_RGW_PORT:-7480}"
MON_PORT="${CEPH_MON_PORT:-6789}"
MON_PORT2="${CEPH_MON_PORT2:-3300}"
CONF="$DIR/ceph.conf"
PIDS="$DIR/pids"
PACKAGES=(ceph-mon ceph-osd radosgw ceph-common)
DAEMONS=(radosgw osd mon)   # stop order

log() { printf 'ceph-rgw: %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }

ceph_cli() { timeout 30 ceph -c "$CONF" -n client.admin "$@"; }

install_if_missing() {
  local missing=()
  for tool in ceph-mon ceph-osd radosgw ceph ceph-authtool monmaptool radosgw-admin; do
    command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  [ "$(id -u)" -eq 0 ] || die "missing ${missing[*]}: run as root, or install them: apt-get install ${PACKAGES[*]}"
  log "installing ${PACKAGES[*]} (missing: ${missing[*]})"
  local t0=$SECONDS
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${PACKAGES[@]}" >/dev/null
  log "installed in $((SECONDS - t0)) s"
}

alive() { [ -f "$PIDS/$1.pid" ] && kill -0 "$(cat "$PIDS/$1.pid")" 2>/dev/null; }

# Starts "$@" in the foreground of its own session, in the background of this script; records its PID as $name.
spawn() {
  local name=$1; shift
  setsid "$@" </dev/null >"$DIR/log/$name.out" 2>&1 &
  echo $! >"$PIDS/$name.pid"
}

# wait_for SECONDS DESCRIPTION COMMAND...: polls COMMAND every 0.25 s until it succeeds.
wait_for() {
  local limit=$1 what=$2; shift 2
  local deadline=$((SECONDS + limit))
  until "$@" >/dev/null 2>&1; do
    [ $SECONDS -lt $deadline ] || die "no $what after $limit s; logs in $DIR/log"
    sleep 0.25
  done
}

write_conf() {
  local fsid=$1
  cat >"$CONF" <<EOF
[global]
fsid = $fsid
mon_host = [v2:127.0.0.1:$MON_PORT2,v1:127.0.0.1:$MON_PORT]
public_network = 127.0.0.0/8
ms_bind_ipv6 = false
auth_cluster_required = cephx
auth_service_required = cephx
auth_client_required = cephx
osd_pool_default_size = 1
osd_pool_default_min_size = 1
mon_allow_pool_size_one = true
mon_warn_on_pool_no_redundancy = false
osd_pool_default_pg_num = 8
osd_pool_default_pgp_num = 8
osd_pool_default_pg_autoscale_mode = off
osd_crush_chooseleaf_type = 0
run_dir = $DIR/run
admin_socket = $DIR/run/\$cluster-\$name.asok
log_file = $DIR/log/\$cluster-\$name.log
log_to_stderr = false
err_to_stderr = true

[client.admin]
keyring = $DIR/admin.keyring

[mon]
mon_data = $DIR/mon/\$cluster-\$id

[osd]
osd_data = $DIR/osd/\$cluster-\$id
keyring = $DIR/osd/\$cluster-\$id/keyring
osd_objectstore = memstore
memstore_device_bytes = 1073741824

[client.rgw.a]
keyring = $DIR/rgw.keyring
rgw_data = $DIR/rgw
rgw_frontends = beast endpoint=127.0.0.1:$RGW_PORT
EOF
}

start() {
  if alive mon || alive osd || alive radosgw; then
    die "already running under $DIR (scripts/ceph-rgw.sh status; stop first)"
  fi
  install_if_missing
  local t0=$SECONDS
  rm -rf "$DIR"
  mkdir -p "$DIR"/{run,log,mon,osd/ceph-0,rgw} "$PIDS"
  chmod 700 "$DIR"
  local fsid; fsid=$(cat /proc/sys/kernel/random/uuid)
  write_conf "$fsid"

  # Keyrings and the monitor.
  ceph-authtool --create-keyring "$DIR/mon.keyring" --gen-key -n mon. --cap mon 'allow *' >/dev/null
  ceph-authtool --create-keyring "$DIR/admin.keyring" --gen-key -n client.admin \
    --cap mon 'allow *' --cap osd 'allow *' --cap mgr 'allow *' --cap mds 'allow *' >/dev/null
  ceph-authtool "$DIR/mon.keyring" --import-keyring "$DIR/admin.keyring" >/dev/null
  monmaptool --create --fsid "$fsid" --addv a "[v2:127.0.0.1:$MON_PORT2,v1:127.0.0.1:$MON_PORT]" \
    "$DIR/monmap" >/dev/null
  ceph-mon -c "$CONF" --mkfs -i a --monmap "$DIR/monmap" --keyring "$DIR/mon.keyring" >/dev/null 2>&1 \
    || die "ceph-mon --mkfs failed"
  spawn mon ceph-mon -c "$CONF" -f -i a
  wait_for 30 "monitor quorum" ceph_cli mon stat

  # One OSD on memstore, with its own cephx secret.
  local uuid secret id
  uuid=$(cat /proc/sys/kernel/random/uuid)
  secret=$(ceph-authtool --gen-print-key)
  id=$(echo "{\"cephx_secret\": \"$secret\"}" | ceph_cli osd new "$uuid" -i -)
  [ "$id" = 0 ] || die "expected OSD id 0, got '$id'"
  ceph-authtool --create-keyring "$DIR/osd/ceph-0/keyring" --name osd.0 --add-key "$secret" >/dev/null
  ceph-osd -c "$CONF" -i 0 --mkfs --osd-uuid "$uuid" >/dev/null 2>&1 || die "ceph-osd --mkfs failed"
  spawn osd ceph-osd -c "$CONF" -f -i 0
  wait_for 60 "OSD up" sh -c "timeout 10 ceph -c '$CONF' -n client.admin osd stat | grep -q '1 up'"

  # The gateway and an S3 user with random keys.
  ceph_cli auth get-or-create client.rgw.a mon 'allow rw' osd 'allow rwx' -o "$DIR/rgw.keyring"
  spawn radosgw radosgw -c "$CONF" -f -n client.rgw.a
  wait_for 90 "radosgw answering on 127.0.0.1:$RGW_PORT" \
    bash -c "exec 3<>/dev/tcp/127.0.0.1/$RGW_PORT && printf 'GET / HTTP/1.0\r\n\r\n' >&3 && head -c 12 <&3 | grep -q HTTP"
  local access secret_key
  access=$(od -An -N10 -tx1 /dev/urandom | tr -d ' \n' | tr a-f A-F)
  secret_key=$(od -An -N20 -tx1 /dev/urandom | tr -d ' \n')
  timeout 60 radosgw-admin -c "$CONF" -n client.admin user create --uid hoplock --display-name hoplock \
    --access-key "$access" --secret "$secret_key" >/dev/null || die "radosgw-admin user create failed"
  umask 077
  cat >"$DIR/s3.env" <<EOF
CEPH_RGW_ENDPOINT=http://127.0.0.1:$RGW_PORT
CEPH_RGW_ACCESS_KEY=$access
CEPH_RGW_SECRET_KEY=$secret_key
EOF
  log "started in $((SECONDS - t0)) s: S3 at http://127.0.0.1:$RGW_PORT, keys in $DIR/s3.env"
  rss
}

rss() {
  for name in mon osd radosgw; do
    if alive "$name"; then
      log "$name pid $(cat "$PIDS/$name.pid") RSS $(awk '/VmRSS/ {print int($2/1024) " MB"}' \
        "/proc/$(cat "$PIDS/$name.pid")/status")"
    fi
  done
}

stop() {
  for name in "${DAEMONS[@]}"; do
    [ -f "$PIDS/$name.pid" ] || continue
    local pid; pid=$(cat "$PIDS/$name.pid")
    if kill -0 "$pid" 2>/dev/null; then
      kill -TERM "$pid"
      local deadline=$((SECONDS + 15))
      while kill -0 "$pid" 2>/dev/null && [ $SECONDS -lt $deadline ]; do sleep 0.2; done
      kill -0 "$pid" 2>/dev/null && { log "$name (pid $pid) did not stop; killing it"; kill -KILL "$pid"; }
    fi
    rm -f "$PIDS/$name.pid"
  done
  if [ "${CEPH_RGW_KEEP:-0}" = 1 ]; then
    log "stopped; logs kept in $DIR/log"
  else
    rm -rf "$DIR"
    log "stopped and removed $DIR"
  fi
}

status() {
  local up=0
  for name in mon osd radosgw; do
    if alive "$name"; then up=$((up + 1)); else log "$name not running"; fi
  done
  rss
  [ -f "$DIR/s3.env" ] && log "S3 at http://127.0.0.1:$RGW_PORT (keys in $DIR/s3.env)"
  [ $up -eq 3 ]
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
