// SPDX-License-Identifier: GPL-2.0-only
/*
 * --itrace=i<time>: which instructions perf samples when the period is
 * time.  perf counts it in TSC ticks, rounded down to a power of two, on
 * an estimate of the TSC that adds one tick per instruction to the last
 * timestamp its decoder took from a packet; an instruction is sampled
 * when that estimate enters the next period (the first one of a trace
 * one tick early).
 *
 * The estimate's timestamp is not libipt's time of the instruction.
 * perf's decoder reads the packets a branch needs (the TSC before them
 * included) as soon as the branch before it has taken its own, so from
 * the instruction after that branch on, the block up to the next branch
 * that takes a packet counts on the new TSC, while libipt dates them with
 * the old one up to that branch.  So the instructions of a block are
 * held, undecided, until its last one says its TSC; the items pushed
 * meanwhile (the block's direct jumps and calls, PSBs) wait with them so
 * that the samples keep their place among them.
 */
#ifdef HAVE_LIBIPT

#include <stdlib.h>
#include <string.h>

#include "intel-pt-decode-queue.h"

/* room kept in the ring for what a step pushes after a forced close */
#define TK_RING_SLACK 8

u64 ipt_ticks__period(const struct intel_pt *pt)
{
	const struct perf_tsc_conv *tc = &pt->info.tc;
	u64 ns = pt->opts.period_ns, ticks, p = 1;

	if (!ns)
		return 0;
	/* perf's intel_pt_ns_to_ticks() */
	if (tc->time_mult)
		ticks = ((ns / tc->time_mult) << tc->time_shift) +
			((ns % tc->time_mult) << tc->time_shift) / tc->time_mult;
	else
		ticks = ns;
	while (p <= ticks / 2)
		p *= 2;
	return p;
}

bool ipt_ticks__consumes(const u8 *raw, u8 len, enum pt_insn_class c)
{
	u8 i = 0;

	switch (c) {
	case ptic_cond_jump:
	case ptic_return:
	case ptic_far_call:
	case ptic_far_return:
	case ptic_far_jump:
		return true;
	case ptic_call:
	case ptic_jump:
		/* an indirect one (ff /2../5, after prefixes and REX) takes a TIP */
		while (i < len &&
		       (raw[i] == 0x66 || raw[i] == 0x67 || raw[i] == 0xf2 || raw[i] == 0xf3 ||
			raw[i] == 0x2e || raw[i] == 0x3e || raw[i] == 0x26 || raw[i] == 0x36 ||
			raw[i] == 0x64 || raw[i] == 0x65))
			i++;
		if (i < len && (raw[i] & 0xf0) == 0x40)
			i++;
		return i + 1 < len && raw[i] == 0xff;
	default:
		return false;
	}
}

void ipt_ticks__reset(struct ipt_queue *q)
{
	ipt_ticks__close(q);
	q->tk_cont = false;
	q->tk_budget = 0;
}

/*
 * perf's intel_pt_next_period(): at the start of a walk (after a branch
 * or a sample), with the estimate @est before its first instruction, the
 * instructions to walk to the next sample
 */
static u64 ipt_ticks__budget(struct ipt_queue *q, u64 est, u64 period)
{
	u64 mask = ~(period - 1), masked = est & mask;

	if (q->tk_cont) {
		if (masked > q->tk_last)
			return 1;
	} else {
		/* the first period of a trace aims one tick short */
		est++;
		masked = est & mask;
		if (masked > q->tk_last) {
			q->tk_last = masked;
			q->tk_cont = true;
		}
	}
	/* an estimate gone back behind the last sample: a whole period on */
	if (masked < q->tk_last)
		return period;
	return period - (est - masked);
}

/* perf's intel_pt_sample_insn(), @est counting the sampled instruction */
static void ipt_ticks__sampled(struct ipt_queue *q, u64 est, u64 period)
{
	u64 masked = est & ~(period - 1);

	if (masked > q->tk_last)
		q->tk_last = masked;
	else
		q->tk_last += period;
}

