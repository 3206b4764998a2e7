// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fuzz targets' regression run: every file of a target's checked-in
 * corpus (tools/perf/tests/fuzz/corpus/<target>/: seeds, and the
 * minimized input of every crash found) goes through its target once.
 * A target's own checks failing is a failure here; a crash, a leak (ASan
 * build) or a hang (10 s per input, each in a child of its own) is one
 * too.
 *
 * Mutation caught (sample): evsel.c's callchain check without
 * "v > (c.end - c.p) / 8" (callchain-huge-nr then points past its
 * record).  Mutation caught (textpoke): textpoke_image__add_poke()
 * without "end < addr" (poke-wraps-top is accepted; the model says
 * -EINVAL).  Mutation caught (kallsyms): kallsyms__parse() returning
 * nr + 1 (bad-lines, empty).  Mutation caught (kcore): kcore.c's overlap
 * check removed (core-overlap: a segment not found at its own ends).
 * Mutation caught (unwind): unwind-libdw.c taking dyn_size as the stack
 * length even when larger than size (dyn-size-larger reads into the
 * guard page: SIGSEGV).  Mutation caught (intel-pt):
 * ipt_read_memory() reading the image at time 0 instead of q->read_time
 * (pt-start-cpu0 decodes the poked jump labels with their boot bytes);
 * IPT_NO_PROGRESS_MAX back at 2^20 (loop-at-every-psb: more than perf's
 * 100000 instructions in a row at one address); intel-pt-recover.c's
 * compressed return without "q->status = -pte_bad_retcomp"
 * (ret-compressed-not-taken: an error item reading "OK").
 * Mutation caught (session): perf_event__check() without the COMM
 * case's has_nul() (comm-unterminated reaches the tool, whose check that
 * every delivered string ends inside its record fails, in the normal
 * build too); under ASan the target also fails on any read past a
 * record.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fuzz.h"
#include "tests.h"

static int fuzz_corpus__read(const char *path, u8 **data, size_t *size)
{
	FILE *f = fopen(path, "rb");
	struct stat st;
	int err = 0;

	if (!f)
		return -errno;
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
		fclose(f);
		return -EINVAL;
	}
	*size = st.st_size;
	/* exactly the input's size, as libFuzzer hands it over */
	*data = malloc(*size ? *size : 1);
	if (!*data)
		err = -ENOMEM;
	else if (*size && fread(*data, 1, *size, f) != *size)
		err = -EIO;
	fclose(f);
	if (err)
		zfree(data);
	return err;
}

/* as libFuzzer's -timeout in make fuzz */
#define FUZZ_INPUT_SECS 10

/*
 * One input in a child of its own, as libFuzzer runs it: a hang is cut
 * by an alarm instead of the whole test's timeout, and in the ASan build
 * the child's exit() runs the leak check on what the target left.  0, an
 * exit status (FUZZ_BUG: a check of the target's own), or -signal.
 */
