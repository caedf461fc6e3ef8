#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 The idlegpu authors
# A user's tray showing the root idlegpu service on a real XFCE 4.18 desktop (issue 30): the machine's side is a
# private dbus-daemon configured as Debian's system bus with the package's own policy file
# (resources/io.github.idlegpu.Idlegpu1.conf) and polkit's, the real polkitd (Debian 12, 122) reading the package's
# actions (resources/io.github.idlegpu.policy) and a rules file this scenario writes, and `idlegpu --headless` as root
# (IDLEGPU_BUS=system) with a fake GPU (a plain file as dev/nvidia0, lib.sh's desk_idlegpu_config) owning
# io.github.idlegpu.Idlegpu1 there. The desk's side is xfwm4, xfce4-panel (its systray plugin is the
# StatusNotifierWatcher and host) and xfce4-notifyd on Xvfb and a private session bus, and an idlegpu tray of the
# user "nobody" (not root: see below) started on it. Checked:
#   - the tray finds the service on the system bus, says "showing the idlegpu service on the system bus", and is its
#     client: no monitor of its own (no workload of its, no idlegpu on the session bus, no child process);
#   - its item's tooltip and dbusmenu show the service's GPU and workload;
#   - a job of the tray's user opens the GPU: the service stops its workload, and the tray's notification (the copy
#     of Preempted addressed to that user: "The GPU is yours") is answered by xfce4-notifyd;
#   - with the rule saying YES to the tray's user, "Pause all" chosen in the tray's menu pauses the service
#     (`idlegpu --status --json` on the same bus: "source": "system", pause.all true);
#   - with the rule switched to NO, "Resume" is refused: the menu says "Resume refused: ..." and the service stays
#     paused;
#   - the service stopped: the tray says "The idlegpu service is not running" (menu and tooltip); started again, the
#     tray shows it within 1 s of its name's return (the bus's NameOwnerChanged to the tray's next NewToolTip, both
#     stamped by dbus-monitor).
# Screenshots (ARTIFACT_DIR): desktop_xfce_service_menu.png (the menu on a right click, showing the service),
# desktop_xfce_service_refused.png (the menu with the refusal) and desktop_xfce_service_away.png (the service stopped).
#
# Why the tray is not root's: polkitd authorizes uid 0 for every action before it looks at a rule (tried with
# polkitd 122 here: a rule returning NO for everyone, and pkcheck as root still exits 0), so a root tray could never
# be refused. Its user is "nobody", which every Debian has: Xvfb started without -auth lets every local user in (no
# cookie, no xhost), it joins the desktop's session bus (the panel must see its item; that bus lets every user in,
# and its socket's folders are traversable: $DESK_TMP is 0711) and gets a HOME, XDG_RUNTIME_DIR and XDG_STATE_HOME of
# its own. The job that takes the GPU is nobody's too: the tray is told "The GPU is yours".
#
# Pitfalls met on the way (so that the next one does not meet them again):
#   - Debian's org.freedesktop.PolicyKit1.conf lets only the user polkitd own polkit's name: polkitd must not stay
#     root. Started as root it drops to polkitd itself ("Successfully changed to user polkitd"); the folders bound
#     over its rules.d must be readable by polkitd (made its, 0700, as Debian ships /etc/polkit-1/rules.d).
#   - polkitd reads only /usr/share/polkit-1/actions, /etc/polkit-1/rules.d and /usr/share/polkit-1/rules.d: it runs
#     in `unshare -m --propagation private` with binds over all three (lib.sh's desk_polkitd); the binds die with it.
#   - No systemd here: polkitd's sd-login finds no session for any process, so every subject is neither local nor
#     active, and the package's defaults say auth_admin to all (allow_any). Only the rules file decides, which is what
#     this scenario wants; allow_active=yes is the container suite's (tests/systemd/, real logind).
#   - polkitd reloads rules.d on inotify, but not at once: the scenario waits until pkcheck as the tray's user gives
#     the new verdict before it clicks. A rules file written in place could be read half-written: it is renamed in.
#   - The tray's refusal line lasts until its next state, and the service sends StateChanged after every scan
#     (every 10 s here, whether anything a user sees changed or not): the line may be gone before a picture is taken,
#     so the picture is taken again, after one more refused click, until the line is still there after it.
#   - The private system bus must have system.conf's default-deny policy (lib.sh's desk_policy_system_bus), not the
#     open one of desk_system_bus, or the package's policy file would prove nothing.
#
# Usage: xfce_service.sh IDLEGPU ARTIFACT_DIR HOLDOPEN
# Skips (77) where XFCE, polkitd, unshare -m or setpriv is missing, when not run as root, or where the panel registers
# no host in 30 s.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/desktop/lib.sh
source "$here/lib.sh"

