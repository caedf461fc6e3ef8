// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// A condition is a fact about the machine, beside who holds its GPUs, that can hold workloads back: the time of the
// week, where its power comes from, whether a person sits at it, whether a user types on a terminal, how hot a GPU
// is. Each one brings its watcher (started and
// stopped by the configuration it is given), its fact in the Snapshot and the HoldReason the policy gives when that
// fact holds the workloads back, so that the monitor and `--status` treat every condition alike (Conditions), as
// they treat GPU backends through GpuBackend.
#include "config/config.h"
#include "model/decision.h"
#include "model/snapshot.h"

#include <QObject>

// The base class of the conditions. A condition owns its watcher (std::unique_ptr), which is its QObject child too,
// so that the watcher lives on the condition's thread and the owner's findChild() finds it.
class Condition : public QObject
{
    Q_OBJECT
public:
    // How soon a change of the fact asks for a decision.
    enum class Rescan {
        Now,            // it may stop a workload: decide at once
        Soon,           // with the other events that need no immediate answer (Monitor's coalescing)
        IfWorkloadRuns, // only a running workload can be concerned: decide at once if one runs, else not at all
    };

    ~Condition() override;

    // Returns the rule of the policy that this fact serves (a HoldReason; its words are in policy/holdwords.h).
    virtual HoldReason reason() const = 0;
    // Takes the configuration at start and at each reload: starts the watcher where the configuration asks for the
    // fact, and stops it (and forgets the fact) where it does not.
    virtual void configure(const Config &config) = 0;
    // Serves the monitor's fallback poll (interval_seconds): reads again what no event announces.
    virtual void poll() {}
    // Takes a one-shot look (`idlegpu --status`): reads the fact once and at once, as `config` asks, and starts no
    // watcher.
    virtual void readOnce(const Config &config) = 0;
    // Puts the fact as last read into the snapshot of a scan taken under `config`.
    virtual void fill(const Config &config, Snapshot &snapshot) const = 0;

Q_SIGNALS:
    // The fact changed; `rescan` says how soon that matters.
    void changed(Condition::Rescan rescan);
};
