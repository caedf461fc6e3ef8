// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The runner of the workloads that lend GPUs to a lab's Slurm queue ([slurm], one workload slurm-gpuN per GPU): to
// start one is to release the GPU's hold (the lab's jobs may land there), to stop it is to place the hold (the
// owner partition's job on the GPU's GRES type preempts the lab's job there: SIGTERM, requeued). The policy decides
// as for any workload; this runner only talks to Slurm.
// slurmlender.cpp says how it talks to Slurm: one command at a time per GPU, idempotent holds, a listing to converge.
#include "base/clock.h"
#include "run/workloadrunner.h"
#include "slurm/slurmjobs.h"

#include <QHash>
#include <QPointer>
#include <QProcessEnvironment>

#include <functional>
#include <map>
#include <memory>

class LabProcesses;
class QProcess;
class QTimer;

// The Slurm programs that a lender runs (tests give fakes) and how long each may take.
struct SlurmCommands
{
    QString salloc = QStringLiteral("salloc");
    QString scancel = QStringLiteral("scancel");
    QString scontrol = QStringLiteral("scontrol"); // scontrol update, to resume the node; scontrol requeue
    QString squeue = QStringLiteral("squeue");     // for the jobs
    QString sinfo = QStringLiteral("sinfo");       // for the node's state
    // The timeout of a query or a release. slurmctld answers in milliseconds; a client that cannot reach it gives
    // up after about 9 s (scontrol) to 18 s (scancel) on its own.
    int commandTimeoutMs = 5'000;
    // The timeout of a hold. A hold is granted in 28-84 ms, preemption included (measured); one still pending after
    // this is given up (salloc revokes its request when killed) and tried again.
    int holdTimeoutMs = 10'000;
};

// The runner that lends each GPU to the lab's Slurm queue and holds it for the owner.
class SlurmLender : public WorkloadRunner
{
    Q_OBJECT
public:
    explicit SlurmLender(const Clock *clock = SystemClock::instance(), QObject *parent = nullptr);
    SlurmLender(const SlurmCommands &commands, const Clock *clock, QObject *parent = nullptr);
    ~SlurmLender() override; // kills the commands still running; the holds stay as Slurm has them

    bool start(const WorkloadConfig &config, const QList<int> &gpus, bool allGpus) override;
    void stop(const QString &id, const QString &reason) override;
    void stopAll(const QString &reason) override;
    void forget(const QString &id) override;
    QHash<QString, WorkloadRuntime> runtimes() const override;
    // Sets the NVIDIA GPUs present, in gres.conf's order: an untyped GRES index names the GPU at that position.
    void setGpuDevices(const QList<GpuDevice> &devices) override;
    // Sets the lending workloads of the configuration in force: each GPU named is held (after the first listing)
    // until the policy starts its workload.
    void setWorkloads(const QList<WorkloadConfig> &workloads) override;
    // Follows the lab's jobs' processes on the GPUs, which stop() signals when the owner takes their GPU back.
    void setGpuHolders(const QList<Holder> &holders) override;

    // The period at which the job listing is read while the GPUs are known.
    static constexpr int kRefreshMs = 10'000;
    // The delay after a release before the listing is read, to name the lab's job that lands there.
    static constexpr int kSoonAfterReleaseMs = 2'000;
    // The longest retry delay: a failed command is retried after 1 s, doubling up to this.
    static constexpr qint64 kMaxRetryMs = 60'000;
    // The time after which stopAll() gives up waiting for holds.
    static constexpr int kStopAllTimeoutMs = 20'000;

    // The ways to take a GPU back from the lab that the lab suite's bench compares (IDLEGPU_LAB_RECLAIM=hold or
    // requeue; docs/development.md). Direct, the fastest, is the only one otherwise.
    enum class Reclaim {
        Direct,   // SIGTERM to the job's processes on the GPU at once, then scontrol requeue and the hold
        HoldOnly, // the hold alone: slurmctld preempts the job (requeue)
        Requeue,  // scontrol requeue of the jobs seen on the GPU, beside the hold
    };

    // Returns, for --status, the runtimes of `config`'s lending workloads as one listing of Slurm's jobs shows them.
    // `devices` are the GPUs present. It blocks up to the commands' timeout, so it is not for the monitor's thread.
    static QHash<QString, WorkloadRuntime> lookOnce(const Config &config, const QList<GpuDevice> &devices,
                                                    const SlurmCommands &commands = SlurmCommands());

