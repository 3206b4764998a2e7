// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: the Intel PT decoder (util/intel-pt-decode.c and the
 * recovery walk of util/intel-pt-recover.c) on hostile AUX data, without a
 * session.  The input's first bytes build the decoder's world, the rest is
 * the trace of one CPU:
 *
 *   u8  shape: bits 0-1 bases, bits 2-4 pokes, bit 5 a CPU with errata
 *   AUXTRACE_INFO of intel_pt: u8 time_shift, u32 time_mult, u32 time_zero,
 *       u8 mtc_freq, u8 tsc_ctc_n, u8 tsc_ctc_d, u8 max_nonturbo_ratio
 *   each base: u32 addr (in the top 4 GiB), u16 len, u8 anchor, u32 time,
 *       the bytes
 *   each poke: u32 time, u32 addr, u8 old_len, u8 new_len, the bytes
 *   the rest: one AUXTRACE buffer of CPU 0, in an allocation of its size
 *
 * The bases and pokes go into a libtextpoke image (the kernel's code over
 * time); there is no machine, so user code is never known.  Every
 * instruction is asked for, and each one's bytes must be what the image
 * held at its address at a moment the decoder could have read them: the
 * image is asked again here, through libtextpoke's own read, never through
 * the decoder's callback.  Bad trace is never a bug; reading past the
 * buffer (ASan), a crash or a walk that does not end is.
 */
#include <stdio.h>
#include <string.h>

#include "fuzz.h"
#include "../util/auxtrace.h"
#include "../util/header.h"
#include "../util/intel-pt-decode.h"
#include "../util/text-image.h"

/* where the code is: the top 4 GiB, the kernel's text and its modules */
#define FPT_ADDR_BASE 0xffffffff00000000ULL
#define FPT_MAX_BASES 3
#define FPT_MAX_POKES 7
/* the AUXTRACE_INFO record: header, type, reserved, then priv[] */
#define FPT_INFO_PRIV 16
/*
 * The decoder may run 100000 instructions at one trace position before
 * its no-progress guard stops it, at every PSB, twice (the recovery walk
 * meets the loop again): a 4 KiB input could be minutes of ASan.  Past
 * this many instructions an input has shown what it can; it is more than
 * FPT_LOOP_MAX allows in a row for the largest input libFuzzer makes here
 * (4 KiB), so that a guard let loose is still seen.
 */
#define FPT_MAX_INSNS (1U << 17)
/*
 * perf's limit on instructions without a packet consumed (intel-pt.max-loops),
 * which the decoder's guard keeps.  An instruction that jumps to itself
 * runs no longer at one address than that, plus what TNT bits can carry:
 * fewer than 6 per byte of trace.
 */
#define FPT_LOOP_MAX 100000

/* the moments the image's bytes can change: the pokes the image took */
struct fpt_state {
	struct textpoke_image *img;
	u64 change[FPT_MAX_POKES];
	int nr_change;
	/* the last instruction found good: a loop repeats it, and the check costs */
	struct intel_pt_item good;
	u64 good_lo;
	bool have_good;
};

static int fpt__info(struct fuzz_input *in, bool errata, struct intel_pt_info *info,
		     const char **cpuid)
{
	u64 rec[(FPT_INFO_PRIV + 8 * INTEL_PT_PRIV_MAX) / 8] = {0};
	u64 *priv = rec + FPT_INFO_PRIV / 8;
	union perf_event *ev = (union perf_event *)rec;
	const char *why;
	u32 type = PERF_AUXTRACE_INTEL_PT;

	ev->header.type = PERF_RECORD_AUXTRACE_INFO;
	ev->header.size = sizeof(rec);
	memcpy((u8 *)rec + 8, &type, sizeof(type));
	priv[INTEL_PT_TIME_SHIFT] = fuzz_input__u64(in, 1);
	priv[INTEL_PT_TIME_MULT] = fuzz_input__u64(in, 4);
	priv[INTEL_PT_TIME_ZERO] = fuzz_input__u64(in, 4);
	priv[INTEL_PT_CAP_USER_TIME_ZERO] = 1;
	priv[INTEL_PT_PER_CPU_MMAPS] = 1;
	/* IA32_RTIT_CTL.MTCFreq is bits 14-17 */
	priv[INTEL_PT_MTC_FREQ_BITS] = (fuzz_input__u64(in, 1) & 0xf) << 14;
	priv[INTEL_PT_TSC_CTC_N] = fuzz_input__u64(in, 1);
	priv[INTEL_PT_TSC_CTC_D] = fuzz_input__u64(in, 1);
	priv[INTEL_PT_MAX_NONTURBO_RATIO] = fuzz_input__u64(in, 1);
	/* a Skylake: libipt applies its errata workarounds, another path */
	*cpuid = errata ? "GenuineIntel,6,78,3" : NULL;
	return intel_pt_info__parse(info, ev, &why);
}

