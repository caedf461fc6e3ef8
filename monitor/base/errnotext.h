// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
#include <QString>

#include <string.h>

// The system's text for an errno value ("No space left on device"), for messages that name a file.
inline QString errnoText(int error)
{
    return QString::fromLocal8Bit(strerror(error));
}
