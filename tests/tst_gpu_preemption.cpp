// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// On a machine with a real NVIDIA GPU: idlegpu --headless on /dev, a workload on GPU 0, then a real CUDA
// client (nvidia-smi opens nvidiactl, nvidia-uvm and nvidiaN like every CUDA process) must preempt it, and
// the workload must come back once it is gone. Skips (exit 77) where /dev/nvidia0 does not exist.
#include "testsupport.h"

#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <signal.h>

using namespace TestSupport;

class TestGpuPreemption : public QObject
{
    Q_OBJECT

private:
    static qint64 countLines(const QString &path, const QByteArray &prefix)
    {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            return 0;
        qint64 count = 0;
        for (const QByteArray &line : file.readAll().split('\n'))
            count += line.startsWith(prefix) ? 1 : 0;
        return count;
    }

private Q_SLOTS:
    void realCudaClientPreemptsTheWorkload()
    {
        const QString smi = QStandardPaths::findExecutable(QStringLiteral("nvidia-smi"));
        if (smi.isEmpty())
            QSKIP("nvidia-smi is not installed");
        QTemporaryDir dir;
        const QString marks = dir.filePath(QStringLiteral("marks"));
        const QString config = writeFile(
            dir.filePath(QStringLiteral("idlegpu.conf")),
            // The persistence daemon and display servers hold the nodes for good on many machines.
            QStringLiteral("[defaults]\nstart_delay_seconds=1\n\n[gpu-all]\ngpus=ALL\n"
                           "ignore_programs=nvidia-persistenced,Xorg,Xwayland,gnome-shell,kwin_wayland\n\n"
                           "[process-gpu0]\n"
                           "cmd=sh -c 'echo start >> %1; trap \"echo term >> %1; exit 0\" TERM; "
                           "while :; do sleep 0.1; done'\ngpus=0\n")
                .arg(marks)
                .toUtf8());
        QProcess idlegpu;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_RUNTIME_DIR"), dir.path());
        env.insert(QStringLiteral("XDG_STATE_HOME"), dir.path()); // its ledger: not the user's
        idlegpu.setProcessEnvironment(env);
        idlegpu.setProcessChannelMode(QProcess::ForwardedChannels);
        idlegpu.start(QStringLiteral(IDLEGPU_BINARY), {QStringLiteral("--headless"), QStringLiteral("--config"), config});
        QVERIFY(idlegpu.waitForStarted());
        QTRY_COMPARE_WITH_TIMEOUT(countLines(marks, "start"), 1, 15000);

        QProcess client;
        client.start(smi, {QStringLiteral("-q")});
        QVERIFY(client.waitForFinished(60000));
        QTRY_COMPARE_WITH_TIMEOUT(countLines(marks, "term"), 1, 10000);
        // nvidia-smi has exited: after the start delay the workload runs again.
        QTRY_COMPARE_WITH_TIMEOUT(countLines(marks, "start"), 2, 20000);

        ::kill(pid_t(idlegpu.processId()), SIGTERM);
        QVERIFY(idlegpu.waitForFinished(30000));
        QCOMPARE(idlegpu.exitCode(), 0);
    }
};

int main(int argc, char **argv)
{
    if (!QFile::exists(QStringLiteral("/dev/nvidia0"))) {
        printf("SKIP: /dev/nvidia0 does not exist (no NVIDIA GPU here)\n");
        return 77;
    }
    QCoreApplication app(argc, argv);
    TestGpuPreemption test;
    return QTest::qExec(&test, argc, argv);
}
#include "tst_gpu_preemption.moc"
