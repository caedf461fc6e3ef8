# shellcheck shell=bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 The idlegpu authors
# The container side of the D-Bus scenarios (sourced by tests/systemd/suite.sh after lib.sh): the machine's real
# system bus, its real polkitd with the package's actions and the README's rules file, real logind sessions.
#
# scenario_dbus_setup installs, inside the container, what every D-Bus scenario uses:
#   /usr/local/bin/as-user USER CMD...     CMD as USER with the user's groups, in no login session (an SSH command
#                                          without a session, cron): polkit's allow_any
#   /usr/local/bin/in-session USER CMD...  CMD as USER in a new logind session on seat0, which logind makes the
#                                          seat's active session (a seat without VTs activates each new session): the
#                                          person at the computer, polkit's allow_active. Output piped back, exit
#                                          status passed on.
#   /usr/local/bin/ds METHOD ARG...        a call of the service by dbus-send: "Error NAME: message" on failure
#   /usr/local/bin/set-config FILE ETAG    SetConfig with FILE's bytes (by ds)
#   /usr/local/bin/pk-verdict ACTION       polkit's verdict on ACTION for its own process (pkcheck's exit status)
#   /usr/local/bin/hidepid invisible|off   remounts the machine's /proc (the users' and their clients'; the service
#                                          keeps its own, ProtectProc=invisible) with that hidepid: bob then sees none
#                                          of alice's processes in ps, root all of them (tried: works inside nspawn)
#   /etc/polkit-1/rules.d/50-idlegpu.rules the README's rule: io.github.idlegpu.pause for the group gpu-users
# and the users: alice (in gpu-users), bob and carol (in no group of ours). So, by polkit's verdict on
#   io.github.idlegpu.pause:      alice yes (the rule) · bob in a session yes (allow_active) · bob, carol outside
#                                 one: auth_admin (refused without an agent) · root yes
#   io.github.idlegpu.configure:  root only (auth_admin_keep everywhere else)
# A scenario on the service is then a few lines, e.g. (once the service owns its name):
#   ctr 'as-user carol busctl call io.github.idlegpu.Idlegpu1 /io/github/idlegpu/Idlegpu1 io.github.idlegpu.Idlegpu1 \
#        Pause st "" 0'                  # fails: NotAuthorized, and GetState shows no pause
#   ctr 'in-session bob idlegpu --pause'  # succeeds
#   ctr 'as-user alice idlegpu --pause --for 1h && idlegpu --status --json | grep -q "\"source\": \"system\""'

POLKIT_RULES='polkit.addRule(function(action, subject) {
    if (action.id == "io.github.idlegpu.pause" && subject.isInGroup("gpu-users"))
        return polkit.Result.YES;
});
'
AS_USER='#!/bin/sh
# as-user USER CMD...: CMD as USER with its groups, in no login session.
user=$1; shift
exec setpriv --reuid="$user" --regid="$user" --init-groups -- env -i HOME="$(getent passwd "$user" | cut -d: -f6)" \
    USER="$user" LOGNAME="$user" PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 "$@"
'
HIDEPID='#!/bin/sh
# hidepid invisible|off: the hidepid of the machine'"'"'s /proc.
exec mount -o remount,hidepid="$1" /proc
'
IN_SESSION='#!/bin/sh
# in-session USER CMD...: CMD as USER in a new, active logind session on seat0 (PAM "login" with pam_systemd).
user=$1; shift
exec systemd-run --quiet --wait --pipe --collect -p PAMName=login -p User="$user" -p WorkingDirectory=~ \
    -E XDG_SEAT=seat0 -E XDG_SESSION_TYPE=tty -E XDG_SESSION_CLASS=user -E LANG=C.UTF-8 -- "$@"
'

DS='#!/bin/sh
# ds METHOD ARG...: a call of the service by dbus-send (ARG as dbus-send takes them: string:S, uint64:N,
# array:byte:B,B,...), which says an error'"'"'s name where busctl says only its message: "Error NAME: message".
m=$1; shift
exec dbus-send --system --print-reply --reply-timeout=30000 --dest=io.github.idlegpu.Idlegpu1 /io/github/idlegpu/Idlegpu1 \
    "io.github.idlegpu.Idlegpu1.$m" "$@" 2>&1
'
SET_CONFIG='#!/bin/sh
# set-config FILE ETAG: SetConfig with FILE'"'"'s bytes (by ds).
exec ds SetConfig "array:byte:$(od -An -tu1 -v "$1" | tr -s " \n" "," | sed "s/^,//; s/,$//")" "string:$2"
'
PK_VERDICT='#!/bin/sh
# pk-verdict ACTION: polkit'"'"'s verdict on ACTION for this process (pkcheck exit status): 0 authorized, 1 not,
# 2 an authentication would be needed and no agent answers.
pkcheck --action-id "$1" --process $$ >/dev/null 2>&1
echo $?
'

