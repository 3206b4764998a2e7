// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf textpoke inject --snapshot=start with stock perf 6.1 as the judge:
 * a generated recording whose kcore was copied at the end (or during the
 * recording), rewritten with a kcore_dir of the code as it was at the
 * start, makes `perf script -F ip,insn` print the generator model's
 * bytes at every sample, where on the recording as it is perf shows the
 * later state for the samples taken before the later pokes.  Without any
 * kcore, perf shows no kernel bytes at all on the recording, and the
 * pokes' own bytes at every poked site on the rewritten one, at the cost
 * of the kernel symbols that start outside the poked sites.
 * --snapshot=end, with a BPF program loaded during the recording in it,
 * costs perf another program's bytes, and says so.  perf textpoke script
 * prints the same on each start output as on its input.
 *
 * Mutations caught: in inject_snapshot__write(), INJECT_SNAPSHOT_START
 * exporting at UINT64_MAX instead of 0 (the end state again: perf is
 * wrong on OUT as on IN); snap__warn_bpf() not counting (no warning
 * with --snapshot=end); the warning naming the temporary directory the
 * snapshot was written in, not OUTPUT/kcore_dir/kcore.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"
#include "fixture.h"
#include "fixture-kernel.h"

/* perf textpoke inject --snapshot=@when of the fixture, or NULL; what it said in *@said */
static char *snapshot_out(const struct fixture_kernel *fk, const char *when, char **said)
{
	char *out = NULL, *cmd = NULL, *err = NULL;

	if (asprintf(&out, "%s/out-%s.data", fk->dir, when) < 0)
		return NULL;
	if (asprintf(&cmd, "%s inject -q -i %s -o %s --snapshot=%s", test_self_exe(), fk->path, out,
		     when) < 0) {
		free(out);
		return NULL;
	}
	if (fixture__run(cmd, NULL, &err)) {
		pr_debug("'%s' failed: %s\n", cmd, err ?: "");
		zfree(&out);
	}
	free(cmd);
	if (said)
		*said = err;
	else
		free(err);
	return out;
}

/*
 * Stock perf's `-F ip,insn` of @path against the model: samples whose
 * first @site_only (site_len) or all bytes perf prints as the model says,
 * the last other one in *@wrong.  -1 when perf fails or prints another
 * number of lines.
 */
static int perf_right(const struct fixture_kernel *fk, const char *path, bool site_only, int *wrong)
{
	char *cmd = NULL, *out = NULL, *line, *save = NULL;
	int i, right = -1;

	if (asprintf(&cmd, "HOME=%s perf script -i %s -F ip,insn 2>/dev/null", fk->dir, path) < 0)
		return -1;
	if (fixture__run(cmd, &out, NULL) != 0 || !out)
		goto out;
	right = 0;
	line = strtok_r(out, "\n", &save);
	for (i = 0; i < fk->nr_samples; i++, line = strtok_r(NULL, "\n", &save)) {
		const struct fixture_kernel_sample *e = &fk->samples[i];
		int j, n = site_only ? e->site_len : e->len;
		char want[128];
		size_t w;

		if (!line) {
			pr_debug("%s: perf printed %d lines for %d samples\n", path, i,
				 fk->nr_samples);
			right = -1;
			goto out;
		}
		w = snprintf(want, sizeof(want), " %16llx insn:", (unsigned long long)e->ip);
		for (j = 0; j < n; j++)
			w += snprintf(want + w, sizeof(want) - w, " %02x", e->bytes[j]);
		/* all bytes: the whole line; the site's: perf may print more after them */
		if (site_only ? !strncmp(line, want, w) && (!line[w] || line[w] == ' ') :
				!strcmp(line, want)) {
			right++;
			continue;
		}
		if (wrong)
			*wrong = i;
		pr_debug("%s: time %llu: perf '%s', model '%s'\n", path,
			 (unsigned long long)e->time, line, want);
	}
	if (line) {
		pr_debug("%s: perf printed more lines than samples: '%s'\n", path, line);
		right = -1;
	}
out:
	free(cmd);
	free(out);
	return right;
}

/* perf textpoke script prints on @out what it prints on the input (the round trip) */
static bool script_same(const struct fixture_kernel *fk, const char *out)
{
	char *cmd[2] = {NULL, NULL}, *text[2] = {NULL, NULL};
	const char *path[2] = {fk->path, out};
	bool same = false;
	int i;

	for (i = 0; i < 2; i++) {
		if (asprintf(&cmd[i], "%s script -i %s -F ip,sym,insn", test_self_exe(), path[i]) <
			0 ||
		    fixture__run(cmd[i], &text[i], NULL) || !text[i])
			goto out;
	}
	same = !strcmp(text[0], text[1]);
	if (!same)
		pr_debug("perf textpoke script differs on %s:\n%s\non %s:\n%s\n", path[0], text[0],
			 path[1], text[1]);
out:
	for (i = 0; i < 2; i++) {
		free(cmd[i]);
		free(text[i]);
	}
	return same;
}

/* samples stock perf names no symbol for, or -1 */
static int perf_unknown(const struct fixture_kernel *fk, const char *path)
{
	char *cmd = NULL, *out = NULL;
	int n = -1;

	if (asprintf(&cmd, "HOME=%s perf script -i %s -F ip,sym 2>/dev/null", fk->dir, path) < 0)
		return -1;
	if (!fixture__run(cmd, &out, NULL) && out)
		n = fixture__count(out, "[unknown]");
	free(cmd);
	free(out);
	return n;
}

