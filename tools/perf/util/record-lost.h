/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_RECORD_LOST_H
#define __PERF_TEXTPOKE_RECORD_LOST_H

#include <stdio.h>

#include "types.h"

/*
 * What a recording lost, and how the recorder says so.
 *
 * Two kernel counts, both copied into the output:
 *   - PERF_RECORD_LOST: a ring buffer was full; the kernel counts what it
 *     dropped and writes one LOST record ("a chunk") once there is room
 *     again.  What was dropped after the last chunk never gets one.
 *   - the per event count read() returns with PERF_FORMAT_LOST (kernel
 *     6.0+): every record that event could not write, up to now.  Read
 *     once the events are disabled, it covers that tail; perf 6.1 writes
 *     it as one PERF_RECORD_LOST_SAMPLES per event fd, as we do.
 */
struct record_lost {
	u64 nr_records;	  /* records in the output, of every type */
	u64 nr_chunks;	  /* PERF_RECORD_LOST records written */
	u64 nr_samples;	  /* PERF_RECORD_SAMPLE records written */
	u64 lost_samples; /* what the LOST_SAMPLES records add up to */
	u64 wakeups;	  /* polls that found a ring ready */
};

/* whether this kernel takes read_format PERF_FORMAT_LOST */
bool record_lost__format_supported(void);

/*
 * The lost count of a non-group event opened with @read_format (which
 * holds PERF_FORMAT_LOST); 0 or -errno.
 */
int record_lost__read(int fd, u64 read_format, u64 *lost);

/*
 * The end of the recording in perf record's words: "Woken up" unless
 * @quiet, then its warnings about lost chunks and a sample drop rate
 * above 5%, which are printed even when @quiet, since a lossy file must
 * never pass unnoticed.
 */
void record_lost__print(const struct record_lost *l, bool quiet, FILE *fp);

#endif /* __PERF_TEXTPOKE_RECORD_LOST_H */
