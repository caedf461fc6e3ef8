#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 The idlegpu authors
# The container library's teardown, checked from outside on each way a suite can end: a failed scenario (exit 1),
# Ctrl-C to its whole process group while a command runs inside (130), and its own deadline (SIGTERM, 143), each with
# a transient service, a process in a user and PID namespace of its own and a command running in the container.
# Afterwards nothing may be left: the container halted, no process in its PID or mount namespace nor in the nested one,
# none of its cgroups, no mount under the rootfs; and the halt must be quick (a host process reaped late makes the
# container's shutdown wait 10 s for it).
#
#   tests/systemd/teardown_check.sh DEB_DIR
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

debs=("${1:?usage: teardown_check.sh DEB_DIR}"/idlegpu_*.deb)
[ ${#debs[@]} -eq 1 ] && [ -f "${debs[0]}" ] || sysd_fail "expected one idlegpu_*.deb in $1, found: ${debs[*]}"
sysd_check_host
sysd_rootfs_find "${debs[0]}"
sysd_work
lib="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"

# The suite under test: boots, starts a service and a command inside, then ends the way $2 says.
cat >"$SYSD_WORK/child.sh" <<'CHILD'
source "$1"
SYSD_ROOTFS=$3
case $2 in deadline) sysd_deadline 4 ;; esac
sysd_boot --unified
ctr 'systemd-run --quiet --unit=busy sleep 1000'
# A command of nobody's in a user and PID namespace of its own, as dbus_hidepid_userns runs them: its processes are
# outside the container's PID and mount namespaces (the search by namespace misses them), and its `sleep`, PID 1 there,
# ignores SIGTERM.
ctr 'exec setpriv --reuid=nobody --regid=nogroup --clear-groups unshare -Upf -r --mount-proc sleep "$1"' "$4" &
ctr 'for _ in $(seq 40); do pgrep -f "^sleep $1\$" >/dev/null && echo "nested: running" && break; sleep 0.05; done' "$4"
case $2 in
    fail) ctr 'sleep 0.2; exit 3' || exit 1 ;;
    *) ctr ': >/run/running; exec sleep 1000' ;;
esac
CHILD

failed=0
marker=$((2000000 + $$))  # the nested process's `sleep MARKER`, ours alone on the host
check_mode() {  # MODE EXPECTED_STATUS
    local mode=$1 expected=$2 pid status t0 state
    state="$SYSD_WORK/state-$mode"
    # setsid: a process group of its own for the Ctrl-C; env: SIGINT back to its default (a background job of a
    # script starts with it ignored, and bash cannot trap a signal ignored at its start).
    SYSD_STATE_FILE=$state setsid env --default-signal=INT \
        bash "$SYSD_WORK/child.sh" "$lib" "$mode" "$SYSD_ROOTFS" "$marker" >"$SYSD_WORK/$mode.log" 2>&1 </dev/null &
    pid=$!
    for _ in $(seq 600); do [ -s "$state" ] && break; kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
    # shellcheck disable=SC1090
    [ -s "$state" ] && source "$state"
    if [ "$mode" = int ]; then
        for _ in $(seq 200); do [ -e "/proc/${leader:-0}/root/run/running" ] && break; sleep 0.05; done
        t0=$(sysd_now)
        kill -INT -- "-$pid"
    else
        t0=$(sysd_now)
    fi
    for _ in $(seq 600); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
    kill -0 "$pid" 2>/dev/null && { echo "FAIL: $mode: still running 30 s on: SIGTERM"; kill -TERM "$pid"; failed=1; }
    wait "$pid"
    status=$?
    local took left=()
    took=$(sysd_since "$t0")
    kill -0 "${nspawn:-0}" 2>/dev/null && left+=("systemd-nspawn $nspawn")
    local procs
    procs=$(find /proc/[0-9]*/ns/ -maxdepth 1 \( -name pid -o -name mnt \) -printf '%h %l\n' 2>/dev/null |
        awk -v a="${pidns:-none}" -v b="${mntns:-none}" '$2 == a || $2 == b { split($1, p, "/"); print p[3] }' | sort -u | tr '\n' ' ')
    [ -n "$procs" ] && left+=("processes $procs")
    local dir
    for dir in ${cgroups:-}; do [ -d "$dir" ] && left+=("cgroup $dir"); done
    grep -q -F " $SYSD_ROOTFS" /proc/self/mountinfo && left+=("mounts under $SYSD_ROOTFS")
    procs=$(pgrep -f "^sleep $marker\$" | tr '\n' ' ')
    [ -n "$procs" ] && left+=("the nested namespace's process $procs")
    grep -q "^nested: running" "$SYSD_WORK/$mode.log" || echo "$mode: (no process in a nested user namespace: unshare failed inside)"
    echo "$mode: exit status $status (expected $expected), ended ${took} s after $([ "$mode" = int ] && echo Ctrl-C || echo the boot), machine ${name:-?}, left: ${left[*]:-nothing}"
    if [ -z "${name:-}" ] || [ "$status" != "$expected" ] || [ ${#left[@]} -gt 0 ]; then
        echo "FAIL: $mode"; sed 's/^/    /' "$SYSD_WORK/$mode.log" | tail -n 25; failed=1
    fi
    if [ "$mode" = int ] && ! awk -v t="$took" 'BEGIN { exit !(t < 6) }'; then
        echo "FAIL: the teardown after Ctrl-C took $took s (a zombie the container's shutdown waited for?)"; failed=1
    fi
    unset name nspawn leader pidns mntns cgroups
}
check_mode fail 1
check_mode int 130
check_mode deadline 143
[ $failed = 0 ] && echo "every way out leaves nothing behind"
exit $failed
