// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The one state the tray icon shows for the whole machine.
#include "model/monitorstate.h"

enum class OverallState {
    Idle,    // GPUs free, nothing running (waiting for the start delay, or nothing to run)
    Busy,    // the user's own jobs hold GPUs; no workload runs
    Running, // idle workloads run
    Paused,  // the user paused all workloads
    Held,    // a rule holds every workload back: the owner present, the schedule, the battery, a terminal user
    NoGpu,   // no GPU device node found
    Failing, // the configuration has errors, or a workload keeps failing (backing off)
    NotSetUp, // no config file yet: GPUs are watched, nothing is configured to run
};

// Returns the machine's state, the most urgent first: not set up > config error or a failing workload > no GPU >
// paused > held > running > busy > idle. "Now" is the time of the state's snapshot, so a pause whose time is up no
// longer counts.
OverallState overallState(const MonitorState &state);

inline const char *overallStateKey(OverallState state)
{
    switch (state) {
    case OverallState::Idle: return "idle";
    case OverallState::Busy: return "busy";
    case OverallState::Running: return "running";
    case OverallState::Paused: return "paused";
    case OverallState::Held: return "held";
    case OverallState::NoGpu: return "no-gpu";
    case OverallState::Failing: return "failing";
    case OverallState::NotSetUp: return "not-set-up";
    }
    return "";
}
