# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 The idlegpu authors
# A single-host Slurm 22.05 cluster (Debian 12 packages) under one temporary folder, with fake GPUs, for the slurm
# tests; sourced, not run. Based on the reference script of the design notes, whose pitfalls it keeps clear of:
# daemons started by their canonical names (as slurmctld-wlm the node's Gres are dropped), SlurmctldHost =
# `hostname -s`, fake GPUs made by mknod (slurmd drops a regular file, and jobs then get no CUDA_VISIBLE_DEVICES),
# every client command under timeout (they hang while slurmctld is down), a short cred_expire (a requeued job waits
# cred_expire + 1 s), the node's Gres never changed with scontrol. Its own munged socket and ports, so that a
# distribution's munge or slurmd (which Debian may start on install) is left alone.
#
#   cluster_init DIR NODE GPUS     the folders, the munge key, munged, the fake GPUs DIR/dev (none for 0)
#   cluster_fake_gpus DIR GPUS     DIR/nvidia0..GPUS-1, nvidiactl, nvidia-uvm
#   cluster_conf SLURM_LINES GRES_LINES   slurm.conf = the test's globals + SLURM_LINES; gres.conf = GRES_LINES
#                                  (slurmctld on CLUSTER_ADDR, default 127.0.0.1; SchedulerParameters from
#                                  CLUSTER_SCHEDULER_PARAMETERS, default sched_interval=1; per-node files by %n)
#   cluster_start                  slurmctld and slurmd; waits until the node is idle
#   cluster_stop                   cancels every job, stops the daemons and munged (for a trap)
# and the tests' own: log/pass/fail (counting failures, times since the start), wait_for SECONDS COMMAND...,
# stays SECONDS COMMAND...,
# state_of JOB, is_state JOB STATE, gpu_jobs (every running lab job's GPUs: "JOBID NODE INDEX" a line).
# Every client command goes through sl, which the lab (tests/slurm/lab.sh) redefines to run inside its namespace.
SBIN=${SBIN:-/usr/sbin}
PLUGINDIR=${PLUGINDIR:-/usr/lib/x86_64-linux-gnu/slurm-wlm}
CLUSTER_PORT=${CLUSTER_PORT:-16917}

# `timeout` around each client command: slurmctld down makes them hang.
sl() { timeout 10 "$@"; }

t0=$(date +%s%3N)
ms() { echo $(( $(date +%s%3N) - t0 )); }
log() { echo "[$(ms) ms] $*"; }
failures=0
pass() { log "PASS $*"; }
fail() { log "FAIL $*"; failures=$((failures + 1)); }

# wait_for SECONDS COMMAND...: until the command succeeds, polling every 0.1 s.
wait_for() {
    local deadline=$(( $(date +%s%3N) + $1 * 1000 )); shift
    until "$@"; do
        [ "$(date +%s%3N)" -lt "$deadline" ] || return 1
        sleep 0.1
    done
}
# stays SECONDS COMMAND...: the command holds at every poll for that long.
stays() {
    local deadline=$(( $(date +%s%3N) + $1 * 1000 )); shift
    while [ "$(date +%s%3N)" -lt "$deadline" ]; do "$@" || return 1; sleep 0.2; done
}
state_of() { sl squeue -h -j "$1" -o %T 2>/dev/null; }
is_state() { [ "$(state_of "$1")" = "$2" ]; }
# The GRES index is the GPU's position in the node's gres.conf; a job on two GPUs gives two lines.
gpu_jobs() {
    sl scontrol show job -d --oneliner | awk '/JobState=RUNNING/ && /Partition=scavenger/ {
        id = ""; node = ""
        for (i = 1; i <= NF; i++) {
            if ($i ~ /^JobId=/) id = substr($i, 7)
            else if ($i ~ /^Nodes=/) node = substr($i, 7)
            else if ($i ~ /^GRES=/) {
                gres = $i
                while (match(gres, /IDX:[0-9]+/)) { print id, node, substr(gres, RSTART + 4, RLENGTH - 4); gres = substr(gres, RSTART + RLENGTH) }
            }
        }
    }'
}

