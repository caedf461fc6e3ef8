#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 The idlegpu authors
# End-to-end test of the tray (issue 3): a virtual X display (Xvfb) with a real XEmbed system tray (trayer),
# idlegpu in tray mode on fake device nodes. Checks that the icon docks, that a left click stops the workload
# and a second one brings it back, that a right click opens the menu; then, with `idlegpu --demo`, that
# "Simulate a job on GPU 0" chosen by keyboard starts a python3 holding the demo's nvidia0 and nvidia-uvm (a CUDA
# job: a compute client, which busy_when = auto, the default, counts) and preempts the demo workload. Screenshots go to ARTIFACT_DIR.
#
# Usage: e2e_tray.sh IDLEGPU_BINARY ARTIFACT_DIR
# Needs Xvfb, trayer, xdotool, ImageMagick and x11-utils: scripts/test installs them. Missing ones fail the test
# rather than skip it, so that a machine without them cannot pass it unnoticed.
set -uo pipefail

idlegpu=${1:?usage: e2e_tray.sh IDLEGPU_BINARY ARTIFACT_DIR}
artifacts=${2:?usage: e2e_tray.sh IDLEGPU_BINARY ARTIFACT_DIR}

step() { echo "e2e_tray: $*"; }
fail() {
    echo "e2e_tray: FAILED: $*" >&2
    exit 1
}

# wait_for SECONDS COMMAND [ARGS...]: polls COMMAND until it succeeds; false once SECONDS have passed.
wait_for() {
    local deadline=$((SECONDS + $1))
    shift
    until "$@"; do
        ((SECONDS >= deadline)) && return 1
        sleep 0.1
    done
}

