// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// One page of the settings dialog: it shows its part of the draft, writes the user's edits back into it and
// shows the problems found on its fields. The dialog owns the draft, validates it and saves it.
#include "settings/settingsdraft.h"

#include <QHash>
#include <QWidget>

#include <functional>

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QStackedWidget;

class SettingsPage : public QWidget
{
    Q_OBJECT
public:
    using QWidget::QWidget;

    // Shows the page's part of `draft`; it emits nothing.
    virtual void load(const SettingsDraft &draft) = 0;
    // Writes what the widgets hold into the page's part of `draft`.
    virtual void store(SettingsDraft &draft) const = 0;
    // Shows next to each field the first of `problems` that concerns it, hides the other messages.
    virtual void showProblems(const QList<SettingsProblem> &problems) = 0;

    // Returns a row of `main`, stretched, and `besides` after it.
    static QWidget *row(QWidget *main, const QList<QWidget *> &besides);
    // Returns a button that Enter in a field does not press.
    static QPushButton *button(const QString &text, const QString &objectName);
    // Returns a framed, wrapped label for what a workload template says of itself (WorkloadTemplate::explanation).
    static QLabel *templateExplanation(const QString &objectName);

    // Returns the config key that a field of the page edits, as the file names it ("[defaults] max_temperature_c");
    // empty for a field that edits no key of its own.
    static QString configKeyOf(const QWidget *field);
    // Sets a field's tooltip to `text` and a line naming the INI key it edits, as a gpu_mon user knows it: `key`, or
    // the key the field is bound to (configKeyOf()) when `key` is empty.
    static void setFieldHelp(QWidget *field, const QString &text, const QString &key = QString());
    // Returns `list` in a stack with a label, named `objectName`, that shows instead of the list while it is empty
    // (showEmptyText()): what the list would hold and what applies while it is empty.
    static QStackedWidget *withEmptyText(QWidget *list, const QString &text, const QString &objectName);
    static void showEmptyText(QStackedWidget *stack, bool empty);
    // Returns whether a field of this page edits the key of `path` ("tty/idle_seconds"): its problems show here.
    bool showsKey(const QString &path) const;

Q_SIGNALS:
    // Emitted when the user changed something or chose another item of a list; the dialog stores the page and shows the
    // problems again.
    void edited();

protected:
    // These make fields that edit a key of the draft's `keys` (SettingsDraft::keys). Each shows the key's text, takes
    // its range from the key's row, is named by the row (configKeyOf()) and emits edited() when the user changes it.
    // loadKeys() and storeKeys() fill them from the draft and write them back.
    QLineEdit *keyLineEdit(const KeyRow &row, const QString &objectName);
    QCheckBox *keyCheckBox(const KeyRow &row, const QString &text, const QString &objectName);
    // A key of seconds shows its unit (" s").
    QSpinBox *keySpinBox(const KeyRow &row, const QString &objectName);
    // Returns a combo box with an item per word of the key's table (configwords.h), shown as `label` says, its data the
    // value as an int.
    template<typename Enum>
    QComboBox *keyWordBox(const KeyRow &row, QString (*label)(Enum), const QString &objectName)
    {
        QList<WordItem> items;
        for (const ConfigWord<Enum> &word : ConfigWords<Enum>::words)
            items.append({QLatin1String(word.word), label(word.value), int(word.value)});
        return keyWordBox(row, items, objectName);
    }
    // Adds a message for the problems of `row`'s key under the last row of `form` (addMessage()).
    void addKeyMessage(QFormLayout *form, const KeyRow &row, const QString &objectName);
    void loadKeys(const SettingsDraft &draft);
    void storeKeys(SettingsDraft &draft) const;
    void showKeyProblems(const QList<SettingsProblem> &problems);

    // Adds a message under the last row of `form`, hidden until a problem is shown: an icon (not colour alone) and
    // the text, named `objectName` (the icon: objectName + "Icon").
    static QLabel *addMessage(QFormLayout *form, const QString &objectName);
    // Shows, for each field of `messages` ("interval" -> its label), the first problem on `page` and `item`.
    static void showMessages(const QHash<QString, QLabel *> &messages, const QList<SettingsProblem> &problems,
                             SettingsProblem::Page page, int item);

private:
    struct WordItem
    {
        QString word;
        QString label;
        int value;
    };
    QComboBox *keyWordBox(const KeyRow &row, const QList<WordItem> &items, const QString &objectName);

    // One field bound to a key: how it shows the key's text, and how it writes its own into the draft.
    struct KeyField
    {
        const KeyRow *row;
        std::function<void(const SettingsDraft &)> load;
        std::function<void(SettingsDraft &)> store;
    };
    void bindKey(QWidget *field, const KeyRow &row, std::function<void(const SettingsDraft &)> load,
                 std::function<void(SettingsDraft &)> store);
    void keyEdited();

    QList<KeyField> m_keyFields;
    QHash<QString, QLabel *> m_keyMessages; // key path -> its message
    bool m_loadingKeys = false;             // the key fields are being set: their signals are not edits
};
