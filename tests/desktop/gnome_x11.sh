#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 The idlegpu authors
# idlegpu on a real GNOME Shell 43 on X11 (issue 22): gnome-shell --x11 on Xvfb with the AppIndicator extension
# (ubuntu-appindicators@ubuntu.com: the StatusNotifierWatcher, its host, and a dock for XEmbed icons), its
# notification daemon (gjs, D-Bus-activated) and private buses (tests/desktop/lib.sh). Two idlegpu: "before" starts
# 3 s before the shell (login autostart), "after" once the host is registered; both must end as
# StatusNotifierItems ("before" within 1 s of the host). Then: the menu over dbusmenu, "Start at login", presence
# through Mutter's IdleMonitor with xdotool input, real left clicks on the icon, a preemption's notification answered
# by the shell's daemon, the menu on a right click, the windows from the menu keyboard only (Esc, Tab, Enter) and
# their pictures (desktop_gnome_x11_{status,settings,first-start}.png), the icons' pixels in the top bar.
#
# Usage: gnome_x11.sh IDLEGPU ARTIFACT_DIR FAKE_LOGIND HOLDOPEN
# Skips (77) where GNOME Shell, gjs or the extension is not installed, or no StatusNotifierHost comes within 30 s.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/desktop/lib.sh
source "$here/lib.sh"

usage="usage: gnome_x11.sh IDLEGPU ARTIFACT_DIR FAKE_LOGIND HOLDOPEN"
idlegpu=${1:?$usage}
artifacts=${2:?$usage}
fake_logind=${3:?$usage}
holdopen=${4:?$usage}
extension=ubuntu-appindicators@ubuntu.com
# More than DesktopIdlePoller's 5 s poll, so that the poll after an input sees it within idle_seconds.
idle_seconds=7
# The top bar's right end, where the extension puts its icons, left of the system menu (the clock is in the centre).
tray_crop=400x32+880+0
# The extension activates an item on a double click; a single left click opens its menu. xdotool times the two
# clicks with a sleep: on a loaded machine they came more than GNOME's 400 ms apart (two single clicks), so the
# session's double-click interval is 1 s, and separate clicks 1.5 s apart.
DESK_ACTIVATE_CLICK="--repeat 2 --delay 80 1"
DESK_CLICK_GAP_MS=1500

desk_init gnome_x11 "$artifacts"
desk_require_commands gnome-shell gsettings xdotool import compare convert desktop-file-validate
# Without gjs nobody owns org.freedesktop.Notifications in a GNOME session.
desk_require_commands gjs
desk_require_path "/usr/share/gnome-shell/extensions/$extension" "the AppIndicator extension ($extension)"
[ -x "$idlegpu" ] || desk_fail "$idlegpu is not an executable"
[ -x "$holdopen" ] || desk_fail "$holdopen is not an executable"

export XDG_CURRENT_DESKTOP=GNOME XDG_SESSION_TYPE=x11

desk_xvfb 1280x800x24
desk_session_bus ca.desrt.dconf org.gnome.Shell.Notifications
desk_system_bus "$fake_logind" x11
if ! gsettings set org.gnome.shell enabled-extensions "['$extension']" \
    || ! gsettings set org.gnome.shell welcome-dialog-last-shown-version '999' \
    || ! gsettings set org.gnome.desktop.peripherals.mouse double-click 1000; then
    desk_fail "gsettings cannot write the shell's settings (dconf on the session bus)"
fi
desk_trace_tray
desk_notify_capture_start

# Login: idlegpu's autostart entry runs before the desktop is up.
desk_login_start "$idlegpu" "$idle_seconds"

desk_mark_desktop_start
desk_start shell gnome-shell --x11
desk_wait_host shell
desk_idlegpu_start after "$idlegpu"

# The status window, the settings dialog and a first start, keyboard only, with their pictures.
DESK_WINDOWS_IDLEGPU=$idlegpu
desk_x11_checks "$idle_seconds" "$holdopen" gjs "$tray_crop" "$DESK_ARTIFACTS/desktop_gnome_x11_bar.png" \
    "$DESK_ARTIFACTS/desktop_gnome_x11_menu.png"
desk_finish
