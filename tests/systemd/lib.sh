# shellcheck shell=bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 The idlegpu authors
# The container library of the systemd suite (tests/systemd): a Debian 12 root file system, made once by mmdebstrap
# and cached outside the checkout, booted with systemd as PID 1 under systemd-nspawn on a host whose PID 1 need not be
# systemd; commands run inside with nsenter; everything torn down on every exit path and checked gone.
#
#   source tests/systemd/lib.sh
#   sysd_rootfs_make DEB        (the rootfs test) / sysd_rootfs_find DEB (the suites): sets SYSD_ROOTFS
#   sysd_boot [--unified] [--bind-ro HOST:CONT]...   boots it with a tmpfs overlay and no network but loopback
#   ctr SCRIPT [ARG...]         runs `sh -c SCRIPT` inside as root; its output to ours; its exit status
#   ctrv SCRIPT [ARG...]        the same, the output (stdout and stderr) in $REPLY
#   cwait SECONDS SCRIPT        polls SCRIPT inside every 50 ms until it succeeds; fails after SECONDS
#   step NAME FUNCTION [ARG...] runs one timed step; sysd_summary prints them and says whether all passed
#
# Why it is built the way it is (each point was hit on a Debian 12 VM whose PID 1 is another supervisor, cgroups in
# the hybrid layout; /work/shared/reference/systemd-container.sh found them first):
# - nspawn cannot register with a machined or make a scope without a host systemd: --register=no --keep-unit, and
#   nsenter into the container's PID 1 instead of machinectl/systemd-run -M.
# - nspawn removes /run/systemd/nspawn/propagate/<name> only from a tmpfs: it runs in a mount namespace of its own
#   (unshare -m) with a tmpfs there. Everything it mounts lives and dies in that namespace.
# - With --keep-unit nspawn makes sub-cgroups of its own cgroup and leaves them: it starts in a cgroup of ours
#   (idlegpu-sysd-<pid>, in every hierarchy that has a cgroup.procs we may write), and the teardown kills what is left
#   in it and removes it depth first. The commands' nsenter processes go into <ours>/cmd for the same reason.
# - The container must not see a host process die before its child: a process that nsenter started inside, orphaned,
#   is re-parented to the HOST's PID 1, which may reap it late, and the container's shutdown then waits 10 s for the
#   zombie. So the teardown kills the processes inside (never nsenter), lets each nsenter reap and exit, and both
#   nspawn and nsenter run under setsid, so that a Ctrl-C to our process group reaches only this script.
# - bash runs a trap only after the foreground child exits: everything long (the build, nspawn, each command) runs in
#   the background and is waited for, so SIGTERM/SIGINT reach the teardown at once. Never wrap ctr in $(...): that
#   subshell is a foreground child (ctrv exists for that).
# - --volatile=overlay keeps the cached rootfs pristine (useradd, apt install and the tests write to a tmpfs).
# - --console=read-only (a pipe would leave the container without /dev/console), --link-journal=no (the host's
#   journal is none of its business), --private-network (the suite sends nothing but loopback: the rootfs already has
#   every package that the .deb depends on, so apt installs it offline).
# - mmdebstrap mounts /proc, /sys and /dev inside its target in the host's namespace: the build goes to a temporary
#   folder beside the cache entry, renamed only when complete; an interrupted build is unmounted and removed.
# Limits that no option changes on such a host (cgroup v1 controllers bound on the host): MemoryMax=, CPU and IO
# limits and IPAddressDeny= do nothing inside; Delegate=yes works on the cgroup v2 tree, without controllers.
set -u -o pipefail

SYSD_LIB_VERSION=1
SYSD_SUITE=bookworm
SYSD_CACHE=${IDLEGPU_ROOTFS_CACHE:-/var/cache/idlegpu-tests}
# What the scenarios need besides the .deb's own Depends and Recommends: systemd as PID 1 with logind and PAM
# sessions (libpam-systemd), the system and user buses, polkitd (the package recommends it; pkcheck, pkaction),
# ps/pgrep, and dbus-test-tool (dbus-tests: a stand-in that owns a name and answers calls, for the bus policy).
SYSD_BASE_PACKAGES=(systemd systemd-sysv dbus dbus-user-session libpam-systemd polkitd procps iproute2 dbus-tests)
SYSD_BOOT_TIMEOUT=${SYSD_BOOT_TIMEOUT:-60}
SYSD_PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

