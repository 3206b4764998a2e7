// SPDX-License-Identifier: GPL-2.0-only
/*
 * Real recordings with BPF programs (KSYMBOL + BPF_EVENT, synthesized by
 * perf record at start) build a text image without error: every program
 * load is accounted for, with or without JIT bytes in bpf_prog_info.
 * "Every" is per file: the programs the image has loads of equal the
 * BPF_EVENT records INDEX.md counts for that file (its independent walker,
 * top level and inside compressed records), and the two stats counters add
 * up to the same.  No public file holds a TEXT_POKE or a kcore_dir
 * (corpus INDEX.md): the fixtures cover those.
 * Mutation caught: dropping every load without JIT bytes (ti__bpf_load()
 * returning 0 before ti__add_load() in its no-bytes branch).
 */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests.h"
#include "corpus-index.h"
#include "../util/header.h"
#include "../util/text-image.h"

static const char *const files[] = {
    "perf_data_converter/perf.data.branch_stack_spec",
    "linux-perf-data/fibo.compressed2.pipe.data",
    "linux-perf-data/sleep.compressed.data",
    "linux-perf-data/sleep.compressed.pipe.data",
    "perfparser/cpp-inlining.perf.data",
    "hotspot/perf.data.PerfFormatLost",
    "khronos/perf.data.old",
};

/*
 * Programs synthesized at the start and never unloaded: at the end of the
 * recording their addresses hold their JIT bytes, as bpf_prog_info has them.
 */
static int check_jit(struct text_image *ti)
{
	const struct perf_env *env = text_image__env(ti);
	u8 buf[16], known[16];
	int i, n, checked = 0;

	for (i = 0; i < env->nr_bpf_progs; i++) {
		const struct bpf_prog_info_entry *e = &env->bpf_progs[i];

		if (!e->jited_prog_insns || !e->nr_jited_ksyms || e->jited_prog_len < 16)
			continue;
		n = text_image__read(ti, e->jited_ksyms[0], 16, UINT64_MAX, buf, known);
		if (n != 16 || memcmp(buf, e->jited_prog_insns, 16)) {
			pr_debug("BPF program %u at %#llx: %d of 16 JIT bytes read back\n", e->id,
				 (unsigned long long)e->jited_ksyms[0], n);
			return -1;
		}
		checked++;
	}
	if (checked)
		pr_debug("%d programs' JIT bytes read back\n", checked);
	return 0;
}

/* distinct programs among the image's loads (a program's sub-programs share its id) */
static long image_programs(const struct text_image *ti)
{
	const struct text_image_bpf_load *loads;
	size_t nr, i, j;
	long n = 0;

	loads = text_image__bpf_loads(ti, &nr);
	for (i = 0; i < nr; i++) {
		for (j = 0; j < i && loads[j].id != loads[i].id; j++)
			;
		if (j == i)
			n++;
	}
	return n;
}

static int check_counts(const struct text_image *ti, const char *rel)
{
	const struct text_image_stats *st = text_image__stats(ti);
	long want = corpus_index__count(rel, "BPF_EVENT"), have = image_programs(ti);

	if (want < 0) {
		pr_debug("%s: no section with record counts in INDEX.md\n", rel);
		return -1;
	}
	if (have != want || (long)(st->nr_bpf_loaded + st->nr_bpf_no_bytes) != want) {
		pr_debug("%s: INDEX.md counts %ld BPF_EVENT, the image loads %ld programs"
			 " (stats %llu + %llu)\n",
			 rel, want, have, (unsigned long long)st->nr_bpf_loaded,
			 (unsigned long long)st->nr_bpf_no_bytes);
		return -1;
	}
	return 0;
}

static int test__textimage_corpus(struct test_suite *t)
{
	int nr = 0, bpf = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		const struct text_image_stats *st;
		struct text_image *ti;
		char *path;

		if (asprintf(&path, "%s/%s", test_corpus_dir(), files[i]) < 0)
			return TEST_FAIL;
		if (access(path, R_OK)) {
			test_skip_part(t, "no %s", files[i]);
			free(path);
			continue;
		}
		ti = text_image__load(path, NULL);
		if (!ti) {
			pr_debug("%s: no text image\n", path);
			free(path);
			return TEST_FAIL;
		}
		st = text_image__stats(ti);
		pr_debug("%s: %llu pokes, %llu BPF programs with JIT bytes, %llu without, "
			 "%zu unmapped\n",
			 files[i], (unsigned long long)st->nr_pokes,
			 (unsigned long long)st->nr_bpf_loaded,
			 (unsigned long long)st->nr_bpf_no_bytes, st->nr_unmapped);
		bpf += st->nr_bpf_loaded + st->nr_bpf_no_bytes;
		if (check_counts(ti, files[i])) {
			text_image__delete(ti);
			free(path);
			return TEST_FAIL;
		}
		if (check_jit(ti)) {
			text_image__delete(ti);
			free(path);
			return TEST_FAIL;
		}
		if (st->nr_pokes || st->nr_unmapped) {
			text_image__delete(ti);
			free(path);
			return TEST_FAIL;
		}
		text_image__delete(ti);
		free(path);
		nr++;
	}
	if (!nr) {
		test_skip(t, "no public corpus at %s", test_corpus_dir());
		return TEST_SKIP;
	}
	TEST_ASSERT_VAL("BPF loads seen", bpf > 0);
	return test_result(t);
}

struct test_suite suite__textimage_corpus = {
    .desc = "textimage: public recordings with BPF programs build a text image",
    .func = test__textimage_corpus,
};