usage="usage: xfce_service.sh IDLEGPU ARTIFACT_DIR HOLDOPEN"
idlegpu=${1:?$usage}
artifacts=${2:?$usage}
holdopen=${3:?$usage}
resources=$(cd "$here/../../resources" && pwd)
notifyd=/usr/lib/x86_64-linux-gnu/xfce4/notifyd/xfce4-notifyd
tray_user=nobody
# The top panel's right part, where the systray plugin puts its icons, left of the clock.
tray_crop=250x26+890+0

desk_init xfce_service "$artifacts"
desk_require_commands xfwm4 xfce4-panel xdotool import compare convert python3 setpriv dbus-monitor
desk_require_path "$notifyd" xfce4-notifyd
desk_require_path /etc/xdg/xfce4/panel/default.xml "xfce4-panel's default panel"
desk_require_path /usr/share/dbus-1/system.d/org.freedesktop.PolicyKit1.conf "polkitd's D-Bus policy"
getent passwd "$tray_user" >/dev/null || desk_skip "there is no user $tray_user"
[ -x "$idlegpu" ] || desk_fail "$idlegpu is not an executable"
[ -x "$holdopen" ] || desk_fail "$holdopen is not an executable"
((EUID == 0)) || desk_skip "the service runs as root, and the tray as another user: run as root"
# The tray's user runs idlegpu and the job: copies in the scenario's folder where a folder above the build is private
# (a checkout in /root). The tray, a client, needs nothing beside its binary.
as_tray_user() { setpriv --reuid "$tray_user" --regid "$(id -g "$tray_user")" --clear-groups "$@"; }
if ! as_tray_user test -x "$idlegpu" || ! as_tray_user test -x "$holdopen"; then
    if ! mkdir -m 0755 "$DESK_TMP/bin" || ! cp "$idlegpu" "$holdopen" "$DESK_TMP/bin/"; then
        desk_fail "cannot copy idlegpu and the job for $tray_user"
    fi
    chmod 0711 "$DESK_TMP"
    idlegpu=$DESK_TMP/bin/$(basename "$idlegpu") holdopen=$DESK_TMP/bin/$(basename "$holdopen")
    desk_log "$tray_user runs copies of idlegpu and the job from $DESK_TMP/bin"
fi
export TZ=UTC # idlegpu's log lines carry wall times: read back as UTC

export XDG_CURRENT_DESKTOP=XFCE XDG_SESSION_TYPE=x11
mkdir -p "$XDG_CONFIG_HOME/xfce4/xfconf/xfce-perchannel-xml"
cp /etc/xdg/xfce4/panel/default.xml "$XDG_CONFIG_HOME/xfce4/xfconf/xfce-perchannel-xml/xfce4-panel.xml"

# --- The machine: system bus, polkitd, the service -----------------------------------------------------------------
desk_policy_system_bus "$resources/io.github.idlegpu.Idlegpu1.conf" \
    /usr/share/dbus-1/system.d/org.freedesktop.PolicyKit1.conf
mkdir -p "$DESK_TMP/polkit/actions" "$DESK_TMP/polkit/rules.d"
cp "$resources/io.github.idlegpu.policy" "$DESK_TMP/polkit/actions/" || desk_fail "cannot copy the polkit actions"
desk_polkitd "$DESK_TMP/polkit/actions" "$DESK_TMP/polkit/rules.d"
rules=$DESK_TMP/polkit/rules.d/50-idlegpu-test.rules
desk_polkit_rules "$rules" YES "$tray_user"

# The bus's owner changes of idlegpu's name, stamped (the restart's figure).
desk_start system-monitor dbus-monitor --address "$DBUS_SYSTEM_BUS_ADDRESS" \
    "type='signal',member='NameOwnerChanged',arg0='io.github.idlegpu.Idlegpu1'" \
    "type='signal',interface='io.github.idlegpu.Idlegpu1'"
