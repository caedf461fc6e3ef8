#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 The idlegpu authors
# The systemd suite: the package as a user installs it, on a real systemd. One Debian 12 container is booted (systemd
# as PID 1, logind, the system bus, polkitd), the .deb that package_check built is installed with apt (offline: the
# cached rootfs already has what it depends on), and the system unit's promises are kept one scenario after another
# on a fake GPU (plain files under /srv/fakegpu, as the e2e tests fake them with device_root); then the user unit
# under a lingering user's manager, and the D-Bus service on the container's real bus (tests/systemd/dbus.sh: its policy,
# polkit's verdicts, the configuration edited through it, hidepid, hidepid from a user and PID namespace of the
# caller's own (it needs unprivileged user namespaces in the container: dbus.sh says which settings; without them that
# scenario is SKIPPED with the reason), a flooding caller, a restart, bad input).
#
#   tests/systemd/suite.sh unified|hybrid DEB_DIR [SCENARIO...]
#     unified  a pure cgroup v2 container (a default Debian 12 install); hybrid: the layout nspawn picks from the host
#     SCENARIO the scenarios to run (default: those of the layout, below)
#
#   IDLEGPU_SYSTEMD_BINARY=FILE  after the package, FILE replaces /usr/bin/idlegpu (a binary of another build, tried
#                                without making its package)
#
# Each scenario is timed; a summary ends the output, naming any scenario SKIPPED (one that could not be tried here
# says why). Exit status 0 when every scenario passed or was skipped, 77 (skipped, with the reason) where containers
# cannot run here, 1 otherwise.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
source "$(dirname "${BASH_SOURCE[0]}")/dbus.sh"

layout=${1:?usage: suite.sh unified|hybrid DEB_DIR [SCENARIO...]}
deb_dir=${2:?usage: suite.sh unified|hybrid DEB_DIR [SCENARIO...]}
shift 2
debs=("$deb_dir"/idlegpu_*.deb)
[ ${#debs[@]} -eq 1 ] && [ -f "${debs[0]}" ] || sysd_fail "expected one idlegpu_*.deb in $deb_dir (package_check makes it), found: ${debs[*]}"
deb=${debs[0]}

# Every promise of the system unit and the user unit in both layouts: pure cgroup v2 (unified) and the host's default
# (here hybrid: cgroup v1 controllers, the name=systemd tree and an empty cgroup v2 tree, where idlegpu falls back
# from a cgroup per workload to its subreaper's sweep). The bus scenarios, which do not depend on cgroups, in unified
# only.
unit_scenarios=(ready preemption back reaper_killed cgroups reload journal_priorities security watchdog broken_config
                stop user_unit)
all_scenarios=("${unit_scenarios[@]}" dbus_setup dbus_service dbus_config dbus_hidepid dbus_hidepid_userns dbus_flood dbus_restart dbus_bad_input dbus_policy)
hybrid_scenarios=("${unit_scenarios[@]}")
if [ $# -gt 0 ]; then scenarios=("$@")
elif [ "$layout" = unified ]; then scenarios=("${all_scenarios[@]}")
else scenarios=("${hybrid_scenarios[@]}"); fi
case $layout in unified) boot_args=(--unified) ;; hybrid) boot_args=() ;; *) sysd_fail "layout $layout is not unified or hybrid" ;; esac

# What runs inside. The workload: alice's `sleep 100000` on GPU 0; a job: bob's process holding the GPU's nodes open.
WORKLOAD_PID='pgrep -u alice -f "^(/usr/bin/)?sleep 100000$"'
CONFIG='[defaults]
interval_seconds = 1
start_delay_seconds = 0
device_root = /srv/fakegpu

[process-miner]
cmd = sleep 100000
user = alice
gpus = 0
stop_timeout_seconds = 2
'

