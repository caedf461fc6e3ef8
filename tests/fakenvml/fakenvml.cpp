// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// A stand-in for libnvidia-ml.so.1: answers the NVML functions idlegpu uses from a script that the test writes
// and names in FAKE_NVML_SCRIPT. The script is read by nvmlInit_v2, and again by nvmlDeviceGetCount_v2 (the start
// of every sample) when the test has rewritten it. Lines (fields separated by spaces):
//   init <code>                                  nvmlInit_v2 returns <code>
//   device <minor> <util%> <memUsed> <memTotal> <tempC> <powerMw> <uuid> <busId> <name, may hold spaces>
//   process <nvml index> compute|graphics <pid> <usedBytes or na>
//   sample <nvml index> <pid> <timeStamp> <smUtil%>   a per-process utilization sample (given when newer than
//                                                 the caller's lastSeenTimeStamp)
//   energy <nvml index> <millijoules>             nvmlDeviceGetTotalEnergyConsumption's counter (without this line
//                                                 the device answers NOT_SUPPORTED, as GPUs before Volta do)
//   error <function> <code> [<nvml index>]       that function returns <code> (for that device only)
// Plain C++, no Qt: it is loaded with dlopen like the real library.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {
struct Process
{
    unsigned pid = 0;
    unsigned long long used = ~0ull;
    bool graphics = false;
};
struct UtilizationSample
{
    unsigned pid = 0;
    unsigned long long timeStamp = 0;
    unsigned smUtil = 0;
};
struct Device
{
    unsigned minor = 0, util = 0, temp = 0, power = 0;
    unsigned long long memUsed = 0, memTotal = 0;
    std::string uuid, busId, name;
    std::vector<Process> processes;
    std::vector<UtilizationSample> samples;
    bool hasEnergy = false;
    unsigned long long energy = 0;
};
struct Error
{
    std::string function;
    int code = 0;
    int device = -1; // -1: every device
};
struct Script
{
    int initCode = 0;
    std::vector<Device> devices;
    std::vector<Error> errors;
};
Script script;
std::string loadedText; // the script's text as last parsed

void load()
{
    const char *path = std::getenv("FAKE_NVML_SCRIPT");
    std::ifstream file(path ? path : "");
    std::stringstream text;
    text << file.rdbuf();
    loadedText = text.str();
    script = Script();
    std::istringstream in(loadedText);
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream words(line);
        std::string kind;
        words >> kind;
        if (kind == "init") {
            words >> script.initCode;
        } else if (kind == "device") {
            Device d;
            words >> d.minor >> d.util >> d.memUsed >> d.memTotal >> d.temp >> d.power >> d.uuid >> d.busId;
            std::getline(words >> std::ws, d.name);
            script.devices.push_back(d);
        } else if (kind == "process") {
            size_t index = 0;
            std::string list, used;
            Process p;
            words >> index >> list >> p.pid >> used;
            p.graphics = list == "graphics";
            if (used != "na")
                p.used = std::stoull(used);
            if (index < script.devices.size())
                script.devices[index].processes.push_back(p);
        } else if (kind == "sample") {
            size_t index = 0;
            UtilizationSample sample;
            words >> index >> sample.pid >> sample.timeStamp >> sample.smUtil;
            if (index < script.devices.size())
                script.devices[index].samples.push_back(sample);
        } else if (kind == "energy") {
            size_t index = 0;
            unsigned long long millijoules = 0;
            words >> index >> millijoules;
            if (index < script.devices.size()) {
                script.devices[index].hasEnergy = true;
                script.devices[index].energy = millijoules;
            }
        } else if (kind == "error") {
            Error e;
            words >> e.function >> e.code;
            if (!(words >> e.device))
                e.device = -1;
            script.errors.push_back(e);
        }
    }
}

// Parses the script again when the test has rewritten it.
void reloadIfChanged()
{
    const char *path = std::getenv("FAKE_NVML_SCRIPT");
    std::ifstream file(path ? path : "");
    std::stringstream text;
    text << file.rdbuf();
    if (text.str() != loadedText)
        load();
}

using Handle = struct nvmlDevice_st *;
int deviceOf(Handle handle)
{
    return int(reinterpret_cast<std::uintptr_t>(handle)) - 1;
}
// The scripted error of `function` for device `index`, else 0; 2 (INVALID_ARGUMENT) for a bad handle.
int scripted(const char *function, int index = -1)
{
    if (index < -1 || index >= int(script.devices.size()))
        return 2;
    for (const Error &e : script.errors)
        if (e.function == function && (e.device == -1 || e.device == index))
            return e.code;
    return 0;
}
int copyText(const std::string &text, char *buffer, unsigned length)
{
    if (text.size() + 1 > length)
        return 7; // INSUFFICIENT_SIZE
    std::memcpy(buffer, text.c_str(), text.size() + 1);
    return 0;
}
struct ProcessInfo
{
    unsigned pid;
    unsigned long long usedGpuMemory;
    unsigned gpuInstanceId;
    unsigned computeInstanceId;
};
int processes(const char *function, Handle handle, unsigned *count, ProcessInfo *infos, bool graphics)
{
    const int index = deviceOf(handle);
    if (int code = scripted(function, index))
        return code;
    std::vector<Process> listed;
    for (const Process &p : script.devices[size_t(index)].processes)
        if (p.graphics == graphics)
            listed.push_back(p);
    const unsigned room = *count;
    *count = unsigned(listed.size());
    if (listed.size() > room)
        return 7;
    for (size_t i = 0; i < listed.size(); ++i)
        infos[i] = {listed[i].pid, listed[i].used, ~0u, ~0u};
    return 0;
}
} // namespace

#define FAKE_EXPORT extern "C" __attribute__((visibility("default")))

