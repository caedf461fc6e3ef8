// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
#include <QString>

class ServiceNotifier;

// The tray application (the default mode). Needs a QApplication to exist. `configPath`: as given with --config
// (empty: the default location). `demo`: fake GPUs in a temporary folder and a harmless workload, with menu
// items that simulate a user's job; the real configuration is not read. `serviceManager`: told when the tray is up,
// fed from the monitor's thread (a tray started by a systemd unit of Type=notify).
int runTray(const QString &configPath, bool demo, const ServiceNotifier &serviceManager);
