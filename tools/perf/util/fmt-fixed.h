/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_FMT_FIXED_H
#define __PERF_TEXTPOKE_FMT_FIXED_H

#include <stddef.h>

/*
 * snprintf(buf, size, "%*.2f", width, v), the same bytes, without
 * printf's floating-point machinery: a report prints a percentage or two
 * per row and per tree line, 10^5 of them on a busy profile.  The digits
 * are the double's correctly rounded ones, ties to even, as glibc prints
 * them.  Returns what snprintf() returns.
 */
int fmt_fixed2(char *buf, size_t size, int width, double v);

#endif /* __PERF_TEXTPOKE_FMT_FIXED_H */
