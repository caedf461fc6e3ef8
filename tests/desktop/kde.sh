#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 The idlegpu authors
# idlegpu on a real KDE Plasma 5.27 desktop on X11 (issue 22): Xvfb, kwin_x11, kded5 with its StatusNotifierWatcher
# module, kactivitymanagerd, ksmserver (org.freedesktop.ScreenSaver: KDE's idle time) and plasmashell (the
# StatusNotifierHost, the notification server), on private buses (tests/desktop/lib.sh). Two idlegpu: "before"
# starts before the desktop (login autostart): it finds no watcher, then kded5's, which claims a host from its start
# but answers nobody for the first 10-20 s (on 2 cores), then plasmashell's tray; "after" once plasmashell's host is
# registered. Both must end as StatusNotifierItems ("before" within 1 s of the watcher's answer). Then: the menu over dbusmenu, "Start at login", presence through KDE's GetSessionIdleTime (milliseconds
# on Plasma 5.27) with xdotool input, real left clicks on the icon Plasma draws, the menu on a right click, a
# preemption's notification answered by plasmashell, the windows from the menu keyboard only (Esc, Tab, Enter) and
# their pictures (desktop_kde_{status,settings,first-start}.png), the icons' pixels in the tray.
#
# Usage: kde.sh IDLEGPU ARTIFACT_DIR FAKE_LOGIND HOLDOPEN
# Skips (77) where Plasma is not installed or registers no StatusNotifierHost within 30 s.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/desktop/lib.sh
source "$here/lib.sh"

usage="usage: kde.sh IDLEGPU ARTIFACT_DIR FAKE_LOGIND HOLDOPEN"
idlegpu=${1:?$usage}
artifacts=${2:?$usage}
fake_logind=${3:?$usage}
holdopen=${4:?$usage}
kamd=/usr/lib/x86_64-linux-gnu/libexec/kactivitymanagerd
# More than DesktopIdlePoller's 5 s poll, so that the poll after an input sees it within idle_seconds.
idle_seconds=7
# Plasma's default panel at the bottom of 1280x800: the tray's icons, left of the clock (which changes each minute).
tray_crop=240x44+880+756

desk_init kde "$artifacts"
desk_require_commands kwin_x11 kded5 ksmserver plasmashell xdotool import compare convert python3 desktop-file-validate
desk_require_path "$kamd" kactivitymanagerd
[ -x "$idlegpu" ] || desk_fail "$idlegpu is not an executable"
[ -x "$holdopen" ] || desk_fail "$holdopen is not an executable"

export XDG_CURRENT_DESKTOP=KDE XDG_SESSION_TYPE=x11 KDE_FULL_SESSION=true KDE_SESSION_VERSION=5 QT_ACCESSIBILITY=0
# No animations: Plasma cross-fades a changed icon, and a picture taken during the fade shows half a change.
printf '[KDE]\nAnimationDurationFactor=0\n' >"$XDG_CONFIG_HOME/kdeglobals"

desk_xvfb
# Plasma's own notification server only (XFCE's file for the same name would be as likely to be activated).
desk_session_bus org.kde.kglobalaccel org.kde.plasma.Notifications org.kde.ActivityManager
desk_system_bus "$fake_logind" x11
desk_trace_tray
desk_notify_capture_start

desk_idlegpu_config before >/dev/null || desk_fail "cannot write idlegpu before's configuration"
# Presence goes to "after": DesktopIdlePoller keeps the first source that answers, and "before" starts before
# ksmserver, so it would settle on the XScreenSaver fallback and never ask KDE.
desk_idlegpu_config after "[activity]
pause_while_active = true
idle_seconds = $idle_seconds" >/dev/null || desk_fail "cannot write idlegpu after's configuration"

# Login: the autostart entry runs before the desktop; it is up once its workload runs (Qt has chosen its tray by
# then: the icon is made before the monitor starts).
desk_idlegpu_start before "$idlegpu"
wait_for 20 desk_workload_runs before \
    || desk_fail "idlegpu before did not start its workload within 20 s: $(tail -5 "$(desk_idlegpu_log before)")"

