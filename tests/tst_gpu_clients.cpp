// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// On a machine with a real NVIDIA GPU: busy_when = auto's two kinds of client, as the monitor sees them (the holder
// scan of /dev and /proc, then NVML's judgement where libnvidia-ml is there). A CUDA process (libcuda's cuInit and a
// context, through python3's ctypes: no new build dependency) is a compute client; a headless OpenGL program (EGL's
// device platform, through ctypes too) is a graphics client. Each half skips with its reason where python3,
// libcuda.so.1 or a working NVIDIA EGL is missing. Skips (exit 77) where /dev/nvidia0 does not exist.
#include "backends/nvmlbackend.h"
#include "policy/policy.h"
#include "snapshotcollector.h"

#include <QCoreApplication>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTest>

#include <cstdio>

namespace {

// Holds a CUDA context on CUDA device 0 until stdin closes. Prints "READY <device name>", or "SKIP <why>" and
// exits 3.
const char *const kCudaClient = R"py(
import ctypes, sys
try:
    cuda = ctypes.CDLL("libcuda.so.1")
except OSError as error:
    print("SKIP libcuda.so.1 cannot be loaded:", error, flush=True)
    sys.exit(3)
result = cuda.cuInit(0)
if result != 0:
    print("SKIP cuInit failed with CUDA error", result, flush=True)
    sys.exit(3)
device = ctypes.c_int()
context = ctypes.c_void_p()
name = ctypes.create_string_buffer(256)
if cuda.cuDeviceGet(ctypes.byref(device), 0) != 0 or cuda.cuCtxCreate_v2(ctypes.byref(context), 0, device) != 0:
    print("SKIP no CUDA context on device 0", flush=True)
    sys.exit(3)
cuda.cuDeviceGetName(name, 256, device)
print("READY", name.value.decode(errors="replace"), flush=True)
sys.stdin.read()
)py";

// Makes an OpenGL context current on the NVIDIA EGL device (no display, no window: a pbuffer) and holds it until
// stdin closes. Prints "READY <GL renderer>", or "SKIP <why>" and exits 3.
const char *const kEglClient = R"py(
import ctypes, sys
def skip(*why):
    print("SKIP", *why, flush=True)
    sys.exit(3)
try:
    egl = ctypes.CDLL("libEGL.so.1")
except OSError as error:
    skip("libEGL.so.1 cannot be loaded:", error)
VOIDP, INT = ctypes.c_void_p, ctypes.c_int
egl.eglGetProcAddress.restype = VOIDP
egl.eglGetProcAddress.argtypes = [ctypes.c_char_p]
query_devices = egl.eglGetProcAddress(b"eglQueryDevicesEXT")
platform_display = egl.eglGetProcAddress(b"eglGetPlatformDisplayEXT")
if not query_devices or not platform_display:
    skip("EGL has no device platform (EGL_EXT_device_enumeration, EGL_EXT_platform_device)")
query_devices = ctypes.CFUNCTYPE(ctypes.c_uint, INT, ctypes.POINTER(VOIDP), ctypes.POINTER(INT))(query_devices)
platform_display = ctypes.CFUNCTYPE(VOIDP, ctypes.c_uint, VOIDP, ctypes.POINTER(INT))(platform_display)
egl.eglInitialize.argtypes = [VOIDP, ctypes.POINTER(INT), ctypes.POINTER(INT)]
egl.eglQueryString.restype = ctypes.c_char_p
egl.eglQueryString.argtypes = [VOIDP, INT]
egl.eglChooseConfig.argtypes = [VOIDP, ctypes.POINTER(INT), ctypes.POINTER(VOIDP), INT, ctypes.POINTER(INT)]
egl.eglCreatePbufferSurface.restype = VOIDP
egl.eglCreatePbufferSurface.argtypes = [VOIDP, VOIDP, ctypes.POINTER(INT)]
egl.eglCreateContext.restype = VOIDP
egl.eglCreateContext.argtypes = [VOIDP, VOIDP, VOIDP, ctypes.POINTER(INT)]
egl.eglMakeCurrent.argtypes = [VOIDP, VOIDP, VOIDP, VOIDP]
EGL_PLATFORM_DEVICE, EGL_VENDOR, EGL_NONE, EGL_OPENGL_API = 0x313F, 0x3053, 0x3038, 0x30A2
def attribs(*values):
    return (INT * (len(values) + 1))(*values, EGL_NONE)
