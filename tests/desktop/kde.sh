#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 The idlegpu authors
# Desktop scenario KDE Plasma 5.27 on X11 (issue 22): Xvfb, kwin_x11, kded5 with its StatusNotifierWatcher,
# kactivitymanagerd, ksmserver (org.freedesktop.ScreenSaver: the idle time) and plasmashell (the host, the
# notification server), on private session and system buses. Two idlegpu at once, each on its own fake GPUs:
# "before" starts before the desktop, as a login autostart does (kded5's watcher then comes before plasmashell's
# host: Plasma's own order), "after" once the host is registered. Checks: both end as StatusNotifierItems, "before"
# within 1 s of the host; the menu over com.canonical.dbusmenu; Activate over D-Bus and a real xdotool click on
# the icon pause and resume; a preemption's notification reaches plasmashell; KDE's idle time (xdotool input)
# pauses the "after" idlegpu (pause_while_active) and no input resumes it; "Start at login" writes and removes the
# autostart entry. Screenshots: ARTIFACT_DIR/desktop_kde_panel.png, desktop_kde_menu.png.
#
# Usage: kde.sh IDLEGPU_BINARY ARTIFACT_DIR [TOOL...]   (TOOL: test_fakelogind, test_holdopen, found by name)
# Exit 0 passed, 1 failed, 77 skipped (a desktop binary is missing, or Plasma registers no host within 30 s).
set -uo pipefail

name=kde
idlegpu=${1:?usage: kde.sh IDLEGPU_BINARY ARTIFACT_DIR [TOOL...]}
artifacts=${2:?usage: kde.sh IDLEGPU_BINARY ARTIFACT_DIR [TOOL...]}
shift 2
fakelogind="" holdopen=""
for tool in "$@"; do
    case ${tool##*/} in
    *fakelogind*) fakelogind=$tool ;;
    *holdopen*) holdopen=$tool ;;
    esac
done

# --- generic: could move to lib.sh ---------------------------------------------------------------------------

started_s=$SECONDS
now_ms() { date +%s%3N; }
step() { echo "desktop_$name: [$(($(now_ms) - ${T0:-$(now_ms)})) ms] $*"; }
failures=()
# A check that failed; the scenario goes on where the next checks do not depend on it, and fails at the end.
bad() {
    failures+=("$*")
    echo "desktop_$name: FAILED: $*" >&2
}
fail() {
    bad "$@"
    exit 1
}
skip() {
    echo "desktop_$name: SKIPPED: $*"
    skipping=1
    exit 77
}

