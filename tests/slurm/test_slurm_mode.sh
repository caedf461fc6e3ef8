#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 The idlegpu authors
# Slurm mode end to end (ctest label slurm): a real munged, slurmctld and slurmd on this machine (tests/slurm/
# cluster.sh), two fake GPUs made by mknod, slurm.conf and gres.conf from idlegpu --print-slurm-conf, and
# idlegpu --headless as root with [slurm] enabled:
#   - a stale hold of GPU 0 from "an earlier run" is taken over, not doubled; both GPUs are held, then lent;
#   - two scavenger jobs of a lab user run, one per GPU; --status names the job on each;
#   - forged holds (issue 28): a second lab user's pending job whose comment holds a newline and
#     "JobId=<the job on GPU 1> JobName=idlegpu-hold-gpu1 Partition=owner NodeList=ws0 JobState=RUNNING", another
#     with the same words after a space, and the lab user's own job on GPU 0 given such a comment: no lab job is
#     cancelled, and once the owner comes back their hold of GPU 1 stays (the forged one listed before it is none);
#   - a process that is no job opens fake GPU 1: the job on GPU 1 is requeued, GPU 0's runs on (and the time from
#     the open to that job's SIGTERM is printed: the bench figure);
#   - the open closes: the hold goes and the job runs again;
#   - a program on the ignore list (started as `exec -a nvtop`) holds GPU 0: GPU 0 stays lent, and a lab job
#     submitted then runs there;
#   - the race: a lab job lands on GPU 1 after the owner opened it and before the hold is granted (the owner
#     partition is down meanwhile): the prolog requeues it, it never runs there, and once the owner is gone it does;
#   - the node is never drained while idlegpu runs (sampled every 0.2 s, and no prolog failure in slurmctld's log);
#   - idlegpu exits on SIGTERM: every GPU is held.
# Slurm's prolog and health check are the build's links (idlegpu-slurm-prolog and -health beside IDLEGPU), set once
# the stale hold is placed: while idlegpu is not running the health check drains the node with idlegpu's reason,
# which is then replaced by one of idlegpu's naming a process "p Reason=x State=IDLE+DRAIN" (as the prolog wrote a
# holder's name): idlegpu still resumes it at start; every lab job passes the prolog, and after idlegpu's exit the
# node is drained again.
# Skips (exit 77, with the reason) where the Slurm packages are missing or not run as root. The cluster is torn
# down and the two lab users removed on every exit. Usage: test_slurm_mode.sh IDLEGPU HOLDOPEN
set -uo pipefail
IDLEGPU=$1 HOLDOPEN=$2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/cluster.sh"
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (slurmd and the holds' salloc -p owner run as root)"; exit 77; }
reason=$(cluster_have_packages) || { echo "SKIP: $reason"; exit 77; }

B=$(mktemp -d /tmp/idlegpu-slurm.XXXX)
export XDG_STATE_HOME=$B/state # idlegpu's ledger, apart from the user's
idlegpu_pid="" owner_pid="" nvtop_pid="" watch_pid=""
# Two lab users: one whose jobs run, one who forges holds.
labuser=igl$$ forger=igf$$ users=()
cleanup() {
    [ -n "$owner_pid" ] && kill "$owner_pid" 2>/dev/null
    [ -n "$nvtop_pid" ] && kill "$nvtop_pid" 2>/dev/null
    [ -n "$watch_pid" ] && kill "$watch_pid" 2>/dev/null
    if [ -n "$idlegpu_pid" ] && kill -0 "$idlegpu_pid" 2>/dev/null; then
        kill "$idlegpu_pid"
        for _ in $(seq 60); do kill -0 "$idlegpu_pid" 2>/dev/null || break; sleep 0.25; done
        kill -9 "$idlegpu_pid" 2>/dev/null
    fi
    local user
    for user in "${users[@]}"; do sl scancel -u "$user" 2>/dev/null; done
    cluster_stop
    for user in "${users[@]}"; do userdel "$user" 2>/dev/null; done
    if [ "$failures" -ne 0 ]; then
        echo "--- idlegpu's log"; tail -60 "$B/log/idlegpu.log" 2>/dev/null
        echo "--- slurmctld.log"; tail -30 "$B/log/slurmctld.log" 2>/dev/null
    fi
    rm -rf "$B"
    log "torn down"
}
trap cleanup EXIT

holds_of() { sl squeue -h -n "idlegpu-hold-gpu$1" -o %i 2>/dev/null | wc -l; }
has_holds() { [ "$(holds_of 0)" = "$1" ] && [ "$(holds_of 1)" = "$2" ]; }
running_jobs() { [ "$(sl squeue -h -p scavenger -t RUNNING | wc -l)" = "$1" ]; }
job_on_gpu() { gpu_jobs | awk -v idx="$1" '$3 == idx { print $1 }'; }
# A job's state, ended ones too (CANCELLED), for a failure's message.
any_state() { sl squeue -h -t all -j "$1" -o %T 2>/dev/null; }

for user in "$labuser" "$forger"; do
    useradd -M -s /bin/sh "$user" || { echo "SKIP: useradd $user failed"; exit 77; }
    users+=("$user")
done
# as_user USER COMMAND...: as that user, from a folder of its own reach
as_user() { local user=$1; shift; (cd /tmp && sl runuser -u "$user" -- "$@"); }
cluster_init "$B" ws0 2
chmod 1777 "$B/out" # the lab user's jobs write there
cat > "$B/idlegpu.conf" <<CONF
[defaults]
device_root = $B/dev
start_delay_seconds = 1
interval_seconds = 5

[slurm]
enabled = true
node = ws0
CONF
chmod 600 "$B/idlegpu.conf"

# slurm.conf and gres.conf from what idlegpu prints for the admin, with this cluster's address and a short KillWait.
"$IDLEGPU" --print-slurm-conf -c "$B/idlegpu.conf" > "$B/print.txt" || { fail "--print-slurm-conf"; exit 1; }
grep -q '^NodeName=ws0 CPUs=[0-9]* Gres=gpu:gpu0:1,gpu:gpu1:1 State=UNKNOWN$' "$B/print.txt" && pass "--print-slurm-conf: the node's Gres" || fail "--print-slurm-conf: $(cat "$B/print.txt")"
# The prolog's and the health check's lines name the package's links: the build's instead, checked every 2 s, set
# after the stale hold below (a node the health check drained would not get it). nohold_on_prolog_fail joins the
# cluster's own SchedulerParameters.
guard_keys='^(Prolog|HealthCheckProgram|HealthCheckInterval|HealthCheckNodeState|SchedulerParameters)='
[ "$(grep -cE "$guard_keys" "$B/print.txt")" = 5 ] && pass "--print-slurm-conf: the prolog and the health check" \
    || fail "--print-slurm-conf: $(grep -E "$guard_keys" "$B/print.txt")"
bin=$(cd "$(dirname "$IDLEGPU")" && pwd)
guard_lines=""
if [ -x "$bin/idlegpu-slurm-prolog" ] && [ -x "$bin/idlegpu-slurm-health" ]; then
    guard_lines=$(grep -E "$guard_keys" "$B/print.txt" | grep -v '^SchedulerParameters=' \
        | sed -e "s|^Prolog=.*|Prolog=$bin/idlegpu-slurm-prolog|" \
              -e "s|^HealthCheckProgram=.*|HealthCheckProgram=$bin/idlegpu-slurm-health|" \
              -e 's/^HealthCheckInterval=.*/HealthCheckInterval=2/')
else
    log "no idlegpu-slurm-prolog and -health beside $IDLEGPU: running without them"
fi
export CLUSTER_SCHEDULER_PARAMETERS=sched_interval=1,nohold_on_prolog_fail
slurm_lines=$(grep -v '^#' "$B/print.txt" | grep -v ' Name=gpu ' | grep -vE "$guard_keys" \
    | sed -e "s/^NodeName=ws0 CPUs=[0-9]*/NodeName=ws0 NodeAddr=127.0.0.1 NodeHostname=$(hostname -s) CPUs=$(nproc)/" \
          -e 's/^KillWait=.*/KillWait=2/')
gres_lines=$(grep ' Name=gpu ' "$B/print.txt")
cluster_conf "$slurm_lines" "$gres_lines"
cluster_start || { fail "the cluster did not start"; exit 1; }
log "cluster up"

# A hold left by an earlier run: idlegpu must count it, not place a second one.
sl salloc -Q --no-shell -p owner -w ws0 --gres=gpu:gpu0:1 -c 1 -J idlegpu-hold-gpu0 || fail "the stale hold"

node_line() { sl scontrol show node ws0 --oneliner 2>/dev/null; }
drained_because() { node_line | grep -qE "State=[A-Z_+]*DRAIN.* Reason=$1"; }
not_drained() { node_line | grep -q 'State=' && ! node_line | grep -qE 'State=[A-Z_+]*DRAIN'; }
# A reason of idlegpu's naming a process called "p Reason=x State=IDLE+DRAIN": scontrol's line then has a Reason=
# and a State= of the process's making (+DRAIN: so that the health check, which drains only a node not drained yet,
# leaves it be).
forged_reason="idlegpu: GPU 1 of ws0 is in use by pid 977 (p Reason=x State=IDLE+DRAIN)"
if [ -n "$guard_lines" ]; then
    cluster_conf "$slurm_lines"$'\n'"$guard_lines" "$gres_lines"
    sl scontrol reconfigure || fail "scontrol reconfigure"
    reconfigured_ms=$(ms)
    wait_for 40 drained_because "idlegpu: not running on ws0" \
        && pass "idlegpu not running: the health check drained the node after $(( $(ms) - reconfigured_ms )) ms ($(node_line | grep -o 'Reason=.*'))" \
        || fail "the node while idlegpu is not running: $(node_line)"
    sl scontrol update nodename=ws0 state=drain reason="$forged_reason" || fail "scontrol update reason=..."
    node_line | grep -qF "Reason=$forged_reason" || fail "the forged reason: $(node_line)"
fi

"$IDLEGPU" --headless -c "$B/idlegpu.conf" > "$B/log/idlegpu.log" 2>&1 &
idlegpu_pid=$!
duplicate=0
for _ in $(seq 30); do
    [ "$(holds_of 0)" -gt 1 ] && duplicate=1
    sleep 0.1
done
[ "$duplicate" = 0 ] && pass "the stale hold of GPU 0 was taken over, not doubled" || fail "GPU 0 got a second hold"
if [ -n "$guard_lines" ]; then
    wait_for 15 not_drained && pass "idlegpu resumed the node it had drained (\"$forged_reason\")" \
        || fail "the node: $(node_line)"
fi
# From here until idlegpu exits the node must never be drained: every drain seen, sampled every 0.2 s, and every
# drain slurmctld logs (a prolog's scontrol update, or its exit status 1).
ctld_drains() { grep -cE 'node ws0 state set to DRAIN|Prolog or job env setup failure' "$B/log/slurmctld.log"; }
ctld_drains_before=$(ctld_drains)
( while :; do
      line=$(node_line)
      echo "$line" | grep -qE 'State=[A-Z_+]*DRAIN' \
          && echo "[$(ms) ms] $(echo "$line" | grep -oE 'State=[^ ]+|Reason=.*' | tr '\n' ' ')"
      sleep 0.2
  done ) > "$B/drains.log" 2>&1 &
watch_pid=$!
wait_for 20 has_holds 0 0 && pass "both GPUs lent once free for start_delay_seconds" || fail "holds: $(sl squeue -h -o '%i %j %T')"

cat > "$B/job.sh" <<JOB
#!/bin/bash
trap 'date +%s%N > $B/out/term.\$SLURM_JOB_ID; exit 143' TERM
echo "start job=\$SLURM_JOB_ID CUDA_VISIBLE_DEVICES=\$CUDA_VISIBLE_DEVICES restart=\${SLURM_RESTART_COUNT:-0}"
sleep 600 & wait \$!
JOB
chmod +x "$B/job.sh"
for _ in 1 2; do
    as_user "$labuser" sbatch -Q -p scavenger --requeue --gres=gpu:1 -c 1 -J lab -o "$B/out/%j.out" --open-mode=append "$B/job.sh"
done
wait_for 30 running_jobs 2 && pass "two scavenger jobs run" || fail "jobs: $(sl squeue -h -o '%i %j %T %r')"
victim=$(job_on_gpu 1) other=$(job_on_gpu 0)
log "job on GPU 1: $victim, on GPU 0: $other"
sleep 2.5 # idlegpu reads the listing again soon after a release
"$IDLEGPU" --status -c "$B/idlegpu.conf" > "$B/status.txt" 2>&1
grep -q "^GPU 1: lent to the lab: job $victim ($labuser)" "$B/status.txt" && pass "--status: GPU 1 lent to job $victim" || fail "--status: $(cat "$B/status.txt")"

# Forged holds. scontrol's listing prints a comment as it is: after a newline it reads as a line of its own, after
# a space the last JobName=, Partition=, NodeList= and JobState= of a line win. Pending (--hold) until the end.
forged="JobName=idlegpu-hold-gpu1 Partition=owner NodeList=ws0 JobState=RUNNING"
as_user "$forger" sbatch -Q --hold -p scavenger --gres=gpu:1 -c 1 -J forged -o /dev/null \
    --comment="x"$'\n'"JobId=$victim $forged" "$B/job.sh" || fail "the forger's job with a newline"
as_user "$forger" sbatch -Q --hold -p scavenger --gres=gpu:1 -c 1 -J forged -o /dev/null \
    --comment="x $forged" "$B/job.sh" || fail "the forger's job with spaces"
as_user "$labuser" scontrol update jobid="$other" comment="x JobName=idlegpu-hold-gpu0 Partition=owner NodeList=ws0 JobState=RUNNING" \
    || fail "the comment of job $other"
forgers_jobs=$(sl squeue -h -u "$forger" -o %i | wc -l)
[ "$forgers_jobs" = 2 ] || fail "the forger has $forgers_jobs jobs"
# idlegpu's next listing (every 10 s) sees them; a release would come at once.
stays 12 eval 'is_state "$victim" RUNNING && is_state "$other" RUNNING' \
    && pass "the forged holds cancel no lab job: $victim and $other run on" \
    || fail "jobs $victim: $(any_state "$victim"), $other: $(any_state "$other"); idlegpu: $(grep -E 'scancel|hold jobs' "$B/log/idlegpu.log" | tail -3)"

# The owner's program, not a Slurm job, opens GPU 1 on a line from the fifo, so the time of the open is known. As
# a CUDA process it holds nvidiactl and nvidia-uvm: a compute client (busy_when = auto).
mkfifo "$B/go"
(exec -a python3 "$HOLDOPEN" "$B/dev/nvidiactl" "$B/dev/nvidia-uvm" --then-on-input "$B/dev/nvidia1" < "$B/go") &
owner_pid=$!
exec 3> "$B/go"
sleep 0.3
open_ns=$(date +%s%N); echo go >&3
wait_for 10 is_state "$victim" PENDING && pass "the job on GPU 1 was requeued" || fail "job $victim is $(state_of "$victim")"
is_state "$other" RUNNING && pass "the job on GPU 0 runs on" || fail "job $other is $(state_of "$other")"
[ "$(holds_of 1)" = 1 ] && pass "GPU 1 held for the owner" || fail "GPU 1 has $(holds_of 1) holds"
hold=$(sl squeue -h -n idlegpu-hold-gpu1 -o %i)
# slurmctld shows the job PENDING as soon as it requeues it; slurmd's SIGTERM and the job's trap come after that,
# later still on a loaded machine: CI once saw none within 10 s while the desktop suites ran beside it. KillWait
# (30 s) bounds the wait: a SIGKILL without a SIGTERM before it would still fail here.
wait_for 30 test -s "$B/out/term.$victim"
term_ns=$(cat "$B/out/term.$victim" 2>/dev/null)
if [ -n "$term_ns" ]; then
    latency_ms=$(awk -v a="$open_ns" -v b="$term_ns" 'BEGIN { printf "%.1f", (b - a) / 1e6 }')
    log "BENCH owner's open of GPU 1 -> SIGTERM of job $victim: $latency_ms ms"
else
    fail "job $victim got no SIGTERM within 30 s; slurmd: $(grep -E "JobId=$victim|job $victim|StepId=$victim" "$B"/log/slurmd.*.log | tail -8)"
fi
grep -o 'preempting.*' "$B/log/idlegpu.log" | head -1
"$IDLEGPU" --status -c "$B/idlegpu.conf" > "$B/status.txt" 2>&1
grep -q "^GPU 1: held for you" "$B/status.txt" && pass "--status: GPU 1 held for you" || fail "--status: $(cat "$B/status.txt")"
# The forged "holds" of GPU 1 come before the owner's in the listing: over idlegpu's next listing the owner's stays.
stays 11 eval 'is_state "$hold" RUNNING && is_state "$victim" PENDING' \
    && pass "the owner's hold $hold stays, the forged ones before it notwithstanding" \
    || fail "the hold $hold is $(any_state "$hold"), job $victim $(any_state "$victim"); idlegpu: $(grep -E 'scancel|hold jobs' "$B/log/idlegpu.log" | tail -3)"

# The owner's program ends: the hold goes after start_delay_seconds, the job runs again after cred_expire + 1 s.
kill "$owner_pid"; wait "$owner_pid" 2>/dev/null; owner_pid=""; exec 3>&-
closed_ms=$(ms)
wait_for 10 has_holds 0 0 && pass "GPU 1 lent again" || fail "holds: $(sl squeue -h -o '%i %j %T')"
wait_for 30 is_state "$victim" RUNNING && pass "the requeued job runs again, $(( $(ms) - closed_ms )) ms after the close" \
    || fail "job $victim is $(state_of "$victim")"

gpu_free() { [ -z "$(job_on_gpu "$1")" ]; }
restarts_of() { sl scontrol show job "$1" --oneliner 2>/dev/null | grep -o 'Restarts=[0-9]*' | cut -d= -f2; }
# A program on the built-in ignore list holds GPU 0, started as `exec -a nvtop` (argv[0] nvtop, comm test_holdopen)
# and holding what a CUDA program holds. idlegpu does not count it: GPU 0 stays lent, and a lab job submitted now
# runs there. (Before the heartbeat carried idlegpu's verdicts, the prolog refused every job there and drained the
# node.)
sl scancel "$other"
wait_for 10 gpu_free 0 || fail "job $other still on GPU 0"
(exec -a nvtop "$HOLDOPEN" "$B/dev/nvidiactl" "$B/dev/nvidia-uvm" "$B/dev/nvidia0") &
nvtop_pid=$!
sleep 1.5 # a scan and a heartbeat
[ "$(holds_of 0)" = 0 ] && pass "nvtop on GPU 0: GPU 0 stays lent" || fail "GPU 0 has $(holds_of 0) holds"
beside=$(sl sbatch --parsable -p scavenger --requeue --gres=gpu:1 -c 1 -J lab -o "$B/out/%j.out" --open-mode=append "$B/job.sh")
# RUNNING alone is no proof: a job is RUNNING while its prolog runs. Its script's first line is.
wait_for 20 grep -q "start job=$beside" "$B/out/$beside.out" && is_state "$beside" RUNNING \
    && [ "$(job_on_gpu 0)" = "$beside" ] && pass "a lab job submitted while nvtop holds GPU 0 runs there (job $beside)" \
    || fail "job $beside is $(state_of "$beside") ($(sl squeue -h -j "$beside" -o %r)), on GPU 0: $(job_on_gpu 0)"

# The race: the owner opens GPU 1 while the hold cannot be granted (the owner partition is down), and a lab job
# lands there meanwhile. idlegpu holds GPU 1 in its heartbeat at once, so the prolog sends the job back to the queue
# (scontrol requeue) and exits 0: the node is not drained, and the job's script never runs there.
sl scontrol update partitionname=owner state=down || fail "the owner partition down"
preemptions=$(grep -c 'preempting' "$B/log/idlegpu.log")
(exec -a python3 "$HOLDOPEN" "$B/dev/nvidiactl" "$B/dev/nvidia-uvm" "$B/dev/nvidia1") &
owner_pid=$!
wait_for 5 bash -c "[ \$(grep -c preempting '$B/log/idlegpu.log') -gt $preemptions ]" \
    && pass "the owner's open of GPU 1: idlegpu holds it" || fail "idlegpu did not answer the owner's open"
racer=$(sl sbatch --parsable -p scavenger --requeue --gres=gpu:1 -c 1 -J lab -o "$B/out/%j.out" --open-mode=append "$B/job.sh")
sl scancel "$victim" # GPU 1 goes free in Slurm while the hold waits: the pending job lands there
wait_for 20 bash -c "[ \"\$(timeout 5 scontrol show job $racer --oneliner | grep -o 'Restarts=[0-9]*')\" != Restarts=0 ]" \
    && pass "the job that landed on the owner's GPU 1 was requeued by the prolog" \
            "(job $racer, $(restarts_of "$racer") restart(s))" \
    || fail "job $racer: $(sl scontrol show job "$racer" --oneliner | grep -oE 'JobState=[^ ]+|Restarts=[^ ]+|Reason=[^ ]+' \
                          | tr '\n' ' ')"
sleep 7 # cred_expire + 1 s: it lands there again, and is refused again
refusals=$(restarts_of "$racer")
[ "$(state_of "$racer")" = PENDING ] && pass "job $racer pending after $refusals refusal(s)" \
    || fail "job $racer is $(state_of "$racer")"
grep -q "start job=$racer" "$B/out/$racer.out" 2>/dev/null && fail "job $racer's script ran on the owner's GPU" \
    || pass "job $racer's script never ran on the owner's GPU"
sl scontrol update partitionname=owner state=up || fail "the owner partition up"
wait_for 15 has_holds 0 1 && pass "the hold of GPU 1 granted once the partition is up" \
    || fail "holds: $(sl squeue -h -o '%i %j %T')"
kill "$owner_pid"; wait "$owner_pid" 2>/dev/null; owner_pid=""
wait_for 30 is_state "$racer" RUNNING && pass "job $racer runs once the owner is gone" || fail "job $racer is $(state_of "$racer")"
wait_for 5 grep -q "start job=$racer" "$B/out/$racer.out" && log "job $racer: $(grep "start job=$racer" "$B/out/$racer.out")"

kill "$watch_pid"; wait "$watch_pid" 2>/dev/null; watch_pid=""
drains=$(( $(ctld_drains) - ctld_drains_before ))
[ ! -s "$B/drains.log" ] && [ "$drains" = 0 ] && pass "the node was never drained while idlegpu ran" \
    || fail "the node was drained $drains time(s) while idlegpu ran, drained in $(wc -l < "$B/drains.log") of the" \
            "samples: $(head -3 "$B/drains.log")"

# idlegpu exits: every GPU held, so that no lab job lands on a GPU no one guards.
kill "$idlegpu_pid"
wait_for 30 bash -c "! kill -0 $idlegpu_pid 2>/dev/null" && pass "idlegpu exited on SIGTERM" || fail "idlegpu still runs"
wait "$idlegpu_pid"; rc=$?; idlegpu_pid=""
[ "$rc" = 0 ] || fail "idlegpu's exit status $rc"
has_holds 1 1 && pass "every GPU held after the exit" || fail "holds: $(sl squeue -h -o '%i %j %T')"
wait_for 10 bash -c "[ \"\$(timeout 5 squeue -h -p scavenger -t RUNNING | wc -l)\" = 0 ]" \
    && pass "no lab job runs on an unguarded GPU" || fail "jobs: $(sl squeue -h -o '%i %j %T')"
if [ -n "$guard_lines" ]; then
    wait_for 15 drained_because "idlegpu: not running on ws0 \(it stopped at" \
        && pass "idlegpu stopped: the health check drained the node" || fail "the node after the exit: $(node_line)"
fi
grep -E 'idlegpu.slurm' "$B/log/idlegpu.log" | sed 's/^/    /' | head -40
log "done, $failures failure(s)"
[ "$failures" -eq 0 ]
