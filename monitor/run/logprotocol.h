// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// What idlegpu (run/workloadlog.h) and a workload's log writer (reaper/logwriter.h) say to each other over the log
// socket, a SOCK_SEQPACKET pair: one message per send, never split or merged. Plain C++ (the reaper has no Qt).
//
// idlegpu -> writer: each message is one of idlegpu's lines, stamped, without its newline, at most kMaxMessageBytes.
// The first one also starts the program: the writer lets the workload exec only once it has it, so that the line
// saying the workload started comes before anything the workload prints.
// writer or reaper -> idlegpu: a kind byte (below), then text.
// The kind bytes and limits of the log socket's protocol.
namespace LogProtocol {

// The writer has the file open.
inline constexpr char kOpened = '+';
// The writer refused the file; the text is the whole reason ("cannot open log file PATH: why"). The program does not
// run.
inline constexpr char kRefused = '-';
// A write to the file failed; the text is why (strerror). It is said once per run, and the writer goes on, as a full
// disk may empty.
inline constexpr char kWriteFailed = '!';
// From the reaper: the writer, whose pid is the text, had not read the workload's output to its end
// kWriterDrainMs after the workload ended (it is stuck on its file). The reaper exits without waiting for it.
inline constexpr char kWriterStuck = '?';

// The longest message on the socket.
inline constexpr int kMaxMessageBytes = 4096;
// The longest time that the reaper waits, once the workload's processes are gone, for its writer to take the last
// output (less when the stop's grace ends sooner: idlegpu's escalation would take the wait for a stuck reaper).
inline constexpr int kWriterDrainMs = 1000;

} // namespace LogProtocol
