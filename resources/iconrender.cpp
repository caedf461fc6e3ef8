// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// idlegpu-iconrender: writes the application icon in the hicolor sizes, drawn by the same code as the tray
// icon, so that the installed PNGs never drift from what the tray shows. Runs at build time only.
//
//   idlegpu-iconrender OUTPUT_DIR SIZE...   writes OUTPUT_DIR/<SIZE>x<SIZE>/apps/idlegpu.png for each SIZE

#include "tray/trayiconrenderer.h"

#include <QDir>
#include <QGuiApplication>
#include <QImage>

#include <cstdio>

int main(int argc, char **argv)
{
    // QPainter on a QImage needs a QGuiApplication (fonts, pixmap cache) but never a display.
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    const QStringList args = QCoreApplication::arguments();
    if (args.size() < 3) {
        fprintf(stderr, "usage: idlegpu-iconrender OUTPUT_DIR SIZE...\n");
        return 2;
    }
    const QString outputDir = args.at(1);
    for (const QString &sizeText : args.mid(2)) {
        bool ok = false;
        const int size = sizeText.toInt(&ok);
        if (!ok || size < 1 || size > 1024) {
            fprintf(stderr, "idlegpu-iconrender: not a size in pixels (1-1024): %s\n", qPrintable(sizeText));
            return 2;
        }
        const QString dir = QStringLiteral("%1/%2x%2/apps").arg(outputDir).arg(size);
        const QString file = dir + QStringLiteral("/idlegpu.png");
        const QImage image = TrayIconRenderer::render(OverallState::Running, size);
        if (!QDir().mkpath(dir) || !image.save(file, "PNG")) {
            fprintf(stderr, "idlegpu-iconrender: cannot write %s\n", qPrintable(file));
            return 1;
        }
    }
    return 0;
}
