// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The painter of the tray icon, a chip whose badge tells the state by its shape, with colour only as a help. Held
// shares Paused's bars and differs by the chip's lightness, which a grey panel still shows.
#include "tray/overallstate.h"

#include <QIcon>
#include <QImage>
#include <QList>

namespace TrayIconRenderer {

// Returns the sizes that desktops ask trays for (XEmbed 16-24, KDE 22, HiDPI panels 32-48).
QList<int> iconSizes();

// Returns one image of `size` logical pixels at `devicePixelRatio` (2 for HiDPI): size * ratio device pixels.
QImage render(OverallState state, int size, qreal devicePixelRatio = 1.0);

// Returns an icon with every size at 1x and 2x.
QIcon icon(OverallState state);

// Returns the icon of a monitor that does not answer (the service is away): the idle chip in grey, half transparent.
QImage renderUnavailable(int size, qreal devicePixelRatio = 1.0);
QIcon unavailableIcon();

} // namespace TrayIconRenderer
