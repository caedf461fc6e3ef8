// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The backend for NVIDIA's management library (NVML), loaded at run time: nothing NVIDIA is needed to build
// idlegpu, and a machine without the driver's libnvidia-ml.so.1 runs in node-only mode (device nodes and /proc only).
#include "backends/gpubackend.h"

#include <QStringList>

#include <memory>

class Clock;

// A GpuBackend over a library that numbers GPUs by the minor of /dev/nvidiaN and lists the processes on each
// (NVML, or a scripted stand-in in tests). It covers the NVIDIA GPUs whose nodes are in its device root, keeps its
// last sample and merges its process lists into the holders of each scan (mergeBackendProcesses).
class NvidiaLibraryBackend : public GpuBackend
{
public:
    // `deviceRoot` is where the library's GPUs have their nodes. A device_root elsewhere (the demo's simulated
    // GPUs) holds other GPUs, whatever their names, so the library's view does not apply to it.
    explicit NvidiaLibraryBackend(const QString &deviceRoot = QStringLiteral("/dev"));

    // Reads every GPU that the library knows, with metrics and process lists; empty when it is unavailable.
    virtual QList<GpuInfo> sample() = 0;
    // Reads the identity, process lists and busy shares only, without the slower metrics (left absent).
    virtual QList<GpuInfo> sampleProcesses() { return sample(); }

    bool covers(const GpuDevice &gpu) const override;
    QList<GpuInfo> refresh(const DeviceNodes &covered) override;
    void refreshProcesses(const DeviceNodes &covered) override;
    void judgeHolders(QList<Holder> &holders, const DeviceNodes &covered, const QString &procRoot) const override;

private:
    static QList<GpuInfo> coveredOnly(const QList<GpuInfo> &gpus, const DeviceNodes &covered);

    QString m_deviceRoot; // canonical
    QList<GpuInfo> m_sample; // the last refresh, merged into each scan's holders
};

// The NvidiaLibraryBackend over the real NVML, loaded with dlopen.
class NvmlBackend : public NvidiaLibraryBackend
{
public:
    static constexpr const char *kDefaultLibrary = "libnvidia-ml.so.1";
    // The window of per-process utilization: a process's busy share is the largest of NVML's samples of it over at
    // least this long (and since the read before, when that was longer ago).
    static constexpr qint64 kUtilizationWindowMs = 1000;

    // Loads `libraryPath` and initializes NVML. `missingSymbols` names functions to treat as absent from the library
    // (for tests, as an old driver lacks the newer functions). For `deviceRoot`, see NvidiaLibraryBackend. `clock`
    // times the window of per-process utilization (nullptr means the system's clock).
    explicit NvmlBackend(const QString &libraryPath = QString::fromLatin1(kDefaultLibrary),
                         const QStringList &missingSymbols = QStringList(),
                         const QString &deviceRoot = QStringLiteral("/dev"), const Clock *clock = nullptr);
    ~NvmlBackend() override; // calls nvmlShutdown and unloads the library

    QString name() const override { return QStringLiteral("NVML"); }
    bool available() const override;
    QString unavailableReason() const override;
    QList<GpuInfo> sample() override { return read(true); }
    QList<GpuInfo> sampleProcesses() override { return read(false); }

private:
    QList<GpuInfo> read(bool withMetrics);

    struct Api;
    std::unique_ptr<Api> m_api;
    const Clock *m_clock;
    QString m_unavailableReason;
};
