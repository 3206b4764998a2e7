// SPDX-License-Identifier: GPL-2.0-only
/*
 * The bucket index in front of the symbol and site searches: for sorted
 * tables of every shape (even spread, clusters, equal addresses, one far
 * outlier as kallsyms' per-CPU symbols at 0, a range near 2^64), the
 * count of entries at or below any address lies in the range it gives;
 * and symbols__find() through it answers as a scan of the table does.
 *
 * Mutation caught: addr_buckets__range() returning first[b + 1] - 1 as
 * its upper end (a lookup at the last entry of a bucket) fails the first
 * part; symbols__pick() keeping the nearest containing symbol instead of
 * the furthest back fails the second.
 */
#include <elf.h>
#include <stdlib.h>

#include "tests.h"
#include "../util/addr-buckets.h"
#include "../util/symbol.h"

static u64 rnd(u64 *seed)
{
	*seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return *seed >> 16;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* a table of @nr sorted addresses of shape @shape */
static void make_table(u64 *t, size_t nr, int shape, u64 *seed)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		switch (shape) {
		case 0: /* a kernel's text */
			t[i] = 0xffffffff81000000ULL + rnd(seed) % 0x2000000;
			break;
		case 1: /* clusters */
			t[i] = ((rnd(seed) % 4) << 40) + rnd(seed) % 0x1000;
			break;
		case 2: /* few distinct */
			t[i] = 0x400000 + (rnd(seed) % 3) * 16;
			break;
		default: /* near the top */
			t[i] = ~0ULL - rnd(seed) % 0x100000;
			break;
		}
	}
	/* one outlier at 0, as kallsyms' per-CPU symbols */
	if (shape == 0 && nr > 1)
		t[0] = 0;
	qsort(t, nr, sizeof(*t), cmp_u64);
}

static int check_ranges(void)
{
	static const size_t sizes[] = {1, 2, 3, 17, 256, 5000};
	u64 seed = 42, t[5000];
	size_t si, i, lo, hi, count;

	for (si = 0; si < ARRAY_SIZE(sizes); si++) {
		for (int shape = 0; shape < 4; shape++) {
			size_t nr = sizes[si];
			struct addr_buckets ab;

			make_table(t, nr, shape, &seed);
			TEST_ASSERT_VAL("build", !addr_buckets__build(&ab, t, nr, sizeof(*t)));
			for (i = 0; i < 4000; i++) {
				/* entries, their neighbours, and anything */
				u64 addr = t[rnd(&seed) % nr] + (rnd(&seed) % 3) - 1;

				if (i % 4 == 3)
					addr = rnd(&seed) << (rnd(&seed) % 24);
				for (count = 0; count < nr && t[count] <= addr; count++)
					;
				addr_buckets__range(&ab, addr, nr, &lo, &hi);
				if (count < lo || count > hi || hi > nr) {
					pr_debug(
					    "%zu entries, shape %d: %#llx: count %zu outside [%zu, %zu]\n",
					    nr, shape, (unsigned long long)addr, count, lo, hi);
					addr_buckets__exit(&ab);
					return TEST_FAIL;
				}
			}
			addr_buckets__exit(&ab);
		}
	}
	return TEST_OK;
}

/* the reference: the furthest back of the last 8 symbols at or below @addr holding it */
static struct symbol *scan_find(struct symbol **s, size_t nr, u64 addr)
{
	struct symbol *found = NULL;
	size_t at = 0, i;

	while (at < nr && s[at]->start <= addr)
		at++;
	for (i = at; i > 0 && at - i < 8; i--)
		if (addr < s[i - 1]->end || addr == s[i - 1]->start)
			found = s[i - 1];
	return found;
}

static int check_symbols(void)
{
	u64 seed = 7, t[3000];
	struct symbols syms;
	size_t i;
	int ret = TEST_OK;

	make_table(t, ARRAY_SIZE(t), 0, &seed);
	symbols__init(&syms);
	for (i = 0; i < ARRAY_SIZE(t); i++) {
		/* overlapping lengths: nested and zero-sized symbols too */
		u64 len = rnd(&seed) % 5 ? rnd(&seed) % 0x4000 : 0;

		TEST_ASSERT_VAL(
		    "add", !symbols__add(&syms, symbol__new(t[i], len, STB_GLOBAL, STT_FUNC, "f")));
	}
	symbols__sort(&syms);
	for (i = 0; i < 20000 && ret == TEST_OK; i++) {
		u64 addr = t[rnd(&seed) % ARRAY_SIZE(t)] + rnd(&seed) % 0x5000;
		struct symbol *want = scan_find(syms.entries, syms.nr, addr);

		if (symbols__find(&syms, addr) != want) {
			pr_debug("%#llx: not the symbol a scan finds\n", (unsigned long long)addr);
			ret = TEST_FAIL;
		}
	}
	symbols__exit(&syms);
	return ret;
}

static int test__addr_buckets(struct test_suite *t)
{
	int ret = check_ranges();

	return ret ? ret : check_symbols();
}

struct test_suite suite__addr_buckets = {
    .desc =
	"Address search index: bucket ranges of every table shape; symbols as a scan finds them",
    .func = test__addr_buckets,
};
