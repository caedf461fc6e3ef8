# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 The idlegpu authors
# shellcheck shell=bash
# The desktop suite's shared part (issue 22), sourced by tests/desktop/<desktop>.sh: a session of its own (temporary
# HOME and XDG_RUNTIME_DIR, a private session bus that can activate only the services named, a private "system" bus
# with the fake logind, Xvfb), processes started under setsid and stopped by process group, the tray seen from the
# bus (watcher, host, items, dbusmenu), notifications, idle time, screenshots, and the summary line.
#
# Order in a scenario (xfce.sh is the shortest example): desk_init; desk_xvfb (X11); desk_session_bus SERVICES;
# desk_system_bus FAKE_LOGIND; desk_trace_tray; desk_notify_capture_start; desk_login_start (the "before" idlegpu);
# desk_mark_desktop_start and the desktop; desk_wait_host; desk_idlegpu_start of "after"; desk_x11_checks, or the
# desk_check_* functions it calls (each records a failure with desk_error and goes on) and desk_print_times;
# desk_finish. A scenario that shows the machine's own service (xfce_service.sh) has the machine's side instead of
# desk_system_bus: desk_policy_system_bus with the package's policy, desk_polkitd, desk_polkit_rules.
# Everything started is stopped on any exit (trap), also on failure. Settings a scenario may change after sourcing:
# DESK_ACTIVATE_CLICK, DESK_CLICK_GAP_MS, DESK_BEFORE_REGISTER_LIMIT_MS, DESK_QPA, DESK_WINDOWS_IDLEGPU;
# DESK_KEEP_LOGS=1 in the environment keeps the logs of a passing run. Times are milliseconds since the epoch
# (desk_now_ms) unless a name says "after".

# --- Basics ---------------------------------------------------------------------------------------------------

