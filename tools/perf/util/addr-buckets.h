/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_ADDR_BUCKETS_H
#define __PERF_TEXTPOKE_ADDR_BUCKETS_H

#include <stdbool.h>
#include <stddef.h>

#include "types.h"

/*
 * An index in front of a binary search over a sorted table of addresses
 * (symbols, poked sites).  A sample storm lands all over a kernel's
 * tables, and a plain search of 100k entries misses the cache at nearly
 * every step.  The table's address range is cut into a power of two
 * buckets, about one per entry; first[b] is the first entry whose address
 * lies in bucket b or later.  A lookup then searches only the entries of
 * its own bucket: one or two, wherever the addresses are spread evenly,
 * and never more than the whole table (a table with a few far outliers,
 * such as kallsyms' per-CPU symbols at 0, degrades to the plain search).
 */
struct addr_buckets {
	u32 *first; /* nr + 1 */
	u64 lo;	    /* the first entry's address */
	unsigned int shift;
	u32 nr;
};

/*
 * The u64 address of entry i is at @table + i * @stride.  -ENOMEM, or
 * -E2BIG past 2^32 - 1 entries; the index is then empty and
 * addr_buckets__range() gives the whole table.
 */
int addr_buckets__build(struct addr_buckets *ab, const void *table, size_t nr, size_t stride);
void addr_buckets__exit(struct addr_buckets *ab);

/*
 * The count of entries at or below @addr lies in [*lo, *hi], of the @nr
 * the index was built over: a binary search for it needs to look only
 * there.
 */
static inline void addr_buckets__range(const struct addr_buckets *ab, u64 addr, size_t nr,
				       size_t *lo, size_t *hi)
{
	u64 b;

	if (!ab->first) {
		*lo = 0;
		*hi = nr;
		return;
	}
	if (addr < ab->lo) {
		*lo = *hi = 0;
		return;
	}
	b = (addr - ab->lo) >> ab->shift;
	if (b >= ab->nr) {
		*lo = *hi = nr;
		return;
	}
	*lo = ab->first[b];
	*hi = ab->first[b + 1];
}

#endif /* __PERF_TEXTPOKE_ADDR_BUCKETS_H */