/* Bases and pokes the image refuses are bad input: the others stay */
static void fpt__image(struct fpt_state *st, struct fuzz_input *in, int nr_bases, int nr_pokes)
{
	for (int i = 0; i < nr_bases; i++) {
		struct textpoke_base_opts bo = {.sz = sizeof(bo)};
		u64 addr = FPT_ADDR_BASE | fuzz_input__u64(in, 4);
		size_t len = fuzz_input__u64(in, 2);

		bo.anchor = fuzz_input__u64(in, 1) % 3;
		bo.time = fuzz_input__u64(in, 4);
		if (len > in->left)
			len = in->left;
		if (len)
			textpoke_image__add_base(st->img, addr, in->p, len, &bo);
		in->p += len;
		in->left -= len;
	}
	for (int i = 0; i < nr_pokes; i++) {
		u64 time = fuzz_input__u64(in, 4);
		u64 addr = FPT_ADDR_BASE | fuzz_input__u64(in, 4);
		size_t old_len = fuzz_input__u64(in, 1), new_len = fuzz_input__u64(in, 1);

		if (old_len + new_len > in->left)
			return;
		if (!textpoke_image__add_poke(st->img, time, addr, in->p, old_len, in->p + old_len,
					      new_len))
			st->change[st->nr_change++] = time;
		in->p += old_len + new_len;
		in->left -= old_len + new_len;
	}
}

/* whether @len bytes at @addr were all known and were @bytes at @time */
static bool fpt__held(struct fpt_state *st, u64 addr, const u8 *bytes, size_t len, u64 time)
{
	u8 buf[16], known[16];

	if (textpoke_image__read(st->img, addr, len, time, buf, known) != (int)len)
		return false;
	return !memcmp(buf, bytes, len);
}

/*
 * The decoder reads an instruction's bytes at the time its packets had
 * reached once the one before was done, or at an event's between them: a
 * moment no earlier than @lo, the earliest time of the items from the
 * previous instruction to this one.  Not bounded above: an event the
 * decoder reports no item for has a time of its own, and a hostile trace's
 * TSC can go back after it (an instruction's item may then be older than
 * the bytes it was read with).  The image changes only at poke times, so
 * @lo and the pokes after it are every version there is.
 */
static int fpt__check_insn(struct fpt_state *st, const struct intel_pt_item *it, u64 lo)
{
	if (!it->insn_len || it->insn_len > sizeof(it->insn)) {
		fprintf(stderr, "fuzz intel-pt: instruction at %#llx of %u bytes\n",
			(unsigned long long)it->ip, it->insn_len);
		return FUZZ_BUG;
	}
	if (st->have_good && st->good_lo == lo && st->good.ip == it->ip &&
	    st->good.insn_len == it->insn_len && !memcmp(st->good.insn, it->insn, it->insn_len))
		return 0;
	st->good = *it;
	st->good_lo = lo;
	st->have_good = true;
	if (fpt__held(st, it->ip, it->insn, it->insn_len, lo))
		return 0;
	for (int i = 0; i < st->nr_change; i++)
		if (st->change[i] > lo &&
		    fpt__held(st, it->ip, it->insn, it->insn_len, st->change[i]))
			return 0;
	st->have_good = false;
	fprintf(stderr,
		"fuzz intel-pt: the %u bytes of the instruction at %#llx (time %llu) are not "
		"the image's at any time from %llu on\n",
		it->insn_len, (unsigned long long)it->ip, (unsigned long long)it->time,
		(unsigned long long)lo);
	return FUZZ_BUG;
}

