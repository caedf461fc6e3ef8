// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The interface of a condition, a fact about the machine beside who holds its GPUs that can hold workloads back
// (docs/development.md, "Adding a condition").
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
    // Starts or stops the watcher as `config` asks, at start and at each reload; a stopped one forgets its fact.
    virtual void configure(const Config &config) = 0;
    // Reads again, at the monitor's fallback poll (interval_seconds), what no event announces.
    virtual void poll() {}
    // Reads the fact once, as `config` asks, and starts no watcher (`idlegpu --status`).
    virtual void readOnce(const Config &config) = 0;
    // Puts the fact as last read into the snapshot of a scan taken under `config`.
    virtual void fill(const Config &config, Snapshot &snapshot) const = 0;

Q_SIGNALS:
    // The fact changed; `rescan` says how soon that matters.
    void changed(Condition::Rescan rescan);
};
