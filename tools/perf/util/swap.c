// SPDX-License-Identifier: GPL-2.0-only
/*
 * Byte-swapping records of the other endianness, on private copies.
 *
 * Fields are swapped by their real width: u64 values, u32 pairs (pid/tid,
 * cpu/res), u16s (KSYMBOL, TEXT_POKE lengths); byte strings (filenames,
 * comms, RAW and AUX payloads, stack copies, code bytes) stay as they are.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "event.h"
#include "evsel.h"
#include "swap.h"

#ifndef PERF_SAMPLE_BRANCH_COUNTERS
#define PERF_SAMPLE_BRANCH_COUNTERS (1ULL << 19)
#endif

static void swap64(u8 *p)
{
	u64 v;

	memcpy(&v, p, 8);
	v = __builtin_bswap64(v);
	memcpy(p, &v, 8);
}

static void swap32(u8 *p)
{
	u32 v;

	memcpy(&v, p, 4);
	v = __builtin_bswap32(v);
	memcpy(p, &v, 4);
}

static void swap16(u8 *p)
{
	u16 v;

	memcpy(&v, p, 2);
	v = __builtin_bswap16(v);
	memcpy(p, &v, 2);
}

static u64 get64(const u8 *p)
{
	u64 v;

	memcpy(&v, p, 8);
	return v;
}

static u8 revbyte(u8 b)
{
	b = (b & 0xf0) >> 4 | (b & 0x0f) << 4;
	b = (b & 0xcc) >> 2 | (b & 0x33) << 2;
	b = (b & 0xaa) >> 1 | (b & 0x55) << 1;
	return b;
}

void perf_event_header__swap(void *header)
{
	u8 *p = header;

	swap32(p);
	swap16(p + 4);
	swap16(p + 6);
}

/*
 * The u64 of single-bit flags after read_format: compilers allocate
 * bitfields from the low bit on little-endian and from the high bit on
 * big-endian, so the same flag sits in the same byte at the mirrored bit.
 * Reversing the bits of each byte (without swapping the bytes) maps one
 * onto the other - what perf does too.
 */
void perf_event_attr__swap(void *attr, size_t size)
{
	static const struct {
		u16 off;
		u8 width;
	} fields[] = {
	    {0, 4},   /* type */
	    {4, 4},   /* size */
	    {8, 8},   /* config */
	    {16, 8},  /* sample_period */
	    {24, 8},  /* sample_type */
	    {32, 8},  /* read_format */
	    {40, 0},  /* flag bits: see above */
	    {48, 4},  /* wakeup_events */
	    {52, 4},  /* bp_type */
	    {56, 8},  /* config1 */
	    {64, 8},  /* config2 */
	    {72, 8},  /* branch_sample_type */
	    {80, 8},  /* sample_regs_user */
	    {88, 4},  /* sample_stack_user */
	    {92, 4},  /* clockid */
	    {96, 8},  /* sample_regs_intr */
	    {104, 4}, /* aux_watermark */
	    {108, 2}, /* sample_max_stack */
	    {110, 2}, /* reserved */
	    {112, 4}, /* aux_sample_size */
	    {116, 4}, /* reserved */
	    {120, 8}, /* sig_data */
	    {128, 8}, /* config3 */
	};
	u8 *p = attr;
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(fields); i++) {
		size_t off = fields[i].off;

		if (off + (fields[i].width ?: 8) > size)
			break;
		switch (fields[i].width) {
		case 0:
			for (j = 0; j < 8; j++)
				p[off + j] = revbyte(p[off + j]);
			break;
		case 2:
			swap16(p + off);
			break;
		case 4:
			swap32(p + off);
			break;
		default:
			swap64(p + off);
			break;
		}
	}
	/* anything newer than we know: assume u64s */
	for (i = 136; i + 8 <= size; i += 8)
		swap64(p + i);
}