scenario_dbus_setup() {
    ctr 'set -e
         printf "%s" "$1" >/usr/local/bin/as-user; printf "%s" "$2" >/usr/local/bin/in-session
         printf "%s" "$3" >/usr/local/bin/pk-verdict; printf "%s" "$4" >/usr/local/bin/hidepid
         printf "%s" "$6" >/usr/local/bin/set-config; printf "%s" "$7" >/usr/local/bin/ds
         chmod 0755 /usr/local/bin/as-user /usr/local/bin/in-session /usr/local/bin/pk-verdict /usr/local/bin/hidepid \
             /usr/local/bin/set-config /usr/local/bin/ds
         install -d -m 0755 /etc/polkit-1/rules.d
         printf "%s" "$5" >/etc/polkit-1/rules.d/50-idlegpu.rules' "$AS_USER" "$IN_SESSION" "$PK_VERDICT" "$HIDEPID" \
        "$POLKIT_RULES" "$SET_CONFIG" "$DS" || return 1
    # The package's actions, as polkitd reads them.
    ctrv 'pkaction --action-id io.github.idlegpu.pause --verbose && pkaction --action-id io.github.idlegpu.configure --verbose'
    local actions=$REPLY
    echo "$actions" | grep -E '^(io|  implicit)'
    [[ "$actions" == *"implicit any:      auth_admin"$'\n'"  implicit inactive: auth_admin"$'\n'"  implicit active:   yes"* ]] ||
        { echo "FAIL: io.github.idlegpu.pause's defaults as polkitd reads them"; return 1; }
    [[ "$actions" == *"implicit any:      auth_admin_keep"$'\n'"  implicit inactive: auth_admin_keep"$'\n'"  implicit active:   auth_admin_keep"* ]] ||
        { echo "FAIL: io.github.idlegpu.configure's defaults as polkitd reads them"; return 1; }
    # A session of bob's, as logind sees it from inside, and polkit's verdicts.
    ctrv 'in-session bob sh -c "loginctl show-session \$XDG_SESSION_ID -p Seat -p Class -p Type -p Active -p State | tr \"\n\" \" \""'
    echo "bob's session: $REPLY"
    local session=$REPLY failed=0 who action expected got
    [[ "$session" == *"Active=yes"* ]] || { echo "FAIL: the session is not active"; failed=1; }
    while read -r who action expected; do
        case $who in
            root) ctrv 'pk-verdict "$1"' "io.github.idlegpu.$action" ;;
            bob-session) ctrv 'in-session bob pk-verdict "$1"' "io.github.idlegpu.$action" ;;
            *) ctrv 'as-user "$1" pk-verdict "$2"' "$who" "io.github.idlegpu.$action" ;;
        esac
        got=$REPLY
        printf '  %-12s %-10s %s\n' "$who" "$action" "$([ "$got" = 0 ] && echo authorized || echo "not authorized (pkcheck $got)")"
        [ "$got" = "$expected" ] || { echo "FAIL: polkit's verdict for $who on $action is $got, not $expected"; failed=1; }
    done <<'VERDICTS'
root        pause     0
alice       pause     0
bob-session pause     0
bob         pause     2
carol       pause     2
alice       configure 2
bob-session configure 2
root        configure 0
VERDICTS
    # hidepid, as the hidepid scenario will use it: bob sees alice's processes, then none, then again.
    ctrv 'systemd-run --quiet --unit=alice-job --uid=alice sleep 100005
          for _ in $(seq 100); do pgrep -u alice -f "sleep 100005" >/dev/null && break; sleep 0.05; done
          a=$(as-user bob pgrep -c -u alice); hidepid invisible; b=$(as-user bob pgrep -c -u alice); r=$(pgrep -c -u alice)
          hidepid off; c=$(as-user bob pgrep -c -u alice); systemctl stop alice-job
          echo "$a $b $r $c"'
    echo "alice's processes that bob sees: $(awk '{ print $1 " with hidepid=off, " $2 " with invisible (root: " $3 "), " $4 " after" }' <<<"$REPLY")"
    [ "$REPLY" = "1 0 1 1" ] || { echo "FAIL: hidepid in the container"; failed=1; }
    return $failed
}

# The bus policy file on the real system bus: only root may own the name; every user may call the service on its
# interface, Introspectable and Peer, and nothing else. A stand-in owns the name (dbus-test-tool echo: it answers
# every call with an empty reply), so this needs the service stopped.
scenario_dbus_policy() {
    local failed=0 name=io.github.idlegpu.Idlegpu1 path=/io/github/idlegpu/Idlegpu1
    ctr 'systemctl stop idlegpu 2>/dev/null || true'  # the service owns the name once it runs
    ctrv 'busctl call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus RequestName su "$1" 4' "$name"
    echo "root asks for the name: $REPLY"
    [ "$REPLY" = "u 1" ] || { echo "FAIL: root may not own $name"; failed=1; }
    ctrv 'as-user bob busctl call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus RequestName su "$1" 4' "$name"
    echo "bob asks for the name: $REPLY"
    [[ "$REPLY" == *"ccess denied"* || "$REPLY" == *"not allowed to own"* ]] || { echo "FAIL: bob was not refused the name"; failed=1; }
    ctr 'systemd-run --quiet --unit=busname-standin -p Type=dbus -p BusName="$1" dbus-test-tool echo --system --name="$1"' "$name" ||
        { echo "FAIL: the stand-in did not get the name"; return 1; }
    local interface method expected
    while read -r interface method expected; do
        local answered=answered
        ctrv 'as-user bob busctl call "$1" "$2" "$3" "$4"' "$name" "$path" "$interface" "$method" || answered="refused: $REPLY"
        printf '  bob calls %-40s %s\n' "$interface.$method" "$answered"
        case $expected in
            allowed) [[ "$REPLY" != *"ccess denied"* && "$REPLY" != *"AccessDenied"* && "$REPLY" != *"Rejected"* ]] ;;
            denied) [[ "$REPLY" == *"ccess denied"* || "$REPLY" == *"AccessDenied"* || "$REPLY" == *"Rejected"* ]] ;;
        esac || { echo "FAIL: bob's call of $interface.$method was not $expected"; failed=1; }
    done <<'CALLS'