SYSD_NAME="idlegpu-sysd-$$"
SYSD_WORK=""
SYSD_ROOTFS="" SYSD_KEY=""
SYSD_NSPAWN_PID="" SYSD_LEADER="" SYSD_BUILD_PID="" SYSD_BUILD_TMP=""
SYSD_PIDNS="" SYSD_MNTNS=""
SYSD_CG_ROOTS=() SYSD_CG_DIRS=()
SYSD_LOCK_FD="" SYSD_DEADLINE_PID=""
SYSD_STEPS=() SYSD_FAILED=0 SYSD_SKIPPED=()
SYSD_T0=$(date +%s.%N)

sysd_now() { date +%s.%N; }
sysd_since() { awk -v a="$1" -v b="$(sysd_now)" 'BEGIN { printf "%.2f", b - a }'; }
sysd_log() { printf '[systemd %s] %s\n' "$(date +%T.%N | cut -c1-12)" "$*" >&2; }
# Exit status 77: ctest's SKIP_RETURN_CODE, with the reason on the output.
sysd_skip() { echo "SKIP: $*"; exit 77; }
sysd_fail() { echo "FAIL: $*"; exit 1; }

sysd_work() {
    [ -n "$SYSD_WORK" ] || SYSD_WORK=$(mktemp -d /tmp/idlegpu-sysd.XXXXXX) || sysd_fail "mktemp failed"
}

# The host must have what the suite runs; without it the suite skips (77) and says which is missing.
sysd_check_host() {
    [ "$(id -u)" = 0 ] || sysd_skip "the systemd suite boots containers and must run as root"
    local tool
    for tool in systemd-nspawn nsenter unshare setsid flock sha256sum dpkg-deb awk; do
        command -v "$tool" >/dev/null || sysd_skip "$tool is not installed (scripts/common.sh installs systemd-container)"
    done
    [ -e /sys/fs/cgroup ] || sysd_skip "no /sys/fs/cgroup"
}

# ------------------------------------------------------------------------------------------------ the root file system
# Every URI of an enabled apt source of this host (deb822 .sources and one-line .list files).
sysd_apt_uris() {
    local f
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] && awk 'tolower($1) == "uris:" { for (i = 2; i <= NF; i++) print $i }' "$f"
    done
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [ -f "$f" ] && awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z+]+:\/\//) { print $i; break } }' "$f"
    done
    return 0
}
sysd_mirror() {
    [ -n "${SYSD_MIRROR:-}" ] && { echo "$SYSD_MIRROR"; return; }
    sysd_apt_uris | grep -v -- '-security' | grep -m1 -E '/debian/?$' || true
}
sysd_security_mirror() {
    [ -n "${SYSD_SECURITY_MIRROR:-}" ] && { echo "$SYSD_SECURITY_MIRROR"; return; }
    sysd_apt_uris | grep -m1 -E '/debian-security/?$' || true
}

# The package names of the .deb's Depends and Recommends (the first of each alternative, without versions).
sysd_deb_relations() {
    { dpkg-deb -f "$1" Depends; dpkg-deb -f "$1" Recommends; } | tr ',' '\n' |
        sed -e 's/|.*//' -e 's/(.*)//' -e 's/:any//' -e 's/[[:space:]]//g' | grep -v '^$'
}
# The sorted package list of the rootfs for this .deb.
sysd_package_list() {
    { printf '%s\n' "${SYSD_BASE_PACKAGES[@]}"; sysd_deb_relations "$1"; } | sort -u
}
# The cache key: what the rootfs is made of (packages, suite, mirrors) and how (this library's version).
sysd_rootfs_key() {
    { sysd_package_list "$1"; echo "suite $SYSD_SUITE"; echo "mirror $(sysd_mirror)";
      echo "security $(sysd_security_mirror)"; echo "lib $SYSD_LIB_VERSION"; } | sha256sum | cut -c1-16
}

