// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf textpoke code: the listing of a range at a time.  Run in-process
 * (cmd_textpoke_code() with stdout in a file) so that it is tested before
 * builtin-textpoke.c's table lists it.  A kprobed instruction lists as
 * the bytes memory holds (the int3, the optimizer's jmp) under the
 * instruction its slot holds, tagged; with no slot as "int3 [kprobed]" and
 * the probed instruction's other bytes, never decoded on their own.
 * Mutation caught: kp_rest() always false: "89 e5" decodes as
 * "movl %esp,%ebp" after the int3.
 * Mutation caught: code__kprobed_head() listing nothing: the optimized
 * probe's two nops the jmp covers are missing.
 *
 * Mutation caught: code__print_check() printing the image's bytes before
 * the poke when only the copy after it disagrees (the end_jl5 case), or
 * leaving out the copy's side (end_jl5, end_dropped).
 */
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "tests.h"
#include "fixture.h"
#include "fixture-kernel.h"

/* until builtin.h declares it */

/* runs perf textpoke code with @args (space separated), returns its stdout */
static char *run_code(const char *args, int *status)
{
	char *tmp = fixture__tmpdir(), *path = NULL, *copy = strdup(args), *argv[32], *save;
	char *out = NULL;
	int argc = 0, fd, saved;
	FILE *f;

	if (!tmp || !copy || asprintf(&path, "%s/out", tmp) < 0)
		goto out;
	argv[argc++] = (char *)"code";
	for (char *a = strtok_r(copy, " ", &save); a && argc < 31; a = strtok_r(NULL, " ", &save))
		argv[argc++] = a;
	argv[argc] = NULL;
	fflush(stdout);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	saved = dup(1);
	if (fd < 0 || saved < 0)
		goto out;
	dup2(fd, 1);
	close(fd);
	/*
	 * popt_ctx__init() sets optind to 1, which leaves getopt's pointer
	 * into the previous run's (freed) argv: optind 0 makes glibc start over.
	 */
	{
		char *dummy[] = {(char *)"code", NULL};

		optind = 0;
		getopt(1, dummy, "");
	}
	*status = cmd_textpoke_code(argc, argv);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	f = fopen(path, "r");
	if (f) {
		size_t n = 0;

		if (getdelim(&out, &n, '\0', f) < 0) {
			free(out);
			out = strdup("");
		}
		fclose(f);
	}
out:
	if (tmp)
		fixture__rm_rf(tmp);
	free(tmp);
	free(path);
	free(copy);
	return out;
}

/* runs code on @fk with "-i <path> @fmt..." and checks every needle is in the output */
static int expect(struct fixture_kernel *fk, int want_status, const char *args,
		  const char *const *needles, const char *const *absent)
{
	char cmd[512], *out;
	int status = -1, ret = TEST_OK;

	snprintf(cmd, sizeof(cmd), "-i %s %s", fk->path, args);
	out = run_code(cmd, &status);
	if (!out)
		return TEST_FAIL;
	if (status != want_status) {
		pr_debug("code %s: exit %d, expected %d\n", args, status, want_status);
		ret = TEST_FAIL;
	}
	for (; needles && *needles; needles++) {
		if (!strstr(out, *needles)) {
			pr_debug("code %s: no '%s' in\n%s\n", args, *needles, out);
			ret = TEST_FAIL;
		}
	}
	for (; absent && *absent; absent++) {
		if (strstr(out, *absent)) {
			pr_debug("code %s: '%s' should not be in\n%s\n", args, *absent, out);
			ret = TEST_FAIL;
		}
	}
	free(out);
	return ret;
}

/* git's t0450: the man page's SYNOPSIS is what -h prints */
static int check_synopsis(void)
{
	char *doc_path, *doc = NULL, *help, *syn, *end;
	int status = -1, ret = TEST_FAIL;
	size_t n = 0;
	FILE *f;

	if (asprintf(&doc_path, "%s/tools/perf/Documentation/perf-textpoke-code.txt",
		     test_srcdir()) < 0)
		return TEST_FAIL;
	f = fopen(doc_path, "r");
	free(doc_path);
	if (!f)
		return TEST_FAIL;
	if (getdelim(&doc, &n, '\0', f) < 0)
		goto out_close;
	help = run_code("-h", &status);
	syn = strstr(doc, "[verse]\n");
	if (help && syn && status == 0) {
		char line[256];

		syn += strlen("[verse]\n");
		end = strchr(syn, '\n');
		if (end && (size_t)(end - syn) < sizeof(line)) {
			char *o = line;

			/* the asciidoc quotes go */
			for (; syn < end; syn++) {
				if (*syn != '\'')
					*o++ = *syn;
			}
			*o = '\0';
			if (strstr(help, line) && strstr(help, "Usage: "))
				ret = TEST_OK;
			else
				pr_debug("SYNOPSIS '%s' is not in -h:\n%s\n", line, help);
		}
	}
	free(help);
out_close:
	free(doc);
	fclose(f);
	return ret;
}

static int test__textimage_code(struct test_suite *t)
{
	static const char *const jl5_on[] = {
	    "ffffffff81000104:  e9 3b 00 00 00        jmp fk_jl5_fn+0x44 [poked 1.000002000]",
	    "ffffffff81000100 <fk_jl5_fn>:",
	    "# poke 1.000002000 0xffffffff81000104: nop5 -> jmp fk_jl5_fn+0x44 (verified)",
	    "# poke 1.000005000 0xffffffff81000104: jmp fk_jl5_fn+0x44 -> nop5 (verified)",
	    NULL,
	};
	static const char *const jl5_off[] = {
	    "ffffffff81000104:  0f 1f 44 00 00        nopl (%rax,%rax)",
	    NULL,
	};
	static const char *const poked[] = {"[poked", NULL};
	static const char *const tramp[] = {
	    "ffffffffa0001000 <ftrace_trampoline>:",
	    "ffffffffa0001004:  e8 f7 ff ff e0        call fk_target_a [poked 1.000003001]",
	    NULL,
	};
	static const char *const tramp_gone[] = {"ffffffffa0001000:  ?? x 16 (unknown)", NULL};
	static const char *const bpf_a[] = {
	    "ffffffffc0002000 <bpf_prog_a1a1a1a1a1a1a1a1_fk_a>:",
	    "ffffffffc0002005:  55                    push %rbp",
	    NULL,
	};
	static const char *const bpf_b[] = {
	    "ffffffffc0002000 <bpf_prog_b2b2b2b2b2b2b2b2_fk_b>:",
	    "ffffffffc0002005:  66 90                 nop",
	    NULL,
	};
	static const char *const no_base[] = {
	    "# base: none",
	    "ffffffff81000100:  ?? x 4 (unknown)",
	    "ffffffff81000104:  0f 1f 44 00 00        nopl (%rax,%rax)",
	    NULL,
	};
	static const char *const dropped[] = {
	    "# poke 1.000006010 0xffffffff81000204: nop2 -> jmp fk_jl2_fn+0x16 (mismatch), "
	    "the image held eb 10",
	    NULL,
	};
	/* no slot: the int3 alone, then the probed instruction's other bytes, not "movl" */
	static const char *const kprobe_int3[] = {
	    "ffffffff81000504:  cc                    int3 [kprobed] [poked 1.000002040]",
	    "ffffffff81000505:  89 e5                 (the kprobed instruction's other bytes)",
	    NULL,
	};
	static const char *const kprobe_not_esp[] = {"%esp", NULL};
	static const char *const kprobe_slot[] = {
	    "ffffffff81000504:  cc 89 e5              movq %rsp,%rbp [kprobed] [poked 1.000002040]",
	    "ffffffff81000507:  90                    nop",
	    NULL,
	};
	/*
	 * memory's bytes, the jmp to the detour at FK_KSLOT_DETOUR (rel32
	 * 0x1f00fcf7 from 0xffffffff81000509), under the instructions it covers
	 */
	static const char *const kprobe_optimized[] = {
	    "ffffffff81000504:  e9 f7 fc              movq %rsp,%rbp [kprobed, optimized] "
	    "[poked 1.000002150]",
	    "ffffffff81000507:  00                    nop [kprobed, optimized] [poked 1.000002150]",
	    "ffffffff81000508:  1f                    nop [kprobed, optimized] [poked 1.000002150]",
	    "ffffffff81000509:  90                    nop\n",
	    NULL,
	};
	static const char *const kprobed[] = {"[kprobed", NULL};
	/*
	 * The copy taken at the start, said to be from the end: after the
	 * last poke at jump label 5 it holds the nop5 the poke replaced.
	 * Only that side disagrees, and the line names the copy's bytes,
	 * not the earlier poke's that agree.
	 */
	static const char *const end_jl5[] = {
	    "# poke 1.000006000 0xffffffff81000104: nop5 -> jmp fk_jl5_fn+0x44 (mismatch), "
	    "the kcore copy after it held 0f 1f 44 00 00\n",
	    NULL,
	};
	static const char *const end_jl5_not[] = {"the image held", NULL};
	/* a dropped poke and a late copy: each side that disagrees, each with its bytes */
	static const char *const end_dropped[] = {
	    "# poke 1.000006010 0xffffffff81000204: nop2 -> jmp fk_jl2_fn+0x16 (mismatch), "
	    "the image held eb 10, the kcore copy after it held 66 90\n",
	    NULL,
	};
	struct fixture_kernel *fk = fixture_kernel__new(0);
	int ret = TEST_FAIL;

	TEST_ASSERT_VAL("fixture", fk);
	if (check_synopsis() ||
	    expect(fk, 0, "--time 1.000002100 --pokes ffffffff81000100 16", jl5_on, NULL) ||
	    expect(fk, 0, "--time 1.000001000 ffffffff81000100 16", jl5_off, poked) ||
	    expect(fk, 129, "--time 1000001000ns ffffffff81000104 5", NULL, NULL) ||
	    expect(fk, 0, "--time 1 ffffffff81000104 5", jl5_off, poked) ||
	    expect(fk, 0, "--time 1.000003100 ffffffffa0001000 16", tramp, NULL) ||
	    expect(fk, 0, "--time 1.000003300 ffffffffa0001000 16", tramp_gone, NULL) ||
	    expect(fk, 0, "--no-kcore --time 1.000004100 ffffffffc0002000 16", bpf_a, NULL) ||
	    expect(fk, 0, "--no-kcore --time 1.000004400 ffffffffc0002000 16", bpf_b, NULL) ||
	    expect(fk, 0, "--no-kcore --time 1.000001000 ffffffff81000100 9", no_base, NULL) ||
	    expect(fk, 129, "--time 1.000001000 not-hex", NULL, NULL) ||
	    expect(fk, 129, "--kcore-time sometime ffffffff81000100", NULL, NULL) ||
	    expect(fk, 1, "--kcore /nonexistent ffffffff81000100", NULL, NULL) ||
	    expect(fk, 0, "--time 1.000002100 ffffffff81000504 4", kprobe_int3, kprobe_not_esp) ||
	    expect(fk, 0, "--kcore-time end --pokes ffffffff81000104 5", end_jl5, end_jl5_not))
		goto out;
	fixture_kernel__delete(fk);
	fk = fixture_kernel__new(FK_KPROBE_SLOT);
	if (!fk || expect(fk, 0, "--time 1.000002100 ffffffff81000504 4", kprobe_slot, NULL) ||
	    expect(fk, 0, "--time 1.000002200 ffffffff81000504 6", kprobe_optimized, NULL) ||
	    expect(fk, 0, "--time 1.000005100 ffffffff81000504 4", NULL, kprobed))
		goto out;
	fixture_kernel__delete(fk);
	fk = fixture_kernel__new(FK_DROP_POKE);
	if (!fk || expect(fk, 0, "--pokes ffffffff81000204 2", dropped, NULL) ||
	    expect(fk, 0, "--kcore-time end --pokes ffffffff81000204 2", end_dropped, NULL))
		goto out;
	ret = TEST_OK;
out:
	fixture_kernel__delete(fk);
	return ret;
}

struct test_suite suite__textimage_code = {
    .desc = "textimage: perf textpoke code lists a range as it was at a time",
    .func = test__textimage_code,
};
