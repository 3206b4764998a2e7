// SPDX-License-Identifier: GPL-2.0-only
/*
 * The code-change report of the made-up kernel (fixture-kernel.h), kcore
 * copied at the start: every site with its kind, symbol, versions, times,
 * durations, samples and verdicts, every region with its life, reuse and
 * samples.  The expected figures come from the fixture's description (the
 * FK_* addresses and its documented time line, written out in sites[]
 * and regions[] below) and its model's list of samples, never from the
 * text image: durations are the gaps between the table's times within the
 * model's first and last sample, samples are counted by the table's times,
 * a version's bytes are the model's bytes at a sample that ran on it.
 *
 * Mutation caught: rc__is_jit_poke() returning false (BPF program images
 *   become sites: 7 sites, not 6).
 * Mutation caught: report_changes__sample() counting every sample of a
 *   site as on changed code (dropping its "if (v->changed)").
 * Mutation caught: overlap() in report_changes__finish() not clipping to
 *   the span (version 0 lasts from time 0).
 * Mutation caught: rc__add_site() giving every version version 0's bytes
 *   (v0 + off for cur + off in its rc__version_state() call).
 */
#include <string.h>

#include "tests.h"
#include "fixture-kernel.h"
#include "../util/disasm.h"
#include "../util/report-changes.h"
#include "../util/text-image.h"

#define T(x) (FK_T0 + (x))
#define NONE UINT64_MAX

struct want_site {
	u64 addr;
	u32 len;
	enum report_site_kind kind;
	const char *sym;
	u64 times[4]; /* of versions 1.., 0 ends */
	const char *desc[5];
	bool appear; /* version 1 made by an old_len 0 poke: nothing to verify it against */
};

/* fixture-kernel.h's time line; the jump labels go back and forth twice */
static const struct want_site sites[] = {
    {FK_JL5_SITE,
     5,
     REPORT_KIND_JUMP_LABEL,
     "fk_jl5_fn+0x4",
     {T(2000), T(5000), T(6000)},
     {"nop5", "jmp fk_jl5_fn+0x44", "nop5", "jmp fk_jl5_fn+0x44"},
     false},
    {FK_JL2_SITE,
     2,
     REPORT_KIND_JUMP_LABEL,
     "fk_jl2_fn+0x4",
     {T(2010), T(5010), T(6010)},
     {"nop2", "jmp fk_jl2_fn+0x16", "nop2", "jmp fk_jl2_fn+0x16"},
     false},
    {FK_SCALL_SITE,
     5,
     REPORT_KIND_STATIC_CALL,
     "fk_static_call_fn+0x4",
     {T(2020), T(5020)},
     {"call fk_target_a", "call fk_target_b", "call fk_target_a"},
     false},
    {FK_FTRACE_SITE,
     5,
     REPORT_KIND_FTRACE,
     "fk_traced_fn",
     {T(2030), T(5030)},
     {"nop5", "call ftrace_caller", "nop5"},
     false},
    /* the kprobe's first byte: version 0 is the whole mov it belongs to */
    {FK_KPROBE_SITE,
     1,
     REPORT_KIND_KPROBE,
     "fk_kprobed_fn+0x4",
     {T(2040), T(5040)},
     {"movq %rsp,%rbp", "int3", "movq %rsp,%rbp"},
     false},
    {FK_TRAMP,
     FK_TRAMP_BODY,
     REPORT_KIND_TRAMPOLINE,
     "ftrace_trampoline",
     {T(3001), T(3200)},
     {"(none)", NULL, "(none)"},
     true},
};

struct want_region {
	u64 addr;
	u32 len;
	u16 type;
	const char *name;
	u64 start, end;
	int reused; /* index of the other region at its address, or -1 */
};

static const struct want_region regions[] = {
    {FK_TRAMP, FK_TRAMP_LEN, PERF_RECORD_KSYMBOL_TYPE_OOL, "ftrace_trampoline", T(3000), T(3201),
     -1},
    {FK_BPF, FK_BPF_A_LEN, PERF_RECORD_KSYMBOL_TYPE_BPF, FK_BPF_A_NAME, T(4000), T(4200), 2},
    {FK_BPF, FK_BPF_B_LEN, PERF_RECORD_KSYMBOL_TYPE_BPF, FK_BPF_B_NAME, T(4300), NONE, 1},
};

