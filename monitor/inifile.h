#pragma once
// The INI dialect of gpu_mon.conf, as Python's configparser reads it, as a QSettings format.
//
// Qt's stock IniFormat mangles such files (`cmd=miner --pool "a:1" -u x,y` comes back as a list with the
// quotes gone), so idlegpu registers its own: values are kept verbatim, `;` and `#` start comment lines,
// spaces around `=` (or `:`) are allowed, section and key names are case-insensitive (kept lower case),
// indented lines continue a value. Writing changes a file in place: comments, order and untouched lines stay
// byte for byte, and the file is replaced atomically with its mode kept.
#include <QByteArray>
#include <QList>
#include <QSettings>
#include <QString>

// One parsed file, with the line of every section and key, for FILE:LINE messages.
struct IniDocument
{
    struct Entry
    {
        QString section; // lower case
        QString key;     // lower case
        QString value;   // verbatim (continuation lines joined with \n)
        int line = 0;
    };
    struct Section
    {
        QString name; // lower case
        int line = 0;
    };
    struct Problem
    {
        int line = 0;
        QString message;
    };

    QList<Section> sections;
    QList<Entry> entries;
    QList<Problem> problems; // syntax errors: text outside a section, a line without =, a duplicate, ...

    static IniDocument parse(const QByteArray &contents);
    const Entry *find(const QString &section, const QString &key) const;
    int sectionLine(const QString &section) const; // 0 when absent
};

// The registered format; register once, on first use. Keys are "section/key", lower case.
QSettings::Format idlegpuIniFormat();
