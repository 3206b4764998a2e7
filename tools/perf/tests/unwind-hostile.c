// SPDX-License-Identifier: GPL-2.0-only
/*
 * The DWARF unwinder (util/unwind.h) on stacks that lie: dumps that are
 * empty, 8 bytes, or shorter than their dyn_size says, registers that put
 * the next frame outside the dump or below it, a frame whose saved frame
 * pointer points at itself (a loop), registers of -1 (a kernel-mode
 * sample), ABI words 0, 1 (with a 64-bit object), 3 and 7, masks without
 * SP or IP and masks whose registers are packed around missing ones.
 * Each walk must end cleanly with the frame count and return value that
 * unwind.h promises, and the stats must say why.
 *
 * The code is this binary's own: five functions in assembly below whose
 * CFI is written by hand, so that the CFA of every frame is known without
 * asking the unwinder: at the entry of unwind_hostile_a..d the CFA is
 * SP + 8 (the return address at SP), and in unwind_hostile_fp's body
 * (after push %rbp; mov %rsp,%rbp) it is RBP + 16, the caller's RBP at
 * RBP; unwind_hostile_fpx says the same with a CFA expression, as main's
 * CFI does where gcc realigns the stack, one that the unwinder's kept
 * "register + offset" rules cannot take (libdw's walk must: the stats
 * count it in nr_slow_walks).  A stack of return addresses X + 1 makes a chain of known frames
 * (the unwinder reports a caller at return address - 1: X).  The thread
 * maps this binary's text where this process has it (/proc/self/maps),
 * and each dump ends at a PROT_NONE page: a read past the sample's bytes
 * crashes the test, sanitizer or not (unwind-fixture.h, shared with the
 * unwind fuzz target).
 *
 * Mutation caught: uw_walk__regs() taking r->regs[bit] instead of the
 * packed index (the SP+IP-only mask reads past its two registers: no
 * chain).  Mutation caught: the loop check removed, in uw_walk__fast()
 * or in uw__frame() (libdw's walk) (the self-pointing frame repeats up
 * to the frame limit: 127 frames, not 2).  Mutation caught:
 * stack_len taken as dyn_size even when larger than size (the read past
 * the dump hits the guard page).  Mutation caught: unwind__sample_has_stack()
 * not asking for a dyn_size (a dump the kernel copied nothing into is
 * unwound, where stock perf gives no user frame).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"
#include "unwind-fixture.h"
#include "../util/machine.h"
#include "../util/unwind.h"

#ifdef __x86_64__
/* nop; ret with the entry's CFI (CFA = rsp + 8) each, and a frame-pointer function */
asm(".text\n"
    ".p2align 4\n"
    ".globl unwind_hostile_a\n"
    ".hidden unwind_hostile_a\n"
    ".type unwind_hostile_a, @function\n"
    "unwind_hostile_a:\n"
    ".cfi_startproc\n"
    "nop\n"
    "nop\n"
    "ret\n"
    ".cfi_endproc\n"
    ".size unwind_hostile_a, .-unwind_hostile_a\n"
    ".p2align 4\n"
    ".globl unwind_hostile_b\n"
    ".hidden unwind_hostile_b\n"
    ".type unwind_hostile_b, @function\n"
    "unwind_hostile_b:\n"
    ".cfi_startproc\n"
    "nop\n"
    "nop\n"
    "ret\n"
    ".cfi_endproc\n"
    ".size unwind_hostile_b, .-unwind_hostile_b\n"
    ".p2align 4\n"
    ".globl unwind_hostile_c\n"
    ".hidden unwind_hostile_c\n"
    ".type unwind_hostile_c, @function\n"
    "unwind_hostile_c:\n"
    ".cfi_startproc\n"
    "nop\n"
    "nop\n"
    "ret\n"
    ".cfi_endproc\n"
    ".size unwind_hostile_c, .-unwind_hostile_c\n"
    ".p2align 4\n"
    ".globl unwind_hostile_d\n"
    ".hidden unwind_hostile_d\n"
    ".type unwind_hostile_d, @function\n"
    "unwind_hostile_d:\n"
    ".cfi_startproc\n"
    "nop\n"
    "nop\n"
    "ret\n"
    ".cfi_endproc\n"
    ".size unwind_hostile_d, .-unwind_hostile_d\n"
    ".p2align 4\n"
    ".type unwind_hostile_fp, @function\n"
    "unwind_hostile_fp:\n"
    ".cfi_startproc\n"
    "push %rbp\n"
    ".cfi_def_cfa_offset 16\n"
    ".cfi_offset %rbp, -16\n"
    "mov %rsp, %rbp\n"
    ".cfi_def_cfa_register %rbp\n"
    ".globl unwind_hostile_fp_body\n"
    ".hidden unwind_hostile_fp_body\n"
    "unwind_hostile_fp_body:\n"
    "nop\n"
    "nop\n"
    "pop %rbp\n"
    ".cfi_def_cfa %rsp, 8\n"
    "ret\n"
    ".cfi_endproc\n"
    ".size unwind_hostile_fp, .-unwind_hostile_fp\n"
    ".p2align 4\n"
    ".type unwind_hostile_fpx, @function\n"
    "unwind_hostile_fpx:\n"
    ".cfi_startproc\n"
    "push %rbp\n"
    ".cfi_def_cfa_offset 16\n"
    ".cfi_offset %rbp, -16\n"
    "mov %rsp, %rbp\n"
    /*
     * DW_CFA_def_cfa_expression { DW_OP_breg6 (rbp) 0; DW_OP_plus_uconst 16 }:
     * the same CFA, as an expression of two operations (what "register +
     * offset" shortcuts cannot take: libdw evaluates it)
     */
    ".cfi_escape 0x0f, 0x04, 0x76, 0x00, 0x23, 0x10\n"
    ".globl unwind_hostile_fpx_body\n"
    ".hidden unwind_hostile_fpx_body\n"
    "unwind_hostile_fpx_body:\n"
    "nop\n"
    "nop\n"
    "pop %rbp\n"
    ".cfi_def_cfa %rsp, 8\n"
    "ret\n"
    ".cfi_endproc\n"
    ".size unwind_hostile_fpx, .-unwind_hostile_fpx\n");

