/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_TIME_UTILS_H
#define __PERF_TEXTPOKE_TIME_UTILS_H

#include "types.h"

/*
 * A moment as perf script prints it: decimal seconds, optionally with a
 * fraction ("12345.678901", "347"), into nanoseconds; digits past the
 * ninth do not count, as perf keeps nanoseconds.  -EINVAL for anything
 * else or a value past what u64 nanoseconds hold.
 */
int parse_nsec_time(const char *str, u64 *ns);

#endif /* __PERF_TEXTPOKE_TIME_UTILS_H */
