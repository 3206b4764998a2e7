/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_SCRIPT_DATA_SRC_H
#define __PERF_TEXTPOKE_SCRIPT_DATA_SRC_H

#include <stddef.h>

#include "types.h"

/*
 * PERF_SAMPLE_DATA_SRC decoded as perf 6.1's perf script prints it:
 * "|OP LOAD|LVL L1 or L1 hit|SNP None|TLB L1 or L2 hit|LCK No|BLK  N/A".
 * Returns the length written (at most @size - 1).
 */
int data_src__scnprintf(u64 data_src, char *out, size_t size);

#endif /* __PERF_TEXTPOKE_SCRIPT_DATA_SRC_H */
