// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// Real input on GNOME Shell's Wayland session, where xdotool cannot reach: a pointer motion and a Shift press and
// release through Mutter's RemoteDesktop API, the one gnome-remote-desktop uses. A session belongs to the D-Bus
// connection that made it, so this one process makes it, sends the input and stops it.
//   gjs mutter_input.js
const {Gio, GLib} = imports.gi;

const kService = 'org.gnome.Mutter.RemoteDesktop';
const kSession = 'org.gnome.Mutter.RemoteDesktop.Session';
const kShift = 65505;

function call(path, iface, method, signature = null, values = null) {
    return Gio.DBus.session.call_sync(kService, path, iface, method, signature ? new GLib.Variant(signature, values) : null,
        null, Gio.DBusCallFlags.NONE, 5000, null);
}

const session = call('/org/gnome/Mutter/RemoteDesktop', kService, 'CreateSession').deep_unpack()[0];
call(session, kSession, 'Start');
try {
    call(session, kSession, 'NotifyPointerMotionRelative', '(dd)', [5.0, 5.0]);
    call(session, kSession, 'NotifyKeyboardKeysym', '(ub)', [kShift, true]);
    call(session, kSession, 'NotifyKeyboardKeysym', '(ub)', [kShift, false]);
} finally {
    call(session, kSession, 'Stop');
}
print(`input sent through ${session}`);
