// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// The NVML backend against the real libnvidia-ml.so.1: names, UUIDs, minor numbers that match the device
// nodes, memory, and a real CUDA process in the compute list (when python3 with torch can start one).
// Skips (exit 77) where /dev/nvidia0 does not exist.
#include "backends/gpubackend.h"
#include "backends/nvmlbackend.h"

#include <QCoreApplication>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTest>

#include <cstdio>

class TestGpuNvml : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void identityAndMemory()
    {
        NvmlBackend backend;
        QVERIFY2(backend.available(), qPrintable(backend.unavailableReason()));
        const QList<GpuInfo> gpus = backend.sample();
        QVERIFY(!gpus.isEmpty());
        for (const GpuInfo &gpu : gpus) {
            qInfo("NVML %d = /dev/nvidia%d: %s %s %s, %s", gpu.backendIndex, gpu.index, qPrintable(gpu.name),
                  qPrintable(gpu.uuid), qPrintable(gpu.busId), qPrintable(describeGpuMetrics(gpu)));
            QVERIFY(gpu.index >= 0);
            QVERIFY2(QFile::exists(QStringLiteral("/dev/nvidia%1").arg(gpu.index)), "minor number without a node");
            QVERIFY(!gpu.name.isEmpty());
            QVERIFY2(gpu.uuid.startsWith(QLatin1String("GPU-")) || gpu.uuid.startsWith(QLatin1String("MIG-")),
                     qPrintable(gpu.uuid));
            QVERIFY(!gpu.busId.isEmpty());
            QVERIFY(gpu.memoryTotalBytes && *gpu.memoryTotalBytes > 0);
            QVERIFY(gpu.memoryUsedBytes && *gpu.memoryUsedBytes <= *gpu.memoryTotalBytes);
            QVERIFY(gpu.processesKnown);
        }
    }

    void cudaProcessIsListed()
    {
        const QString python = QStandardPaths::findExecutable(QStringLiteral("python3"));
        if (python.isEmpty())
            QSKIP("no python3 to start a CUDA process");
        QProcess job;
        job.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        job.start(python, {QStringLiteral("-c"),
                           QStringLiteral("import sys, time\n"
                                          "try:\n    import torch\nexcept ImportError:\n    sys.exit(3)\n"
                                          "x = torch.zeros(64 << 20, device='cuda:0')\n"
                                          "torch.cuda.synchronize()\nprint('ready', flush=True)\ntime.sleep(60)\n")});
        QVERIFY(job.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(job.state() != QProcess::Running || job.canReadLine(), 60000);
        if (job.state() != QProcess::Running && job.exitCode() == 3)
            QSKIP("python3 has no torch: no CUDA process to list");
        QVERIFY2(job.state() == QProcess::Running, "the CUDA job died");

        NvmlBackend backend;
        QVERIFY(backend.available());
        const qint64 pid = job.processId();
        bool listed = false;
        std::optional<qint64> memory;
        for (const GpuInfo &gpu : backend.sample())
            for (const GpuProcessUse &use : gpu.processes)
                if (use.pid == pid) {
                    listed = true;
                    memory = use.usedMemoryBytes;
                }
        job.kill();
        job.waitForFinished();
        QVERIFY2(listed, "NVML does not list the CUDA job");
        if (memory)
            QVERIFY(*memory >= 256ll << 20); // 64 Mi floats
    }
};

int main(int argc, char **argv)
{
    if (!QFile::exists(QStringLiteral("/dev/nvidia0"))) {
        printf("SKIP: /dev/nvidia0 does not exist (no NVIDIA GPU here)\n");
        return 77;
    }
    QCoreApplication app(argc, argv);
    TestGpuNvml test;
    return QTest::qExec(&test, argc, argv);
}
#include "tst_gpu_nvml.moc"
