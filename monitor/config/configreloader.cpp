// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "config/configreloader.h"

// A file that does not exist yet may mean "not set up yet" rather than an error (acceptMissing()); the first file to
// appear is then read like any other. A file that is cut to nothing while idlegpu runs is refused, because it would
// read as a config without workloads and stop them all.

#include "base/logging.h"
#include "config/configwatcher.h"

#include <QFileInfo>
#include <QTimer>

#include <utility>

ConfigReloader::ConfigReloader(const QString &path, QObject *parent)
    : QObject(parent), m_path(path), m_watcher(new ConfigFileWatcher(this)), m_delayTimer(new QTimer(this))
{
    m_delayTimer->setSingleShot(true);
    m_delayTimer->setInterval(kReloadDelayMs);
    connect(m_delayTimer, &QTimer::timeout, this, &ConfigReloader::reloadDue);
    // Only a write closed or a file renamed into place: never a file in the middle of its write.
    connect(m_watcher, &ConfigFileWatcher::changed, m_delayTimer, qOverload<>(&QTimer::start));
}

void ConfigReloader::acceptMissing(const Config &placeholder)
{
    m_placeholder = placeholder;
    m_placeholder->filePath = m_path;
    m_placeholder->workloads.clear();
}

ConfigLoadResult ConfigReloader::readFirst()
{
    m_notSetUp = m_placeholder && !QFileInfo::exists(m_path);
    if (!m_notSetUp)
        return ConfigLoader::load(m_path);
    qCInfo(lcConfig, "%s does not exist: idlegpu is not set up yet; watching the GPUs with no workloads until "
                     "the file appears", qPrintable(m_path));
    ConfigLoadResult result;
    result.config = *m_placeholder;
    return result;
}

std::optional<ConfigLoadResult> ConfigReloader::readAgain()
{
    if (m_notSetUp && !QFileInfo::exists(m_path))
        return std::nullopt; // still not set up: a change of something else in the folder
    const bool firstFile = std::exchange(m_notSetUp, false);
    if (firstFile)
        qCInfo(lcConfig, "%s appeared: applying it", qPrintable(m_path));
    ConfigLoadResult result = ConfigLoader::load(m_path);
    if (result.changedWhileRead) {
        // Its writer is not done: the close or rename that ends the write brings the whole file. A timed retry could
        // fall in the writer's pause and read half a file as a whole one.
        qCInfo(lcConfig, "%s changed while it was read; reading it again once its writer is done", qPrintable(m_path));
        m_notSetUp = firstFile;
        return std::nullopt;
    }
    // A first file has nothing to stop: an empty one is a setup without workloads.
    if (result.ok() && !firstFile && result.fileBlank) {
        // A file cut to nothing (a save that failed half-way, a full disk, `> file`) would read as a valid
        // config without workloads and stop them all.
        result.diagnostics.append({ConfigDiagnostic::Error, m_path, 0,
                                   QStringLiteral("the file is empty: not applied while idlegpu runs (to stop "
                                                  "every workload, leave a [defaults] section in it)")});
    }
    return result;
}

void ConfigReloader::watch()
{
    m_watcher->watch(m_path);
}

void ConfigReloader::cancelPending()
{
    m_delayTimer->stop();
}