# wait_for SECONDS COMMAND [ARGS...]: polls COMMAND every 0.1 s until it succeeds; false once SECONDS have passed.
wait_for() {
    local deadline=$(($(now_ms) + $1 * 1000))
    shift
    until "$@"; do
        (($(now_ms) >= deadline)) && return 1
        sleep 0.1
    done
}
alive() {
    local stat
    [ -n "${1:-}" ] && read -r stat 2>/dev/null <"/proc/$1/stat" || return 1
    stat=${stat##*) }
    [ "${stat%% *}" != Z ]
}
gone() { ! alive "$1"; }

# Every process is started in its own session and group (setsid), killed by group at the end; D-Bus-activated
# helpers are in no such group and are found by the marker in their environment.
groups=()
start_bg() { # start_bg LOGNAME COMMAND [ARGS...]: $! is the group's leader
    local log=$1
    shift
    setsid "$@" >"$tmp/$log.log" 2>&1 &
    groups+=($!)
}
marked_pids() {
    local environ pid
    for environ in /proc/[0-9]*/environ; do
        pid=${environ#/proc/}
        pid=${pid%/environ}
        [ "$pid" = $$ ] || [ "$pid" = "$BASHPID" ] && continue
        grep -qzx "IDLEGPU_DESKTOP_MARK=$tmp" "$environ" 2>/dev/null && echo "$pid"
    done
}
stop_everything() {
    local group pid left
    for group in "${groups[@]}"; do kill -TERM -- "-$group" 2>/dev/null; done
    for pid in $(marked_pids); do kill -TERM "$pid" 2>/dev/null; done
    local deadline=$(($(now_ms) + 3000))
    while left=$(marked_pids) && [ -n "$left" ] && (($(now_ms) < deadline)); do sleep 0.1; done
    for group in "${groups[@]}"; do kill -KILL -- "-$group" 2>/dev/null; done
    for pid in $(marked_pids); do kill -KILL "$pid" 2>/dev/null; done
    wait 2>/dev/null
    left=$(marked_pids)
    [ -z "$left" ] || echo "desktop_$name: still running after SIGKILL: $left" >&2
}

tmp="" skipping=""
cleanup() {
    local status=$?
    trap - EXIT
    ((status == 0)) && ((${#failures[@]})) && status=1
    if [ -n "$tmp" ]; then
        if ((status == 1)) && [ -n "${DISPLAY:-}" ]; then
            import -window root "$artifacts/desktop_${name}_failure.png" 2>/dev/null \
                && echo "desktop_$name: screenshot at the failure: $artifacts/desktop_${name}_failure.png"
        fi
        stop_everything
        if ((status != 0)); then
            mkdir -p "$artifacts/desktop_${name}_logs" && cp "$tmp"/*.log "$artifacts/desktop_${name}_logs/" 2>/dev/null
            echo "desktop_$name: logs in $artifacts/desktop_${name}_logs"
        fi
        rm -rf "$tmp"
    fi
    if ((status == 0)); then
        echo "desktop_$name: PASSED in $((SECONDS - started_s)) s"
    elif [ -z "$skipping" ]; then
        echo "desktop_$name: FAILED in $((SECONDS - started_s)) s: ${#failures[@]} check(s):" >&2
        printf '  - %s\n' "${failures[@]}" >&2
    fi
    exit "$status"
}
trap cleanup EXIT
trap 'fail "interrupted"' INT TERM HUP

need() { command -v "$1" >/dev/null || skip "$1 is missing (Debian package $2)"; }

# A private bus: only the .service files named (from /usr/share/dbus-1/services) can be activated on it, so that
# no other desktop's helper answers (with KDE and XFCE installed both own org.freedesktop.Notifications'
# activation). Prints "ADDRESS PID".
private_bus() { # private_bus NAME SERVICE_FILE...
    local bus=$tmp/bus-$1 file
    shift
    mkdir -p "$bus/services"
    for file in "$@"; do ln -s "/usr/share/dbus-1/services/$file" "$bus/services/$file"; done
    cat >"$bus/bus.conf" <<EOF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <keep_umask/>
  <listen>unix:dir=$bus</listen>
  <servicedir>$bus/services</servicedir>
  <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
</busconfig>
EOF
    setsid dbus-daemon --config-file="$bus/bus.conf" --fork --print-address=1 --print-pid=1 | paste -sd' '
}

# A free X display with Xvfb; sets DISPLAY.
start_xvfb() {
    local n
    for n in $(seq 100 199); do
        [ -e "/tmp/.X11-unix/X$n" ] || [ -e "/tmp/.X$n-lock" ] && continue
        start_bg xvfb Xvfb ":$n" -screen 0 1280x800x24 -nolisten tcp -noreset
        local pid=$!
        if wait_for 10 xdpyinfo -display ":$n" >/dev/null 2>&1 && alive "$pid"; then
            export DISPLAY=:$n
            return 0
        fi
        kill -KILL -- "-$pid" 2>/dev/null
    done
    fail "no free X display in :100..:199, or Xvfb does not start: $(tail -3 "$tmp/xvfb.log")"
}

# An idlegpu instance NAME: its own config, fake GPU nodes (nvidia0, nvidiactl, nvidia-uvm), XDG folders and
# log; its workload writes its pid to $tmp/NAME/starts at each start. Extra config lines on stdin.
make_instance() {
    local inst=$tmp/$1
    mkdir -p "$inst/dev" "$inst/config" "$inst/state" "$inst/cache" "$inst/tmp"
    for node in nvidia0 nvidiactl nvidia-uvm; do : >"$inst/dev/$node" && chmod 0666 "$inst/dev/$node"; done
    (
        umask 077
        cat <<EOF
[defaults]
start_delay_seconds = 0
device_root = $inst/dev

[process-$1]
cmd = sh -c 'echo \$\$ >> $inst/starts; exec sleep 1000'
user = $(id -un)
gpus = 0
EOF
        cat
    ) >"$inst/idlegpu.conf"
}
start_instance() { # start_instance NAME [ENV=VALUE...]: sets the variable pid_NAME
    local inst=$tmp/$1 instance=$1
    shift
    start_bg "idlegpu-$instance" env XDG_CONFIG_HOME="$inst/config" XDG_STATE_HOME="$inst/state" \
        XDG_CACHE_HOME="$inst/cache" TMPDIR="$inst/tmp" LANG=C.UTF-8 LC_ALL=C.UTF-8 \
        QT_LOGGING_RULES="qt.qpa.tray=true" "$@" "$idlegpu" --config "$inst/idlegpu.conf"
    printf -v "pid_$instance" %s "$!"
}
start_count() { if [ -f "$tmp/$1/starts" ]; then wc -l <"$tmp/$1/starts"; else echo 0; fi; }
workload_pid() { sed -n "${2}p" "$tmp/$1/starts" 2>/dev/null; }
# The instance's Nth workload start happened and that workload runs.
started() { (($(start_count "$1") >= $2)) && alive "$(workload_pid "$1" "$2")"; }
latest_workload_running() { local n; n=$(start_count "$1"); ((n > 0)) && alive "$(workload_pid "$1" "$n")"; }
no_workload_running() { ! latest_workload_running "$1"; }

# --- StatusNotifierItems and their menus -----------------------------------------------------------------------

watcher_owned() { busctl --user status org.kde.StatusNotifierWatcher >/dev/null 2>&1; }
host_registered() {
    busctl --user get-property org.kde.StatusNotifierWatcher /StatusNotifierWatcher org.kde.StatusNotifierWatcher \
        IsStatusNotifierHostRegistered 2>/dev/null | grep -q true
}
registered_items() {
    busctl --user get-property org.kde.StatusNotifierWatcher /StatusNotifierWatcher org.kde.StatusNotifierWatcher \
        RegisteredStatusNotifierItems 2>/dev/null | grep -o '"[^"]*"' | tr -d '"'
}
unique_name() { busctl --user call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus GetNameOwner s "$1" 2>/dev/null | grep -o '"[^"]*"' | tr -d '"'; }
bus_pid() { busctl --user call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus GetConnectionUnixProcessID s "$1" 2>/dev/null | awk '{print $2}'; }
# The watcher's entry "SERVICE/PATH" (or "SERVICE") of the item of process $1: sets item_service, item_path.
item_of() {
    local entry
    for entry in $(registered_items); do
        local service=${entry%%/*}
        if [ "$(bus_pid "$service")" = "$1" ]; then
            item_service=$service
            item_path=/${entry#*/}
            [ "$entry" = "$service" ] && item_path=/StatusNotifierItem
            return 0
        fi
    done
    return 1
}
item_property() { busctl --user get-property "$1" "$2" org.kde.StatusNotifierItem "$3" 2>/dev/null; }
# The menu's layout as lines "ID<TAB>LABEL", from com.canonical.dbusmenu GetLayout.
menu_items() { # menu_items SERVICE MENU_PATH
    busctl --user --json=short call -- "$1" "$2" com.canonical.dbusmenu GetLayout iias 0 -1 0 2>/dev/null \
        | python3 -c '
import json, sys
def walk(node):
    ident, props, children = node
    if "label" in props: print("%d\t%s" % (ident, props["label"]["data"]))
    for child in children: walk(child["data"])
walk(json.load(sys.stdin)["data"][1])'
}
menu_path() { item_property "$1" "$2" Menu | grep -o '"[^"]*"' | tr -d '"'; }
menu_id() { menu_items "$1" "$2" | awk -F'\t' -v label="$3" '$2 == label {print $1; exit}'; }
menu_has() { menu_items "$1" "$2" | cut -f2 | grep -qx -- "$3"; }
menu_click() { busctl --user call -- "$1" "$2" com.canonical.dbusmenu Event isvu "$3" clicked i 0 0 >/dev/null; }

# --- screen ----------------------------------------------------------------------------------------------------

crop() { import -window root -crop "$1" +repage "$2" 2>/dev/null; }
differing_pixels() { local n; n=$(compare -metric AE "$1" "$2" null: 2>&1); echo "${n%% *}"; }
# The bounding box "WxH+X+Y" of the pixels that differ between two crops of the same region at offset X0,Y0.
diff_box() { # diff_box A B X0 Y0
    compare -metric AE -fuzz 10% -compose src -highlight-color white -lowlight-color black "$1" "$2" png:- 2>/dev/null \
        | convert - -trim -format '%wx%h+%[fx:page.x+'"$3"']+%[fx:page.y+'"$4"']' info: 2>/dev/null
}

# ==============================================================================================================

for tool in Xvfb xdpyinfo xdotool import compare convert busctl dbus-daemon dbus-monitor python3 desktop-file-validate; do
    command -v "$tool" >/dev/null || fail "$tool is missing; scripts/test installs it"
done
need kwin_x11 kwin-x11
need kded5 kded5
need ksmserver plasma-workspace
need plasmashell plasma-workspace
kamd=/usr/lib/x86_64-linux-gnu/libexec/kactivitymanagerd
[ -x "$kamd" ] || skip "$kamd is missing (Debian package kactivitymanagerd)"
[ -x "$idlegpu" ] || fail "$idlegpu is not an executable"
mkdir -p "$artifacts" || fail "cannot create the artifact folder $artifacts"
artifacts=$(cd "$artifacts" && pwd)
rm -rf "$artifacts"/desktop_${name}_*

tmp=$(mktemp -d "${TMPDIR:-/tmp}/idlegpu-desktop-$name.XXXXXX") || fail "cannot create a temporary folder"
chmod 700 "$tmp"
mkdir -p "$tmp/home" "$tmp/runtime" && chmod 700 "$tmp/runtime"
export IDLEGPU_DESKTOP_MARK=$tmp HOME=$tmp/home XDG_RUNTIME_DIR=$tmp/runtime
unset WAYLAND_DISPLAY DESKTOP_SESSION QT_QPA_PLATFORMTHEME QT_STYLE_OVERRIDE SESSION_MANAGER XDG_SESSION_ID
export QT_QPA_PLATFORM=xcb XDG_SESSION_TYPE=x11 XDG_CURRENT_DESKTOP=KDE KDE_FULL_SESSION=true KDE_SESSION_VERSION=5
export NO_AT_BRIDGE=1 QT_ACCESSIBILITY=0

read -r DBUS_SYSTEM_BUS_ADDRESS system_bus_pid < <(private_bus system)
[ -n "$system_bus_pid" ] || fail "the private system bus did not start"
groups+=("$system_bus_pid")
read -r DBUS_SESSION_BUS_ADDRESS session_bus_pid < <(private_bus session org.kde.kglobalaccel.service \
    org.kde.plasma.Notifications.service org.kde.kded5.service org.kde.ActivityManager.service)
[ -n "$session_bus_pid" ] || fail "the private session bus did not start"
groups+=("$session_bus_pid")
export DBUS_SYSTEM_BUS_ADDRESS DBUS_SESSION_BUS_ADDRESS
if [ -n "$fakelogind" ]; then
    start_bg fakelogind "$fakelogind" --address "$DBUS_SYSTEM_BUS_ADDRESS"
fi
start_xvfb
step "buses and Xvfb on $DISPLAY"

# --- 1. "before": idlegpu as a login autostart, up and running its workload before the desktop ------------------

make_instance before </dev/null
make_instance after <<EOF

[activity]
pause_while_active = true
idle_seconds = 4
EOF
start_instance before
wait_for 20 started before 1 || fail "the \"before\" idlegpu did not start its workload within 20 s: $(tail -5 "$tmp/idlegpu-before.log")"
step "\"before\" idlegpu (pid $pid_before) runs its workload; the desktop starts"

# --- 2. The desktop: kwin, kded5 (the watcher), kactivitymanagerd, ksmserver, plasmashell (the host) -------------

T0=$(now_ms)
start_bg kwin kwin_x11
start_bg kded kded5
start_bg kamd "$kamd"
load_watcher() { busctl --user call org.kde.kded5 /kded org.kde.kded5 loadModule s statusnotifierwatcher >/dev/null 2>&1; }
wait_for 30 load_watcher || skip "kded5 did not load its statusnotifierwatcher module within 30 s: $(tail -5 "$tmp/kded.log")"
start_bg ksmserver ksmserver
# ksmserver starts plasmashell in a real session: its ScreenSaver (the idle time) answers before the host exists.
kde_idle() { busctl --user call org.freedesktop.ScreenSaver /ScreenSaver org.freedesktop.ScreenSaver GetSessionIdleTime 2>/dev/null; }
wait_for 20 kde_idle >/dev/null || skip "ksmserver's org.freedesktop.ScreenSaver does not answer within 20 s: $(tail -5 "$tmp/ksmserver.log")"
start_bg plasma plasmashell --no-respawn

# One poll loop for the watcher, the host and both items: every 0.1 s, timestamps in ms from T0.
watcher_ms="" host_ms="" before_item_ms="" after_item_ms="" after_start_ms=""
poll_deadline=$(($(now_ms) + 30000))
since_t0() { echo $(($(now_ms) - T0)); }
while (($(now_ms) < poll_deadline)); do
    [ -z "$watcher_ms" ] && watcher_owned && watcher_ms=$(since_t0) && step "watcher owned"
    if [ -n "$watcher_ms" ] && [ -z "$host_ms" ] && host_registered; then
        host_ms=$(since_t0)
        step "host registered; \"after\" idlegpu starts"
        start_instance after
        after_start_ms=$(($(now_ms) - T0))
        poll_deadline=$(($(now_ms) + 5000))
    fi
    [ -n "$host_ms" ] && [ -z "$before_item_ms" ] && item_of "$pid_before" && before_item_ms=$(since_t0) && step "\"before\" item registered: $item_service"
    [ -n "$host_ms" ] && [ -z "$after_item_ms" ] && item_of "$pid_after" && after_item_ms=$(since_t0) && step "\"after\" item registered: $item_service"
    [ -n "$before_item_ms" ] && [ -n "$after_item_ms" ] && break
    sleep 0.1
done
[ -n "$host_ms" ] || skip "Plasma registered no StatusNotifierHost within 30 s (watcher: ${watcher_ms:-none}); plasmashell said: $(tail -5 "$tmp/plasma.log")"

before_after_host=$([ -n "$before_item_ms" ] && echo $((before_item_ms - host_ms)) || echo none)
after_after_start=$([ -n "$after_item_ms" ] && echo $((after_item_ms - after_start_ms)) || echo none)
echo "DESKTOP-TIMES desktop=kde watcher_ms=$watcher_ms host_ms=$host_ms before_item_after_host_ms=$before_after_host after_item_after_start_ms=$after_after_start"

if [ -z "$before_item_ms" ]; then
    bad "the \"before\" idlegpu (started before the desktop) registered no StatusNotifierItem within 5 s of the host (the login race); Qt said: $(grep -m1 'D-Bus tray' "$tmp/idlegpu-before.log")"
elif ((before_after_host > 1000)); then
    bad "the \"before\" idlegpu registered its item $before_after_host ms after the host, more than 1 s"
fi
[ -n "$after_item_ms" ] || fail "the \"after\" idlegpu registered no StatusNotifierItem within 10 s of its start: $(tail -5 "$tmp/idlegpu-after.log")"
((after_after_start <= 5000)) || bad "the \"after\" idlegpu registered its item $after_after_start ms after its start, more than 5 s"

# The items' D-Bus names and menus. The checks that click go to "before" where it has an item (it has no presence
# rule, so its workload follows the clicks alone), else to "after".
item_of "$pid_after"
after_service=$item_service after_path=$item_path after_menu=$(menu_path "$item_service" "$item_path")
target=after target_service=$after_service target_path=$after_path target_menu=$after_menu
if [ -n "$before_item_ms" ] && item_of "$pid_before"; then
    before_service=$item_service before_path=$item_path before_menu=$(menu_path "$item_service" "$item_path")
    target=before target_service=$before_service target_path=$before_path target_menu=$before_menu
fi

# --- 3. The menu over com.canonical.dbusmenu ---------------------------------------------------------------------

for instance in before after; do
    service_var=${instance}_service menu_var=${instance}_menu
    [ -n "${!service_var:-}" ] || continue
    labels=$(menu_items "${!service_var}" "${!menu_var}" | cut -f2)
    grep -qx 'GPU 0' <<<"$labels" && grep -qx 'Pause all' <<<"$labels" \
        || bad "the \"$instance\" item's menu (${!menu_var}) lacks \"GPU 0\" or \"Pause all\": $(tr '\n' '|' <<<"$labels")"
done
step "both menus list \"GPU 0\" and \"Pause all\""

# --- 4. Presence, part 1: KDE's idle time. "after" pauses while someone is at the computer (idle_seconds 4) -------
# Xvfb has had no input since it started: "after" counts the user away and runs. One xdotool input resets KDE's
# idle time (org.freedesktop.ScreenSaver GetSessionIdleTime, in milliseconds on Plasma 5.27); idlegpu asks every
# 5 s, so it pauses within ~5 s, and resumes 4 s after the input. The checks between run meanwhile.
wait_for 15 latest_workload_running after || bad "the \"after\" workload did not run within 15 s, though Xvfb had no input: $(grep -E 'presence|you are' "$tmp/idlegpu-after.log" | tail -3)"
kde_idle_before=$(busctl --user call org.freedesktop.ScreenSaver /ScreenSaver org.freedesktop.ScreenSaver GetSessionIdleTime 2>&1)
xdotool mousemove 640 400 mousemove 650 410
input_ms=$(now_ms)
kde_idle_after=$(busctl --user call org.freedesktop.ScreenSaver /ScreenSaver org.freedesktop.ScreenSaver GetSessionIdleTime 2>&1)
step "xdotool input: KDE's GetSessionIdleTime $kde_idle_before -> $kde_idle_after"

# --- 5. "Start at login" through the menu's Event: writes and removes the autostart entry --------------------------

autostart=$tmp/$target/config/autostart/idlegpu.desktop
autostart_id=$(menu_id "$target_service" "$target_menu" 'Start at login')
if [ -z "$autostart_id" ]; then
    bad "the menu has no \"Start at login\""
else
    menu_click "$target_service" "$target_menu" "$autostart_id" || bad "the menu's Event \"clicked\" failed"
    if wait_for 5 test -f "$autostart"; then
        validation=$(desktop-file-validate "$autostart" 2>&1) || bad "desktop-file-validate rejects $autostart: $validation"
        grep -q "^Exec=.*idlegpu" "$autostart" || bad "the autostart entry does not start idlegpu: $(grep ^Exec= "$autostart")"
        # The menu is built anew on each change: its items' ids with it.
        autostart_id=$(menu_id "$target_service" "$target_menu" 'Start at login')
        menu_click "$target_service" "$target_menu" "$autostart_id"
        wait_for 5 test ! -e "$autostart" && step "\"Start at login\" wrote a valid $autostart and removed it" \
            || bad "\"Start at login\" clicked again left $autostart"
    else
        bad "\"Start at login\" wrote no $autostart"
    fi
fi

# --- 6. Activate over D-Bus: pauses, and a second one resumes -----------------------------------------------------

activate() { busctl --user call "$target_service" "$target_path" org.kde.StatusNotifierItem Activate ii 0 0 >/dev/null; }
if [ "$target" = before ]; then
    wait_for 10 latest_workload_running before || bad "the \"before\" workload does not run"
    starts=$(start_count before)
    activate || bad "Activate failed"
    wait_for 5 no_workload_running before || bad "the \"before\" workload still runs 5 s after Activate"
    wait_for 5 menu_has "$target_service" "$target_menu" Resume || bad "the menu shows no \"Resume\" after Activate"
    activate
    wait_for 10 started before $((starts + 1)) || bad "the \"before\" workload did not start again within 10 s of the second Activate"
    step "Activate paused the \"before\" workload, a second one resumed it"
fi

# --- 7. Presence, part 2 ------------------------------------------------------------------------------------------

after_stopped() { no_workload_running after; }
if wait_for $((input_ms / 1000 + 8 - $(now_ms) / 1000)) after_stopped; then
    step "\"after\" paused $(($(now_ms) - input_ms)) ms after the input: $(grep -o 'presence: .*' "$tmp/idlegpu-after.log" | tail -1)"
    resumes=$(start_count after)
    wait_for 15 started after $((resumes + 1)) \
        && step "\"after\" resumed $(($(now_ms) - input_ms)) ms after the input, with no input since" \
        || bad "the \"after\" workload did not start again within 15 s without input: $(grep -o 'presence: .*' "$tmp/idlegpu-after.log" | tail -1)"
else
    bad "the \"after\" workload still runs 8 s after xdotool input (pause_while_active, idle_seconds 4; KDE said $kde_idle_after): $(grep -o 'presence: .*' "$tmp/idlegpu-after.log" | tail -1)"
fi

# --- 8. The icon on screen, a real click, the menu ----------------------------------------------------------------
# The tray is the right end of Plasma's bottom panel, the clock left out (it changes). Plasma draws its items
# seconds after they register: find the icon by the change an Activate makes, polling, never a fixed wait.

tray_box=240x44+880+756
panel_box=400x44+880+756
menu_box=500x500+780+300
tray_painted() { (($(import -window root -crop "$tray_box" +repage -format %k info: 2>/dev/null || echo 0) > 8)); }
wait_for 40 tray_painted || fail "Plasma's panel shows no tray at $tray_box within 40 s"
crop "$tray_box" "$tmp/tray-before.png"
tray_changed() { crop "$tray_box" "$tmp/tray-now.png" && (($(differing_pixels "$tmp/tray-before.png" "$tmp/tray-now.png") > 20)); }
activate || bad "Activate failed"
wait_for 5 menu_has "$target_service" "$target_menu" Resume || bad "the menu shows no \"Resume\" after Activate"
wait_for 30 tray_changed || fail "the tray did not change within 30 s of Activate: Plasma does not draw idlegpu's icon"
icon_box=$(diff_box "$tmp/tray-before.png" "$tmp/tray-now.png" 880 756)
IFS='x+' read -r icon_w icon_h icon_x icon_y <<<"$icon_box"
((icon_w >= 8 && icon_w <= 64 && icon_h >= 8 && icon_h <= 44)) || fail "the tray changed in $icon_box, not an icon's size"
step "the icon is at $icon_box (the change Activate made)"

starts=$(start_count "$target")
xdotool mousemove $((icon_x + icon_w / 2)) $((icon_y + icon_h / 2)) click 1 mousemove 640 400
wait_for 5 menu_has "$target_service" "$target_menu" 'Pause all' || bad "a click on the icon did not resume \"$target\" (its menu still shows \"Resume\")"
if [ "$target" = before ]; then
    wait_for 10 started before $((starts + 1)) || bad "the \"before\" workload did not start again within 10 s of the click"
fi
step "an xdotool click on the icon resumed \"$target\""
# "after" is held now by the click's own input (pause_while_active): only "before" must look as it did.
tray_resumed() { crop "$tray_box" "$tmp/tray-now.png" && (($(differing_pixels "$tmp/tray-before.png" "$tmp/tray-now.png") <= 20)); }
[ "$target" = before ] && { wait_for 10 tray_resumed || bad "the icon does not look as before the pause"; }
crop "$panel_box" "$artifacts/desktop_${name}_panel.png" && step "screenshot: $artifacts/desktop_${name}_panel.png"

crop "$menu_box" "$tmp/menu-before.png"
menu_shown() { crop "$menu_box" "$tmp/menu-now.png" && (($(differing_pixels "$tmp/menu-before.png" "$tmp/menu-now.png") > 2000)); }
xdotool mousemove $((icon_x + icon_w / 2)) $((icon_y + icon_h / 2)) click 3
if wait_for 10 menu_shown; then
    # The menu's box (where it changed the screen) down to the panel's bottom, the tray included.
    IFS='x+' read -r box_w box_h box_x box_y <<<"$(diff_box "$tmp/menu-before.png" "$tmp/menu-now.png" 780 300)"
    shot_x=$((box_x < 880 ? box_x : 880))
    crop "$((1280 - shot_x))x$((800 - box_y))+$shot_x+$box_y" "$artifacts/desktop_${name}_menu.png" \
        && step "screenshot: $artifacts/desktop_${name}_menu.png"
    xdotool key Escape
else
    bad "no menu on screen within 10 s of a right click on the icon"
fi

# --- 9. A preemption's notification reaches plasmashell -----------------------------------------------------------

notifications_owner=$(bus_pid org.freedesktop.Notifications)
start_bg monitor dbus-monitor --session "type='method_call',interface='org.freedesktop.Notifications',member='Notify'" "type='method_return'"
monitor_pid=$!
monitor_ready() { grep -q 'NameAcquired\|member=Notify\|method return' "$tmp/monitor.log" 2>/dev/null || busctl --user list --no-legend 2>/dev/null | awk '{print $2}' | grep -qx "$monitor_pid"; }
wait_for 5 monitor_ready
wait_for 10 latest_workload_running "$target" || bad "the \"$target\" workload does not run before the preemption"
holder_cmd=(python3 -c 'import sys, time; files = [open(p) for p in sys.argv[1:]]; time.sleep(3600)')
[ -n "$holdopen" ] && holder_cmd=("$holdopen")
start_bg holder "${holder_cmd[@]}" "$tmp/$target/dev/nvidia0" "$tmp/$target/dev/nvidia-uvm"
wait_for 10 no_workload_running "$target" || bad "the \"$target\" workload still runs beside a program that opened its GPU"
# The bus name that answered a Notify from process $1, from the monitor's log. Qt's tray item has a connection of
# its own: the notification comes from another one of idlegpu's.
notify_answered_by() {
    local sender serial
    while read -r sender serial; do
        [ "$(bus_pid "$sender")" = "$1" ] || continue
        awk -v sender="$sender" -v serial="$serial" '
            /^method return/ && index($0 " ", " reply_serial=" serial " ") && index($0, " destination=" sender " ") {
                match($0, /sender=[^ ]+/); print substr($0, RSTART + 7, RLENGTH - 7); exit }' "$tmp/monitor.log"
        return
    done < <(sed -n 's/^method call .* sender=\([^ ]*\) -> destination=org.freedesktop.Notifications serial=\([0-9]*\) .*member=Notify$/\1 \2/p' "$tmp/monitor.log")
}
target_pid_var=pid_$target
notified() { [ -n "$(notify_answered_by "${!target_pid_var}")" ]; }
if wait_for 10 notified; then
    answerer=$(notify_answered_by "${!target_pid_var}")
    answerer_pid=$(bus_pid "$answerer")
    answerer_comm=$(cat "/proc/$answerer_pid/comm" 2>/dev/null)
    [ "$answerer_comm" = plasmashell ] || bad "the notification was answered by $answerer ($answerer_comm), not plasmashell"
    step "the preemption's Notify was answered by $answerer_comm (pid $answerer_pid)"
else
    bad "no Notify from \"$target\" (pid ${!target_pid_var}) answered within 10 s of the preemption (org.freedesktop.Notifications: pid ${notifications_owner:-none}): $(tail -5 "$tmp/monitor.log")"
fi
