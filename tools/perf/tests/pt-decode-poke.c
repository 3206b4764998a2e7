// SPDX-License-Identifier: GPL-2.0-only
/*
 * A trace that runs across a poke decodes each instruction with the bytes
 * live at its time, and unknown code gives an error and a resync at the
 * next PSB.  The trace is encoded here with libipt's packet encoder over a
 * tiny kernel made of TEXT_POKE records alone:
 *
 *   K+0x00: nop5 (0f 1f 44 00 00), a jump label: jmp K+0x10 from T_POKE
 *   K+0x05: je K+0x10 (74 09)
 *   K+0x10: jmp *%rax (ff e0)
 *
 * Segment 1: PSB MODE.exec TSC(1000) PSBEND TIP.PGE(K) TNT(taken) TSC(3000)
 * TIP(K) TIP.PGD: the first pass runs nop5, je (taken), jmp*; the second,
 * after the poke (T_POKE = 2000), jmp K+0x10 and jmp*, which disables.
 * Segment 2: PSB MODE.exec TSC(4000) PSBEND TIP.PGE(K+0x100): no code
 * there: an error naming the address and time, and the decode goes on to
 * segment 3, PSB MODE.exec TSC(5000) FUP(K) PSBEND TIP.PGD: tracing still
 * on at K (no new start of the trace after an error, as perf), jmp (the
 * poked label), jmp* leaving the traced code.
 * Expected items are written out by hand from that listing.
 *
 * Mutation caught: reading kernel bytes at a fixed time (time 0 in
 * ipt_read_memory) decodes the second pass with the nop5 and fails there.
 */
#include <stdlib.h>
#include <string.h>

#include "tests.h"
#include "../util/auxtrace.h"
#include "../util/header.h"
#include "../util/intel-pt-decode.h"
#include "../util/text-image.h"

#ifdef HAVE_LIBIPT
#include <intel-pt.h>

#define K 0xffffffff81000000ULL
#define T_POKE 2000

static int enc(struct pt_encoder *e, enum pt_packet_type type, u64 v)
{
	struct pt_packet p;

	memset(&p, 0, sizeof(p));
	p.type = type;
	switch (type) {
	case ppt_tsc:
		p.payload.tsc.tsc = v;
		break;
	case ppt_tip:
	case ppt_fup:
	case ppt_tip_pge:
	case ppt_tip_pgd: /* the target of the branch that leaves the traced code */
		p.payload.ip.ipc = pt_ipc_sext_48;
		p.payload.ip.ip = v;
		break;
	case ppt_tnt_8:
		p.payload.tnt.bit_size = 1;
		p.payload.tnt.payload = v;
		break;
	case ppt_mode:
		p.payload.mode.leaf = pt_mol_exec;
		p.payload.mode.bits.exec.csl = 1;
		break;
	default:
		break;
	}
	return pt_enc_next(e, &p);
}

static int segment_start(struct pt_encoder *e, u64 tsc, u64 ip)
{
	if (enc(e, ppt_psb, 0) < 0 || enc(e, ppt_mode, 0) < 0 || enc(e, ppt_tsc, tsc) < 0 ||
	    enc(e, ppt_psbend, 0) < 0 || enc(e, ppt_tip_pge, ip) < 0)
		return -1;
	return 0;
}

/* the trace, into @buf: its length or -1 */
static long encode(u8 *buf, size_t size)
{
	struct pt_config config;
	struct pt_encoder *e;
	uint64_t off = 0;
	int err = 0;

	pt_config_init(&config);
	config.begin = buf;
	config.end = buf + size;
	e = pt_alloc_encoder(&config);
	if (!e)
		return -1;
	err |= segment_start(e, 1000, K);
	err |= enc(e, ppt_tnt_8, 1) < 0;
	err |= enc(e, ppt_tsc, 3000) < 0;
	err |= enc(e, ppt_tip, K) < 0;
	err |= enc(e, ppt_tip_pgd, K + 0x200) < 0;
	err |= segment_start(e, 4000, K + 0x100);
	/* tracing still on: PSB+ carries a FUP of where it is */
	err |= enc(e, ppt_psb, 0) < 0 || enc(e, ppt_mode, 0) < 0 || enc(e, ppt_tsc, 5000) < 0;
	err |= enc(e, ppt_fup, K) < 0 || enc(e, ppt_psbend, 0) < 0;
	err |= enc(e, ppt_tip_pgd, K + 0x200) < 0;
	if (pt_enc_get_offset(e, &off) < 0)
		err = 1;
	pt_free_encoder(e);
	return err ? -1 : (long)off;
}

/* a TEXT_POKE record of @old -> @new at @addr, given to the image at @time */
static int poke(struct text_image *ti, u64 addr, const u8 *old, u16 old_len, const u8 *new,
		u16 new_len, u64 time)
{
	u8 rec[256] __attribute__((aligned(8)));
	union perf_event *ev = (union perf_event *)rec;
	struct perf_sample sample;

	memset(rec, 0, sizeof(rec));
	memset(&sample, 0, sizeof(sample));
	ev->header.type = PERF_RECORD_TEXT_POKE;
	ev->header.size = (sizeof(ev->text_poke) + old_len + new_len + 7) & ~7U;
	ev->text_poke.addr = addr;
	ev->text_poke.old_len = old_len;
	ev->text_poke.new_len = new_len;
	if (old_len)
		memcpy(ev->text_poke.bytes, old, old_len);
	memcpy(ev->text_poke.bytes + old_len, new, new_len);
	sample.time = time;
	sample.cpumode = PERF_RECORD_MISC_KERNEL;
	return text_image__process_event(ti, NULL, ev, &sample);
}

