#include "procparse.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>

bool parseProcStat(const char *text, ProcStat *stat)
{
    const char *close = std::strrchr(text, ')');
    if (!close)
        return false;
    const char *cursor = close + 1;
    while (*cursor == ' ')
        ++cursor;
    if (!*cursor)
        return false;
    ++cursor; // state letter
    qint64 values[3];
    for (qint64 &value : values) {
        char *after = nullptr;
        errno = 0;
        value = std::strtoll(cursor, &after, 10);
        if (after == cursor || errno != 0)
            return false;
        cursor = after;
    }
    stat->ppid = values[0];
    stat->pgid = values[1];
    stat->sid = values[2];
    return true;
}