# Now, in ms since the epoch (no process started: EPOCHREALTIME).
desk_now_ms() { local t=${EPOCHREALTIME//[.,]/}; echo $((t / 1000)); }
# A line on the scenario's stdout, prefixed with the scenario and the ms since desk_init.
desk_log() { echo "desktop $DESK_NAME [+$(($(desk_now_ms) - DESK_T0)) ms]: $*" >&"$DESK_OUT"; }
# Ends the scenario as failed (exit 1) with the reason; the trap cleans up.
desk_fail() {
    echo "desktop $DESK_NAME: FAILED: $*" >&"$DESK_ERR"
    exit 1
}
# Records a failed check and goes on with the others; desk_finish then exits 1.
desk_error() {
    echo "desktop $DESK_NAME: FAILED CHECK: $*" >&"$DESK_ERR"
    DESK_ERRORS+=("$*")
}
# Ends the scenario as skipped (exit 77, ctest's SKIP_RETURN_CODE) with the exact reason.
desk_skip() {
    echo "desktop $DESK_NAME: SKIPPED: $*" >&"$DESK_OUT"
    DESK_SKIPPED=1
    exit 77
}
# Exits 0, or 1 where desk_error recorded a failed check.
desk_finish() {
    if ((${#DESK_ERRORS[@]})); then
        desk_fail "${#DESK_ERRORS[@]} check(s) failed: $(printf '%s; ' "${DESK_ERRORS[@]}")"
    fi
    exit 0
}
# Skips unless every COMMAND is on PATH (Debian packages in scripts/common.sh).
desk_require_commands() {
    local command
    for command in "$@"; do
        command -v "$command" >/dev/null || desk_skip "$command is not installed"
    done
}
# Skips unless PATH exists; WHAT names it in the reason.
desk_require_path() { [ -e "$1" ] || desk_skip "${2:-$1} is not installed ($1 is missing)"; }

# wait_for SECONDS COMMAND [ARGS...]: polls COMMAND every 0.1 s until it succeeds; false once SECONDS have passed.
wait_for() {
    local deadline=$(($(desk_now_ms) + ${1%.*} * 1000))
    shift
    until "$@"; do
        (($(desk_now_ms) >= deadline)) && return 1
        sleep 0.1
    done
}
# No file (or anything else) at PATH.
desk_absent() { ! [ -e "$1" ]; }
# A process that exists and is not a zombie.
desk_alive() {
    local stat
    [ -n "$1" ] && read -r stat 2>/dev/null <"/proc/$1/stat" || return 1
    stat=${stat##*) }
    [ "${stat%% *}" != Z ]
}
# The process is gone (or a zombie).
desk_gone() { ! desk_alive "$1"; }

# desk_init NAME ARTIFACT_DIR: the scenario's temporary folder (DESK_TMP), HOME and XDG_RUNTIME_DIR in it (0700),
# nothing of the caller's desktop in the environment, the marker that the final sweep looks for, the trap.
desk_init() {
    DESK_NAME=${1:?desk_init NAME ARTIFACT_DIR}
    DESK_ARTIFACTS=${2:?desk_init NAME ARTIFACT_DIR}
    DESK_T0=$(desk_now_ms)
    # The scenario's own output, for messages from inside a redirection (a trap that fires during `cmd >/dev/null`).
    exec {DESK_OUT}>&1 {DESK_ERR}>&2
    DESK_PIDS=() DESK_ERRORS=() DESK_SKIPPED=0 DESK_T_DESKTOP="" DESK_XVFB_PID=""
    declare -gA DESK_PROCESS_NAMES=() DESK_IDLEGPU_PID=() DESK_IDLEGPU_START=()
    # Per idlegpu instance: its item's bus name and object, and its dbusmenu object (desk_check_orders).
    declare -gA DESK_SERVICE=() DESK_OBJECT=() DESK_MENU=()
    mkdir -p "$DESK_ARTIFACTS" || desk_fail "cannot create the artifact folder $DESK_ARTIFACTS"
    DESK_ARTIFACTS=$(cd "$DESK_ARTIFACTS" && pwd)
    rm -rf "$DESK_ARTIFACTS/desktop_${DESK_NAME}_"*
    DESK_TMP=$(mktemp -d "/tmp/idlegpu-desktop-$DESK_NAME.XXXXXX") || desk_fail "cannot create a temporary folder"
    chmod 0700 "$DESK_TMP"
    if ! mkdir -p "$DESK_TMP/logs" "$DESK_TMP/home" "$DESK_TMP/bus/services" || ! mkdir -m 0700 "$DESK_TMP/run"; then
        desk_fail "cannot fill $DESK_TMP"
    fi
    trap desk_cleanup EXIT
    trap 'desk_fail "interrupted"' INT TERM HUP
    unset DBUS_SESSION_BUS_ADDRESS DBUS_SYSTEM_BUS_ADDRESS DISPLAY WAYLAND_DISPLAY XAUTHORITY XDG_CURRENT_DESKTOP \
        XDG_SESSION_DESKTOP XDG_SESSION_TYPE DESKTOP_SESSION SESSION_MANAGER QT_QPA_PLATFORMTHEME QT_STYLE_OVERRIDE \
        GNOME_SHELL_SESSION_MODE KDE_FULL_SESSION KDE_SESSION_VERSION XDG_DATA_HOME XDG_CACHE_HOME XDG_STATE_HOME \
        QT_QPA_PLATFORM
    export HOME=$DESK_TMP/home XDG_RUNTIME_DIR=$DESK_TMP/run XDG_CONFIG_HOME=$DESK_TMP/home/.config
    # What every process of the session inherits, D-Bus-activated helpers too: the sweep finds them by it.
    export IDLEGPU_DESKTOP_MARK=$DESK_TMP
    # The session's id for the fake logind and idlegpu's DesktopIdlePoller alike.
    export XDG_SESSION_ID=desk
    export LANG=C.UTF-8 LC_ALL=C.UTF-8 NO_AT_BRIDGE=1
    # The system's own: a version manager's shim on PATH can take most of a second to start.
    DESK_PYTHON=/usr/bin/python3
    [ -x "$DESK_PYTHON" ] || DESK_PYTHON=$(command -v python3) || desk_skip "python3 is not installed"
    mkdir -p "$XDG_CONFIG_HOME"
    desk_log "temporary folder $DESK_TMP"
}

# desk_start NAME COMMAND [ARGS...]: starts COMMAND under setsid (its own process group, stopped whole at the end),
# output to $DESK_TMP/logs/NAME.log; DESK_PID is its pid (the group's id).
desk_start() {
    local name=$1
    shift
    setsid "$@" >"$DESK_TMP/logs/$name.log" 2>&1 </dev/null {DESK_OUT}>&- {DESK_ERR}>&- &
    DESK_PID=$!
    DESK_PIDS+=("$DESK_PID")
    DESK_PROCESS_NAMES[$DESK_PID]=$name
    desk_log "started $name (pid $DESK_PID): $*"
}
# The log of a process started by desk_start, by its NAME.
desk_log_file() { echo "$DESK_TMP/logs/$1.log"; }
# The last lines of the logs NAME... for a failure message.
desk_log_tails() {
    local name
    for name in "$@"; do
        echo "--- last lines of $name.log:"
        tail -n "${DESK_TAIL_LINES:-15}" "$DESK_TMP/logs/$name.log" 2>/dev/null
    done
}
# The desktop's first process starts now: the origin of the DESKTOP-TIMES figures.
desk_mark_desktop_start() { DESK_T_DESKTOP=$(desk_now_ms); }

# The processes with the marker in their environment (D-Bus-activated helpers escape the process groups).
desk_marked_processes() {
    local candidates pid left=()
    candidates=$(grep -lsxzF "IDLEGPU_DESKTOP_MARK=$DESK_TMP" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3)
    for pid in $candidates; do
        # This shell, and the grep of the line above (gone by now, its pid not reused so soon).
        ((pid == $$)) && continue
        desk_alive "$pid" && left+=("$pid")
    done
    echo "${left[@]}"
}

# The groups started by desk_start that still have a process, as "NAME(PID) ..."; false when none.
desk_groups_alive() {
    local pid alive=()
    for pid in "${DESK_PIDS[@]}"; do
        kill -0 -- "-$pid" 2>/dev/null && alive+=("${DESK_PROCESS_NAMES[$pid]:-?}($pid)")
    done
    echo "${alive[@]}"
    ((${#alive[@]}))
}
desk_all_stopped() { ! desk_groups_alive >/dev/null; }
desk_none_marked() { [ -z "$(desk_marked_processes)" ]; }

# The trap: a screenshot and the logs into ARTIFACT_DIR on failure (the logs also with DESK_KEEP_LOGS=1), the
# scenario's desk_before_stop if it defines one, every process group stopped (TERM, then KILL after 3 s), the marked
# processes killed, the temporary folder removed, the verdict and the wall time printed.
desk_cleanup() {
    local status=$? i pid left folder wall_ds verdict=PASSED
    trap - EXIT INT TERM HUP
    exec 1>&"$DESK_OUT" 2>&"$DESK_ERR"
    ((DESK_SKIPPED)) && status=77
    if ((status != 0 && status != 77)) && [ -n "${DISPLAY:-}" ] && desk_alive "$DESK_XVFB_PID"; then
        import -window root "$DESK_ARTIFACTS/desktop_${DESK_NAME}_failure.png" 2>/dev/null \
            && desk_log "screenshot at the failure: $DESK_ARTIFACTS/desktop_${DESK_NAME}_failure.png"
    fi
    declare -F desk_before_stop >/dev/null && desk_before_stop
    for ((i = ${#DESK_PIDS[@]} - 1; i >= 0; i--)); do
        kill -TERM -- "-${DESK_PIDS[i]}" 2>/dev/null || kill -TERM "${DESK_PIDS[i]}" 2>/dev/null
    done
    if ! wait_for 3 desk_all_stopped; then
        desk_log "still running 3 s after SIGTERM, killed: $(desk_groups_alive)"
        for pid in "${DESK_PIDS[@]}"; do kill -KILL -- "-$pid" 2>/dev/null; done
    fi
    left=$(desk_marked_processes)
    if [ -n "$left" ]; then
        desk_log "killing what D-Bus started for the session: $(for pid in $left; do
            printf '%s(%s) ' "$pid" "$(cat "/proc/$pid/comm" 2>/dev/null)"
        done)"
        # shellcheck disable=SC2086 # a list of pids
        kill -KILL $left 2>/dev/null
        wait_for 3 desk_none_marked \
            || echo "desktop $DESK_NAME: still running after SIGKILL: $(desk_marked_processes)" >&2
    fi
    wait 2>/dev/null
    if { ((status != 0)) || [ -n "${DESK_KEEP_LOGS:-}" ]; } && [ -n "$(ls -A "$DESK_TMP/logs")" ]; then
        mkdir -p "$DESK_ARTIFACTS/desktop_${DESK_NAME}_logs" \
            && cp -r "$DESK_TMP/logs/." "$DESK_TMP/tray.trace" "$DESK_ARTIFACTS/desktop_${DESK_NAME}_logs/" 2>/dev/null
        # idlegpu's own log file (what "Open log" shows), beside its output: the default config's, or a --config's
        # in its own folder below the state folder (docs/files.md).
        for folder in "$DESK_TMP"/idlegpu-*; do
            for log in "$folder"/state/idlegpu/idlegpu.log "$folder"/state/idlegpu/configs/*/idlegpu.log; do
                [ -f "$log" ] && cp "$log" "$DESK_ARTIFACTS/desktop_${DESK_NAME}_logs/$(basename "$folder").file.log"
            done
        done
        echo "desktop $DESK_NAME: logs in $DESK_ARTIFACTS/desktop_${DESK_NAME}_logs"
    fi
    rm -rf "$DESK_TMP"
    ((status == 77)) && verdict=SKIPPED
    ((status != 0 && status != 77)) && verdict=FAILED
    wall_ds=$((($(desk_now_ms) - DESK_T0 + 50) / 100))
    echo "desktop $DESK_NAME: $verdict in $((wall_ds / 10)).$((wall_ds % 10)) s"
    exit "$status"
}

# --- Session: display and buses ---------------------------------------------------------------------------------

# Xvfb (DESK_XVFB_PID) runs and answers on display $1.
desk_xvfb_answers() { desk_alive "$DESK_XVFB_PID" && xdpyinfo -display "$1" >/dev/null 2>&1; }
# Xvfb answers on $1, or has exited (another server took the display).
desk_xvfb_settled() { desk_gone "$DESK_XVFB_PID" || desk_xvfb_answers "$1"; }
# desk_xvfb [WxHxD]: Xvfb on the first free display from :100 (1280x800x24 by default); exports DISPLAY.
desk_xvfb() {
    local n screen=${1:-1280x800x24}
    desk_require_commands Xvfb xdpyinfo
    for n in $(seq 100 299); do
        [ -e "/tmp/.X11-unix/X$n" ] || [ -e "/tmp/.X$n-lock" ] && continue
        # -noreset: the server would reset when its last client leaves (xdpyinfo's probe).
        desk_start xvfb Xvfb ":$n" -screen 0 "$screen" -nolisten tcp -noreset
        DESK_XVFB_PID=$DESK_PID
        # Another program may take the same number meanwhile: Xvfb then exits.
        wait_for 20 desk_xvfb_settled ":$n"
        if desk_xvfb_answers ":$n"; then
            export DISPLAY=:$n
            desk_log "Xvfb answers on $DISPLAY"
            return 0
        fi
    done
    desk_fail "no free X display in :100..:299, or Xvfb does not start: $(tail -3 "$(desk_log_file xvfb)")"
}

# desk_bus_config FILE SOCKET [SERVICE_DIR]: a dbus-daemon configuration: anyone owns and sends anything,
# monitoring allowed, listening on SOCKET, activating only the services in SERVICE_DIR.
desk_bus_config() {
    {
        echo '<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"'
        echo ' "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">'
        echo "<busconfig><type>session</type><keep_umask/><listen>unix:path=$2</listen><auth>EXTERNAL</auth>"
        [ -n "${3:-}" ] && echo "<servicedir>$3</servicedir>"
        echo '<policy context="default"><allow user="*"/><allow own="*"/>'
        echo '<allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/></policy></busconfig>'
    } >"$1"
}

# desk_session_bus SERVICE...: the private session bus, which can activate only these services (names of
# /usr/share/dbus-1/services/*.service without the suffix, or absolute paths to .service files); exports
# DBUS_SESSION_BUS_ADDRESS. Several desktops' files for one name (org.freedesktop.Notifications of KDE and XFCE)
# make activation pick any of them: list only the desktop's own. Start it after DISPLAY is set: activated services
# get the bus's environment (or see desk_activation_environment).
desk_session_bus() {
    local service file socket=$DESK_TMP/bus/session
    desk_require_commands dbus-daemon busctl
    for service in "$@"; do
        file=$service
        [ "${file#/}" = "$file" ] && file=/usr/share/dbus-1/services/$service.service
        desk_require_path "$file" "the D-Bus service $service"
        ln -s "$file" "$DESK_TMP/bus/services/" || desk_fail "cannot link $file"
    done
    desk_bus_config "$DESK_TMP/bus/session.conf" "$socket" "$DESK_TMP/bus/services"
    desk_start session-bus dbus-daemon --config-file="$DESK_TMP/bus/session.conf" --nofork
    export DBUS_SESSION_BUS_ADDRESS=unix:path=$socket
    wait_for 10 busctl --user status org.freedesktop.DBus >/dev/null 2>&1 \
        || desk_fail "the session bus does not answer: $(tail -3 "$(desk_log_file session-bus)")"
    desk_log "session bus at $DBUS_SESSION_BUS_ADDRESS, activating only: $*"
}

# desk_activation_environment VAR...: tells the session bus these variables' values for the services it activates.
desk_activation_environment() {
    local args=() var
    for var in "$@"; do args+=("$var" "${!var-}"); done
    busctl --user call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus \
        UpdateActivationEnvironment 'a{ss}' "$#" "${args[@]}" >/dev/null
}

# desk_system_bus [FAKE_LOGIND [SESSION_TYPE]]: the private "system" bus (DBUS_SYSTEM_BUS_ADDRESS), with the fake
# logind (tests/desktop/fakelogind_main.cpp) offering one active local session of this uid when given.
desk_system_bus() {
    local socket=$DESK_TMP/bus/system
    desk_bus_config "$DESK_TMP/bus/system.conf" "$socket"
    desk_start system-bus dbus-daemon --config-file="$DESK_TMP/bus/system.conf" --nofork
    export DBUS_SYSTEM_BUS_ADDRESS=unix:path=$socket
    wait_for 10 busctl --address="$DBUS_SYSTEM_BUS_ADDRESS" status org.freedesktop.DBus >/dev/null 2>&1 \
        || desk_fail "the system bus does not answer: $(tail -3 "$(desk_log_file system-bus)")"
    [ -n "${1:-}" ] || return 0
    [ -x "$1" ] || desk_fail "the fake logind $1 is not an executable"
    desk_start fake-logind "$1" "${2:-x11}"
    wait_for 10 grep -q '^ready' "$(desk_log_file fake-logind)" \
        || desk_fail "the fake logind does not start: $(tail -3 "$(desk_log_file fake-logind)")"
    desk_log "system bus at $DBUS_SYSTEM_BUS_ADDRESS with the fake logind: $(head -1 "$(desk_log_file fake-logind)")"
}

# --- The machine's side: a system bus with its real policy, polkitd (issue 30) -------------------------------------

# desk_policy_system_bus POLICY_FILE...: the private "system" bus as Debian's is, not desk_system_bus's open one:
# <type>system</type>, EXTERNAL authentication and the default-deny policy of /usr/share/dbus-1/system.conf (nobody
# owns a name, no method call goes anywhere but to the bus itself) less activation, so that only what the POLICY_FILEs
# (included as they are, not copied) allow gets through. Every user may connect: $DESK_TMP becomes 0711 (its
# content keeps its own modes), the socket's folder 0755 (dbus-daemon makes the socket 0777). Root may monitor it
# (desk_system_monitor). Exports DBUS_SYSTEM_BUS_ADDRESS; process "system-bus".
desk_policy_system_bus() {
    local socket=$DESK_TMP/sysbus/system policy config=$DESK_TMP/sysbus/system.conf
    desk_require_commands dbus-daemon busctl
    if ! mkdir -m 0755 "$DESK_TMP/sysbus" || ! chmod 0711 "$DESK_TMP"; then desk_fail "cannot make $DESK_TMP/sysbus"; fi
    {
        echo '<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"'
        echo ' "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">'
        echo "<busconfig><type>system</type><auth>EXTERNAL</auth><listen>unix:path=$socket</listen>"
        echo '<policy context="default"><allow user="*"/><deny own="*"/><deny send_type="method_call"/>'
        echo '<allow send_type="signal"/><allow send_requested_reply="true" send_type="method_return"/>'
        echo '<allow send_requested_reply="true" send_type="error"/><allow receive_type="method_call"/>'
        echo '<allow receive_type="method_return"/><allow receive_type="error"/><allow receive_type="signal"/>'
        echo '<allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus"/>'
        echo '<allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Introspectable"/>'
        echo '<allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Properties"/>'
        echo '<deny send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus"'
        echo ' send_member="UpdateActivationEnvironment"/></policy>'
        echo '<policy user="root"><allow send_destination="org.freedesktop.DBus"'
        echo ' send_interface="org.freedesktop.DBus.Monitoring"/></policy>'
        for policy in "$@"; do
            desk_require_path "$policy" "the D-Bus policy file $policy"
            echo "<include>$policy</include>"
        done
        echo '</busconfig>'
    } >"$config"
    desk_start system-bus dbus-daemon --config-file="$config" --nofork
    export DBUS_SYSTEM_BUS_ADDRESS=unix:path=$socket
    wait_for 10 busctl --address="$DBUS_SYSTEM_BUS_ADDRESS" status org.freedesktop.DBus >/dev/null 2>&1 \
        || desk_fail "the system bus does not answer: $(tail -3 "$(desk_log_file system-bus)")"
    desk_log "system bus (system.conf's policy and $*) at $DBUS_SYSTEM_BUS_ADDRESS"
}

# desk_system_name_owner NAME: the unique name that owns NAME on the system bus; false when none.
desk_system_name_owner() {
    busctl --address="$DBUS_SYSTEM_BUS_ADDRESS" --timeout=3 call org.freedesktop.DBus /org/freedesktop/DBus \
        org.freedesktop.DBus GetNameOwner s "$1" 2>/dev/null | awk '{ gsub(/"/, "", $2); print $2 }' | grep .
}
# desk_system_name_uid NAME: the uid of NAME's owner on the system bus.
desk_system_name_uid() {
    busctl --address="$DBUS_SYSTEM_BUS_ADDRESS" --timeout=3 call org.freedesktop.DBus /org/freedesktop/DBus \
        org.freedesktop.DBus GetConnectionUnixUser s "$1" 2>/dev/null | awk '{ print $2 }'
}

# desk_polkitd ACTIONS RULES: Debian's real polkitd (/usr/lib/polkit-1/polkitd, 122) on the system bus, reading the
# actions in the folder ACTIONS and the rules in the folder RULES. polkitd reads only fixed folders, so it runs in a
# mount namespace of its own (unshare -m, propagation private) with ACTIONS bound over /usr/share/polkit-1/actions,
# RULES over /etc/polkit-1/rules.d and an empty folder over /usr/share/polkit-1/rules.d (the packages' rules): the
# machine's folders never change, and the binds end with the namespace, when polkitd does, on any exit path. RULES
# is read by polkitd after it drops to the user polkitd (it does so itself when started as root): made polkitd's,
# 0700. polkitd watches RULES (inotify) and loads the rules again on a change: desk_polkit_rules writes them.
# Skips where polkitd, unshare or the user polkitd is missing, or unshare -m is refused (a container without
# CAP_SYS_ADMIN). Process "polkitd"; waits until it owns org.freedesktop.PolicyKit1 as the user polkitd.
desk_polkitd() {
    local actions=$1 rules=$2 empty=$DESK_TMP/polkit-empty uid
    desk_require_path /usr/lib/polkit-1/polkitd polkitd
    desk_require_commands unshare mount pkcheck
    getent passwd polkitd >/dev/null || desk_skip "there is no user polkitd (polkitd's package makes it)"
    unshare -m --propagation private true 2>/dev/null || desk_skip "unshare -m is refused here (no CAP_SYS_ADMIN)"
    if ! mkdir -p "$empty" || ! chown polkitd "$rules" || ! chmod 0700 "$rules"; then
        desk_fail "cannot prepare $rules"
    fi
    # shellcheck disable=SC2016 # expanded by the inner shell
    desk_start polkitd unshare -m --propagation private sh -c 'mount --bind "$1" /usr/share/polkit-1/actions \
        && mount --bind "$2" /etc/polkit-1/rules.d && mount --bind "$3" /usr/share/polkit-1/rules.d \
        && exec /usr/lib/polkit-1/polkitd' polkitd "$actions" "$rules" "$empty"
    wait_for 20 desk_system_name_owner org.freedesktop.PolicyKit1 >/dev/null \
        || desk_fail "polkitd does not own org.freedesktop.PolicyKit1: $(tail -5 "$(desk_log_file polkitd)")"
    uid=$(desk_system_name_uid org.freedesktop.PolicyKit1)
    [ "$uid" = "$(id -u polkitd)" ] || desk_fail "org.freedesktop.PolicyKit1 is owned by uid $uid, not polkitd's"
    # The binds are polkitd's alone: the machine (and this shell) still see their own folders.
    if grep -qE " (/usr/share/polkit-1/actions|/etc/polkit-1/rules.d|/usr/share/polkit-1/rules.d) " \
        /proc/self/mountinfo; then
        desk_fail "polkitd's binds are seen outside its mount namespace: $(grep polkit-1 /proc/self/mountinfo)"
    fi
    desk_log "polkitd owns org.freedesktop.PolicyKit1 as the user polkitd, with $actions and $rules"
}

# desk_polkit_rules FILE RESULT USER: FILE (in polkitd's RULES folder) says RESULT (YES or NO) on
# io.github.idlegpu.pause to USER; returns once polkitd answers so (pkcheck as USER). Written beside and renamed in,
# so that polkitd never loads half a file.
desk_polkit_rules() {
    local staged=$DESK_TMP/polkit-staged.rules
    {
        echo 'polkit.addRule(function(action, subject) {'
        echo "    if (action.id == \"io.github.idlegpu.pause\" && subject.user == \"$3\")"
        echo "        return polkit.Result.$2;"
        echo '});'
    } >"$staged" && chmod 0644 "$staged" && mv -f "$staged" "$1" || desk_fail "cannot write $1"
    wait_for 10 desk_polkit_verdict_is "$3" "$2" \
        || desk_fail "polkit does not say $2 to $3 10 s after $1 changed: $(tail -3 "$(desk_log_file polkitd)")"
    desk_log "polkit's rule says $2 to $3 on io.github.idlegpu.pause"
}
# desk_polkit_verdict_is USER RESULT: polkit's verdict on io.github.idlegpu.pause for a process of USER is RESULT
# (YES: pkcheck exits 0; NO: 1, not authorized and no challenge).
desk_polkit_verdict_is() {
    local status
    # shellcheck disable=SC2016 # the inner shell's own pid
    setpriv --reuid "$1" --regid "$(id -g "$1")" --clear-groups sh -c \
        'exec pkcheck --action-id io.github.idlegpu.pause --process $$' >/dev/null 2>&1
    status=$?
    case $2 in YES) ((status == 0)) ;; NO) ((status == 1)) ;; *) return 1 ;; esac
}

# --- The tray, seen from the session bus --------------------------------------------------------------------------

DESK_WATCHER=(org.kde.StatusNotifierWatcher /StatusNotifierWatcher org.kde.StatusNotifierWatcher)

# The pid behind a bus name (unique or well-known), or nothing.
desk_bus_pid() {
    busctl --user call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus \
        GetConnectionUnixProcessID s "$1" 2>/dev/null | awk '{ print $2 }'
}

# desk_trace_tray: a poller in the background, every 0.1 s, that writes to $DESK_TMP/tray.trace one line per change:
# "MS watcher" (org.kde.StatusNotifierWatcher owned), "MS host" (IsStatusNotifierHostRegistered true), "MS item ENTRY
# PID" (an entry of RegisteredStatusNotifierItems and the pid that owns its name), "MS gone ENTRY". MS is the time
# of the poll that saw it first.
desk_trace_tray() {
    : >"$DESK_TMP/tray.trace"
    (
        trap - EXIT INT TERM HUP
        watcher=0 host=0 known=""
        while :; do
            now=$(desk_now_ms)
            if ((!watcher)); then
                busctl --user call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus NameHasOwner \
                    s org.kde.StatusNotifierWatcher 2>/dev/null | grep -q true \
                    && watcher=1 && echo "$now watcher"
            fi
            if ((watcher)) && properties=$(busctl --user --timeout=1 get-property "${DESK_WATCHER[@]}" \
                IsStatusNotifierHostRegistered RegisteredStatusNotifierItems 2>/dev/null); then
                if ((!host)) && [ "$(head -1 <<<"$properties")" = "b true" ]; then host=1 && echo "$now host"; fi
                items=$(sed -n 2p <<<"$properties" | grep -o '"[^"]*"' | tr -d '"' | tr '\n' ' ')
                for entry in $items; do
                    case " $known " in *" $entry "*) continue ;; esac
                    echo "$now item $entry $(desk_bus_pid "${entry%%[/@]*}")"
                done
                for entry in $known; do
                    case " $items " in *" $entry "*) ;; *) echo "$now gone $entry" ;; esac
                done
                known=$items
            fi
            sleep 0.1
        done
    ) >>"$DESK_TMP/tray.trace" 2>/dev/null &
    DESK_PIDS+=("$!")
    DESK_PROCESS_NAMES[$!]=tray-trace
    # The moment a process asks the watcher to list its item, before the desktop has looked at it.
    desk_start tray-monitor dbus-monitor --session "type='method_call',member='RegisterStatusNotifierItem'"
    wait_for 5 grep -q NameLost "$(desk_log_file tray-monitor)" \
        || desk_fail "dbus-monitor does not monitor: $(tail -3 "$(desk_log_file tray-monitor)")"
}

# desk_register_time_of_pid PID: when that process first called RegisterStatusNotifierItem (ms, dbus-monitor's
# clock, the same as desk_now_ms), or false.
desk_register_time_of_pid() {
    local time sender
    while read -r time sender; do
        [ "$(desk_bus_pid "$sender")" = "$1" ] && echo "$time" && return 0
    done < <(awk '/^method call .*member=RegisterStatusNotifierItem/ {
        for (i = 1; i <= NF; i++) {
            if ($i ~ /^time=/) { split(substr($i, 6), t, "."); time = t[1] substr(t[2] "000", 1, 3) }
            if ($i ~ /^sender=/) sender = substr($i, 8)
        }
        print time, sender }' "$(desk_log_file tray-monitor)")
    return 1
}

# The first time of EVENT (watcher, host) in the trace, or nothing.
desk_trace_time() { awk -v e="$1" '$2 == e { print $1; exit }' "$DESK_TMP/tray.trace"; }

# desk_wait_host LOG_NAME...: waits for the watcher and its host (30 s, else a skip with the logs' tails) and sets
# DESK_WATCHER_MS and DESK_HOST_MS.
desk_wait_host() {
    if ! wait_for 30 grep -q ' host$' "$DESK_TMP/tray.trace"; then
        desk_skip "the desktop did not register a StatusNotifierHost within 30 s (watcher:" \
            "$( [ -n "$(desk_trace_time watcher)" ] && echo owned || echo none))
$(desk_log_tails "$@")"
    fi
    DESK_WATCHER_MS=$(desk_trace_time watcher)
    DESK_HOST_MS=$(desk_trace_time host)
    desk_log "watcher owned $((DESK_WATCHER_MS - DESK_T_DESKTOP)) ms, host registered" \
        "$((DESK_HOST_MS - DESK_T_DESKTOP)) ms after the desktop's start"
}

# desk_item_of_pid PID: the StatusNotifierItem that process registered: sets DESK_ITEM_MS (when first seen),
# DESK_ITEM_SERVICE and DESK_ITEM_PATH; false when none (yet).
desk_item_of_pid() {
    local line entry
    line=$(awk -v p="$1" '$2 == "item" && $4 == p { print; exit }' "$DESK_TMP/tray.trace")
    [ -n "$line" ] || return 1
    read -r DESK_ITEM_MS _ entry _ <<<"$line"
    # SERVICE/PATH (KDE's watcher, XFCE's), SERVICE@/PATH (GNOME's extension) or SERVICE alone.
    DESK_ITEM_SERVICE=${entry%%[/@]*}
    DESK_ITEM_PATH=${entry#"$DESK_ITEM_SERVICE"}
    DESK_ITEM_PATH=${DESK_ITEM_PATH#@}
    DESK_ITEM_PATH=${DESK_ITEM_PATH#/}
    DESK_ITEM_PATH=/${DESK_ITEM_PATH:-StatusNotifierItem}
    return 0
}
# desk_wait_item_of_pid PID SECONDS: desk_item_of_pid, waiting up to SECONDS.
desk_wait_item_of_pid() { wait_for "$2" desk_item_of_pid "$1"; }

# desk_item_property SERVICE PATH PROPERTY: busctl's text of an org.kde.StatusNotifierItem property ('o "/MenuBar"').
desk_item_property() { busctl --user --timeout=3 get-property "$1" "$2" org.kde.StatusNotifierItem "$3" 2>/dev/null; }

# desk_activate SERVICE PATH: a left click as a panel sends it (org.kde.StatusNotifierItem.Activate at 0,0).
desk_activate() { busctl --user --timeout=3 call "$1" "$2" org.kde.StatusNotifierItem Activate ii 0 0; }

# desk_menu_path SERVICE PATH: the item's com.canonical.dbusmenu object (its Menu property).
desk_menu_path() { desk_item_property "$1" "$2" Menu | grep -o '"[^"]*"' | tr -d '"'; }

# desk_menu_layout SERVICE MENU_PATH: the menu's entries, one a line: ID<TAB>TOGGLE_STATE (or -)<TAB>LABEL.
desk_menu_layout() {
    busctl --user --timeout=3 --json=short call -- "$1" "$2" com.canonical.dbusmenu GetLayout iias 0 -1 0 \
        | "$DESK_PYTHON" -c '
import json, sys
def walk(node):
    ident, props, children = node
    label = props.get("label", {}).get("data", "")
    toggle = props.get("toggle-state", {}).get("data", "-")
    if ident != 0 and props.get("type", {}).get("data") != "separator":
        print(f"{ident}\t{toggle}\t{label}")
    for child in children:
        walk(child["data"])
walk(json.load(sys.stdin)["data"][1])'
}
# desk_menu_labels SERVICE MENU_PATH: the menu's labels, one a line.
desk_menu_labels() { desk_menu_layout "$1" "$2" | cut -f3; }

# desk_menu_click SERVICE MENU_PATH LABEL: sends the entry labelled LABEL the dbusmenu Event "clicked", as a panel
# does when the user chooses it.
desk_menu_click() {
    local id
    id=$(desk_menu_layout "$1" "$2" | awk -F'\t' -v l="$3" '$3 == l { print $1; exit }')
    [ -n "$id" ] || return 1
    busctl --user --timeout=3 call -- "$1" "$2" com.canonical.dbusmenu Event isvu "$id" clicked i 0 0
}
# desk_menu_toggle_state SERVICE MENU_PATH LABEL: the entry's toggle-state (1 checked, 0 not, - not checkable).
desk_menu_toggle_state() { desk_menu_layout "$1" "$2" | awk -F'\t' -v l="$3" '$3 == l { print $2; exit }'; }
# desk_menu_toggle_is SERVICE MENU_PATH LABEL STATE: the entry's toggle-state is STATE.
desk_menu_toggle_is() { [ "$(desk_menu_toggle_state "$1" "$2" "$3")" = "$4" ]; }

# --- Notifications --------------------------------------------------------------------------------------------

# desk_notify_capture_start: records every Notify call and every method return on the session bus (dbus-monitor).
desk_notify_capture_start() {
    desk_require_commands dbus-monitor
    desk_start notify-monitor dbus-monitor --session \
        "type='method_call',interface='org.freedesktop.Notifications',member='Notify'" "type='method_return'"
    # It says NameAcquired/NameLost of its own connection once it monitors.
    wait_for 5 grep -q NameLost "$(desk_log_file notify-monitor)" \
        || desk_fail "dbus-monitor does not monitor: $(tail -3 "$(desk_log_file notify-monitor)")"
}
# desk_notify_calls: each Notify recorded so far, one a line: SENDER<TAB>ANSWERED_BY (unique name, or - where no
# answer came)<TAB>SUMMARY<TAB>the strings after the body, joined by | (the actions' keys and labels, the hints' keys).
desk_notify_calls() {
    "$DESK_PYTHON" - "$(desk_log_file notify-monitor)" <<'EOF'
import re, sys
calls, answers, current = [], {}, None
header = re.compile(r"^(method call|method return) .*?sender=(\S+) -> destination=(\S+) serial=(\d+)"
                    r"(?: reply_serial=(\d+))?")
for line in open(sys.argv[1], errors="replace"):
    m = header.match(line)
    if m:
        kind, sender, destination, serial, reply = m.groups()
        current = None
        if kind == "method call" and "member=Notify" in line:
            current = {"sender": sender, "serial": serial, "strings": []}
            calls.append(current)
        elif kind == "method return":
            answers[(destination, reply)] = sender
        continue
    s = re.match(r'^\s+string "(.*)"\s*$', line)
    if current is not None and s:
        current["strings"].append(s.group(1))
for c in calls:
    summary = c["strings"][2] if len(c["strings"]) > 2 else ""
    rest = "|".join(c["strings"][4:])
    print(f'{c["sender"]}\t{answers.get((c["sender"], c["serial"]), "-")}\t{summary}\t{rest}')
EOF
}
# desk_notify_from_pid PID [SUMMARY]: the first answered Notify that process sent (with that summary, if given; a
# click's own "Paused all workloads" may come first): sets DESK_NOTIFY_SUMMARY, DESK_NOTIFY_STRINGS (desk_notify_calls'
# last column), DESK_NOTIFY_SERVER_PID and DESK_NOTIFY_SERVER_COMM (the answering server's process); false when none.
desk_notify_from_pid() {
    local sender server summary rest
    while IFS=$'\t' read -r sender server summary rest; do
        if [ "$server" = - ] || [ "$(desk_bus_pid "$sender")" != "$1" ]; then continue; fi
        if [ -n "${2:-}" ] && [ "$summary" != "$2" ]; then continue; fi
        DESK_NOTIFY_SUMMARY=$summary DESK_NOTIFY_STRINGS=$rest
        DESK_NOTIFY_SERVER_PID=$(desk_bus_pid "$server")
        DESK_NOTIFY_SERVER_COMM=$(cat "/proc/$DESK_NOTIFY_SERVER_PID/comm" 2>/dev/null)
        return 0
    done < <(desk_notify_calls)
    return 1
}

# --- Idle time, input, pictures -----------------------------------------------------------------------------------

# desk_idle_ms: "SOURCE MS", the desktop's idle time as idlegpu's DesktopIdlePoller asks it: GNOME (Mutter's
# IdleMonitor), KDE (org.freedesktop.ScreenSaver; Plasma 5.27 answers milliseconds), else X11 (XScreenSaver).
desk_idle_ms() {
    local answer
    if answer=$(busctl --user --timeout=2 call org.gnome.Mutter.IdleMonitor /org/gnome/Mutter/IdleMonitor/Core \
        org.gnome.Mutter.IdleMonitor GetIdletime 2>/dev/null); then
        echo "GNOME ${answer#t }"
    elif answer=$(busctl --user --timeout=2 call org.freedesktop.ScreenSaver /ScreenSaver \
        org.freedesktop.ScreenSaver GetSessionIdleTime 2>/dev/null); then
        echo "KDE ${answer#u }"
    elif answer=$("$DESK_PYTHON" -c '
import ctypes
x11, xss = ctypes.CDLL("libX11.so.6"), ctypes.CDLL("libXss.so.1")
class Info(ctypes.Structure):
    _fields_ = [("window", ctypes.c_ulong), ("state", ctypes.c_int), ("kind", ctypes.c_int),
                ("til_or_since", ctypes.c_ulong), ("idle", ctypes.c_ulong), ("event_mask", ctypes.c_ulong)]
x11.XOpenDisplay.restype = ctypes.c_void_p
x11.XDefaultRootWindow.argtypes, x11.XDefaultRootWindow.restype = [ctypes.c_void_p], ctypes.c_ulong
xss.XScreenSaverQueryInfo.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.POINTER(Info)]
display, info = x11.XOpenDisplay(None), Info()
assert display and xss.XScreenSaverQueryInfo(display, x11.XDefaultRootWindow(display), ctypes.byref(info))
print(info.idle)' 2>/dev/null); then
        echo "X11 $answer"
    else
        return 1
    fi
}

# desk_screenshot FILE [CROP]: the X screen (or CROP, WxH+X+Y of it) into FILE.
desk_screenshot() {
    if [ -n "${2:-}" ]; then
        import -window root -crop "$2" +repage "$1" 2>/dev/null
    else
        import -window root "$1" 2>/dev/null
    fi
}
# desk_pixels_differ A B [MIN]: true when the pictures A and B (same size) differ in at least MIN pixels (1).
desk_pixels_differ() {
    local differing
    differing=$(compare -metric AE "$1" "$2" null: 2>&1)
    differing=${differing%% *}
    [[ $differing =~ ^[0-9.e+]+$ ]] && (($(printf '%.0f' "$differing") >= ${3:-1}))
}
# desk_diff_box A B: WxH+X+Y of the smallest rectangle around every pixel that differs between A and B.
desk_diff_box() {
    compare -fuzz 5% "$1" "$2" -compose Src -highlight-color white -lowlight-color black png:- 2>/dev/null \
        | convert png:- -trim -format '%wx%h%X%Y' info: 2>/dev/null
}

# --- idlegpu ----------------------------------------------------------------------------------------------------

# desk_idlegpu_config NAME [INI_LINES]: $DESK_TMP/idlegpu-NAME/ with fake GPU nodes (dev/nvidia0, nvidiactl,
# nvidia-uvm: one GPU, busy as soon as a foreign program opens a node) and idlegpu.conf with one workload (sleep,
# its pid appended to starts at each start), no start delay, then INI_LINES; prints the config's path.
desk_idlegpu_config() {
    local folder=$DESK_TMP/idlegpu-$1 node
    mkdir -p "$folder/dev" "$folder/state" "$folder/config" "$folder/tmp" || return 1
    for node in nvidia0 nvidiactl nvidia-uvm; do
        : >"$folder/dev/$node" && chmod 0666 "$folder/dev/$node" || return 1
    done
    # idlegpu refuses a configuration that others may write.
    (umask 077 && cat >"$folder/idlegpu.conf") <<EOF || return 1
[defaults]
start_delay_seconds = 0
device_root = $folder/dev

[gpu-all]
busy_when = opened

[process-$1]
cmd = sh -c 'echo \$\$ >> $folder/starts; exec sleep 1000'
user = $(id -un)
gpus = 0
${2:-}
EOF
    echo "$folder/idlegpu.conf"
}

# desk_idlegpu_start NAME BINARY [ARGS...]: idlegpu (config $DESK_TMP/idlegpu-NAME/idlegpu.conf) under setsid as
# process "idlegpu-NAME", with its own XDG_STATE_HOME (pause state, log), XDG_CONFIG_HOME (autostart) and TMPDIR, so
# that two instances do not share them; QT_QPA_PLATFORM from DESK_QPA (xcb); off D-Bus (IDLEGPU_BUS=none), or the
# second would show the first's monitor instead of running its own. DESK_PID is its pid.
desk_idlegpu_start() {
    local name=$1 binary=$2 folder=$DESK_TMP/idlegpu-$1
    shift 2
    desk_start "idlegpu-$name" env QT_QPA_PLATFORM="${DESK_QPA:-xcb}" IDLEGPU_BUS=none \
        QT_LOGGING_RULES="idlegpu.*=true;qt.qpa.tray=true" XDG_STATE_HOME="$folder/state" \
        XDG_CONFIG_HOME="$folder/config" TMPDIR="$folder/tmp" "$binary" --config "$folder/idlegpu.conf" "$@"
    DESK_IDLEGPU_PID[$name]=$DESK_PID
    DESK_IDLEGPU_START[$name]=$(desk_now_ms)
}
# desk_workload_pid NAME: the pid of instance NAME's workload while it runs; false when it does not.
desk_workload_pid() {
    local pid
    pid=$(tail -1 "$DESK_TMP/idlegpu-$1/starts" 2>/dev/null)
    desk_alive "$pid" && echo "$pid"
}
desk_workload_runs() { desk_workload_pid "$1" >/dev/null; }
# desk_workload_restarted NAME COUNT: instance NAME's workload started more than COUNT times and runs.
desk_workload_restarted() { (($(desk_workload_starts "$1") > $2)) && desk_workload_runs "$1"; }
# desk_workload_starts NAME: how often instance NAME's workload started.
desk_workload_starts() {
    if [ -f "$DESK_TMP/idlegpu-$1/starts" ]; then wc -l <"$DESK_TMP/idlegpu-$1/starts"; else echo 0; fi
}
# desk_idlegpu_log NAME: instance NAME's output (stdout and stderr).
desk_idlegpu_log() { desk_log_file "idlegpu-$1"; }
# desk_autostart_file NAME: where "Start at login" of instance NAME writes.
desk_autostart_file() { echo "$DESK_TMP/idlegpu-$1/config/autostart/idlegpu.desktop"; }

# desk_stop_idlegpu NAME: SIGTERM, as the session's end sends it: instance NAME must exit 0 within 15 s.
desk_stop_idlegpu() {
    local pid=${DESK_IDLEGPU_PID[$1]} status
    kill -TERM "$pid" 2>/dev/null || { desk_error "idlegpu $1 (pid $pid) was no longer running"; return 1; }
    wait_for 15 desk_gone "$pid" || { desk_error "idlegpu $1 (pid $pid) still runs 15 s after SIGTERM"; return 1; }
    wait "$pid"
    status=$?
    ((status == 0)) || { desk_error "idlegpu $1 exited with status $status after SIGTERM"; return 1; }
    desk_log "idlegpu $1 exited with status 0 after SIGTERM"
}

# --- Checks shared by the desktops ------------------------------------------------------------------------------
# Each records a failed check with desk_error and returns 1, so that one scenario reports every failure at once.

# How soon after the host the idlegpu started before the desktop must call RegisterStatusNotifierItem.
DESK_BEFORE_REGISTER_LIMIT_MS=1000
# desk_check_orders BEFORE AFTER: both start orders end as StatusNotifierItems. AFTER (started once the host was
# registered) is listed by the watcher within 5 s of its start. BEFORE (started before the desktop, as at login)
# asks the watcher to list it (RegisterStatusNotifierItem) within DESK_BEFORE_REGISTER_LIMIT_MS of the host's
# registration as the 0.1 s poll saw it, and is listed within 5 s (the rest is the desktop's own work: GNOME's extension reads the item before
# listing it). Qt said "D-Bus tray available: true" in each. Fills DESK_SERVICE, DESK_OBJECT and DESK_MENU of each
# and DESK_AFTER_ITEM_AFTER_START_MS, DESK_BEFORE_REGISTER_AFTER_HOST_MS, DESK_BEFORE_ITEM_AFTER_HOST_MS (none where
# it did not happen).
desk_check_orders() {
    local before=$1 after=$2 name registered
    DESK_AFTER_ITEM_AFTER_START_MS=none DESK_BEFORE_ITEM_AFTER_HOST_MS=none DESK_BEFORE_REGISTER_AFTER_HOST_MS=none
    if desk_wait_item_of_pid "${DESK_IDLEGPU_PID[$after]}" 10; then
        DESK_AFTER_ITEM_AFTER_START_MS=$((DESK_ITEM_MS - DESK_IDLEGPU_START[$after]))
        DESK_SERVICE[$after]=$DESK_ITEM_SERVICE DESK_OBJECT[$after]=$DESK_ITEM_PATH
        desk_log "idlegpu $after (started after the host) is listed as $DESK_ITEM_SERVICE$DESK_ITEM_PATH" \
            "$DESK_AFTER_ITEM_AFTER_START_MS ms after its start"
        ((DESK_AFTER_ITEM_AFTER_START_MS <= 5000)) \
            || desk_error "idlegpu $after is listed $DESK_AFTER_ITEM_AFTER_START_MS ms after its start (> 5 s)"
    else
        desk_error "idlegpu $after, started after the host, registered no StatusNotifierItem within 10 s"
    fi
    wait_for $((5 - ($(desk_now_ms) - DESK_HOST_MS) / 1000)) desk_item_of_pid "${DESK_IDLEGPU_PID[$before]}"
    if desk_item_of_pid "${DESK_IDLEGPU_PID[$before]}"; then
        DESK_BEFORE_ITEM_AFTER_HOST_MS=$((DESK_ITEM_MS - DESK_HOST_MS))
        DESK_SERVICE[$before]=$DESK_ITEM_SERVICE DESK_OBJECT[$before]=$DESK_ITEM_PATH
        registered=$(desk_register_time_of_pid "${DESK_IDLEGPU_PID[$before]}") \
            && DESK_BEFORE_REGISTER_AFTER_HOST_MS=$((registered - DESK_HOST_MS))
        desk_log "idlegpu $before (started before the desktop) registered $DESK_BEFORE_REGISTER_AFTER_HOST_MS ms" \
            "after the host and is listed as $DESK_ITEM_SERVICE$DESK_ITEM_PATH" \
            "$DESK_BEFORE_ITEM_AFTER_HOST_MS ms after it"
        if [ "$DESK_BEFORE_REGISTER_AFTER_HOST_MS" = none ] \
            || ((DESK_BEFORE_REGISTER_AFTER_HOST_MS > DESK_BEFORE_REGISTER_LIMIT_MS)); then
            desk_error "idlegpu $before, started before the desktop, called RegisterStatusNotifierItem" \
                "$DESK_BEFORE_REGISTER_AFTER_HOST_MS ms after the host (more than $DESK_BEFORE_REGISTER_LIMIT_MS ms," \
                "or not seen)"
        fi
    else
        desk_error "idlegpu $before, started before the desktop, is not listed as a StatusNotifierItem 5 s after" \
            "the host; Qt said: $(grep -h 'D-Bus tray available' "$(desk_idlegpu_log "$before")" | head -1)"
    fi
    for name in "$before" "$after"; do
        [ -n "${DESK_SERVICE[$name]:-}" ] || continue
        DESK_MENU[$name]=$(desk_menu_path "${DESK_SERVICE[$name]}" "${DESK_OBJECT[$name]}")
        grep -q 'D-Bus tray available: true' "$(desk_idlegpu_log "$name")" \
            || desk_error "idlegpu $name: no \"D-Bus tray available: true\" from Qt"
    done
}

# desk_check_menu NAME: the item's dbusmenu lists the GPU and "Pause all".
desk_check_menu() {
    local labels
    if [ -z "${DESK_MENU[$1]:-}" ]; then
        desk_error "idlegpu $1 has no menu to read (no item or no Menu property)"
        return 1
    fi
    labels=$(desk_menu_labels "${DESK_SERVICE[$1]}" "${DESK_MENU[$1]}")
    if grep -qx 'GPU 0' <<<"$labels" && grep -qx 'Pause all' <<<"$labels"; then
        desk_log "idlegpu $1's menu: $(paste -sd '|' <<<"$labels")"
    else
        desk_error "idlegpu $1's menu lacks \"GPU 0\" or \"Pause all\": $(paste -sd '|' <<<"$labels")"
        return 1
    fi
}

# desk_check_autostart NAME: "Start at login" chosen through the dbusmenu writes the autostart entry, which
# desktop-file-validate accepts, and checks the entry; chosen again, it removes the file.
desk_check_autostart() {
    local file problems
    file=$(desk_autostart_file "$1")
    [ -n "${DESK_MENU[$1]:-}" ] || { desk_error "idlegpu $1 has no menu for \"Start at login\""; return 1; }
    desk_menu_click "${DESK_SERVICE[$1]}" "${DESK_MENU[$1]}" "Start at login" >/dev/null \
        || { desk_error "idlegpu $1: no \"Start at login\" to click"; return 1; }
    wait_for 5 test -f "$file" || { desk_error "\"Start at login\" wrote no $file"; return 1; }
    problems=$(desktop-file-validate "$file" 2>&1) || desk_error "desktop-file-validate rejects $file: $problems"
    wait_for 5 desk_menu_toggle_is "${DESK_SERVICE[$1]}" "${DESK_MENU[$1]}" "Start at login" 1 \
        || desk_error "\"Start at login\" is not checked after choosing it"
    desk_menu_click "${DESK_SERVICE[$1]}" "${DESK_MENU[$1]}" "Start at login" >/dev/null
    wait_for 5 desk_absent "$file" || { desk_error "\"Start at login\" chosen again left $file"; return 1; }
    desk_log "\"Start at login\" wrote a valid $file and removed it again"
}

# desk_check_notify_actions SERVER_COMM: after desk_notify_from_pid found a preemption's notification: where the
# desktop's server lists "actions" in its capabilities, the notification offers "Show" and "Pause for 1 hour" (its
# labels, as the server shows them); where it does not, it offers none.
desk_check_notify_actions() {
    local capabilities strings="|$DESK_NOTIFY_STRINGS|"
    capabilities=$(busctl --user --timeout=3 call org.freedesktop.Notifications /org/freedesktop/Notifications \
        org.freedesktop.Notifications GetCapabilities 2>/dev/null) \
        || { desk_error "$1 does not answer GetCapabilities"; return 1; }
    if [[ "$capabilities" == *'"actions"'* ]]; then
        if [[ "$strings" == *"|Show|"* && "$strings" == *"|Pause for 1 hour|"* ]]; then
            desk_log "the notification offers \"Show\" and \"Pause for 1 hour\" ($1 shows actions)"
        else
            desk_error "$1 shows actions, but the notification offers no \"Show\" and \"Pause for 1 hour\":" \
                "$DESK_NOTIFY_STRINGS"
        fi
    elif [[ "$strings" == *"|Show|"* ]]; then
        desk_error "$1 shows no actions, but the notification offers them: $DESK_NOTIFY_STRINGS"
    else
        desk_log "the notification offers no actions ($1 shows none)"
    fi
}

# desk_check_preemption NAME HOLDOPEN SERVER_COMM: a program (tests/holdopen.cpp) opening instance NAME's fake
# nvidia0 stops its workload, and idlegpu's Notify reaches the desktop's server, whose process is SERVER_COMM
# (desk_notify_capture_start first); the workload comes back when the program ends.
desk_check_preemption() {
    local name=$1 workload job starts
    wait_for 10 desk_workload_runs "$name" || { desk_error "idlegpu $name's workload does not run"; return 1; }
    workload=$(desk_workload_pid "$name")
    starts=$(desk_workload_starts "$name")
    desk_start "job-$name" "$2" "$DESK_TMP/idlegpu-$name/dev/nvidia0"
    job=$DESK_PID
    wait_for 10 desk_gone "$workload" \
        || desk_error "idlegpu $name's workload (pid $workload) still runs 10 s after a program opened its GPU"
    # The preemption's own notification ("The GPU is yours" to the job's user, else "Workload stopped"): a click's
    # "Paused all workloads" may have come before it.
    if wait_for 10 eval 'desk_notify_from_pid "${DESK_IDLEGPU_PID[$name]}" "The GPU is yours" ||
                         desk_notify_from_pid "${DESK_IDLEGPU_PID[$name]}" "Workload stopped"'; then
        desk_log "idlegpu $name's Notify \"$DESK_NOTIFY_SUMMARY\" was answered by $DESK_NOTIFY_SERVER_COMM" \
            "(pid $DESK_NOTIFY_SERVER_PID)"
        [ "$DESK_NOTIFY_SERVER_COMM" = "$3" ] \
            || desk_error "the notification went to $DESK_NOTIFY_SERVER_COMM, not to the desktop's $3"
        desk_check_notify_actions "$3"
    else
        desk_error "no answered Notify from idlegpu $name within 10 s of the preemption: $(desk_notify_calls)"
    fi
    kill -TERM "$job"
    wait_for 10 desk_workload_restarted "$name" "$starts" \
        || desk_error "idlegpu $name's workload did not come back within 10 s of the GPU's release"
}

# desk_presence_input NAME IDLE_SECONDS INPUT...: instance NAME has [activity] pause_while_active with IDLE_SECONDS;
# no input yet since the display started. Its workload runs once the desktop has been idle that long; the command
# INPUT (`xdotool mousemove X Y`) makes the desktop's idle time drop and pauses it (someone is at the computer),
# and idlegpu said it takes the idle time from the source desk_idle_ms answered from (GNOME, KDE, X11): the
# desktop's own, as idlegpu prefers it.
# Sets DESK_PRESENCE_INPUT_MS (when) and DESK_PRESENCE_PAUSE_MS (after the input); desk_presence_resumed follows.
desk_presence_input() {
    local name=$1 seconds=$2 idle workload source
    shift 2
    DESK_PRESENCE_INPUT_MS="" DESK_PRESENCE_PAUSE_MS=none DESK_PRESENCE_RESUME_MS=none
    if ! wait_for $((seconds + 15)) desk_workload_runs "$name"; then
        desk_error "idlegpu $name's workload did not start with the desktop idle ($(desk_idle_ms))"
        return 1
    fi
    workload=$(desk_workload_pid "$name")
    idle=$(desk_idle_ms) || { desk_error "the desktop tells no idle time"; return 1; }
    desk_log "idlegpu $name runs its workload; the desktop's idle time: $idle ms"
    DESK_PRESENCE_INPUT_MS=$(desk_now_ms)
    "$@" || { desk_error "the input ($*) failed"; return 1; }
    idle=$(desk_idle_ms)
    # Asking takes time on a loaded machine: the idle time must not exceed the time since the input by much.
    ((${idle#* } < $(desk_now_ms) - DESK_PRESENCE_INPUT_MS + 500)) || desk_error "the desktop's idle time is" \
        "$idle ms $(($(desk_now_ms) - DESK_PRESENCE_INPUT_MS)) ms after the input ($*)"
    if wait_for 10 desk_gone "$workload"; then
        DESK_PRESENCE_PAUSE_MS=$(($(desk_now_ms) - DESK_PRESENCE_INPUT_MS))
        desk_log "idlegpu $name paused $DESK_PRESENCE_PAUSE_MS ms after the input (idle time then: $idle)"
        # desk_idle_ms tries the sources in idlegpu's order and names them as idlegpu does.
        source=${idle%% *}
        grep -q "the desktop's idle time comes from $source\$" "$(desk_idlegpu_log "$name")" \
            || desk_error "idlegpu $name does not take the desktop's idle time from $source:" \
                "$(grep -h "idle time comes from" "$(desk_idlegpu_log "$name")")"
    else
        desk_error "idlegpu $name's workload still runs 10 s after input on the desktop (idle time $idle)"
        return 1
    fi
}
# desk_presence_resumed NAME IDLE_SECONDS: after desk_presence_input and no input since: instance NAME resumes
# IDLE_SECONDS after the input, not before. Checks that make no input can run in between. Sets
# DESK_PRESENCE_RESUME_MS (after the input).
desk_presence_resumed() {
    local name=$1 seconds=$2
    [ -n "${DESK_PRESENCE_INPUT_MS:-}" ] || return 1
    if wait_for $((seconds + 10 - ($(desk_now_ms) - DESK_PRESENCE_INPUT_MS) / 1000)) desk_workload_runs "$name"; then
        DESK_PRESENCE_RESUME_MS=$(($(desk_now_ms) - DESK_PRESENCE_INPUT_MS))
        desk_log "idlegpu $name resumed $DESK_PRESENCE_RESUME_MS ms after the input"
        ((DESK_PRESENCE_RESUME_MS >= seconds * 1000 - 500)) \
            || desk_error "idlegpu $name resumed $DESK_PRESENCE_RESUME_MS ms after the input, before idle_seconds"
    else
        desk_error "idlegpu $name did not resume within $((seconds + 10)) s of the last input"
    fi
}
# desk_check_presence NAME IDLE_SECONDS X Y: desk_presence_input with `xdotool mousemove X Y`, then
# desk_presence_resumed.
desk_check_presence() {
    desk_presence_input "$1" "$2" xdotool mousemove "$3" "$4" && desk_presence_resumed "$1" "$2"
}

# desk_crop_changed CROP BEFORE NOW: takes CROP of the screen into NOW; true when it differs from the picture BEFORE
# in at least 20 pixels (an icon's change, not noise).
desk_crop_changed() { desk_screenshot "$3" "$1" && desk_pixels_differ "$2" "$3" 20; }

# desk_locate_icon NAME CROP: finds instance NAME's icon in CROP (WxH+X+Y of the screen) by the change that a D-Bus
# Activate (pause) makes; sets DESK_ICON_X, DESK_ICON_Y (screen) and DESK_ICON_BOX. Leaves the instance paused.
desk_locate_icon() {
    local name=$1 crop=$2 workload box w h x y
    wait_for 10 desk_workload_runs "$name" || { desk_error "idlegpu $name's workload does not run"; return 1; }
    workload=$(desk_workload_pid "$name")
    # Another instance's icon may still be redrawing (a presence resume): its change must not be taken for this one.
    wait_for 5 desk_region_unchanged "$crop" || desk_log "the tray at $crop did not settle within 5 s"
    desk_screenshot "$DESK_TMP/icon-before.png" "$crop" || { desk_error "cannot take a screenshot"; return 1; }
    desk_activate "${DESK_SERVICE[$name]}" "${DESK_OBJECT[$name]}" >/dev/null \
        || { desk_error "org.kde.StatusNotifierItem.Activate failed on idlegpu $name"; return 1; }
    wait_for 5 desk_gone "$workload" || { desk_error "Activate did not pause idlegpu $name"; return 1; }
    if ! wait_for 5 desk_crop_changed "$crop" "$DESK_TMP/icon-before.png" "$DESK_TMP/icon-after.png"; then
        desk_error "idlegpu $name's icon did not change on screen when it paused"
        return 1
    fi
    box=$(desk_diff_box "$DESK_TMP/icon-before.png" "$DESK_TMP/icon-after.png")
    [[ $box =~ ^([0-9]+)x([0-9]+)\+([0-9]+)\+([0-9]+)$ ]] || { desk_error "no changed region ($box)"; return 1; }
    w=${BASH_REMATCH[1]} h=${BASH_REMATCH[2]} x=${BASH_REMATCH[3]} y=${BASH_REMATCH[4]}
    [[ $crop =~ \+([0-9]+)\+([0-9]+)$ ]]
    DESK_ICON_X=$((BASH_REMATCH[1] + x + w / 2)) DESK_ICON_Y=$((BASH_REMATCH[2] + y + h / 2))
    DESK_ICON_BOX=${w}x$h+$((BASH_REMATCH[1] + x))+$((BASH_REMATCH[2] + y))
    desk_log "idlegpu $name's icon: $DESK_ICON_BOX (changed pixels when it paused)"
    ((w <= 64 && h <= 64)) \
        || desk_error "the region that changed when idlegpu $name paused is $DESK_ICON_BOX: not one icon"
}

# desk_click CLICK X Y: a real click (xdotool mousemove X Y click CLICK; CLICK is xdotool's click arguments as one
# word list: "1", "3", "--repeat 2 --delay 80 1") at least DESK_CLICK_GAP_MS after the previous one (beyond the
# desktop's double-click interval, so that each arrives on its own).
DESK_LAST_CLICK_MS=0
DESK_CLICK_GAP_MS=1000
desk_click() {
    local wait_ms=$((DESK_LAST_CLICK_MS + DESK_CLICK_GAP_MS - $(desk_now_ms)))
    ((wait_ms > 0)) && sleep "$((wait_ms / 1000)).$(printf %03d $((wait_ms % 1000)))"
    # shellcheck disable=SC2086 # CLICK is a word list
    xdotool mousemove "$2" "$3" click $1
    DESK_LAST_CLICK_MS=$(desk_now_ms)
}

# The click that activates an item (desk_click's CLICK): a left click; GNOME's AppIndicator extension activates on a
# double click (a single one opens the menu).
DESK_ACTIVATE_CLICK=1
# desk_region_unchanged REGION: true when REGION (WxH+X+Y of the screen) looks as it did at the previous call for
# the same REGION, 0.3 s or more ago. For wait_for: a panel that has finished redrawing.
desk_region_unchanged() {
    local now=$DESK_TMP/unchanged-$1.png last=$DESK_TMP/unchanged-$1.last.png
    [ -f "$last" ] && sleep 0.3
    desk_screenshot "$now" "$1" || return 1
    if [ -f "$last" ] && ! desk_pixels_differ "$last" "$now"; then
        rm -f "$last" "$now"
        return 0
    fi
    mv "$now" "$last"
    return 1
}
# desk_activate_click: DESK_ACTIVATE_CLICK on the icon (DESK_ICON_X, DESK_ICON_Y); after a double click Escape, which
# closes a menu that the extension opened on the way.
desk_activate_click() {
    # Clicked while the panel redraws the icon (a new picture after a pause), GNOME's extension can miss a double
    # click: click a settled icon, as a user does.
    wait_for 5 desk_region_unchanged "$DESK_ICON_BOX" \
        || desk_log "idlegpu's icon at $DESK_ICON_BOX did not settle within 5 s"
    desk_click "$DESK_ACTIVATE_CLICK" "$DESK_ICON_X" "$DESK_ICON_Y"
    [ "$DESK_ACTIVATE_CLICK" = 1 ] || xdotool key Escape
    return 0
}

# desk_check_clicks NAME: after desk_locate_icon (paused): a click on the icon (DESK_ACTIVATE_CLICK) resumes, the
# next pauses, the next resumes.
desk_check_clicks() {
    local name=$1 starts workload what="xdotool click $DESK_ACTIVATE_CLICK"
    starts=$(desk_workload_starts "$name")
    desk_activate_click
    wait_for 10 desk_workload_restarted "$name" "$starts" \
        || { desk_error "$what on idlegpu $name's icon did not resume it"; return 1; }
    workload=$(desk_workload_pid "$name")
    desk_activate_click
    wait_for 10 desk_gone "$workload" || { desk_error "a second $what did not pause idlegpu $name"; return 1; }
    starts=$(desk_workload_starts "$name")
    desk_activate_click
    wait_for 10 desk_workload_restarted "$name" "$starts" \
        || { desk_error "a third $what did not resume idlegpu $name"; return 1; }
    desk_log "$what on idlegpu $name's icon at $DESK_ICON_X,$DESK_ICON_Y resumed, paused and resumed it"
}

# desk_region_settled REGION BEFORE NOW: takes REGION of the screen into NOW; true when it differs from BEFORE in
# at least 500 pixels and equals the previous call's picture (NOW.last): something new is drawn whole.
desk_region_settled() {
    desk_screenshot "$3" "$1" || return 1
    if desk_pixels_differ "$2" "$3" 500 && [ -f "$3.last" ] && ! desk_pixels_differ "$3.last" "$3"; then
        return 0
    fi
    cp "$3" "$3.last"
    return 1
}

# desk_check_menu_shot NAME FILE: a right click on the icon opens its menu: the region around the icon (down to 500
# px below the bar) changes and settles; FILE gets the bar and the menu (the changed part of the region, from the top
# of the screen); Escape closes the menu.
desk_check_menu_shot() {
    desk_menu_shot "$@" || desk_error "a right click on idlegpu $1's icon opened no menu"
}
# desk_menu_shot NAME FILE: desk_check_menu_shot's work; false, with the region in FILE, where no menu opened.
desk_menu_shot() {
    local name=$1 file=$2 region_x=$((DESK_ICON_X > 300 ? DESK_ICON_X - 300 : 0)) region box opened=0
    region=600x500+$region_x+0
    desk_screenshot "$DESK_TMP/menu-before.png" "$region"
    rm -f "$DESK_TMP/menu-now.png.last"
    desk_click 3 "$DESK_ICON_X" "$DESK_ICON_Y"
    if wait_for 5 desk_region_settled "$region" "$DESK_TMP/menu-before.png" "$DESK_TMP/menu-now.png"; then
        box=$(desk_diff_box "$DESK_TMP/menu-before.png" "$DESK_TMP/menu-now.png")
        if [[ $box =~ ^([0-9]+)x([0-9]+)\+([0-9]+)\+([0-9]+)$ ]]; then
            # From the top of the screen (the bar), 10 px around the menu, wide enough for the icon.
            local left=$((BASH_REMATCH[3] > 10 ? BASH_REMATCH[3] - 10 : 0))
            local right=$((BASH_REMATCH[1] + BASH_REMATCH[3] + 10)) bottom=$((BASH_REMATCH[2] + BASH_REMATCH[4] + 10))
            ((right < DESK_ICON_X - region_x + 30)) && right=$((DESK_ICON_X - region_x + 30))
            convert "$DESK_TMP/menu-now.png" -crop "$((right - left))x$bottom+$left+0" +repage "$file"
        else
            cp "$DESK_TMP/menu-now.png" "$file"
        fi
        desk_log "a right click opened idlegpu $name's menu: $file"
        opened=1
    else
        desk_screenshot "$file" "$region"
    fi
    xdotool key Escape
    ((opened))
}

# desk_check_tray_pixels CROP FILE NAME...: FILE gets the tray's area with the icons; stopping the instances NAME...
# (SIGTERM, exit 0) must change it: the icons were drawn, whatever their state.
desk_check_tray_pixels() {
    local crop=$1 file=$2 name
    shift 2
    desk_screenshot "$file" "$crop" || { desk_error "cannot take the screenshot $file"; return 1; }
    for name in "$@"; do desk_stop_idlegpu "$name"; done
    if wait_for 10 desk_crop_changed "$crop" "$file" "$DESK_TMP/tray-without.png"; then
        desk_log "the tray's area changed when idlegpu stopped: the icons were on screen ($file)"
    else
        desk_error "the tray's area ($crop) looks the same with and without idlegpu: no icon drawn ($file)"
    fi
}

# --- The windows, keyboard only (issue 31) -------------------------------------------------------------------------
# What a user opens from the tray's menu: the status window, the settings dialog, and on a first start (no
# configuration file) the welcome page. Each is checked as a keyboard user meets it: it has the keyboard, Tab moves a
# visible focus, Esc closes it, Enter clicks the settings dialog's default button (OK: closes, the file unchanged).
# tests/tst_keyboardpaths.cpp walks the whole Tab chain of the same windows in-process.

# desk_visible_windows PID: the ids of the mapped top-level windows of process PID, one a line.
desk_visible_windows() { xdotool search --onlyvisible --pid "$1" 2>/dev/null | sort; }
# desk_new_window PID KNOWN: the first window of desk_visible_windows PID not in the list KNOWN; false when none.
desk_new_window() {
    local window
    for window in $(desk_visible_windows "$1"); do
        grep -qx "$window" <<<"$2" || { echo "$window"; return 0; }
    done
    return 1
}
desk_window_shown() { desk_visible_windows "$1" | grep -qx "$2"; }
desk_window_closed() { ! desk_window_shown "$1" "$2"; }
# desk_window_box WINDOW: WxH+X+Y of the window with the frame the window manager drew around it (_NET_FRAME_EXTENTS:
# title bar, borders), within the 1280x800 screen.
desk_window_box() {
    local x y w h left=0 right=0 top=0 bottom=0 extents
    x=$(xwininfo -id "$1" | awk '/Absolute upper-left X/ { print $NF }')
    y=$(xwininfo -id "$1" | awk '/Absolute upper-left Y/ { print $NF }')
    w=$(xwininfo -id "$1" | awk '/^ *Width:/ { print $NF }')
    h=$(xwininfo -id "$1" | awk '/^ *Height:/ { print $NF }')
    [ -n "$x" ] && [ -n "$h" ] || return 1
    extents=$(xprop -id "$1" _NET_FRAME_EXTENTS 2>/dev/null | grep -o '[0-9]*, [0-9]*, [0-9]*, [0-9]*$')
    [ -n "$extents" ] && IFS=', ' read -r left right top bottom <<<"$extents"
    x=$((x - left)) y=$((y - top)) w=$((w + left + right)) h=$((h + top + bottom))
    ((x < 0)) && w=$((w + x)) && x=0
    ((y < 0)) && h=$((h + y)) && y=0
    ((x + w > 1280)) && w=$((1280 - x))
    ((y + h > 800)) && h=$((800 - y))
    echo "${w}x$h+$x+$y"
}
# desk_window_has_keyboard WINDOW: the window manager says WINDOW is the active window.
desk_window_has_keyboard() { [ "$(xdotool getactivewindow 2>/dev/null)" = "$1" ]; }

# desk_open_window NAME LABEL: chooses LABEL in instance NAME's menu (dbusmenu, as the panel does on a click) and waits
# up to 10 s for a new window of it; gives it the keyboard as a user's click would (xdotool windowactivate). Sets
# DESK_WINDOW (its id) and DESK_WINDOW_TITLE.
desk_open_window() {
    local name=$1 label=$2 pid=${DESK_IDLEGPU_PID[$1]} known
    known=$(desk_visible_windows "$pid")
    desk_menu_click "${DESK_SERVICE[$name]}" "${DESK_MENU[$name]}" "$label" >/dev/null \
        || { desk_error "idlegpu $name's menu has no \"$label\": $(desk_menu_labels "${DESK_SERVICE[$name]}" \
            "${DESK_MENU[$name]}" | paste -sd '|')"; return 1; }
    if ! wait_for 10 desk_new_window "$pid" "$known" >/dev/null; then
        desk_error "\"$label\" in idlegpu $name's menu opened no window within 10 s"
        return 1
    fi
    DESK_WINDOW=$(desk_new_window "$pid" "$known")
    DESK_WINDOW_TITLE=$(xdotool getwindowname "$DESK_WINDOW" 2>/dev/null)
    xdotool windowactivate --sync "$DESK_WINDOW" >/dev/null 2>&1
    wait_for 5 desk_window_has_keyboard "$DESK_WINDOW" \
        || desk_error "\"$DESK_WINDOW_TITLE\" ($label) does not get the keyboard when activated"
    return 0
}

# desk_window_has_icon WINDOW: the window carries an icon (_NET_WM_ICON). Once, on KDE, the first start's dialog had
# none when it was found and the same check passed on the next run: it is given a moment.
desk_window_has_icon() { xprop -id "$1" _NET_WM_ICON 2>/dev/null | grep -q 'Icon ('; }

# desk_check_window NAME LABEL FILE [enter]: opens the window behind LABEL of instance NAME (desk_open_window), keeps
# its picture, frame included, in FILE once it stopped changing; Tab must change the picture (the focus moved, and
# shows), Esc must close it within 5 s. With "enter", it opens the window again: Enter must close it (its default
# button, OK with nothing edited) and leave the configuration file as it was.
desk_check_window() {
    local name=$1 label=$2 file=$3 enter=${4:-} box config sum
    desk_open_window "$name" "$label" || return 1
    local window=$DESK_WINDOW title=$DESK_WINDOW_TITLE pid=${DESK_IDLEGPU_PID[$1]}
    # The app's icon in the title bar and the task switcher: without it KWin shows a generic X.
    wait_for 3 desk_window_has_icon "$window" \
        || desk_error "\"$title\" ($label) carries no window icon (_NET_WM_ICON):" \
            "$(xprop -id "$window" WM_CLASS _NET_WM_PID WM_HINTS _KDE_NET_WM_DESKTOP_FILE 2>&1 | paste -sd ' ')"
    xdotool mousemove 1279 400 # off the window: no hover highlight in its picture
    # The status window's clocks and graphs tick each second: it may never look the same twice.
    wait_for 3 desk_region_unchanged "$(desk_window_box "$window")" \
        || desk_log "\"$title\" did not stop changing within 3 s"
    box=$(desk_window_box "$window")
    if desk_screenshot "$file" "$box"; then
        desk_log "\"$title\" ($label), $box: $file"
    else
        desk_error "cannot take the picture of \"$title\" ($box)"
    fi
    desk_screenshot "$DESK_TMP/window-before-tab.png" "$box"
    xdotool key --clearmodifiers Tab
    wait_for 3 desk_crop_changed "$box" "$DESK_TMP/window-before-tab.png" "$DESK_TMP/window-after-tab.png" \
        || desk_error "Tab in \"$title\" ($label) changes nothing on screen: no control shows the focus"
    xdotool key --clearmodifiers Escape
    if wait_for 5 desk_window_closed "$pid" "$window"; then
        desk_log "Esc closed \"$title\""
    else
        desk_error "Esc does not close \"$title\" ($label) within 5 s"
        xdotool windowclose "$window" 2>/dev/null || xdotool windowunmap "$window" 2>/dev/null
        wait_for 5 desk_window_closed "$pid" "$window"
    fi
    [ "$enter" = enter ] || return 0
    config=$DESK_TMP/idlegpu-$name/idlegpu.conf
    sum=$(sha256sum <"$config")
    desk_open_window "$name" "$label" || return 1
    window=$DESK_WINDOW
    xdotool key --clearmodifiers Return
    if wait_for 5 desk_window_closed "$pid" "$window"; then
        desk_log "Enter closed \"$title\" (its default button)"
    else
        desk_error "Enter does not close \"$title\" ($label) within 5 s"
        xdotool key --clearmodifiers Escape
    fi
    [ "$(sha256sum <"$config")" = "$sum" ] || desk_error "Enter in \"$title\" with nothing edited changed $config"
}

# desk_check_windows NAME IDLEGPU: the status window, the settings dialog (Enter too) and the log viewer of instance
# NAME (desk_check_window), then the first start: an idlegpu "first" without a configuration file (its own empty
# XDG_CONFIG_HOME, no --config) and its "Set up…"; "first" is stopped after. The pictures go to
# DESK_ARTIFACTS/desktop_DESKTOP_{status,settings,log,first-start}.png (scripts/update-screenshots copies all but the
# log's for the README).
desk_check_windows() {
    local name=$1 idlegpu=$2 folder=$DESK_TMP/idlegpu-first t0
    t0=$(desk_now_ms)
    desk_check_window "$name" "Status…" "$DESK_ARTIFACTS/desktop_${DESK_NAME}_status.png"
    desk_check_window "$name" "Settings…" "$DESK_ARTIFACTS/desktop_${DESK_NAME}_settings.png" enter
    # Open log: with no application for it (no xdg-open here), idlegpu's own log viewer.
    if command -v xdg-open >/dev/null; then
        desk_log "Open log not checked: xdg-open is installed, so the desktop's own application would open the log"
    else
        desk_check_window "$name" "Open log" "$DESK_ARTIFACTS/desktop_${DESK_NAME}_log.png"
    fi
    mkdir -p "$folder/state" "$folder/config" "$folder/tmp" || { desk_error "cannot make $folder"; return 1; }
    desk_start idlegpu-first env QT_QPA_PLATFORM="${DESK_QPA:-xcb}" IDLEGPU_BUS=none \
        QT_LOGGING_RULES="idlegpu.*=true" XDG_STATE_HOME="$folder/state" XDG_CONFIG_HOME="$folder/config" \
        TMPDIR="$folder/tmp" "$idlegpu"
    DESK_IDLEGPU_PID[first]=$DESK_PID
    if desk_wait_item_of_pid "$DESK_PID" 15; then
        DESK_SERVICE[first]=$DESK_ITEM_SERVICE DESK_OBJECT[first]=$DESK_ITEM_PATH
        DESK_MENU[first]=$(desk_menu_path "$DESK_ITEM_SERVICE" "$DESK_ITEM_PATH")
        desk_check_window first "Set up…" "$DESK_ARTIFACTS/desktop_${DESK_NAME}_first-start.png"
    else
        desk_error "idlegpu without a configuration file registered no StatusNotifierItem within 15 s"
    fi
    desk_stop_idlegpu first
    desk_log "the windows' checks took $(($(desk_now_ms) - t0)) ms"
}

# desk_login_start IDLEGPU IDLE_SECONDS: idlegpu "before" as a login's autostart runs it, 3 s before the desktop:
# configurations for "before" (pause_while_active with IDLE_SECONDS, for desk_presence_input) and "after", "before"
# started; returns 3 s after its start, when the desktop is to start.
desk_login_start() {
    local sleep_ms
    desk_idlegpu_config before "[activity]
pause_while_active = true
idle_seconds = $2" >/dev/null || desk_fail "cannot write idlegpu before's configuration"
    desk_idlegpu_config after >/dev/null || desk_fail "cannot write idlegpu after's configuration"
    desk_idlegpu_start before "$1"
    sleep_ms=$((DESK_IDLEGPU_START[before] + 3000 - $(desk_now_ms)))
    ((sleep_ms > 0)) && sleep "$((sleep_ms / 1000)).$(printf %03d $((sleep_ms % 1000)))"
    return 0
}

# desk_x11_checks IDLE_SECONDS HOLDOPEN SERVER_COMM TRAY_CROP TRAY_FILE MENU_FILE: after desk_login_start, the
# desktop's start, desk_wait_host and the start of "after": every check of the suite on an X11 desktop, in an order
# that keeps input away from the presence check's wait, then the DESKTOP-TIMES line. TRAY_CROP: the bar's part where
# the icons are (WxH+X+Y); TRAY_FILE and MENU_FILE: the screenshots of it and of the menu a right click opens. With
# DESK_WINDOWS_IDLEGPU (the binary) set, desk_check_windows too.
desk_x11_checks() {
    local idle_seconds=$1 holdopen=$2 server=$3 crop=$4 tray_file=$5 menu_file=$6
    desk_check_orders before after
    desk_check_menu after
    [ -n "${DESK_MENU[before]:-}" ] && desk_check_menu before
    # No input yet: "before" runs once the display has been idle idle_seconds and pauses on input; while it waits
    # to resume, the checks that make no input.
    desk_presence_input before "$idle_seconds" xdotool mousemove 400 400
    desk_check_autostart after
    desk_check_preemption after "$holdopen" "$server"
    desk_presence_resumed before "$idle_seconds"
    if desk_locate_icon after "$crop"; then
        desk_check_clicks after
        desk_check_menu_shot after "$menu_file"
    fi
    # The windows where the scenario names the binary for a first start (gnome_x11.sh).
    [ -n "${DESK_WINDOWS_IDLEGPU:-}" ] && desk_check_windows after "$DESK_WINDOWS_IDLEGPU"
    desk_check_tray_pixels "$crop" "$tray_file" after before
    desk_print_times "presence_pause_after_input_ms=$DESK_PRESENCE_PAUSE_MS" \
        "presence_resume_after_input_ms=$DESK_PRESENCE_RESUME_MS"
}

# desk_print_times: the DESKTOP-TIMES line from the figures of desk_wait_host and desk_check_orders (ms from the
# desktop's first process, none where a step did not happen).
desk_print_times() {
    desk_times "watcher_ms=$((DESK_WATCHER_MS - DESK_T_DESKTOP)) host_ms=$((DESK_HOST_MS - DESK_T_DESKTOP))" \
        "before_register_after_host_ms=$DESK_BEFORE_REGISTER_AFTER_HOST_MS" \
        "before_item_after_host_ms=$DESK_BEFORE_ITEM_AFTER_HOST_MS" \
        "after_item_after_start_ms=$DESK_AFTER_ITEM_AFTER_START_MS" "$@"
}

# --- Summary ----------------------------------------------------------------------------------------------------

# desk_times KEY=VALUE...: the machine-readable line, "DESKTOP-TIMES desktop=NAME KEY=VALUE...".
desk_times() { echo "DESKTOP-TIMES desktop=$DESK_NAME $*"; }
