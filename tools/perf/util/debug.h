/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_DEBUG_H
#define __PERF_TEXTPOKE_DEBUG_H

#include "types.h"

/*
 * Messages go to stderr, prefixed like perf's; verbose detail only behind
 * -v.  dump_trace is perf's -D: raw records on stdout.
 */
extern int verbose;
extern bool dump_trace;
extern bool quiet;

int eprintf(int level, int var, const char *fmt, ...) __printf(3, 4);
void dump_printf(const char *fmt, ...) __printf(1, 2);

#define pr_err(fmt, ...) eprintf(-1, verbose, "error: " fmt, ##__VA_ARGS__)
#define pr_warning(fmt, ...) eprintf(0, verbose, "warning: " fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...) eprintf(0, verbose, fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...) eprintf(1, verbose, fmt, ##__VA_ARGS__)
#define pr_debug2(fmt, ...) eprintf(2, verbose, fmt, ##__VA_ARGS__)

#endif /* __PERF_TEXTPOKE_DEBUG_H */