wait_for 5 grep -q NameLost "$(desk_log_file system-monitor)" \
    || desk_fail "dbus-monitor does not monitor the system bus: $(tail -3 "$(desk_log_file system-monitor)")"

desk_idlegpu_config service >/dev/null || desk_fail "cannot write the service's configuration"
service_folder=$DESK_TMP/idlegpu-service
mkdir -m 0700 "$service_folder/run" || desk_fail "cannot make the service's runtime folder"
# As the system unit runs it: root, headless, on the system bus; its state and lock in folders of the scenario.
service_start() {
    desk_start idlegpu-service env IDLEGPU_BUS=system QT_LOGGING_RULES="idlegpu.*=true" \
        XDG_STATE_HOME="$service_folder/state" RUNTIME_DIRECTORY="$service_folder/run" TMPDIR="$service_folder/tmp" \
        "$idlegpu" --headless --config "$service_folder/idlegpu.conf"
    DESK_IDLEGPU_PID[service]=$DESK_PID
}
service_owned() { desk_system_name_owner io.github.idlegpu.Idlegpu1 >/dev/null; }
service_start
wait_for 20 service_owned \
    || desk_fail "the service does not own io.github.idlegpu.Idlegpu1: $(tail -5 "$(desk_idlegpu_log service)")"
[ "$(desk_system_name_uid io.github.idlegpu.Idlegpu1)" = 0 ] || desk_fail "the service's name is not root's"
wait_for 20 desk_workload_runs service \
    || desk_fail "the service's workload does not run: $(tail -5 "$(desk_idlegpu_log service)")"
desk_log "the service (pid ${DESK_IDLEGPU_PID[service]}) owns io.github.idlegpu.Idlegpu1 and runs its workload"

# The service's state as `idlegpu --status --json` gives it on this bus: "SOURCE ALL_PAUSED" (python's True/False).
service_status() {
    "$idlegpu" --status --json 2>/dev/null | "$DESK_PYTHON" -c '
import json, sys
state = json.load(sys.stdin)
print(state.get("source"), state.get("pause", {}).get("all"))'
}
service_status_is() { [ "$(service_status)" = "$1" ]; }

# --- The desk -------------------------------------------------------------------------------------------------------
desk_xvfb 1280x800x24
desk_session_bus org.xfce.Xfconf org.xfce.xfce4-notifyd.Notifications
desk_trace_tray
desk_notify_capture_start
# The items' signals (NewToolTip: the tray showing something new), stamped.
desk_start item-monitor dbus-monitor --session "type='signal',interface='org.kde.StatusNotifierItem'" \
    "type='signal',interface='com.canonical.dbusmenu'" "type='method_call',interface='com.canonical.dbusmenu'"
wait_for 5 grep -q NameLost "$(desk_log_file item-monitor)" \
    || desk_fail "dbus-monitor does not monitor the session bus: $(tail -3 "$(desk_log_file item-monitor)")"

desk_mark_desktop_start
desk_start xfwm4 xfwm4
desk_start panel xfce4-panel
desk_start notifyd "$notifyd"
desk_wait_host xfwm4 panel

# --- The tray of the user at the desk --------------------------------------------------------------------------
tray_home=$DESK_TMP/tray-home
if ! mkdir -m 0700 "$tray_home" "$tray_home/run" || ! chown -R "$tray_user:" "$tray_home"; then
    desk_fail "cannot make the tray user's home"
fi
tray_start_ms=$(desk_now_ms)
desk_start tray setpriv --reuid "$tray_user" --regid "$(id -g "$tray_user")" --clear-groups \
    env HOME="$tray_home" XDG_RUNTIME_DIR="$tray_home/run" XDG_CONFIG_HOME="$tray_home/.config" \
    XDG_STATE_HOME="$tray_home/.local/state" TMPDIR="$tray_home" QT_QPA_PLATFORM=xcb \
    QT_LOGGING_RULES="idlegpu.*=true;qt.qpa.tray=true" "$idlegpu"
tray=$DESK_PID

