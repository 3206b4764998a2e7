/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_ARRAY_GROW_H
#define __PERF_TEXTPOKE_ARRAY_GROW_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

/*
 * Room for one more element in *@arr, which holds @nr of *@alloc
 * elements of @elem bytes: doubled (16 at first) when full.  0, or
 * -ENOMEM (the size would overflow, or no memory), *@arr unchanged.
 */
static inline int array__grow(void **arr, size_t nr, size_t *alloc, size_t elem)
{
	size_t n;
	void *p;

	if (nr < *alloc)
		return 0;
	n = *alloc ? *alloc * 2 : 16;
	if (n < *alloc || n > SIZE_MAX / elem)
		return -ENOMEM;
	p = realloc(*arr, n * elem);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*alloc = n;
	return 0;
}

#endif /* __PERF_TEXTPOKE_ARRAY_GROW_H */
