// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The steps that idlegpu-reaper's forked children (the workload's process and its log writer) take before they go on:
// the switch to --user for good, the lower --priority and the closing of inherited descriptors. It is plain POSIX.
#include <initializer_list>

enum class Priority { Normal, Low, Idle };

// Makes a forked child `user` for good. Returns false, with a message on `messages` (-1: none), when any step fails;
// the caller must then not go on.
bool becomeUser(const char *user, int messages);

// In a forked child, after the user switch: the priority it and what it starts inherit. A step that fails is said
// on `messages` (-1: not at all) and skipped: a lower priority is a courtesy, not a condition of running.
void lowerPriority(Priority priority, int messages);

// Closes every descriptor above 2 but `keep`: nothing of idlegpu's or the reaper's (files idlegpu did not mark
// close-on-exec, the reaper's own pipes) stays with a process that runs as the user.
void closeDescriptorsBut(std::initializer_list<int> keep);
