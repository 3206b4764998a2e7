// SPDX-License-Identifier: GPL-2.0-only
/*
 * The code-change report of the fixture kernel (no kcore) after perf
 * textpoke inject --jit: the BPF programs and the trampoline's body are
 * now ELF objects mapped by kernel MMAP2s for their lives, whose code the
 * text image models as pokes.  Those are regions, not sites: the sites are
 * the five the kernel poked (fixture-kernel.h's addresses and time line),
 * and the objects are regions with the programs' and the body's lives and
 * the model's samples in them.
 *
 * Mutation caught: rc__is_jit_poke() not recognising an object's code
 *   (its object branch returning false): sites at the BPF address and the
 *   trampoline appear.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"
#include "fixture-kernel.h"
#include "../util/report-changes.h"
#include "../util/text-image.h"

#define T(x) (FK_T0 + (x))

static const struct {
	u64 addr;
	enum report_site_kind kind;
	size_t nr_changes;
} sites[] = {
    {FK_JL5_SITE, REPORT_KIND_JUMP_LABEL, 3},	 {FK_JL2_SITE, REPORT_KIND_JUMP_LABEL, 3},
    {FK_SCALL_SITE, REPORT_KIND_STATIC_CALL, 2}, {FK_FTRACE_SITE, REPORT_KIND_FTRACE, 2},
    {FK_KPROBE_SITE, REPORT_KIND_KPROBE, 2},
};

static const struct {
	u64 addr;
	u32 len;
	u64 start, end;
} objects[] = {
    {FK_TRAMP, FK_TRAMP_BODY, T(3001), T(3200)},
    {FK_BPF, FK_BPF_A_LEN, T(4000), T(4200)},
    {FK_BPF, FK_BPF_B_LEN, T(4300), UINT64_MAX},
};

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

static int check(const struct fixture_kernel *fk, const struct report_changes *rc)
{
	size_t i, j;

	TEST_ASSERT_EQUAL("sites", rc->nr_sites, ARRAY_SIZE(sites));
	for (i = 0; i < ARRAY_SIZE(sites); i++) {
		TEST_ASSERT_EQUAL("site address", rc->sites[i].addr, sites[i].addr);
		TEST_ASSERT_EQUAL("kind", rc->sites[i].kind, sites[i].kind);
		TEST_ASSERT_EQUAL("changes", rc->sites[i].nr_versions, sites[i].nr_changes + 1);
	}
	for (i = 0; i < ARRAY_SIZE(objects); i++) {
		const struct report_region *r = NULL;

		for (j = 0; j < rc->nr_regions && !r; j++) {
			if (rc->regions[j].ksym_type == REPORT_REGION_OBJECT &&
			    rc->regions[j].addr == objects[i].addr &&
			    rc->regions[j].start == objects[i].start)
				r = &rc->regions[j];
		}
		TEST_ASSERT_VAL("object region", r);
		TEST_ASSERT_EQUAL("object length", r->len, objects[i].len);
		TEST_ASSERT_EQUAL("object end", r->end, objects[i].end);
		TEST_ASSERT_VAL("object bytes", r->bytes_known);
		TEST_ASSERT_EQUAL("object samples", r->nr_samples,
				  model_samples(fk, objects[i].addr, objects[i].len,
						objects[i].start, objects[i].end));
	}
	return TEST_OK;
}

static int test__report_changes_jit(struct test_suite *t)
{
	struct fixture_kernel *fk = fixture_kernel__new(FK_NO_KCORE);
	struct report_changes *rc = NULL;
	struct text_image *ti = NULL;
	char cmd[8400], out[4200];
	int i, ret = TEST_FAIL;

	TEST_ASSERT_VAL("fixture", fk);
	snprintf(out, sizeof(out), "%s/jit.data", fk->dir);
	snprintf(cmd, sizeof(cmd), "%s inject -q --jit -i %s -o %s", test_self_exe(), fk->path,
		 out);
	if (system(cmd)) {
		pr_debug("failed: %s\n", cmd);
		goto out;
	}
	ti = text_image__load(out, NULL);
	rc = ti ? report_changes__new(ti, text_image__machine(ti)) : NULL;
	if (!rc)
		goto out;
	for (i = 0; i < fk->nr_samples; i++)
		report_changes__sample(rc, fk->samples[i].ip, PERF_RECORD_MISC_KERNEL,
				       fk->samples[i].time);
	if (report_changes__finish(rc, 0, 0, 0))
		goto out;
	if (verbose > 0)
		report_changes__fprintf(rc, stderr);
	ret = check(fk, rc);
out:
	report_changes__delete(rc);
	text_image__delete(ti);
	fixture_kernel__delete(fk);
	return ret;
}

struct test_suite suite__report_changes_jit = {
    .desc = "report changes: after inject --jit, BPF and trampoline objects are regions, not sites",
    .func = test__report_changes_jit,
};
