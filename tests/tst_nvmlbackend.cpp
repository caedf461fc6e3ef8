// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// The NVML backend against a fake libnvidia-ml (tests/fakenvml) that answers from a script: identity and the
// minor-number mapping, metrics, error codes, missing symbols, process lists, per-process utilization; the merge
// of NVML's processes into the /proc holders; CUDA_VISIBLE_DEVICES by UUID; the status report's NVML lines.
#include "backends/gpubackend.h"
#include "backends/nvmlbackend.h"
#include "base/clock.h"
#include "monitor.h"
#include "policy/policy.h"
#include "run/gpuenvironment.h"
#include "statusreport.h"
#include "testsupport.h"

#include <QDir>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

namespace {
constexpr qint64 kGiB = 1024ll * 1024 * 1024;
// Two GPUs whose NVML order differs from their minor numbers: NVML 0 is /dev/nvidia3, NVML 1 is /dev/nvidia1.
const QByteArray kTwoGpus = "device 3 37 12884901888 150323855360 54 231500 GPU-aaaa-0003 00000000:19:00.0 NVIDIA H200\n"
                            "device 1 0 1073741824 85899345920 31 61000 GPU-bbbb-0001 00000000:3B:00.0 NVIDIA A100 80GB\n";

const GpuInfo *byIndex(const QList<GpuInfo> &gpus, int index)
{
    for (const GpuInfo &gpu : gpus)
        if (gpu.index == index)
            return &gpu;
    return nullptr;
}
} // namespace

class TestNvmlBackend : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    // Writes the fake's script; the next NvmlBackend reads it (in nvmlInit_v2).
    void script(const QByteArray &text)
    {
        const QString path = TestSupport::writeFile(m_dir.filePath(QStringLiteral("script")), text);
        qputenv("FAKE_NVML_SCRIPT", QFile::encodeName(path));
    }