# Takes the cache's lock: exclusive to make or prune entries, shared while a container runs on one.
sysd_lock() {
    mkdir -p "$SYSD_CACHE" || sysd_fail "cannot make $SYSD_CACHE"
    exec {SYSD_LOCK_FD}>>"$SYSD_CACHE/lock"
    flock "$1" -w 900 "$SYSD_LOCK_FD" || sysd_fail "the rootfs cache $SYSD_CACHE stayed locked for 15 minutes"
}
sysd_unlock() {
    [ -n "$SYSD_LOCK_FD" ] && { flock -u "$SYSD_LOCK_FD"; exec {SYSD_LOCK_FD}>&-; SYSD_LOCK_FD=""; }
    return 0
}

# For the suites: the rootfs for this .deb, made earlier by the rootfs test; skips when it is missing.
sysd_rootfs_find() {
    SYSD_KEY=$(sysd_rootfs_key "$1")
    SYSD_ROOTFS="$SYSD_CACHE/rootfs-$SYSD_KEY"
    sysd_lock -s
    [ -x "$SYSD_ROOTFS/usr/lib/systemd/systemd" ] ||
        sysd_skip "no rootfs $SYSD_ROOTFS for this package list (the test systemd_rootfs makes it)"
}

# For the rootfs test: reuses or makes the rootfs for this .deb, then keeps only the two newest entries.
sysd_rootfs_make() {
    local deb=$1 t0 mirror security packages
    SYSD_KEY=$(sysd_rootfs_key "$deb")
    SYSD_ROOTFS="$SYSD_CACHE/rootfs-$SYSD_KEY"
    sysd_lock -x
    if [ -x "$SYSD_ROOTFS/usr/lib/systemd/systemd" ]; then
        touch "$SYSD_ROOTFS"
        echo "rootfs: reused $SYSD_ROOTFS"
    else
        command -v mmdebstrap >/dev/null || sysd_skip "no rootfs cached and no mmdebstrap to make one (scripts/common.sh installs it)"
        mirror=$(sysd_mirror) security=$(sysd_security_mirror)
        [ -n "$mirror" ] || sysd_skip "no Debian mirror in /etc/apt/sources.list*; set SYSD_MIRROR"
        sysd_work
        # The archive must answer (apt's own transport, proxies included), else there is nothing to build from.
        if ! timeout 30 /usr/lib/apt/apt-helper download-file "${mirror%/}/dists/$SYSD_SUITE/InRelease" \
                "$SYSD_WORK/InRelease" >"$SYSD_WORK/probe.log" 2>&1; then
            sysd_skip "no rootfs cached and the archive $mirror is unreachable: $(tail -n 1 "$SYSD_WORK/probe.log")"
        fi
        local sources=("deb $mirror $SYSD_SUITE main" "deb $mirror $SYSD_SUITE-updates main")
        [ -n "$security" ] && sources+=("deb $security $SYSD_SUITE-security main")
        packages=$(sysd_package_list "$deb" | paste -sd, -)
        SYSD_BUILD_TMP="$SYSD_CACHE/build-$SYSD_KEY.$$"
        sysd_log "making the rootfs: mmdebstrap --variant=minbase --include=$packages"
        t0=$(sysd_now)
        mmdebstrap --variant=minbase --include="$packages" "$SYSD_SUITE" "$SYSD_BUILD_TMP" "${sources[@]}" \
            >"$SYSD_WORK/mmdebstrap.log" 2>&1 </dev/null &
        SYSD_BUILD_PID=$!
        wait "$SYSD_BUILD_PID" || { tail -n 30 "$SYSD_WORK/mmdebstrap.log"; SYSD_BUILD_PID=""; sysd_fail "mmdebstrap failed"; }
        SYSD_BUILD_PID=""
        mv -T "$SYSD_BUILD_TMP" "$SYSD_ROOTFS" || sysd_fail "cannot rename $SYSD_BUILD_TMP"
        SYSD_BUILD_TMP=""
        echo "rootfs: made $SYSD_ROOTFS in $(sysd_since "$t0") s: $(dpkg-query --admindir="$SYSD_ROOTFS/var/lib/dpkg" -W | wc -l) packages, $(du -sh "$SYSD_ROOTFS" | cut -f1)"
    fi
    local old
    # shellcheck disable=SC2012 # names we made: rootfs-<16 hex digits>
    for old in $(ls -1dt "$SYSD_CACHE"/rootfs-* 2>/dev/null | tail -n +3); do
        sysd_log "removing the old rootfs $old"
        rm -rf --one-file-system "$old"
    done
    sysd_unlock
}

