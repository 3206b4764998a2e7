// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kinds of poked sites that the fixture kernel does not have, each
 * decoded from the bytes its pokes wrote (no kcore: the pokes alone):
 *  - a static call trampoline, jmp target_a <-> jmp target_b
 *  - a static call site set to NULL and back inside a function,
 *    nop5 <-> call (not at an entry: not ftrace)
 *  - an ftrace site at a function's entry moved from ftrace_caller to an
 *    ftrace_trampoline (call <-> call)
 *  - a kprobe armed (int3), then optimized into a jmp to its detour in a
 *    kprobe_optinsn_page (one site of 5 bytes once the jmp lands)
 *  - a poke of no known shape (other)
 * The table below describes each poke and, by hand, what the report must
 * say about its site.
 *
 * Mutation caught: rc__kind() ignoring a jmp into an optinsn page
 *   (opt_target never set): the optimized kprobe reads as a kprobe.
 * Mutation caught: rc__kind() taking every nop5 <-> call for ftrace
 *   (entry forced true): the NULL static call reads as ftrace.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests.h"
#include "fixture.h"
#include "../util/report-changes.h"
#include "../util/text-image.h"
#include "../util/writer.h"

#define K_T0 1000000000ULL
#define K_TEXT 0xffffffff81000000ULL
#define K_SCT (K_TEXT + 0x100)		/* __SCT__k_hook */
#define K_SCALL (K_TEXT + 0x210)	/* k_caller+0x10 */
#define K_FTRACE (K_TEXT + 0x300)	/* k_traced */
#define K_KPROBE (K_TEXT + 0x408)	/* k_probed+0x8 */
#define K_OTHER (K_TEXT + 0x520)	/* k_other+0x20 */
#define K_TARGET_A (K_TEXT + 0x1000)	/* k_target_a */
#define K_TARGET_B (K_TEXT + 0x1100)	/* k_target_b */
#define K_FCALLER (K_TEXT + 0x1200)	/* ftrace_caller */
#define K_FTRAMP 0xffffffffa0001000ULL	/* OOL ftrace_trampoline */
#define K_OPTPAGE 0xffffffffa0002000ULL /* OOL kprobe_optinsn_page */

static const char kallsyms[] = "ffffffff81000000 T _text\n"
			       "ffffffff81000100 T __SCT__k_hook\n"
			       "ffffffff81000200 T k_caller\n"
			       "ffffffff81000300 T k_traced\n"
			       "ffffffff81000400 T k_probed\n"
			       "ffffffff81000500 T k_other\n"
			       "ffffffff81001000 T k_target_a\n"
			       "ffffffff81001100 T k_target_b\n"
			       "ffffffff81001200 T ftrace_caller\n"
			       "ffffffff81004000 T _etext\n";

static const u8 nop5[5] = {0x0f, 0x1f, 0x44, 0x00, 0x00};

struct k_poke {
	u64 time, addr;
	u8 len;
	u8 old[5], new[5];
};

static void rel32(u8 *b, u8 op, u64 from, u64 to)
{
	s32 rel = (s32)(to - (from + 5));

	b[0] = op;
	memcpy(b + 1, &rel, 4);
}

