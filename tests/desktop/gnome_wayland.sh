#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 The idlegpu authors
# idlegpu on a real GNOME Shell 43 on Wayland (issue 22): gnome-shell --headless --wayland with a 1280x800 virtual
# monitor and Xwayland, the AppIndicator extension (ubuntu-appindicators@ubuntu.com: the StatusNotifierWatcher and
# its host), its notification daemon (gjs, D-Bus-activated), private buses (tests/desktop/lib.sh). Four idlegpu: a
# native Wayland client (QT_QPA_PLATFORM=wayland) and an X11 client through Xwayland (xcb), each once "before" and
# once "after". A Wayland client needs the compositor, so the login order is played as: the shell without the
# extension, both "before" instances, then the extension (its watcher appears ~0.1 s after the gsettings write);
# "after" once the host is registered. All four must end as StatusNotifierItems ("before" within 1 s of the host).
# Then: the menus over dbusmenu, "Start at login", presence through Mutter's IdleMonitor with real input, Activate
# over D-Bus (pause, resume) with the icon's change on screen, a preemption's notification answered by the shell's
# daemon, the icons' pixels in the top bar.
# xdotool cannot reach a Wayland session: the input that presence must notice (a motion and a key press) goes through
# Mutter's RemoteDesktop API (tests/desktop/mutter_input.js); the icon is activated over D-Bus and its menu read
# over D-Bus, not clicked; screenshots come from the shell (tests/desktop/gnome_screenshot.js).
#
# Usage: gnome_wayland.sh IDLEGPU ARTIFACT_DIR FAKE_LOGIND HOLDOPEN
# Skips (77) where GNOME Shell, gjs, Xwayland, Qt's Wayland plugin or the extension is not installed, or no
# StatusNotifierHost comes within 30 s.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/desktop/lib.sh
source "$here/lib.sh"

usage="usage: gnome_wayland.sh IDLEGPU ARTIFACT_DIR FAKE_LOGIND HOLDOPEN"
idlegpu=${1:?$usage}
artifacts=${2:?$usage}
fake_logind=${3:?$usage}
holdopen=${4:?$usage}
extension=ubuntu-appindicators@ubuntu.com
qt_wayland=/usr/lib/x86_64-linux-gnu/qt6/plugins/platforms/libqwayland-generic.so
# More than DesktopIdlePoller's 5 s poll, so that the poll after an input sees it within idle_seconds.
idle_seconds=7
# The top bar's right end, where the extension puts its icons, left of the system menu (the clock is in the centre).
bar_crop=400x32+880+0

desk_init gnome_wayland "$artifacts"
desk_require_commands gnome-shell gsettings Xwayland compare convert python3 desktop-file-validate
# Without gjs nobody owns org.freedesktop.Notifications in a GNOME session, and no screenshot can be asked for.
desk_require_commands gjs
desk_require_path "/usr/share/gnome-shell/extensions/$extension" "the AppIndicator extension ($extension)"
desk_require_path "$qt_wayland" "Qt's Wayland platform plugin (qt6-wayland)"
[ -x "$idlegpu" ] || desk_fail "$idlegpu is not an executable"
[ -x "$holdopen" ] || desk_fail "$holdopen is not an executable"

# On Wayland there is no X screen to read: lib.sh's pictures (desk_locate_icon, desk_check_tray_pixels) come from
# the shell's own screenshot.
desk_screenshot() {
    rm -f "$DESK_TMP/shot.png"
    timeout 15 gjs "$here/gnome_screenshot.js" "$DESK_TMP/shot.png" >>"$(desk_log_file screenshot)" 2>&1 \
        && [ -s "$DESK_TMP/shot.png" ] || return 1
    if [ -n "${2:-}" ]; then
        convert "$DESK_TMP/shot.png" -crop "$2" +repage "$1"
    else
        mv "$DESK_TMP/shot.png" "$1"
    fi
}

# Real input on Wayland, where xdotool cannot reach: Mutter's RemoteDesktop API (tests/desktop/mutter_input.js).
mutter_input() {
    wait_for 10 busctl --user status org.gnome.Mutter.RemoteDesktop >/dev/null 2>&1 \
        && timeout 15 gjs "$here/mutter_input.js" >>"$(desk_log_file input)" 2>&1
}

export XDG_CURRENT_DESKTOP=GNOME XDG_SESSION_TYPE=wayland

desk_session_bus ca.desrt.dconf org.gnome.Shell.Notifications
desk_system_bus "$fake_logind" wayland
# The shell starts without the extension: a compositor first, then the "before" clients, then the tray.
gsettings set org.gnome.shell enabled-extensions "[]" \
    && gsettings set org.gnome.shell welcome-dialog-last-shown-version '999' \
    || desk_fail "gsettings cannot write org.gnome.shell"
desk_trace_tray
desk_notify_capture_start

for name in before before-x11 after after-x11; do
    config=""
    # Presence goes to "after"; the other checks to "before".
    [ "$name" = after ] && config="[activity]
pause_while_active = true
idle_seconds = $idle_seconds"
    desk_idlegpu_config "$name" "$config" >/dev/null || desk_fail "cannot write idlegpu $name's configuration"