# ------------------------------------------------------------------------------------------------------------- setup
install_package() {
    # Offline: the container has no network but loopback, so every dependency must already be in the rootfs. (Not
    # --no-download: apt 2.6 then refuses a .deb given by its path, "Pathname to install is not absolute".)
    ctrv 'DEBIAN_FRONTEND=noninteractive apt-get install -y -q -o Dpkg::Use-Pty=0 "$1"' \
        "/mnt/debs/$(basename "$deb")" || { echo "$REPLY"; echo "FAIL: apt-get could not install the package offline"; return 1; }
    ctr 'dpkg-query -W -f "installed: \${Package} \${Version}\n" idlegpu && systemctl cat idlegpu >/dev/null' || return 1
    if [ -n "${IDLEGPU_SYSTEMD_BINARY:-}" ]; then
        ctr 'cat >/usr/bin/idlegpu && echo "/usr/bin/idlegpu replaced by $1"' "$IDLEGPU_SYSTEMD_BINARY" <"$IDLEGPU_SYSTEMD_BINARY"
    fi
}
set_up_machine() {
    ctr 'set -e
        install -d -m 0755 /srv/fakegpu
        for node in nvidia0 nvidiactl nvidia-uvm; do : >/srv/fakegpu/$node; chmod 0666 /srv/fakegpu/$node; done
        groupadd gpu-users
        for user in alice bob carol; do useradd -m -U -s /bin/sh $user; done
        usermod -a -G gpu-users alice
        install -d -m 0755 /etc/idlegpu
        printf "%s" "$1" >/root/idlegpu.conf
        install -m 0600 /root/idlegpu.conf /etc/idlegpu/idlegpu.conf' "$CONFIG"
}
# Puts the good configuration back and the service in its running state (after a scenario that changed them).
restore_service() {
    ctr 'install -m 0600 /root/idlegpu.conf /etc/idlegpu/idlegpu.conf
         systemctl reset-failed idlegpu 2>/dev/null; systemctl restart idlegpu'
}
# The value of one property of the unit, in $REPLY.
prop() { ctrv 'systemctl show -p "$1" --value "${2:-idlegpu}"' "$1" "${2:-}"; }

# --------------------------------------------------------------------------------------------------------- scenarios
# Type=notify: `systemctl start` returns once READY=1 came, and READY=1 comes after the first scan (its STATUS counts
# the GPUs already).
scenario_ready() {
    ctrv 'systemctl start idlegpu' || { echo "$REPLY"; ctr 'journalctl -u idlegpu --no-pager | tail -n 20'; echo "FAIL: the service did not start"; return 1; }
    prop StatusText
    [[ "$REPLY" == "1 GPU:"* ]] || { echo "FAIL: the status at READY is '$REPLY', not '1 GPU: …'"; return 1; }
    ctrv 'echo $(( ($(systemctl show -p ActiveEnterTimestampMonotonic --value idlegpu) - $(systemctl show -p ExecMainStartTimestampMonotonic --value idlegpu)) / 1000 ))'
    echo "READY=1 after the first scan, ${REPLY} ms after the start"
    check "the workload did not start" cwait 10 "$WORKLOAD_PID" || { ctr "ps -eo pid,ppid,user,comm,args; journalctl -u idlegpu --no-pager | tail -n 15"; return 1; }
}

# bob's job opens the GPU: alice's workload stops; the job ends: it starts again.
scenario_preemption() {
    check "no workload to preempt" cwait 10 "$WORKLOAD_PID" || return 1
    ctrv 'old=$('"$WORKLOAD_PID"')
          t0=$(date +%s%N)
          systemd-run --quiet --unit=gpu-job --uid=bob --gid=bob sh -c \
              "exec 3</srv/fakegpu/nvidiactl 4</srv/fakegpu/nvidia-uvm 5</srv/fakegpu/nvidia0; exec sleep 100003"
          for _ in $(seq 200); do kill -0 $old 2>/dev/null || { echo "stopped $(( ($(date +%s%N) - t0) / 1000000 )) ms after the job started"; exit 0; }; sleep 0.05; done
          echo "the workload $old still runs 10 s after the job opened the GPU"; exit 1'
    local status=$?
    echo "$REPLY"
    [ $status = 0 ] || { echo "FAIL: no preemption"; return 1; }
    # While the job holds the GPU, the workload stays stopped.
    ctr 'sleep 1.5; ! '"$WORKLOAD_PID" || { echo "FAIL: the workload started again while the job holds the GPU"; return 1; }
}
scenario_back() {
    ctrv 't0=$(date +%s%N); systemctl stop gpu-job
          for _ in $(seq 200); do '"$WORKLOAD_PID"' >/dev/null && { echo "back $(( ($(date +%s%N) - t0) / 1000000 )) ms after the job ended"; exit 0; }; sleep 0.05; done
          exit 1'
    local status=$?
    echo "$REPLY"
    [ $status = 0 ] || { echo "FAIL: the workload did not come back after the job ended"; return 1; }
}

