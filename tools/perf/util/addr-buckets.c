// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "addr-buckets.h"

/* beyond this, a bucket per entry costs more memory than its misses */
#define ADDR_BUCKETS_MAX (1U << 24)

static u64 entry_addr(const void *table, size_t i, size_t stride)
{
	u64 addr;

	memcpy(&addr, (const char *)table + i * stride, sizeof(addr));
	return addr;
}

int addr_buckets__build(struct addr_buckets *ab, const void *table, size_t nr, size_t stride)
{
	u64 range;
	size_t i;
	u32 nb, b;

	memset(ab, 0, sizeof(*ab));
	if (!nr)
		return 0;
	if (nr > UINT32_MAX - 1)
		return -E2BIG;
	for (nb = 1; nb < nr && nb < ADDR_BUCKETS_MAX; nb <<= 1)
		;
	ab->first = malloc((nb + 1) * sizeof(*ab->first));
	if (!ab->first)
		return -ENOMEM;
	ab->lo = entry_addr(table, 0, stride);
	range = entry_addr(table, nr - 1, stride) - ab->lo;
	/* the smallest shift that puts the last entry in the last bucket or before */
	while (ab->shift < 63 && (range >> ab->shift) >= nb)
		ab->shift++;
	ab->nr = nb;
	for (i = 0, b = 0; i < nr; i++) {
		u64 bi = (entry_addr(table, i, stride) - ab->lo) >> ab->shift;

		while (b <= bi)
			ab->first[b++] = i;
	}
	while (b <= nb)
		ab->first[b++] = nr;
	return 0;
}

void addr_buckets__exit(struct addr_buckets *ab)
{
	free(ab->first);
	memset(ab, 0, sizeof(*ab));
}
