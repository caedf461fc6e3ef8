#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 The idlegpu authors
# idlegpu on a real XFCE 4.18 desktop (issue 22): xfwm4 and xfce4-panel with the default panel, whose systray plugin
# is a StatusNotifierWatcher, its host and an XEmbed tray at once, and xfce4-notifyd, on Xvfb and private buses
# (tests/desktop/lib.sh). Two idlegpu: "before" starts 3 s before the desktop (login autostart), "after" once the
# host is registered; both must end as StatusNotifierItems ("before" within 1 s of the host). Then: the menu over
# dbusmenu, "Start at login", presence through the XScreenSaver idle time (XFCE has no idle interface on D-Bus in
# Debian 12: idlegpu's libXss fallback answers) with xdotool input, real left clicks on the icon, a preemption's
# notification answered by xfce4-notifyd, the menu on a right click, the icons' pixels in the tray.
#
# Usage: xfce.sh IDLEGPU ARTIFACT_DIR FAKE_LOGIND HOLDOPEN
# Skips (77) where XFCE is not installed or its panel registers no StatusNotifierHost within 30 s.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/desktop/lib.sh
source "$here/lib.sh"

usage="usage: xfce.sh IDLEGPU ARTIFACT_DIR FAKE_LOGIND HOLDOPEN"
idlegpu=${1:?$usage}
artifacts=${2:?$usage}
fake_logind=${3:?$usage}
holdopen=${4:?$usage}
notifyd=/usr/lib/x86_64-linux-gnu/xfce4/notifyd/xfce4-notifyd
# More than DesktopIdlePoller's 5 s poll, so that the poll after an input sees it within idle_seconds.
idle_seconds=7
# The top panel's right part, where the systray plugin puts its icons, left of the clock (which would change the
# pixels each minute).
tray_crop=250x26+890+0

desk_init xfce "$artifacts"
desk_require_commands xfwm4 xfce4-panel xdotool import compare convert python3 desktop-file-validate
desk_require_path "$notifyd" xfce4-notifyd
desk_require_path /etc/xdg/xfce4/panel/default.xml "xfce4-panel's default panel"
[ -x "$idlegpu" ] || desk_fail "$idlegpu is not an executable"
[ -x "$holdopen" ] || desk_fail "$holdopen is not an executable"

export XDG_CURRENT_DESKTOP=XFCE XDG_SESSION_TYPE=x11
# The default panel, as xfce4-panel's first start offers it.
mkdir -p "$XDG_CONFIG_HOME/xfce4/xfconf/xfce-perchannel-xml"
cp /etc/xdg/xfce4/panel/default.xml "$XDG_CONFIG_HOME/xfce4/xfconf/xfce-perchannel-xml/xfce4-panel.xml"

desk_xvfb 1280x800x24
desk_session_bus org.xfce.Xfconf org.xfce.xfce4-notifyd.Notifications
desk_system_bus "$fake_logind" x11
desk_trace_tray
desk_notify_capture_start

desk_idlegpu_config before "[activity]
pause_while_active = true
idle_seconds = $idle_seconds" >/dev/null || desk_fail "cannot write idlegpu before's configuration"
desk_idlegpu_config after >/dev/null || desk_fail "cannot write idlegpu after's configuration"

# Login: idlegpu's autostart entry runs before the panel is up.
desk_idlegpu_start before "$idlegpu"
sleep_ms=$((DESK_IDLEGPU_START[before] + 3000 - $(desk_now_ms)))
((sleep_ms > 0)) && sleep "$((sleep_ms / 1000)).$(printf %03d $((sleep_ms % 1000)))"

desk_mark_desktop_start
desk_start xfwm4 xfwm4
desk_start panel xfce4-panel
# xfce4-session starts it from /etc/xdg/autostart; idlegpu sends notifications only to a server that runs.
desk_start notifyd "$notifyd"
desk_wait_host xfwm4 panel
desk_idlegpu_start after "$idlegpu"

desk_check_orders before after
desk_check_menu after
[ -n "${DESK_MENU[before]:-}" ] && desk_check_menu before
desk_check_autostart after
# No input yet: "before" runs once the display has been idle idle_seconds, pauses on input, resumes after.
desk_check_presence before "$idle_seconds" 400 400
if desk_locate_icon after "$tray_crop"; then
    desk_check_clicks after
    desk_check_menu_shot after "$DESK_ARTIFACTS/desktop_xfce_menu.png"
fi
desk_check_preemption after "$holdopen" xfce4-notifyd
desk_check_tray_pixels "$tray_crop" "$DESK_ARTIFACTS/desktop_xfce_panel.png" after before
desk_print_times "presence_pause_after_input_ms=$DESK_PRESENCE_PAUSE_MS" \
    "presence_resume_after_input_ms=$DESK_PRESENCE_RESUME_MS"
desk_finish