extern const char unwind_hostile_a[], unwind_hostile_b[], unwind_hostile_c[], unwind_hostile_d[];
extern const char unwind_hostile_fp_body[], unwind_hostile_fpx_body[];

#define PID 4242
#define STACK_ADDR 0x7ffd10000000ULL /* in no map of the thread */
#define NO_MAP_IP 0x10000ULL

/* perf's x86 register bits (asm/perf_regs.h) */
enum { BIT_AX, BIT_BX, BIT_CX, BIT_DX, BIT_SI, BIT_DI, BIT_BP, BIT_SP, BIT_IP };
#define MASK_ALL 0xff0fffULL /* what perf record --call-graph dwarf asks for on x86_64 */

struct hostile {
	struct unwind_fixture fx;
	u64 fn[4];    /* a, b, c, d: runtime addresses of this binary's code */
	u64 fp_body;  /* CFA = rbp + 16 as a register rule */
	u64 fpx_body; /* the same as a DWARF expression */
};

struct frames {
	u64 ip[200];
	unsigned int nr;
	unsigned int stop_at; /* return 7 from this frame (1-based), 0: never */
};

static int frame_cb(const struct unwind_frame *f, void *arg)
{
	struct frames *fr = arg;

	if (fr->nr < ARRAY_SIZE(fr->ip))
		fr->ip[fr->nr] = f->ip;
	fr->nr++;
	return fr->stop_at && fr->nr == fr->stop_at ? 7 : 0;
}

/*
 * The stack as the sample carries it: @words at the end of the first
 * page, so that the byte after the dump is the guard page's
 */
static const char *stack_of(struct hostile *h, const u64 *words, size_t nr, size_t bytes)
{
	u8 *dump = unwind_fixture__dump(&h->fx, bytes);

	memcpy(dump, words, bytes < nr * 8 ? bytes : nr * 8);
	return (const char *)dump;
}

