#pragma once
// The User activity page: [tty] enabled, whitelist and idle_seconds.
#include "settings/settingspage.h"

class QCheckBox;
class QLineEdit;

class ActivitySettingsPage : public SettingsPage
{
    Q_OBJECT
public:
    explicit ActivitySettingsPage(QWidget *parent = nullptr);

    void load(const SettingsDraft &draft) override;
    void store(SettingsDraft &draft) const override;
    void showProblems(const QList<SettingsProblem> &problems) override;

private:
    bool m_filling = false; // widgets are being set: their signals are not edits
    QCheckBox *m_ttyEnabled;
    QLineEdit *m_whitelist;
    QLineEdit *m_ttyIdle;
    QHash<QString, QLabel *> m_messages; // field name -> its message
};