static size_t nr_times(const struct want_site *w)
{
	size_t n = 0;

	while (n < ARRAY_SIZE(w->times) && w->times[n])
		n++;
	return n;
}

/* the model's samples in [from, to) at the site */
static u64 model_samples(const struct fixture_kernel *fk, u64 addr, u32 len, u64 from, u64 to)
{
	u64 n = 0;
	int i;

	for (i = 0; i < fk->nr_samples; i++) {
		const struct fixture_kernel_sample *s = &fk->samples[i];

		n += s->ip >= addr && s->ip < addr + len && s->time >= from && s->time < to;
	}
	return n;
}

/* each version's bytes as the model had them where a sample ran on it */
static int check_bytes(const struct fixture_kernel *fk, const struct report_site *s,
		       const struct want_site *w)
{
	size_t n = nr_times(w), k;
	int i;

	for (i = 0; i < fk->nr_samples; i++) {
		const struct fixture_kernel_sample *e = &fk->samples[i];
		const struct report_version *v;
		size_t off = e->ip - w->addr, len;

		if (e->ip < w->addr || e->ip >= w->addr + w->len)
			continue;
		for (k = 0; k < n && w->times[k] <= e->time; k++)
			;
		v = &s->versions[k];
		len = e->len < w->len - off ? e->len : w->len - off;
		TEST_ASSERT_VAL("version bytes known", v->bytes);
		TEST_ASSERT_VAL("version bytes", !memcmp(v->bytes + off, e->bytes, len));
	}
	return TEST_OK;
}

static int check_site(const struct fixture_kernel *fk, const struct report_site *s,
		      const struct want_site *w, u64 first, u64 last, bool descs)
{
	size_t n = nr_times(w), k;
	u64 changed = 0;

	TEST_ASSERT_EQUAL("site address", s->addr, w->addr);
	pr_debug("site %s\n", w->sym);
	TEST_ASSERT_EQUAL("site length", s->len, w->len);
	TEST_ASSERT_EQUAL("kind", s->kind, w->kind);
	TEST_ASSERT_VAL("symbol", s->sym && !strcmp(s->sym, w->sym));
	TEST_ASSERT_EQUAL("versions", s->nr_versions, n + 1);
	TEST_ASSERT_EQUAL("first change", s->first_change, w->times[0]);
	TEST_ASSERT_EQUAL("last change", s->last_change, w->times[n - 1]);
	for (k = 0; k <= n; k++) {
		const struct report_version *v = &s->versions[k];
		u64 from = k ? w->times[k - 1] : 0, to = k < n ? w->times[k] : NONE;
		u64 lo = from > first ? from : first, hi = to < last ? to : last;
		/* every site of the fixture alternates between two states */
		bool odd = k % 2;

		pr_debug("  v%zu %s\n", k, v->desc);
		TEST_ASSERT_EQUAL("version time", v->time, k ? from : 0);
		TEST_ASSERT_EQUAL("time in version", v->duration, hi > lo ? hi - lo : 0);
		TEST_ASSERT_EQUAL("samples in version", v->nr_samples,
				  model_samples(fk, w->addr, w->len, from, to));
		TEST_ASSERT_EQUAL("changed", v->changed, odd);
		TEST_ASSERT_EQUAL("verdict", v->verdict,
				  !k			? TEXTPOKE_UNKNOWN :
				  (k == 1 && w->appear) ? TEXTPOKE_UNKNOWN :
							  TEXTPOKE_VERIFIED);
		if (odd)
			changed += v->nr_samples;
		if (descs && w->desc[k])
			TEST_ASSERT_VAL("description", v->desc && !strcmp(v->desc, w->desc[k]));
	}
	TEST_ASSERT_EQUAL("samples on changed code", s->nr_samples_changed, changed);
	return check_bytes(fk, s, w);
}