/* the registers of mask MASK_ALL, packed, with @ip, @sp and @bp */
static void regs_all(u64 *regs, u64 ip, u64 sp, u64 bp)
{
	unsigned int idx = 0;

	for (unsigned int bit = 0; bit < 24; bit++) {
		if (!(MASK_ALL & (1ULL << bit)))
			continue;
		regs[idx++] = bit == BIT_IP ? ip :
			      bit == BIT_SP ? sp :
			      bit == BIT_BP ? bp :
					      0x1111 * bit;
	}
}

static void sample_init(struct perf_sample *s, u64 abi, u64 mask, const u64 *regs,
			const char *stack, u64 size, u64 dyn_size)
{
	memset(s, 0, sizeof(*s));
	s->pid = s->tid = PID;
	s->time = 100;
	s->cpumode = PERF_RECORD_MISC_USER;
	s->user_regs.abi = abi;
	s->user_regs.mask = mask;
	s->user_regs.regs = regs;
	s->user_stack.size = size;
	s->user_stack.dyn_size = dyn_size;
	s->user_stack.data = stack;
}

/* the walk, and what it did to the stats */
static int walk(struct hostile *h, const struct perf_sample *s, unsigned int max_stack,
		struct frames *fr, struct unwind_stats *delta)
{
	struct unwind_stats before = *unwinder__stats(h->fx.uw);
	const struct unwind_stats *after;
	int ret;

	ret = unwinder__walk(h->fx.uw, h->fx.thread, s, max_stack, frame_cb, fr);
	after = unwinder__stats(h->fx.uw);
	delta->nr_walks = after->nr_walks - before.nr_walks;
	delta->nr_frames = after->nr_frames - before.nr_frames;
	delta->nr_no_object = after->nr_no_object - before.nr_no_object;
	delta->nr_bad_stack = after->nr_bad_stack - before.nr_bad_stack;
	delta->nr_max_stack = after->nr_max_stack - before.nr_max_stack;
	delta->nr_objects_open = after->nr_objects_open - before.nr_objects_open;
	delta->nr_slow_walks = after->nr_slow_walks - before.nr_slow_walks;
	return ret;
}

#define CHECK_CHAIN(what, fr, nr_expected, ...)                                               \
	do {                                                                                  \
		const u64 __want[] = {__VA_ARGS__};                                           \
		TEST_ASSERT_EQUAL(what ": frames", (fr)->nr, nr_expected);                    \
		for (unsigned int __i = 0; __i < ARRAY_SIZE(__want) && __i < (fr)->nr; __i++) \
			TEST_ASSERT_EQUAL(what ": frame ip", (fr)->ip[__i], __want[__i]);     \
	} while (0)