    // Runs a Slurm command once, blocking as lookOnce(), and returns its standard output; nullopt with *error set
    // ("scontrol got no answer within 5 s") when it fails. `environment` is the child's; none means this process's.
    static std::optional<QByteArray> runOnce(const QString &program, const QStringList &arguments, int timeoutMs,
                                             QString *error,
                                             const std::optional<QProcessEnvironment> &environment = std::nullopt,
                                             qsizetype maxOutputBytes = Slurm::kMaxListingBytes);

private:
    // Lists the jobs once, blocking as lookOnce(). Returns nullopt with *error set when Slurm cannot be asked.
    static std::optional<Slurm::NodeView> listOnce(const SlurmConfig &slurm, const QList<int> &gresOrder,
                                                   QString *error, const SlurmCommands &commands);

    struct Gpu;
    enum class Op { Hold, Release, CancelDuplicates };
    // The way a command's output comes back: its messages with its output (salloc says its job id on stderr), or apart
    // (a listing's JSON is standard output alone).
    enum class Channels { Merged, Separate };
    // A listing as its parse on a pool thread leaves it.
    struct ParsedListing
    {
        std::optional<Slurm::NodeView> view;
        QString error; // without a view, the reason ("squeue's answer: not JSON: ...")
    };
    // The result of a command that launch() ran.
    struct Outcome
    {
        QByteArray output; // the standard output (with Merged, also its messages)
        QString failure;   // why it failed ("squeue got no answer within 5 s"); empty when it ran in time with exit 0
        bool timedOut = false;
    };

    Gpu *gpuOf(const QString &id) const;
    Gpu &ensureGpu(const WorkloadConfig &config);
    void converge();
    void converge(Gpu &gpu);
    void runCommand(Gpu &gpu, Op op);
    void onCommandFinished(int gpuIndex, Op op, const Outcome &outcome);
    void list();
    // A listing read, or one that failed (counted as Slurm unreachable), or parsed and seen from this node.
    void onListFinished(const Outcome &outcome);
    void listingFailed(const QString &problem);
    void onListParsed(const Slurm::NodeView &view);
    // A listing is under way: squeue, its parse, sinfo or a resume.
    bool listing() const { return m_listing || m_parsing; }
    // The listing's second part: the node's state; one drained by idlegpu (SlurmGuard::kReasonPrefix) is resumed.
    void onNodeShown(const Slurm::NodeView &view, const Outcome &outcome);
    void finishListing(const Slurm::NodeView &view);
    void applyView(const Slurm::NodeView &view);
    void fail(Gpu &gpu, const QString &what);
    void requeue(const Gpu &gpu, const QList<qint64> &jobs);
    void scheduleRetry();
    void maybeFinishStopAll();
    void finishStopAll();
    WorkloadRuntime runtimeOf(const Gpu &gpu) const;
    // Starts `program` with a kill after `timeoutMs` or once it has written more than `maxOutputBytes`; `done` once
    // it ends either way.
    QProcess *launch(const QString &program, const QStringList &arguments, int timeoutMs, Channels channels,
                     qsizetype maxOutputBytes, std::function<void(const Outcome &)> done);

    SlurmCommands m_commands;
    const Clock *m_clock;
    std::map<int, std::unique_ptr<Gpu>> m_gpus; // by GPU index
    SlurmConfig m_slurm;      // of the workloads last given (the listing is read from its node)
    QList<int> m_gresOrder;
    bool m_listed = false;    // a listing has succeeded since the GPUs were given
    QPointer<QProcess> m_listing;
    QPointer<QObject> m_parsing; // the watcher of the listing's parse
    quint64 m_commandsFinished = 0; // a listing started before a command ended says nothing of that GPU's hold
    quint64 m_listingStartedAt = 0;
    int m_listFailures = 0;
    qint64 m_listRetryAtMs = 0;
    QString m_listProblem;
    QString m_foreignDrainSeen; // the reason of another's drain, once logged
    Reclaim m_reclaim = Reclaim::Direct;
    bool m_nodeDrained = false; // by another (an admin): no hold is placed, none could be granted
    LabProcesses *m_labProcesses = nullptr;
    QTimer *m_refreshTimer = nullptr;
    QTimer *m_retryTimer = nullptr;
    QTimer *m_stopAllTimer = nullptr;
    bool m_stoppingAll = false;
};