FAKE_EXPORT int nvmlInit_v2()
{
    load();
    return script.initCode;
}
FAKE_EXPORT int nvmlShutdown()
{
    return 0;
}
FAKE_EXPORT const char *nvmlErrorString(int code)
{
    switch (code) {
    case 0: return "Success";
    case 3: return "Not Supported";
    case 4: return "Insufficient Permissions";
    case 9: return "Driver Not Loaded";
    default: return "Unknown Error";
    }
}
FAKE_EXPORT int nvmlDeviceGetCount_v2(unsigned *count)
{
    reloadIfChanged();
    if (int code = scripted("nvmlDeviceGetCount_v2"))
        return code;
    *count = unsigned(script.devices.size());
    return 0;
}
FAKE_EXPORT int nvmlDeviceGetHandleByIndex_v2(unsigned index, Handle *handle)
{
    if (int code = scripted("nvmlDeviceGetHandleByIndex_v2", int(index)))
        return code;
    *handle = reinterpret_cast<Handle>(std::uintptr_t(index) + 1);
    return 0;
}
#define DEVICE_OR_ERROR(function)                                                                                  \
    const int index = deviceOf(device);                                                                            \
    if (int code = scripted(function, index))                                                                      \
        return code;                                                                                               \
    const Device &d = script.devices[size_t(index)];

FAKE_EXPORT int nvmlDeviceGetName(Handle device, char *name, unsigned length)
{
    DEVICE_OR_ERROR("nvmlDeviceGetName")
    return copyText(d.name, name, length);
}
FAKE_EXPORT int nvmlDeviceGetUUID(Handle device, char *uuid, unsigned length)
{
    DEVICE_OR_ERROR("nvmlDeviceGetUUID")
    return copyText(d.uuid, uuid, length);
}
struct PciInfo
{
    char busIdLegacy[16];
    unsigned domain, bus, device, pciDeviceId, pciSubSystemId;
    char busId[32];
};
FAKE_EXPORT int nvmlDeviceGetPciInfo_v3(Handle device, PciInfo *pci)
{
    DEVICE_OR_ERROR("nvmlDeviceGetPciInfo_v3")
    std::memset(pci, 0, sizeof *pci);
    return copyText(d.busId, pci->busId, sizeof pci->busId);
}
FAKE_EXPORT int nvmlDeviceGetMinorNumber(Handle device, unsigned *minor)
{
    DEVICE_OR_ERROR("nvmlDeviceGetMinorNumber")
    *minor = d.minor;
    return 0;
}
FAKE_EXPORT int nvmlDeviceGetUtilizationRates(Handle device, unsigned *rates)
{
    DEVICE_OR_ERROR("nvmlDeviceGetUtilizationRates")
    rates[0] = d.util;
    rates[1] = d.util / 2;
    return 0;
}
FAKE_EXPORT int nvmlDeviceGetMemoryInfo(Handle device, unsigned long long *memory)
{
    DEVICE_OR_ERROR("nvmlDeviceGetMemoryInfo")
    memory[0] = d.memTotal;
    memory[1] = d.memTotal - d.memUsed;
    memory[2] = d.memUsed;
    return 0;
}
FAKE_EXPORT int nvmlDeviceGetTemperature(Handle device, unsigned sensor, unsigned *temp)
{
    DEVICE_OR_ERROR("nvmlDeviceGetTemperature")
    if (sensor != 0)
        return 2;
    *temp = d.temp;
    return 0;
}
FAKE_EXPORT int nvmlDeviceGetPowerUsage(Handle device, unsigned *milliwatts)
{
    DEVICE_OR_ERROR("nvmlDeviceGetPowerUsage")
    *milliwatts = d.power;
    return 0;
}
FAKE_EXPORT int nvmlDeviceGetTotalEnergyConsumption(Handle device, unsigned long long *millijoules)
{
    DEVICE_OR_ERROR("nvmlDeviceGetTotalEnergyConsumption")
    if (!d.hasEnergy)
        return 3; // NOT_SUPPORTED
    *millijoules = d.energy;
    return 0;
}
FAKE_EXPORT int nvmlDeviceGetComputeRunningProcesses_v3(Handle device, unsigned *count, ProcessInfo *infos)
{
    return processes("nvmlDeviceGetComputeRunningProcesses_v3", device, count, infos, false);
}
FAKE_EXPORT int nvmlDeviceGetGraphicsRunningProcesses_v3(Handle device, unsigned *count, ProcessInfo *infos)
{
    return processes("nvmlDeviceGetGraphicsRunningProcesses_v3", device, count, infos, true);
}
struct ProcessUtilizationSample
{
    unsigned pid;
    unsigned long long timeStamp;
    unsigned smUtil, memUtil, encUtil, decUtil;
};
// As NVML: the samples newer than lastSeen; NOT_FOUND (6) when there are none, INSUFFICIENT_SIZE (7) with their
// number when `samples` is null or too small.
FAKE_EXPORT int nvmlDeviceGetProcessUtilization(Handle device, ProcessUtilizationSample *samples, unsigned *count,
                                                unsigned long long lastSeen)
{
    DEVICE_OR_ERROR("nvmlDeviceGetProcessUtilization")
    std::vector<UtilizationSample> newer;
    for (const UtilizationSample &sample : d.samples)
        if (sample.timeStamp > lastSeen)
            newer.push_back(sample);
    if (newer.empty())
        return 6;
    const unsigned room = *count;
    *count = unsigned(newer.size());
    if (!samples || newer.size() > room)
        return 7;
    for (size_t i = 0; i < newer.size(); ++i)
        samples[i] = {newer[i].pid, newer[i].timeStamp, newer[i].smUtil, 0, 0, 0};
    return 0;
}
