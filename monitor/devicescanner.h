#pragma once
#include "snapshot.h"

// Lists the NVIDIA device nodes under deviceRoot: nvidia[0-9]+ are GPUs (the number is the index),
// nvidiactl, nvidia-uvm, nvidia-uvm-tools and nvidia-modeset are shared nodes. Other names are ignored, and so
// are GPU names the driver never makes: a leading zero (nvidia01) or an index above 255. Device majors are not
// checked, so tests can use plain files.
// A missing or unreadable deviceRoot gives an empty result.
DeviceNodes scanDevices(const QString &deviceRoot);