# The log's wall time of the first line matching PATTERN, in ms since the epoch; false when none.
tray_log_ms() {
    local stamp
    stamp=$(grep -m1 -E "$1" "$(desk_log_file tray)" | grep -oE '^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:.]{12}') || return 1
    date -u -d "$stamp" +%s%3N
}
# The tooltip of the tray's item: its title and text on one line.
tray_tooltip() {
    busctl --user --timeout=3 --json=short get-property "$item_service" "$item_path" org.kde.StatusNotifierItem \
        ToolTip 2>/dev/null | "$DESK_PYTHON" -c '
import json, sys
data = json.load(sys.stdin)["data"]
print(" | ".join(part for part in (data[2], data[3]) if part).replace("\n", " | "))'
}
tray_labels() { desk_menu_labels "$item_service" "$menu"; }
tray_has_label() { tray_labels | grep -qxF "$1"; }
tray_lacks_label() { tray_labels >/dev/null && ! tray_has_label "$1"; }
tray_has_label_like() { tray_labels | grep -qE "$1"; }
tray_tooltip_has() { tray_tooltip | grep -qF "$1"; }
tray_tooltip_lacks() { local tip; tip=$(tray_tooltip) && ! grep -qF "$1" <<<"$tip"; }

if ! desk_wait_item_of_pid "$tray" 20; then
    desk_fail "the tray registered no StatusNotifierItem within 20 s: $(desk_log_tails tray)"
fi
item_service=$DESK_ITEM_SERVICE item_path=$DESK_ITEM_PATH
registered_ms=$(desk_register_time_of_pid "$tray") || registered_ms=$DESK_ITEM_MS
menu=$(desk_menu_path "$item_service" "$item_path")
[ -n "$menu" ] || desk_fail "the tray's item has no menu"
grep -q "showing the idlegpu service on the system bus" "$(desk_log_file tray)" \
    || desk_fail "the tray does not say it shows the service on the system bus: $(desk_log_tails tray)"
wait_for 10 tray_has_label "GPU 0" || desk_error "the tray's menu shows no GPU 0: $(tray_labels | paste -sd '|')"
if ! shown_ms=$(tray_log_ms "showing the idlegpu service \("); then
    desk_error "the tray's log has no \"showing the idlegpu service (...)\" line"
    shown_ms=$registered_ms
fi
((shown_ms < registered_ms)) && shown_ms=$registered_ms
attach_ms=$((shown_ms - tray_start_ms))
desk_log "the tray (pid $tray, user $tray_user) registered its item $((registered_ms - tray_start_ms)) ms after its" \
    "start and showed the service's state $attach_ms ms after it: $(tray_tooltip)"

# Its client, not a second monitor: no workload, no service of its own, no process of its own.
grep -E "in the tray with|monitoring with|serving io.github" "$(desk_log_file tray)" \
    && desk_error "the tray runs a monitor of its own"
busctl --user status io.github.idlegpu.Idlegpu1 >/dev/null 2>&1 \
    && desk_error "an idlegpu owns io.github.idlegpu.Idlegpu1 on the session bus: a second monitor"
[ -z "$(pgrep -P "$tray")" ] || desk_error "the tray has child processes: $(pgrep -a -P "$tray")"
[ "$(desk_workload_starts service)" = 1 ] || desk_error "the workload started $(desk_workload_starts service) times"
workload_name=$(tray_labels | sed -n 's/^Pause \(.*service.*\)$/\1/p' | head -1)
if [ -n "$workload_name" ] && tray_has_label "Pause all" && tray_has_label_like "^running .*service"; then
    desk_log "the tray's menu: $(tray_labels | paste -sd '|')"
else
    desk_error "the tray's menu does not show the service's GPU and workload: $(tray_labels | paste -sd '|')"
fi
tray_tooltip_has "GPU 0: running" || desk_error "the tray's tooltip does not show GPU 0 running: $(tray_tooltip)"

