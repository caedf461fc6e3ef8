// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// A screenshot of GNOME Shell's screen into the PNG file ARGV[0], on Wayland too, where no X screen can be read:
// gnome-shell 43 lets a caller use org.gnome.Shell.Screenshot only if it owns one of a few names, among them
// org.gnome.Screenshot (GNOME's own screenshot tool); this script owns that name, asks, and exits 0 once the
// shell says it wrote the file (1 otherwise). Usage: gjs gnome_screenshot.js OUT.png
const {Gio, GLib} = imports.gi;

const out = ARGV[0];
const loop = new GLib.MainLoop(null, false);
let status = 1;
if (!out) {
    printerr('usage: gjs gnome_screenshot.js OUT.png');
} else {
    // The shell learns the name's owner from its own NameOwnerChanged watch, which may come after our call: a
    // refusal is asked again every 0.1 s, for 3 s at most.
    let tries = 0;
    const ask = () => {
        Gio.DBus.session.call('org.gnome.Shell.Screenshot', '/org/gnome/Shell/Screenshot',
            'org.gnome.Shell.Screenshot', 'Screenshot', new GLib.Variant('(bbs)', [false, false, out]),
            null, Gio.DBusCallFlags.NONE, 10000, null, (connection, result) => {
                try {
                    const [success] = connection.call_finish(result).deep_unpack();
                    status = success ? 0 : 1;
                    if (!success)
                        printerr('the shell did not take the screenshot');
                } catch (e) {
                    if (++tries < 30) {
                        GLib.timeout_add(GLib.PRIORITY_DEFAULT, 100, () => {
                            ask();
                            return GLib.SOURCE_REMOVE;
                        });
                        return;
                    }
                    printerr(`the shell refused the screenshot: ${e.message}`);
                }
                loop.quit();
            });
    };
    Gio.bus_own_name(Gio.BusType.SESSION, 'org.gnome.Screenshot', Gio.BusNameOwnerFlags.NONE, null, ask, () => {
        printerr('cannot own org.gnome.Screenshot');
        loop.quit();
    });
    loop.run();
}
imports.system.exit(status);