static int fpt__decode(struct fpt_state *st, struct text_image *ti, struct auxtrace *at,
		       const struct intel_pt_info *info, const char *cpuid, size_t aux_size)
{
	/* the power events too: their packet walk sees the same hostile bytes */
	struct intel_pt_opts po = {.want_insns = true, .insn_period = 1, .want_pwr = true};
	struct intel_pt_item it;
	struct intel_pt *pt;
	/* before the first instruction the decoder's time may be anything it has not shown */
	u64 lo = 0;
	unsigned int nr_insns = 0;
	/* the instructions in a row at one address, branches to it between them */
	u64 run_ip = 0, run = 0, run_max = FPT_LOOP_MAX + 6 * (u64)aux_size + 1;
	int ret = 0, n;

	pt = intel_pt__new(info, cpuid, NULL, ti, at, &po);
	if (!pt)
		return 0;
	while (!ret && nr_insns < FPT_MAX_INSNS && (n = intel_pt__next(pt, 0, &it)) == 1) {
		if (it.time < lo)
			lo = it.time;
		if (it.type == IPT_ITEM_ERROR && (!it.err_code || !strncmp(it.msg, "OK ", 3))) {
			/* libipt's "OK": an error item that names no error */
			fprintf(stderr, "fuzz intel-pt: an error item without an error: %s\n",
				it.msg);
			ret = FUZZ_BUG;
		}
		if (it.type == IPT_ITEM_ERROR)
			run = 0;
		if (it.type != IPT_ITEM_INSN)
			continue;
		run = it.ip == run_ip ? run + 1 : 1;
		run_ip = it.ip;
		if (run > run_max) {
			fprintf(
			    stderr,
			    "fuzz intel-pt: %llu instructions in a row at %#llx: the no-progress "
			    "guard did not stop them\n",
			    (unsigned long long)run, (unsigned long long)run_ip);
			ret = FUZZ_BUG;
			break;
		}
		ret = fpt__check_insn(st, &it, lo);
		nr_insns++;
		lo = it.time;
	}
	intel_pt__delete(pt);
	return ret;
}

int fuzz__intel_pt(const u8 *data, size_t size)
{
	struct fuzz_input in = {data, size};
	struct text_image_opts opts = {.no_kcore = true};
	struct fpt_state st = {0};
	struct intel_pt_info info;
	union perf_event rec;
	struct text_image *ti;
	struct perf_env env;
	struct auxtrace at;
	const char *cpuid, *why;
	int shape, ret = 0;

	shape = fuzz_input__u64(&in, 1);
	if (fpt__info(&in, shape & 0x20, &info, &cpuid))
		return 0;
	memset(&env, 0, sizeof(env));
	ti = text_image__new(&env, NULL, &opts);
	if (!ti)
		goto out_info;
	st.img = text_image__image(ti);
	fpt__image(&st, &in, (shape & 3) % (FPT_MAX_BASES + 1), (shape >> 2) & 7);
	auxtrace__init(&at);
	memset(&rec, 0, sizeof(rec));
	rec.auxtrace.header.type = PERF_RECORD_AUXTRACE;
	rec.auxtrace.header.size = sizeof(rec.auxtrace);
	rec.auxtrace.size = in.left;
	if (in.left && !auxtrace__add_buffer(&at, &rec, 0, true, &why) &&
	    !auxtrace__data(&at, in.p, in.left))
		ret = fpt__decode(&st, ti, &at, &info, cpuid, in.left);
	auxtrace__exit(&at);
	text_image__delete(ti);
out_info:
	intel_pt_info__exit(&info);
	return ret;
}
