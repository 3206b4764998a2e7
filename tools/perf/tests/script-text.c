// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf textpoke script's insn, disasm and poked fields and its decoded
 * text poke events, on recordings of a made-up kernel whose code changes
 * while it runs (fixture-kernel.c): every sample's bytes must be the ones
 * the kernel held at that moment.  Stock perf 6.1 is the oracle when the
 * kcore was copied before the recording; when it was copied at the end,
 * stock perf is wrong (it applies the pokes forward over a copy that
 * already holds them) and the fixture's model is the oracle instead.
 * The armed kprobe's sample (no slot in these recordings) is ours
 * " insn: cc [kprobed]" where perf prints " insn: cc": the tag must be
 * there, on that line alone, and the rest equal perf's.  With the slot
 * (FK_KPROBE_SLOT), --json keeps "insn" hex pairs: "48 89 e5", and
 * "disasm" the tag.
 * Mutation caught: script.c not cutting the tag from the JSON insn:
 * "insn":"48 89 e5 [kprobed]".
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fixture-kernel.h"
#include "fixture.h"
#include "tests.h"

/* a command's stdout (caller frees); NULL when it fails */
static char *run(const char *cmd)
{
	char *out = NULL;

	if (fixture__run(cmd, &out, NULL)) {
		free(out);
		return NULL;
	}
	return out;
}

/*
 * Where only the first @want bytes of the instruction are known (no kcore,
 * a 1-byte kprobe poke before the int3 was armed): those bytes as the
 * model has them, then "??" for every byte not known, never a value; and
 * either the instruction's whole length or, when an unknown byte decides
 * it, a last "??" and " ...".
 */
static int check_partial(const struct fixture_kernel_sample *s, const char *p, size_t n, int want,
			 int i)
{
	char line[256], *tok, *save = NULL;
	int k = 0;
	bool open_end = false;

	if (n >= sizeof(line) || strncmp(p, " insn:", 6)) {
		pr_debug("line %d (ip %#" PRIx64 "): no insn for %d known bytes\n", i, s->ip, want);
		return 1;
	}
	memcpy(line, p + 6, n - 6);
	line[n - 6] = '\0';
	for (tok = strtok_r(line, " ", &save); tok; tok = strtok_r(NULL, " ", &save), k++) {
		unsigned int byte;

		if (open_end)
			goto bad;
		if (!strcmp(tok, "...")) {
			if (k <= want)
				goto bad;
			open_end = true;
			k--;
			continue;
		}
		if (k >= s->len)
			goto bad;
		if (k < want) {
			if (sscanf(tok, "%2x", &byte) != 1 || strlen(tok) != 2 ||
			    byte != s->bytes[k])
				goto bad;
		} else if (strcmp(tok, "??")) {
			goto bad;
		}
	}
	if (open_end || k == s->len)
		return 0;
bad:
	pr_debug("line %d (ip %#" PRIx64 "): '%.*s' for %d of %d bytes known\n", i, s->ip, (int)n,
		 p, want, s->len);
	return 1;
}

/* "<ip> insn: xx xx ..." per line, in sample order, against the model */
static int check_insn_lines(const struct fixture_kernel *fk, const char *out, bool poked_only)
{
	const char *line = out;
	int i = 0, bad = 0;

	for (; *line; i++) {
		const char *nl = strchr(line, '\n');
		const struct fixture_kernel_sample *s;
		unsigned long long ip;
		int pos = 0, k, want;
		const char *p;

		if (i >= fk->nr_samples) {
			pr_debug("more lines than samples\n");
			return -1;
		}
		s = &fk->samples[i];
		if (sscanf(line, " %llx%n", &ip, &pos) != 1 || ip != s->ip) {
			pr_debug("line %d: %.60s: expected ip %#" PRIx64 "\n", i, line, s->ip);
			return -1;
		}
		p = line + pos;
		want = poked_only ? s->site_len : s->len;
		/* nothing known at the IP: no insn, as perf */
		if (!want) {
			line = nl ? nl + 1 : line + strlen(line);
			continue;
		}
		if (want < s->len) {
			bad += check_partial(s, p, nl ? (size_t)(nl - p) : strlen(p), want, i);
			line = nl ? nl + 1 : line + strlen(line);
			continue;
		}
		if (strncmp(p, " insn:", 6)) {
			pr_debug("line %d (ip %#llx, t %" PRIu64 "): no insn\n", i, ip, s->time);
			bad++;
		} else {
			p += 6;
			for (k = 0; k < want; k++) {
				unsigned int byte;
				int used = 0;

				if (sscanf(p, " %2x%n", &byte, &used) != 1 || byte != s->bytes[k]) {
					pr_debug("line %d (ip %#llx, t %" PRIu64
						 "): byte %d differs\n",
						 i, ip, s->time, k);
					bad++;
					break;
				}
				p += used;
			}
		}
		line = nl ? nl + 1 : line + strlen(line);
	}
	if (i != fk->nr_samples) {
		pr_debug("%d lines for %d samples\n", i, fk->nr_samples);
		return -1;
	}
	return bad;
}

/* @s without the first " [kprobed]" tag; the number of tags cut (0 or 1) */
static int cut_kprobed(char *s)
{
	char *tag = strstr(s, " [kprobed]");

	if (!tag)
		return 0;
	memmove(tag, tag + strlen(" [kprobed]"), strlen(tag + strlen(" [kprobed]")) + 1);
	return 1;
}