private Q_SLOTS:
    void backendConfirmsOnlyVisibleProcesses_data();
    void backendConfirmsOnlyVisibleProcesses();
    void identityAndMinorMapping()
    {
        script(kTwoGpus);
        NvmlBackend backend(QStringLiteral(IDLEGPU_FAKE_NVML));
        QVERIFY2(backend.available(), qPrintable(backend.unavailableReason()));
        const QList<GpuInfo> gpus = backend.sample();
        QCOMPARE(gpus.size(), 2);
        const GpuInfo *h200 = byIndex(gpus, 3);
        const GpuInfo *a100 = byIndex(gpus, 1);
        QVERIFY(h200 && a100);
        QCOMPARE(h200->backendIndex, 0);
        QCOMPARE(a100->backendIndex, 1);
        QCOMPARE(h200->name, QStringLiteral("NVIDIA H200"));
        QCOMPARE(a100->name, QStringLiteral("NVIDIA A100 80GB"));
        QCOMPARE(h200->uuid, QStringLiteral("GPU-aaaa-0003"));
        QCOMPARE(a100->busId, QStringLiteral("00000000:3B:00.0"));
        const QHash<int, QString> uuids = gpuUuidsByIndex(gpus);
        QCOMPARE(uuids.value(3), QStringLiteral("GPU-aaaa-0003"));
        QCOMPARE(uuids.value(1), QStringLiteral("GPU-bbbb-0001"));
        QCOMPARE(uuids.size(), 2);
    }

    void metrics()
    {
        script(kTwoGpus);
        NvmlBackend backend(QStringLiteral(IDLEGPU_FAKE_NVML));
        const QList<GpuInfo> gpus = backend.sample();
        const GpuInfo *h200 = byIndex(gpus, 3);
        QVERIFY(h200);
        QCOMPARE(h200->utilizationPercent, std::optional<int>(37));
        QCOMPARE(h200->memoryUsedBytes, std::optional<qint64>(12 * kGiB));
        QCOMPARE(h200->memoryTotalBytes, std::optional<qint64>(140 * kGiB));
        QCOMPARE(h200->temperatureCelsius, std::optional<int>(54));
        QCOMPARE(h200->powerMilliwatts, std::optional<int>(231500));
        QCOMPARE(describeGpuMetrics(*h200), QStringLiteral("37% busy, 12.0 of 140.0 GiB, 54 \u00b0C, 231 W"));
        QVERIFY(h200->processesKnown);
        QVERIFY(h200->processes.isEmpty());
    }

    // The energy counter where the GPU has one (Volta and later); NOT_SUPPORTED elsewhere leaves it absent.
    void energyCounter()
    {
        script(kTwoGpus + "energy 0 98765432109\n");
        NvmlBackend backend(QStringLiteral(IDLEGPU_FAKE_NVML));
        const QList<GpuInfo> gpus = backend.sample();
        QCOMPARE(byIndex(gpus, 3)->energyMillijoules, std::optional<qint64>(98765432109));
        QVERIFY(!byIndex(gpus, 1)->energyMillijoules);
        QVERIFY(byIndex(gpus, 1)->powerMilliwatts);
    }

    // A function that answers an error leaves its metric absent, the others present.
    void errorCodePerMetric_data()
    {
        QTest::addColumn<QByteArray>("function");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("absent");
        QTest::newRow("temperature not supported") << QByteArray("nvmlDeviceGetTemperature") << 3 << "temperature";
        QTest::newRow("power not supported") << QByteArray("nvmlDeviceGetPowerUsage") << 3 << "power";
        QTest::newRow("utilization no permission") << QByteArray("nvmlDeviceGetUtilizationRates") << 4 << "utilization";
        QTest::newRow("memory not supported") << QByteArray("nvmlDeviceGetMemoryInfo") << 3 << "memory";
        QTest::newRow("name unknown error") << QByteArray("nvmlDeviceGetName") << 999 << "name";
        QTest::newRow("uuid not supported") << QByteArray("nvmlDeviceGetUUID") << 3 << "uuid";
        QTest::newRow("pci not supported") << QByteArray("nvmlDeviceGetPciInfo_v3") << 3 << "busId";
        QTest::newRow("minor not supported") << QByteArray("nvmlDeviceGetMinorNumber") << 3 << "index";
        QTest::newRow("processes no permission") << QByteArray("nvmlDeviceGetComputeRunningProcesses_v3") << 4
                                                 << "nothing";
    }
    void errorCodePerMetric()
    {
        QFETCH(QByteArray, function);
        QFETCH(int, code);
        QFETCH(QString, absent);
        script(kTwoGpus + "error " + function + ' ' + QByteArray::number(code) + " 0\n");
        NvmlBackend backend(QStringLiteral(IDLEGPU_FAKE_NVML));
        QVERIFY(backend.available());
        const QList<GpuInfo> gpus = backend.sample();
        QCOMPARE(gpus.size(), 2);
        const GpuInfo &gpu = gpus.at(0); // NVML index 0, the one with the error
        QCOMPARE(gpu.backendIndex, 0);
        QCOMPARE(gpu.temperatureCelsius.has_value(), absent != QLatin1String("temperature"));
        QCOMPARE(gpu.powerMilliwatts.has_value(), absent != QLatin1String("power"));
        QCOMPARE(gpu.utilizationPercent.has_value(), absent != QLatin1String("utilization"));
        QCOMPARE(gpu.memoryUsedBytes.has_value(), absent != QLatin1String("memory"));
        QCOMPARE(gpu.memoryTotalBytes.has_value(), absent != QLatin1String("memory"));
        QCOMPARE(gpu.name.isEmpty(), absent == QLatin1String("name"));
        QCOMPARE(gpu.uuid.isEmpty(), absent == QLatin1String("uuid"));
        QCOMPARE(gpu.busId.isEmpty(), absent == QLatin1String("busId"));
        QCOMPARE(gpu.index, absent == QLatin1String("index") ? -1 : 3);
        QVERIFY(gpu.processesKnown); // the graphics list still answers
        // The other GPU is untouched.
        QVERIFY(gpus.at(1).temperatureCelsius && gpus.at(1).powerMilliwatts && !gpus.at(1).name.isEmpty());
    }

    void handleErrorSkipsThatGpu()
    {
        script(kTwoGpus + "error nvmlDeviceGetHandleByIndex_v2 15 0\n"); // GPU_IS_LOST
        NvmlBackend backend(QStringLiteral(IDLEGPU_FAKE_NVML));
        const QList<GpuInfo> gpus = backend.sample();
        QCOMPARE(gpus.size(), 1);
        QCOMPARE(gpus.at(0).index, 1);
    }

    void countErrorGivesNothing()
    {
        script(kTwoGpus + "error nvmlDeviceGetCount_v2 999\n");
        NvmlBackend backend(QStringLiteral(IDLEGPU_FAKE_NVML));
        QVERIFY(backend.available());
        QVERIFY(backend.sample().isEmpty());
    }

    void initFailureIsNodeOnly()
    {
        script(kTwoGpus + "init 9\n"); // NVML_ERROR_DRIVER_NOT_LOADED
        NvmlBackend backend(QStringLiteral(IDLEGPU_FAKE_NVML));
        QVERIFY(!backend.available());
        QVERIFY2(backend.unavailableReason().contains(QLatin1String("Driver Not Loaded")),
                 qPrintable(backend.unavailableReason()));
        QVERIFY(backend.sample().isEmpty());
    }

    void missingLibraryIsNodeOnly()
    {
        const QString path = m_dir.filePath(QStringLiteral("no/libnvidia-ml.so.1"));
        NvmlBackend backend(path);
        QVERIFY(!backend.available());
        QVERIFY2(backend.unavailableReason().contains(path), qPrintable(backend.unavailableReason()));
        QVERIFY(backend.sample().isEmpty());
    }

    void garbageLibraryIsNodeOnly()
    {
        const QString path = TestSupport::writeFile(m_dir.filePath(QStringLiteral("libgarbage.so")), "\x7f" "ELF garbage");
        NvmlBackend backend(path);
        QVERIFY(!backend.available());
        QVERIFY(backend.sample().isEmpty());
    }

    void missingSymbols_data()
    {
        QTest::addColumn<QStringList>("missing");
        QTest::addColumn<bool>("available");
        QTest::addColumn<bool>("hasPower");
        QTest::addColumn<bool>("hasName");
        QTest::addColumn<int>("index");
        QTest::addColumn<bool>("processesKnown");
        QTest::addColumn<int>("processCount");
        QTest::newRow("none") << QStringList() << true << true << true << 3 << true << 2;
        QTest::newRow("no init") << QStringList{"nvmlInit_v2"} << false << false << false << -1 << false << 0;
        QTest::newRow("no count") << QStringList{"nvmlDeviceGetCount_v2"} << false << false << false << -1 << false
                                  << 0;
        QTest::newRow("no power") << QStringList{"nvmlDeviceGetPowerUsage"} << true << false << true << 3 << true << 2;
        QTest::newRow("no name, no error string")
            << QStringList{"nvmlDeviceGetName", "nvmlErrorString"} << true << true << false << 3 << true << 2;
        QTest::newRow("no minor number") << QStringList{"nvmlDeviceGetMinorNumber"} << true << true << true << -1
                                         << true << 2;
        QTest::newRow("no compute list") << QStringList{"nvmlDeviceGetComputeRunningProcesses_v3"} << true << true
                                         << true << 3 << true << 1;
        QTest::newRow("no process lists") << QStringList{"nvmlDeviceGetComputeRunningProcesses_v3",
                                                         "nvmlDeviceGetGraphicsRunningProcesses_v3"}
                                          << true << true << true << 3 << false << 0;
    }
    void missingSymbols()
    {
        QFETCH(QStringList, missing);
        QFETCH(bool, available);
        QFETCH(bool, hasPower);
        QFETCH(bool, hasName);
        QFETCH(int, index);
        QFETCH(bool, processesKnown);
        QFETCH(int, processCount);
        script(kTwoGpus + "process 0 compute 4242 1000\nprocess 0 graphics 1717 2000\n");
        NvmlBackend backend(QStringLiteral(IDLEGPU_FAKE_NVML), missing);
        QCOMPARE(backend.available(), available);
        const QList<GpuInfo> gpus = backend.sample();
        if (!available) {
            QVERIFY(gpus.isEmpty());
            QVERIFY(!backend.unavailableReason().isEmpty());
            return;
        }
        QCOMPARE(gpus.size(), 2);
        const GpuInfo &gpu = gpus.at(0);
        QCOMPARE(gpu.powerMilliwatts.has_value(), hasPower);
        QCOMPARE(gpu.name.isEmpty(), !hasName);
        QCOMPARE(gpu.index, index);
        QCOMPARE(gpu.processesKnown, processesKnown);
        QCOMPARE(gpu.processes.size(), processCount);
        QCOMPARE(gpu.uuid, QStringLiteral("GPU-aaaa-0003"));
    }

    void processLists()
    {
        QByteArray text = kTwoGpus;
        text += "process 0 compute 4242 2147483648\n"
                "process 0 graphics 1717 na\n"
                "process 0 graphics 4242 5\n" // in both lists: once, with the compute figure
                "process 1 compute 5151 1024\n";
        script(text);
        NvmlBackend backend(QStringLiteral(IDLEGPU_FAKE_NVML));
        const QList<GpuInfo> gpus = backend.sample();
        const GpuInfo *h200 = byIndex(gpus, 3);
        QVERIFY(h200);
        QCOMPARE(h200->processes.size(), 2);
        QCOMPARE(h200->processes.at(0).pid, 4242);
        QCOMPARE(h200->processes.at(0).usedMemoryBytes, std::optional<qint64>(2 * kGiB));
        QVERIFY(!h200->processes.at(0).graphics);
        QCOMPARE(h200->processes.at(1).pid, 1717);
        QVERIFY(!h200->processes.at(1).usedMemoryBytes);
        QVERIFY(h200->processes.at(1).graphics);
        QCOMPARE(byIndex(gpus, 1)->processes.size(), 1);
        QCOMPARE(byIndex(gpus, 1)->processes.at(0).pid, 5151);
    }

    // More processes than the first buffer holds: NVML answers INSUFFICIENT_SIZE, the backend asks again.
    void manyProcesses()
    {
        QByteArray text = kTwoGpus;
        for (int pid = 1000; pid < 1300; ++pid)
            text += "process 1 compute " + QByteArray::number(pid) + " 1\n";
        script(text);
        NvmlBackend backend(QStringLiteral(IDLEGPU_FAKE_NVML));
        const QList<GpuInfo> gpus = backend.sample();
        const GpuInfo *a100 = byIndex(gpus, 1);
        QVERIFY(a100);
        QVERIFY(a100->processesKnown);
        QCOMPARE(a100->processes.size(), 300);
        QCOMPARE(a100->processes.last().pid, 1299);
    }

    void mergeProcesses_data()
    {
        QTest::addColumn<bool>("visible");        // the /proc scan saw pid 4242 as a holder
        QTest::addColumn<bool>("hiddenWithoutPid"); // the tracker inferred a hidden holder on GPU 3
        QTest::addColumn<bool>("procEntry");      // /proc/4242 exists
        QTest::addColumn<bool>("fdReadable");     // /proc/4242/fd readable
        QTest::addColumn<int>("holderCount");
        QTest::addColumn<bool>("namedHidden");    // a hidden holder with pid 4242
        QTest::newRow("other user's job: new hidden holder") << false << false << true << false << 1 << true;
        QTest::newRow("names the inferred hidden holder") << false << true << true << false << 1 << true;
        QTest::newRow("visible holder gets its memory") << true << false << true << true << 1 << false;
        QTest::newRow("exited since the sample") << false << true << false << false << 1 << false;
        QTest::newRow("readable but holds no node") << false << false << true << true << 0 << false;
    }
    void mergeProcesses()
    {
        QFETCH(bool, visible);
        QFETCH(bool, hiddenWithoutPid);
        QFETCH(bool, procEntry);
        QFETCH(bool, fdReadable);
        QFETCH(int, holderCount);
        QFETCH(bool, namedHidden);
        QTemporaryDir proc;
        if (procEntry)
            TestSupport::writeFile(proc.filePath(QStringLiteral("4242/status")),
                                   "Name:\ttrain.py\nState:\tS (sleeping)\nUid:\t" + QByteArray::number(::getuid())
                                       + "\t0\t0\t0\n");
        if (fdReadable)
            QVERIFY(QDir(proc.path()).mkpath(QStringLiteral("4242/fd")));

        QList<Holder> holders;
        if (visible) {
            Holder holder;
            holder.pid = 4242;
            holder.comm = QStringLiteral("train.py");
            holder.gpus = {3};
            holders.append(holder);
        }
        if (hiddenWithoutPid) {
            Holder hidden;
            hidden.hidden = true;
            hidden.gpus = {3};
            hidden.user = QStringLiteral("?");
            holders.append(hidden);
        }
        GpuInfo gpu;
        gpu.index = 3;
        gpu.processesKnown = true;
        gpu.processes = {GpuProcessUse{4242, 3 * kGiB, false}};
        GpuInfo unmapped; // minor number unknown: its processes cannot be placed
        unmapped.processes = {GpuProcessUse{4343, 1, false}};
        mergeBackendProcesses(holders, {gpu, unmapped}, proc.path());

        QCOMPARE(holders.size(), holderCount);
        if (namedHidden) {
            const Holder &holder = holders.at(0);
            QVERIFY(holder.hidden);
            QCOMPARE(holder.pid, 4242);
            QCOMPARE(holder.gpus, QList<int>{3});
            QCOMPARE(holder.gpuMemoryBytes, std::optional<qint64>(3 * kGiB));
            QCOMPARE(holder.comm, QStringLiteral("train.py"));
            QCOMPARE(holder.uid, uint(::getuid()));
            QVERIFY(holder.describe().contains(QLatin1String("pid 4242")));
        }
        if (visible) {
            QVERIFY(!holders.at(0).hidden);
            QCOMPARE(holders.at(0).gpuMemoryBytes, std::optional<qint64>(3 * kGiB));
        }
        if (!procEntry && hiddenWithoutPid)
            QCOMPARE(holders.at(0).pid, 0); // the inferred one stays, nameless
    }

    // One job on two GPUs that the scan cannot see: one holder naming both.
    void mergeOneProcessOnTwoGpus()
    {
        QTemporaryDir proc;
        TestSupport::writeFile(proc.filePath(QStringLiteral("77/status")), "Name:\tpython3\n");
        GpuInfo a;
        a.index = 0;
        a.processes = {GpuProcessUse{77, 100, false}};
        GpuInfo b;
        b.index = 1;
        b.processes = {GpuProcessUse{77, 200, false}};
        QList<Holder> holders;
        mergeBackendProcesses(holders, {a, b}, proc.path());
        QCOMPARE(holders.size(), 1);
        QCOMPARE(holders.at(0).gpus, (QList<int>{0, 1}));
        QCOMPARE(holders.at(0).gpuMemoryBytes, std::optional<qint64>(300));
        QVERIFY(holders.at(0).hidden);
    }

    // What each holder does on each GPU, for busy_when: a compute process, a graphics one, one that only has the
    // node open (not listed), and a GPU whose lists could not be read (nothing said).
    void mergeSaysWhoComputes()
    {
        QTemporaryDir proc;
        const auto visible = [](qint64 pid, const QList<int> &gpus) {
            Holder holder;
            holder.pid = pid;
            holder.comm = QStringLiteral("python3");
            holder.gpus = gpus;
            return holder;
        };
        QList<Holder> holders{visible(10, {0, 1, 2}), visible(20, {0}), visible(30, {0})};
        GpuInfo gpu0;
        gpu0.index = 0;
        gpu0.processesKnown = true;
        gpu0.processes = {GpuProcessUse{10, 2 * kGiB, false}, GpuProcessUse{20, std::nullopt, true}};
        GpuInfo gpu1;
        gpu1.index = 1;
        gpu1.processesKnown = true; // 10 has it open, no context there
        GpuInfo gpu2;
        gpu2.index = 2;
        gpu2.processesKnown = false; // the lists could not be read
        mergeBackendProcesses(holders, {gpu0, gpu1, gpu2}, proc.path());

        QCOMPARE(holders.size(), 3);
        QCOMPARE(holders.at(0).gpuUse.value(0), (GpuUse{true, 2 * kGiB, false, std::nullopt}));
        QCOMPARE(holders.at(0).gpuUse.value(1), (GpuUse{false, qint64(0), false, std::nullopt}));
        QVERIFY(!holders.at(0).gpuUse.contains(2));
        QCOMPARE(holders.at(1).gpuUse.value(0), (GpuUse{false, std::nullopt, true, std::nullopt}));
        QCOMPARE(holders.at(2).gpuUse.value(0), (GpuUse{false, qint64(0), false, std::nullopt}));
        QCOMPARE(holders.at(2).gpuUse.size(), 1);
    }

    // NVML's graphics list names a graphics client, even one that holds nvidia-uvm; its busy share comes along.
    // A process in the compute list stays a compute client.
    void mergeMarksGraphicsOnly()
    {
        QTemporaryDir proc;
        Holder browser;
        browser.pid = 10;
        browser.gpus = {0};
        browser.holdsSharedNode = true;
        browser.holdsComputeNode = true; // it opened nvidia-uvm (a CUDA video decoder, say)
        Holder trainer = browser;
        trainer.pid = 20;
        GpuInfo gpu;
        gpu.index = 0;
        gpu.processesKnown = true;
        gpu.processes = {GpuProcessUse{10, qint64(300) << 20, true, 45}, GpuProcessUse{20, kGiB, false, 0}};
        QList<Holder> holders{browser, trainer};
        mergeBackendProcesses(holders, {gpu}, proc.path());

        const GpuUse graphicsUse = holders.at(0).gpuUse.value(0);
        QVERIFY(graphicsUse.graphicsOnly);
        QVERIFY(!graphicsUse.compute);
        QCOMPARE(graphicsUse.busyPercent, std::optional<int>(45));
        QCOMPARE(Policy::clientKind(holders.at(0), 0), Policy::ClientKind::Graphics);
        BusyRule rule; // auto, 30 % or 1024 MiB
        QVERIFY(Policy::judgeHolder(holders.at(0), 0, rule).makesBusy); // 45 % >= 30 %
        rule.graphicsBusyPercent = 50;
        QVERIFY(!Policy::judgeHolder(holders.at(0), 0, rule).makesBusy);

        const GpuUse computeUse = holders.at(1).gpuUse.value(0);
        QVERIFY(!computeUse.graphicsOnly);
        QVERIFY(computeUse.compute);
        QCOMPARE(computeUse.busyPercent, std::optional<int>(0));
        QCOMPARE(Policy::clientKind(holders.at(1), 0), Policy::ClientKind::Compute);
    }

    // Each listed process's busy share is the largest of NVML's samples of it over the window; a listed process
    // without a sample had none; samples of unlisted pids go nowhere. A read that finds no new sample (NVML's
    // NOT_FOUND, as when the watch reads before NVML samples again) keeps the window's samples; once the window
    // has passed without a new one, the share is 0. Each read asks only for samples newer than the last seen.
    void processUtilizationWindow()
    {
        QByteArray text = kTwoGpus;
        text += "process 0 compute 4242 2147483648\n"
                "process 0 graphics 1717 268435456\n"
                "process 1 compute 5151 1024\n"
                "sample 0 4242 1000 80\n"
                "sample 0 1717 1500 5\n"
                "sample 0 4242 2000 90\n"
                "sample 0 9999 2100 70\n"; // not listed
        script(text);
        FakeClock clock;
        NvmlBackend backend(QStringLiteral(IDLEGPU_FAKE_NVML), {}, QStringLiteral("/dev"), &clock);
        const auto busyOf = [](const QList<GpuInfo> &gpus, int index, qint64 pid) -> std::optional<int> {
            if (const GpuInfo *gpu = byIndex(gpus, index))
                for (const GpuProcessUse &use : gpu->processes)
                    if (use.pid == pid)
                        return use.busyPercent;
            return -1; // not listed
        };
        QList<GpuInfo> gpus = backend.sample();
        QCOMPARE(busyOf(gpus, 3, 4242), std::optional<int>(90));
        QCOMPARE(busyOf(gpus, 3, 1717), std::optional<int>(5));
        QCOMPARE(busyOf(gpus, 3, 9999), std::optional<int>(-1));
        QCOMPARE(busyOf(gpus, 1, 5151), std::optional<int>(0)); // NVML found no sample of it

        clock.advance(200); // the watch reads again before NVML's next sample
        gpus = backend.sampleProcesses();
        QCOMPARE(busyOf(gpus, 3, 4242), std::optional<int>(90));
        QCOMPARE(busyOf(gpus, 3, 1717), std::optional<int>(5));

        clock.advance(NvmlBackend::kUtilizationWindowMs); // the window passed with no new sample: idle
        gpus = backend.sampleProcesses();
        QCOMPARE(busyOf(gpus, 3, 4242), std::optional<int>(0));
        QCOMPARE(busyOf(gpus, 3, 1717), std::optional<int>(0));

        text += "sample 0 1717 3000 60\n"; // the game gets busy; the old samples are not taken in again
        script(text);
        clock.advance(200);
        gpus = backend.sampleProcesses();
        QCOMPARE(busyOf(gpus, 3, 1717), std::optional<int>(60));
        QCOMPARE(busyOf(gpus, 3, 4242), std::optional<int>(0));

        // A read long after the one before takes in everything since: the largest share of that stretch.
        text += "sample 0 1717 4000 75\nsample 0 1717 5000 10\n";
        script(text);
        clock.advance(10 * NvmlBackend::kUtilizationWindowMs);
        gpus = backend.sample();
        QCOMPARE(busyOf(gpus, 3, 1717), std::optional<int>(75));
    }

    // An absurd share (above 100 %) is no figure; nor is one NVML cannot give (an error, an old driver): absent.
    void processUtilizationAbsent_data()
    {
        QTest::addColumn<QByteArray>("extra");
        QTest::addColumn<QStringList>("missing");
        QTest::addColumn<int>("busy4242"); // -1: absent
        QTest::addColumn<int>("busy1717");
        QTest::newRow("sane") << QByteArray() << QStringList() << 40 << 0;
        QTest::newRow("absurd share") << QByteArray("sample 0 1717 1500 4000\n") << QStringList() << 40 << -1;
        QTest::newRow("not supported") << QByteArray("error nvmlDeviceGetProcessUtilization 3 0\n") << QStringList()
                                       << -1 << -1;
        QTest::newRow("old driver") << QByteArray() << QStringList{"nvmlDeviceGetProcessUtilization"} << -1 << -1;
    }
    void processUtilizationAbsent()
    {
        QFETCH(QByteArray, extra);
        QFETCH(QStringList, missing);
        QFETCH(int, busy4242);
        QFETCH(int, busy1717);
        const auto expected = [](int busy) { return busy < 0 ? std::optional<int>() : std::optional<int>(busy); };
        script(kTwoGpus + "process 0 compute 4242 1000\nprocess 0 graphics 1717 2000\nsample 0 4242 1000 40\n" + extra);
        NvmlBackend backend(QStringLiteral(IDLEGPU_FAKE_NVML), missing);
        const QList<GpuInfo> gpus = backend.sample();
        const GpuInfo *h200 = byIndex(gpus, 3);
        QVERIFY(h200);
        QCOMPARE(h200->processes.size(), 2);
        QCOMPARE(h200->processes.at(0).pid, 4242);
        QCOMPARE(h200->processes.at(0).busyPercent, expected(busy4242));
        QCOMPARE(h200->processes.at(1).pid, 1717);
        QCOMPARE(h200->processes.at(1).busyPercent, expected(busy1717));
    }

    // Through the backend as a monitor uses it: refresh and the quick refreshProcesses both read utilization,
    // and judgeHolders gives each holder its share and kind.
    void refreshesGiveHoldersTheirShare()
    {
        QTemporaryDir proc;
        QByteArray text = "device 0 0 0 85899345920 40 50000 GPU-cccc-0000 00000000:19:00.0 NVIDIA H200\n"
                          "process 0 graphics 1717 268435456\nsample 0 1717 1000 5\n";
        script(text);
        FakeClock clock;
        QTemporaryDir dev;
        TestSupport::writeFile(dev.filePath(QStringLiteral("nvidia0")), QByteArray());
        NvmlBackend backend(QStringLiteral(IDLEGPU_FAKE_NVML), {}, dev.path(), &clock);
        DeviceNodes covered;
        covered.gpus = {GpuDevice{0, dev.filePath(QStringLiteral("nvidia0"))}};
        QVERIFY(backend.covers(covered.gpus.first()));
        Holder game;
        game.pid = 1717;
        game.gpus = {0};
        game.holdsSharedNode = true;

        backend.refresh(covered);
        QList<Holder> holders{game};
        backend.judgeHolders(holders, covered, proc.path());
        QCOMPARE(holders.at(0).gpuUse.value(0).busyPercent, std::optional<int>(5));
        QVERIFY(holders.at(0).gpuUse.value(0).graphicsOnly);
        QVERIFY(!Policy::judgeHolder(holders.at(0), 0, BusyRule()).makesBusy);

        text += "sample 0 1717 2000 60\n";
        script(text);
        clock.advance(200);
        backend.refreshProcesses(covered);
        holders = {game};
        backend.judgeHolders(holders, covered, proc.path());
        QCOMPARE(holders.at(0).gpuUse.value(0).busyPercent, std::optional<int>(60));
        const Policy::HolderVerdict verdict = Policy::judgeHolder(holders.at(0), 0, BusyRule());
        QCOMPARE(verdict.kind, Policy::ClientKind::Graphics);
        QVERIFY2(verdict.makesBusy, qPrintable(verdict.why));
    }

    // The quick sample for busy_when: the same process lists, none of the slower metrics.
    void sampleProcessesOnly()
    {
        script(kTwoGpus + "process 0 compute 4242 1000\nprocess 0 graphics 1717 2000\n");
        NvmlBackend backend(QStringLiteral(IDLEGPU_FAKE_NVML));
        const QList<GpuInfo> full = backend.sample();
        const QList<GpuInfo> quick = backend.sampleProcesses();
        QCOMPARE(quick.size(), full.size());
        for (qsizetype i = 0; i < quick.size(); ++i) {
            QCOMPARE(quick.at(i).index, full.at(i).index);
            QCOMPARE(quick.at(i).uuid, full.at(i).uuid);
            QCOMPARE(quick.at(i).processesKnown, full.at(i).processesKnown);
            QCOMPARE(quick.at(i).processes.size(), full.at(i).processes.size());
            QVERIFY(full.at(i).utilizationPercent || full.at(i).memoryTotalBytes);
            QVERIFY(!quick.at(i).utilizationPercent);
            QVERIFY(!quick.at(i).memoryTotalBytes);
            QVERIFY(!quick.at(i).temperatureCelsius);
            QVERIFY(!quick.at(i).powerMilliwatts);
        }
    }

    void cudaVisibleDevices_data()
    {
        QTest::addColumn<QList<int>>("gpus");
        QTest::addColumn<QHash<int, QString>>("uuids");
        QTest::addColumn<QString>("expected");
        const QHash<int, QString> both{{1, QStringLiteral("GPU-bbbb-0001")}, {3, QStringLiteral("GPU-aaaa-0003")}};
        QTest::newRow("no backend: numbers") << QList<int>{1, 3} << QHash<int, QString>() << "1,3";
        QTest::newRow("all known: UUIDs") << QList<int>{3, 1} << both << "GPU-aaaa-0003,GPU-bbbb-0001";
        QTest::newRow("one unknown: numbers") << QList<int>{1, 2} << both << "1,2";
        QTest::newRow("one GPU") << QList<int>{1} << both << "GPU-bbbb-0001";
    }
    void cudaVisibleDevices()
    {
        QFETCH(QList<int>, gpus);
        using Uuids = QHash<int, QString>;
        QFETCH(Uuids, uuids);
        QFETCH(QString, expected);
        const QProcessEnvironment env = workloadEnvironment({}, gpus, false, uuids);
        QCOMPARE(env.value(QStringLiteral("CUDA_VISIBLE_DEVICES")), expected);
        QVERIFY(!workloadEnvironment({}, gpus, true, uuids).contains(QStringLiteral("CUDA_VISIBLE_DEVICES")));
    }

    void statusReportShowsNvml()
    {
        script(kTwoGpus);
        NvmlBackend backend(QStringLiteral(IDLEGPU_FAKE_NVML));
        MonitorState state;
        state.gpuMetrics.backend = backend.name();
        state.gpuMetrics.available = true;
        for (const GpuInfo &gpu : backend.sample())
            state.gpuMetrics.gpus.insert(gpu.index, gpu);
        GpuStatus status;
        status.index = 3;
        state.decision.gpus = {status};
        const QString text = StatusReport::formatText(state);
        QVERIFY2(text.contains(QLatin1String("GPU 3 (NVIDIA H200, GPU-aaaa-0003, bus 00000000:19:00.0, "
                                             "nvidia-smi index 0)")),
                 qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("37% busy, 12.0 of 140.0 GiB")), qPrintable(text));
        const QJsonObject json = StatusReport::toJson(state);
        const QJsonObject gpu = json.value(QStringLiteral("gpus")).toArray().at(0).toObject();
        QCOMPARE(gpu.value(QStringLiteral("uuid")).toString(), QStringLiteral("GPU-aaaa-0003"));
        QCOMPARE(gpu.value(QStringLiteral("name")).toString(), QStringLiteral("NVIDIA H200"));
        QCOMPARE(gpu.value(QStringLiteral("bus_id")).toString(), QStringLiteral("00000000:19:00.0"));
        QCOMPARE(gpu.value(QStringLiteral("utilization_percent")).toInt(), 37);
        QCOMPARE(gpu.value(QStringLiteral("memory_total_bytes")).toDouble(), double(140 * kGiB));
        QCOMPARE(gpu.value(QStringLiteral("temperature_celsius")).toInt(), 54);
        QCOMPARE(gpu.value(QStringLiteral("power_watts")).toDouble(), 231.5);
        QCOMPARE(json.value(QStringLiteral("gpu_backend")).toObject().value(QStringLiteral("mode")).toString(),
                 QStringLiteral("backend"));
    }

    void statusReportNodeOnly()
    {
        script("init 9\n");
        Config config;
        config.deviceRoot = m_dir.filePath(QStringLiteral("dev"));
        const MonitorState state = Monitor::lookOnce(config, MonitorPaths(),
                                                     std::make_unique<NvmlBackend>(QStringLiteral(IDLEGPU_FAKE_NVML)));
        QVERIFY(!state.gpuMetrics.available);
        const QString text = StatusReport::formatText(state);
        QVERIFY2(text.contains(QLatin1String("NVML not available: node-only mode")), qPrintable(text));
        const QJsonObject backendJson = StatusReport::toJson(state).value(QStringLiteral("gpu_backend")).toObject();
        QCOMPARE(backendJson.value(QStringLiteral("mode")).toString(), QStringLiteral("node-only"));
        QCOMPARE(backendJson.value(QStringLiteral("available")).toBool(), false);
    }
};