static int k__pokes(struct k_poke *p)
{
	u8 jmp_a[5], jmp_b[5], call_a[5], call_fc[5], call_ft[5], jmp_opt[5];
	static const u8 mov[5] = {0x48, 0x89, 0xe5, 0x48, 0x83}; /* mov %rsp,%rbp; sub.. */
	u8 armed[5];
	int n = 0;

	rel32(jmp_a, 0xe9, K_SCT, K_TARGET_A);
	rel32(jmp_b, 0xe9, K_SCT, K_TARGET_B);
	rel32(call_a, 0xe8, K_SCALL, K_TARGET_A);
	rel32(call_fc, 0xe8, K_FTRACE, K_FCALLER);
	rel32(call_ft, 0xe8, K_FTRACE, K_FTRAMP + 0x40);
	rel32(jmp_opt, 0xe9, K_KPROBE, K_OPTPAGE + 0x80);
	memcpy(armed, mov, 5);
	armed[0] = 0xcc;
#define P(t, a, l, o, nw)                                                                     \
	(p[n].time = K_T0 + (t), p[n].addr = (a), p[n].len = (l), memcpy(p[n].old, (o), (l)), \
	 memcpy(p[n].new, (nw), (l)), n++)
	P(2000, K_SCT, 5, jmp_a, jmp_b);
	P(2100, K_SCALL, 5, call_a, nop5);
	P(2200, K_FTRACE, 5, nop5, call_fc);
	P(2300, K_FTRACE, 5, call_fc, call_ft);
	P(2400, K_KPROBE, 1, mov, armed);
	P(2500, K_KPROBE, 5, armed, jmp_opt);
	P(2600, K_OTHER, 2, "\x31\xc0", "\xb0\x01");
	P(3000, K_SCT, 5, jmp_b, jmp_a);
	P(3100, K_SCALL, 5, nop5, call_a);
#undef P
	return n;
}

static int k__write(const char *path, const struct k_poke *p, int n)
{
	struct perf_event_attr attr = {
	    .type = PERF_TYPE_SOFTWARE,
	    .size = sizeof(attr),
	    .config = PERF_COUNT_SW_CPU_CLOCK,
	    .sample_period = 10000,
	    .sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
			   PERF_SAMPLE_PERIOD,
	    .sample_id_all = 1,
	};
	struct perf_record_mmap2 m = {
	    .header.misc = PERF_RECORD_MISC_KERNEL,
	    .pid = -1,
	    .start = K_TEXT,
	    .len = 0x1000000,
	    .pgoff = K_TEXT,
	};
	struct perf_sample id = {.time = 0};
	struct perf_writer *w = perf_writer__new(path, PERF_WRITER_DIRECTORY);
	int clock, dummy, err, i;
	char *dir = NULL;
	FILE *f;

	if (!w)
		return -errno;
	clock = perf_writer__add_attr(w, &attr, NULL, 0, "cpu-clock");
	attr.config = PERF_COUNT_SW_DUMMY;
	attr.mmap = attr.mmap2 = attr.comm = attr.task = attr.ksymbol = attr.text_poke = 1;
	dummy = perf_writer__add_attr(w, &attr, NULL, 0, "dummy:HG");
	err = clock < 0 ? clock : dummy < 0 ? dummy : 0;
	err = err ?: perf_writer__set_arch(w, "x86_64");
	err = err ?: perf_writer__set_osrelease(w, "6.1.0-kinds");
	err = err ?: perf_writer__synth_mmap2(w, dummy, &m, "[kernel.kallsyms]_text", &id);
	id.time = K_T0 + 1000;
	err =
	    err ?:
		  perf_writer__synth_ksymbol(w, dummy, K_FTRAMP, 0x1000, PERF_RECORD_KSYMBOL_TYPE_OOL,
					     0, "ftrace_trampoline", &id);
	err = err ?:
		    perf_writer__synth_ksymbol(w, dummy, K_OPTPAGE, 0x1000,
					       PERF_RECORD_KSYMBOL_TYPE_OOL, 0, "kprobe_optinsn_page",
					       &id);
	for (i = 0; !err && i < n; i++) {
		id.time = p[i].time;
		err = perf_writer__synth_text_poke(w, dummy, p[i].addr, p[i].old, p[i].len,
						   p[i].new, p[i].len, &id);
	}
	if (!err) {
		/* after the optimization: on the jmp */
		struct perf_sample s = {.ip = K_KPROBE,
					.time = K_T0 + 2550,
					.period = 10000,
					.cpumode = PERF_RECORD_MISC_KERNEL};

		err = perf_writer__synth_sample(w, clock, &s);
		s.time = K_T0 + 4000;
		err = err ?: perf_writer__synth_sample(w, clock, &s);
	}
	/* symbols from the recording's kcore_dir, no kcore in it */
	if (!err && asprintf(&dir, "%s/kcore_dir", perf_writer__dir_path(w)) < 0)
		err = -ENOMEM;
	if (!err && mkdir(dir, 0700))
		err = -errno;
	for (i = 0; !err && i < 2; i++) {
		char *file;

		if (asprintf(&file, "%s/%s", dir, i ? "modules" : "kallsyms") < 0) {
			err = -ENOMEM;
			break;
		}
		f = fopen(file, "w");
		free(file);
		if (!f || (!i && fputs(kallsyms, f) < 0))
			err = -EIO;
		if (f && fclose(f))
			err = -EIO;
	}
	free(dir);
	if (err) {
		perf_writer__abort(w);
		return err;
	}
	return perf_writer__close(w);
}