# The desktop in startplasma's order: kwin, kded5 (its StatusNotifierWatcher module), kactivitymanagerd, ksmserver
# (org.freedesktop.ScreenSaver), plasmashell.
# kded5's watcher says IsStatusNotifierHostRegistered = true from its start, long before plasmashell's tray
# registers its host (org.kde.StatusNotifierHost-PID): Qt (and idlegpu) see a host as soon as kded5 is up, and
# plasmashell picks up the items registered by then when it starts.
desk_mark_desktop_start
# kded5 answers calls only once its start-up is done, 10-20 s after the watcher's name is owned on 2 cores; a poll
# stamped when it asks (lib.sh's trace) would date the host that long before anyone could learn of it. The host
# counts from the watcher's answer, which is also when idlegpu's own question gets it.
(
    trap - EXIT INT TERM HUP
    until busctl --user get-property "${DESK_WATCHER[@]}" IsStatusNotifierHostRegistered 2>/dev/null | grep -q true; do
        sleep 0.1
    done
    desk_now_ms >"$DESK_TMP/host-answered"
) &
DESK_PIDS+=("$!")
DESK_PROCESS_NAMES[$!]="host-answer"
desk_start kwin kwin_x11
desk_start kded kded5
desk_start kamd "$kamd"
name_owned() {
    busctl --user call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus NameHasOwner s "$1" 2>/dev/null \
        | grep -q true
}
wait_for 30 name_owned org.kde.kded5 || desk_skip "kded5 did not start within 30 s
$(desk_log_tails kded)"
# kded5 loads the module itself at start (autoload); asked anyway, without waiting for the answer: kded5 answers
# calls only once its start-up is done, 10-20 s later on 2 cores.
busctl --user call --expect-reply=no org.kde.kded5 /kded org.kde.kded5 loadModule s statusnotifierwatcher
wait_for 30 name_owned org.kde.StatusNotifierWatcher || desk_skip "kded5 started no StatusNotifierWatcher within 30 s
$(desk_log_tails kded)"
desk_start ksmserver ksmserver
desk_start plasma plasmashell --no-respawn
desk_wait_host kwin kded ksmserver plasma
wait_for 10 test -s "$DESK_TMP/host-answered" || desk_fail "the trace saw the host, the watcher's answer did not come"
desk_log "the watcher answered IsStatusNotifierHostRegistered = true" \
    "$(($(cat "$DESK_TMP/host-answered") - DESK_T_DESKTOP)) ms after the desktop's start (the trace's poll: $((DESK_HOST_MS - DESK_T_DESKTOP)) ms)"
DESK_HOST_MS=$(cat "$DESK_TMP/host-answered")
plasma_host() { busctl --user list --no-legend 2>/dev/null | grep -q '^org\.kde\.StatusNotifierHost-'; }
wait_for 30 plasma_host || desk_skip "plasmashell registered no StatusNotifierHost within 30 s
$(desk_log_tails plasma)"
plasma_host_ms=$(($(desk_now_ms) - DESK_T_DESKTOP))
desk_log "plasmashell's StatusNotifierHost is registered"
# "after" asks KDE for the idle time from its start: ksmserver's ScreenSaver must answer by then.
kde_idle() { busctl --user call org.freedesktop.ScreenSaver /ScreenSaver org.freedesktop.ScreenSaver GetSessionIdleTime >/dev/null 2>&1; }
wait_for 20 kde_idle || desk_skip "ksmserver's org.freedesktop.ScreenSaver did not answer within 20 s
$(desk_log_tails ksmserver)"
desk_idlegpu_start after "$idlegpu"

