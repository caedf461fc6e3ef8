#include "devicescanner.h"

#include "logging.h"

#include <QFile>

#include <algorithm>
#include <cstring>

#include <dirent.h>

namespace {

// The driver never creates more than 256 GPU nodes (minors 0..255; 255 is nvidiactl's).
constexpr int kMaxGpuIndex = 255;

// The index of a GPU node name "nvidiaN", or -1. N must be written canonically ("nvidia01" is not nvidia1:
// the driver never creates such a name, and accepting it would give two paths for one index).
int gpuIndexOf(const char *name)
{
    static const char prefix[] = "nvidia";
    if (std::strncmp(name, prefix, sizeof prefix - 1) != 0)
        return -1;
    const char *digits = name + sizeof prefix - 1;
    const size_t length = std::strlen(digits);
    if (length == 0 || length > 3 || (length > 1 && digits[0] == '0'))
        return -1;
    int index = 0;
    for (const char *c = digits; *c; ++c) {
        if (*c < '0' || *c > '9')
            return -1;
        index = index * 10 + (*c - '0');
    }
    return index <= kMaxGpuIndex ? index : -1;
}

bool isSharedNodeName(const char *name)
{
    static const char *const sharedNames[] = {"nvidiactl", "nvidia-uvm", "nvidia-uvm-tools", "nvidia-modeset"};
    for (const char *shared : sharedNames) {
        if (std::strcmp(name, shared) == 0)
            return true;
    }
    return false;
}

} // namespace

DeviceNodes scanDevices(const QString &deviceRoot)
{
    DeviceNodes nodes;
    DIR *dir = ::opendir(QFile::encodeName(deviceRoot).constData());
    if (!dir) {
        const int error = errno;
        qCDebug(lcScan).noquote() << "cannot list device root" << deviceRoot + QLatin1Char(':')
                                  << std::strerror(error);
        return nodes;
    }
    const QString prefix = deviceRoot.endsWith(QLatin1Char('/')) ? deviceRoot : deviceRoot + QLatin1Char('/');
    while (const dirent *entry = ::readdir(dir)) {
        const int index = gpuIndexOf(entry->d_name);
        if (index >= 0)
            nodes.gpus.append(GpuDevice{index, prefix + QFile::decodeName(entry->d_name)});
        else if (isSharedNodeName(entry->d_name))
            nodes.sharedNodes.append(prefix + QFile::decodeName(entry->d_name));
    }
    ::closedir(dir);
    std::sort(nodes.gpus.begin(), nodes.gpus.end(),
              [](const GpuDevice &a, const GpuDevice &b) { return a.index < b.index; });
    // readdir order is arbitrary: sort so that two scans of the same folder compare equal.
    nodes.sharedNodes.sort();
    return nodes;
}
