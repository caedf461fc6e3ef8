// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "settings/settingspage.h"

#include <QFormLayout>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStyle>

#include <algorithm>

QLabel *SettingsPage::addMessage(QFormLayout *form, const QString &objectName)
{
    auto *container = new QWidget;
    auto *layout = new QHBoxLayout(container);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *icon = new QLabel;
    icon->setObjectName(objectName + QStringLiteral("Icon"));
    auto *text = new QLabel;
    text->setObjectName(objectName);
    text->setWordWrap(true);
    layout->addWidget(icon, 0, Qt::AlignTop);
    layout->addWidget(text, 1);
    form->addRow(QString(), container);
    container->hide();
    return text;
}

void SettingsPage::showMessages(const QHash<QString, QLabel *> &messages, const QList<SettingsProblem> &problems,
                                SettingsProblem::Page page, int item)
{
    for (auto it = messages.constBegin(); it != messages.constEnd(); ++it) {
        QLabel *text = it.value();
        QWidget *container = text->parentWidget();
        const auto problem = std::find_if(problems.cbegin(), problems.cend(), [&](const SettingsProblem &p) {
            return p.page == page && p.item == item && p.field == it.key();
        });
        if (problem == problems.cend()) {
            text->clear();
            container->hide();
            continue;
        }
        QStyle::StandardPixmap pixmap = QStyle::SP_MessageBoxInformation;
        QString colour; // a note: the page's own colour
        if (problem->severity == SettingsProblem::Error) {
            pixmap = QStyle::SP_MessageBoxCritical;
            colour = QStringLiteral("color: #b00020;");
        } else if (problem->severity == SettingsProblem::Warning) {
            pixmap = QStyle::SP_MessageBoxWarning;
            colour = QStringLiteral("color: #8a5a00;");
        }
        auto *icon = container->findChild<QLabel *>(text->objectName() + QStringLiteral("Icon"));
        icon->setPixmap(text->style()->standardIcon(pixmap).pixmap(16, 16));
        text->setStyleSheet(colour);
        text->setText(problem->message);
        container->show();
    }
}

QWidget *SettingsPage::row(QWidget *main, const QList<QWidget *> &besides)
{
    auto *widget = new QWidget;
    auto *layout = new QHBoxLayout(widget);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(main, 1);
    for (QWidget *w : besides)
        layout->addWidget(w);
    return widget;
}

QPushButton *SettingsPage::button(const QString &text, const QString &objectName)
{
    auto *b = new QPushButton(text);
    b->setObjectName(objectName);
    b->setAutoDefault(false);
    return b;
}

QLabel *SettingsPage::templateExplanation(const QString &objectName)
{
    auto *label = new QLabel;
    label->setObjectName(objectName);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setFrameShape(QFrame::StyledPanel);
    label->setMargin(6);
    return label;
}