struct k_want {
	u64 addr;
	u32 len;
	enum report_site_kind kind;
	const char *sym;
	size_t nr_versions;
};

static const struct k_want want[] = {
    {K_SCT, 5, REPORT_KIND_STATIC_CALL, "__SCT__k_hook", 3},
    {K_SCALL, 5, REPORT_KIND_STATIC_CALL, "k_caller+0x10", 3},
    {K_FTRACE, 5, REPORT_KIND_FTRACE, "k_traced", 3},
    {K_KPROBE, 5, REPORT_KIND_OPTPROBE, "k_probed+0x8", 3},
    {K_OTHER, 2, REPORT_KIND_OTHER, "k_other+0x20", 2},
};

static int test__report_changes_kinds(struct test_suite *t)
{
	struct k_poke pokes[16];
	struct report_changes *rc = NULL;
	struct text_image *ti = NULL;
	char *dir = fixture__tmpdir(), *path = NULL;
	int n = k__pokes(pokes), ret = TEST_FAIL;
	size_t i;

	TEST_ASSERT_VAL("tmpdir", dir);
	if (asprintf(&path, "%s/perf.data", dir) < 0)
		goto out;
	if (k__write(path, pokes, n))
		goto out;
	ti = text_image__load(path, NULL);
	rc = ti ? report_changes__new(ti, text_image__machine(ti)) : NULL;
	if (!rc)
		goto out;
	report_changes__sample(rc, K_KPROBE, PERF_RECORD_MISC_KERNEL, K_T0 + 2550);
	report_changes__sample(rc, K_KPROBE + 4, PERF_RECORD_MISC_KERNEL, K_T0 + 4000);
	if (report_changes__finish(rc, 0, 0, 0))
		goto out;
	if (verbose > 0)
		report_changes__fprintf(rc, stderr);
	if (rc->nr_sites != ARRAY_SIZE(want))
		goto out;
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		const struct report_site *s = &rc->sites[i];

		pr_debug("%s: %s\n", want[i].sym, report_site_kind__name(s->kind));
		if (s->addr != want[i].addr || s->len != want[i].len || s->kind != want[i].kind ||
		    !s->sym || strcmp(s->sym, want[i].sym) || s->nr_versions != want[i].nr_versions)
			goto out;
	}
	/* the optimized kprobe's samples: both on its jmp, the last version */
	if (rc->sites[3].versions[2].nr_samples != 2 || rc->sites[3].nr_samples_changed != 2)
		goto out;
	ret = TEST_OK;
out:
	report_changes__delete(rc);
	text_image__delete(ti);
	free(path);
	fixture__remove_dir(dir, "report-changes-kinds");
	free(dir);
	return ret;
}

struct test_suite suite__report_changes_kinds = {
    .desc = "report changes: static calls, ftrace, optimized kprobes decoded from pokes alone",
    .func = test__report_changes_kinds,
};