# The reaper killed with SIGKILL: its workload must not run on unsupervised (a cgroup per workload under cgroup v2,
# the subreaper's sweep otherwise), and idlegpu starts it again.
scenario_reaper_killed() {
    check "no workload" cwait 10 "$WORKLOAD_PID" || return 1
    ctrv 'pid=$('"$WORKLOAD_PID"'); reaper=$(ps -o ppid= -p $pid | tr -d " ")
          echo "workload $pid under $(cat /proc/$reaper/comm) $reaper"
          [ "$(cat /proc/$reaper/comm)" = idlegpu-reaper ] || exit 1
          t0=$(date +%s%N); kill -KILL $reaper
          for _ in $(seq 200); do kill -0 $pid 2>/dev/null || { echo "gone $(( ($(date +%s%N) - t0) / 1000000 )) ms after its reaper was killed"; break; }; sleep 0.05; done
          kill -0 $pid 2>/dev/null && { echo "the workload $pid still runs 10 s after its reaper died"; exit 1; }
          for _ in $(seq 200); do new=$('"$WORKLOAD_PID"') && [ "$new" != "$pid" ] && { echo "started again: $new"; exit 0; }; sleep 0.05; done
          echo "not started again"; exit 1'
    local status=$?
    echo "$REPLY"
    [ $status = 0 ] || { echo "FAIL: a killed reaper's workload"; return 1; }
}

# The service's processes in its own cgroup; each workload in a cgroup of its own below it where systemd delegated a
# cgroup v2 tree (unified); in the hybrid layout idlegpu says it falls back to the subreaper's sweep.
scenario_cgroups() {
    check "no workload" cwait 10 "$WORKLOAD_PID" || return 1
    ctrv 'pid=$('"$WORKLOAD_PID"'); main=$(systemctl show -p MainPID --value idlegpu)
          echo "idlegpu: $(grep -E "^0::|name=systemd" /proc/$main/cgroup | tr "\n" " ")"
          echo "workload: $(grep -E "^0::|name=systemd" /proc/$pid/cgroup | tr "\n" " ")"'
    echo "$REPLY"
    local cgroups=$REPLY containment
    ctrv 'journalctl -b -u idlegpu -o cat --no-pager | grep "containment:" | tail -n 1'
    containment=$REPLY
    REPLY=$cgroups
    echo "journal: $containment"
    if [ "$layout" = unified ]; then
        [[ "$REPLY" =~ idlegpu:[^$'\n']*\ 0::/system\.slice/idlegpu\.service/idlegpu\  ]] || { echo "FAIL: idlegpu is not in its leaf cgroup"; return 1; }
        [[ "$REPLY" =~ workload:[^$'\n']*\ 0::/system\.slice/idlegpu\.service/[^/\ ]*miner\  ]] || { echo "FAIL: the workload has no cgroup of its own"; return 1; }
        [[ "$containment" == *"cgroup of its own"* ]] || { echo "FAIL: idlegpu does not say each workload has a cgroup"; return 1; }
    else
        [[ "$REPLY" =~ workload:.*name=systemd:/system\.slice/idlegpu\.service ]] || { echo "FAIL: the workload left the service's cgroup"; return 1; }
        [ -n "$containment" ] || { echo "FAIL: idlegpu does not say which containment it uses"; return 1; }
    fi
}

