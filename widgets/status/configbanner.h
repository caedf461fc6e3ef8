// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The banner over the status window's dashboard that tells of the configuration's problems: how many, each in plain
// words ("Line 9: …"), and a "Fix in Settings…" button. Hidden while there are none.
#include "config/config.h"

#include <QWidget>

class QLabel;
class QPushButton;

class ConfigBanner : public QWidget
{
    Q_OBJECT
public:
    explicit ConfigBanner(QWidget *parent = nullptr);

    void setProblems(const QList<ConfigDiagnostic> &problems);

    // Returns the first line, "The configuration has 2 problems.", and the problems, a line each.
    QString heading() const;
    QString problemsText() const;
    QPushButton *fixButton() const { return m_fix; }

    // Returns a problem as the banner says it: "Line 9: user = root: …", without the file's path and the
    // Markdown backticks of the log's words.
    static QString plainWords(const ConfigDiagnostic &problem);

Q_SIGNALS:
    void fixRequested();

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QLabel *m_heading;
    QLabel *m_problems;
    QPushButton *m_fix;
};
