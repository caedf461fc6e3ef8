// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "status/configbanner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QVBoxLayout>

ConfigBanner::ConfigBanner(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("configBanner"));
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(12, 8, 10, 8);
    auto *texts = new QVBoxLayout;
    texts->setSpacing(2);
    m_heading = new QLabel(this);
    m_heading->setObjectName(QStringLiteral("configHeading"));
    m_heading->setTextFormat(Qt::PlainText);
    m_heading->setWordWrap(true);
    QFont bold = m_heading->font();
    bold.setBold(true);
    m_heading->setFont(bold);
    texts->addWidget(m_heading);
    m_problems = new QLabel(this);
    m_problems->setObjectName(QStringLiteral("configProblems"));
    m_problems->setTextFormat(Qt::PlainText); // a message may hold "<": never taken for markup
    m_problems->setWordWrap(true);
    m_problems->setTextInteractionFlags(Qt::TextSelectableByMouse);
    texts->addWidget(m_problems);
    layout->addLayout(texts, 1);
    m_fix = new QPushButton(tr("Fix in Settings…"), this);
    m_fix->setObjectName(QStringLiteral("fixInSettings"));
    connect(m_fix, &QPushButton::clicked, this, &ConfigBanner::fixRequested);
    layout->addWidget(m_fix, 0, Qt::AlignVCenter);
    hide();
}

QString ConfigBanner::plainWords(const ConfigDiagnostic &problem)
{
    QString message = problem.message;
    message.remove(QLatin1Char('`'));
    if (!message.isEmpty())
        message[0] = message.at(0).toUpper();
    if (problem.line <= 0)
        return message;
    return tr("Line %1: %2").arg(problem.line).arg(message);
}

void ConfigBanner::setProblems(const QList<ConfigDiagnostic> &problems)
{
    // The same problem may come twice (a warning repeated by a reload): said once.
    QStringList lines;
    bool fileRefused = false;
    QString file;
    for (const ConfigDiagnostic &problem : problems) {
        const QString line = plainWords(problem);
        if (!lines.contains(line))
            lines.append(line);
        fileRefused = fileRefused || (problem.severity == ConfigDiagnostic::Error && problem.refusedWorkload.isEmpty());
        if (file.isEmpty())
            file = problem.file;
    }
    setVisible(!lines.isEmpty());
    if (lines.isEmpty())
        return;
    QString heading = lines.size() == 1 ? tr("The configuration has 1 problem.")
                                        : tr("The configuration has %1 problems.").arg(lines.size());
    if (fileRefused)
        heading = tr("%1 It was not applied: idlegpu goes on with the last good one.").arg(heading);
    m_heading->setText(heading);
    m_heading->setToolTip(file);
    m_problems->setText(lines.join(QLatin1Char('\n')));
}

QString ConfigBanner::heading() const
{
    return isHidden() ? QString() : m_heading->text();
}

QString ConfigBanner::problemsText() const
{
    return isHidden() ? QString() : m_problems->text();
}

void ConfigBanner::paintEvent(QPaintEvent *)
{
    // A faint amber over the theme's window colour, light or dark, with an amber edge: seen, not shouting.
    const QColor amber(0xf5, 0xa6, 0x23);
    const QColor window = palette().color(QPalette::Window);
    constexpr qreal mix = 0.18;
    const QColor tint = QColor::fromRgbF(window.redF() * (1 - mix) + amber.redF() * mix,
                                         window.greenF() * (1 - mix) + amber.greenF() * mix,
                                         window.blueF() * (1 - mix) + amber.blueF() * mix);
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(amber);
    painter.setBrush(tint);
    painter.drawRoundedRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5), 4, 4);
}
