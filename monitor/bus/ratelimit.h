// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The service's flood guard: a token bucket per user and kind of call (docs/dbus.md, RateLimited). Per uid, not per
// connection: one user may open hundreds of connections.
#include <QHash>
#include <QtGlobal>

#include <algorithm>

// A bucket that holds up to `burst` tokens and gains `perSecond` a second; each call takes one.
class TokenBucket
{
public:
    TokenBucket(double perSecond = 1, double burst = 1) : m_perSecond(perSecond), m_burst(burst), m_tokens(burst) {}

    // Takes a token at `nowMs` (monotonic). Returns false, taking nothing, when the bucket is empty.
    bool take(qint64 nowMs)
    {
        if (m_lastMs != 0 && nowMs > m_lastMs)
            m_tokens = std::min(m_burst, m_tokens + double(nowMs - m_lastMs) * m_perSecond / 1000.0);
        m_lastMs = std::max(m_lastMs, nowMs);
        if (m_tokens < 1)
            return false;
        m_tokens -= 1;
        return true;
    }
    // Whether it is full again at `nowMs`: nothing to remember of its user.
    bool fullAt(qint64 nowMs) const { return m_tokens + double(nowMs - m_lastMs) * m_perSecond / 1000.0 >= m_burst; }

private:
    double m_perSecond;
    double m_burst;
    double m_tokens;
    qint64 m_lastMs = 0;
};

// One bucket per uid, made full at a uid's first call.
class UidRateLimiter
{
public:
    UidRateLimiter(double perSecond, double burst) : m_perSecond(perSecond), m_burst(burst) {}

    bool take(uint uid, qint64 nowMs)
    {
        auto it = m_buckets.find(uid);
        if (it == m_buckets.end()) {
            // Forget the users whose buckets are full again, so that the table stays as small as the flood.
            if (m_buckets.size() >= 4096)
                for (auto old = m_buckets.begin(); old != m_buckets.end();)
                    old = old->fullAt(nowMs) ? m_buckets.erase(old) : std::next(old);
            it = m_buckets.insert(uid, TokenBucket(m_perSecond, m_burst));
        }
        return it->take(nowMs);
    }

private:
    double m_perSecond;
    double m_burst;
    QHash<uint, TokenBucket> m_buckets;
};
