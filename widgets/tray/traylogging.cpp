// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "tray/traylogging.h"

Q_LOGGING_CATEGORY(lcTray, "idlegpu.tray", QtInfoMsg)
