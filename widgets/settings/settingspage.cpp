// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "settings/settingspage.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>
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

// ---------------------------------------------------------------------------------------------------------
// Fields bound to keys

namespace {
// The dynamic property that names the key a field edits.
constexpr const char *kConfigKeyProperty = "idlegpuConfigKey";
} // namespace

QString SettingsPage::configKeyOf(const QWidget *field)
{
    return field ? field->property(kConfigKeyProperty).toString() : QString();
}

void SettingsPage::setFieldHelp(QWidget *field, const QString &text, const QString &key)
{
    const QString name = key.isEmpty() ? configKeyOf(field) : key;
    const QString keyLine = name.isEmpty() ? QString() : tr("In the configuration file: %1").arg(name);
    field->setToolTip(text.isEmpty() ? keyLine : keyLine.isEmpty() ? text : text + QStringLiteral("\n\n") + keyLine);
}

QStackedWidget *SettingsPage::withEmptyText(QWidget *list, const QString &text, const QString &objectName)
{
    auto *label = new QLabel(text);
    label->setObjectName(objectName);
    label->setWordWrap(true);
    label->setAlignment(Qt::AlignCenter);
    label->setMargin(12);
    label->setFrameShape(QFrame::StyledPanel);
    auto *stack = new QStackedWidget;
    stack->addWidget(list);
    stack->addWidget(label);
    return stack;
}

void SettingsPage::showEmptyText(QStackedWidget *stack, bool empty)
{
    stack->setCurrentIndex(empty ? 1 : 0);
}

bool SettingsPage::showsKey(const QString &path) const
{
    return std::any_of(m_keyFields.cbegin(), m_keyFields.cend(),
                       [&path](const KeyField &field) { return field.row->path() == path; });
}

void SettingsPage::bindKey(QWidget *field, const KeyRow &row, std::function<void(const SettingsDraft &)> load,
                           std::function<void(SettingsDraft &)> store)
{
    field->setProperty(kConfigKeyProperty, row.name());
    setFieldHelp(field, QString());
    m_keyFields.append({&row, std::move(load), std::move(store)});
}

void SettingsPage::keyEdited()
{
    if (!m_loadingKeys)
        Q_EMIT edited();
}

QLineEdit *SettingsPage::keyLineEdit(const KeyRow &row, const QString &objectName)
{
    auto *edit = new QLineEdit;
    edit->setObjectName(objectName);
    bindKey(
        edit, row, [edit, &row](const SettingsDraft &draft) { edit->setText(draft.key(row)); },
        [edit, &row](SettingsDraft &draft) { draft.setKey(row, edit->text()); });
    connect(edit, &QLineEdit::textChanged, this, &SettingsPage::keyEdited);
    return edit;
}

QCheckBox *SettingsPage::keyCheckBox(const KeyRow &row, const QString &text, const QString &objectName)
{
    auto *box = new QCheckBox(text);
    box->setObjectName(objectName);
    bindKey(
        box, row,
        [box, &row](const SettingsDraft &draft) {
            box->setChecked(parseConfigBoolean(draft.key(row)).value_or(false));
        },
        [box, &row](SettingsDraft &draft) {
            if (parseConfigBoolean(draft.key(row)) != box->isChecked())
                draft.setKey(row, box->isChecked() ? QStringLiteral("true") : QStringLiteral("false"));
        });
    connect(box, &QCheckBox::toggled, this, &SettingsPage::keyEdited);
    return box;
}

QSpinBox *SettingsPage::keySpinBox(const KeyRow &row, const QString &objectName)
{
    auto *spin = new QSpinBox;
    spin->setObjectName(objectName);
    spin->setRange(int(row.range.min), int(row.range.max));
    if (row.kind == KeyKind::Seconds)
        spin->setSuffix(tr(" s"));
    spin->setSizePolicy(QSizePolicy::Maximum, QSizePolicy::Fixed); // a number's width, not the form's
    bindKey(
        spin, row,
        [spin, &row](const SettingsDraft &draft) {
            spin->setValue(int(parseWholeNumber(draft.key(row)).value_or(row.range.min)));
        },
        [spin, &row](SettingsDraft &draft) {
            if (parseWholeNumber(draft.key(row)) != spin->value())
                draft.setKey(row, QString::number(spin->value()));
        });
    connect(spin, &QSpinBox::valueChanged, this, &SettingsPage::keyEdited);
    return spin;
}

QComboBox *SettingsPage::keyWordBox(const KeyRow &row, const QList<WordItem> &items, const QString &objectName)
{
    auto *box = new QComboBox;
    box->setObjectName(objectName);
    QStringList words;
    for (const WordItem &item : items) {
        box->addItem(item.label, item.value);
        words.append(item.word);
    }
    // The item of a word, in any case and with white space around, as the reader takes it.
    const auto itemOf = [words](const QString &text) { return int(words.indexOf(text.trimmed().toLower())); };
    bindKey(
        box, row,
        [box, &row, itemOf](const SettingsDraft &draft) { box->setCurrentIndex(qMax(0, itemOf(draft.key(row)))); },
        [box, &row, itemOf, words](SettingsDraft &draft) {
            if (box->currentIndex() >= 0 && itemOf(draft.key(row)) != box->currentIndex())
                draft.setKey(row, words.at(box->currentIndex()));
        });
    connect(box, &QComboBox::currentIndexChanged, this, &SettingsPage::keyEdited);
    return box;
}

void SettingsPage::addKeyMessage(QFormLayout *form, const KeyRow &row, const QString &objectName)
{
    m_keyMessages.insert(row.path(), addMessage(form, objectName));
}

void SettingsPage::loadKeys(const SettingsDraft &draft)
{
    m_loadingKeys = true;
    for (const KeyField &field : std::as_const(m_keyFields))
        field.load(draft);
    m_loadingKeys = false;
}

void SettingsPage::storeKeys(SettingsDraft &draft) const
{
    for (const KeyField &field : m_keyFields)
        field.store(draft);
}

void SettingsPage::showKeyProblems(const QList<SettingsProblem> &problems)
{
    showMessages(m_keyMessages, problems, SettingsProblem::Key, -1);
}