struct want {
	enum intel_pt_item_type type;
	u64 ip, addr;
	u32 flags;
	u64 time;
};

static int test__pt_decode_poke(struct test_suite *t)
{
	static const u8 code[0x12] = {0x0f, 0x1f, 0x44, 0x00, 0x00, 0x74, 0x09, 0x90, 0x90,
				      0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0xff, 0xe0};
	static const u8 jmp[5] = {0xe9, 0x0b, 0x00, 0x00, 0x00}; /* K+5+0xb = K+0x10 */
	const u32 B = IPT_FLAG_BRANCH;
	/*
	 * perf's timing model: an instruction has the time of the packets
	 * its branch (or the latest branch before it) consumed
	 */
	const struct want want[] = {
	    {IPT_ITEM_BRANCH, 0, K, B | IPT_FLAG_TRACE_BEGIN, 1000},
	    {IPT_ITEM_BRANCH, K + 5, K + 0x10, B | IPT_FLAG_CONDITIONAL, 1000},
	    {IPT_ITEM_BRANCH, K + 0x10, K, B, 3000},
	    /* after the poke: the jump label's jmp, then jmp* leaving the traced code */
	    {IPT_ITEM_BRANCH, K, K + 0x10, B, 3000},
	    {IPT_ITEM_BRANCH, K + 0x10, K + 0x200, B | IPT_FLAG_TRACE_END, 3000},
	    {IPT_ITEM_BRANCH, 0, K + 0x100, B | IPT_FLAG_TRACE_BEGIN, 4000},
	    {IPT_ITEM_ERROR, K + 0x100, 0, 0, 4000},
	    /* the jump label is a jmp at 5000: no TNT for it */
	    {IPT_ITEM_BRANCH, K, K + 0x10, B, 5000},
	    {IPT_ITEM_BRANCH, K + 0x10, K + 0x200, B | IPT_FLAG_TRACE_END, 5000},
	};
	struct intel_pt_info info;
	struct intel_pt_opts po = {0};
	struct text_image_opts opts = {0};
	struct perf_env env;
	struct auxtrace at;
	struct intel_pt *pt = NULL;
	struct text_image *ti = NULL;
	struct intel_pt_item item;
	union perf_event rec;
	const char *why;
	u8 trace[512];
	long len;
	size_t i = 0;
	int ret = TEST_FAIL, n;

	(void)t;
	memset(&env, 0, sizeof(env));
	memset(&info, 0, sizeof(info));
	info.tc.time_mult = 1; /* perf time = TSC */
	info.per_cpu_mmaps = true;
	auxtrace__init(&at);
	len = encode(trace, sizeof(trace));
	TEST_ASSERT_VAL("encode", len > 0);
	opts.no_kcore = true;
	ti = text_image__new(&env, NULL, &opts);
	TEST_ASSERT_VAL("image", ti);
	if (poke(ti, K, NULL, 0, code, sizeof(code), 1) || poke(ti, K, code, 5, jmp, 5, T_POKE) ||
	    text_image__finish(ti)) {
		pr_debug("the pokes were refused\n");
		goto out;
	}
	memset(&rec, 0, sizeof(rec));
	rec.auxtrace.header.type = PERF_RECORD_AUXTRACE;
	rec.auxtrace.header.size = sizeof(rec.auxtrace);
	rec.auxtrace.size = len;
	if (auxtrace__add_buffer(&at, &rec, 0x1000, true, &why) || auxtrace__data(&at, trace, len))
		goto out;
	pt = intel_pt__new(&info, "GenuineIntel,6,78,3", NULL, ti, &at, &po);
	if (!pt)
		goto out;
	while ((n = intel_pt__next(pt, 0, &item)) == 1) {
		pr_debug("item %d %#llx -> %#llx flags %#x time %llu %s\n", item.type,
			 (unsigned long long)item.ip, (unsigned long long)item.addr, item.flags,
			 (unsigned long long)item.time, item.msg);
		if (i >= sizeof(want) / sizeof(want[0])) {
			pr_debug("an item more than expected\n");
			goto out;
		}
		if (item.type != want[i].type || item.ip != want[i].ip ||
		    (item.type == IPT_ITEM_BRANCH &&
		     (item.addr != want[i].addr || item.flags != want[i].flags)) ||
		    item.time != want[i].time) {
			pr_debug("item %zu is not the expected one\n", i);
			goto out;
		}
		if (item.type == IPT_ITEM_ERROR &&
		    !strstr(item.msg, "code bytes unknown at 0xffffffff81000100 at 0.000004000")) {
			pr_debug("error message: %s\n", item.msg);
			goto out;
		}
		i++;
	}
	if (n < 0 || i != sizeof(want) / sizeof(want[0])) {
		pr_debug("%zu items, %zu expected (%d)\n", i, sizeof(want) / sizeof(want[0]), n);
		goto out;
	}
	ret = TEST_OK;
out:
	intel_pt__delete(pt);
	text_image__delete(ti);
	auxtrace__exit(&at);
	return ret;
}
#else
static int test__pt_decode_poke(struct test_suite *t)
{
	test_skip(t, "built without libipt");
	return TEST_SKIP;
}
#endif

struct test_suite suite__pt_decode_poke = {
    .desc = "pt-decode: a trace across a poke decodes with the bytes live at each time",
    .func = test__pt_decode_poke,
};
