// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The access to Qt's own connection to the X server, for the few Xlib questions the tray asks (the idle time, the
// XEmbed tray) with libraries loaded at run time: nothing X11 to build against.

// Returns Xlib's Display* of Qt's xcb platform; null on any other platform (Wayland, offscreen).
void *x11Display();
// Returns a handle of libX11.so.6 where the process has loaded it (Qt's xcb platform does), else null. It is never
// closed.
void *loadedXlib();
