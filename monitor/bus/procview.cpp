// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "bus/procview.h"

// A line of mountinfo (proc(5)):
//   36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue
//   (1)(2)(3)   (4)   (5)      (6)      (7)   (8) (9)   (10)         (11)
// (5) is the mount point with space, tab, newline and backslash written as \040, \011, \012 and \134; (7) is zero or
// more optional fields ended by "-"; (11) holds the file system's own options: hidepid= and gid= for proc.

#include <QFile>

#include <sys/stat.h>

namespace ProcView {

namespace {

// The mount point's escapes undone (\NNN in octal).
QByteArray unescape(QByteArrayView field)
{
    QByteArray out;
    out.reserve(field.size());
    for (qsizetype i = 0; i < field.size(); ++i) {
        if (field[i] == '\\' && i + 3 < field.size() && field[i + 1] >= '0' && field[i + 1] <= '3'
            && field[i + 2] >= '0' && field[i + 2] <= '7' && field[i + 3] >= '0' && field[i + 3] <= '7') {
            out.append(char((field[i + 1] - '0') * 64 + (field[i + 2] - '0') * 8 + (field[i + 3] - '0')));
            i += 3;
        } else {
            out.append(field[i]);
        }
    }
    return out;
}

HidePid hidePidOf(QByteArrayView value)
{
    if (value == "off" || value == "0")
        return HidePid::Off;
    if (value == "noaccess" || value == "1")
        return HidePid::NoAccess;
    if (value == "ptraceable" || value == "4")
        return HidePid::Ptraceable;
    return HidePid::Invisible; // "invisible", "2", and what this code does not know
}

} // namespace

MountOptions parseMountInfo(QByteArrayView mountinfo)
{
    MountOptions result;
    qsizetype lineStart = 0;
    while (lineStart < mountinfo.size()) {
        qsizetype lineEnd = mountinfo.indexOf('\n', lineStart);
        if (lineEnd < 0)
            lineEnd = mountinfo.size();
        const QByteArrayView line = mountinfo.sliced(lineStart, lineEnd - lineStart);
        lineStart = lineEnd + 1;

        QList<QByteArrayView> fields;
        qsizetype at = 0;
        while (at < line.size()) {
            while (at < line.size() && line[at] == ' ')
                ++at;
            const qsizetype start = at;
            while (at < line.size() && line[at] != ' ')
                ++at;
            if (at > start)
                fields.append(line.sliced(start, at - start));
        }
        if (fields.size() < 10 || unescape(fields[4]) != "/proc")
            continue;
        qsizetype separator = -1;
        for (qsizetype i = 6; i < fields.size(); ++i)
            if (fields[i] == "-") {
                separator = i;
                break;
            }
        if (separator < 0 || separator + 3 >= fields.size() || fields[separator + 1] != "proc")
            continue;
        MountOptions mount;
        mount.found = true;
        const QByteArrayView options = fields[separator + 3];
        qsizetype optionStart = 0;
        while (optionStart <= options.size()) {
            qsizetype optionEnd = options.indexOf(',', optionStart);
            if (optionEnd < 0)
                optionEnd = options.size();
            const QByteArrayView option = options.sliced(optionStart, optionEnd - optionStart);
            optionStart = optionEnd + 1;
            if (option.startsWith("hidepid=")) {
                mount.hidePid = hidePidOf(option.sliced(8));
            } else if (option.startsWith("gid=")) {
                bool ok = false;
                const uint gid = option.sliced(4).toByteArray().toUInt(&ok);
                if (ok)
                    mount.gid = gid;
            }
        }
        result = mount; // the last mount at /proc is the one on top
    }
    return result;
}

bool seesOthers(const MountOptions &options, uint uid, const QList<uint> &groups)
{
    if (uid == 0)
        return true;
    if (!options.found)
        return false;
    if (options.hidePid == HidePid::Off)
        return true;
    return options.gid && groups.contains(*options.gid);
}

// Whether procRoot/PID/ns/pid is the namespace procRoot/self/ns/pid is; false where either cannot be read.
static bool inOwnPidNamespace(qint64 pid, const QString &procRoot)
{
    struct stat caller
    {};
    struct stat own
    {};
    return ::stat(QFile::encodeName(QStringLiteral("%1/%2/ns/pid").arg(procRoot).arg(pid)).constData(), &caller) == 0
           && ::stat(QFile::encodeName(procRoot + QStringLiteral("/self/ns/pid")).constData(), &own) == 0
           && caller.st_dev == own.st_dev && caller.st_ino == own.st_ino;
}

MountOptions readMountInfo(qint64 pid, const QString &procRoot)
{
    if (pid <= 0)
        return MountOptions();
    // A user may make a PID namespace of her own with a /proc of her own, without hidepid (unshare -Urpf
    // --mount-proc): that mount says nothing of what she sees of the machine's processes. Only a caller in the PID
    // namespace of the service itself (the machine's: a unit gets none of its own) is judged by its mount.
    if (pid != 1 && !inOwnPidNamespace(pid, procRoot))
        return MountOptions();
    QFile file(QStringLiteral("%1/%2/mountinfo").arg(procRoot).arg(pid));
    if (!file.open(QIODevice::ReadOnly))
        return MountOptions();
    // A mount table of thousands of lines (containers) is a few hundred kB; more is not a real one.
    return parseMountInfo(file.read(8 * 1024 * 1024));
}

} // namespace ProcView