static int ipt_ticks__ring_index(const struct ipt_queue *q, int i)
{
	return (q->pending_at + i) % PENDING_MAX;
}

void ipt_ticks__close(struct ipt_queue *q)
{
	struct intel_pt_item held[PENDING_MAX], *it;
	u64 period = ipt_ticks__period(q->pt);
	int nr_held = q->nr_held, i, j = 0, k;

	if (!q->tk_nr) {
		q->nr_held = 0;
		return;
	}
	for (i = 0; i < nr_held; i++)
		held[i] = q->pending[ipt_ticks__ring_index(q, q->nr_pending - nr_held + i)];
	q->nr_pending -= nr_held;
	q->nr_held = 0;
	for (k = 0; k < q->tk_nr; k++) {
		struct ipt_tk_insn *in = &q->tk_blk[k];

		bool take;

		q->nr_insns++;
		if (!q->tk_budget)
			q->tk_budget = ipt_ticks__budget(q, q->tk_ts + q->tk_cnt, period);
		q->tk_cnt++;
		take = !--q->tk_budget;
		if (take)
			ipt_ticks__sampled(q, q->tk_ts + q->tk_cnt, period);
		/* a branch ends perf's walk: the next one counts afresh */
		else if (in->branch)
			q->tk_budget = 0;
		if (!take)
			continue;
		/* the held items before it go first */
		while (j < in->at && q->nr_pending < PENDING_MAX)
			q->pending[ipt_ticks__ring_index(q, q->nr_pending++)] = held[j++];
		if (q->nr_pending >= PENDING_MAX)
			break;
		it = &q->pending[ipt_ticks__ring_index(q, q->nr_pending++)];
		memset(it, 0, sizeof(*it));
		it->type = IPT_ITEM_INSN;
		it->time = in->time;
		it->cpu = q->aq->cpu;
		it->pid = q->aq->pid;
		it->tid = q->aq->tid;
		it->ip = in->ip;
		it->period = q->nr_insns;
		it->insn_len = in->len;
		memcpy(it->insn, in->raw, in->len);
		it->cpumode_user = in->ip < KERNEL_START;
		q->nr_insns = 0;
	}
	while (j < nr_held && q->nr_pending < PENDING_MAX)
		q->pending[ipt_ticks__ring_index(q, q->nr_pending++)] = held[j++];
	q->tk_nr = 0;
}

void ipt_ticks__insn(struct ipt_queue *q, u64 ip, u8 len, const u8 *raw, u64 time, bool branch,
		     bool consuming)
{
	struct ipt_tk_insn *in;

	/*
	 * a new TSC (a PSB+ has one, whatever its value): perf took it when
	 * it read the packets this block's branch needs, at the block's
	 * first instruction
	 */
	if (q->last_tsc != q->tk_ts || q->tk_psbs != q->tk_psbs_seen) {
		q->tk_ts = q->last_tsc;
		q->tk_psbs_seen = q->tk_psbs;
		q->tk_cnt = 0;
	}
	if (q->tk_nr == q->tk_alloc) {
		int n = q->tk_alloc ? 2 * q->tk_alloc : 64;

		in = realloc(q->tk_blk, n * sizeof(*in));
		if (!in) {
			/* decided with what is known rather than lost */
			ipt_ticks__close(q);
			return;
		}
		q->tk_blk = in;
		q->tk_alloc = n;
	}
	in = &q->tk_blk[q->tk_nr++];
	in->ip = ip;
	in->time = time;
	in->len = len;
	memcpy(in->raw, raw, len);
	in->at = q->nr_held;
	in->branch = branch;
	/*
	 * a block whose items and possible samples would not fit the ring:
	 * decided now, on the TSC as it is, rather than any lost
	 */
	if (consuming || q->nr_pending + q->tk_nr + TK_RING_SLACK >= PENDING_MAX)
		ipt_ticks__close(q);
}

#endif /* HAVE_LIBIPT */