# ------------------------------------------------------------------------------------------------------- boot and run
sysd_cgroup_roots() {
    SYSD_CG_ROOTS=()
    if [ "$(stat -f -c %T /sys/fs/cgroup)" = cgroup2fs ]; then
        SYSD_CG_ROOTS+=(/sys/fs/cgroup)
    else
        [ -e /sys/fs/cgroup/unified/cgroup.procs ] && SYSD_CG_ROOTS+=(/sys/fs/cgroup/unified)
        [ -e /sys/fs/cgroup/systemd/cgroup.procs ] && SYSD_CG_ROOTS+=(/sys/fs/cgroup/systemd)
    fi
    [ ${#SYSD_CG_ROOTS[@]} -gt 0 ] || sysd_skip "no cgroup hierarchy with a cgroup.procs to start nspawn in"
}
# Moves the calling (sub)shell into our cgroup $1 ("" or "/cmd") in every hierarchy.
sysd_join_cgroup() {
    local root
    for root in "${SYSD_CG_ROOTS[@]}"; do echo "$BASHPID" >"$root/$SYSD_NAME$1/cgroup.procs" || return 1; done
}
sysd_cgroup_pids() {  # every process in our cgroups (host pids)
    local dir
    for dir in "${SYSD_CG_DIRS[@]}"; do find "$dir" -name cgroup.procs -exec cat {} + 2>/dev/null; done | sort -u
}

# The cgroups of an earlier run that could not tear down (killed with SIGKILL, by ctest's timeout for one): their
# owner's pid is gone. What still runs in them is killed, and they are removed.
sysd_remove_stale_cgroups() {
    local root dir owner
    for root in "${SYSD_CG_ROOTS[@]}"; do
        for dir in "$root"/idlegpu-sysd-*; do
            [ -d "$dir" ] || continue
            owner=${dir##*-}
            kill -0 "$owner" 2>/dev/null && continue
            sysd_log "removing the cgroup $dir of an earlier run that ended without its teardown"
            [ -e "$dir/cgroup.kill" ] && echo 1 >"$dir/cgroup.kill"
            find "$dir" -name cgroup.procs -exec cat {} + 2>/dev/null | xargs -r kill -KILL 2>/dev/null
            for _ in $(seq 40); do
                find "$dir" -depth -type d -exec rmdir {} + 2>/dev/null
                [ -d "$dir" ] || break
                sleep 0.05
            done
        done
    done
}

# sysd_deadline SECONDS: the script ends itself with SIGTERM (so its teardown runs) after SECONDS; ctest's own TIMEOUT
# would kill it with SIGKILL, leaving the container to die without its teardown. (The timer's output goes nowhere:
# a process left holding ctest's pipe would keep ctest waiting.)
sysd_deadline() {
    local main=$$
    sysd_work
    ( trap - EXIT INT TERM HUP
      for _ in $(seq "$1"); do sleep 1; done
      : >"$SYSD_WORK/deadline"; kill -TERM "$main" ) </dev/null >/dev/null 2>&1 &
    SYSD_DEADLINE_PID=$!
}

# sysd_boot [--unified] [--bind-ro HOST:CONT]...: boots SYSD_ROOTFS; sets SYSD_LEADER (the container's PID 1).
sysd_boot() {
    local unified=0 args=() root t0 state="" deadline child
    while [ $# -gt 0 ]; do
        case $1 in
            --unified) unified=1; shift ;;
            --bind-ro) args+=("--bind-ro=$2"); shift 2 ;;
            *) sysd_fail "sysd_boot: unknown option $1" ;;
        esac
    done
    sysd_work
    sysd_cgroup_roots
    sysd_remove_stale_cgroups
    for root in "${SYSD_CG_ROOTS[@]}"; do
        mkdir "$root/$SYSD_NAME" "$root/$SYSD_NAME/cmd" || sysd_fail "cannot make the cgroup $root/$SYSD_NAME"
        SYSD_CG_DIRS+=("$root/$SYSD_NAME")
    done
    local nspawn=(-D "$SYSD_ROOTFS" -M "$SYSD_NAME" --boot --register=no --keep-unit --console=read-only
                  --volatile=overlay --private-network --link-journal=no "${args[@]}")
    t0=$(sysd_now)
    (
        sysd_join_cgroup "" || exit 1
        if [ "$unified" = 1 ]; then export SYSTEMD_NSPAWN_UNIFIED_HIERARCHY=1; else unset SYSTEMD_NSPAWN_UNIFIED_HIERARCHY; fi
        exec setsid unshare --mount --propagation private -- /bin/sh -c \
            'mkdir -p /run/systemd/nspawn && mount -t tmpfs -o mode=0755 idlegpu-sysd /run/systemd/nspawn &&
             exec systemd-nspawn "$@"' sh "${nspawn[@]}"
    ) </dev/null >"$SYSD_WORK/nspawn.log" 2>&1 &
    SYSD_NSPAWN_PID=$!  # setsid, unshare, sh and systemd-nspawn exec one another: one pid
    deadline=$(($(date +%s) + SYSD_BOOT_TIMEOUT))
    while [ "$(date +%s)" -lt "$deadline" ]; do
        kill -0 "$SYSD_NSPAWN_PID" 2>/dev/null || { cat "$SYSD_WORK/nspawn.log"; sysd_fail "systemd-nspawn exited while booting"; }
        if [ -z "$SYSD_LEADER" ]; then
            for child in $(pgrep -P "$SYSD_NSPAWN_PID"); do
                [ "$(cat "/proc/$child/comm" 2>/dev/null)" = systemd ] && SYSD_LEADER=$child
            done
            if [ -n "$SYSD_LEADER" ]; then
                SYSD_PIDNS=$(readlink "/proc/$SYSD_LEADER/ns/pid") SYSD_MNTNS=$(readlink "/proc/$SYSD_NSPAWN_PID/ns/mnt")
            fi
        fi
        if [ -n "$SYSD_LEADER" ]; then
            state=$(nsenter -t "$SYSD_LEADER" -a systemctl is-system-running 2>/dev/null)
            case $state in running | degraded) break ;; esac
        fi
        sleep 0.05
    done
    case $state in
        running | degraded) ;;
        *) tail -n 20 "$SYSD_WORK/nspawn.log"; sysd_fail "the container was not up after ${SYSD_BOOT_TIMEOUT} s (state '${state:-none}')" ;;
    esac
    echo "boot: $(sysd_since "$t0") s to '$state'; $([ "$unified" = 1 ] && echo unified || echo "host's default") cgroups:" \
         "$(nsenter -t "$SYSD_LEADER" -a stat -f -c %T /sys/fs/cgroup)$(nsenter -t "$SYSD_LEADER" -a test -d /sys/fs/cgroup/unified && echo ' + unified (hybrid)')"
    # For tests/systemd/teardown_check.sh, which checks from outside that nothing of this container is left.
    if [ -n "${SYSD_STATE_FILE:-}" ]; then
        printf 'name=%q\nnspawn=%q\nleader=%q\npidns=%q\nmntns=%q\ncgroups=%q\n' "$SYSD_NAME" "$SYSD_NSPAWN_PID" \
            "$SYSD_LEADER" "$SYSD_PIDNS" "$SYSD_MNTNS" "${SYSD_CG_DIRS[*]}" >"$SYSD_STATE_FILE.tmp" &&
            mv "$SYSD_STATE_FILE.tmp" "$SYSD_STATE_FILE"
    fi
    if [ "$state" = degraded ]; then
        echo "failed units in the container:"
        nsenter -t "$SYSD_LEADER" -a systemctl --failed --no-pager --no-legend
    fi
}

