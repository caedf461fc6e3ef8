# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 The idlegpu authors
# A lab of three workstations on one machine for the lab suite (tests/slurm/test_lab.sh); sourced, not run, after
# cluster.sh, whose munged, slurm.conf and teardown it reuses. As the reference script slurm-lab-netns.sh of the
# design notes: slurmctld in a network namespace of its own (NS-ctl, 10.77.0.1 on its lo), a slurmd per workstation
# ws1..ws3 in its own namespace (NS-wsN, 10.77.N.2 on eth0, a veth to 10.77.N.1 in NS-ctl), each with its own two
# fake GPUs DIR/dev/wsN/nvidia0..1. Every address lives in a namespace made here, named after this shell's pid so
# that another run never clashes; the machine's own namespace gets none. Its pitfalls: daemons started with
# `nsenter --net`, not `ip netns exec` (that mounts a /sys without cgroups, and slurmd fails); per-node files by %n.
# The workstations share /proc and the filesystem: holders are told apart by the file they hold open.
#
#   lab_netns_add               the head node's namespace, the first made: fails (with ip's words) where this
#                               machine or container may not make namespaces
#   lab_init DIR                munged, the workstations' namespaces, links and fake GPUs
#   lab_conf PRINTS EXTRA       slurm.conf and gres.conf from idlegpu --print-slurm-conf of each workstation (files
#                               PRINTS, in order ws1..), each node at its address, the lines EXTRA last
#   lab_start                   slurmctld and the three slurmd; waits until every node answers
#   lab_in N COMMAND...         COMMAND on workstation N (in its namespace), as a program there would run
#   lab_idlegpu_start N         idlegpu --headless on workstation N as the system service runs it: root, its own
#                               config DIR/wsN/idlegpu.conf, state and log; its pid in LAB_IDLEGPU_PID[N]
#   lab_idlegpu_beating N       its heartbeat for Slurm's Prolog and health check is there
#   lab_idlegpu_status N        its --status's lines of the GPUs
#   lab_idlegpu_stop N...       SIGTERM (after SIGCONT: it may have been stopped), SIGKILL if it does not exit
#   lab_down                    every idlegpu, job and daemon stopped, the namespaces and heartbeats removed
LAB_NS=lab$$
LAB_WORKSTATIONS=(1 2 3)
declare -A LAB_IDLEGPU_PID=()

# Slurm's clients, as on the lab's head node.
sl() { nsenter --net="/run/netns/$LAB_NS-ctl" timeout 10 "$@"; }

lab_netns_add() {
    ip netns add "$LAB_NS-ctl"
}

lab_in() {
    local n=$1; shift
    nsenter --net="/run/netns/$LAB_NS-ws$n" "$@"
}

lab_init() {
    cluster_init "$1" "ws[1-3]" 0
    ip -n "$LAB_NS-ctl" link set lo up
    ip -n "$LAB_NS-ctl" addr add 10.77.0.1/32 dev lo
    local n ws
    for n in "${LAB_WORKSTATIONS[@]}"; do
        ws=$LAB_NS-ws$n
        ip netns add "$ws" || return 1
        ip -n "$LAB_NS-ctl" link add "vlab$n" type veth peer name eth0 netns "$ws"
        ip -n "$LAB_NS-ctl" addr add "10.77.$n.1/24" dev "vlab$n"
        ip -n "$LAB_NS-ctl" link set "vlab$n" up
        ip -n "$ws" addr add "10.77.$n.2/24" dev eth0
        ip -n "$ws" link set eth0 up
        ip -n "$ws" link set lo up
        ip -n "$ws" route add default via "10.77.$n.1"
        cluster_fake_gpus "$CLUSTER_DIR/dev/ws$n" 2
        mkdir -p "$CLUSTER_DIR/ws$n/state"
        cat > "$CLUSTER_DIR/ws$n/idlegpu.conf" <<CONF
[defaults]
device_root = $CLUSTER_DIR/dev/ws$n
start_delay_seconds = 1
interval_seconds = 5

[slurm]
enabled = true
node = ws$n
CONF
        chmod 600 "$CLUSTER_DIR/ws$n/idlegpu.conf"
    done
}

