// SPDX-License-Identifier: GPL-2.0-only
/*
 * The memory access description of a sample (union perf_mem_data_src in
 * the kernel's uapi header), in the words perf 6.1 uses for it.  The
 * bit-fields are decoded by hand so the result does not depend on the
 * host's bit-field order.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "script-data-src.h"

/* field positions in the u64, from include/uapi/linux/perf_event.h */
#define DS_FIELD(v, shift, bits) (((v) >> (shift)) & ((1ULL << (bits)) - 1))
#define DS_OP(v) DS_FIELD(v, 0, 5)
#define DS_LVL(v) DS_FIELD(v, 5, 14)
#define DS_SNOOP(v) DS_FIELD(v, 19, 5)
#define DS_LOCK(v) DS_FIELD(v, 24, 2)
#define DS_DTLB(v) DS_FIELD(v, 26, 7)
#define DS_LVL_NUM(v) DS_FIELD(v, 33, 4)
#define DS_REMOTE(v) DS_FIELD(v, 37, 1)
#define DS_SNOOPX(v) DS_FIELD(v, 38, 2)
#define DS_BLK(v) DS_FIELD(v, 40, 3)
#define DS_HOPS(v) DS_FIELD(v, 43, 3)

static const char *const mem_lvl[] = {
    "N/A",
    "HIT",
    "MISS",
    "L1",
    "LFB/MAB",
    "L2",
    "L3",
    "Local RAM",
    "Remote RAM (1 hop)",
    "Remote RAM (2 hops)",
    "Remote Cache (1 hop)",
    "Remote Cache (2 hops)",
    "I/O",
    "Uncached",
};

static const char *const mem_lvlnum[16] = {
    [0x09] = "CXL", [0x0a] = "I/O",  [0x0b] = "Any cache", [0x0c] = "LFB/MAB",
    [0x0d] = "RAM", [0x0e] = "PMEM", [0x0f] = "N/A",
};

static const char *const mem_hops[8] = {
    "N/A", "core, same chip", "node, same socket", "socket, same board", "board",
};

static const char *const tlb_access[] = {"N/A", "HIT", "MISS", "L1", "L2", "Walker", "Fault"};
static const char *const snoop_access[] = {"N/A", "None", "Hit", "Miss", "HitM"};
static const char *const snoopx_access[] = {"Fwd", "Peer"};

struct sbuf {
	char *p;
	size_t size; /* including the NUL */
	size_t len;
};

static void put(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* scnprintf(): append, never past the end, NUL terminated */
static void put(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->len + 1 >= b->size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(b->p + b->len, b->size - b->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->len += (size_t)n < b->size - b->len ? (size_t)n : b->size - b->len - 1;
}

/* bit i of @m set -> names[i], joined with " or "; true if any */
static bool put_bits(struct sbuf *b, u64 m, const char *const *names, size_t n, bool first)
{
	size_t i;

	for (i = 0; m && i < n; i++, m >>= 1) {
		if (!(m & 1))
			continue;
		if (!first)
			put(b, " or ");
		put(b, "%s", names[i]);
		first = false;
	}
	return !first;
}

static void put_op(struct sbuf *b, u64 op)
{
	if (op & 0x01)
		put(b, "N/A");
	else if (op & 0x02)
		put(b, "LOAD");
	else if (op & 0x04)
		put(b, "STORE");
	else if (op & 0x08)
		put(b, "PFETCH");
	else if (op & 0x10)
		put(b, "EXEC");
	else
		put(b, "No");
}

static void put_lvl(struct sbuf *b, u64 ds)
{
	u64 m = DS_LVL(ds), hit = m & 0x2, miss = m & 0x4;
	size_t start = b->len;
	bool printed = false;

	m &= ~0x6ULL;
	if (DS_REMOTE(ds))
		put(b, "Remote ");
	/* with hops set, the hops say where, not the PERF_MEM_LVL bits */
	if (DS_HOPS(ds))
		put(b, "%s ", mem_hops[DS_HOPS(ds)] ? mem_hops[DS_HOPS(ds)] : "N/A");
	else
		printed = put_bits(b, m, mem_lvl, sizeof(mem_lvl) / sizeof(mem_lvl[0]), true);
	if (DS_LVL_NUM(ds)) {
		unsigned int lvl = DS_LVL_NUM(ds);

		if (printed)
			put(b, " or ");
		if (mem_lvlnum[lvl])
			put(b, "%s", mem_lvlnum[lvl]);
		else
			put(b, "L%u", lvl);
	}
	if (b->len == start)
		put(b, "N/A");
	if (hit)
		put(b, " hit");
	if (miss)
		put(b, " miss");
}

static void put_snoop(struct sbuf *b, u64 ds)
{
	bool any = put_bits(b, DS_SNOOP(ds), snoop_access, 5, true);

	any = put_bits(b, DS_SNOOPX(ds), snoopx_access, 2, !any) || any;
	if (!any)
		put(b, "N/A");
}

static void put_tlb(struct sbuf *b, u64 ds)
{
	u64 m = DS_DTLB(ds), hit = m & 0x2, miss = m & 0x4;

	if (!put_bits(b, m & ~0x6ULL, tlb_access, 7, true))
		put(b, "N/A");
	if (hit)
		put(b, " hit");
	if (miss)
		put(b, " miss");
}

static void put_lock(struct sbuf *b, u64 lock)
{
	put(b, "%s", lock & 1 ? "N/A" : lock & 2 ? "Yes" : "No");
}

static void put_blk(struct sbuf *b, u64 blk)
{
	if (!blk || (blk & 1)) {
		put(b, " N/A");
		return;
	}
	if (blk & 2)
		put(b, " Data");
	if (blk & 4)
		put(b, " Addr");
}

int data_src__scnprintf(u64 ds, char *out, size_t size)
{
	struct sbuf b = {out, size, 0};

	if (!size)
		return 0;
	out[0] = '\0';
	put(&b, "|OP ");
	put_op(&b, DS_OP(ds));
	put(&b, "|LVL ");
	put_lvl(&b, ds);
	put(&b, "|SNP ");
	put_snoop(&b, ds);
	put(&b, "|TLB ");
	put_tlb(&b, ds);
	put(&b, "|LCK ");
	put_lock(&b, DS_LOCK(ds));
	put(&b, "|BLK ");
	put_blk(&b, DS_BLK(ds));
	return b.len;
}
