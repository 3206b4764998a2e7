// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: the DWARF unwinder (util/unwind.h) on hostile stacks.
 *
 * On the setup tests/unwind-hostile.c uses too (unwind-fixture.h): a
 * thread maps this binary's own text where this process has it, so that
 * the unwinder finds real CFI, and the dump ends at a PROT_NONE page: a
 * read past the sample's bytes is a crash even without a sanitizer.  The input gives the ABI word, the
 * register mask, IP, SP and BP (in this binary's text, near the dump or
 * anything), size and dyn_size, max_stack, and the dump itself, whose
 * words with a top byte of 0xaa become addresses in the text (return
 * addresses) and of 0xbb addresses in the dump (saved frame pointers).
 * The walk must end, deliver at most max_stack frames, and return 0, a
 * negative errno or the callback's value.
 *
 * The machine and the unwinder live as long as the process (opening
 * this binary's CFI for each input would be most of the work), until
 * fuzz__cleanup().
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "unwind-fixture.h"
#include "../util/debug.h"
#include "../util/event.h"
#include "../util/unwind.h"

#define FUW_PID 5151
#define FUW_STACK_ADDR 0x7ffd20000000ULL
/* perf's x86 register bits (asm/perf_regs.h) */
enum { FUW_BP = 6, FUW_SP = 7, FUW_IP = 8 };
#define FUW_MASK_ALL 0xff0fffULL

static struct fuzz_unwind {
	bool tried, ready;
	struct unwind_fixture fx;
} fuw;

static bool fuw__setup(void)
{
	if (fuw.tried)
		return fuw.ready;
	fuw.tried = true;
	fuw.ready = !unwind_fixture__init(&fuw.fx, FUW_PID, "fuzz", (u64)(uintptr_t)fuzz__unwind);
	return fuw.ready;
}

void fuzz__cleanup(void)
{
	unwind_fixture__exit(&fuw.fx);
	memset(&fuw, 0, sizeof(fuw));
}

/* an address by a selector byte and a 32-bit value: in the text, near the dump, or raw */
static u64 fuw__addr(struct fuzz_input *in)
{
	u64 sel = fuzz_input__u64(in, 1), v = fuzz_input__u64(in, 4);

	switch (sel % 4) {
	case 0:
		return fuw.fx.text_start + v % fuw.fx.text_len;
	case 1:
		return FUW_STACK_ADDR + (s32)v % 8192;
	case 2:
		return v | (sel & 0x80 ? 0xffffffff00000000ULL : 0);
	default:
		return (u64)-1 - v % 64; /* -1: a kernel-mode sample's registers */
	}
}

struct fuw_frames {
	unsigned int nr, stop_at;
	u64 sum;
};

static int fuw__frame(const struct unwind_frame *f, void *arg)
{
	struct fuw_frames *fr = arg;

	fr->nr++;
	fr->sum += f->ip;
	return fr->nr == fr->stop_at ? 99 : 0;
}

int fuzz__unwind(const u8 *data, size_t size)
{
	static const u64 abis[] = {PERF_SAMPLE_REGS_ABI_64,
				   PERF_SAMPLE_REGS_ABI_64,
				   PERF_SAMPLE_REGS_ABI_64,
				   PERF_SAMPLE_REGS_ABI_32,
				   PERF_SAMPLE_REGS_ABI_64,
				   PERF_SAMPLE_REGS_ABI_NONE,
				   3,
				   7};
	struct fuzz_input in = {data, size};
	struct fuw_frames fr = {0};
	struct perf_sample s;
	u64 sel, mask, ip, sp, bp, *regs;
	unsigned int max_stack, idx = 0, nr_regs;
	size_t dump;
	u8 *stack;
	int ret;

	if (!fuw__setup())
		return 0;
	memset(&s, 0, sizeof(s));
	s.pid = s.tid = FUW_PID;
	s.time = 100;
	s.cpumode = PERF_RECORD_MISC_USER;
	sel = fuzz_input__u64(&in, 1);
	s.user_regs.abi = abis[sel % 8];
	switch ((sel >> 3) % 4) {
	case 0:
	case 1:
		mask = FUW_MASK_ALL;
		break;
	case 2:
		mask = (1ULL << FUW_SP) | (1ULL << FUW_IP) | (sel & 0x80 ? 1ULL << FUW_BP : 0);
		break;
	default:
		mask = fuzz_input__u64(&in, 8);
	}
	ip = fuw__addr(&in);
	sp = fuw__addr(&in);
	bp = fuw__addr(&in);
	max_stack = fuzz_input__u64(&in, 1);
	fr.stop_at = max_stack & 0x80 ? max_stack & 0xf : 0;
	max_stack = (max_stack & 0x7f) + 1;
	s.user_stack.size = fuzz_input__u64(&in, 2) % (fuw.fx.page_size + 1);
	s.user_stack.dyn_size = fuzz_input__u64(&in, 2);

	nr_regs = __builtin_popcountll(mask);
	/* exactly the registers the mask says, as the record carries them */
	regs = malloc(nr_regs ? nr_regs * 8 : 1);
	if (!regs)
		return 0;
	for (unsigned int bit = 0; bit < 64; bit++) {
		if (!(mask & (1ULL << bit)))
			continue;
		regs[idx++] = bit == FUW_IP ? ip :
			      bit == FUW_SP ? sp :
			      bit == FUW_BP ? bp :
					      0x1111ULL * bit;
	}
	s.user_regs.mask = mask;
	s.user_regs.regs = s.user_regs.abi ? regs : NULL;

	dump = s.user_stack.size;
	stack = unwind_fixture__dump(&fuw.fx, dump);
	memset(stack, 0, dump);
	for (size_t off = 0; off < dump && in.left; off += 8) {
		size_t n = dump - off < 8 ? dump - off : 8;
		u64 w = fuzz_input__u64(&in, n);

		if (n == 8 && w >> 56 == 0xaa)
			w = fuw.fx.text_start + (u32)w % fuw.fx.text_len;
		else if (n == 8 && w >> 56 == 0xbb)
			w = FUW_STACK_ADDR + (u16)w;
		memcpy(stack + off, &w, n);
	}
	s.user_stack.data = (const char *)stack;

	ret = unwinder__walk(fuw.fx.uw, fuw.fx.thread, &s, max_stack, fuw__frame, &fr);
	free(regs);
	pr_debug2("fuzz unwind: %u frames, walk returned %d\n", fr.nr, ret);
	if ((ret > 0 && ret != 99) || (ret == 99 && fr.nr != fr.stop_at) || fr.nr > max_stack) {
		fprintf(stderr, "fuzz unwind: walk returned %d after %u frames (max_stack %u)\n",
			ret, fr.nr, max_stack);
		return FUZZ_BUG;
	}
	return 0;
}