/* a, b, c, d by their return addresses, a dump of 24 bytes: the fourth frame reads past it */
static int check_chains(struct hostile *h)
{
	const u64 words[] = {h->fn[1] + 1, h->fn[2] + 1, h->fn[3] + 1};
	u64 regs[24], two[2], extra[3];
	struct unwind_stats d;
	struct perf_sample s;
	struct frames fr;
	const char *st;

	regs_all(regs, h->fn[0], STACK_ADDR, 0);
	st = stack_of(h, words, 3, 24);

	memset(&fr, 0, sizeof(fr));
	sample_init(&s, PERF_SAMPLE_REGS_ABI_64, MASK_ALL, regs, st, 24, 24);
	TEST_ASSERT_VAL("has stack", unwind__sample_has_stack(
					 PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER, &s));
	TEST_ASSERT_EQUAL("chain", walk(h, &s, 127, &fr, &d), 0);
	CHECK_CHAIN("chain", &fr, 4, h->fn[0], h->fn[1], h->fn[2], h->fn[3]);
	TEST_ASSERT_EQUAL("chain: the read past the dump counted", d.nr_bad_stack, 1);
	TEST_ASSERT_EQUAL("chain: walks", d.nr_walks, 1);
	TEST_ASSERT_EQUAL("chain: stats frames", d.nr_frames, 4);
	TEST_ASSERT_EQUAL("chain: not cut by max_stack", d.nr_max_stack, 0);
	TEST_ASSERT_EQUAL("chain: an object found for every pc", d.nr_no_object, 0);

	/* the same again: the object is not opened twice */
	memset(&fr, 0, sizeof(fr));
	TEST_ASSERT_EQUAL("again", walk(h, &s, 127, &fr, &d), 0);
	CHECK_CHAIN("again", &fr, 4, h->fn[0], h->fn[1], h->fn[2], h->fn[3]);
	TEST_ASSERT_EQUAL("again: no object opened", d.nr_objects_open, 0);

	/* a dyn_size larger than the dump: still 24 bytes, not one more */
	memset(&fr, 0, sizeof(fr));
	sample_init(&s, PERF_SAMPLE_REGS_ABI_64, MASK_ALL, regs, st, 24, 4096);
	TEST_ASSERT_EQUAL("dyn_size > size", walk(h, &s, 127, &fr, &d), 0);
	CHECK_CHAIN("dyn_size > size", &fr, 4, h->fn[0], h->fn[1], h->fn[2], h->fn[3]);
	TEST_ASSERT_EQUAL("dyn_size > size: bad stack", d.nr_bad_stack, 1);

	/* a dyn_size of 8: what the kernel copied ends after b's return address */
	memset(&fr, 0, sizeof(fr));
	sample_init(&s, PERF_SAMPLE_REGS_ABI_64, MASK_ALL, regs, st, 24, 8);
	TEST_ASSERT_EQUAL("dyn_size 8", walk(h, &s, 127, &fr, &d), 0);
	CHECK_CHAIN("dyn_size 8", &fr, 2, h->fn[0], h->fn[1]);
	TEST_ASSERT_EQUAL("dyn_size 8: bad stack", d.nr_bad_stack, 1);

	/* an 8-byte dump */
	memset(&fr, 0, sizeof(fr));
	sample_init(&s, PERF_SAMPLE_REGS_ABI_64, MASK_ALL, regs, stack_of(h, words, 1, 8), 8, 8);
	TEST_ASSERT_EQUAL("8 bytes", walk(h, &s, 127, &fr, &d), 0);
	CHECK_CHAIN("8 bytes", &fr, 2, h->fn[0], h->fn[1]);
	TEST_ASSERT_EQUAL("8 bytes: bad stack", d.nr_bad_stack, 1);

	/* a 3-byte dump: not even a return address */
	memset(&fr, 0, sizeof(fr));
	sample_init(&s, PERF_SAMPLE_REGS_ABI_64, MASK_ALL, regs, stack_of(h, words, 1, 3), 3, 3);
	TEST_ASSERT_EQUAL("3 bytes", walk(h, &s, 127, &fr, &d), 0);
	CHECK_CHAIN("3 bytes", &fr, 1, h->fn[0]);
	TEST_ASSERT_EQUAL("3 bytes: bad stack", d.nr_bad_stack, 1);

	/* max_stack 2, then a callback that stops the walk at the second frame */
	st = stack_of(h, words, 3, 24);
	memset(&fr, 0, sizeof(fr));
	sample_init(&s, PERF_SAMPLE_REGS_ABI_64, MASK_ALL, regs, st, 24, 24);
	TEST_ASSERT_EQUAL("max_stack 2", walk(h, &s, 2, &fr, &d), 0);
	CHECK_CHAIN("max_stack 2", &fr, 2, h->fn[0], h->fn[1]);
	TEST_ASSERT_EQUAL("max_stack 2: counted", d.nr_max_stack, 1);
	memset(&fr, 0, sizeof(fr));
	fr.stop_at = 2;
	TEST_ASSERT_EQUAL("callback's value", walk(h, &s, 127, &fr, &d), 7);
	TEST_ASSERT_EQUAL("callback stops the walk", fr.nr, 2);

	/* only SP and IP sampled, packed in bit order: SP first */
	two[0] = STACK_ADDR;
	two[1] = h->fn[0];
	memset(&fr, 0, sizeof(fr));
	sample_init(&s, PERF_SAMPLE_REGS_ABI_64, (1ULL << BIT_SP) | (1ULL << BIT_IP), two, st, 24,
		    24);
	TEST_ASSERT_EQUAL("SP+IP mask", walk(h, &s, 127, &fr, &d), 0);
	CHECK_CHAIN("SP+IP mask", &fr, 4, h->fn[0], h->fn[1], h->fn[2], h->fn[3]);

	/* DX, SP and IP, then bit 40 (an XMM half): still packed by bit */
	extra[0] = STACK_ADDR;
	extra[1] = h->fn[0];
	extra[2] = 0xdeadbeef;
	memset(&fr, 0, sizeof(fr));
	sample_init(&s, PERF_SAMPLE_REGS_ABI_64, (1ULL << BIT_SP) | (1ULL << BIT_IP) | (1ULL << 40),
		    extra, st, 24, 24);
	TEST_ASSERT_EQUAL("SP+IP+XMM mask", walk(h, &s, 127, &fr, &d), 0);
	CHECK_CHAIN("SP+IP+XMM mask", &fr, 4, h->fn[0], h->fn[1], h->fn[2], h->fn[3]);
	return TEST_OK;
}