io.github.idlegpu.Idlegpu1          GetState   allowed
org.freedesktop.DBus.Introspectable Introspect allowed
org.freedesktop.DBus.Peer           Ping       allowed
org.freedesktop.DBus.Properties     GetAll     denied
org.example.Other                   Anything   denied
CALLS
    ctr 'systemctl stop busname-standin'
    return $failed
}

# The service on the machine's bus, with polkit's real verdicts: a user's status; a pause refused to carol (no session,
# auth_admin) that changes nothing; granted to bob at the computer (allow_active) and to alice through the rule
# (gpu-users); the workload stopped while paused and back once resumed. Until the service owns its name (the D-Bus
# service of issue 30), it says so and checks nothing.
SERVICE_CALL='busctl call --timeout=30 io.github.idlegpu.Idlegpu1 /io/github/idlegpu/Idlegpu1 io.github.idlegpu.Idlegpu1'
scenario_dbus_service() {
    ctr 'systemctl restart idlegpu' || return 1
    ctrv 'for _ in $(seq 20); do busctl status io.github.idlegpu.Idlegpu1 >/dev/null 2>&1 && break; sleep 0.05; done
          busctl status io.github.idlegpu.Idlegpu1 2>/dev/null | grep -E "^(UID|Comm)="'
    if [[ "$REPLY" != *"UID=0"* ]]; then
        echo "NOT CHECKED: the service does not own io.github.idlegpu.Idlegpu1 on the system bus (yet)"
        return 0
    fi
    echo "owner: $(tr '\n' ' ' <<<"$REPLY")"
    local failed=0
    check "the workload runs" cwait 10 "$WORKLOAD_PID" || return 1
    # A user's status: the state, open to every user.
    ctrv 'as-user bob '"$SERVICE_CALL"' GetState'
    [[ "$REPLY" == "ts "* && "$REPLY" == *miner* ]] || { echo "FAIL: bob's GetState: ${REPLY:0:300}"; failed=1; }
    echo "bob's GetState: ${REPLY:0:120}…"
    # Refused: carol, outside any session, may not pause; nothing changes.
    ctrv 'as-user carol '"$SERVICE_CALL"' Pause st "" 0'
    echo "carol's Pause: $REPLY"
    [[ "$REPLY" == *"ot authorized"* || "$REPLY" == *"NotAuthorized"* || "$REPLY" == *"InteractionRequired"* ||
       "$REPLY" == *"nteraction"* ]] || { echo "FAIL: carol's pause was not refused"; failed=1; }
    ctr 'sleep 1.5; '"$WORKLOAD_PID"' >/dev/null' || { echo "FAIL: the workload stopped after a refused pause"; failed=1; }
    # Granted: bob at the computer pauses all; the workload stops. alice (gpu-users) resumes; it is back.
    ctrv 'in-session bob '"$SERVICE_CALL"' Pause st "" 0'
    echo "bob's Pause (active session): ${REPLY:-done}"
    check "the workload still runs after bob's pause" cwait 10 "! $WORKLOAD_PID" || failed=1
    ctrv 'as-user alice '"$SERVICE_CALL"' Resume s ""'
    echo "alice's Resume (gpu-users): ${REPLY:-done}"
    check "the workload did not come back after alice's resume" cwait 10 "$WORKLOAD_PID" || failed=1
    return $failed
}

# Waits until the service owns its name (after a restart): fails after 10 s.
service_named() { cwait 10 'busctl status io.github.idlegpu.Idlegpu1'; }

