// SPDX-License-Identifier: GPL-2.0-only
/*
 * The code-change report's consistency figures and its one-line verdict
 * for recordings of the fixture kernel that lack something: no kcore, a
 * poke the file lacks, no BPF JIT images, a poke where nothing is mapped,
 * a kcore copied at the end; and lost or unordered records as the driver
 * passes them.  What each recording lacks is what the fixture was told to
 * leave out (fixture-kernel.h), so the expected counts come from there.
 *
 * Mutation caught: rc__verdict() not saying "mismatch" (its
 *   c->verdicts[TEXTPOKE_MISMATCH] test made 0).
 * Mutation caught: rc__region_bytes() calling every region's bytes known.
 * Mutation caught: the nr_unmapped copy from the image's stats dropped.
 * Mutation caught: ti__classify_unmapped() ignoring ti->mods.captured
 *   (the watched recording called trusted).
 * Mutation caught: ti__covered_later() always false (the FK_STRAY poke
 *   that a KSYMBOL maps later counted as a module's).
 */
#include <string.h>

#include "tests.h"
#include "fixture-kernel.h"
#include "fixture-kcore.h"
#include "../util/report-changes.h"
#include "../util/text-image.h"

struct run {
	struct fixture_kernel *fk;
	struct text_image *ti;
	struct report_changes *rc;
};

static void run__exit(struct run *r)
{
	report_changes__delete(r->rc);
	text_image__delete(r->ti);
	fixture_kernel__delete(r->fk);
}

/*
 * @module_events: what to put in the recording's kcore_dir/module_events
 * (what perf textpoke record writes when it watched module loads), NULL
 * for none
 */
static int run__init_mod(struct run *r, unsigned int flags, u64 lost, u64 unordered,
			 const char *module_events)
{
	int i;

	memset(r, 0, sizeof(*r));
	r->fk = fixture_kernel__new(flags);
	if (!r->fk)
		return -1;
	if (module_events && fixture__write_file(r->fk->kcore_dir, "module_events", module_events,
						 strlen(module_events)))
		return -1;
	r->ti = text_image__load(r->fk->path, NULL);
	if (!r->ti)
		return -1;
	r->rc = report_changes__new(r->ti, text_image__machine(r->ti));
	if (!r->rc)
		return -1;
	for (i = 0; i < r->fk->nr_samples; i++)
		report_changes__sample(r->rc, r->fk->samples[i].ip, PERF_RECORD_MISC_KERNEL,
				       r->fk->samples[i].time);
	if (report_changes__finish(r->rc, lost, 0, unordered))
		return -1;
	pr_debug("flags %#x: %s\n", flags, r->rc->consistency.verdict);
	return 0;
}

static int run__init(struct run *r, unsigned int flags, u64 lost, u64 unordered)
{
	return run__init_mod(r, flags, lost, unordered, NULL);
}

static const struct report_site *site_at(const struct report_changes *rc, u64 addr)
{
	size_t i;

	for (i = 0; i < rc->nr_sites; i++) {
		if (rc->sites[i].addr == addr)
			return &rc->sites[i];
	}
	return NULL;
}

static bool says(const struct report_changes *rc, const char *what)
{
	return rc->consistency.verdict && strstr(rc->consistency.verdict, what);
}

static int check_no_kcore(void)
{
	struct run r;
	int ret = TEST_FAIL;

	if (run__init(&r, FK_NO_KCORE, 0, 0))
		goto out;
	/* the pokes alone still tell what each site is */
	if (r.rc->nr_sites != 6 || site_at(r.rc, FK_JL5_SITE)->kind != REPORT_KIND_JUMP_LABEL ||
	    site_at(r.rc, FK_KPROBE_SITE)->kind != REPORT_KIND_KPROBE)
		goto out;
	if (r.rc->consistency.trusted ||
	    !says(r.rc, "no kcore and no vmlinux: only poked bytes are known") ||
	    r.rc->consistency.verdicts[TEXTPOKE_MISMATCH])
		goto out;
	ret = TEST_OK;
out:
	run__exit(&r);
	return ret;
}

static int check_dropped(void)
{
	const struct report_site *s;
	struct run r;
	int ret = TEST_FAIL;

	if (run__init(&r, FK_DROP_POKE, 3, 2))
		goto out;
	/* jump label 2 lost its poke back to nop2: the next nop2 -> jmp finds a jmp */
	s = site_at(r.rc, FK_JL2_SITE);
	if (!s || s->nr_versions != 3 || s->versions[2].verdict != TEXTPOKE_MISMATCH)
		goto out;
	if (r.rc->consistency.verdicts[TEXTPOKE_MISMATCH] != 1 || r.rc->consistency.trusted ||
	    !says(r.rc, "1 poke mismatch: lost events or a wrong kcore") ||
	    !says(r.rc, "3 records lost") || !says(r.rc, "2 records out of time order") ||
	    r.rc->consistency.nr_lost != 3 || r.rc->consistency.nr_unordered != 2)
		goto out;
	ret = TEST_OK;
out:
	run__exit(&r);
	return ret;
}

