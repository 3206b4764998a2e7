// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stdio.h>

#include "debug.h"

int verbose;
bool dump_trace;
bool quiet;

int eprintf(int level, int var, const char *fmt, ...)
{
	va_list args;
	int ret = 0;

	/* errors always print; warnings unless -q; the rest by -v level */
	if (level < 0 || (level == 0 && !quiet) || (level > 0 && var >= level)) {
		va_start(args, fmt);
		ret = vfprintf(stderr, fmt, args);
		va_end(args);
	}
	return ret;
}

void dump_printf(const char *fmt, ...)
{
	va_list args;

	if (!dump_trace)
		return;
	va_start(args, fmt);
	vprintf(fmt, args);
	va_end(args);
}