# The cluster's lines once (from the first print), each node's line and gres.conf lines from its own. The printed
# KillWait, Prolog, health check and SchedulerParameters make way for the test's (EXTRA).
lab_conf() {
    local prints=("${@:1:$#-1}") extra=${*: -1}
    local globals nodes="" gres="" n=0 print
    globals=$(grep -v -e '^#' -e '^NodeName=' -e '^KillWait=' -e '^Prolog=' -e '^HealthCheck' \
        -e '^SchedulerParameters=' "${prints[0]}")
    for print in "${prints[@]}"; do
        n=$((n + 1))
        nodes+=$(sed -n "s/^NodeName=ws$n CPUs=/NodeName=ws$n NodeAddr=10.77.$n.2 CPUs=/p" "$print")$'\n'
        gres+=$(grep "^NodeName=ws$n Name=gpu " "$print")$'\n'
    done
    CLUSTER_ADDR=10.77.0.1 cluster_conf "$globals"$'\n'"$nodes$extra" "$gres"
}

# The nodes' states, one line each: "ws1 idle".
lab_states() { sl sinfo -h -N -p scavenger -o '%N %T' 2>/dev/null; }

lab_start() {
    setsid nsenter --net="/run/netns/$LAB_NS-ctl" "$SBIN/slurmctld" -D -i \
        >"$CLUSTER_DIR/log/ctld.out" 2>&1 </dev/null &
    local n
    for n in "${LAB_WORKSTATIONS[@]}"; do
        setsid nsenter --net="/run/netns/$LAB_NS-ws$n" "$SBIN/slurmd" -D -N "ws$n" \
            >"$CLUSTER_DIR/log/d$n.out" 2>&1 </dev/null &
    done
    # Every node registered: idle, or drained by the health check while its idlegpu is not yet there.
    for _ in $(seq 150); do
        [ "$(lab_states | grep -cE '^ws[1-3] (idle|drained|mixed|allocated)$')" = 3 ] && return 0
        sleep 0.2
    done
    echo "the nodes did not register: $(lab_states | tr '\n' ' '); slurmctld.log:"
    tail -20 "$CLUSTER_DIR/log/slurmctld.log"
    return 1
}

lab_idlegpu_start() {
    local n=$1 dir=$CLUSTER_DIR/ws$1
    # nsenter itself, not a function around it, in the background: it execs idlegpu, so $! is idlegpu's pid.
    XDG_STATE_HOME=$dir/state nsenter --net="/run/netns/$LAB_NS-ws$n" "$LAB_IDLEGPU" --headless -c "$dir/idlegpu.conf" \
        >>"$dir/idlegpu.log" 2>&1 &
    LAB_IDLEGPU_PID[$n]=$!
}

# Workstation N's idlegpu has written its heartbeat for the guard (/run/idlegpu/slurm-wsN.guard, naming its pid).
lab_idlegpu_beating() {
    grep -qsE "\"pid\": *${LAB_IDLEGPU_PID[$1]}[,}]" "/run/idlegpu/slurm-ws$1.guard"
}

# What idlegpu --status on workstation N says of its GPUs: "GPU 1: lent to the lab: job 7 (root)" a line.
lab_idlegpu_status() {
    lab_in "$1" "$LAB_IDLEGPU" --status -c "$CLUSTER_DIR/ws$1/idlegpu.conf" 2>&1 | grep '^GPU '
}

lab_idlegpu_stop() {
    local n pid pids=()
    for n in "$@"; do
        pid=${LAB_IDLEGPU_PID[$n]:-}
        [ -n "$pid" ] && pids+=("$pid") && LAB_IDLEGPU_PID[$n]=""
    done
    [ ${#pids[@]} -gt 0 ] || return 0
    kill -CONT "${pids[@]}" 2>/dev/null
    kill "${pids[@]}" 2>/dev/null
    # At its exit idlegpu holds every GPU (salloc, up to its timeout where a node is drained): all at once.
    for _ in $(seq 80); do # until none is left
        for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && break; done || break
        sleep 0.25
    done
    kill -9 "${pids[@]}" 2>/dev/null
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null; done
}

lab_down() {
    local n
    lab_idlegpu_stop "${LAB_WORKSTATIONS[@]}"
    cluster_stop
    for n in "${LAB_WORKSTATIONS[@]}"; do ip netns del "$LAB_NS-ws$n" 2>/dev/null; done
    ip netns del "$LAB_NS-ctl" 2>/dev/null
    [ -n "${CLUSTER_DIR:-}" ] || return 0
    # The heartbeats this lab's idlegpu left in the shared runtime folder (they name its slurm.conf); others stay.
    for n in "${LAB_WORKSTATIONS[@]}"; do
        grep -qsF "$CLUSTER_DIR/etc/slurm.conf" "/run/idlegpu/slurm-ws$n.guard" && rm -f "/run/idlegpu/slurm-ws$n.guard"
    done
    return 0
}
