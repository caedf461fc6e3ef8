// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The Slurm guard file of a running monitor (guardfile.h): it is written every second while [slurm] is enabled, at
// once when the monitor's verdict on a GPU changes, and once more, marked stopped, when [slurm] is turned off or
// idlegpu exits.
//
// The beat runs on the monitor's thread, so that a monitor that hangs stops it and Slurm's prolog sees that.
#include "config/config.h"
#include "slurm/guardfile.h"

#include <QObject>

#include <functional>
#include <memory>

class QTimer;

namespace SlurmGuard {

// The writer of a running monitor's guard file.
class GuardKeeper : public QObject
{
    Q_OBJECT
public:
    // The period of the heartbeat, well within kCurrentForMs, after which the prolog takes idlegpu for hung.
    static constexpr int kBeatMs = 1000;

    // `folder` is MonitorPaths::slurmGuardFolder; empty means that nothing is ever written. `verdicts` returns the
    // GPUs with the monitor's verdict on each now (gpusOfDecision); it is called only when the file is written or
    // compared.
    GuardKeeper(const QString &folder, const QString &procRoot, std::function<QList<GuardGpu>()> verdicts,
                QObject *parent = nullptr);
    ~GuardKeeper() override;

    // Sets the [slurm] section in force, which says whether the file is kept, and for which node and partition.
    void setSlurm(const SlurmConfig &slurm) { m_slurm = slurm; }

    void startBeating();
    // Stops the beat because idlegpu is exiting; from now on, only writeStopped() writes.
    void stop();

    // Writes the heartbeat now while [slurm] is enabled, and once more, marked stopped, when it was and no longer
    // is. When the node differs from the last one, the last one's file is marked stopped.
    void write() { writeHeartbeat(false); }
    // Calls write() when the verdicts differ from the last written, while [slurm] is enabled.
    void writeIfChanged();
    // Writes the last heartbeat: every GPU held, so that Slurm's prolog refuses the lab's jobs from now on.
    void writeStopped() { writeHeartbeat(true); }

private:
    void writeHeartbeat(bool stopped);

    std::unique_ptr<GuardFile> m_file;
    QString m_procRoot;
    std::function<QList<GuardGpu>()> m_verdicts;
    SlurmConfig m_slurm;
    bool m_stopping = false;
    QString m_node;         // the node of the last heartbeat written, not stopped; empty if none
    QList<GuardGpu> m_gpus; // its GPUs
    QTimer *m_beatTimer;
};

} // namespace SlurmGuard
