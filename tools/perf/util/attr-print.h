/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_ATTR_PRINT_H
#define __PERF_TEXTPOKE_ATTR_PRINT_H

#include <linux/perf_event.h>
#include <stdio.h>

#include "types.h"

enum attr_print_style {
	ATTR_PRINT_HEADER, /* perf script --header's "# event" line: ", type = 1" each */
	ATTR_PRINT_EVLIST, /* perf evlist -v's, after the name: ": type: 1", then ", size: 128" */
};

/* @a's non-zero fields, @size printed as its size (the recorded one) */
void perf_event_attr__fprintf(FILE *fp, const struct perf_event_attr *a, u32 size,
			      enum attr_print_style style);

#endif /* __PERF_TEXTPOKE_ATTR_PRINT_H */
