// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// libFuzzer target: the config editor (IniText::edited, what the settings dialog saves) on arbitrary bytes with
// edits drawn from what the file holds: a section moved to the end, another removed, keys set, added and removed.
// It must never crash, and what it returns must read back as a text config.
#include "config/inifile.h"
#include "fuzzsupport.h"

#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    silenceQtMessages();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray contents(reinterpret_cast<const char *>(data), qsizetype(size));
    const IniText text = IniText::parse(contents);
    const IniDocument &doc = text.document();

    IniEdit edit;
    const qsizetype sections = doc.sections.size();
    if (sections > 0)
        edit.sectionsAtEnd.append(doc.sections.at(0).name);
    if (sections > 1)
        edit.removeSections.append(doc.sections.at(1).name);
    if (sections > 2) {
        edit.setKeys.insert(doc.sections.at(2).name + QStringLiteral("/added"), QStringLiteral("a\nb"));
        edit.sectionsAtEnd.append(doc.sections.at(2).name);
    }
    edit.sectionsAtEnd.append(QStringLiteral("process-new"));
    edit.setKeys.insert(QStringLiteral("process-new/cmd"), QStringLiteral("true"));
    for (const IniDocument::Entry &entry : doc.entries) {
        if (entry.section == edit.removeSections.value(0))
            continue;
        const QString key = entry.section + QLatin1Char('/') + entry.key;
        if (entry.line % 3 == 0)
            edit.removeKeys.append(key);
        else if (entry.line % 3 == 1)
            edit.setKeys.insert(key, QStringLiteral("changed"));
    }

    QString error;
    const std::optional<QByteArray> edited = text.edited(edit, &error);
    if (edited && !IniText::parse(*edited).document().find(QStringLiteral("process-new"), QStringLiteral("cmd")))
        std::abort();
    if (!edited && error.isEmpty())
        std::abort();
    return 0;
}