# The configuration edited through the service. root: GetConfig gives the file and its etag; SetConfig replaces it
# byte for byte (comments kept, the mode kept) and the service applies it (the new name shows in GetState). bob, even
# at the computer (configure is auth_admin_keep everywhere): refused, the file unchanged. A broken text: InvalidConfig
# with FILE:LINE, nothing written. A stale etag: Conflict.
scenario_dbus_config() {
    local failed=0
    service_named || { echo "FAIL: the service does not own its name"; return 1; }
    ctrv 'f=/etc/idlegpu/idlegpu.conf; etag=$(sha256sum <$f | cut -c1-64)
          reply=$('"$SERVICE_CALL"' GetConfig 2>&1) || { echo "$reply"; exit 1; }
          echo "root'"'"'s GetConfig: $(echo "$reply" | cut -c1-48)… $(echo "$reply" | grep -o "\"[0-9a-f]*\"$")"
          case $reply in "says \"$f\" $(wc -c <$f) "*" \"$etag\"") ;; *) echo "not the file and its etag $etag"; exit 1 ;; esac'
    local status=$?
    echo "$REPLY"
    [ $status = 0 ] || { echo "FAIL: root's GetConfig"; failed=1; }
    ctrv 'in-session bob '"$SERVICE_CALL"' GetConfig'
    echo "bob's GetConfig (active session): $REPLY"
    [[ "$REPLY" == *NotAuthorized* || "$REPLY" == *"ot authorized"* || "$REPLY" == *nteraction* ]] || { echo "FAIL: bob read the configuration"; failed=1; }
    # The edit: a comment and a name for the workload; refused to bob, then root's, applied.
    ctrv 'f=/etc/idlegpu/idlegpu.conf; cp $f /tmp/before; etag=$(sha256sum <$f | cut -c1-64)
          { echo "# edited through the service: this comment stays"; sed "s/^user = alice$/&\nname = miner-via-dbus/" $f; } >/tmp/new.conf
          chmod 0644 /tmp/new.conf
          echo "bob'"'"'s SetConfig (active session): $(in-session bob set-config /tmp/new.conf $etag 2>&1)"
          cmp -s /tmp/before $f && echo "the file unchanged byte for byte" || { echo "bob changed the file"; exit 1; }
          reply=$(set-config /tmp/new.conf $etag 2>&1) || { echo "root'"'"'s SetConfig: $reply"; exit 1; }
          cmp -s /tmp/new.conf $f || { echo "the file is not what root sent"; exit 1; }
          echo "root'"'"'s SetConfig: the file is the text sent, comments included; mode $(stat -c %a $f)"
          t0=$(date +%s%N)
          for _ in $(seq 200); do
              '"$SERVICE_CALL"' GetState | grep -q miner-via-dbus && { echo "applied: the new name in GetState after $(( ($(date +%s%N) - t0) / 1000000 )) ms"; exit 0; }
              sleep 0.05
          done
          echo "the new name is not in GetState 10 s later"; exit 1'
    status=$?
    echo "$REPLY"
    [ $status = 0 ] && [[ "$REPLY" =~ "bob's SetConfig (active session): Error io.github.idlegpu.Idlegpu1.Error."(NotAuthorized|InteractionRequired) ]] ||
        { echo "FAIL: the edit (bob refused, root granted and applied)"; failed=1; }
    # A broken text and a stale etag: refused, nothing written.
    ctrv 'f=/etc/idlegpu/idlegpu.conf; cp $f /tmp/before; etag=$(sha256sum <$f | cut -c1-64)
          sed "s/^interval_seconds = 1$/interval_seconds = banana/" $f >/tmp/broken.conf
          echo "a broken text: $(set-config /tmp/broken.conf $etag 2>&1)"
          cmp -s /tmp/before $f && echo "the file unchanged" || echo "THE FILE CHANGED"
          echo "a stale etag: $(set-config /tmp/new.conf $(sha256sum </root/idlegpu.conf | cut -c1-64) 2>&1)"
          cmp -s /tmp/before $f && echo "the file unchanged" || echo "THE FILE CHANGED"'
    echo "$REPLY"
    [[ "$REPLY" == *"a broken text: Error io.github.idlegpu.Idlegpu1.Error.InvalidConfig: /etc/idlegpu/idlegpu.conf:"[0-9]* ]] || { echo "FAIL: the broken text was not refused with InvalidConfig FILE:LINE"; failed=1; }
    [[ "$REPLY" == *"a stale etag: Error io.github.idlegpu.Idlegpu1.Error.Conflict: "* ]] || { echo "FAIL: the stale etag was not refused with Conflict"; failed=1; }
    [[ "$REPLY" != *"THE FILE CHANGED"* ]] || failed=1
    restore_service
    return $failed
}

