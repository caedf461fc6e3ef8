// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The config's words: each enum a key takes, in one place, below every stage that reads or shows it.

enum class GpuVendor { Nvidia, Amd, Intel };