/* a sample body [p, end) in place, walking fields by sample_type */
static int swap_sample(const struct evsel *evsel, u8 *p, u8 *end)
{
	const struct perf_event_attr *a = &evsel->attr;
	u64 st = a->sample_type, v, n;

#define NEED(x)                                \
	do {                                   \
		if ((u64)(end - p) < (u64)(x)) \
			return -EFAULT;        \
	} while (0)
#define U64()              \
	do {               \
		NEED(8);   \
		swap64(p); \
		p += 8;    \
	} while (0)
#define PAIR()                 \
	do {                   \
		NEED(8);       \
		swap32(p);     \
		swap32(p + 4); \
		p += 8;        \
	} while (0)

	if (st & PERF_SAMPLE_IDENTIFIER)
		U64();
	if (st & PERF_SAMPLE_IP)
		U64();
	if (st & PERF_SAMPLE_TID)
		PAIR();
	if (st & PERF_SAMPLE_TIME)
		U64();
	if (st & PERF_SAMPLE_ADDR)
		U64();
	if (st & PERF_SAMPLE_ID)
		U64();
	if (st & PERF_SAMPLE_STREAM_ID)
		U64();
	if (st & PERF_SAMPLE_CPU)
		PAIR();
	if (st & PERF_SAMPLE_PERIOD)
		U64();
	if (st & PERF_SAMPLE_READ) {
		u64 rf = a->read_format,
		    per = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);

		if (rf & PERF_FORMAT_GROUP) {
			NEED(8);
			swap64(p);
			n = get64(p);
			p += 8;
			if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
				U64();
			if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
				U64();
			if (n > (u64)(end - p) / (per * 8))
				return -EFAULT;
			for (v = 0; v < n * per; v++)
				U64();
		} else {
			n = 1 + !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
			    !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING) + !!(rf & PERF_FORMAT_ID) +
			    !!(rf & PERF_FORMAT_LOST);
			for (v = 0; v < n; v++)
				U64();
		}
	}
	if (st & PERF_SAMPLE_CALLCHAIN) {
		NEED(8);
		swap64(p);
		n = get64(p);
		p += 8;
		if (n > (u64)(end - p) / 8)
			return -EFAULT;
		for (v = 0; v < n; v++)
			U64();
	}
	if (st & PERF_SAMPLE_RAW) {
		u32 sz;

		NEED(4);
		swap32(p);
		memcpy(&sz, p, 4);
		if ((u64)sz + 4 > (u64)(end - p))
			return -EFAULT;
		p += PERF_ALIGN((u64)sz + 4, 8);
		if (p > end)
			return -EFAULT;
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		NEED(8);
		swap64(p);
		n = get64(p);
		p += 8;
		if (a->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
			U64();
		if (n > (u64)(end - p) / 24)
			return -EFAULT;
		for (v = 0; v < n; v++) {
			U64();
			U64();
			/* flags: a bitfield word, like the attr flags */
			for (int j = 0; j < 8; j++)
				p[j] = revbyte(p[j]);
			p += 8;
		}
		if (a->branch_sample_type & PERF_SAMPLE_BRANCH_COUNTERS)
			for (v = 0; v < n; v++)
				U64();
	}
	if (st & PERF_SAMPLE_REGS_USER) {
		NEED(8);
		swap64(p);
		v = get64(p);
		p += 8;
		if (v)
			for (n = __builtin_popcountll(a->sample_regs_user); n; n--)
				U64();
	}
	if (st & PERF_SAMPLE_STACK_USER) {
		NEED(8);
		swap64(p);
		v = get64(p);
		p += 8;
		if (v) {
			if (v > (u64)(end - p))
				return -EFAULT;
			p += v;
			U64();
		}
	}
	if (st & PERF_SAMPLE_WEIGHT_TYPE)
		U64();
	if (st & PERF_SAMPLE_DATA_SRC)
		U64();
	if (st & PERF_SAMPLE_TRANSACTION)
		U64();
	if (st & PERF_SAMPLE_REGS_INTR) {
		NEED(8);
		swap64(p);
		v = get64(p);
		p += 8;
		if (v)
			for (n = __builtin_popcountll(a->sample_regs_intr); n; n--)
				U64();
	}
	if (st & PERF_SAMPLE_PHYS_ADDR)
		U64();
	if (st & PERF_SAMPLE_CGROUP)
		U64();
	if (st & PERF_SAMPLE_DATA_PAGE_SIZE)
		U64();
	if (st & PERF_SAMPLE_CODE_PAGE_SIZE)
		U64();
	if (st & PERF_SAMPLE_AUX) {
		NEED(8);
		swap64(p);
		p += 8;
	}
	return 0;
}

/* the sample_id_all trailer at the end of [start, end) */
static int swap_trailer(const struct evsel *evsel, u8 *start, u8 *end)
{
	u64 st = evsel->attr.sample_type;
	u8 *p = end;

#define BACK(pair)                      \
	do {                            \
		if (p - 8 < start)      \
			return -EFAULT; \
		p -= 8;                 \
		if (pair) {             \
			swap32(p);      \
			swap32(p + 4);  \
		} else {                \
			swap64(p);      \
		}                       \
	} while (0)

	if (!evsel->attr.sample_id_all)
		return 0;
	if (st & PERF_SAMPLE_IDENTIFIER)
		BACK(0);
	if (st & PERF_SAMPLE_CPU)
		BACK(1);
	if (st & PERF_SAMPLE_STREAM_ID)
		BACK(0);
	if (st & PERF_SAMPLE_ID)
		BACK(0);
	if (st & PERF_SAMPLE_TIME)
		BACK(0);
	if (st & PERF_SAMPLE_TID)
		BACK(1);
	return p - start;
}

/* swaps @n64 u64s then @n32 u32s, from p */
static int swap_fixed(u8 *p, u8 *end, int n64, int n32)
{
	if ((u64)(end - p) < (u64)n64 * 8 + (u64)n32 * 4)
		return -EFAULT;
	while (n64--) {
		swap64(p);
		p += 8;
	}
	while (n32--) {
		swap32(p);
		p += 4;
	}
	return 0;
}

static int swap_u32s_u64s(u8 *p, u8 *end, int n32, int n64)
{
	if ((u64)(end - p) < (u64)n64 * 8 + (u64)n32 * 4)
		return -EFAULT;
	while (n32--) {
		swap32(p);
		p += 4;
	}
	while (n64--) {
		swap64(p);
		p += 8;
	}
	return 0;
}