desk_check_orders before after
# The checks that click go to "before" (no presence rule: its workload follows the clicks alone), to "after" where
# "before" has no item (the login race).
target=before
[ -n "${DESK_MENU[before]:-}" ] || target=after
desk_check_menu after
[ -n "${DESK_MENU[before]:-}" ] && desk_check_menu before
desk_check_autostart "$target"
# While Plasma draws its tray: no input yet since Xvfb started; xdotool's input pauses "after", no input resumes it.
desk_check_presence after "$idle_seconds" 640 400

# Plasma draws the tray's items seconds after they register (on 2 cores up to half a minute after the desktop's
# start): wait for the tray's picture, then find the icon by the change a pause makes.
tray_drawn() { (($(import -window root -crop "$tray_crop" +repage -format %k info: 2>/dev/null || echo 0) > 8)); }
tray_drawn_ms=none
if wait_for 40 tray_drawn; then
    tray_drawn_ms=$(($(desk_now_ms) - DESK_T_DESKTOP))
    desk_log "Plasma's tray is drawn"
else
    desk_error "Plasma drew no tray in $tray_crop within 40 s"
fi

# kde_check_menu_shot NAME FILE: a right click on the icon opens its menu above the bottom panel: the region above
# the icon changes and settles; the menu and the tray go to FILE; Escape closes the menu.
kde_check_menu_shot() {
    local name=$1 file=$2 region_x=$((DESK_ICON_X - 450)) box
    local region=$((1280 - region_x))x500+$region_x+300
    desk_screenshot "$DESK_TMP/menu-before.png" "$region"
    desk_click 3 "$DESK_ICON_X" "$DESK_ICON_Y"
    rm -f "$DESK_TMP/menu-last.png"
    menu_settled() {
        desk_screenshot "$DESK_TMP/menu-now.png" "$region" \
            && desk_pixels_differ "$DESK_TMP/menu-before.png" "$DESK_TMP/menu-now.png" 2000 \
            && [ -f "$DESK_TMP/menu-last.png" ] && ! desk_pixels_differ "$DESK_TMP/menu-last.png" "$DESK_TMP/menu-now.png" \
            || { cp "$DESK_TMP/menu-now.png" "$DESK_TMP/menu-last.png" 2>/dev/null; false; }
    }
    if wait_for 10 menu_settled; then
        # The menu (where the picture changed) down to the panel, the tray's area included.
        box=$(desk_diff_box "$DESK_TMP/menu-before.png" "$DESK_TMP/menu-now.png")
        if [[ $box =~ ^[0-9]+x[0-9]+\+([0-9]+)\+([0-9]+)$ ]]; then
            local x=$((BASH_REMATCH[1] < 880 - region_x ? BASH_REMATCH[1] : 880 - region_x)) y=${BASH_REMATCH[2]}
            convert "$DESK_TMP/menu-now.png" -crop "$((1280 - region_x - x))x$((500 - y))+$x+$y" +repage "$file"
        else
            cp "$DESK_TMP/menu-now.png" "$file"
        fi
        desk_log "a right click opened idlegpu $name's menu: $file"
    else
        desk_error "a right click on idlegpu $name's icon opened no menu"
        cp "$DESK_TMP/menu-now.png" "$file" 2>/dev/null
    fi
    xdotool key Escape
}

if [ "$tray_drawn_ms" != none ] && desk_locate_icon "$target" "$tray_crop"; then
    desk_check_clicks "$target"
    kde_check_menu_shot "$target" "$DESK_ARTIFACTS/desktop_kde_menu.png"
    xdotool mousemove 640 400 # off the icon: no hover highlight in the tray's picture
fi
desk_check_preemption "$target" "$holdopen" plasmashell
# After the preemption, which the status window then lists.
desk_check_windows "$target" "$idlegpu"
desk_check_tray_pixels "$tray_crop" "$DESK_ARTIFACTS/desktop_kde_panel.png" after before
desk_print_times "plasma_host_ms=$plasma_host_ms" "tray_drawn_ms=$tray_drawn_ms" "presence_pause_after_input_ms=$DESK_PRESENCE_PAUSE_MS" \
    "presence_resume_after_input_ms=$DESK_PRESENCE_RESUME_MS"
desk_finish