devices = (VOIDP * 16)()
count = INT()
if not query_devices(16, devices, ctypes.byref(count)) or count.value == 0:
    skip("EGL lists no device (no NVIDIA EGL vendor library? see __EGL_VENDOR_LIBRARY_FILENAMES)")
display = None
for i in range(count.value):
    candidate = platform_display(EGL_PLATFORM_DEVICE, devices[i], None)
    if candidate and egl.eglInitialize(candidate, None, None):
        if b"NVIDIA" in (egl.eglQueryString(candidate, EGL_VENDOR) or b""):
            display = candidate
            break
if display is None:
    skip("no EGL device of NVIDIA's among", count.value)
config, configs = VOIDP(), INT()
# EGL_SURFACE_TYPE = EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE = EGL_OPENGL_BIT
if not egl.eglChooseConfig(display, attribs(0x3033, 0x0001, 0x3040, 0x0008), ctypes.byref(config), 1,
                           ctypes.byref(configs)) or configs.value == 0:
    skip("no OpenGL pbuffer config")
surface = egl.eglCreatePbufferSurface(display, config, attribs(0x3057, 16, 0x3056, 16))
egl.eglBindAPI(EGL_OPENGL_API)
context = egl.eglCreateContext(display, config, None, None)
if not surface or not context or not egl.eglMakeCurrent(display, surface, surface, context):
    skip("cannot make an OpenGL context current")
get_string = egl.eglGetProcAddress(b"glGetString")
renderer = b"?"
if get_string:
    get_string = ctypes.CFUNCTYPE(ctypes.c_char_p, ctypes.c_uint)(get_string)
    renderer = get_string(0x1F01) or b"?"  # GL_RENDERER: the context really runs
print("READY", renderer.decode(errors="replace"), flush=True)
sys.stdin.read()
)py";

struct Client
{
    std::unique_ptr<QProcess> process;
    QString skipReason; // set when it could not become a client here
    QString said;       // its READY line
};

// Starts python3 with `script` and waits for its READY or SKIP line.
Client startClient(const char *script)
{
    Client client;
    const QString python = QStandardPaths::findExecutable(QStringLiteral("python3"));
    if (python.isEmpty()) {
        client.skipReason = QStringLiteral("no python3 to start a client with");
        return client;
    }
    client.process = std::make_unique<QProcess>();
    client.process->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    client.process->start(python, {QStringLiteral("-c"), QString::fromLatin1(script)});
    if (!client.process->waitForStarted(10000)) {
        client.skipReason = QStringLiteral("python3 does not start");
        return client;
    }
    // Test code may block: this waits for the client's own initialisation (a driver load takes seconds).
    while (!client.process->canReadLine() && client.process->state() == QProcess::Running)
        client.process->waitForReadyRead(60000);
    const QString line = QString::fromUtf8(client.process->readLine()).trimmed();
    if (line.startsWith(QLatin1String("READY")))
        client.said = line;
    else
        client.skipReason = line.isEmpty() ? QStringLiteral("the client exited without a word (code %1)")
                                                 .arg(client.process->exitCode())
                                           : line.mid(5);
    return client;
}

void endClient(Client &client)
{
    if (!client.process)
        return;
    client.process->closeWriteChannel(); // it reads stdin until its end
    if (!client.process->waitForFinished(10000)) {
        client.process->kill();
        client.process->waitForFinished(5000);
    }
}

