// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// Idle processes that hold files open, so that a /proc scan has the work of a busy machine to do.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <vector>

class Bystanders
{
public:
    Bystanders(int count, int fdsEach)
    {
        for (int i = 0; i < count; ++i) {
            const pid_t pid = fork();
            if (pid == 0) {
                for (int f = 0; f < fdsEach; ++f)
                    open("/dev/null", O_RDONLY);
                pause();
                _exit(0);
            }
            if (pid > 0)
                m_pids.push_back(pid);
        }
    }
    ~Bystanders()
    {
        for (pid_t pid : m_pids)
            kill(pid, SIGKILL);
        for (pid_t pid : m_pids)
            waitpid(pid, nullptr, 0);
    }
    Bystanders(const Bystanders &) = delete;
    Bystanders &operator=(const Bystanders &) = delete;

private:
    std::vector<pid_t> m_pids;
};
