// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The tray's logging category (idlegpu.tray); the engine's categories are in base/logging.h.
#include <QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcTray)
