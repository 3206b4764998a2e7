// SPDX-License-Identifier: GPL-2.0-only
/*
 * The Intel PT fixtures agree with themselves, by libipt's own decoder:
 * each CPU's trace, decoded by pt_insn_next() with nothing but the bytes
 * the truth gives the instruction it expects next (the image callback),
 * walks the truth's instructions in order and to the end, with
 * pt_insn_time() after each equal to the truth's time (the timing model),
 * but for the few instructions between the latest TIP and the TIP.PGD that
 * ends the trace, which have the TSC before the TIP.PGD already (libipt
 * reads ahead for events; fixture-pt.h).
 *
 * Facts of issue 13 checked on the way: the callback is asked for every
 * instruction fetched (no caching: at least one call per instruction), and
 * pt_insn_time() called from inside it gives the time of the instruction
 * before (the lag: the new time comes only with the TIP the branch
 * consumes).  And the wrong version goes wrong: served the bytes each
 * address had when first executed (a copy never poked), the decoder leaves
 * the truth on every CPU.
 *
 * Mutation caught: fp__tip() without its fp__flush_tnt() (a TIP before
 * the TNT bits of the branches that came first): the walks leave the truth.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"
#include "fixture-pt.h"

#ifdef HAVE_LIBIPT
#include <intel-pt.h>

struct pt_walk {
	const struct fixture_pt *fp;
	u64 *idx; /* this CPU's instructions in the truth */
	u64 nr, pos;
	struct pt_insn_decoder *dec;
	/* the wrong-version walk: each address's first bytes, sorted by address */
	const struct fixture_pt_insn **first;
	u64 nr_first;
	/*
	 * From the latest TIP to the trace's end, libipt has the time of the
	 * TSC before the TIP.PGD already (it reads ahead for the event)
	 */
	u64 tail, end_time;
	u64 nr_reads, nr_bad_cb_time, nr_bad_time, nr_bad_ip, nr_errors, nr_read_ahead;
};

/* libipt's time @tsc for the instruction at @pos, the truth's time @time */
static bool pt_walk__time_ok(struct pt_walk *w, u64 pos, u64 tsc, u64 time)
{
	if (tsc == time)
		return true;
	if (pos < w->tail || tsc != w->end_time)
		return false;
	w->nr_read_ahead++;
	return true;
}

