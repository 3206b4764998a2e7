/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_SWAP_H
#define __PERF_TEXTPOKE_SWAP_H

#include "types.h"

union perf_event;
struct evlist;
struct evsel;

/*
 * Recordings made on a machine of the other endianness.  Everything here
 * works on private copies: the input file is never written.
 */

/* swaps @size bytes of an on-disk perf_event_attr in place, bitfields too */
void perf_event_attr__swap(void *attr, size_t size);

/*
 * Swaps one record in place (header included).  Samples and id trailers
 * need the evsel, found through @evlist after the id is swapped.  Returns
 * 0, or -EFAULT when the record is too short for its type.
 */
int perf_event__swap(union perf_event *event, struct evlist *evlist);

/* swaps only the 8-byte record header */
void perf_event_header__swap(void *header);

static inline u16 bswap16_if(u16 v, bool swap)
{
	return swap ? __builtin_bswap16(v) : v;
}

static inline u32 bswap32_if(u32 v, bool swap)
{
	return swap ? __builtin_bswap32(v) : v;
}

static inline u64 bswap64_if(u64 v, bool swap)
{
	return swap ? __builtin_bswap64(v) : v;
}

#endif /* __PERF_TEXTPOKE_SWAP_H */
