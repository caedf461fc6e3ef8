#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 The idlegpu authors
# The lab suite (ctest `lab`, label slurm): three workstations on one Slurm (tests/slurm/lab.sh: slurmctld and a
# slurmd per workstation, each in a network namespace of its own, two fake GPUs each), one idlegpu --headless per
# workstation as the system service runs it, slurm.conf and gres.conf from idlegpu --print-slurm-conf:
#   - six lab jobs run, two per workstation;
#   - the owner of ws2 opens GPU 1 with no GPU free in the lab: only that job is requeued, the other five run on,
#     and it waits until ws2's GPU 1 is free again;
#   - with a free GPU elsewhere, IDLEGPU_LAB_TRIALS times (3 unless set; scripts/bench sets 20): only the job on
#     ws2's GPU 1 is requeued (every trial) and runs again elsewhere; the figures: the owner's open to that job's first
#     SIGTERM (idlegpu's to its GPU process), the GPU process's SIGTERM to its end, and its SIGTERM to its start
#     elsewhere, p50/p99;
#   - a lab job whose GPU process ignores SIGTERM: gone within idlegpu's stop_timeout_seconds (3 s here), not Slurm's
#     KillWait (30 s), and requeued;
#   - owners on two workstations at once; a job on both GPUs of ws3, requeued when its owner opens either;
#   - fail-closed, where the build has idlegpu's Prolog and health check (build/bin/idlegpu-slurm-prolog, -health):
#     ws3's idlegpu killed -> no new lab job starts on ws3, which is drained with idlegpu's reason; idlegpu back ->
#     ws3 resumed and used; idlegpu hung (SIGSTOP) -> drained by the health check within its interval + the
#     heartbeat's 5 s, resumed after SIGCONT; an admin's drain ("maintenance") left alone throughout;
#   - an admin drains ws1 for maintenance with two lab jobs on it; ws1's owner opens GPU 0: that job is requeued, the
#     other finishes, ws1 stays drained with the admin's reason;
#   - no Slurm command outlives its idlegpu: ws2's idlegpu SIGKILLed while its hold's salloc waits (slurmctld stopped),
#     while a hold is granted, and while its release's scancel waits; the queue keeps at most one hold per GPU, and
#     idlegpu started again converges;
#   - the ways to take a GPU back compared (IDLEGPU_LAB_CANDIDATE_TRIALS each, 1 unless set; scripts/bench sets 10),
#     on ws3's GPU 0: the hold alone, scontrol requeue beside it, and idlegpu's direct SIGTERM.
# Skips (exit 77, with the reason) without root, the Slurm packages, network namespaces or 2 CPUs. Everything it
# started or made is removed on every exit. Usage: test_lab.sh IDLEGPU HOLDOPEN
set -uo pipefail
# Absolute: slurmd runs the Prolog and health check links beside idlegpu only by a full path.
IDLEGPU=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") HOLDOPEN=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/cluster.sh"
source "$here/lab.sh"
LAB_IDLEGPU=$IDLEGPU
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (slurmd, the namespaces and the holds' salloc -p owner)"; exit 77; }
reason=$(cluster_have_packages) || { echo "SKIP: $reason"; exit 77; }
command -v ip >/dev/null && command -v nsenter >/dev/null || { echo "SKIP: needs ip (iproute2) and nsenter"; exit 77; }
# Each workstation has nproc CPUs in slurm.conf; two jobs of one CPU each must fit.
[ "$(nproc)" -ge 2 ] || { echo "SKIP: needs 2 CPUs (two lab jobs per workstation)"; exit 77; }

trials=${IDLEGPU_LAB_TRIALS:-3}
candidate_trials=${IDLEGPU_LAB_CANDIDATE_TRIALS:-1}
stop_timeout=3 # [slurm] stop_timeout_seconds on every workstation, far below the cluster's KillWait
cred_expire=5 # Slurm's least: a requeued job starts again no sooner than cred_expire + 1 s after
B=$(mktemp -d /tmp/idlegpu-lab.XXXX)
declare -A owner_pid=() owner_fd=() open_ns=()
cleanup() {
    local name
    for name in "${!owner_pid[@]}"; do kill "${owner_pid[$name]}" 2>/dev/null; done
    if [ "$failures" -ne 0 ]; then
        for n in 1 2 3; do echo "--- ws$n: idlegpu's log"; tail -300 "$B/ws$n/idlegpu.log" 2>/dev/null; done
        echo "--- slurmctld.log"; tail -40 "$B/log/slurmctld.log" 2>/dev/null
        echo "--- the jobs' events"; cat "$B/out/events" 2>/dev/null
    fi
    lab_down
    rm -rf "$B"
    log "torn down"
}
trap cleanup EXIT
reason=$(lab_netns_add 2>&1) || { echo "SKIP: cannot make a network namespace (ip netns add: $reason)"; exit 77; }

# --- helpers
job_on() { gpu_jobs | awk -v node="ws$1" -v idx="$2" '$2 == node && $3 == idx { print $1 }'; }
node_of() { sl squeue -h -j "$1" -o %N 2>/dev/null; }
running() { sl squeue -h -p scavenger -t RUNNING -o %i 2>/dev/null | sort -n; }
running_count() { [ "$(running | wc -l)" = "$1" ]; }
gone() { [ -z "$(state_of "$1")" ]; }
# Holds, pending or granted, of GPU $2 on workstation $1 (each asks for its node by name: %n).
holds_on() { sl squeue -h -n "idlegpu-hold-gpu$2" -o %n 2>/dev/null | grep -cx "ws$1"; }
lent() { [ "$(holds_on "$1" "$2")" = 0 ]; }
no_holds() { [ -z "$(sl squeue -h -n idlegpu-hold-gpu0,idlegpu-hold-gpu1 -o %i 2>/dev/null)" ]; }
node_state() { sl sinfo -h -N -n "ws$1" -p scavenger -o %T 2>/dev/null; }
node_reason() { sl sinfo -h -N -n "ws$1" -p scavenger -o %E 2>/dev/null; }
drained() { node_state "$1" | grep -q drain; }
all_idle() { [ "$(lab_states | grep -c ' idle$')" = 3 ]; }
submit() {
    sl sbatch --parsable -p scavenger --requeue -c 1 -J lab -o "$B/out/%j.out" --open-mode=append "$@" "$B/job.sh"
}
# The job's last line of KIND (start, term, gputerm, done) in the events the jobs write: "KIND NS NODE JOBID".
last_event() { awk -v kind="$1" -v id="$2" '$1 == kind && $4 == id { t = $2 } END { print t }' "$B/out/events"; }
# The job's first SIGTERM at or after NS: idlegpu's to its GPU process (gputerm) or Slurm's to its script (term).
first_term_since() {
    awk -v id="$1" -v since="$2" '($1 == "term" || $1 == "gputerm") && $4 == id && $2 >= since && (t == "" || $2 < t) {
        t = $2 } END { print t }' "$B/out/events"
}
requeued() { sl scontrol show job "$1" | grep -q ' Restarts=[1-9]'; }
# The pids of the processes that hold workstation $1's GPU $2, but for the owner's program $3.
lab_holders() {
    local fd pid
    for fd in /proc/[0-9]*/fd/*; do
        [ "$(readlink "$fd" 2>/dev/null)" = "$B/dev/ws$1/nvidia$2" ] || continue
        pid=${fd#/proc/}; pid=${pid%%/*}
        [ "$pid" = "${3:-}" ] || echo "$pid"
    done | sort -u
}
starts_on_since() { awk -v node="ws$1" -v since="$2" '$1 == "start" && $3 == node && $2 >= since' "$B/out/events"; }
all_running() { local id; for id in "$@"; do is_state "$id" RUNNING || return 1; done; }
# p50 and p99 (nearest rank) of the numbers in a file, one a line.
percentiles() {
    sort -n "$1" 2>/dev/null | awk '{ v[NR] = $1 } END { if (NR == 0) { printf "no samples"; exit }
        printf "p50 %.1f ms, p99 %.1f ms (n=%d)", v[int((NR * 50 + 99) / 100)], v[int((NR * 99 + 99) / 100)], NR }'
}
# What the lab runs, for a failure's message.
jobs_text() { sl squeue -h -o '%i %j %T %N %r' 2>/dev/null | tr '\n' ' '; }
ms_between() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", (b - a) / 1e6 }'; }

# The owner's program, not a Slurm job, on workstation $2: as a CUDA process it holds nvidiactl and nvidia-uvm
# (a compute client), and opens GPU $3 on a line from a fifo (owner_go), so that the time of the open is known.
owner_start() {
    local name=$1 dev=$B/dev/ws$2 fd
    mkfifo "$B/go.$name"
    (exec -a python3 "$HOLDOPEN" "$dev/nvidiactl" "$dev/nvidia-uvm" --then-on-input "$dev/nvidia$3" <"$B/go.$name") &
    owner_pid[$name]=$!
    exec {fd}>"$B/go.$name"
    owner_fd[$name]=$fd
    # ready once it holds nvidia-uvm (its last before the fifo): the time of the open is then the echo's
    wait_for 5 eval 'readlink "/proc/${owner_pid[$name]}"/fd/* | grep -qx "$dev/nvidia-uvm"' \
        || fail "the owner's program on ws$2 did not start"
}
owner_go() { open_ns[$1]=$(date +%s%N); echo go >&"${owner_fd[$1]}"; }
owner_stop() {
    local fd=${owner_fd[$1]}
    kill "${owner_pid[$1]}" 2>/dev/null; wait "${owner_pid[$1]}" 2>/dev/null
    exec {fd}>&-
    unset "owner_pid[$1]" "owner_fd[$1]"
    rm -f "$B/go.$1"
}
# The open → the job's first SIGTERM, in ms, from the job's own record; empty when it got none after the open.
latency_of() {
    local term; term=$(first_term_since "$2" "${open_ns[$1]}")
    [ -n "$term" ] && ms_between "${open_ns[$1]}" "$term"
}

# --- the lab
lab_init "$B" || { fail "the lab's namespaces"; exit 1; }
for n in 1 2 3; do
    "$IDLEGPU" --print-slurm-conf -c "$B/ws$n/idlegpu.conf" > "$B/ws$n/print.txt" || fail "--print-slurm-conf on ws$n"
    grep -q "^NodeName=ws$n CPUs=[0-9]* Gres=gpu:gpu0:1,gpu:gpu1:1 State=UNKNOWN$" "$B/ws$n/print.txt" \
        || fail "--print-slurm-conf on ws$n: $(cat "$B/ws$n/print.txt")"
done
# The fail-closed hooks: the build's links, which Slurm calls without arguments.
prolog=$(dirname "$IDLEGPU")/idlegpu-slurm-prolog health=$(dirname "$IDLEGPU")/idlegpu-slurm-health
# Slurm's default KillWait: a job that ignores SIGTERM keeps its GPU that long unless idlegpu kills it.
extra="KillWait=30"
if [ -x "$prolog" ] && [ -x "$health" ]; then
    guard=1
    grep -q '^Prolog=.*/idlegpu-slurm-prolog$' "$B/ws1/print.txt" \
        && grep -q '^HealthCheckProgram=.*/idlegpu-slurm-health$' "$B/ws1/print.txt" \
        && pass "--print-slurm-conf names the Prolog and the health check" \
        || fail "--print-slurm-conf: no Prolog= or HealthCheckProgram="
    extra+=$'\n'"Prolog=$prolog"$'\n'"HealthCheckProgram=$health"
    extra+=$'\n'"HealthCheckInterval=2"$'\n'"HealthCheckNodeState=ANY"
    CLUSTER_SCHEDULER_PARAMETERS=nohold_on_prolog_fail,sched_interval=1
else
    guard=0
    log "SKIP the fail-closed scenarios: the build has no $prolog and $health (idlegpu's Prolog and health check)"
fi
CLUSTER_CRED_EXPIRE=$cred_expire lab_conf "$B"/ws{1,2,3}/print.txt "$extra"
for n in 1 2 3; do echo "stop_timeout_seconds = $stop_timeout" >> "$B/ws$n/idlegpu.conf"; done # [slurm] is last
# idlegpu first, as a service may well start before slurmd: its heartbeat is there for slurmd's first health check,
# which otherwise drains the node (and, with no slurm.conf in /etc, takes 10 s to do so).
for n in 1 2 3; do lab_idlegpu_start "$n"; done
[ "$guard" = 0 ] || wait_for 10 eval 'lab_idlegpu_beating 1 && lab_idlegpu_beating 2 && lab_idlegpu_beating 3' \
    || fail "no heartbeat: $(ls -l /run/idlegpu)"
lab_start || { fail "the lab did not start"; exit 1; }
log "lab up: $(lab_states | tr '\n' ' ')"
all_lent() {
    local n
    for n in 1 2 3; do [ "$(lab_idlegpu_status "$n" | grep -c '^GPU [01]: lent to the lab')" = 2 ] || return 1; done
    all_idle && no_holds
}
wait_for 30 all_lent && pass "every GPU of the lab lent once free for start_delay_seconds" \
    || fail "nodes: $(lab_states | tr '\n' ' '), jobs: $(jobs_text)"

# A lab job: its batch script records Slurm's SIGTERM (term); its GPU process, as a CUDA process holding nvidiactl,
# nvidia-uvm and its GPUs' nodes, records idlegpu's (gputerm, tests/holdopen.cpp) and ends; with IGNORE_TERM=1 both
# ignore it, until a SIGKILL. With JOB_SECONDS, the job ends well (done) after that long.
cat > "$B/job.sh" <<JOB
#!/bin/bash
trap 'echo "term \${EPOCHREALTIME/./}000 \$SLURMD_NODENAME \$SLURM_JOB_ID" >> $B/out/events
      [ -n "\${IGNORE_TERM:-}" ] || { kill \$gpu 2>/dev/null; exit 143; }' TERM
echo "start \$(date +%s%N) \$SLURMD_NODENAME \$SLURM_JOB_ID \$CUDA_VISIBLE_DEVICES" >> $B/out/events
dev=$B/dev/\$SLURMD_NODENAME nodes=()
for i in \${CUDA_VISIBLE_DEVICES//,/ }; do nodes+=("\$dev/nvidia\$i"); done
(exec -a python3 $HOLDOPEN --on-term $B/out/events \${IGNORE_TERM:+--ignore-term} "\$dev/nvidiactl" "\$dev/nvidia-uvm" \
    "\${nodes[@]}") &
gpu=\$!
if [ -n "\${JOB_SECONDS:-}" ]; then
    sleep "\$JOB_SECONDS" & wait \$!
    kill -9 \$gpu; wait \$gpu
    echo "done \$(date +%s%N) \$SLURMD_NODENAME \$SLURM_JOB_ID" >> $B/out/events
    exit 0
fi
wait \$gpu
JOB
chmod +x "$B/job.sh"
: > "$B/out/events"

# --- six lab jobs, two per workstation
for _ in 1 2 3 4 5 6; do submit --gres=gpu:1 >/dev/null; done
wait_for 30 running_count 6 && pass "six lab jobs run" || fail "jobs: $(jobs_text)"
per_node=$(gpu_jobs | awk '{ print $2 }' | sort | uniq -c | awk '{ printf "%s:%s ", $2, $1 }')
[ "$per_node" = "ws1:2 ws2:2 ws3:2 " ] && pass "two per workstation" || fail "per workstation: $per_node"

# --- no GPU free: the owner of ws2 opens GPU 1; only that job is requeued, and it waits for that GPU
victim=$(job_on 2 1)
others=$(running | grep -vx "$victim")
owner_start b 2 1
owner_go b
wait_for 10 is_state "$victim" PENDING && pass "the job on ws2's GPU 1 ($victim) was requeued" \
    || fail "job $victim is $(state_of "$victim")"
all_running $others && pass "the other five run on" || fail "jobs: $(jobs_text)"
[ "$(holds_on 2 1)" = 1 ] && pass "ws2's GPU 1 held for its owner" || fail "ws2's GPU 1 has $(holds_on 2 1) holds"
lab_idlegpu_status 2 | grep -q '^GPU 1: held for you' && pass "ws2's --status: GPU 1 held for you" \
    || fail "ws2's --status: $(lab_idlegpu_status 2)"
# The job shows PENDING as soon as slurmctld requeues it; slurmd's SIGTERM and the job's record come after.
wait_for 30 latency_of b "$victim" >/dev/null
latency=$(latency_of b "$victim") || fail "job $victim got no SIGTERM"
log "owner's open -> SIGTERM of job $victim: ${latency:-?} ms"
# Past its requeue delay (cred_expire + 1 s), with no GPU free anywhere, it still waits.
stays $((cred_expire + 2)) is_state "$victim" PENDING && pass "with no GPU free it waits" || fail "jobs: $(jobs_text)"
owner_stop b; closed_ms=$(ms)
wait_for 20 is_state "$victim" RUNNING && [ "$(job_on 2 1)" = "$victim" ] \
    && pass "it runs again on ws2's GPU 1, $(( $(ms) - closed_ms )) ms after the owner's close" \
    || fail "job $victim is $(state_of "$victim") on $(node_of "$victim")"

# --- a free GPU elsewhere: the requeued job runs there. Each trial then puts a job on ws2's GPU 1 and frees one
# outside ws2 again.
free=$(job_on 1 0)
sl scancel "$free"; wait_for 10 gone "$free" || fail "job $free was not cancelled"
requeues=0
for ((k = 1; k <= trials; k++)); do
    victim=$(job_on 2 1)
    [ -n "$victim" ] || { fail "trial $k: no job on ws2's GPU 1: $(gpu_jobs | tr '\n' ' ')"; break; }
    others=$(running | grep -vx "$victim")
    owner_start t 2 1
    owner_go t
    if wait_for 10 is_state "$victim" PENDING && all_running $others; then
        [ "$k" = 1 ] && pass "with a GPU free elsewhere, only the job on ws2's GPU 1 ($victim) is requeued"
    else
        fail "trial $k: job $victim is $(state_of "$victim"), jobs: $(jobs_text)"
    fi
    wait_for 30 latency_of t "$victim" >/dev/null
    latency=$(latency_of t "$victim") && echo "$latency" >> "$B/open_to_term" \
        || fail "trial $k: job $victim got no SIGTERM"
    requeued "$victim" && requeues=$((requeues + 1))
    term_ns=$(first_term_since "$victim" "${open_ns[t]}")
    if wait_for $((cred_expire + 15)) eval '[ "$(last_event start "$victim")" -gt "${term_ns:-0}" ]' \
        && [ "$(node_of "$victim")" != ws2 ]; then
        rerun_ms=$(ms_between "$term_ns" "$(last_event start "$victim")")
        echo "$rerun_ms" >> "$B/term_to_elsewhere"
        [ "$k" = 1 ] && pass "it runs again elsewhere ($(node_of "$victim")), $rerun_ms ms after its SIGTERM"
    else
        fail "trial $k: job $victim is $(state_of "$victim") on $(node_of "$victim")"
    fi
    owner_stop t
    wait_for 10 lent 2 1 || fail "trial $k: ws2's GPU 1 not lent again"
    [ "$k" -lt "$trials" ] || break
    # The only free GPU now is ws2's GPU 1: a new job lands there; the victim makes room elsewhere.
    next=$(submit --gres=gpu:1)
    wait_for 15 eval '[ "$(job_on 2 1)" = "$next" ]' || fail "trial $k: job $next not on ws2's GPU 1: $(jobs_text)"
    sl scancel "$victim"; wait_for 10 gone "$victim" || fail "job $victim was not cancelled"
done
log "open -> SIGTERM, ms: $(sort -n "$B/open_to_term" | tr '\n' ' ')"
[ "$requeues" = "$trials" ] && pass "requeued in every trial ($requeues of $trials)" \
    || fail "requeued in $requeues of $trials trials"
# SIGTERM -> the GPU process gone, as idlegpu measured it (its pidfd)
grep -o 'GPU 1: the lab.s .* ended [0-9]* ms after its SIGTERM' "$B/ws2/idlegpu.log" | awk '{ print $(NF - 4) }' \
    > "$B/term_to_gone"
# Where the time goes: ws2's idlegpu sees the open in a few ms; Slurm grants its hold (salloc) and then signals the job.
log "ws2's hold of GPU 1 granted in, ms: $(grep -o 'GPU 1 held for the owner (job [0-9]*, granted in [0-9]* ms' \
    "$B/ws2/idlegpu.log" | awk '{ print $(NF - 1) }' | sort -n | tr '\n' ' ')(load $(cut -d' ' -f1-3 /proc/loadavg))"
echo "BENCH lab: owner's open -> SIGTERM of the lab job on that GPU (ws2 GPU 1): $(percentiles "$B/open_to_term")"
echo "BENCH lab: the lab job's GPU process, SIGTERM -> gone (the GPU free): $(percentiles "$B/term_to_gone")"
echo "BENCH lab: the job requeued in $requeues of $trials trials"
echo "BENCH lab: a requeued job's SIGTERM -> its start on a free GPU elsewhere:" \
    "$(percentiles "$B/term_to_elsewhere") (cred_expire=$cred_expire s)"

# --- a lab job whose GPU process ignores SIGTERM: idlegpu kills it after its stop timeout, whatever KillWait
stubborn=$(submit --gres=gpu:gpu1:1 -w ws2 --export=ALL,IGNORE_TERM=1)
wait_for 15 eval '[ "$(job_on 2 1)" = "$stubborn" ] && [ -n "$(lab_holders 2 1)" ]' \
    || fail "job $stubborn not on ws2's GPU 1: $(jobs_text)"
sleep 1 # idlegpu's scan after the job's open
owner_start s 2 1
owner_go s
if wait_for $((stop_timeout + 10)) eval '[ -z "$(lab_holders 2 1 "${owner_pid[s]}")" ]'; then
    # idlegpu's own figure (its pidfd): this loop reads every fd of the machine, slowly under load
    gone_ms=$(grep -o "job $stubborn) ended [0-9]* ms after its SIGTERM" "$B/ws2/idlegpu.log" | awk '{ print $4 }')
    echo "BENCH lab: a lab job ignoring SIGTERM: its GPU process gone ${gone_ms:-?} ms after idlegpu's SIGTERM" \
        "(stop_timeout_seconds=$stop_timeout, KillWait=30)"
    [ -n "$(last_event gputerm "$stubborn")" ] && grep -q "still there $stop_timeout s after its SIGTERM: SIGKILL" \
        "$B/ws2/idlegpu.log" && pass "a job ignoring SIGTERM lost ws2's GPU 1 after the stop timeout (${gone_ms:-?} ms)" \
        || fail "no SIGTERM, or no SIGKILL after $stop_timeout s: $(grep -c gputerm "$B/out/events")"
else
    fail "job $stubborn's GPU process still holds ws2's GPU 1: $(lab_holders 2 1 "${owner_pid[s]}")"
fi
wait_for 10 eval 'is_state "$stubborn" PENDING && requeued "$stubborn"' && pass "and was requeued" \
    || fail "job $stubborn is $(state_of "$stubborn")"
sl scancel "$stubborn"
owner_stop s
wait_for 10 gone "$stubborn" || fail "job $stubborn was not cancelled"

# --- owners on two workstations at once
a=$(job_on 1 0); [ -n "$a" ] && ia=0 || { a=$(job_on 1 1); ia=1; }
c=$(job_on 3 0); [ -n "$c" ] && ic=0 || { c=$(job_on 3 1); ic=1; }
others=$(running | grep -vx -e "$a" -e "$c")
owner_start d1 1 "$ia"; owner_start d3 3 "$ic"
owner_go d1; owner_go d3
wait_for 10 eval 'is_state "$a" PENDING && is_state "$c" PENDING' && all_running $others \
    && pass "owners on ws1 and ws3 at once: jobs $a and $c requeued, the others run on" \
    || fail "jobs: $(jobs_text)"
log "owners at once: ws1 GPU $ia -> SIGTERM $(latency_of d1 "$a") ms, ws3 GPU $ic -> $(latency_of d3 "$c") ms"
owner_stop d1; owner_stop d3

# --- a job on both GPUs of ws3: requeued when its owner opens either
sl scancel -p scavenger
wait_for 15 eval '[ -z "$(sl squeue -h -p scavenger -o %i)" ] && lent 3 0 && lent 3 1' || fail "the lab did not empty"
both=$(submit --gres=gpu:2 -w ws3)
wait_for 15 is_state "$both" RUNNING && [ "$(job_on 3 0)" = "$both" ] && [ "$(job_on 3 1)" = "$both" ] \
    && pass "a job on both GPUs of ws3 ($both) runs" || fail "job $both is $(state_of "$both"): $(jobs_text)"
for idx in 0 1; do
    owner_start e 3 "$idx"
    owner_go e
    wait_for 10 is_state "$both" PENDING \
        && pass "it is requeued when its owner opens GPU $idx ($(latency_of e "$both") ms to its SIGTERM)" \
        || fail "job $both is $(state_of "$both") after the open of GPU $idx"
    owner_stop e
    [ "$idx" = 1 ] || wait_for $((cred_expire + 15)) is_state "$both" RUNNING || fail "job $both is $(state_of "$both")"
done

# --- an admin drains ws1 for maintenance, two lab jobs running there (the running jobs may finish); ws1's owner opens
# GPU 0: its job is requeued all the same, the other finishes, and ws1 stays drained with the admin's reason.
sl scancel -p scavenger
wait_for 15 eval '[ -z "$(sl squeue -h -p scavenger -o %i)" ] && no_holds' || fail "the lab did not empty"
m0=$(submit --gres=gpu:gpu0:1 -w ws1) m1=$(submit --gres=gpu:gpu1:1 -w ws1 --export=ALL,JOB_SECONDS=15)
wait_for 15 eval 'all_running "$m0" "$m1" && [ -n "$(lab_holders 1 0)" ]' || fail "jobs: $(jobs_text)"
sl scontrol update nodename=ws1 state=drain reason=maintenance
wait_for 5 drained 1 || fail "ws1 is $(node_state 1)"
sleep 1 # idlegpu's scan after the job's open
owner_start m 1 0
owner_go m
if wait_for 10 eval 'is_state "$m0" PENDING && requeued "$m0"'; then
    pass "on ws1 drained for maintenance, the job on GPU 0 ($m0) is requeued ($(latency_of m "$m0") ms to its SIGTERM)"
else
    fail "job $m0 is $(state_of "$m0") on drained ws1: $(tail -5 "$B/ws1/idlegpu.log")"
fi
is_state "$m1" RUNNING && pass "the other ($m1) runs on" || fail "job $m1 is $(state_of "$m1")"
wait_for 20 eval '[ -n "$(last_event done "$m1")" ]' && [ -z "$(last_event term "$m1")" ] \
    && pass "and finishes well" || fail "job $m1: $(grep " $m1\$" "$B/out/events" | tr '\n' ' ')"
[ "$(node_reason 1)" = maintenance ] && drained 1 && pass "ws1 stays drained for maintenance" \
    || fail "ws1 is $(node_state 1): $(node_reason 1)"
# A hold asked before idlegpu's listing saw the drain waits there: Slurm grants none on a drained node.
log "holds of ws1's GPU 0: $(holds_on 1 0) (pending: $(sl squeue -h -n idlegpu-hold-gpu0 -t PENDING -o %n | grep -cx ws1))"
owner_stop m
sl scancel "$m0"
sl scontrol update nodename=ws1 state=resume
wait_for 10 eval '! drained 1' || fail "ws1 is $(node_state 1)"

# --- fail-closed
if [ "$guard" = 0 ]; then
    log "SKIP SIGKILL, SIGSTOP and the admin's drain: no $prolog (idlegpu's Prolog and health check are not built)"
else
    sl scancel -p scavenger
    wait_for 15 eval '[ -z "$(sl squeue -h -p scavenger -o %i)" ] && no_holds' || fail "the lab did not empty"
    for _ in 1 2 3 4; do submit --gres=gpu:1 -x ws3 >/dev/null; done
    wait_for 20 running_count 4 || fail "jobs: $(jobs_text)"

    # ws3's idlegpu killed: the only free GPUs are ws3's, and no new lab job may start there.
    kill_ns=$(date +%s%N)
    kill -9 "${LAB_IDLEGPU_PID[3]}"; wait "${LAB_IDLEGPU_PID[3]}" 2>/dev/null; LAB_IDLEGPU_PID[3]=""
    j5=$(submit --gres=gpu:1) j6=$(submit --gres=gpu:1)
    if wait_for 15 drained 3; then
        pass "ws3 drained $(ms_between "$kill_ns" "$(date +%s%N)") ms after its idlegpu's SIGKILL: $(node_reason 3)"
        [[ "$(node_reason 3)" == "idlegpu: "* ]] && pass "with idlegpu's reason" || fail "reason: $(node_reason 3)"
    else
        fail "ws3 is $(node_state 3) after its idlegpu's SIGKILL"
    fi
    # Refused by the Prolog (the job requeued) or the node drained first by the health check: either will do.
    log "drained by $({ requeued "$j5" || requeued "$j6"; } && echo the Prolog || echo the health check)"
    stays 3 eval 'is_state "$j5" PENDING && is_state "$j6" PENDING' && pass "the new jobs wait" \
        || fail "jobs $j5 $j6: $(state_of "$j5") on $(node_of "$j5"), $(state_of "$j6") on $(node_of "$j6")"
    [ -z "$(starts_on_since 3 "$kill_ns")" ] && pass "no lab job started on ws3" \
        || fail "started on ws3: $(starts_on_since 3 "$kill_ns")"
    # a GPU free elsewhere: one of them runs there
    sl scancel "$(job_on 1 0)"
    wait_for $((cred_expire + 15)) eval '[ "$(node_of "$j5")" = ws1 ] || [ "$(node_of "$j6")" = ws1 ]' \
        && pass "a new job runs elsewhere (ws1)" || fail "jobs $j5 $j6: $(node_of "$j5") $(node_of "$j6")"
    [ "$(node_of "$j5")" = ws1 ] && waiting=$j6 || waiting=$j5

    # idlegpu back: it resumes its own drain, and the waiting job runs on ws3
    restart_ns=$(date +%s%N)
    lab_idlegpu_start 3
    wait_for 20 eval '! drained 3' \
        && pass "ws3 resumed $(ms_between "$restart_ns" "$(date +%s%N)") ms after its idlegpu's start" \
        || fail "ws3 is $(node_state 3): $(node_reason 3)"
    wait_for $((cred_expire + 15)) eval '[ -n "$(starts_on_since 3 "$restart_ns")" ]' \
        && [ "$(node_of "$waiting")" = ws3 ] && pass "the waiting job $waiting runs on ws3" \
        || fail "job $waiting is $(state_of "$waiting") on $(node_of "$waiting")"

    # idlegpu hangs on ws3 and on ws1, which an admin drains for maintenance: the health check drains ws3 and leaves
    # ws1's reason; after SIGCONT idlegpu resumes ws3 at its next refresh and leaves ws1 drained.
    sl scontrol update nodename=ws1 state=drain reason=maintenance
    kill -STOP "${LAB_IDLEGPU_PID[3]}" "${LAB_IDLEGPU_PID[1]}"
    stop_ns=$(date +%s%N)
    if wait_for 15 drained 3; then
        hang_ms=$(ms_between "$stop_ns" "$(date +%s%N)")
        echo "BENCH lab: idlegpu hung (SIGSTOP) -> its node drained by the health check: $hang_ms ms" \
            "(HealthCheckInterval=2 s, heartbeat stale after 5 s)"
        # HealthCheckInterval + the heartbeat's 5 s, and 3 s for slurmd's and scontrol's own delays under load
        [ "${hang_ms%.*}" -le 10000 ] && pass "ws3 drained within the health check's interval + 5 s: $(node_reason 3)" \
            || fail "ws3 drained only after $hang_ms ms"
        [[ "$(node_reason 3)" == "idlegpu: "* ]] || fail "reason: $(node_reason 3)"
    else
        fail "ws3 is $(node_state 3) with its idlegpu stopped"
    fi
    [ "$(node_reason 1)" = maintenance ] && pass "the health check leaves the admin's drain of ws1 alone" \
        || fail "ws1: $(node_reason 1)"
    kill -CONT "${LAB_IDLEGPU_PID[3]}" "${LAB_IDLEGPU_PID[1]}"
    cont_ms=$(ms)
    wait_for 15 eval '! drained 3' && pass "ws3 resumed $(( $(ms) - cont_ms )) ms after SIGCONT" \
        || fail "ws3 is $(node_state 3): $(node_reason 3)"
    # idlegpu's refresh (every 10 s) has come on ws1 too by 11 s after SIGCONT
    stays $(( (cont_ms + 11000 - $(ms)) / 1000 + 1 )) eval '[ "$(node_reason 1)" = maintenance ] && drained 1' \
        && pass "idlegpu leaves the admin's drain of ws1 alone" || fail "ws1 is $(node_state 1): $(node_reason 1)"
    sl scontrol update nodename=ws1 state=resume
fi

# --- no Slurm command outlives its idlegpu (SIGKILL in each state of a hold), and the queue keeps no stray hold
sl scancel -p scavenger
wait_for 15 eval '[ -z "$(sl squeue -h -p scavenger -o %i)" ]' || fail "the lab did not empty"
wait_for 15 eval 'lent 2 0 && lent 2 1' || fail "ws2's GPUs are not lent: $(lab_idlegpu_status 2)"
ctld=$(cat "$B/run/slurmctld.pid")
# The Slurm commands that workstation 2's idlegpu runs now.
commands_of_ws2() {
    local pid
    for pid in $(pgrep -P "${LAB_IDLEGPU_PID[2]}"); do
        case "$(cat "/proc/$pid/comm" 2>/dev/null)" in salloc|scancel|scontrol|squeue|sinfo) echo -n "$pid " ;; esac
    done
}
none_left() { local pid; for pid in $left; do kill -0 "$pid" 2>/dev/null && return 1; done; return 0; }
# kill_ws2_while WHAT: SIGKILL of ws2's idlegpu, and its commands (the pids $left) gone within the bound
kill_ws2_while() {
    local killed_ns pid
    killed_ns=$(date +%s%N)
    kill -9 "${LAB_IDLEGPU_PID[2]}"; wait "${LAB_IDLEGPU_PID[2]}" 2>/dev/null; LAB_IDLEGPU_PID[2]=""
    if wait_for 20 none_left; then
        pass "SIGKILL of idlegpu while $1: its $(echo "$left" | wc -w) Slurm command(s) gone" \
            "$(ms_between "$killed_ns" "$(date +%s%N)") ms after"
    else
        fail "SIGKILL of idlegpu while $1: left running: $(ps -o pid=,args= -p "${left// /,}" 2>/dev/null)"
    fi
}
# A hold pending: slurmctld stopped, ws2's owner opens GPU 0, and idlegpu's salloc waits for an answer.
kill -STOP "$ctld"
owner_start k 2 0
owner_go k
wait_for 10 eval '[ -n "$(pgrep -P "${LAB_IDLEGPU_PID[2]}" -x salloc)" ]' || fail "no salloc pending on ws2"
left=$(commands_of_ws2)
kill_ws2_while "its hold's salloc waits for a slurmctld that does not answer"
kill -CONT "$ctld"
wait_for 10 eval 'sl squeue -h >/dev/null' || fail "slurmctld does not answer after SIGCONT"
sleep 2 # a request slurmctld had taken in comes out now
log "ws2's holds of GPU 0 in the queue afterwards: $(holds_on 2 0)"
[ "$(holds_on 2 0)" -le 1 ] && pass "at most one hold of ws2's GPU 0 in the queue" \
    || fail "$(holds_on 2 0) holds of ws2's GPU 0: $(jobs_text)"
# A hold granted: idlegpu back, the owner still on GPU 0; nothing of idlegpu's runs then.
lab_idlegpu_start 2
wait_for 20 eval '[ "$(holds_on 2 0)" = 1 ] && [ -z "$(commands_of_ws2)" ] && ! drained 2' \
    || fail "ws2: holds $(holds_on 2 0), commands $(commands_of_ws2), $(node_state 2)"
left=$(commands_of_ws2)
kill_ws2_while "its hold is granted"
[ "$(holds_on 2 0)" = 1 ] && pass "the granted hold stays, the GPU kept for its owner" \
    || fail "ws2's GPU 0 has $(holds_on 2 0) holds"
# A hold being released: idlegpu back, slurmctld stopped, the owner closes GPU 0: idlegpu's scancel waits.
taken=$(grep -c 'GPU 0 is already held' "$B/ws2/idlegpu.log")
lab_idlegpu_start 2
# idlegpu's own first listing has taken the hold over (--status asks Slurm itself, which may answer sooner)
wait_for 20 eval '[ "$(grep -c "GPU 0 is already held" "$B/ws2/idlegpu.log")" -gt "$taken" ]' \
    || fail "ws2's idlegpu did not take its hold over: $(tail -3 "$B/ws2/idlegpu.log")"
kill -STOP "$ctld"
owner_stop k
if wait_for 15 eval '[ -n "$(pgrep -P "${LAB_IDLEGPU_PID[2]}" -x scancel)" ]'; then
    left=$(commands_of_ws2)
    kill_ws2_while "its release's scancel waits for a slurmctld that does not answer"
else
    fail "no scancel on ws2: $(tail -3 "$B/ws2/idlegpu.log")"
fi
kill -CONT "$ctld"
# idlegpu back: one listing, and ws2's GPUs are lent, its node resumed.
lab_idlegpu_start 2
wait_for 30 eval 'lent 2 0 && lent 2 1 && ! drained 2' \
    && pass "idlegpu started again converges: ws2's GPUs lent, its node $(node_state 2)" \
    || fail "ws2: holds $(holds_on 2 0)/$(holds_on 2 1), $(node_state 2): $(node_reason 2)"

# --- the ways to take a GPU back, compared on ws3's GPU 0 (ws3's idlegpu started with IDLEGPU_LAB_RECLAIM for each)
for way in hold requeue direct; do
    lab_idlegpu_stop 3
    export IDLEGPU_LAB_RECLAIM=${way/direct/}
    lab_idlegpu_start 3
    unset IDLEGPU_LAB_RECLAIM
    wait_for 20 eval 'lab_idlegpu_beating 3 && lent 3 0 && ! drained 3' || fail "$way: ws3: $(lab_idlegpu_status 3)"
    : > "$B/way.$way"
    way_requeues=0
    for ((k = 1; k <= candidate_trials; k++)); do
        j=$(submit --gres=gpu:gpu0:1 -w ws3)
        wait_for 15 eval 'is_state "$j" RUNNING && [ -n "$(lab_holders 3 0)" ]' || fail "$way: job $j: $(jobs_text)"
        sleep 1 # idlegpu's scan after the job's open
        owner_start w 3 0
        owner_go w
        # requeued before it is cancelled: a requeue that comes after the cancel would run it again
        wait_for 10 eval 'is_state "$j" PENDING && requeued "$j"' && way_requeues=$((way_requeues + 1))
        wait_for 10 latency_of w "$j" >/dev/null
        latency_of w "$j" >> "$B/way.$way" && echo >> "$B/way.$way"
        owner_stop w
        sl scancel "$j"
        wait_for 10 eval 'gone "$j" && lent 3 0' || fail "$way: ws3's GPU 0 not lent again"
    done
    [ "$way" = direct ] || grep -q "IDLEGPU_LAB_RECLAIM=$way" "$B/ws3/idlegpu.log" || fail "$way: not taken by idlegpu"
    echo "BENCH lab: taking the GPU back by $way: the owner's open -> the job's SIGTERM" \
        "$(percentiles "$B/way.$way"), requeued in $way_requeues of $candidate_trials"
    [ "$way_requeues" = "$candidate_trials" ] || fail "$way: requeued in $way_requeues of $candidate_trials"
done

log "done, $failures failure(s)"
[ "$failures" -eq 0 ]