static void swap_all64(u8 *p, u8 *end)
{
	while (end - p >= 8) {
		swap64(p);
		p += 8;
	}
}

int perf_event__swap(union perf_event *event, struct evlist *evlist)
{
	u8 *base = (u8 *)event, *p = base + 8, *end;
	struct evsel *evsel = NULL;
	int err = 0, tlen;

	perf_event_header__swap(event);
	if (event->header.size < 8)
		return -EFAULT;
	end = base + event->header.size;

	if (event->header.type == PERF_RECORD_SAMPLE) {
		struct evsel *first = evlist->nr_entries ? evlist->entries[0] : NULL;
		u64 id;

		if (!first)
			return -EFAULT;
		evsel = first;
		if (evlist->nr_entries > 1 && first->id_pos >= 0 &&
		    (u64)(first->id_pos + 1) * 8 <= (u64)(end - p)) {
			id = __builtin_bswap64(get64(p + first->id_pos * 8));
			evsel = evlist__id2evsel(evlist, id) ?: first;
		}
		return swap_sample(evsel, p, end);
	}

	if (event->header.type < PERF_RECORD_USER_TYPE_START && evlist->nr_entries) {
		evsel = evlist->entries[0];
		tlen = swap_trailer(evsel, p, end);
		if (tlen < 0)
			return tlen;
		end = p + tlen;
	}

	switch (event->header.type) {
	case PERF_RECORD_MMAP:
		err = swap_u32s_u64s(p, end, 2, 3);
		break;
	case PERF_RECORD_MMAP2:
		err = swap_u32s_u64s(p, end, 2, 3);
		if (err || (u64)(end - p) < 48 + 8)
			return -EFAULT;
		if (!(event->header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID_BIT))
			err = swap_u32s_u64s(p + 32, end, 2, 2);
		if (!err)
			err = swap_u32s_u64s(p + 56, end, 2, 0);
		break;
	case PERF_RECORD_COMM:
	case PERF_RECORD_ITRACE_START:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		err = swap_u32s_u64s(p, end, 2, 0);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		err = swap_u32s_u64s(p, end, 4, 1);
		break;
	case PERF_RECORD_READ:
		err = swap_u32s_u64s(p, end, 2, 0);
		if (!err)
			swap_all64(p + 8, end);
		break;
	case PERF_RECORD_NAMESPACES:
		err = swap_u32s_u64s(p, end, 2, 0);
		if (!err)
			swap_all64(p + 8, end);
		break;
	case PERF_RECORD_CGROUP:
		err = swap_fixed(p, end, 1, 0);
		break;
	case PERF_RECORD_KSYMBOL:
		err = swap_fixed(p, end, 1, 1);
		if (!err && end - p >= 16) {
			swap16(p + 12);
			swap16(p + 14);
		}
		break;
	case PERF_RECORD_BPF_EVENT:
		if (end - p < 8)
			return -EFAULT;
		swap16(p);
		swap16(p + 2);
		swap32(p + 4);
		break;
	case PERF_RECORD_TEXT_POKE:
		err = swap_fixed(p, end, 1, 0);
		if (!err && end - p >= 12) {
			swap16(p + 8);
			swap16(p + 10);
		}
		break;
	case PERF_RECORD_HEADER_ATTR: {
		u32 asz;

		if (end - p < PERF_ATTR_SIZE_VER0)
			return -EFAULT;
		memcpy(&asz, p + 4, 4);
		asz = __builtin_bswap32(asz) ?: PERF_ATTR_SIZE_VER0;
		if (asz > (u64)(end - p))
			return -EFAULT;
		perf_event_attr__swap(p, asz);
		swap_all64(p + asz, end);
		break;
	}
	case PERF_RECORD_HEADER_TRACING_DATA:
		err = swap_fixed(p, end, 0, 1);
		break;
	case PERF_RECORD_HEADER_BUILD_ID:
		err = swap_fixed(p, end, 0, 1);
		break;
	case PERF_RECORD_HEADER_EVENT_TYPE:
	case PERF_RECORD_HEADER_FEATURE:
		err = swap_fixed(p, end, 1, 0);
		break;
	case PERF_RECORD_AUXTRACE_INFO:
		err = swap_fixed(p, end, 0, 2);
		if (!err)
			swap_all64(p + 8, end);
		break;
	case PERF_RECORD_AUXTRACE:
		err = swap_fixed(p, end, 3, 4);
		break;
	case PERF_RECORD_EVENT_UPDATE:
		err = swap_fixed(p, end, 2, 0);
		break;
	case PERF_RECORD_COMPRESSED2:
		err = swap_fixed(p, end, 1, 0);
		break;
	case PERF_RECORD_COMPRESSED:
	case PERF_RECORD_FINISHED_ROUND:
	case PERF_RECORD_FINISHED_INIT:
	case PERF_RECORD_SWITCH:
		break;
	default:
		/* ID_INDEX, THREAD_MAP, TIME_CONV, LOST, THROTTLE, AUX, ...: u64s */
		swap_all64(p, end);
		break;
	}
	return err;
}