static int check_no_bpf_info(void)
{
	struct run r;
	size_t i, unknown = 0;
	int ret = TEST_FAIL;

	if (run__init(&r, FK_NO_BPF_INFO, 0, 0))
		goto out;
	for (i = 0; i < r.rc->nr_regions; i++) {
		const struct report_region *g = &r.rc->regions[i];

		if (g->ksym_type == PERF_RECORD_KSYMBOL_TYPE_BPF && g->bytes_known)
			goto out;
		unknown += !g->bytes_known;
	}
	/* the trampoline's body came by TEXT_POKE: known */
	if (r.rc->nr_regions != 3 || unknown != 2 || r.rc->consistency.trusted ||
	    !says(r.rc, "2 BPF programs without JIT bytes"))
		goto out;
	ret = TEST_OK;
out:
	run__exit(&r);
	return ret;
}

static int check_stray(void)
{
	const struct report_site *s;
	struct run r;
	int ret = TEST_FAIL;

	if (run__init(&r, FK_STRAY_POKE, 0, 0))
		goto out;
	s = site_at(r.rc, FK_STRAY);
	if (!s || s->kind != REPORT_KIND_JUMP_LABEL || s->nr_versions != 2 ||
	    s->versions[1].nr_samples != 1 || s->first_change != FK_STRAY_TIME)
		goto out;
	/* a KSYMBOL maps the address later: the poke came before its code */
	if (r.rc->consistency.nr_unmapped != 1 || r.rc->consistency.nr_unmapped_module_space ||
	    r.rc->consistency.trusted || !says(r.rc, "1 poke outside every map"))
		goto out;
	ret = TEST_OK;
out:
	run__exit(&r);
	return ret;
}

/*
 * The same poke with nothing ever mapped there, as a module that loads
 * while stock perf records: its jump labels and static calls poked in
 * module space, no record of the load.  The recording has no fault, the
 * module's code is unknown: trusted, and said.  Had the recorder watched
 * module loads (a module_events index, even empty), the poke is a fault.
 */
static int check_module_load(bool watched)
{
	const char *index = "# perf textpoke: kernel modules loaded or freed while recording\n";
	struct run r;
	int ret = TEST_FAIL;

	if (run__init_mod(&r, FK_STRAY_POKE | FK_STRAY_UNANNOUNCED, 0, 0, watched ? index : NULL))
		goto out;
	if (r.rc->consistency.nr_unmapped != 1)
		goto out;
	if (watched) {
		if (r.rc->consistency.nr_unmapped_module_space || r.rc->consistency.trusted ||
		    !says(r.rc, "not trusted: 1 poke outside every map"))
			goto out;
	} else {
		if (r.rc->consistency.nr_unmapped_module_space != 1 || !r.rc->consistency.trusted ||
		    !says(r.rc, "trusted: ") ||
		    !says(r.rc,
			  "; 1 poke in a module loaded while recording, whose code is unknown"))
			goto out;
	}
	ret = TEST_OK;
out:
	run__exit(&r);
	return ret;
}

static int check_kcore_end(void)
{
	struct run r;
	int ret = TEST_FAIL;

	if (run__init(&r, FK_KCORE_END, 0, 0))
		goto out;
	if (r.rc->nr_sites != 6 || r.rc->consistency.verdicts[TEXTPOKE_MISMATCH] ||
	    !r.rc->consistency.trusted || !says(r.rc, "trusted: "))
		goto out;
	ret = TEST_OK;
out:
	run__exit(&r);
	return ret;
}

static int test__report_changes_verdict(struct test_suite *t)
{
	TEST_ASSERT_VAL("no kcore", check_no_kcore() == TEST_OK);
	TEST_ASSERT_VAL("a poke dropped, lost and unordered records", check_dropped() == TEST_OK);
	TEST_ASSERT_VAL("no BPF JIT images", check_no_bpf_info() == TEST_OK);
	TEST_ASSERT_VAL("a poke where nothing is mapped", check_stray() == TEST_OK);
	TEST_ASSERT_VAL("a module loaded while recording", check_module_load(false) == TEST_OK);
	TEST_ASSERT_VAL("a module load the recorder missed", check_module_load(true) == TEST_OK);
	TEST_ASSERT_VAL("kcore copied at the end", check_kcore_end() == TEST_OK);
	return TEST_OK;
}

struct test_suite suite__report_changes_verdict = {
    .desc = "report changes: consistency verdicts of recordings that lack something",
    .func = test__report_changes_verdict,
};
