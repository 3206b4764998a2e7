// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "time-utils.h"

#define NSEC_PER_SEC 1000000000ULL

int parse_nsec_time(const char *str, u64 *ns)
{
	unsigned long long sec, frac = 0;
	const char *p;
	char *end;
	int digits = 0;

	/* strtoull() alone would take signs, blanks and "0x" too */
	if (*str < '0' || *str > '9')
		return -EINVAL;
	errno = 0;
	sec = strtoull(str, &end, 10);
	if (errno || sec > UINT64_MAX / NSEC_PER_SEC - 1)
		return -EINVAL;
	p = end;
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++) {
			if (digits++ < 9)
				frac = frac * 10 + (*p - '0');
		}
		for (; digits < 9; digits++)
			frac *= 10;
	}
	if (*p)
		return -EINVAL;
	*ns = sec * NSEC_PER_SEC + frac;
	return 0;
}
