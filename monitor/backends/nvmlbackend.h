#pragma once
// NVIDIA's management library, loaded at run time: nothing NVIDIA is needed to build idlegpu, and a machine
// without the driver's libnvidia-ml.so.1 runs in node-only mode (device nodes and /proc only).
#include "backends/gpubackend.h"

#include <QStringList>

#include <memory>

class NvmlBackend : public GpuBackend
{
public:
    static constexpr const char *kDefaultLibrary = "libnvidia-ml.so.1";

    // Loads `libraryPath` and initializes NVML. `missingSymbols`: names to treat as absent from the library
    // (for tests: an old driver lacks the newer functions).
    explicit NvmlBackend(const QString &libraryPath = QString::fromLatin1(kDefaultLibrary),
                         const QStringList &missingSymbols = QStringList());
    ~NvmlBackend() override; // nvmlShutdown, unload

    QString name() const override { return QStringLiteral("NVML"); }
    bool available() const override;
    QString unavailableReason() const override;
    QList<GpuInfo> sample() override { return read(true); }
    QList<GpuInfo> sampleProcesses() override { return read(false); }

private:
    QList<GpuInfo> read(bool withMetrics);

    struct Api;
    std::unique_ptr<Api> m_api;
    QString m_unavailableReason;
};
