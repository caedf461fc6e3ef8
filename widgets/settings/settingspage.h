// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// One page of the settings dialog: it shows its part of the draft, writes the user's edits back into it and
// shows the problems found on its fields. The dialog owns the draft, validates it and saves it.
#include "settings/settingsdraft.h"

#include <QHash>
#include <QWidget>

class QFormLayout;
class QLabel;
class QPushButton;

class SettingsPage : public QWidget
{
    Q_OBJECT
public:
    using QWidget::QWidget;

    // Shows `draft` (its part of it); emits nothing.
    virtual void load(const SettingsDraft &draft) = 0;
    // Writes what the widgets hold into `draft` (its part of it).
    virtual void store(SettingsDraft &draft) const = 0;
    // Shows next to each field the first of `problems` that concerns it, hides the other messages.
    virtual void showProblems(const QList<SettingsProblem> &problems) = 0;

    // `main` stretched, `besides` after it, in one row.
    static QWidget *row(QWidget *main, const QList<QWidget *> &besides);
    // A button that Enter in a field does not press.
    static QPushButton *button(const QString &text, const QString &objectName);
    // A framed, wrapped text for what a workload template says of itself (WorkloadTemplate::explanation).
    static QLabel *templateExplanation(const QString &objectName);

Q_SIGNALS:
    // The user changed something, or chose another item of a list: the dialog stores the page and shows the
    // problems again.
    void edited();

protected:
    // A message under the last row of `form`, hidden until a problem is shown: an icon (not colour alone) and
    // the text, named `objectName` (the icon: objectName + "Icon").
    static QLabel *addMessage(QFormLayout *form, const QString &objectName);
    // For each field of `messages` ("interval" -> its label), the first problem on `page` and `item`.
    static void showMessages(const QHash<QString, QLabel *> &messages, const QList<SettingsProblem> &problems,
                             SettingsProblem::Page page, int item);
};