# A process that exists and is not a zombie: a dead child its parent has not reaped yet is not running.
alive() {
    local stat
    [ -n "$1" ] && read -r stat 2>/dev/null <"/proc/$1/stat" || return 1
    stat=${stat##*) } # the command name in parentheses may hold spaces
    [ "${stat%% *}" != Z ]
}
gone() { ! alive "$1"; }

# The pids of the processes below $1 (children, grandchildren...), from the parent pids in /proc/*/stat.
descendants() {
    local -A children=()
    local stat pid ppid rest
    for stat in /proc/[0-9]*/stat; do
        read -r rest 2>/dev/null <"$stat" || continue
        pid=${rest%% *}
        rest=${rest##*) }
        rest=${rest#* }
        ppid=${rest%% *}
        children[$ppid]+="$pid "
    done
    local queue=("$1") found=()
    while ((${#queue[@]})); do
        pid=${queue[0]}
        queue=("${queue[@]:1}")
        for child in ${children[$pid]:-}; do
            found+=("$child")
            queue+=("$child")
        done
    done
    echo "${found[@]}"
}

# The first process below $1 whose command line is $2: arguments joined by spaces, the program without its
# folder (the runner starts /usr/bin/sleep for "sleep").
descendant_running() {
    local pid cmdline
    for pid in $(descendants "$1"); do
        cmdline=$(tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline") || continue
        cmdline=${cmdline% }
        local program=${cmdline%% *}
        cmdline=${program##*/}${cmdline#"$program"}
        if [ "$cmdline" = "$2" ] && alive "$pid"; then
            echo "$pid"
            return 0
        fi
    done
    return 1
}

# The first process named $2 (its comm) with a descriptor open on the file $1.
holder_named() {
    local fd pid comm
    for fd in $(find /proc/[0-9]*/fd -maxdepth 1 -lname "$1" 2>/dev/null); do
        pid=${fd#/proc/}
        pid=${pid%%/*}
        read -r comm 2>/dev/null <"/proc/$pid/comm" || continue
        if [ "$comm" = "$2" ]; then
            echo "$pid"
            return 0
        fi
    done
    return 1
}

for tool in Xvfb trayer xdotool xdpyinfo xwininfo import convert compare find; do
    command -v "$tool" >/dev/null \
        || fail "$tool is missing; scripts/test installs it (Debian packages xvfb trayer xdotool x11-utils imagemagick)"
done
[ -x "$idlegpu" ] || fail "$idlegpu is not an executable"
mkdir -p "$artifacts" || fail "cannot create the artifact folder $artifacts"
artifacts=$(cd "$artifacts" && pwd)
rm -f "$artifacts"/e2e_tray_*

tmp=$(mktemp -d "${TMPDIR:-/tmp}/idlegpu-e2e.XXXXXX") || fail "cannot create a temporary folder"
xvfb_pid="" trayer_pid="" idlegpu_pid="" demo_pid=""

# Stops $1 with SIGTERM, then SIGKILL after 15 s: for the clean-up after a failure.
stop_forcibly() {
    alive "$1" || return 0
    kill -TERM "$1" 2>/dev/null
    wait_for 15 gone "$1" || kill -KILL "$1" 2>/dev/null
    wait "$1" 2>/dev/null
}

cleanup() {
    local status=$?
    trap - EXIT
    if ((status != 0)) && [ -n "${DISPLAY:-}" ] && alive "$xvfb_pid"; then
        import -window root "$artifacts/e2e_tray_failure.png" 2>/dev/null \
            && step "screenshot at the failure: $artifacts/e2e_tray_failure.png"
    fi
    stop_forcibly "$idlegpu_pid"
    stop_forcibly "$demo_pid"
    cp "$tmp/idlegpu.log" "$artifacts/e2e_tray_idlegpu.log" 2>/dev/null
    cp "$tmp/demo.log" "$artifacts/e2e_tray_demo.log" 2>/dev/null
    stop_forcibly "$trayer_pid"
    stop_forcibly "$xvfb_pid"
    rm -rf "$tmp"
    if ((status == 0)); then step "PASSED"; else step "failed; idlegpu's output is in $artifacts"; fi
    exit "$status"
}
trap cleanup EXIT
trap 'fail "interrupted"' INT TERM HUP

# --- 1. A display and a tray ---------------------------------------------------------------------------------

xvfb_answers() { alive "$xvfb_pid" && xdpyinfo -display "$1" >/dev/null 2>&1; }
xvfb_settled() { ! alive "$xvfb_pid" || xvfb_answers "$1"; }

display=""
for n in $(seq 100 199); do
    [ -e "/tmp/.X11-unix/X$n" ] || [ -e "/tmp/.X$n-lock" ] && continue
    # -noreset: by default the server resets when its last client leaves, and refuses connections while it
    # does; xdpyinfo's probe is such a last client, and trayer would fail to open the display right after it.
    Xvfb ":$n" -screen 0 1024x768x24 -nolisten tcp -noreset >"$tmp/xvfb.log" 2>&1 &
    xvfb_pid=$!
    # Another program may take the same number between the check and the start: Xvfb then exits.
    wait_for 20 xvfb_settled ":$n"
    if xvfb_answers ":$n"; then
        display=":$n"
        break
    fi
    stop_forcibly "$xvfb_pid"
    xvfb_pid=""
done
[ -n "$display" ] || fail "no free X display in :100..:199, or Xvfb does not start: $(tail -3 "$tmp/xvfb.log")"
export DISPLAY=$display
step "Xvfb is up on $DISPLAY (pid $xvfb_pid)"

trayer --edge top --align right --widthtype request --height 28 --transparent false --tint 0x333333 \
    >"$tmp/trayer.log" 2>&1 &
trayer_pid=$!
tray_panel() { xdotool search --onlyvisible --classname '^panel$' 2>/dev/null | head -1; }
tray_shown() { alive "$trayer_pid" && [ -n "$(tray_panel)" ]; }
wait_for 20 tray_shown || fail "trayer shows no panel ($(alive "$trayer_pid" && echo running || echo exited);" \
    "trayer said: $(tail -3 "$tmp/trayer.log"); windows: $(xwininfo -root -tree 2>&1))"
panel=$(tray_panel)
step "trayer is up (pid $trayer_pid, panel window $panel)"

# --- Helpers on idlegpu's windows -----------------------------------------------------------------------------

# Qt's XEmbed tray icon is a window of class "idlegpu" that trayer reparents into its panel.
icon_window() { xwininfo -id "$panel" -tree 2>/dev/null | awk '/\("idlegpu" "idlegpu"\)/ { print $1; exit }'; }
icon_viewable() {
    local window
    window=$(icon_window)
    [ -n "$window" ] && xwininfo -id "$window" 2>/dev/null | grep -q 'Map State: IsViewable'
}
# Sets icon, icon_x, icon_y (the centre, absolute) and icon_crop (WxH+X+Y for ImageMagick).
locate_icon() {
    wait_for 30 icon_viewable || fail "no idlegpu icon docked in the tray (trayer's panel $panel): $(xwininfo -id "$panel" -tree)"
    icon=$(icon_window)
    local X Y WIDTH HEIGHT WINDOW SCREEN
    eval "$(xdotool getwindowgeometry --shell "$icon")"
    ((WIDTH >= 8 && HEIGHT >= 8)) || fail "the tray icon $icon is ${WIDTH}x$HEIGHT, too small to be seen"
    icon_x=$((X + WIDTH / 2))
    icon_y=$((Y + HEIGHT / 2))
    icon_crop="${WIDTH}x$HEIGHT+$X+$Y"
    step "the icon is docked: window $icon, ${WIDTH}x$HEIGHT at $X,$Y"
}

# idlegpu's viewable top-level windows: the menu, a notification balloon, the status window.
shown_windows() {
    local window
    for window in $(xwininfo -root -children | awk '/\("idlegpu" "idlegpu"\)/ { print $1 }'); do
        xwininfo -id "$window" 2>/dev/null | grep -q 'Map State: IsViewable' && echo "$window"
    done
}
# A window shown now that was not among $1 (a list from shown_windows): the menu a click opened.
new_window() { comm -13 <(echo "$1" | sort) <(shown_windows | sort) | head -1; }
menu_opened() { [ -n "$(new_window "$1")" ]; }
window_closed() { ! xwininfo -id "$1" 2>/dev/null | grep -q 'Map State: IsViewable'; }

# Right click on the icon; sets menu to the menu's window once it shows its items (it has the keyboard then).
open_menu() {
    local before X Y WIDTH HEIGHT WINDOW SCREEN
    before=$(shown_windows)
    click_icon 3
    wait_for 5 menu_opened "$before" || fail "no menu opened on a right click"
    menu=$(new_window "$before")
    eval "$(xdotool getwindowgeometry --shell "$menu")"
    wait_for 5 painted "${WIDTH}x$HEIGHT+$X+$Y" || fail "the menu shows nothing"
    step "the menu is open: window $menu, ${WIDTH}x$HEIGHT at $X,$Y"
}

# A window region that holds a picture, not a flat fill not yet painted: more than two colours.
painted() { (($(import -window root -crop "$1" +repage -format %k info: 2>/dev/null || echo 0) > 2)); }

# The icon's picture now, into $1.
grab_icon() { import -window root -crop "$icon_crop" +repage "$1" 2>/dev/null; }
# True when the icon's picture differs from the one in $1 (saved by grab_icon).
icon_differs_from() {
    grab_icon "$tmp/icon-now.png" || return 1
    local differing
    differing=$(compare -metric AE "$1" "$tmp/icon-now.png" null: 2>&1)
    [ "${differing%% *}" != 0 ]
}

# Clicks on the icon are kept a second apart, beyond Qt's double-click interval (400 ms), so that each click
# arrives as a plain click and its effect is checked on its own.
last_click_ms=0
click_icon() {
    local wait_ms=$((last_click_ms + 1000 - $(date +%s%3N)))
    ((wait_ms > 0)) && sleep "$((wait_ms / 1000)).$(printf %03d $((wait_ms % 1000)))"
    xdotool mousemove "$icon_x" "$icon_y" click "$1"
    last_click_ms=$(date +%s%3N)
}

screenshot() {
    import -window root "$artifacts/$1" || fail "cannot take the screenshot $1"
    step "screenshot: $artifacts/$1"
}

# The environment of an idlegpu under test: nothing of the machine's desktop, pause state or autostart.
# $1: a folder for its XDG folders. Run in the background, the function's shell becomes idlegpu (exec): $! is
# idlegpu's pid.
run_idlegpu() {
    local home=$1
    shift
    mkdir -p "$home/config" "$home/state" "$home/cache" "$home/tmp" && mkdir -m 0700 -p "$home/runtime" || return 1
    exec env -u WAYLAND_DISPLAY -u XDG_CURRENT_DESKTOP -u DESKTOP_SESSION -u QT_QPA_PLATFORMTHEME -u QT_STYLE_OVERRIDE \
        -u SESSION_MANAGER \
        QT_QPA_PLATFORM=xcb LANG=C.UTF-8 LC_ALL=C.UTF-8 \
        XDG_RUNTIME_DIR="$home/runtime" XDG_STATE_HOME="$home/state" XDG_CONFIG_HOME="$home/config" \
        XDG_CACHE_HOME="$home/cache" TMPDIR="$home/tmp" \
        DBUS_SESSION_BUS_ADDRESS="unix:path=$home/no-session-bus" \
        "$idlegpu" "$@"
}

# Stops idlegpu ($1: pid) as a desktop session's end does, with SIGTERM: it must exit 0 within 15 s.
stop_idlegpu() {
    local pid=$1 status
    kill -TERM "$pid" 2>/dev/null || fail "idlegpu (pid $pid) was no longer running"
    wait_for 15 gone "$pid" || fail "idlegpu (pid $pid) still runs 15 s after SIGTERM"
    wait "$pid"
    status=$?
    ((status == 0)) || fail "idlegpu exited with status $status after SIGTERM"
    step "idlegpu exited with status 0 after SIGTERM"
}

# idlegpu's messages and Qt's share one pattern, which marks warnings and errors: none is expected here.
no_warnings_in() {
    local warnings
    # As root, user = root is the config's own choice, which its check warns of: that warning alone is expected.
    warnings=$(grep -E '^[0-9-]+ [0-9:.]+ (warning|error): ' "$1" \
        | { if [ "$(id -u)" = 0 ]; then grep -v ': warning: user = root: this workload runs as root'; else cat; fi })
    [ -z "$warnings" ] || fail "idlegpu warned: $warnings"
}

# --- 2. idlegpu on fake device nodes --------------------------------------------------------------------------

mkdir -p "$tmp/dev" || fail "cannot create $tmp/dev"
for node in nvidia0 nvidiactl nvidia-uvm; do
    : >"$tmp/dev/$node" && chmod 0666 "$tmp/dev/$node" || fail "cannot create the fake node $tmp/dev/$node"
done
config=$tmp/e2e.conf
starts=$tmp/starts
# idlegpu refuses a configuration that others may write, as ssh does with authorized_keys.
(umask 077 && cat >"$config") <<EOF || fail "cannot write $config"
[defaults]
start_delay_seconds = 0
device_root = $tmp/dev

[process-e2e]
cmd = sh -c 'echo \$\$ >> $starts; exec sleep 1000'
user = $(id -un)
gpus = 0
EOF
chmod 0600 "$config"

run_idlegpu "$tmp/home" --config "$config" >"$tmp/idlegpu.log" 2>&1 &
idlegpu_pid=$!
step "started idlegpu --config $config (pid $idlegpu_pid)"

# --- 3. The workload starts -----------------------------------------------------------------------------------

start_count() { if [ -f "$starts" ]; then wc -l <"$starts"; else echo 0; fi; }
workload_pid() { sed -n "${1}p" "$starts" 2>/dev/null; }
# The Nth start happened and that workload runs.
started() { (($(start_count) >= $1)) && alive "$(workload_pid "$1")"; }

wait_for 30 started 1 || fail "the workload did not start within 30 s (starts: $(start_count)); idlegpu said: $(tail -5 "$tmp/idlegpu.log")"
first_pid=$(workload_pid 1)
step "the workload runs (pid $first_pid)"

# --- 4. The icon is docked ------------------------------------------------------------------------------------

locate_icon
wait_for 10 painted "$icon_crop" || fail "the tray icon shows no picture"
grab_icon "$tmp/icon-running.png" || fail "cannot grab the icon's picture"

# --- 5. A left click pauses, a second one resumes -------------------------------------------------------------

step "left click on the icon at $icon_x,$icon_y: pause"
click_icon 1
wait_for 5 gone "$first_pid" || fail "the workload (pid $first_pid) still runs 5 s after the click that pauses"
step "the workload stopped"
wait_for 5 icon_differs_from "$tmp/icon-running.png" || fail "the icon looks the same paused as running"
(($(start_count) == 1)) || fail "the workload started again although paused"
screenshot e2e_tray_paused.png
grab_icon "$tmp/icon-paused.png" || fail "cannot grab the icon's picture"

step "left click on the icon: resume"
click_icon 1
wait_for 10 started 2 || fail "the workload did not come back within 10 s of the click that resumes (starts: $(start_count))"
second_pid=$(workload_pid 2)
step "the workload runs again (pid $second_pid)"
wait_for 5 icon_differs_from "$tmp/icon-paused.png" || fail "the icon still looks paused"
screenshot e2e_tray_running.png

# --- 6. A right click opens the menu --------------------------------------------------------------------------

step "right click on the icon: the menu"
open_menu
screenshot e2e_tray_menu.png
xdotool key Escape
wait_for 5 window_closed "$menu" || fail "the menu stays open after Escape"
step "Escape closed the menu"
alive "$second_pid" || fail "the workload stopped while the menu was open"

# --- 7. Exit on SIGTERM: the workload goes too ----------------------------------------------------------------

stop_idlegpu "$idlegpu_pid"
idlegpu_pid=""
wait_for 5 gone "$second_pid" || fail "the workload (pid $second_pid) outlived idlegpu"
no_warnings_in "$tmp/idlegpu.log"
step "the workload is gone too"

# --- 8. The demo: "Simulate a job on GPU 0", chosen by keyboard -----------------------------------------------

run_idlegpu "$tmp/demo-home" --demo >"$tmp/demo.log" 2>&1 &
demo_pid=$!
step "started idlegpu --demo (pid $demo_pid)"

# The demo makes its fake GPUs in a temporary folder under TMPDIR.
demo_node() { compgen -G "$tmp/demo-home/tmp/idlegpu-*/dev/nvidia0" | head -1; }
demo_workload() { descendant_running "$demo_pid" "sleep 86400"; }       # demo-miner-0, on GPU 0
other_demo_workload() { descendant_running "$demo_pid" "sleep 86401"; } # demo-miner-1, on GPU 1
wait_for 30 demo_workload || fail "the demo workload of GPU 0 (sleep 86400) did not start within 30 s; idlegpu said: $(tail -5 "$tmp/demo.log")"
wait_for 10 other_demo_workload || fail "the demo workload of GPU 1 (sleep 86401) did not start"
demo_workload_pid=$(demo_workload)
other_workload_pid=$(other_demo_workload)
node=$(demo_node)
[ -n "$node" ] || fail "the demo's fake nvidia0 is not under $tmp/demo-home/tmp"
step "the demo workloads run (pids $demo_workload_pid, $other_workload_pid); the demo's GPU 0 is $node"

locate_icon
open_menu
# The menu without the disabled lines: Pause all, Pause for 1 hour, Pause demo-miner-0, Pause demo-miner-0 for 1 hour,
# Pause demo-miner-1, Pause demo-miner-1 for 1 hour, Simulate a job on GPU 0... The mouse stays where it was, so that no
# item is under it by hover.
xdotool key --delay 150 Down Down Down Down Down Down Down
screenshot e2e_tray_demo_menu.png
xdotool key Return
wait_for 5 window_closed "$menu" || fail "the demo menu stays open after Return"

job_on_gpu0() { holder_named "$node" python3 >/dev/null; }
wait_for 10 job_on_gpu0 || fail "no python3 holds $node 10 s after choosing \"Simulate a job on GPU 0\""
job_pid=$(holder_named "$node" python3)
uvm=$(dirname "$node")/nvidia-uvm
[ "$(holder_named "$uvm" python3)" = "$job_pid" ] || fail "the simulated job (pid $job_pid) does not hold $uvm: no CUDA job"
step "a simulated job runs: python3 (pid $job_pid) holds $node and $uvm"
wait_for 5 gone "$demo_workload_pid" || fail "the demo workload (pid $demo_workload_pid) still runs beside the job on GPU 0"
alive "$other_workload_pid" || fail "the demo workload of GPU 1 (pid $other_workload_pid) stopped, though only GPU 0 got a job"
step "the demo workload of GPU 0 was preempted; GPU 1's runs on"

stop_idlegpu "$demo_pid"
demo_pid=""
wait_for 5 gone "$job_pid" || fail "the simulated job (pid $job_pid) outlived idlegpu --demo"
no_warnings_in "$tmp/demo.log"
leftovers=$(ls -A "$tmp/demo-home/tmp")
[ -z "$leftovers" ] || fail "idlegpu --demo left files behind in TMPDIR: $leftovers"
step "the demo left nothing behind"
