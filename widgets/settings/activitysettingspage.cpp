#include "settings/activitysettingspage.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>

ActivitySettingsPage::ActivitySettingsPage(QWidget *parent) : SettingsPage(parent)
{
    auto *form = new QFormLayout(this);
    const auto onEdit = [this] {
        if (!m_filling)
            Q_EMIT this->edited();
    };
    auto *about = new QLabel(tr("While someone works in a terminal (a pseudo-terminal, such as an ssh login), "
                                "idlegpu stops all workloads."));
    about->setWordWrap(true);
    form->addRow(about);
    m_ttyEnabled = new QCheckBox(tr("Stop workloads while a user is active in a terminal"));
    m_ttyEnabled->setObjectName(QStringLiteral("ttyEnabledCheck"));
    form->addRow(QString(), m_ttyEnabled);
    m_whitelist = new QLineEdit;
    m_whitelist->setObjectName(QStringLiteral("whitelistEdit"));
    m_whitelist->setPlaceholderText(tr("user names, separated by commas"));
    form->addRow(tr("Users whose activity does not count:"), m_whitelist);
    m_ttyIdle = new QLineEdit;
    m_ttyIdle->setObjectName(QStringLiteral("ttyIdleEdit"));
    form->addRow(tr("A terminal idle this long does not count (seconds):"), m_ttyIdle);
    m_messages.insert(QStringLiteral("ttyIdle"), addMessage(form, QStringLiteral("ttyIdleError")));
    connect(m_ttyEnabled, &QCheckBox::toggled, this, onEdit);
    connect(m_whitelist, &QLineEdit::textChanged, this, onEdit);
    connect(m_ttyIdle, &QLineEdit::textChanged, this, onEdit);
}

void ActivitySettingsPage::load(const SettingsDraft &draft)
{
    m_filling = true;
    m_ttyEnabled->setChecked(draft.ttyEnabled);
    m_whitelist->setText(draft.whitelist);
    m_ttyIdle->setText(draft.ttyIdle);
    m_filling = false;
}

void ActivitySettingsPage::store(SettingsDraft &draft) const
{
    draft.ttyEnabled = m_ttyEnabled->isChecked();
    draft.whitelist = m_whitelist->text();
    draft.ttyIdle = m_ttyIdle->text();
}

void ActivitySettingsPage::showProblems(const QList<SettingsProblem> &problems)
{
    showMessages(m_messages, problems, SettingsProblem::Activity, -1);
}