# hidepid: carol's job holds the GPU (its comm: carols-job). With the machine's /proc at hidepid=invisible, bob's
# GetState names neither its pid, user nor comm (hidden_holders counts it) while root's does; with hidepid off bob
# sees it all. The service reads the caller's /proc/PID/mountinfo from inside its sandbox (ProtectProc=invisible: it
# sees other users' processes only with CAP_SYS_PTRACE, which the unit keeps); if it could not, it would hide the
# holder from bob with hidepid off too.
scenario_dbus_hidepid() {
    local failed=0 status
    ctrv 'main=$(systemctl show -p MainPID --value idlegpu); cap=$(sed -n "s/^CapEff:\t*//p" /proc/$main/status)
          echo "the service: ProtectProc=$(systemctl show -p ProtectProc --value idlegpu), CapEff $cap, CAP_SYS_PTRACE $(( (0x$cap >> 19) & 1 )), its /proc: $(nsenter -t $main -m findmnt -n -o OPTIONS /proc)"'
    echo "$REPLY"
    ctr 'install -m 0755 /usr/bin/sleep /usr/local/bin/carols-job
         systemd-run --quiet --unit=carol-job --uid=carol --gid=carol sh -c \
             "exec 3</srv/fakegpu/nvidiactl 4</srv/fakegpu/nvidia-uvm 5</srv/fakegpu/nvidia0; exec carols-job 100007"'
    # Stopped, and its last exit says by what (root sees it: "stopped: carols-job (carol, pid N) opened GPU 0").
    if check "the workload did not stop for carol's job" cwait 10 "! $WORKLOAD_PID" &&
       check "the workload's last exit does not name carol's job for root" \
           cwait 10 "$SERVICE_CALL GetState | grep -q 'last_exit[^,]*stopped: carols-job'"; then
        ctrv 'pid=$(pgrep -x carols-job)
              view() { st=$("$@" '"$SERVICE_CALL"' GetState 2>&1)
                       echo "pid $(echo "$st" | grep -c -F -e "pid\\\":$pid," -e "pid\\\":$pid}") user $(echo "$st" | grep -c -F "\\\"carol\\\"") comm $(echo "$st" | grep -c carols-job) hidden_holders $(echo "$st" | grep -o "hidden_holders[^0-9]*[0-9]*" | grep -o "[0-9]*$")"; }
              hidepid invisible
              echo "hidepid=invisible: bob sees $(view as-user bob)"
              echo "hidepid=invisible: root sees $(view)"
              hidepid off
              echo "hidepid=off: bob sees $(view as-user bob)"'
        status=$?
        echo "$REPLY"
        [ $status = 0 ] && [[ "$REPLY" == *"hidepid=invisible: bob sees pid 0 user 0 comm 0 hidden_holders 1"* &&
                              "$REPLY" == *"hidepid=invisible: root sees pid 1 user 1 comm 1 hidden_holders 0"* &&
                              "$REPLY" == *"hidepid=off: bob sees pid 1 user 1 comm 1 hidden_holders 0"* ]] ||
            { echo "FAIL: what bob and root see of carol's job"; failed=1; }
    else
        failed=1
    fi
    ctr 'hidepid off; systemctl stop carol-job'
    check "the workload did not come back after carol's job" cwait 10 "$WORKLOAD_PID" || failed=1
    # Not checked (the redaction knows only the holders of now): what the last exit says once the job is gone.
    ctrv 'hidepid invisible; as-user bob '"$SERVICE_CALL"' GetState | grep -o "last_exit[^,]*"; hidepid off'
    echo "once carol's job ended, bob's view with hidepid=invisible: $REPLY"
    return $failed
}

# state-view: how often the answer on stdin names carol's job (its pid from /tmp/carol.pid: the caller may see no
# such process), her user name and the job's comm, and the GPU's hidden_holders; "(from the system service)" where
# the answer says so (idlegpu --status --json); where it names the job, "NAMED:" and the holders as it gives them.
# Spaces, newlines and backslashes are dropped first, so that busctl's escaped string, dbus-send's raw one and
# idlegpu's indented JSON read alike ("pid":N in a holder, "pid N" in a last exit's words).
STATE_VIEW='#!/bin/sh
a=$(tr -d " \n\\\\"); pid=$(cat /tmp/carol.pid)
case $a in *miner*) ;; *) echo "no answer: $(echo "$a" | cut -c1-200)"; exit 1 ;; esac
n() { echo "$a" | grep -o -E "$1" | wc -l; }
printf "pid %s user %s comm %s hidden_holders %s" "$(n "pid\"?:?$pid([^0-9]|\$)")" "$(n "carol([^s]|\$)")" \
    "$(n carols-job)" "$(echo "$a" | grep -o "hidden_holders\":[0-9]*" | grep -o "[0-9]*\$" | tr "\n" " ")"
case $a in *\"source\":\"system\"*) printf "(from the system service)" ;; esac
[ "$(n carols-job)" = 0 ] || printf " NAMED: %s" "$(echo "$a" | grep -o -E "\"holders\":\[[^]]*\]" | head -n 1 | cut -c1-200)"
echo
'
# in-pidns CMD...: run by `unshare ... in-pidns CMD...`: checks the attack's premise (a PID namespace of its own, a
# /proc without hidepid on top), says it, and pipes CMD's answer through state-view.
IN_PIDNS='#!/bin/sh
opts=$(findmnt -n -o OPTIONS /proc | tail -n 1)
case $opts in *hidepid*) echo "the namespace'"'"'s /proc has $opts"; exit 1 ;; esac
[ $$ = 1 ] || { echo "not pid 1 of a PID namespace of its own (pid $$)"; exit 1; }
printf "(uid %s, pid 1 of a PID namespace of its own, /proc %s) " "$(id -u)" "$opts"
"$@" 2>&1 | state-view
'

