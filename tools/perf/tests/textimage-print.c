// SPDX-License-Identifier: GPL-2.0-only
/*
 * The printers the script layer calls: insn, disasm, the poked marker,
 * and each TEXT_POKE decoded as "old -> new (verdict)".  A kprobe's int3
 * disassembles as the instruction its slot holds, tagged "[kprobed]",
 * while insn prints the bytes memory held, as long as that (a second
 * recording, FK_KPROBE_SLOT, with two other probes' slots around it), or
 * as "int3 [kprobed]" with no slot; expected values by hand from the
 * fixture's description.
 * Mutation caught: kprobe_site__find() not comparing the slot's length
 * with the site's: the later "48 8b 45 f8 cc" slot is taken, ilen 4.
 * Mutation caught: text_poke__scnprintf_insn() not asking
 * kprobe_site__find(): " insn: cc" without the tag.
 * Mutation caught: kprobe_armed() taking the optimizer's 5-byte pokes
 * for a disarming: " insn: cc" once the jmp is taken back.
 * Mutation caught: kprobe_site__find() not reading the detour: the
 * optimized probe prints " insn: e9 f7 fc 00 1f".
 */
#include <stdlib.h>
#include <string.h>

#include "tests.h"
#include "fixture-kernel.h"
#include "../util/machine.h"
#include "../util/text-image.h"
#include "../util/text-poke-print.h"

struct want_event {
	u64 time;
	const char *text;
};

static const struct want_event want_events[] = {
    {2000, "  nop5 -> jmp fk_jl5_fn+0x44 (verified)"},
    {2010, "  nop2 -> jmp fk_jl2_fn+0x16 (verified)"},
    {2020, "  call fk_target_a -> call fk_target_b (verified)"},
    {2030, "  nop5 -> call ftrace_caller (verified)"},
    {2040, "  48 -> int3 (verified)"},
    /* new code has no old bytes to check: unknown (capstone 4 spells movq) */
    {3001, "  (none) -> push %rbp; movq %rsp,%rbp; call fk_target_a; ... (32 bytes) (unknown)"},
    {3200, "  push %rbp; movq %rsp,%rbp; call fk_target_a; ... (32 bytes) -> (none) (verified)"},
    {5000, "  jmp fk_jl5_fn+0x44 -> nop5 (verified)"},
    {5040, "  int3 -> 48 (verified)"},
};

struct events_ctx {
	struct text_image *ti;
	struct text_poke_sym ks;
	int nr_ok, nr_bad;
};

/* rebuild each poke's record, as the script layer would hold it */
static int on_check(const struct textpoke_check *c, void *arg)
{
	struct events_ctx *ctx = arg;
	const struct textpoke_poke *p = &c->poke;
	union {
		struct perf_record_text_poke tp;
		u8 raw[sizeof(struct perf_record_text_poke) + 2 * FK_TRAMP_BODY];
	} rec;
	char buf[256];
	size_t i;

	if (p->old_len + p->new_len > 2 * FK_TRAMP_BODY)
		return 0;
	rec.tp.addr = p->addr;
	rec.tp.old_len = p->old_len;
	rec.tp.new_len = p->new_len;
	memcpy(rec.tp.bytes, p->old_bytes, p->old_len);
	memcpy(rec.tp.bytes + p->old_len, p->new_bytes, p->new_len);
	ctx->ks.time = p->time;
	text_poke__scnprintf_event(buf, sizeof(buf), ctx->ti, &rec.tp, p->time, text_poke__sym,
				   &ctx->ks);
	for (i = 0; i < ARRAY_SIZE(want_events); i++) {
		if (FK_T0 + want_events[i].time != p->time)
			continue;
		if (strcmp(buf, want_events[i].text)) {
			pr_debug("poke at %llu: '%s', expected '%s'\n", (unsigned long long)p->time,
				 buf, want_events[i].text);
			ctx->nr_bad++;
		} else {
			ctx->nr_ok++;
		}
	}
	return 0;
}

static int expect_str(const char *what, const char *got, const char *want)
{
	if (!strcmp(got, want))
		return 0;
	pr_debug("%s: '%s', expected '%s'\n", what, got, want);
	return -1;
}

/*
 * With the kprobe's slot in the recording (FK_KPROBE_SLOT): the probed
 * "48 89 e5" (mov %rsp,%rbp) while the int3 is there, tagged, its insn
 * the bytes memory held (cc 89 e5; e9 and the jmp's rel32 0x1f00fcf7
 * while optimized); as it is, untagged, before the arming and after the
 * disarming
 */