# `systemctl reload`: SIGHUP to the same process, which reloads its configuration.
scenario_reload() {
    local main
    prop MainPID; main=$REPLY
    ctrv 'cursor=$(journalctl -u idlegpu -n 0 --show-cursor --no-pager | sed -n "s/^-- cursor: //p")
          systemctl reload idlegpu || exit 1
          for _ in $(seq 100); do journalctl -u idlegpu --after-cursor="$cursor" -o cat --no-pager | grep -F "SIGHUP: reloading the configuration" && exit 0; sleep 0.05; done
          exit 1'
    local status=$?
    echo "$REPLY"
    [ $status = 0 ] || { echo "FAIL: no reload in the journal"; return 1; }
    prop MainPID
    [ "$REPLY" = "$main" ] || { echo "FAIL: reload replaced the process ($main → $REPLY)"; return 1; }
}

# journalctl -u idlegpu -p warning: idlegpu's warnings and errors (the lines its log format marks "warning:" or
# "error:" after the time) at their priority, and nothing else. A broken configuration sent with SIGHUP to the running
# service gives some: its errors, and that the configuration in force is kept; and its workload without `user =` gives
# the configuration's warning "runs as root, as gpu_mon ran it", which must be at priority warning too.
scenario_journal_priorities() {
    ctrv 'set -e
          cursor=$(journalctl -n 0 --show-cursor --no-pager | sed -n "s/^-- cursor: //p")
          printf "[defaults]\ninterval_seconds = banana\n\n[process-rootjob]\ncmd = sleep 100010\ngpus = 0\n" >/etc/idlegpu/idlegpu.conf
          systemctl reload idlegpu
          # Done when the SIGHUP was taken and the last line says the configuration in force is kept (the file watch
          # may have seen the edit first and said it too).
          for _ in $(seq 100); do
              journalctl -u idlegpu --after-cursor="$cursor" -o cat --no-pager >/tmp/lines
              grep -q "SIGHUP: reloading" /tmp/lines && tail -n 1 /tmp/lines | grep -q "keeping the configuration" && break
              sleep 0.05
          done
          # One snapshot, each line as PRIORITY and MESSAGE (what journalctl -p filters on), so that lines still
          # coming in cannot make two reads differ.
          journalctl -u idlegpu --after-cursor="$cursor" -o json --no-pager | awk "
              { p = \"?\"; m = \"\" }
              match(\$0, /\"PRIORITY\":\"[0-7]\"/) { p = substr(\$0, RSTART + 12, 1) }
              match(\$0, /\"MESSAGE\":\"[^\"]*/) { m = substr(\$0, RSTART + 11, RLENGTH - 11) }
              { print p \"\t\" m }" >/tmp/all
          awk -F "\t" "\$2 ~ /^[0-9-]+ [0-9:.]+ (warning|error): / { print \$2 }" /tmp/all >/tmp/expected
          awk -F "\t" "\$1 <= 4 { print \$2 }" /tmp/all >/tmp/warnings
          echo "$(wc -l </tmp/all) lines, $(wc -l </tmp/expected) of them warnings or errors, $(wc -l </tmp/warnings) at priority warning or above:"
          cat /tmp/warnings
          [ -s /tmp/expected ] || { echo "no warning"; exit 1; }
          grep -q "^6	.*SIGHUP: reloading" /tmp/all || { echo "no information (the SIGHUP) at priority info"; journalctl -u idlegpu -o short-precise --no-pager | tail -n 12; exit 1; }
          grep "runs as root, as gpu_mon ran it" /tmp/all | grep -q "^[0-4]	" ||
              { echo "the configuration'"'"'s warning is not at priority warning: $(grep "runs as root" /tmp/all | head -n 1)"; exit 1; }
          diff /tmp/expected /tmp/warnings || { echo "the lines at priority warning differ from the warnings (< expected, > shown)"; exit 1; }'
    local status=$?
    echo "$REPLY"
    restore_service
    [ $status = 0 ] || { echo "FAIL: log priorities"; return 1; }
}

# systemd-analyze security, measured inside on the installed unit (the package test measures it offline too).
scenario_security() {
    ctrv 'systemd-analyze security idlegpu --no-pager | tail -n 1'
    echo "$REPLY"
    local level
    level=$(sed -n 's/.*Overall exposure level for idlegpu.service: \([0-9.]*\).*/\1/p' <<<"$REPLY")
    [ -n "$level" ] || { echo "FAIL: no exposure level"; return 1; }
    awk -v l="$level" 'BEGIN { exit !(l <= 3.6) }' || { echo "FAIL: exposure $level is above 3.6"; return 1; }
    # In the service's mount namespace /etc is read-only (ProtectSystem=full) but /etc/idlegpu is not
    # (ReadWritePaths=): the service can replace its configuration there (SetConfig), and nothing else in /etc.
    ctrv 'main=$(systemctl show -p MainPID --value idlegpu)
          nsenter -t $main -m sh -c "echo probe >/etc/idlegpu/.probe && rm /etc/idlegpu/.probe" || exit 1
          if nsenter -t $main -m sh -c "echo probe >/etc/.idlegpu-probe" 2>/dev/null; then rm -f /etc/.idlegpu-probe; echo "/etc is writable"; exit 1; fi
          echo "in the service'"'"'s mounts: /etc/idlegpu writable, the rest of /etc read-only"'
    local status=$?
    echo "$REPLY"
    [ $status = 0 ] || { echo "FAIL: the service's view of /etc"; return 1; }
}

# The watchdog: a SIGSTOPped idlegpu sends no WATCHDOG=1; systemd aborts and restarts it. The shipped 30 s is checked
# here as installed; a drop-in shortens it (and the restart delay) for the test, with no core dump.
scenario_watchdog() {
    prop WatchdogUSec
    [ "$REPLY" = 30s ] || { echo "FAIL: the installed unit's WatchdogSec is '$REPLY', not 30s"; return 1; }
    ctr 'mkdir -p /run/systemd/system/idlegpu.service.d
         printf "[Service]\nWatchdogSec=4s\nRestartSec=100ms\nLimitCORE=0\n" >/run/systemd/system/idlegpu.service.d/50-test-watchdog.conf
         systemctl daemon-reload && systemctl restart idlegpu' || { echo "FAIL: the drop-in"; return 1; }
    ctrv 'main=$(systemctl show -p MainPID --value idlegpu); n=$(systemctl show -p NRestarts --value idlegpu)
          t0=$(date +%s%N); kill -STOP $main
          for _ in $(seq 400); do
              new=$(systemctl show -p MainPID --value idlegpu)
              if [ "$new" != "$main" ] && [ "$new" != 0 ] && systemctl is-active -q idlegpu; then
                  echo "restarted $(( ($(date +%s%N) - t0) / 1000000 )) ms after SIGSTOP (WatchdogSec=4s); restarts $n → $(systemctl show -p NRestarts --value idlegpu)"
                  journalctl -u idlegpu -o cat --no-pager | grep -m1 -i "watchdog timeout"
                  exit 0
              fi
              sleep 0.05
          done
          echo "not restarted 20 s after SIGSTOP"; exit 1'
    local status=$?
    echo "$REPLY"
    ctr 'rm -rf /run/systemd/system/idlegpu.service.d; systemctl daemon-reload'
    restore_service
    [ $status = 0 ] || { echo "FAIL: the watchdog"; return 1; }
    [[ "$REPLY" == *"atchdog timeout"* ]] || { echo "FAIL: systemd did not say it was the watchdog"; return 1; }
}

# A broken configuration: the service fails with exit status 1 and is not restarted (RestartPreventExitStatus).
scenario_broken_config() {
    ctr 'printf "[defaults]\ninterval_seconds = banana\n" >/etc/idlegpu/idlegpu.conf; systemctl restart idlegpu' &&
        { echo "FAIL: the service started with a broken configuration"; restore_service; return 1; }
    ctrv 'for p in ActiveState SubState Result ExecMainStatus NRestarts; do printf "%s=%s " $p "$(systemctl show -p $p --value idlegpu)"; done'
    echo "$REPLY"
    local state=$REPLY
    ctrv 'journalctl -u idlegpu -o cat --no-pager | grep -m1 "banana"'
    echo "journal: $REPLY"
    restore_service
    [[ "$state" == "ActiveState=failed SubState=failed Result=exit-code ExecMainStatus=1 NRestarts=0 " ]] ||
        { echo "FAIL: not failed for good"; return 1; }
}

# `systemctl stop`: idlegpu, its reapers and workloads gone, the unit's cgroup too.
scenario_stop() {
    check "no workload" cwait 10 "$WORKLOAD_PID" || return 1
    ctrv 'systemctl stop idlegpu || exit 1
          echo "ExecMainStatus=$(systemctl show -p ExecMainStatus --value idlegpu)"
          left=0
          for p in idlegpu idlegpu-reaper idlegpu-log; do pgrep -a -x $p && left=1; done
          pgrep -a -u alice && left=1
          for d in /sys/fs/cgroup/system.slice/idlegpu.service /sys/fs/cgroup/unified/system.slice/idlegpu.service \
                   /sys/fs/cgroup/systemd/system.slice/idlegpu.service; do
              [ -d $d ] && { echo "left: $d"; left=1; }
          done
          exit $left'
    local status=$?
    echo "$REPLY"
    [ $status = 0 ] || { echo "FAIL: something is left after systemctl stop"; return 1; }
    [[ "$REPLY" == *"ExecMainStatus=0"* ]] || { echo "FAIL: idlegpu did not exit 0 on stop"; return 1; }
}

# The user unit under the manager of a lingering user (carol: no session, enable-linger).
scenario_user_unit() {
    ctrv 'set -e
          uid=$(id -u carol)
          loginctl enable-linger carol
          for _ in $(seq 200); do [ -S /run/user/$uid/bus ] && systemctl is-active -q user@$uid.service && break; sleep 0.05; done
          systemctl is-active user@$uid.service
          install -d -o carol -g carol -m 0700 /home/carol/.config /home/carol/.config/idlegpu
          printf "[defaults]\ninterval_seconds = 1\nstart_delay_seconds = 0\ndevice_root = /srv/fakegpu\n\n[process-folding]\ncmd = sleep 100004\ngpus = 0\nstop_timeout_seconds = 2\n" \
              >/home/carol/.config/idlegpu/idlegpu.conf
          chown carol:carol /home/carol/.config/idlegpu/idlegpu.conf; chmod 0600 /home/carol/.config/idlegpu/idlegpu.conf
          as_carol() { setpriv --reuid=carol --regid=carol --init-groups env -i HOME=/home/carol PATH=/usr/bin:/bin \
                       XDG_RUNTIME_DIR=/run/user/$uid DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/$uid/bus "$@"; }
          as_carol systemctl --user start idlegpu
          echo "user unit: $(as_carol systemctl --user is-active idlegpu), status $(as_carol systemctl --user show -p StatusText --value idlegpu)"
          for _ in $(seq 200); do pid=$(pgrep -u carol -f "^(/usr/bin/)?sleep 100004$") && break; sleep 0.05; done
          [ -n "$pid" ]
          echo "workload $pid: $(grep -E "^0::|name=systemd" /proc/$pid/cgroup | tr "\n" " ")"
          grep -q "user@$uid.service/app.slice/idlegpu.service" /proc/$pid/cgroup
          as_carol systemctl --user stop idlegpu
          ! pgrep -u carol -f "^(/usr/bin/)?sleep 100004$"'
    local status=$?
    echo "$REPLY"
    [ $status = 0 ] || { echo "FAIL: the user unit"; ctr 'journalctl --no-pager -n 30 _UID=$(id -u carol)'; return 1; }
}

# ----------------------------------------------------------------------------------------------------------- the run
sysd_check_host
sysd_deadline "${SYSD_SUITE_SECONDS:-270}"  # ctest's TIMEOUT is 300
sysd_rootfs_find "$deb"
step "boot ($layout)" sysd_boot "${boot_args[@]}" --bind-ro "$(realpath "$deb_dir"):/mnt/debs" || exit 1
step "install the .deb with apt" install_package || { sysd_summary; exit 1; }
step "users, fake GPU, configuration" set_up_machine || { sysd_summary; exit 1; }
for scenario in "${scenarios[@]}"; do
    declare -F "scenario_$scenario" >/dev/null || sysd_fail "no scenario $scenario"
    step "$scenario" "scenario_$scenario"
done
sysd_summary