# hidepid through a user namespace (the hole 43fddf1 closed): bob makes a PID namespace of his own with a /proc of
# his own, without hidepid (`unshare -Urpf --mount-proc`, which any user may run on Debian 12), and calls the service
# from inside. The service must not judge him by that /proc: with the machine's /proc at hidepid=invisible, his answer
# names neither the pid, the user nor the comm of carol's job that holds the GPU (hidden_holders counts it), exactly
# as his calls from outside the namespace (the control), while root's names all three. Three clients: busctl (sd-bus)
# under -r (uid 0 inside; sd-bus authenticates by the socket's credentials); dbus-send and `idlegpu --status --json`
# (libdbus, as QtDBus) under --map-current-user instead: libdbus names its uid as the namespace sees it in the EXTERNAL
# authentication, 0 under -r, which the bus refuses (it sees 1000), so under -r it cannot connect at all.
# Inside each namespace the scenario first checks the attack's premise (a PID namespace of its own, a /proc without
# hidepid), so that a redacted answer cannot come from a namespace that was never made.
# What it needs: the kernel lets an unprivileged user make a user namespace (user.max_user_namespaces > 0; on a Debian
# kernel kernel.unprivileged_userns_clone = 1, Debian 12's default; not kernel.apparmor_restrict_unprivileged_userns =
# 1 as on Ubuntu); nspawn runs the container in the host's user namespace (no --private-users) with its default system
# call filter (which keeps unshare and clone); and the kernel lets that user namespace mount a proc (it wants a proc
# mount fully visible in the mount namespace; tried: nspawn 252's overmounts of /proc leave that possible, kernel
# 6.18). Where one of these is missing, bob's `unshare` fails: the scenario is skipped (SKIPPED in the summary) with
# unshare's own message and those sysctls, never passed.
scenario_dbus_hidepid_userns() {
    local status probe failed=0
    ctrv 'printf "%s" "$1" >/usr/local/bin/state-view; printf "%s" "$2" >/usr/local/bin/in-pidns
          chmod 0755 /usr/local/bin/state-view /usr/local/bin/in-pidns; install -m 0755 /usr/bin/sleep /usr/local/bin/carols-job
          as-user bob unshare -Upf -r --mount-proc true 2>&1 && as-user bob unshare -Upf --map-current-user --mount-proc true 2>&1' \
        "$STATE_VIEW" "$IN_PIDNS"
    status=$? probe=$REPLY
    if [ $status != 0 ]; then
        ctrv 'for s in user/max_user_namespaces kernel/unprivileged_userns_clone kernel/apparmor_restrict_unprivileged_userns; do
                  [ -e /proc/sys/$s ] && printf "%s=%s, " "$(echo $s | tr / .)" "$(cat /proc/sys/$s)"
              done; echo "kernel $(uname -r)"'
        echo "SKIPPED: bob cannot make a user and PID namespace with a /proc of its own here: ${probe:-unshare exit status $status} ($REPLY)"
        return 77
    fi
    ctr 'systemd-run --quiet --unit=carol-job-ns --uid=carol --gid=carol sh -c \
             "exec 3</srv/fakegpu/nvidiactl 4</srv/fakegpu/nvidia-uvm 5</srv/fakegpu/nvidia0; exec carols-job 100009"'
    if check "the service does not show carol's job as the GPU's holder to root" \
           cwait 10 "$SERVICE_CALL GetState | grep -q carols-job"; then
        ctrv 'pgrep -x carols-job >/tmp/carol.pid; chmod 0644 /tmp/carol.pid
              hidepid invisible
              echo "root: $('"$SERVICE_CALL"' GetState | state-view)"
              echo "bob, busctl: $(as-user bob '"$SERVICE_CALL"' GetState | state-view)"
              echo "bob, dbus-send: $(as-user bob ds GetState | state-view)"
              echo "bob, idlegpu --status --json: $(as-user bob idlegpu --status --json | state-view)"
              echo "bob in unshare -Urpf --mount-proc, busctl: $(as-user bob unshare -Urpf --mount-proc in-pidns '"$SERVICE_CALL"' GetState)"
              echo "bob in unshare -Upf --map-current-user --mount-proc, dbus-send: $(as-user bob unshare -Upf --map-current-user --mount-proc in-pidns ds GetState)"
              echo "bob in unshare -Upf --map-current-user --mount-proc, idlegpu --status --json: $(as-user bob unshare -Upf --map-current-user --mount-proc in-pidns idlegpu --status --json)"
              hidepid off'
        status=$?
        echo "$REPLY"
        local line seen=0
        [[ "$REPLY" =~ "root: pid "[1-9][0-9]*" user "[1-9][0-9]*" comm "[1-9][0-9]*" hidden_holders 0 " ]] ||
            { echo "FAIL: root's answer does not name carol's job (pid, user, comm)"; failed=1; }
        while IFS= read -r line; do
            [[ "$line" == bob* ]] || continue
            seen=$((seen + 1))
            [[ "$line" == *"pid 0 user 0 comm 0 hidden_holders 1 "* ]] ||
                { echo "FAIL: ${line%%:*}: carol's job is named (or no answer)"; failed=1; }
            [[ "$line" != *idlegpu* || "$line" == *"(from the system service)"* ]] ||
                { echo "FAIL: ${line%%:*}: the answer is not the system service's"; failed=1; }
        done <<<"$REPLY"
        [ $status = 0 ] && [ $seen = 6 ] || { echo "FAIL: bob's six views"; failed=1; }
    else
        failed=1
    fi
    ctr 'hidepid off; systemctl stop carol-job-ns; rm -f /tmp/carol.pid'
    check "the workload did not come back after carol's job" cwait 10 "$WORKLOAD_PID" || failed=1
    return $failed
}

