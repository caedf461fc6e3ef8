// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The tray mode, idlegpu's default: the tray icon, its windows and the monitor behind them.
#include <QString>

class ServiceNotifier;

// Runs the tray application, the default mode; a QApplication must exist. `configPath` is as given with --config
// (empty for the default location). `demo` runs fake GPUs in a temporary folder and a harmless workload, with menu
// items that simulate a user's job, without reading the real configuration. `serviceManager` is told when the tray
// is up and is fed from the monitor's thread (for a tray started by a systemd unit of Type=notify).
int runTray(const QString &configPath, bool demo, const ServiceNotifier &serviceManager);