void TestNvmlBackend::backendConfirmsOnlyVisibleProcesses_data()
{
    QTest::addColumn<bool>("listKnown");
    QTest::addColumn<QList<qint64>>("listed");
    QTest::addColumn<bool>("onlyVisible");
    QTest::newRow("nothing listed") << true << QList<qint64>{} << true;
    QTest::newRow("only a visible holder") << true << QList<qint64>{100} << true;
    QTest::newRow("a pid the scan did not see") << true << QList<qint64>{100, 777} << false;
    QTest::newRow("a hidden holder's pid is not a visible one") << true << QList<qint64>{200} << false;
    QTest::newRow("list unreadable") << false << QList<qint64>{} << false;
}

void TestNvmlBackend::backendConfirmsOnlyVisibleProcesses()
{
    QFETCH(bool, listKnown);
    QFETCH(QList<qint64>, listed);
    QFETCH(bool, onlyVisible);
    GpuInfo gpu;
    gpu.index = 0;
    gpu.processesKnown = listKnown;
    for (qint64 pid : listed)
        gpu.processes.append(GpuProcessUse{pid, std::nullopt, false});
    Holder visible;
    visible.pid = 100;
    visible.gpus = {0};
    Holder hidden;
    hidden.pid = 200;
    hidden.hidden = true;
    hidden.gpus = {0};
    QCOMPARE(backendSeesOnlyVisibleProcesses(gpu, {visible, hidden}), onlyVisible);
}

QTEST_GUILESS_MAIN(TestNvmlBackend)
#include "tst_nvmlbackend.moc"