# ctr SCRIPT [ARG...]: `/bin/sh -c SCRIPT sh ARG...` inside, as root, in a clean environment; stdin is ours.
ctr() {
    local pid status
    [ -n "$SYSD_LEADER" ] || sysd_fail "ctr: no container"
    (
        sysd_join_cgroup /cmd || exit 125
        exec setsid nsenter -t "$SYSD_LEADER" -a -- env -i PATH="$SYSD_PATH" HOME=/root TERM=dumb LANG=C.UTF-8 \
            container=systemd-nspawn /bin/sh -c "$1" sh "${@:2}"
    ) <&0 &
    pid=$!
    wait "$pid"
    status=$?
    return $status
}
# ctrv SCRIPT [ARG...]: as ctr; its output, stdout and stderr, in $REPLY (trailing newlines dropped).
ctrv() {
    local status
    sysd_work
    ctr "$@" >"$SYSD_WORK/ctrv.out" 2>&1 </dev/null
    status=$?
    REPLY=$(cat "$SYSD_WORK/ctrv.out")
    return $status
}
# cwait SECONDS SCRIPT [ARG...]: polls SCRIPT inside (one shell, a 50 ms step) until it succeeds.
cwait() {
    local seconds=$1 script=$2
    shift 2
    ctr 'end=$(( $(date +%s%N) + '"$seconds"' * 1000000000 ))
         while [ "$(date +%s%N)" -lt "$end" ]; do
             ( '"$script"' ) >/dev/null 2>&1 && exit 0
             sleep 0.05
         done
         exit 1' "$@"
}