# A caller that floods: bob, 4 loops of GetState for 3 s (each call a dbus-send: the rate a shell reaches); meanwhile
# carol's GetState answers at once and a preemption happens (carol's job opens the GPU; the workload stops).
scenario_dbus_flood() {
    local status
    check "no workload" cwait 10 "$WORKLOAD_PID" || return 1
    ctrv '
          cat >/tmp/flood.sh <<"FLOOD"
end=$(( $(date +%s%N) + 3000000000 )); ok=0; limited=0; other=0
while [ $(date +%s%N) -lt $end ]; do
    case $(ds GetState | head -c 200) in
        *Error.RateLimited*) limited=$((limited + 1)) ;;
        *Error*) other=$((other + 1)) ;;
        *) ok=$((ok + 1)) ;;
    esac
done
echo "$ok $limited $other"
FLOOD
          pids=""
          for i in 1 2 3 4; do as-user bob sh /tmp/flood.sh >/tmp/flood.$i 2>&1 & pids="$pids $!"; done
          trap "kill $pids 2>/dev/null; systemctl stop flood-job 2>/dev/null" EXIT
          sleep 1
          times=""
          for _ in 1 2 3 4 5; do
              t0=$(date +%s%N); as-user carol ds GetState | grep -q Error && { echo "carol: an error"; exit 1; }
              times="$times $(( ($(date +%s%N) - t0) / 1000000 ))"
          done
          echo "carol'"'"'s GetState during the flood (ms, each with its as-user):$times"
          old=$('"$WORKLOAD_PID"'); t0=$(date +%s%N)
          systemd-run --quiet --unit=flood-job --uid=carol --gid=carol sh -c "exec 3</srv/fakegpu/nvidiactl 4</srv/fakegpu/nvidia-uvm 5</srv/fakegpu/nvidia0; exec sleep 100008"
          stopped=""
          for _ in $(seq 200); do kill -0 $old 2>/dev/null || { stopped=$(( ($(date +%s%N) - t0) / 1000000 )); break; }; sleep 0.02; done
          echo "preemption during the flood: ${stopped:-none in 4 s} ms from the job'"'"'s start to the workload gone"
          wait $pids
          cat /tmp/flood.* | awk "{ ok += \$1; limited += \$2; other += \$3 } END { printf \"bob: %d calls in 3 s (%.0f/s): %d answered, %d RateLimited, %d other errors\n\", ok + limited + other, (ok + limited + other) / 3, ok, limited, other }"
          systemctl stop flood-job
          [ -n "$stopped" ]'
    status=$?
    echo "$REPLY"
    check "the workload did not come back after the flood" cwait 10 "$WORKLOAD_PID" || status=1
    [ $status = 0 ] || { echo "FAIL: the flood"; return 1; }
}

# A restart followed: bob polls GetState every 50 ms while the service restarts; the name comes back (the time from
# `systemctl restart` to the new process owning it), and bob's calls after it are answered.
scenario_dbus_restart() {
    local status
    service_named || { echo "FAIL: the service does not own its name"; return 1; }
    ctrv '
          as-user bob sh -c "while :; do echo \$(date +%s%N) \$(ds GetState | sed -n \"1s/^Error \\([^:]*\\):.*/\\1/p; 1s/^method return.*/ok/p\"); sleep 0.05; done" \
              >/tmp/poll.log 2>&1 &
          poller=$!; trap "kill $poller 2>/dev/null" EXIT
          old=$(busctl status io.github.idlegpu.Idlegpu1 | sed -n "s/^PID=//p")
          sleep 0.3; t0=$(date +%s%N)
          systemctl restart idlegpu & restart=$!
          owned=""
          for _ in $(seq 400); do
              new=$(busctl status io.github.idlegpu.Idlegpu1 2>/dev/null | sed -n "s/^PID=//p")
              [ -n "$new" ] && [ "$new" != "$old" ] && { owned=$(( ($(date +%s%N) - t0) / 1000000 )); break; }
              sleep 0.01
          done
          wait $restart; ready=$(( ($(date +%s%N) - t0) / 1000000 ))
          sleep 0.5; kill $poller
          echo "the name owned by the new process ${owned:-never} ms after systemctl restart (which returned after $ready ms)"
          awk -v t0=$t0 "\$1 > t0 { n++; if (\$2 != \"ok\") { e++; names[\$2] = 1 } } { s = \$2 } END { for (x in names) l = l \" \" x; printf \"bob: %d polls from the restart on, %d of them errors (%s ), the last %s\n\", n, e, l, s }" /tmp/poll.log
          [ -n "$owned" ] && [ "$(tail -n 1 /tmp/poll.log | cut -d" " -f2)" = ok ] && as-user bob '"$SERVICE_CALL"' GetState >/dev/null'
    status=$?
    echo "$REPLY"
    [ $status = 0 ] || { echo "FAIL: the restart was not followed"; return 1; }
    # The command line, where it asks the service (idlegpu --status through the bus, with --pause beside it).
    ctrv 'idlegpu --help | grep -q -- --pause || { echo "NOT CHECKED: this idlegpu'"'"'s --status does not ask the service"; exit 0; }
          as-user bob idlegpu --status --json | grep "\"source\""'
    status=$?
    echo "bob's idlegpu --status --json after the restart: $REPLY"
    [ $status = 0 ] && [[ "$REPLY" == "NOT CHECKED"* || "$REPLY" == *'"source": "system"'* ]] ||
        { echo "FAIL: bob's idlegpu --status did not ask the service"; return 1; }
}