static int test__inject_snapshot_perf(struct test_suite *t)
{
	struct fixture_kernel *fk;
	char *out = NULL, *said = NULL, want[4200];
	int in_right, out_right, wrong = -1, ret = TEST_FAIL;

	if (!fixture__have_perf()) {
		test_skip(t, "stock perf not installed");
		return TEST_SKIP;
	}

	/* kcore copied at the end: perf replays the pokes forward over the end state */
	fk = fixture_kernel__new(FK_KCORE_END);
	TEST_ASSERT_VAL("fixture", fk);
	out = snapshot_out(fk, "start", NULL);
	if (!out)
		goto out;
	in_right = perf_right(fk, fk->path, false, NULL);
	out_right = perf_right(fk, out, false, NULL);
	pr_debug("kcore at the end: perf right on %d of %d samples on IN, %d on OUT\n", in_right,
		 fk->nr_samples, out_right);
	/* the two jump labels poked last look poked from the start on IN */
	if (in_right != fk->nr_samples - 2 || out_right != fk->nr_samples || !script_same(fk, out))
		goto out;
	/*
	 * --snapshot=end holds BPF program B, loaded during the recording:
	 * perf reads the kcore at the first sample, then A's KSYMBOL finds
	 * the kcore's segment at the address B will reuse, and its
	 * BPF_EVENT marks that map's dso, the kernel's, as a BPF_PROG_INFO
	 * one (bpf-event.c: machine__process_bpf_event_load()): A's sample
	 * gets no bytes.  What start avoids: the programs in it were
	 * mapped before perf read the kcore, and dso__load_kcore() keeps
	 * BPF maps.
	 */
	zfree(&out);
	out = snapshot_out(fk, "end", &said);
	if (!out)
		goto out;
	if (!said || !strstr(said, "holds the code of 1 BPF program loaded during the recording")) {
		pr_debug("--snapshot=end does not warn of BPF program B: '%s'\n", said ?: "");
		goto out;
	}
	/* named as the user finds it, not as the temporary it was written in */
	snprintf(want, sizeof(want), "warning: %s/kcore_dir/kcore: holds the code", out);
	if (!strstr(said, want)) {
		pr_debug("--snapshot=end's warning does not name %s/kcore_dir/kcore: '%s'\n", out,
			 said);
		goto out;
	}
	out_right = perf_right(fk, out, false, &wrong);
	pr_debug("--snapshot=end: perf right on %d of %d samples, the last wrong at time %llu\n",
		 out_right, fk->nr_samples,
		 wrong < 0 ? 0ULL : (unsigned long long)fk->samples[wrong].time);
	if (out_right != fk->nr_samples - 3 || wrong < 0 || fk->samples[wrong].time != FK_T0 + 4100)
		goto out;
	fixture_kernel__delete(fk);
	zfree(&out);

	/* kcore copied after the first five pokes: backwards, then forwards from it */
	fk = fixture_kernel__new(FK_KCORE_AT);
	TEST_ASSERT_VAL("fixture", fk);
	out = snapshot_out(fk, "start", NULL);
	if (!out)
		goto out;
	in_right = perf_right(fk, fk->path, false, NULL);
	out_right = perf_right(fk, out, false, NULL);
	pr_debug("kcore during the recording: perf right on %d of %d samples on IN, %d on OUT\n",
		 in_right, fk->nr_samples, out_right);
	/* on IN the five samples before those pokes see them made */
	if (in_right != fk->nr_samples - 5 || out_right != fk->nr_samples)
		goto out;
	fixture_kernel__delete(fk);
	zfree(&out);

	/* no kcore: perf has no kernel bytes on IN, the pokes' bytes on OUT */
	fk = fixture_kernel__new(FK_NO_KCORE);
	TEST_ASSERT_VAL("fixture", fk);
	out = snapshot_out(fk, "start", NULL);
	if (!out)
		goto out;
	in_right = perf_right(fk, fk->path, true, NULL);
	out_right = perf_right(fk, out, true, NULL);
	pr_debug("no kcore: perf right at the poked site of %d of %d samples on IN, %d on OUT\n",
		 in_right, fk->nr_samples, out_right);
	/*
	 * on IN only the BPF samples, whose bytes perf has from
	 * HEADER_BPF_PROG_INFO, and the trampoline's, which perf writes into
	 * the OOL object from the poke that fills it
	 */
	if (in_right != 3 || out_right != fk->nr_samples || !script_same(fk, out))
		goto out;
	/*
	 * The price: perf keeps only the kallsyms symbols that start inside
	 * a kcore segment (symbol.c: maps__split_kallsyms_for_kcore()), and
	 * the segments are the poked sites, so the samples there lose their
	 * function unless it starts at the site (fk_traced_fn's fentry).
	 */
	in_right = perf_unknown(fk, fk->path);
	out_right = perf_unknown(fk, out);
	pr_debug("no kcore: perf names no symbol at %d samples on IN, %d on OUT\n", in_right,
		 out_right);
	if (in_right != 0 || out_right != 14)
		goto out;
	ret = TEST_OK;
out:
	free(said);
	free(out);
	fixture_kernel__delete(fk);
	return ret;
}

struct test_suite suite__inject_snapshot_perf = {
    .desc = "inject --snapshot=start: stock perf shows the model's bytes at every sample",
    .func = test__inject_snapshot_perf,
};