/*
 * a frame-pointer body (@body): RBP decides where the next frame is;
 * once with the CFA as a register rule, once as an expression, which
 * unwinders evaluate apart (libdw's expression evaluator)
 */
static int check_frame_pointer(struct hostile *h, u64 body, const char *kind, bool slow)
{
	u64 regs[24], words[2];
	struct unwind_stats d;
	struct perf_sample s;
	struct frames fr;
	const char *st;

	pr_debug("frame-pointer body, CFA as %s\n", kind);
	/* a well-formed frame: saved RBP 0, then the return address into c */
	words[0] = 0;
	words[1] = h->fn[2] + 1;
	st = stack_of(h, words, 2, 16);
	regs_all(regs, body, STACK_ADDR, STACK_ADDR);
	memset(&fr, 0, sizeof(fr));
	sample_init(&s, PERF_SAMPLE_REGS_ABI_64, MASK_ALL, regs, st, 16, 16);
	TEST_ASSERT_EQUAL("fp", walk(h, &s, 127, &fr, &d), 0);
	CHECK_CHAIN("fp", &fr, 2, body, h->fn[2]);
	TEST_ASSERT_EQUAL("fp: libdw's own walk for an expression", d.nr_slow_walks, slow);

	/* the saved RBP is the frame itself, the return address back into the body: a loop */
	words[0] = STACK_ADDR;
	words[1] = body + 1;
	st = stack_of(h, words, 2, 16);
	memset(&fr, 0, sizeof(fr));
	sample_init(&s, PERF_SAMPLE_REGS_ABI_64, MASK_ALL, regs, st, 16, 16);
	TEST_ASSERT_EQUAL("loop", walk(h, &s, 127, &fr, &d), 0);
	CHECK_CHAIN("loop", &fr, 2, body, body);
	TEST_ASSERT_EQUAL("loop: libdw's own walk for an expression", d.nr_slow_walks, slow);
	TEST_ASSERT_EQUAL("loop: counted as a bad stack", d.nr_bad_stack, 1);
	TEST_ASSERT_EQUAL("loop: ended by the check, not by max_stack", d.nr_max_stack, 0);

	/* RBP below the dump, then one that wraps around the address space */
	regs_all(regs, body, STACK_ADDR, STACK_ADDR - 64);
	memset(&fr, 0, sizeof(fr));
	TEST_ASSERT_EQUAL("rbp below", walk(h, &s, 127, &fr, &d), 0);
	CHECK_CHAIN("rbp below", &fr, 1, body);
	TEST_ASSERT_EQUAL("rbp below: bad stack", d.nr_bad_stack, 1);
	regs_all(regs, body, STACK_ADDR, (u64)-16);
	memset(&fr, 0, sizeof(fr));
	TEST_ASSERT_EQUAL("rbp wraps", walk(h, &s, 127, &fr, &d), 0);
	CHECK_CHAIN("rbp wraps", &fr, 1, body);
	TEST_ASSERT_EQUAL("rbp wraps: bad stack", d.nr_bad_stack, 1);
	return TEST_OK;
}

