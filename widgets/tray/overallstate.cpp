// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "tray/overallstate.h"

#include <algorithm>

OverallState overallState(const MonitorState &state)
{
    if (state.notSetUp)
        return OverallState::NotSetUp;
    const bool configError = std::any_of(state.configProblems.cbegin(), state.configProblems.cend(),
                                         [](const ConfigDiagnostic &d) { return d.severity == ConfigDiagnostic::Error; });
    const bool workloadFailing = std::any_of(state.runtimes.cbegin(), state.runtimes.cend(), [](const WorkloadRuntime &r) {
        return r.failing();
    });
    if (configError || workloadFailing)
        return OverallState::Failing;
    if (state.snapshot.devices.gpus.isEmpty())
        return OverallState::NoGpu;
    if (state.pause.allPausedAt(state.snapshot.takenAtMs))
        return OverallState::Paused;
    // A workload still stopping for the hold is on its way out: held beats running.
    if (state.decision.hold != HoldReason::None && state.decision.hold != HoldReason::Paused)
        return OverallState::Held;
    const bool running = std::any_of(state.runtimes.cbegin(), state.runtimes.cend(),
                                     [](const WorkloadRuntime &r) { return r.occupiesGpus(); });
    if (running)
        return OverallState::Running;
    const bool busy = std::any_of(state.decision.gpus.cbegin(), state.decision.gpus.cend(),
                                  [](const GpuStatus &gpu) { return gpu.state == GpuState::Busy; });
    return busy ? OverallState::Busy : OverallState::Idle;
}