# Bad input on the real bus: each refused with its error, and the service answers after.
scenario_dbus_bad_input() {
    local failed=0
    ctrv '
          echo "a 300-byte workload id: $(ds Pause string:$(printf "%0300d" 0 | tr 0 x) uint64:0)"
          echo "a pause of 31 days: $(ds Pause string: uint64:2678400)"
          echo "a wrong signature: $(ds Pause string:)"
          echo "an unknown workload: $(ds Pause string:no-such-workload uint64:0)"
          echo "an etag that is not 64 hex digits: $(ds SetConfig array:byte:10 string:xyz)"
          echo "an unknown method: $(ds Frobnicate)"'
    echo "$REPLY"
    while IFS='|' read -r what error; do
        grep -q "^$what: Error $error" <<<"$REPLY" || { echo "FAIL: $what was not refused with $error"; failed=1; }
    done <<'ERRORS'
a 300-byte workload id|io.github.idlegpu.Idlegpu1.Error.InvalidArgument
a pause of 31 days|io.github.idlegpu.Idlegpu1.Error.InvalidArgument
a wrong signature|org.freedesktop.DBus.Error.InvalidArgs
an unknown workload|io.github.idlegpu.Idlegpu1.Error.UnknownWorkload
an etag that is not 64 hex digits|io.github.idlegpu.Idlegpu1.Error.InvalidArgument
an unknown method|org.freedesktop.DBus.Error.UnknownMethod
ERRORS
    ctr "$WORKLOAD_PID"' >/dev/null && '"$SERVICE_CALL"' GetState >/dev/null' || { echo "FAIL: the service after bad input"; failed=1; }
    # A caller that leaves mid-call: carol (no session: auth_admin) pauses with interaction allowed; her agent
    # (pkttyagent on a terminal that nobody types into) asks for root's password; her busctl is killed while polkit
    # waits. The service answers others at once, pauses nothing, and has polkit's check cancelled (the agent's
    # password helper goes).
    ctrv 'mkfifo -m 0666 /tmp/agent-ready /tmp/agent-tty
          as-user carol script -qec "sh -c '"'"'pkttyagent --process \$\$ --notify-fd 3 3>/tmp/agent-ready & cat /tmp/agent-ready
              exec busctl call --allow-interactive-authorization=yes --timeout=60 io.github.idlegpu.Idlegpu1 \
              /io/github/idlegpu/Idlegpu1 io.github.idlegpu.Idlegpu1 Pause st \"\" 0'"'"'" /dev/null </tmp/agent-tty >/tmp/agent.out 2>&1 &
          script=$!; exec 8>/tmp/agent-tty; trap "kill $script 2>/dev/null" EXIT
          for _ in $(seq 200); do pgrep -f "^/usr/lib/polkit-1/polkit-agent-helper-1" >/dev/null && break; sleep 0.05; done
          pgrep -f "^/usr/lib/polkit-1/polkit-agent-helper-1" >/dev/null || { echo "polkit asked no agent"; cat /tmp/agent.out; exit 1; }
          echo "carol'"'"'s pause waits for a password: $(tr -d "\r" </tmp/agent.out | grep -m1 "Authenticating as")"
          t0=$(date +%s%N); kill $(pgrep -u carol -x busctl)
          '"$SERVICE_CALL"' GetState >/dev/null || exit 1
          echo "killed; root'"'"'s GetState answered $(( ($(date +%s%N) - t0) / 1000000 )) ms later"
          for _ in $(seq 100); do pgrep -f "^/usr/lib/polkit-1/polkit-agent-helper-1" >/dev/null || break; sleep 0.05; done
          pgrep -f "^/usr/lib/polkit-1/polkit-agent-helper-1" >/dev/null && { echo "the authentication still runs 5 s later"; exit 1; }
          echo "the authentication ended $(( ($(date +%s%N) - t0) / 1000000 )) ms after: $(journalctl -u polkit -o cat --no-pager | grep -m1 "FAILED to authenticate" | cut -c1-90)…"
          '"$WORKLOAD_PID"' >/dev/null || { echo "the workload stopped"; exit 1; }'
    local status=$?
    echo "$REPLY"
    [ $status = 0 ] || { echo "FAIL: a caller that left mid-call"; failed=1; }
    return $failed
}