/* registers and ABI words that leave nothing to unwind, or nothing past the IP */
static int check_registers(struct hostile *h)
{
	const u64 words[] = {h->fn[1] + 1, h->fn[2] + 1, h->fn[3] + 1};
	u64 regs[24], few[2];
	struct unwind_stats d;
	struct perf_sample s;
	struct frames fr;
	const char *st = stack_of(h, words, 3, 24);
	static const u64 bad_abi[] = {PERF_SAMPLE_REGS_ABI_NONE, 3, 7};

	/* a kernel-mode sample: the user IP and SP read -1 */
	regs_all(regs, (u64)-1, (u64)-1, (u64)-1);
	memset(&fr, 0, sizeof(fr));
	sample_init(&s, PERF_SAMPLE_REGS_ABI_64, MASK_ALL, regs, st, 24, 24);
	TEST_ASSERT_VAL("regs -1: an error", walk(h, &s, 127, &fr, &d) < 0);
	TEST_ASSERT_EQUAL("regs -1: no frame", fr.nr, 0);
	/* only SP -1 */
	regs_all(regs, h->fn[0], (u64)-1, 0);
	memset(&fr, 0, sizeof(fr));
	TEST_ASSERT_VAL("sp -1: an error", walk(h, &s, 127, &fr, &d) < 0);
	TEST_ASSERT_EQUAL("sp -1: no frame", fr.nr, 0);

	/* SP at the top of the address space: the dump would wrap */
	regs_all(regs, h->fn[0], (u64)-8, 0);
	memset(&fr, 0, sizeof(fr));
	TEST_ASSERT_EQUAL("sp wraps", walk(h, &s, 127, &fr, &d), 0);
	TEST_ASSERT_VAL("sp wraps: at most the dump's frames", fr.nr >= 1 && fr.nr <= 4);
	TEST_ASSERT_EQUAL("sp wraps: the IP first", fr.ip[0], h->fn[0]);

	/*
	 * an IP in no map: nothing to go on with; at most that frame (stock
	 * perf gives none when the IP has no object, as during an exec)
	 */
	regs_all(regs, NO_MAP_IP, STACK_ADDR, 0);
	memset(&fr, 0, sizeof(fr));
	TEST_ASSERT_EQUAL("no map", walk(h, &s, 127, &fr, &d), 0);
	TEST_ASSERT_VAL("no map: at most the IP",
			fr.nr == 0 || (fr.nr == 1 && fr.ip[0] == NO_MAP_IP));
	TEST_ASSERT_VAL("no map: counted", d.nr_no_object >= 1);

	/* a mask without SP, one without IP */
	few[0] = 0; /* BP, bit 6, before IP */
	few[1] = h->fn[0];
	memset(&fr, 0, sizeof(fr));
	sample_init(&s, PERF_SAMPLE_REGS_ABI_64, (1ULL << BIT_IP) | (1ULL << BIT_BP), few, st, 24,
		    24);
	TEST_ASSERT_VAL("no SP: an error", walk(h, &s, 127, &fr, &d) < 0);
	TEST_ASSERT_EQUAL("no SP: no frame", fr.nr, 0);
	few[0] = STACK_ADDR;
	memset(&fr, 0, sizeof(fr));
	sample_init(&s, PERF_SAMPLE_REGS_ABI_64, 1ULL << BIT_SP, few, st, 24, 24);
	TEST_ASSERT_VAL("no IP: an error", walk(h, &s, 127, &fr, &d) < 0);
	TEST_ASSERT_EQUAL("no IP: no frame", fr.nr, 0);

	/* a dump the kernel copied nothing into (dyn_size 0): no stack, as for perf */
	regs_all(regs, h->fn[0], STACK_ADDR, 0);
	sample_init(&s, PERF_SAMPLE_REGS_ABI_64, MASK_ALL, regs, st, 24, 0);
	TEST_ASSERT_VAL(
	    "dyn_size 0: no stack",
	    !unwind__sample_has_stack(PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER, &s));
	sample_init(&s, PERF_SAMPLE_REGS_ABI_64, MASK_ALL, regs, st, 24, 24);
	TEST_ASSERT_VAL(
	    "dyn_size 24: a stack",
	    unwind__sample_has_stack(PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER, &s));

	/* an empty dump: nothing to read */
	regs_all(regs, h->fn[0], STACK_ADDR, 0);
	memset(&fr, 0, sizeof(fr));
	sample_init(&s, PERF_SAMPLE_REGS_ABI_64, MASK_ALL, regs, st + 24, 0, 0);
	TEST_ASSERT_VAL(
	    "size 0: no stack",
	    !unwind__sample_has_stack(PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER, &s));
	TEST_ASSERT_VAL("size 0: an error", walk(h, &s, 127, &fr, &d) < 0);
	TEST_ASSERT_EQUAL("size 0: no frame", fr.nr, 0);

	/* ABI words that name no register set the unwinder knows */
	for (size_t i = 0; i < ARRAY_SIZE(bad_abi); i++) {
		memset(&fr, 0, sizeof(fr));
		sample_init(&s, bad_abi[i], MASK_ALL, bad_abi[i] ? regs : NULL, st, 24, 24);
		TEST_ASSERT_VAL("bad abi: an error", walk(h, &s, 127, &fr, &d) < 0);
		TEST_ASSERT_EQUAL("bad abi: no frame", fr.nr, 0);
		TEST_ASSERT_EQUAL("bad abi: no frame counted", d.nr_frames, 0);
	}

	/*
	 * a 32-bit task whose IP is in a 64-bit object: never given to an
	 * i386 Dwfl, so at most the IP, cut to 32 bits
	 */
	memset(&fr, 0, sizeof(fr));
	sample_init(&s, PERF_SAMPLE_REGS_ABI_32, MASK_ALL, regs, st, 24, 24);
	TEST_ASSERT_EQUAL("abi 32, 64-bit object", walk(h, &s, 127, &fr, &d), 0);
	TEST_ASSERT_VAL("abi 32, 64-bit object: at most the IP",
			fr.nr == 0 || (fr.nr == 1 && fr.ip[0] == (u32)h->fn[0]));
	TEST_ASSERT_VAL("abi 32, 64-bit object: no object", d.nr_no_object >= 1);
	return TEST_OK;
}