# The icon, found as the other scenarios find theirs: a left click (Activate) pauses the service through polkit (YES),
# and what changes in the tray's area is the icon; a second one resumes. Then the menu on a right click.
DESK_SERVICE[service]=$item_service DESK_OBJECT[service]=$item_path
if desk_locate_icon service "$tray_crop"; then
    wait_for 5 service_status_is "system True" \
        || desk_error "a left click on the tray's icon did not pause the service: $(service_status)"
    wait_for 10 desk_notify_from_pid "$tray" "Paused all workloads" \
        || desk_error "a left click paused the service without a word: no \"Paused all workloads\" notification"
    starts=$(desk_workload_starts service)
    desk_activate "$item_service" "$item_path" >/dev/null
    wait_for 10 desk_workload_restarted service "$starts" \
        || desk_error "a second left click on the tray's icon did not resume the service"
    wait_for 10 tray_has_label "Pause all" || desk_error "the tray's menu offers no \"Pause all\" after the resume"
    desk_check_menu_shot tray "$DESK_ARTIFACTS/desktop_xfce_service_menu.png"
fi

# --- A job of the tray's user opens the GPU: preempted by the service, told by the tray ----------------------------
workload=$(desk_workload_pid service)
starts=$(desk_workload_starts service)
desk_start job setpriv --reuid "$tray_user" --regid "$(id -g "$tray_user")" --clear-groups \
    "$holdopen" "$service_folder/dev/nvidia0"
job=$DESK_PID
wait_for 10 desk_gone "$workload" || desk_error "the service's workload still runs 10 s after a job opened its GPU"
if wait_for 10 desk_notify_from_pid "$tray" "The GPU is yours"; then
    desk_log "the tray's Notify \"$DESK_NOTIFY_SUMMARY\" was answered by $DESK_NOTIFY_SERVER_COMM"
    [ "$DESK_NOTIFY_SERVER_COMM" = xfce4-notifyd ] \
        || desk_error "the tray's notification went to $DESK_NOTIFY_SERVER_COMM, not xfce4-notifyd"
    [ "$DESK_NOTIFY_SUMMARY" = "The GPU is yours" ] \
        || desk_error "the tray told the job's user \"$DESK_NOTIFY_SUMMARY\", not \"The GPU is yours\""
else
    desk_error "no answered Notify from the tray within 10 s of the preemption: $(desk_notify_calls)"
fi
kill -TERM "$job"
wait_for 10 desk_workload_restarted service "$starts" \
    || desk_error "the service's workload did not come back within 10 s of the GPU's release"

# --- Pause through the tray's menu: granted (YES), then refused (NO) -----------------------------------------------
service_status_is "system False" || desk_error "before the pause, --status --json says: $(service_status)"
workload=$(desk_workload_pid service)
desk_menu_click "$item_service" "$menu" "Pause all" >/dev/null || desk_error "no \"Pause all\" in the tray's menu"
wait_for 10 service_status_is "system True" \
    || desk_error "\"Pause all\" in the tray did not pause the service: --status --json says $(service_status)"
wait_for 10 desk_gone "$workload" || desk_error "the service's workload still runs 10 s after \"Pause all\""
# Settled: the workload's stop has reached the tray too (a state that came after the refusal would take its line).
wait_for 10 tray_has_label "idle — paused" && wait_for 10 tray_has_label "Resume" \
    || desk_error "the tray's menu does not show the pause: $(tray_labels | paste -sd '|')"
desk_log "\"Pause all\" in the tray's menu paused the service (polkit's rule: YES)"

desk_polkit_rules "$rules" NO "$tray_user"
# The refusal shows in the menu until the tray's next state: the picture counts when the line is still there after it
# (a state that came meanwhile, or a menu that did not open, means one more refused click and picture).
refused_shot=0 refused_seen=0
for attempt in 1 2 3; do
    if ! desk_menu_click "$item_service" "$menu" "Resume" >/dev/null; then
        desk_error "no \"Resume\" in the tray's menu"
        break
    fi
    if ! wait_for 10 tray_has_label_like "^Resume refused: "; then
        desk_log "no refusal in the tray's menu 10 s after \"Resume\" (try $attempt): $(tray_labels | paste -sd '|')"
        continue
    fi
    refused_seen=1
    line=$(tray_labels | grep -E '^Resume refused: ')
    desk_log "the tray's menu says: ${line:-(nothing: the line went with a new state at once)}"
    if ! desk_menu_shot tray "$DESK_ARTIFACTS/desktop_xfce_service_refused.png"; then
        desk_log "no menu opened for the picture of the refusal (try $attempt)"
    elif ! tray_has_label_like "^Resume refused: "; then
        desk_log "the refusal left the menu before its picture was taken (try $attempt): a new state came"
    else
        refused_shot=1
        break
    fi
