// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
#include <QString>

// The tray application (the default mode). Needs a QApplication to exist. `configPath`: as given with --config
// (empty: the default location). `demo`: fake GPUs in a temporary folder and a harmless workload, with menu
// items that simulate a user's job; the real configuration is not read.
int runTray(const QString &configPath, bool demo);