static int check_region(const struct fixture_kernel *fk, const struct report_changes *rc, size_t i)
{
	const struct report_region *r = &rc->regions[i];
	const struct want_region *w = &regions[i];

	pr_debug("region %s\n", w->name);
	TEST_ASSERT_EQUAL("region address", r->addr, w->addr);
	TEST_ASSERT_EQUAL("region length", r->len, w->len);
	TEST_ASSERT_EQUAL("region type", r->ksym_type, w->type);
	TEST_ASSERT_VAL("region name", r->name && !strcmp(r->name, w->name));
	TEST_ASSERT_EQUAL("region start", r->start, w->start);
	TEST_ASSERT_EQUAL("region end", r->end, w->end);
	TEST_ASSERT_VAL("region bytes", r->bytes_known);
	TEST_ASSERT_EQUAL("region samples", r->nr_samples,
			  model_samples(fk, w->addr, w->len, w->start, w->end));
	TEST_ASSERT_EQUAL("reused", r->nr_reused, w->reused < 0 ? 0 : 1);
	if (w->reused >= 0)
		TEST_ASSERT_EQUAL("reused by", r->reused[0], w->reused);
	return TEST_OK;
}

static int check_report(const struct fixture_kernel *fk, struct report_changes *rc, bool descs)
{
	u64 first = fk->samples[0].time, last = fk->samples[fk->nr_samples - 1].time;
	size_t i, nr_pokes = 0, nr_appear = 0;

	TEST_ASSERT_EQUAL("span start", rc->first_time, first);
	TEST_ASSERT_EQUAL("span end", rc->last_time, last);
	TEST_ASSERT_EQUAL("kernel samples", rc->nr_kernel_samples, fk->nr_samples);
	TEST_ASSERT_EQUAL("sites", rc->nr_sites, ARRAY_SIZE(sites));
	for (i = 0; i < ARRAY_SIZE(sites); i++) {
		if (check_site(fk, &rc->sites[i], &sites[i], first, last, descs))
			return TEST_FAIL;
		nr_pokes += nr_times(&sites[i]);
		nr_appear += sites[i].appear;
	}
	TEST_ASSERT_EQUAL("regions", rc->nr_regions, ARRAY_SIZE(regions));
	for (i = 0; i < ARRAY_SIZE(regions); i++) {
		if (check_region(fk, rc, i))
			return TEST_FAIL;
	}
	TEST_ASSERT_EQUAL("verified", rc->consistency.verdicts[TEXTPOKE_VERIFIED],
			  nr_pokes - nr_appear);
	TEST_ASSERT_EQUAL("unknown", rc->consistency.verdicts[TEXTPOKE_UNKNOWN], nr_appear);
	TEST_ASSERT_EQUAL("mismatch", rc->consistency.verdicts[TEXTPOKE_MISMATCH], 0);
	TEST_ASSERT_EQUAL("unmapped", rc->consistency.nr_unmapped, 0);
	TEST_ASSERT_VAL("trusted", rc->consistency.trusted);
	TEST_ASSERT_VAL("verdict", rc->consistency.verdict &&
				       !strncmp(rc->consistency.verdict, "trusted: ", 9));
	return TEST_OK;
}

static int test__report_changes(struct test_suite *t)
{
	struct fixture_kernel *fk = fixture_kernel__new(0);
	struct report_changes *rc = NULL;
	struct text_image *ti = NULL;
	int i, ret = TEST_FAIL;

	TEST_ASSERT_VAL("fixture", fk);
	ti = text_image__load(fk->path, NULL);
	if (!ti)
		goto out;
	rc = report_changes__new(ti, text_image__machine(ti));
	if (!rc)
		goto out;
	for (i = 0; i < fk->nr_samples; i++) {
		const struct fixture_kernel_sample *s = &fk->samples[i];

		/* a user sample at a site's address is not the kernel's */
		if (i == 3)
			report_changes__sample(rc, FK_JL5_SITE, PERF_RECORD_MISC_USER, s->time);
		report_changes__sample(rc, s->ip, PERF_RECORD_MISC_KERNEL, s->time);
	}
	if (report_changes__finish(rc, 0, 0, 0))
		goto out;
	if (verbose > 0)
		report_changes__fprintf(rc, stderr);
	if (check_report(fk, rc, disasm__available()))
		goto out;
	if (!disasm__available())
		test_skip_part(t, "descriptions: capstone not built in");
	ret = test_result(t);
out:
	report_changes__delete(rc);
	text_image__delete(ti);
	fixture_kernel__delete(fk);
	return ret;
}

struct test_suite suite__report_changes = {
    .desc = "report changes: sites, kinds, versions, samples and regions of the fixture kernel",
    .func = test__report_changes,
};