static const struct fixture_pt_insn *pt_walk__first(const struct pt_walk *w, u64 ip)
{
	u64 lo = 0, hi = w->nr_first;

	while (lo < hi) {
		u64 mid = (lo + hi) / 2;

		if (w->first[mid]->ip < ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < w->nr_first && w->first[lo]->ip == ip ? w->first[lo] : NULL;
}

static int pt_walk__read(uint8_t *buf, size_t size, const struct pt_asid *asid, uint64_t ip,
			 void *ctx)
{
	struct pt_walk *w = ctx;
	const struct fixture_pt_insn *e;
	uint32_t lost_mtc, lost_cyc;
	uint64_t tsc;

	w->nr_reads++;
	if (w->first) {
		e = pt_walk__first(w, ip);
	} else {
		e = w->pos < w->nr ? &w->fp->insns[w->idx[w->pos]] : NULL;
		if (e && e->ip != ip)
			e = NULL;
		/* the decoder's time while it fetches: the instruction before's */
		if (e && w->pos &&
		    (pt_insn_time(w->dec, &tsc, &lost_mtc, &lost_cyc) < 0 ||
		     !pt_walk__time_ok(w, w->pos - 1, tsc, w->fp->insns[w->idx[w->pos - 1]].time)))
			w->nr_bad_cb_time++;
	}
	if (!e)
		return -pte_nomap;
	if (size > e->len)
		size = e->len;
	memcpy(buf, e->bytes, size);
	return size;
}

static void pt_walk__insn(struct pt_walk *w, const struct pt_insn *insn)
{
	const struct fixture_pt_insn *e;
	uint32_t lost_mtc, lost_cyc;
	uint64_t tsc;

	if (w->pos >= w->nr) {
		w->nr_bad_ip++;
		return;
	}
	e = &w->fp->insns[w->idx[w->pos++]];
	if (insn->ip != e->ip) {
		if (!w->nr_bad_ip++)
			pr_debug("cpu %d: instruction %llu at %#llx, the truth's at %#llx\n",
				 e->cpu, (unsigned long long)w->pos - 1,
				 (unsigned long long)insn->ip, (unsigned long long)e->ip);
		return;
	}
	if (pt_insn_time(w->dec, &tsc, &lost_mtc, &lost_cyc) < 0 ||
	    !pt_walk__time_ok(w, w->pos - 1, tsc, e->time)) {
		if (!w->nr_bad_time++)
			pr_debug("cpu %d: instruction at %#llx: time %llu, the truth's %llu\n",
				 e->cpu, (unsigned long long)e->ip, (unsigned long long)tsc,
				 (unsigned long long)e->time);
	}
}

/* the whole trace of @cpu; a decode error resyncs at the next PSB, as a decoder would */
static int pt_walk__run(struct pt_walk *w, int cpu)
{
	const struct fixture_pt *fp = w->fp;
	struct pt_config conf;
	struct pt_image *image;
	int status;

	pt_config_init(&conf);
	conf.begin = fp->trace[cpu];
	conf.end = fp->trace[cpu] + fp->trace_len[cpu];
	/* the fixture's HEADER_CPUID: GenuineIntel,6,85,4 */
	conf.cpu.vendor = pcv_intel;
	conf.cpu.family = 6;
	conf.cpu.model = 85;
	conf.cpu.stepping = 4;
	if (pt_cpu_errata(&conf.errata, &conf.cpu) < 0)
		return -EINVAL;
	w->dec = pt_insn_alloc_decoder(&conf);
	if (!w->dec)
		return -ENOMEM;
	image = pt_insn_get_image(w->dec);
	pt_image_set_callback(image, pt_walk__read, w);
	for (;;) {
		status = pt_insn_sync_forward(w->dec);
		if (status < 0)
			break;
		for (;;) {
			struct pt_insn insn;

			while (status & pts_event_pending) {
				struct pt_event ev;

				status = pt_insn_event(w->dec, &ev, sizeof(ev));
				if (status < 0)
					break;
			}
			if (status < 0)
				break;
			status = pt_insn_next(w->dec, &insn, sizeof(insn));
			if (status < 0)
				break;
			pt_walk__insn(w, &insn);
		}
		if (status == -pte_eos)
			break;
		if (!w->nr_errors++)
			pr_debug("cpu %d: libipt: %s after %llu instructions\n", cpu,
				 pt_errstr(pt_errcode(status)), (unsigned long long)w->pos);
	}
	pt_insn_free_decoder(w->dec);
	w->dec = NULL;
	return status == -pte_eos ? 0 : -EINVAL;
}

static int first_cmp(const void *a, const void *b)
{
	const struct fixture_pt_insn *x = *(const struct fixture_pt_insn *const *)a;
	const struct fixture_pt_insn *y = *(const struct fixture_pt_insn *const *)b;

	if (x->ip != y->ip)
		return x->ip < y->ip ? -1 : 1;
	/* the earlier execution first; the truth is in each CPU's execution order */
	return x < y ? -1 : x > y;
}

/* each address's first bytes: what a copy taken at the start, never poked, holds */
static u64 first_bytes(const struct fixture_pt *fp, const struct fixture_pt_insn **first)
{
	u64 i, n = 0;

	for (i = 0; i < fp->nr_insns; i++)
		first[i] = &fp->insns[i];
	qsort(first, fp->nr_insns, sizeof(*first), first_cmp);
	for (i = 0; i < fp->nr_insns; i++) {
		if (!n || first[n - 1]->ip != first[i]->ip)
			first[n++] = first[i];
	}
	return n;
}

static int test__pt_fixture_libipt(struct test_suite *t)
{
	struct fixture_pt_opts o = {.kcore = FP_KCORE_START, .nr_insns = 30000};
	struct fixture_pt *fp = fixture_pt__new(&o);
	const struct fixture_pt_insn **first = NULL;
	u64 *idx = NULL, i, nr_first, nr_total = 0;
	int cpu, ret = TEST_FAIL;

	TEST_ASSERT_VAL("fixture", fp);
	idx = malloc(fp->nr_insns * sizeof(*idx));
	first = malloc(fp->nr_insns * sizeof(*first));
	if (!idx || !first)
		goto out;
	nr_first = first_bytes(fp, first);
	for (cpu = 0; cpu < FP_NR_CPUS; cpu++) {
		struct pt_walk w = {.fp = fp, .idx = idx}, stale;

		for (i = 0; i < fp->nr_insns; i++) {
			if (fp->insns[i].cpu == cpu)
				idx[w.nr++] = i;
		}
		/* the latest TIP: where the time of the one but last instruction begins */
		w.end_time = fp->insns[idx[w.nr - 1]].time;
		for (w.tail = w.nr - 1;
		     w.tail && fp->insns[idx[w.tail - 1]].time == fp->insns[idx[w.nr - 2]].time;
		     w.tail--)
			;
		stale = w;
		if (!w.nr || pt_walk__run(&w, cpu) || w.pos != w.nr || w.nr_bad_ip ||
		    w.nr_bad_time) {
			pr_debug("cpu %d: walked %llu of %llu, %llu off the truth, %llu at another "
				 "time\n",
				 cpu, (unsigned long long)w.pos, (unsigned long long)w.nr,
				 (unsigned long long)w.nr_bad_ip,
				 (unsigned long long)w.nr_bad_time);
			goto out;
		}
		pr_debug("cpu %d: %llu instructions, %llu callback reads, %llu with another time "
			 "inside the callback, %llu times read ahead before the end\n",
			 cpu, (unsigned long long)w.nr, (unsigned long long)w.nr_reads,
			 (unsigned long long)w.nr_bad_cb_time, (unsigned long long)w.nr_read_ahead);
		if (w.nr_reads < w.nr || w.nr_bad_cb_time || w.nr - w.tail > 8)
			goto out;
		nr_total += w.nr;

		stale.first = first;
		stale.nr_first = nr_first;
		pt_walk__run(&stale, cpu);
		pr_debug("cpu %d, the bytes of first execution: %llu decode errors, %llu "
			 "instructions off the truth\n",
			 cpu, (unsigned long long)stale.nr_errors,
			 (unsigned long long)stale.nr_bad_ip);
		if (!stale.nr_errors && !stale.nr_bad_ip && stale.pos == stale.nr)
			goto out;
	}
	if (nr_total == fp->nr_insns)
		ret = TEST_OK;
out:
	free(idx);
	free(first);
	fixture_pt__delete(fp);
	return ret;
}

#else

static int test__pt_fixture_libipt(struct test_suite *t)
{
	test_skip(t, "built without libipt");
	return TEST_SKIP;
}

#endif

struct test_suite suite__pt_fixture_libipt = {
    .desc = "pt-fixture: libipt's decoder walks each Intel PT fixture trace as its truth says",
    .func = test__pt_fixture_libipt,
};
