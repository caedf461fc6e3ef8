#include "tray/traylogging.h"

Q_LOGGING_CATEGORY(lcTray, "idlegpu.tray", QtInfoMsg)