cluster_have_packages() {
    local missing=()
    for f in "$SBIN/slurmctld" "$SBIN/slurmd" "$SBIN/munged" "$SBIN/mungekey" /usr/bin/sbatch /usr/bin/salloc \
             "$PLUGINDIR/select_cons_tres.so"; do
        [ -e "$f" ] || missing+=("$f")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "missing: ${missing[*]} (apt-get install slurmctld slurmd slurm-client munge)"
    return 1
}

cluster_init() {
    CLUSTER_DIR=$1 CLUSTER_NODE=$2
    local gpus=$3
    chmod 755 "$CLUSTER_DIR"
    mkdir -p "$CLUSTER_DIR"/{etc,log,spool/ctld,dev,run,out}
    install -d -m700 "$CLUSTER_DIR/munge"
    "$SBIN/mungekey" -c -k "$CLUSTER_DIR/munge/munge.key"
    "$SBIN/munged" --key-file="$CLUSTER_DIR/munge/munge.key" --socket="$CLUSTER_DIR/run/munge.sock" \
        --pid-file="$CLUSTER_DIR/run/munged.pid" --log-file="$CLUSTER_DIR/log/munged.log" \
        --seed-file="$CLUSTER_DIR/munge/seed"
    [ "$gpus" -eq 0 ] || cluster_fake_gpus "$CLUSTER_DIR/dev" "$gpus"
    export SLURM_CONF=$CLUSTER_DIR/etc/slurm.conf
}

cluster_fake_gpus() {
    mkdir -p "$1"
    for ((i = 0; i < $2; i++)); do mknod "$1/nvidia$i" c 1 3; done
    mknod "$1/nvidiactl" c 1 3 # what every CUDA process opens besides its GPU's node
    mknod "$1/nvidia-uvm" c 1 3
}

cluster_conf() {
    local B=$CLUSTER_DIR
    cat > "$B/etc/slurm.conf" <<CONF
ClusterName=idlegputest
SlurmctldHost=$(hostname -s)(${CLUSTER_ADDR:-127.0.0.1})
SlurmctldPort=$CLUSTER_PORT
SlurmdPort=$((CLUSTER_PORT + 1))
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket=$B/run/munge.sock,cred_expire=${CLUSTER_CRED_EXPIRE:-5}
PluginDir=$PLUGINDIR
StateSaveLocation=$B/spool/ctld
SlurmdSpoolDir=$B/spool/%n
SlurmctldPidFile=$B/run/slurmctld.pid
SlurmdPidFile=$B/run/slurmd.%n.pid
SlurmctldLogFile=$B/log/slurmctld.log
SlurmdLogFile=$B/log/slurmd.%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SchedulerParameters=${CLUSTER_SCHEDULER_PARAMETERS:-sched_interval=1}
$1
CONF
    printf '%s\n' "$2" > "$B/etc/gres.conf"
}

cluster_start() {
    setsid "$SBIN/slurmctld" -D -i >"$CLUSTER_DIR/log/ctld.out" 2>&1 </dev/null &
    setsid "$SBIN/slurmd" -D -N "$CLUSTER_NODE" >"$CLUSTER_DIR/log/d.out" 2>&1 </dev/null &
    for _ in $(seq 150); do
        [ "$(timeout 3 sinfo -h -n "$CLUSTER_NODE" -o %T 2>/dev/null)" = idle ] && return 0
        sleep 0.2
    done
    echo "the node did not become idle; slurmctld.log:"; tail -20 "$CLUSTER_DIR/log/slurmctld.log"
    return 1
}

cluster_stop() {
    [ -n "${CLUSTER_DIR:-}" ] || return 0
    sl scancel -u root 2>/dev/null || true
    for _ in $(seq 20); do [ -z "$(sl squeue -h 2>/dev/null)" ] && break; sleep 0.25; done
    sl scontrol shutdown 2>/dev/null || true
    local p
    for p in $(cat "$CLUSTER_DIR"/run/slurmd.*.pid "$CLUSTER_DIR/run/slurmctld.pid" 2>/dev/null); do
        for _ in $(seq 20); do kill -0 "$p" 2>/dev/null || break; sleep 0.25; done
        kill -9 "$p" 2>/dev/null || true
    done
    kill "$(cat "$CLUSTER_DIR/run/munged.pid" 2>/dev/null)" 2>/dev/null || true
}