// The holder `pid` as the monitor would see it: /dev and /proc scanned, judged by NVML where it is available.
std::optional<Holder> scanHolder(qint64 pid, QString *backendNote)
{
    Config config; // device_root /dev, every vendor the machine has
    SnapshotCollector collector;
    auto nvml = std::make_unique<NvmlBackend>();
    *backendNote = nvml->available() ? QStringLiteral("judged by NVML")
                                     : QStringLiteral("NVML not available (%1): nodes only").arg(nvml->unavailableReason());
    collector.backends().setVendorLibrary(std::move(nvml));
    const SnapshotCollector::Survey survey = collector.survey(config);
    for (const Holder &holder : survey.snapshot.holders)
        if (holder.pid == pid)
            return holder;
    return std::nullopt;
}

QString gpusOf(const Holder &holder)
{
    QStringList gpus;
    for (int gpu : holder.gpus)
        gpus.append(QString::number(gpu));
    return gpus.join(QLatin1Char(','));
}

QString describeKinds(const Holder &holder)
{
    QStringList kinds;
    for (int gpu : holder.gpus)
        kinds.append(QStringLiteral("GPU %1: %2 (%3)")
                         .arg(gpu)
                         .arg(Policy::clientKindName(Policy::clientKind(holder, gpu)),
                              Policy::judgeHolder(holder, gpu, BusyRule()).why));
    return kinds.join(QStringLiteral("; "));
}

} // namespace

class TestGpuClients : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void cudaProcessIsAComputeClient()
    {
        Client client = startClient(kCudaClient);
        if (!client.skipReason.isEmpty())
            QSKIP(qPrintable(QStringLiteral("no CUDA process: ") + client.skipReason));
        QString backendNote;
        const std::optional<Holder> holder = scanHolder(client.process->processId(), &backendNote);
        endClient(client);
        QVERIFY2(holder, "the CUDA process holds no node the scan found");
        qInfo("%s: gpus %s, holds nvidia-uvm: %s; %s; %s", qPrintable(client.said),
              qPrintable(gpusOf(*holder)), holder->holdsComputeNode ? "yes" : "no",
              qPrintable(describeKinds(*holder)), qPrintable(backendNote));
        QVERIFY2(holder->holdsComputeNode, "a CUDA process without nvidia-uvm open");
        QVERIFY(!holder->gpus.isEmpty());
        for (int gpu : holder->gpus) {
            QCOMPARE(Policy::clientKind(*holder, gpu), Policy::ClientKind::Compute);
            QVERIFY(Policy::judgeHolder(*holder, gpu, BusyRule()).makesBusy); // BusyRule(): busy_when = auto
        }
    }

    void openGlProgramIsAGraphicsClient()
    {
        Client client = startClient(kEglClient);
        if (!client.skipReason.isEmpty())
            QSKIP(qPrintable(QStringLiteral("no headless OpenGL program: ") + client.skipReason));
        QString backendNote;
        const std::optional<Holder> holder = scanHolder(client.process->processId(), &backendNote);
        endClient(client);
        QVERIFY2(holder, "the OpenGL program holds no node the scan found");
        qInfo("%s: gpus %s, holds nvidia-uvm: %s; %s; %s", qPrintable(client.said),
              qPrintable(gpusOf(*holder)), holder->holdsComputeNode ? "yes" : "no",
              qPrintable(describeKinds(*holder)), qPrintable(backendNote));
        QVERIFY(!holder->gpus.isEmpty());
        for (int gpu : holder->gpus) {
            QCOMPARE(Policy::clientKind(*holder, gpu), Policy::ClientKind::Graphics);
            // Without a measured figure over the thresholds, it leaves a workload running.
            const Policy::HolderVerdict verdict = Policy::judgeHolder(*holder, gpu, BusyRule());
            QVERIFY2(!verdict.makesBusy, qPrintable(verdict.why));
        }
    }
};

int main(int argc, char **argv)
{
    if (!QFile::exists(QStringLiteral("/dev/nvidia0"))) {
        printf("SKIP: /dev/nvidia0 does not exist (no NVIDIA GPU here)\n");
        return 77;
    }
    QCoreApplication app(argc, argv);
    TestGpuClients test;
    return QTest::qExec(&test, argc, argv);
}
#include "tst_gpu_clients.moc"