done
((refused_seen)) || desk_error "no refusal in the tray's menu after 3 refused clicks on \"Resume\""
((refused_shot || !refused_seen)) || desk_error "no picture of the tray's menu with the refusal in 3 tries"
service_status_is "system True" || desk_error "after the refused Resume, --status --json says: $(service_status)"
desk_workload_runs service && desk_error "the workload runs again after the refused Resume"

# --- The service restarted: "not running" meanwhile, followed within 1 s of its return -----------------------------
pid=${DESK_IDLEGPU_PID[service]}
kill -TERM "$pid"
wait_for 15 desk_gone "$pid" || desk_fail "the service still runs 15 s after SIGTERM"
wait "$pid" 2>/dev/null
wait_for 10 tray_has_label "The idlegpu service is not running" \
    || desk_error "the tray does not say the service is not running: $(tray_labels | paste -sd '|')"
tray_tooltip_has "The idlegpu service is not running" \
    || desk_error "the tray's tooltip does not say the service is not running: $(tray_tooltip)"
desk_log "the service stopped; the tray says: $(tray_tooltip)"
# A picture of it, for people (no check: the menu's lines were checked above).
desk_menu_shot tray "$DESK_ARTIFACTS/desktop_xfce_service_away.png" \
    || desk_log "no picture of the menu while the service is away (no menu opened)"
restart_ms=$(desk_now_ms)
service_start
wait_for 20 service_owned || desk_fail "the restarted service does not own its name"
wait_for 10 tray_lacks_label "The idlegpu service is not running" \
    || desk_error "the tray still says \"not running\" 10 s after the service's return"
wait_for 5 tray_tooltip_lacks "not running" || desk_error "the tray's tooltip still says \"not running\""
tray_has_label "GPU 0" || desk_error "the tray's menu shows no GPU 0 after the restart: $(tray_labels | paste -sd '|')"

# The figure from dbus-monitor's stamps: the name's new owner, then the tray's next item signal.
back_ms=$("$DESK_PYTHON" - "$(desk_log_file system-monitor)" "$(desk_log_file item-monitor)" \
    "$(busctl --user call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus GetNameOwner s \
        "$item_service" 2>/dev/null | awk '{ gsub(/"/, "", $2); print $2 }')" <<'EOF'
import re, sys
def stamped(path):
    events, current = [], None
    for line in open(path, errors="replace"):
        m = re.match(r"^signal time=(\d+)\.(\d+) sender=(\S+) .*member=(\w+)", line)
        if m:
            current = [int(m.group(1)) * 1000 + int(m.group(2)[:3].ljust(3, "0")), m.group(3), m.group(4), []]
            events.append(current)
        elif current is not None:
            s = re.match(r'^\s+string "(.*)"', line)
            if s:
                current[3].append(s.group(1))
    return events
owners = [e for e in stamped(sys.argv[1]) if e[2] == "NameOwnerChanged" and len(e[3]) == 3 and e[3][2]]
if not owners:
    sys.exit(print("none none"))
back = owners[-1][0]
item = [e for e in stamped(sys.argv[2]) if e[1] == sys.argv[3] and e[2] == "NewToolTip" and e[0] >= back]
print(back, item[0][0] - back if item else "none")
EOF
)
owned_ms=${back_ms% *} back_ms=${back_ms#* } name_ms=none
[[ $owned_ms =~ ^[0-9]+$ ]] && name_ms=$((owned_ms - restart_ms))
if [[ $back_ms =~ ^[0-9]+$ ]] && ((back_ms <= 1000)); then
    desk_log "the restarted service owned its name $name_ms ms after its start; the tray showed" \
        "it $back_ms ms after that: $(tray_tooltip)"
else
    desk_error "the tray showed the restarted service $back_ms ms after its return (more than 1000 ms, or never)"
fi
service_status_is "system True" || desk_error "the restarted service lost the pause: $(service_status)"

desk_times "tray_start_to_service_shown_ms=$attach_ms tray_start_to_item_ms=$((registered_ms - tray_start_ms))" \
    "service_start_to_name_ms=$name_ms service_back_to_tray_ms=$back_ms"
desk_finish
