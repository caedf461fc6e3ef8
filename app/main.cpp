// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "application.h"

int main(int argc, char **argv)
{
    return runIdlegpu(argc, argv);
}
