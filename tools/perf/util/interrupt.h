/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_INTERRUPT_H
#define __PERF_TEXTPOKE_INTERRUPT_H

#include <stdbool.h>

/*
 * SIGINT, SIGTERM and SIGHUP while a command writes an output: by default
 * they kill it with its temporary output left behind.  With these
 * installed the signal is only noted; the session's read loop stops at
 * the next record (perf_session__process_events() fails with -EINTR), the
 * command takes its error path, which discards the temporary output and
 * keeps the previous one, and then dies of the same signal, so that its
 * parent sees what happened (a shell's $? is 128 + the signal).
 *
 * Not async-signal-safe work in a handler: just the note.  SA_RESTART is
 * off, so a write blocked on a FIFO returns EINTR instead of waiting.
 */
void interrupt__install(void);

/* the signal noted, or 0 */
int interrupt__pending(void);

/* after the error path: die of the noted signal; returns if none */
void interrupt__reraise(void);

#endif /* __PERF_TEXTPOKE_INTERRUPT_H */
