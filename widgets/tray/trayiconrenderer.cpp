// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "tray/trayiconrenderer.h"

#include <QPainter>
#include <QPainterPath>
#include <QPixmap>

namespace {

// Drawn on a 24-unit grid, scaled to the size asked for.
constexpr qreal kGrid = 24.0;

struct Palette
{
    QColor body;  // fill of the chip
    QColor badge; // the state's symbol
};

Palette paletteFor(OverallState state)
{
    switch (state) {
    case OverallState::Running: return {QColor(0x43, 0xa0, 0x47), Qt::white};
    case OverallState::Busy: return {QColor(0x1e, 0x88, 0xe5), Qt::white};
    case OverallState::Paused: return {QColor(0xff, 0xb3, 0x00), QColor(0x21, 0x21, 0x21)};
    // Paused's bars, light on a dark chip: paused too, but not by the user's hand.
    case OverallState::Held: return {QColor(0x45, 0x5a, 0x64), QColor(0xec, 0xef, 0xf1)};
    case OverallState::Failing: return {QColor(0xe5, 0x39, 0x35), Qt::white};
    case OverallState::NoGpu: return {Qt::transparent, QColor(0xc6, 0x28, 0x28)};
    case OverallState::Idle: return {QColor(0xe0, 0xe0, 0xe0), QColor(0x42, 0x42, 0x42)};
    // Calm, not an alarm: nothing is wrong, there is only nothing to run yet.
    case OverallState::NotSetUp: return {QColor(0xe0, 0xf2, 0xf1), QColor(0x00, 0x79, 0x6b)};
    }
    return {};
}

const QColor kOutline(0x26, 0x32, 0x38);
// A light rim around the outline keeps the icon visible on dark panels.
const QColor kHalo(255, 255, 255, 170);

void drawChip(QPainter &p, const Palette &palette, bool dashed)
{
    QPainterPath pins;
    for (qreal at : {8.0, 12.0, 16.0}) {
        pins.moveTo(1.5, at); pins.lineTo(4.0, at);
        pins.moveTo(20.0, at); pins.lineTo(22.5, at);
        pins.moveTo(at, 1.5); pins.lineTo(at, 4.0);
        pins.moveTo(at, 20.0); pins.lineTo(at, 22.5);
    }
    const QRectF body(4.0, 4.0, 16.0, 16.0);

    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(kHalo, 3.2, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    p.drawPath(pins);
    p.drawRoundedRect(body, 2.5, 2.5);

    p.setPen(QPen(kOutline, 1.6, Qt::SolidLine, Qt::FlatCap, Qt::RoundJoin));
    p.drawPath(pins);
    QPen bodyPen(kOutline, 1.6, dashed ? Qt::DashLine : Qt::SolidLine, Qt::FlatCap, Qt::RoundJoin);
    p.setPen(bodyPen);
    p.setBrush(palette.body);
    p.drawRoundedRect(body, 2.5, 2.5);
}

void drawBadge(QPainter &p, OverallState state, const Palette &palette)
{
    p.setPen(Qt::NoPen);
    p.setBrush(palette.badge);
    switch (state) {
    case OverallState::Running: { // a play triangle
        const QPointF triangle[] = {{9.0, 7.5}, {16.5, 12.0}, {9.0, 16.5}};
        p.drawPolygon(triangle, 3);
        break;
    }
    case OverallState::Busy: { // a person: head and shoulders
        p.drawEllipse(QPointF(12.0, 9.3), 2.6, 2.6);
        QPainterPath shoulders;
        shoulders.moveTo(6.8, 17.5);
        shoulders.cubicTo(7.2, 12.6, 16.8, 12.6, 17.2, 17.5);
        shoulders.closeSubpath();
        p.drawPath(shoulders);
        break;
    }
    case OverallState::Paused: // two bars
    case OverallState::Held:
        p.drawRect(QRectF(8.3, 7.5, 2.8, 9.0));
        p.drawRect(QRectF(12.9, 7.5, 2.8, 9.0));
        break;
    case OverallState::Failing: // an exclamation mark
        p.drawRoundedRect(QRectF(10.7, 6.5, 2.6, 7.5), 1.0, 1.0);
        p.drawEllipse(QPointF(12.0, 16.6), 1.5, 1.5);
        break;
    case OverallState::NoGpu: { // the chip crossed out
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(kHalo, 4.4, Qt::SolidLine, Qt::RoundCap));
        p.drawLine(QPointF(3.0, 21.0), QPointF(21.0, 3.0));
        p.setPen(QPen(palette.badge, 2.4, Qt::SolidLine, Qt::RoundCap));
        p.drawLine(QPointF(3.0, 21.0), QPointF(21.0, 3.0));
        break;
    }
    case OverallState::NotSetUp: // a plus: add the first workload
        p.drawRoundedRect(QRectF(7.2, 10.5, 9.6, 3.0), 0.8, 0.8);
        p.drawRoundedRect(QRectF(10.5, 7.2, 3.0, 9.6), 0.8, 0.8);
        break;
    case OverallState::Idle: { // an hourglass
        const QPointF glass[] = {{8.0, 6.8}, {16.0, 6.8}, {12.0, 12.0}, {16.0, 17.2}, {8.0, 17.2}, {12.0, 12.0}};
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(palette.badge, 1.5, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
        p.drawPolygon(glass, 6);
        p.setPen(Qt::NoPen);
        p.setBrush(palette.badge);
        const QPointF sand[] = {{9.6, 17.2}, {14.4, 17.2}, {12.0, 14.6}};
        p.drawPolygon(sand, 3);
        break;
    }
    }
}

} // namespace

namespace TrayIconRenderer {

QList<int> iconSizes()
{
    return {16, 22, 24, 32, 48};
}

QImage render(OverallState state, int size, qreal devicePixelRatio)
{
    const int pixels = qMax(1, qRound(size * devicePixelRatio));
    QImage image(pixels, pixels, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    image.setDevicePixelRatio(devicePixelRatio);

    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.scale(size / kGrid, size / kGrid);
    const Palette palette = paletteFor(state);
    drawChip(painter, palette, state == OverallState::NoGpu);
    drawBadge(painter, state, palette);
    return image;
}

QIcon icon(OverallState state)
{
    QIcon result;
    for (int size : iconSizes())
        for (qreal ratio : {1.0, 2.0})
            result.addPixmap(QPixmap::fromImage(render(state, size, ratio)));
    return result;
}

QImage renderUnavailable(int size, qreal devicePixelRatio)
{
    QImage image = render(OverallState::Idle, size, devicePixelRatio).convertToFormat(QImage::Format_ARGB32);
    for (int y = 0; y < image.height(); ++y) {
        auto *line = reinterpret_cast<QRgb *>(image.scanLine(y));
        for (int x = 0; x < image.width(); ++x) {
            const int gray = qGray(line[x]);
            line[x] = qRgba(gray, gray, gray, qAlpha(line[x]) / 2);
        }
    }
    return image;
}

QIcon unavailableIcon()
{
    QIcon result;
    for (int size : iconSizes())
        for (qreal ratio : {1.0, 2.0})
            result.addPixmap(QPixmap::fromImage(renderUnavailable(size, ratio)));
    return result;
}

} // namespace TrayIconRenderer
