// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// The variables through which a workload's GPU selection reaches each vendor's stack (workloadEnvironment() in
// run/gpuenvironment.h): CUDA for NVIDIA, ROCr/HIP for AMD, Level Zero for Intel, on machines with one vendor or
// several, with values inherited from idlegpu's own environment that must not point elsewhere.
#include "run/gpuenvironment.h"

#include <QTest>

namespace {

const QStringList kVariables{"CUDA_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES",
                             "GPU_DEVICE_ORDINAL",   "ZE_AFFINITY_MASK",     "ZE_ENABLE_PCI_ID_DEVICE_ORDER",
                             "ZE_FLAT_DEVICE_HIERARCHY"};

// "n" NVIDIA, "a" AMD, "A" AMD with a unique_id ("0000...0<index>"), "i" Intel: one letter per GPU, index = position.
QList<GpuDevice> machine(const QString &letters)
{
    QList<GpuDevice> devices;
    for (int index = 0; index < letters.size(); ++index) {
        GpuDevice gpu;
        gpu.index = index;
        const QChar letter = letters.at(index);
        gpu.vendor = letter == 'n' ? GpuVendor::Nvidia : letter == 'i' ? GpuVendor::Intel : GpuVendor::Amd;
        gpu.path = gpu.vendor == GpuVendor::Nvidia ? QStringLiteral("/dev/nvidia%1").arg(index)
                                                   : QStringLiteral("/dev/dri/renderD%1").arg(128 + index);
        if (letter == 'A')
            gpu.uniqueId = QStringLiteral("%1").arg(index, 16, 10, QLatin1Char('0'));
        devices.append(gpu);
    }
    return devices;
}

} // namespace

class TestGpuEnvironment : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init()
    {
        // What a user's shell may have left in idlegpu's environment: every row starts from it.
        qputenv("CUDA_VISIBLE_DEVICES", "7");
        qputenv("ROCR_VISIBLE_DEVICES", "9");
        qputenv("HIP_VISIBLE_DEVICES", "5");
        qputenv("GPU_DEVICE_ORDINAL", "3");
        qputenv("ZE_AFFINITY_MASK", "4");
        qunsetenv("ZE_ENABLE_PCI_ID_DEVICE_ORDER");
        qunsetenv("ZE_FLAT_DEVICE_HIERARCHY");
    }
    void cleanup()
    {
        for (const QString &name : kVariables)
            qunsetenv(name.toLatin1().constData());
    }

    void selection_data()
    {
        QTest::addColumn<QString>("gpusPresent"); // see machine(); empty: the caller knows no devices
        QTest::addColumn<QList<int>>("gpus");
        QTest::addColumn<bool>("allGpus");
        QTest::addColumn<QHash<int, QString>>("uuids"); // NVML's, by index
        // The values of kVariables, "unset" for one the workload does not get.
        QTest::addColumn<QStringList>("expected");

        const QHash<int, QString> none;
        QTest::newRow("nvidia only: as before, the rest untouched")
            << "nnn" << QList<int>{0, 2} << false << none
            << QStringList{"0,2", "9", "5", "3", "4", "unset", "unset"};
        QTest::newRow("devices unknown: every index is CUDA's")
            << "" << QList<int>{0, 2} << false << none << QStringList{"0,2", "9", "5", "3", "4", "unset", "unset"};
        QTest::newRow("all GPUs: nothing set, everything inherited")
            << "nnaai" << QList<int>{0, 1, 2, 3, 4} << true << none
            << QStringList{"7", "9", "5", "3", "4", "unset", "unset"};
        QTest::newRow("amd only, by unique_id; CUDA's variable removed since HIP reads it")
            << "AA" << QList<int>{1} << false << none
            << QStringList{"unset", "GPU-0000000000000001", "0", "unset", "4", "unset", "unset"};
        QTest::newRow("amd: one selected GPU without unique_id, all by ordinal")
            << "AAa" << QList<int>{1, 2} << false << none
            << QStringList{"unset", "1,2", "0,1", "unset", "4", "unset", "unset"};
        QTest::newRow("amd: an unselected GPU without unique_id does not matter")
            << "aAA" << QList<int>{1, 2} << false << none
            << QStringList{"unset", "GPU-0000000000000001,GPU-0000000000000002", "0,1", "unset", "4", "unset",
                           "unset"};
        QTest::newRow("mixed, both vendors selected: HIP ignores CUDA's list")
            << "nnaa" << QList<int>{1, 3} << false << none
            << QStringList{"1", "1", "0", "unset", "4", "unset", "unset"};
        QTest::newRow("mixed, nvidia only: amd hidden")
            << "nnaa" << QList<int>{0} << false << none
            << QStringList{"0", "", "unset", "unset", "4", "unset", "unset"};
        QTest::newRow("mixed, amd only: nvidia hidden")
            << "nnAA" << QList<int>{2} << false << none
            << QStringList{"-1", "GPU-0000000000000002", "0", "unset", "4", "unset", "unset"};
        QTest::newRow("mixed with NVML UUIDs")
            << "nna" << QList<int>{0, 2} << false << QHash<int, QString>{{0, "GPU-n0"}, {1, "GPU-n1"}}
            << QStringList{"GPU-n0", "0", "0", "unset", "4", "unset", "unset"};
        QTest::newRow("intel only") << "iii" << QList<int>{0, 2} << false << none
                                    << QStringList{"unset", "9", "5", "3", "0,2", "1", "COMPOSITE"};
        QTest::newRow("nvidia and intel, nvidia only: intel hidden by an ordinal past the last")
            << "nii" << QList<int>{0} << false << none
            << QStringList{"0", "9", "5", "3", "2", "1", "COMPOSITE"};
        QTest::newRow("all three vendors, one of each")
            << "nAi" << QList<int>{0, 1, 2} << false << none
            << QStringList{"0", "GPU-0000000000000001", "0", "unset", "0", "1", "COMPOSITE"};
    }

    void selection()
    {
        QFETCH(QString, gpusPresent);
        QFETCH(QList<int>, gpus);
        QFETCH(bool, allGpus);
        using Uuids = QHash<int, QString>;
        QFETCH(Uuids, uuids);
        QFETCH(QStringList, expected);
        const QProcessEnvironment env =
            workloadEnvironment({}, gpus, allGpus, uuids, machine(gpusPresent));
        QStringList values;
        for (const QString &name : kVariables)
            values.append(env.contains(name) ? env.value(name) : QStringLiteral("unset"));
        QCOMPARE(values, expected);
        QCOMPARE(env.value(QStringLiteral("CUDA_DEVICE_ORDER")), QStringLiteral("PCI_BUS_ID"));
    }

    void envKeyWins()
    {
        const QProcessEnvironment env = workloadEnvironment(
            {{QStringLiteral("ROCR_VISIBLE_DEVICES"), QStringLiteral("0")},
             {QStringLiteral("ZE_AFFINITY_MASK"), QStringLiteral("1")}},
            {1}, false, {}, machine(QStringLiteral("ai")));
        QCOMPARE(env.value(QStringLiteral("ROCR_VISIBLE_DEVICES")), QStringLiteral("0"));
        QCOMPARE(env.value(QStringLiteral("ZE_AFFINITY_MASK")), QStringLiteral("1"));
    }
};

QTEST_GUILESS_MAIN(TestGpuEnvironment)
#include "tst_gpuenvironment.moc"
