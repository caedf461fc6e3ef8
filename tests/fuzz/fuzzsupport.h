// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// Shared by the libFuzzer targets: silence Qt's logging, so that the fuzzer's own output stays readable and
// a message printed per input does not slow the run down.
#include <QtGlobal>

inline void silenceQtMessages()
{
    qInstallMessageHandler([](QtMsgType, const QMessageLogContext &, const QString &) {});
}
