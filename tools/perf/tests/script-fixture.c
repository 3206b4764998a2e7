// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf textpoke script on the writer's fixture recording (tests/fixture.h:
 * 64-bit and 32-bit tasks, BPF programs reusing an address, jump label
 * TEXT_POKEs) in file, pipe and zstd form: the samples and the task,
 * mmap, bpf and text poke lines equal stock perf 6.1's, and the ABI of
 * each sample is named (abi:64, abi:32, abi:none) where perf prints a bare
 * number and the 64-bit register names for the 32-bit task.
 *
 * Kernel symbols are left out of the comparison: the fixture says it was
 * recorded on kernel "6.1.0-fixture" without a kernel build-id, and stock
 * perf resolves its kernel addresses against the running kernel's
 * /proc/kallsyms, moved to the fixture's _text (0xffffffff81000000).  We
 * do too where the running kernel's _text is there, and print [unknown]
 * where it is not (KASLR): which one depends on the machine the test
 * runs on (script-parity-ksyms.sh checks both).
 */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"
#include "fixture.h"
#include "../util/writer.h"

static const char *const option_sets[] = {
    "",
    /* perf 6.1 shows KSYMBOLs with text pokes (process_bpf_events), BPF_EVENTs not */
    "--show-text-poke-events",
    "--show-task-events --show-mmap-events --show-bpf-events --show-text-poke-events",
    "--show-text-poke-events --show-bpf-events -F comm,tid,cpu,time,event,ip,sym,dso",
    "-F tid,time,ip,period --ns",
};

/* drop what follows a kernel address up to its dso, and a TEXT_POKE's symbol */
static char *normalize(const char *text)
{
	static const char *const patterns[] = {
	    " [^ \n]+ \\(\\[kernel\\.kallsyms\\]\\)",
	    "POKE [0-9a-f]+ [^ \n]* ?old len",
	    /* our decoded poke, a line perf does not print */
	    "\n {12}Decoded: [^\n]*",
	};
	static const char *const repl[] = {" K", " old len", ""};
	/* the TEXT_POKE pattern keeps "POKE <addr>" */
	static const bool keep_first_word[] = {false, true, false};
	char *cur = strdup(text);
	size_t i;

	for (i = 0; cur && i < ARRAY_SIZE(patterns); i++) {
		regex_t re;
		regmatch_t m;
		char *out, *o;
		const char *p = cur;

		if (regcomp(&re, patterns[i], REG_EXTENDED))
			break;
		out = o = malloc(strlen(cur) + 1);
		if (!out) {
			regfree(&re);
			break;
		}
		while (!regexec(&re, p, 1, &m, 0)) {
			memcpy(o, p, m.rm_so);
			o += m.rm_so;
			if (keep_first_word[i]) {
				const char *w = p + m.rm_so;
				const char *sp = strchr(w + 5, ' '); /* after "POKE " */

				memcpy(o, w, sp - w);
				o += sp - w;
			}
			strcpy(o, repl[i]);
			o += strlen(repl[i]);
			p += m.rm_eo;
		}
		strcpy(o, p);
		regfree(&re);
		free(cur);
		cur = out;
	}
	return cur;
}

static int compare(const char *path, const char *opts)
{
	char *cmd = NULL, *theirs = NULL, *ours = NULL, *err = NULL;
	int ret = TEST_FAIL, st;

	if (asprintf(&cmd, "perf script -i '%s' %s", path, opts) < 0)
		return TEST_FAIL;
	st = fixture__run(cmd, &theirs, &err);
	pr_debug("$ %s -> %d\n%s", cmd, st, err ? err : "");
	free(cmd);
	free(err);
	err = NULL;
	if (st || !theirs)
		goto out;
	if (asprintf(&cmd, "'%s' script -i '%s' %s", test_self_exe(), path, opts) < 0)
		goto out;
	st = fixture__run(cmd, &ours, &err);
	pr_debug("$ %s -> %d\n%s", cmd, st, err ? err : "");
	free(cmd);
	if (st || !ours)
		goto out;
	if (!theirs[0]) {
		pr_debug("stock perf printed nothing\n");
		goto out;
	}
	{
		char *a = normalize(theirs), *b = normalize(ours);

		free(theirs);
		free(ours);
		theirs = a;
		ours = b;
	}
	if (!theirs || !ours || strcmp(theirs, ours)) {
		pr_debug("stock perf:\n%s\nperf textpoke:\n%s\n", theirs, ours);
		goto out;
	}
	ret = TEST_OK;
out:
	free(theirs);
	free(ours);
	free(err);
	return ret;
}

static int check_abi(const char *path)
{
	char *cmd = NULL, *out = NULL;
	int ret = TEST_FAIL;

	if (asprintf(&cmd, "'%s' script -i '%s' -F tid,abi,uregs", test_self_exe(), path) < 0)
		return TEST_FAIL;
	if (fixture__run(cmd, &out, NULL) || !out)
		goto out;
	pr_debug("%s", out);
	/* every sample of each task says its ABI, the 32-bit one with i386 names */
	if (fixture__count(out, "\n") < 3 || !strstr(out, " 4242  abi:64 ABI:2 ") ||
	    !strstr(out, " 4243  abi:32 ABI:1   eax:0x") || !strstr(out, " eflags:0x") ||
	    !strstr(out, "abi:none\n") || strstr(out, " 4243  abi:32 ABI:1    AX:"))
		goto out;
	ret = TEST_OK;
out:
	free(cmd);
	free(out);
	return ret;
}

static int test__script_fixture(struct test_suite *t)
{
	static const struct {
		unsigned int flags;
		const char *what;
	} modes[] = {
	    {0, "file"},
	    {PERF_WRITER_PIPE, "pipe"},
	    {PERF_WRITER_ZSTD, "zstd"},
	};
	size_t m, i;

	if (!fixture__have_perf()) {
		test_skip(t, "stock perf is not installed");
		return TEST_SKIP;
	}
	for (m = 0; m < ARRAY_SIZE(modes); m++) {
		struct fixture *f = fixture__new(modes[m].flags);

		TEST_ASSERT_VAL("fixture", f);
		for (i = 0; i < ARRAY_SIZE(option_sets); i++) {
			if (compare(f->path, option_sets[i])) {
				pr_debug("%s: differs from perf script %s\n", modes[m].what,
					 option_sets[i]);
				fixture__delete(f);
				return TEST_FAIL;
			}
		}
		if (check_abi(f->path)) {
			pr_debug("%s: abi/uregs not as expected\n", modes[m].what);
			fixture__delete(f);
			return TEST_FAIL;
		}
		fixture__delete(f);
	}
	return TEST_OK;
}

struct test_suite suite__script_fixture = {
    .desc = "script: the fixture recording as perf script prints it, plus ABIs",
    .func = test__script_fixture,
};