static char *script(const struct fixture_kernel *fk, const char *args)
{
	char cmd[4096];

	snprintf(cmd, sizeof(cmd), "'%s' script -i '%s' %s", test_self_exe(), fk->path, args);
	return run(cmd);
}

static int test__script_text(struct test_suite *t)
{
	struct fixture_kernel *fk;
	char *ours, *theirs, *out;
	int ret = TEST_FAIL;
	bool have_perf = fixture__have_perf();

	/* kcore copied before the recording: the model, and stock perf agrees */
	fk = fixture_kernel__new(0);
	TEST_ASSERT_VAL("fixture", fk);
	ours = script(fk, "-F ip,insn");
	TEST_ASSERT_VAL("script -F ip,insn", ours);
	TEST_ASSERT_EQUAL("insn bytes differ from the model", check_insn_lines(fk, ours, false), 0);
	TEST_ASSERT_EQUAL("the armed kprobe's line tagged",
			  fixture__count(ours, " ffffffff81000504 insn: cc [kprobed]\n"), 1);
	TEST_ASSERT_EQUAL("one tag", cut_kprobed(ours) + cut_kprobed(ours), 1);
	if (have_perf) {
		char cmd[4096];

		snprintf(cmd, sizeof(cmd), "perf script -i '%s' -F ip,insn", fk->path);
		theirs = run(cmd);
		TEST_ASSERT_VAL("stock perf script -F ip,insn", theirs);
		if (strcmp(ours, theirs)) {
			pr_debug("ours:\n%s\nstock perf:\n%s\n", ours, theirs);
			return TEST_FAIL;
		}
		free(theirs);
	}
	free(ours);

	/* disasm names the jump label's target once it is a jmp, poked marks it */
	out = script(fk, "-F ip,disasm,poked");
	TEST_ASSERT_VAL("script -F ip,disasm,poked", out);
	TEST_ASSERT_VAL("a nop before the pokes", strstr(out, "nopl"));
	TEST_ASSERT_VAL("a jmp after them", strstr(out, "jmp"));
	TEST_ASSERT_VAL("poked marker", strstr(out, "[poked "));
	free(out);

	out = script(fk, "--show-text-poke-events -F ip");
	TEST_ASSERT_VAL("script --show-text-poke-events", out);
	TEST_ASSERT_VAL("decoded poke", strstr(out, "nop5 -> jmp"));
	TEST_ASSERT_VAL("verified", strstr(out, "(verified)"));
	TEST_ASSERT_VAL("no mismatch", !strstr(out, "mismatch"));
	free(out);
	fixture_kernel__delete(fk);

	/* kcore copied at the end: stock perf is wrong here, the model is not */
	fk = fixture_kernel__new(FK_KCORE_END);
	TEST_ASSERT_VAL("fixture (kcore at the end)", fk);
	ours = script(fk, "-F ip,insn --kcore-time end");
	TEST_ASSERT_VAL("script, kcore at the end", ours);
	TEST_ASSERT_EQUAL("kcore at the end: bytes differ", check_insn_lines(fk, ours, false), 0);
	free(ours);
	fixture_kernel__delete(fk);

	/* no kcore at all: what the pokes touched is still known */
	fk = fixture_kernel__new(FK_NO_KCORE);
	TEST_ASSERT_VAL("fixture (no kcore)", fk);
	ours = script(fk, "-F ip,insn");
	TEST_ASSERT_VAL("script, no kcore", ours);
	TEST_ASSERT_EQUAL("no kcore: poked bytes differ", check_insn_lines(fk, ours, true), 0);
	/* the kprobe's first byte, 48 (REX.W), before the int3: its opcode is not known */
	TEST_ASSERT_EQUAL("no kcore: kprobe site before the int3",
			  fixture__count(ours, " insn: 48 ?? ...\n"), 2);
	free(ours);
	fixture_kernel__delete(fk);

	/* with the slot: JSON's insn the bytes memory held, as long as the probed instruction; disasm it, tagged */
	fk = fixture_kernel__new(FK_KPROBE_SLOT);
	TEST_ASSERT_VAL("fixture (kprobe slot)", fk);
	out = script(fk, "--json -F ip,insn,disasm");
	TEST_ASSERT_VAL("script --json, kprobe slot", out);
	if (!strstr(out, "\"insn\":\"cc 89 e5\",\"disasm\":\"movq %rsp,%rbp [kprobed]\"")) {
		pr_debug("no kprobed sample in\n%s\n", out);
		return TEST_FAIL;
	}
	free(out);
	fixture_kernel__delete(fk);

	/* a poke the file lacks is a mismatch on the line of the next one */
	fk = fixture_kernel__new(FK_DROP_POKE);
	TEST_ASSERT_VAL("fixture (dropped poke)", fk);
	out = script(fk, "--show-text-poke-events -F ip");
	TEST_ASSERT_VAL("script, dropped poke", out);
	TEST_ASSERT_VAL("mismatch reported", strstr(out, "mismatch"));
	free(out);
	fixture_kernel__delete(fk);
	ret = TEST_OK;
	(void)t;
	return ret;
}

struct test_suite suite__script_text = {
    .desc = "script: insn, disasm, poked and text poke events as of each sample's time",
    .func = test__script_text,
};