# ------------------------------------------------------------------------------------------------------------ teardown
sysd_teardown() {
    local status=$? t0 pid comm dir left=0
    trap - EXIT INT TERM HUP
    set +e
    t0=$(sysd_now)
    [ -n "$SYSD_DEADLINE_PID" ] && kill "$SYSD_DEADLINE_PID" 2>/dev/null
    [ -n "$SYSD_WORK" ] && [ -e "$SYSD_WORK/deadline" ] && echo "FAIL: the suite ran out of time (sysd_deadline)"
    if [ -n "$SYSD_BUILD_PID" ] && kill -0 "$SYSD_BUILD_PID" 2>/dev/null; then
        sysd_log "interrupting mmdebstrap $SYSD_BUILD_PID"
        kill -TERM "$SYSD_BUILD_PID"
        wait "$SYSD_BUILD_PID"
    fi
    if [ -n "$SYSD_BUILD_TMP" ] && [ -d "$SYSD_BUILD_TMP" ]; then
        awk -v d="$SYSD_BUILD_TMP" '$5 == d || index($5, d "/") == 1 { print $5 }' /proc/self/mountinfo | sort -r |
            while read -r dir; do umount -l "$dir"; done
        rm -rf --one-file-system "$SYSD_BUILD_TMP"
    fi
    if [ ${#SYSD_CG_DIRS[@]} -gt 0 ]; then
        # The commands still running inside: their processes die, their nsenter reaps them and exits by itself.
        for dir in "${SYSD_CG_DIRS[@]}"; do
            for pid in $(find "$dir/cmd" -name cgroup.procs -exec cat {} + 2>/dev/null); do
                comm=$(cat "/proc/$pid/comm" 2>/dev/null)
                [ "$comm" != nsenter ] && kill -KILL "$pid" 2>/dev/null
            done
        done
        for _ in $(seq 50); do
            [ -z "$(for dir in "${SYSD_CG_DIRS[@]}"; do cat "$dir/cmd/cgroup.procs" 2>/dev/null; done)" ] && break
            sleep 0.05
        done
        if [ -n "$SYSD_NSPAWN_PID" ] && kill -0 "$SYSD_NSPAWN_PID" 2>/dev/null; then
            kill -TERM "$SYSD_NSPAWN_PID"  # nspawn asks the container's systemd to halt
            for _ in $(seq 300); do kill -0 "$SYSD_NSPAWN_PID" 2>/dev/null || break; sleep 0.05; done
            if kill -0 "$SYSD_NSPAWN_PID" 2>/dev/null; then
                sysd_log "the container did not halt within 15 s: killing it"
            fi
        fi
        for dir in "${SYSD_CG_DIRS[@]}"; do
            if [ -e "$dir/cgroup.kill" ]; then
                echo 1 >"$dir/cgroup.kill" 2>/dev/null
            fi
        done
        sysd_cgroup_pids | xargs -r kill -KILL 2>/dev/null
        [ -n "$SYSD_NSPAWN_PID" ] && wait "$SYSD_NSPAWN_PID" 2>/dev/null
        for dir in "${SYSD_CG_DIRS[@]}"; do
            for _ in $(seq 100); do
                [ -d "$dir" ] || break
                find "$dir" -depth -type d -exec rmdir {} + 2>/dev/null
                [ -d "$dir" ] && sleep 0.05
            done
        done
    fi
    sysd_unlock
    # Nothing of ours may be left: no process in the container's PID or mount namespace, no cgroup, no mount.
    if [ -n "$SYSD_PIDNS$SYSD_MNTNS" ]; then
        # One find for every process (a subshell per process costs seconds on a busy machine).
        local leftovers
        leftovers=$(find /proc/[0-9]*/ns/ -maxdepth 1 \( -name pid -o -name mnt \) -printf '%h %l\n' 2>/dev/null |
            awk -v a="${SYSD_PIDNS:-none}" -v b="${SYSD_MNTNS:-none}" '$2 == a || $2 == b { split($1, p, "/"); print p[3] }' | sort -u)
        for pid in $leftovers; do
            echo "LEFTOVER: process $pid ($(cat "/proc/$pid/comm" 2>/dev/null)) of the container"
            left=1
        done
    fi
    for dir in "${SYSD_CG_DIRS[@]}"; do
        [ -d "$dir" ] && { echo "LEFTOVER: cgroup $dir"; left=1; }
    done
    if [ -n "$SYSD_ROOTFS" ] && grep -q -F -e " $SYSD_ROOTFS " -e " $SYSD_ROOTFS/" /proc/self/mountinfo; then
        echo "LEFTOVER: mounts under $SYSD_ROOTFS"
        left=1
    fi
    if [ -n "$SYSD_NSPAWN_PID" ]; then
        if [ "$status" -ne 0 ] && [ "$status" -ne 77 ] && [ -s "$SYSD_WORK/nspawn.log" ]; then
            echo "----- the container's console (last 20 lines) -----"
            tail -n 20 "$SYSD_WORK/nspawn.log"
        fi
        echo "teardown: $(sysd_since "$t0") s, leftovers: $([ "$left" = 0 ] && echo none || echo 'see above')"
    fi
    [ -n "$SYSD_WORK" ] && rm -rf "$SYSD_WORK"
    [ "$left" = 0 ] || [ "$status" -ne 0 ] || status=1
    exit "$status"
}
trap sysd_teardown EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# --------------------------------------------------------------------------------------------------------------- steps
# step NAME FUNCTION [ARG...]: runs FUNCTION, times it, and records whether it passed (a failed step does not stop
# the next one; the suite fails at the end). A FUNCTION that returns 77 could not be tried here and has said why: the
# step is SKIPPED, neither passed nor failed, and the summary names it.
step() {
    local name=$1 t0 status word
    shift
    t0=$(sysd_now)
    echo "--- $name"
    "$@"
    status=$?
    case $status in 0) word=ok ;; 77) word=SKIPPED ;; *) word=FAILED ;; esac
    SYSD_STEPS+=("$(printf '%-7s %6s s  %s' "$word" "$(sysd_since "$t0")" "$name")")
    case $status in 0) ;; 77) SYSD_SKIPPED+=("$name") ;; *) SYSD_FAILED=$((SYSD_FAILED + 1)) ;; esac
    return $status
}
# check CONDITION-TEXT COMMAND...: runs COMMAND on the host side (usually ctr/cwait) and says FAIL with the text.
check() {
    local what=$1
    shift
    "$@" && return 0
    echo "FAIL: $what"
    return 1
}
sysd_summary() {
    echo "===== summary ($(sysd_since "$SYSD_T0") s in all) ====="
    printf '%s\n' "${SYSD_STEPS[@]}"
    local skipped=""
    [ ${#SYSD_SKIPPED[@]} = 0 ] || skipped=", ${#SYSD_SKIPPED[@]} SKIPPED (not tried here, see their output): ${SYSD_SKIPPED[*]}"
    if [ "$SYSD_FAILED" = 0 ]; then
        [ ${#SYSD_SKIPPED[@]} = 0 ] && echo "all ${#SYSD_STEPS[@]} steps passed" ||
            echo "$((${#SYSD_STEPS[@]} - ${#SYSD_SKIPPED[@]})) of ${#SYSD_STEPS[@]} steps passed$skipped"
        return 0
    fi
    echo "$SYSD_FAILED of ${#SYSD_STEPS[@]} steps failed$skipped"
    return 1
}