static int check_kprobe_slot(void)
{
	struct fixture_kernel *fk = fixture_kernel__new(FK_KPROBE_SLOT);
	struct text_image *ti = fk ? text_image__load(fk->path, NULL) : NULL;
	char buf[256];
	int err = 0;

	if (!ti) {
		pr_debug("the FK_KPROBE_SLOT fixture does not load\n");
		err = -1;
		goto out;
	}
	text_poke__scnprintf_insn(buf, sizeof(buf), ti, FK_KPROBE_SITE, FK_T0 + 2104);
	err |= expect_str("insn kprobed", buf, " insn: cc 89 e5 [kprobed]");
	text_poke__scnprintf_disasm(buf, sizeof(buf), ti, FK_KPROBE_SITE, FK_T0 + 2104, NULL, NULL);
	/* capstone 4 spells movq */
	err |= expect_str("disasm kprobed", buf, " movq %rsp,%rbp [kprobed]");
	if (text_poke__insn_len(ti, FK_KPROBE_SITE, FK_T0 + 2104) != 3)
		err |= expect_str("ilen kprobed", "not 3", "3");
	/* optimized: the copy in the detour; then int3 again, the probe still armed */
	text_poke__scnprintf_insn(buf, sizeof(buf), ti, FK_KPROBE_SITE, FK_T0 + 2200);
	err |= expect_str("insn optimized", buf, " insn: e9 f7 fc [kprobed, optimized]");
	text_poke__scnprintf_disasm(buf, sizeof(buf), ti, FK_KPROBE_SITE, FK_T0 + 2200, NULL, NULL);
	err |= expect_str("disasm optimized", buf, " movq %rsp,%rbp [kprobed, optimized]");
	if (text_poke__insn_len(ti, FK_KPROBE_SITE, FK_T0 + 2200) != 3)
		err |= expect_str("ilen optimized", "not 3", "3");
	text_poke__scnprintf_insn(buf, sizeof(buf), ti, FK_KPROBE_SITE, FK_T0 + 2300);
	err |= expect_str("insn unoptimized", buf, " insn: cc 89 e5 [kprobed]");
	text_poke__scnprintf_insn(buf, sizeof(buf), ti, FK_KPROBE_SITE, FK_T0 + 1004);
	err |= expect_str("insn before the kprobe", buf, " insn: 48 89 e5");
	text_poke__scnprintf_insn(buf, sizeof(buf), ti, FK_KPROBE_SITE, FK_T0 + 5104);
	err |= expect_str("insn after the kprobe", buf, " insn: 48 89 e5");
out:
	text_image__delete(ti);
	fixture_kernel__delete(fk);
	return err;
}

static int test__textimage_print(struct test_suite *t)
{
	struct fixture_kernel *fk = fixture_kernel__new(0);
	struct events_ctx ctx = {0};
	struct text_image *ti = NULL;
	int ret = TEST_FAIL, err = 0;
	char buf[256];

	TEST_ASSERT_VAL("fixture", fk);
	ti = text_image__load(fk->path, NULL);
	if (!ti)
		goto out;
	ctx.ti = ti;
	ctx.ks.thread = machine__findnew_thread(text_image__machine(ti), 0, 0);
	textpoke_image__for_each_check(text_image__image(ti), on_check, &ctx);
	if (ctx.nr_bad || ctx.nr_ok != (int)ARRAY_SIZE(want_events)) {
		pr_debug("%d pokes printed as expected of %zu\n", ctx.nr_ok,
			 ARRAY_SIZE(want_events));
		goto out;
	}

	text_poke__scnprintf_insn(buf, sizeof(buf), ti, FK_JL5_SITE, FK_T0 + 2100);
	err |= expect_str("insn", buf, " insn: e9 3b 00 00 00");
	/* no slot in this recording: the int3 alone, tagged */
	text_poke__scnprintf_insn(buf, sizeof(buf), ti, FK_KPROBE_SITE, FK_T0 + 2104);
	err |= expect_str("insn kprobe", buf, " insn: cc [kprobed]");
	text_poke__scnprintf_disasm(buf, sizeof(buf), ti, FK_KPROBE_SITE, FK_T0 + 2104, NULL, NULL);
	err |= expect_str("disasm kprobe", buf, " int3 [kprobed]");
	if (text_poke__insn_len(ti, FK_KPROBE_SITE, FK_T0 + 2104) != 1)
		err |= expect_str("ilen kprobe", "not 1", "1");
	/* nothing known there: nothing printed, as perf does */
	text_poke__scnprintf_insn(buf, sizeof(buf), ti, FK_TRAMP, FK_T0 + 2000);
	err |= expect_str("insn unknown", buf, "");
	ctx.ks.time = FK_T0 + 2100;
	text_poke__scnprintf_disasm(buf, sizeof(buf), ti, FK_JL5_SITE, FK_T0 + 2100, text_poke__sym,
				    &ctx.ks);
	err |= expect_str("disasm", buf, " jmp fk_jl5_fn+0x44");
	text_poke__scnprintf_disasm(buf, sizeof(buf), ti, FK_JL5_SITE, FK_T0 + 1000, NULL, NULL);
	err |= expect_str("disasm before", buf, " nopl (%rax,%rax)");

	text_poke__scnprintf_marker(buf, sizeof(buf), ti, FK_JL5_SITE, FK_T0 + 1000);
	err |= expect_str("marker before", buf, "");
	text_poke__scnprintf_marker(buf, sizeof(buf), ti, FK_JL5_SITE, FK_T0 + 2100);
	err |= expect_str("marker after", buf, " [poked 1.000002000]");
	/* the instruction before the site does not reach it */
	text_poke__scnprintf_marker(buf, sizeof(buf), ti, FK_JL5_SITE - 3, FK_T0 + 2100);
	err |= expect_str("marker beside", buf, "");
	/* a JIT image is not a poke */
	text_poke__scnprintf_marker(buf, sizeof(buf), ti, FK_BPF + 5, FK_T0 + 4400);
	err |= expect_str("marker bpf", buf, "");
	if (!err)
		err = check_kprobe_slot();
	if (!err)
		ret = TEST_OK;
out:
	thread__put(ctx.ks.thread);
	text_image__delete(ti);
	fixture_kernel__delete(fk);
	return ret;
}

struct test_suite suite__textimage_print = {
    .desc = "textimage: insn, disasm, poked marker and decoded text poke events",
    .func = test__textimage_print,
};