static int fuzz_corpus__one(const struct fuzz_target *ft, const u8 *data, size_t size)
{
	int status;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return errno;
	if (pid == 0) {
		int ret;

		alarm(FUZZ_INPUT_SECS);
		ret = ft->fn(data, size);
		fuzz__cleanup();
		fflush(stdout);
		fflush(stderr);
		exit(ret);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return errno;
	if (WIFSIGNALED(status))
		return -WTERMSIG(status);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int fuzz_corpus__run(struct test_suite *t, const char *target)
{
	const struct fuzz_target *ft = NULL;
	char dir[PATH_MAX], path[PATH_MAX + 256];
	char *names[1024];
	int nr = 0, ret = TEST_OK;
	struct dirent *de;
	DIR *d;

	for (size_t i = 0; i < nr_fuzz_targets; i++)
		if (!strcmp(fuzz_targets[i].name, target))
			ft = &fuzz_targets[i];
	TEST_ASSERT_VAL("the target is in fuzz_targets[]", ft);
	snprintf(dir, sizeof(dir), "%s/tools/perf/tests/fuzz/corpus/%s", test_srcdir(), target);
	d = opendir(dir);
	if (!d) {
		/* the corpus is in the source tree, not installed with the tests */
		test_skip(t, "no fuzz corpus at %s (not a source tree)", dir);
		return TEST_SKIP;
	}
	while ((de = readdir(d)) && nr < (int)ARRAY_SIZE(names)) {
		if (de->d_name[0] == '.')
			continue;
		names[nr] = strdup(de->d_name);
		if (!names[nr])
			break;
		nr++;
	}
	closedir(d);
	qsort(names, nr, sizeof(names[0]), name_cmp);
	if (!nr) {
		pr_debug("%s: empty\n", dir);
		ret = TEST_FAIL;
	}
	for (int i = 0; i < nr; i++) {
		u8 *data = NULL;
		size_t size = 0;
		int err;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		err = fuzz_corpus__read(path, &data, &size);
		if (err) {
			pr_debug("%s: cannot read: %s\n", path, strerror(-err));
			ret = TEST_FAIL;
			continue;
		}
		pr_debug("%s %s (%zu bytes)\n", target, names[i], size);
		err = fuzz_corpus__one(ft, data, size);
		if (err) {
			if (err == -SIGALRM)
				pr_debug("FAILED: %s: no answer in %d s (a hang)\n", path,
					 FUZZ_INPUT_SECS);
			else if (err < 0)
				pr_debug("FAILED: %s: killed by signal %d\n", path, -err);
			else
				pr_debug("FAILED: %s: exit status %d\n", path, err);
			ret = TEST_FAIL;
		}
		free(data);
	}
	for (int i = 0; i < nr; i++)
		free(names[i]);
	return ret;
}

static int test__fuzz_corpus_session(struct test_suite *t)
{
	return fuzz_corpus__run(t, "session");
}

static int test__fuzz_corpus_sample(struct test_suite *t)
{
	return fuzz_corpus__run(t, "sample");
}

static int test__fuzz_corpus_textpoke(struct test_suite *t)
{
	return fuzz_corpus__run(t, "textpoke");
}

static int test__fuzz_corpus_kcore(struct test_suite *t)
{
	return fuzz_corpus__run(t, "kcore");
}

static int test__fuzz_corpus_kallsyms(struct test_suite *t)
{
	return fuzz_corpus__run(t, "kallsyms");
}

static int test__fuzz_corpus_unwind(struct test_suite *t)
{
	return fuzz_corpus__run(t, "unwind");
}

static int test__fuzz_corpus_intel_pt(struct test_suite *t)
{
#ifdef HAVE_LIBIPT
	return fuzz_corpus__run(t, "intel-pt");
#else
	/* the decoder refuses to start: every input would pass unchecked */
	test_skip(t, "built without libipt");
	return TEST_SKIP;
#endif
}

struct test_suite suite__fuzz_corpus_session = {
    .desc = "fuzz corpus: whole recordings through the session",
    .func = test__fuzz_corpus_session,
};

struct test_suite suite__fuzz_corpus_sample = {
    .desc = "fuzz corpus: the sample parser per sample_type",
    .func = test__fuzz_corpus_sample,
};

struct test_suite suite__fuzz_corpus_textpoke = {
    .desc = "fuzz corpus: libtextpoke against its reference model",
    .func = test__fuzz_corpus_textpoke,
};

struct test_suite suite__fuzz_corpus_kcore = {
    .desc = "fuzz corpus: kcore and vmlinux ELF readers",
    .func = test__fuzz_corpus_kcore,
};

struct test_suite suite__fuzz_corpus_kallsyms = {
    .desc = "fuzz corpus: the kallsyms reader",
    .func = test__fuzz_corpus_kallsyms,
};

struct test_suite suite__fuzz_corpus_unwind = {
    .desc = "fuzz corpus: the DWARF unwinder on hostile stacks",
    .func = test__fuzz_corpus_unwind,
};

struct test_suite suite__fuzz_corpus_intel_pt = {
    .desc = "fuzz corpus: the Intel PT decoder on hostile AUX data",
    .func = test__fuzz_corpus_intel_pt,
};