static int hostile__init(struct hostile *h, char *skip, size_t skip_size)
{
	int err;

	h->fn[0] = (u64)(uintptr_t)unwind_hostile_a;
	h->fn[1] = (u64)(uintptr_t)unwind_hostile_b;
	h->fn[2] = (u64)(uintptr_t)unwind_hostile_c;
	h->fn[3] = (u64)(uintptr_t)unwind_hostile_d;
	h->fp_body = (u64)(uintptr_t)unwind_hostile_fp_body;
	h->fpx_body = (u64)(uintptr_t)unwind_hostile_fpx_body;
	err = unwind_fixture__init(&h->fx, PID, "hostile", h->fn[0]);
	if (err == -ENOENT) {
		snprintf(skip, skip_size, "/proc/self/maps shows no file mapping this test's code");
		return TEST_SKIP;
	}
	TEST_ASSERT_EQUAL("unwind fixture", err, 0);
	TEST_ASSERT_VAL("the functions in one map",
			h->fn[0] >= h->fx.text_start &&
			    h->fpx_body < h->fx.text_start + h->fx.text_len);
	return TEST_OK;
}

static int test__unwind_hostile(struct test_suite *t)
{
	struct hostile h = {0};
	char skip[200];
	int ret;

	ret = hostile__init(&h, skip, sizeof(skip));
	if (ret == TEST_SKIP)
		test_skip(t, "%s", skip);
	if (!ret)
		ret = check_chains(&h);
	if (!ret)
		ret = check_frame_pointer(&h, h.fp_body, "a register rule", false);
	if (!ret)
		ret = check_frame_pointer(&h, h.fpx_body, "an expression", true);
	if (!ret)
		ret = check_registers(&h);
	unwind_fixture__exit(&h.fx);
	return ret;
}
#else
static int test__unwind_hostile(struct test_suite *t)
{
	test_skip(t, "the hand-written CFI of this test is x86_64 code");
	return TEST_SKIP;
}
#endif

struct test_suite suite__unwind_hostile = {
    .desc = "unwind: truncated, looping and lying stacks end cleanly",
    .func = test__unwind_hostile,
};
