/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_PERF_CLOCK_H
#define __PERF_TEXTPOKE_PERF_CLOCK_H

#include <stdbool.h>

#include "types.h"

/*
 * The clock the recording's events use, read now.  perf timestamps
 * records with the kernel's local clock unless -k names a clockid, and
 * user space cannot read the local clock; so a software event on this
 * thread samples every page fault with its time, and a fault made on
 * purpose (a page given back, then written) gives the clock's time of
 * that moment.  A few microseconds a reading.
 */
struct perf_clock;

/* NULL + errno when the event cannot be opened (perf_event_paranoid, no memory) */
struct perf_clock *perf_clock__new(bool use_clockid, int clockid);
/* the time now in the events' clock: 0 or -errno (-ENODATA: no sample came) */
int perf_clock__now(struct perf_clock *clock, u64 *time);
void perf_clock__delete(struct perf_clock *clock);

#endif /* __PERF_TEXTPOKE_PERF_CLOCK_H */
