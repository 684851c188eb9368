#!/usr/bin/env bash
# CI check of scripts/slurm/h2dbench.sbatch on a real Slurm cluster on localhost: installs
# slurm-wlm and munge (Debian), writes a minimal slurm.conf with two nodes served by two slurmd
# on this host (distinct ports), starts munged, slurmctld and the slurmd, submits two host
# families with `sbatch --wait`, checks each node's report and the compare output, then a one-node
# job compared against a --baseline, and stops every daemon it started.
# Needs root (packages, daemons). Set H2D_SLURM_KEEP=1 to keep the work folder for a look.
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "$0")/../common.sh"
cd "$h2d_root"

if [ "$(id -u)" -ne 0 ]; then
  if [ -n "${CI:-}" ]; then
    echo "slurm.sh: needs root to install Slurm and start its daemons" >&2
    exit 1
  fi
  echo "slurm.sh: skipped: needs root to install Slurm and start its daemons"
  exit 0
fi

log() { echo "slurm.sh: $*"; }
fail() {
  echo "slurm.sh: FAILED: $*" >&2
  exit 1
}

# --- Packages and the executable -------------------------------------------------------------
h2d_install_packages slurm-wlm munge
h2d_find_nvcc
preset=$(h2d_preset)
h2d_build "$preset" --target h2dbench >/dev/null
h2dbench=$h2d_root/build/$preset/h2dbench

# --- A throw-away cluster --------------------------------------------------------------------
work=$(mktemp -d /tmp/h2d-slurm.XXXXXX)
chmod 755 "$work"
started_munged=0
stop_all() {
  local pid_file
  for pid_file in "$work"/slurmd-*.pid "$work"/slurmctld.pid; do
    if [ -f "$pid_file" ]; then
      kill "$(cat "$pid_file")" 2>/dev/null || true
    fi
  done
  if [ "$started_munged" -eq 1 ]; then
    munged --stop >/dev/null 2>&1 || true
  fi
  if [ -z "${H2D_SLURM_KEEP:-}" ]; then
    rm -rf "$work"
  else
    log "kept $work"
  fi
}
show_logs() {
  local file
  for file in "$work"/*.log "$work"/*.out; do
    [ -f "$file" ] || continue
    echo "----- $file (last 30 lines)" >&2
    tail -n 30 "$file" >&2
  done
}
on_exit() {
  local status=$?
  [ "$status" -eq 0 ] || show_logs
  stop_all
  exit "$status"
}
trap on_exit EXIT

# munge: reuse a running munged, else start one (its key comes with the package).
if munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
  log "using the munged already running"
else
  if [ ! -s /etc/munge/munge.key ]; then
    mungekey --create >/dev/null 2>&1 || dd if=/dev/urandom of=/etc/munge/munge.key bs=1 count=1024 status=none
    chown munge:munge /etc/munge/munge.key
    chmod 400 /etc/munge/munge.key
  fi
  install -d -o munge -g munge -m 755 /run/munge
  install -d -o munge -g munge -m 700 /var/log/munge /var/lib/munge
  runuser -u munge -- /usr/sbin/munged
  started_munged=1
  for _ in $(seq 20); do
    munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && break
    sleep 0.5
  done
  munge -n | unmunge >/dev/null || fail "munged did not start"
fi

host=$(hostname -s)
mkdir -p "$work/state" "$work/spool"
export SLURM_CONF=$work/slurm.conf
cat >"$SLURM_CONF" <<EOF
# Minimal Slurm for CI: one host, two nodes (two slurmd on distinct ports), everything as root.
ClusterName=h2dci
SlurmctldHost=$host
SlurmctldPort=16817
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool/%n
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd-%n.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
NodeName=h2d-a NodeHostname=$host NodeAddr=127.0.0.1 Port=17001 CPUs=1 RealMemory=1000 State=UNKNOWN
NodeName=h2d-b NodeHostname=$host NodeAddr=127.0.0.1 Port=17002 CPUs=1 RealMemory=1000 State=UNKNOWN
PartitionName=ci Nodes=ALL Default=YES MaxTime=30 State=UP
EOF
slurmctld -c -f "$SLURM_CONF" || fail "slurmctld did not start"
for node in h2d-a h2d-b; do
  slurmd -f "$SLURM_CONF" -N "$node" || fail "slurmd for $node did not start"
done
idle=0
for _ in $(seq 60); do
  idle=$(sinfo -h -N -t idle -o %N 2>/dev/null | sort -u | wc -l)
  [ "$idle" -ge 2 ] && break
  sleep 1
done
[ "$idle" -ge 2 ] || fail "the two nodes did not become idle: $(sinfo -N 2>&1)"
log "cluster up: $(sinfo -h -N -o '%N %T' | tr '\n' ' ')"

# --- Job 1: both nodes, compare over them ----------------------------------------------------
# Two host families, not the whole host suite: what is checked here is Slurm's side (one report a
# node, then compare), and each node's whole suite ran 40 s with the other node on the same cores.
reports=$work/reports
timeout 600 sbatch --wait -N 2 --time=10 --output="$work/job1.out" \
  scripts/slurm/h2dbench.sbatch --h2dbench "$h2dbench" --out-dir "$reports" \
  -- --preset quick --filter '^host/(memcpy|first_touch)/' >/dev/null || fail "job 1 failed (exit $?)"
cat "$work/job1.out"
for node in h2d-a h2d-b; do
  [ -s "$reports/$node.json" ] || fail "no report from $node"
  "$h2dbench" summary "$reports/$node.json" >/dev/null || fail "$node's report does not read back"
done
grep -q "h2dbench compare: 2 reports, A is the baseline" "$work/job1.out" || fail "no compare header"
grep -q "^report .*h2d-a.json .*h2d-b.json" "$work/job1.out" || fail "compare does not list both nodes"
grep -q "^host/memcpy (GB/s, higher is better)" "$work/job1.out" || fail "no host/memcpy section"
grep -q "^geomean" "$work/job1.out" || fail "no geometric mean"
[ -s "$reports/compare.txt" ] || fail "compare output not saved"

# --- Job 2: one node against a baseline report, as Markdown ----------------------------------
timeout 600 sbatch --wait -N 1 --time=10 --output="$work/job2.out" \
  scripts/slurm/h2dbench.sbatch --h2dbench "$h2dbench" --out-dir "$work/reports2" \
  --baseline "$reports/h2d-a.json" --format markdown \
  -- --preset quick --filter host/memcpy >/dev/null || fail "job 2 failed (exit $?)"
cat "$work/job2.out"
grep -q "^## h2dbench compare (A is the baseline)" "$work/job2.out" || fail "job 2: no compare"
grep -q "^- host/first_touch: .* only in A" "$work/job2.out" ||
  fail "job 2: host/first_touch, which B did not run, is not said once as only in A"
[ -s "$work/reports2/compare.md" ] || fail "job 2: compare output not saved"
log "ok: two nodes ran host families and were compared; a --baseline comparison worked"