done

desk_mark_desktop_start
desk_start shell gnome-shell --headless --wayland --virtual-monitor 1280x800
# The compositor's sockets: Wayland's in XDG_RUNTIME_DIR, Xwayland's display from the shell's log with the
# authority file that the shell writes for its clients (without it: "Authorization required").
wayland_socket() { compgen -G "$XDG_RUNTIME_DIR/wayland-[0-9]" | head -1; }
xwayland_display() { grep -o 'Using public X11 display :[0-9]*' "$(desk_log_file shell)" | grep -o ':[0-9]*' | head -1; }
xwayland_auth() { compgen -G "$XDG_RUNTIME_DIR/.mutter-Xwaylandauth.*" | head -1; }
shell_ready() { [ -n "$(wayland_socket)" ] && [ -n "$(xwayland_display)" ] && [ -n "$(xwayland_auth)" ]; }
wait_for 30 shell_ready || desk_skip "gnome-shell offered no Wayland socket and Xwayland display within 30 s
$(desk_log_tails shell)"
export WAYLAND_DISPLAY DISPLAY XAUTHORITY
WAYLAND_DISPLAY=$(basename "$(wayland_socket)") DISPLAY=$(xwayland_display) XAUTHORITY=$(xwayland_auth)
desk_log "the shell is up: WAYLAND_DISPLAY=$WAYLAND_DISPLAY, Xwayland on DISPLAY=$DISPLAY"

# Login: both "before" instances run (their workloads too: Qt's tray is chosen by then) before the tray exists.
DESK_QPA=wayland desk_idlegpu_start before "$idlegpu"
DESK_QPA=xcb desk_idlegpu_start before-x11 "$idlegpu"
for name in before before-x11; do
    wait_for 20 desk_workload_runs "$name" \
        || desk_fail "idlegpu $name did not start its workload within 20 s: $(tail -5 "$(desk_idlegpu_log "$name")")"
done
gsettings set org.gnome.shell enabled-extensions "['$extension']" || desk_fail "gsettings cannot enable $extension"
extension_ms=$(($(desk_now_ms) - DESK_T_DESKTOP))
desk_log "the extension is enabled"
desk_wait_host shell
DESK_QPA=wayland desk_idlegpu_start after "$idlegpu"
DESK_QPA=xcb desk_idlegpu_start after-x11 "$idlegpu"

desk_check_orders before after
wayland_times="before_register_after_host_ms=$DESK_BEFORE_REGISTER_AFTER_HOST_MS"
wayland_times+=" before_item_after_host_ms=$DESK_BEFORE_ITEM_AFTER_HOST_MS after_item_after_start_ms=$DESK_AFTER_ITEM_AFTER_START_MS"
desk_check_orders before-x11 after-x11
xwayland_times="xwayland_before_register_after_host_ms=$DESK_BEFORE_REGISTER_AFTER_HOST_MS"
xwayland_times+=" xwayland_before_item_after_host_ms=$DESK_BEFORE_ITEM_AFTER_HOST_MS"
xwayland_times+=" xwayland_after_item_after_start_ms=$DESK_AFTER_ITEM_AFTER_START_MS"
for name in before before-x11 after after-x11; do
    [ -n "${DESK_MENU[$name]:-}" ] && desk_check_menu "$name"
done
# The checks on one instance go to "before" (native Wayland), to "after" where "before" has no item (the login race).
target=before
[ -n "${DESK_MENU[before]:-}" ] || target="after-x11"
desk_check_autostart "$target"

desk_presence_input after "$idle_seconds" mutter_input
desk_presence_resumed after "$idle_seconds"

# Activate over D-Bus, as the extension sends it on a double click: pauses (and the icon changes on screen: its
# place), a second one resumes. Clicks through Mutter's RemoteDesktop were tried: its session closed now and then
# ("D-Bus client with active sessions vanished") and its indicator in the top bar moves the icons while it lasts.
if desk_locate_icon "$target" "$bar_crop"; then
    starts=$(desk_workload_starts "$target")
    desk_activate "${DESK_SERVICE[$target]}" "${DESK_OBJECT[$target]}" >/dev/null
    if wait_for 10 desk_workload_restarted "$target" "$starts"; then
        desk_log "a second Activate resumed idlegpu $target"
    else
        desk_error "a second Activate did not resume idlegpu $target"
    fi
fi
desk_check_preemption "$target" "$holdopen" gjs
desk_check_tray_pixels "$bar_crop" "$DESK_ARTIFACTS/desktop_gnome_wayland_bar.png" after-x11 after before-x11 before
desk_times "watcher_ms=$((DESK_WATCHER_MS - DESK_T_DESKTOP)) host_ms=$((DESK_HOST_MS - DESK_T_DESKTOP))" \
    "extension_ms=$extension_ms $wayland_times $xwayland_times" \
    "presence_pause_after_input_ms=$DESK_PRESENCE_PAUSE_MS presence_resume_after_input_ms=$DESK_PRESENCE_RESUME_MS"
desk_finish
