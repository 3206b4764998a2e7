// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf textpoke annotate on the writer's made-up kernel (fixture-kernel.h),
 * whose generator knows the bytes at every sample's IP at its time: jump
 * labels, a static call, an ftrace site and a kprobe poked back and forth,
 * a trampoline that comes and goes, BPF programs A and B at one address.
 * Every sample must be on exactly one block whose span holds its time, on
 * the line of its IP, showing the model's bytes (--asm-raw), and every
 * figure must be the number of the model's samples there (-n) or their
 * share of all (--percent-type global-hits); --time keeps the samples of a
 * window and no others; without a kcore copy, each function whose code is
 * not known is one line (none with --skip-missing), while the BPF programs
 * and the trampoline, whose bytes the recording carries, are annotated.
 * One run's --json (lib/annotate-json-versions.py) holds the text's blocks
 * in its order, each version's span, poke and BPF load as its title line
 * says, the text's figures and bytes at each address, every model sample
 * on one live version's instruction; its --html has a block per JSON
 * block, the version's data-version-* attributes and the text's title line,
 * and headless Chromium draws the first version's line between its summary
 * and its table (lib/annotate-version-shot.py reads the screenshot).  The
 * version with the kprobe armed shows the instruction the int3 hides,
 * tagged [kprobed], on memory's bytes (cc 89 e5), as perf textpoke code;
 * the optimized one (a sample then: FK_KPROBE_OPT_SAMPLE) the
 * instructions its jmp covers, tagged [kprobed, optimized].
 *
 * Mutation caught: each version's bytes read at the symbol's last sample's
 * time instead of the version's first (ak__fprintf_block()'s
 * text_image__read() at ks->samples[ks->nr - 1].time, not s[0].time): the
 * jump labels' earlier versions show the bytes of their last one, which
 * differ from the model's.  And for --json: a version's end written one
 * nanosecond late (annotate_json__version()'s "end" from v->end + 1):
 * 13 differences, each a span the text's title does not say.  And for
 * --html: the version not passed to annotate_html__block() (NULL): no
 * data-version attributes, no title line.  And "p.version { display:
 * none }" in annotate-html.c's style: the page is right, nothing drawn.
 * And code.kprobe_at left NULL in ak__write_block(): the armed version
 * lists int3 at the site and "movl %esp,%ebp" a byte after it.
 *
 * The same on a copy read while the kernel poked it (FK_KCORE_TORN), timed
 * and untimed: the static call's range caught in text_poke_bp()'s int3
 * phase.  Mutation caught: tp_site__segment_value() taking the base's
 * bytes in the phase (the first version lists "cc" at the call site and
 * its sample's bytes are not the model's).
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"
#include "fixture.h"
#include "fixture-kernel.h"

#define MAX_LINES 32768
#define MAX_BLOCKS 64

struct ann_line {
	int block;
	u64 addr;
	double figure;
	u8 bytes[16];
	int nr_bytes;
	int expected; /* the model's samples here */
};

struct ann_block {
	u64 from, to; /* the span its title says, [from, to) */
	int expected;
};

struct ann {
	struct ann_line lines[MAX_LINES];
	int nr_lines;
	struct ann_block blocks[MAX_BLOCKS];
	int nr_blocks;
};

/* "1.000002000" -> ns; "start" 0, "end" UINT64_MAX */
static u64 parse_time(const char *s)
{
	unsigned long long sec, ns;

	if (!strncmp(s, "start", 5))
		return 0;
	if (!strncmp(s, "end", 3))
		return UINT64_MAX;
	if (sscanf(s, "%llu.%9llu", &sec, &ns) != 2)
		return UINT64_MAX - 1;
	return sec * 1000000000ULL + ns;
}

/* a block title's span: "version k of n: A to B" or a BPF load's */
static void parse_title(const char *line, u64 *from, u64 *to)
{
	const char *p;

	*from = 0;
	*to = UINT64_MAX;
	p = strstr(line, ": ");
	if (strstr(line, ", version ") && p) {
		*from = parse_time(p + 2);
		p = strstr(p, " to ");
		if (p)
			*to = parse_time(p + 4);
	} else if ((p = strstr(line, "loaded at "))) {
		*from = parse_time(p + 10);
		p = strstr(p, "unloaded at ");
		if (p)
			*to = parse_time(p + 12);
	}
}

/* @out of annotate --asm-raw into @a; false on a line it cannot read */
static bool parse(const char *out, struct ann *a)
{
	u64 from = 0, to = UINT64_MAX;
	const char *line = out;

	a->nr_lines = a->nr_blocks = 0;
	while (line && *line) {
		const char *end = strchr(line, '\n');
		char buf[512];
		size_t len = end ? (size_t)(end - line) : strlen(line);
		unsigned long long addr;
		double figure;
		int n;

		snprintf(buf, sizeof(buf), "%.*s", (int)(len < sizeof(buf) ? len : sizeof(buf) - 1),
			 line);
		line = end ? end + 1 : NULL;
		if (buf[0] == '#') {
			parse_title(buf, &from, &to);
		} else if (strstr(buf, "|\tSource code & Disassembly of ")) {
			if (a->nr_blocks == MAX_BLOCKS)
				return false;
			a->blocks[a->nr_blocks].from = from;
			a->blocks[a->nr_blocks].to = to;
			a->blocks[a->nr_blocks].expected = 0;
			a->nr_blocks++;
			from = 0;
			to = UINT64_MAX;
		} else if (sscanf(buf, " %lf : %llx:%n", &figure, &addr, &n) == 2) {
			struct ann_line *l = &a->lines[a->nr_lines];
			const char *p = buf + n;
			unsigned int byte;

			if (!a->nr_blocks || a->nr_lines == MAX_LINES)
				return false;
			l->block = a->nr_blocks - 1;
			l->addr = addr;
			l->figure = figure;
			l->expected = 0;
			l->nr_bytes = 0;
			/* the raw bytes: pairs of hex digits, each followed by a blank */
			for (;;) {
				while (*p == ' ' || *p == '\t')
					p++;
				if (l->nr_bytes == 16 || !isxdigit(p[0]) || !isxdigit(p[1]) ||
				    p[2] != ' ' || sscanf(p, "%2x", &byte) != 1)
					break;
				l->bytes[l->nr_bytes++] = byte;
				p += 3;
			}
			a->nr_lines++;
		}
	}
	return true;
}

/*
 * Every model sample at or before @until on its one line; every figure
 * the model's count there (@pct: its share of all the samples kept, in %)
 */
static int check(struct ann *a, const struct fixture_kernel *fk, u64 until, bool pct)
{
	int i, j, total = 0, bad = 0;

	for (i = 0; i < fk->nr_samples; i++) {
		const struct fixture_kernel_sample *s = &fk->samples[i];
		struct ann_line *hit = NULL;
		int nr_hits = 0;

		if (s->time > until)
			continue;
		total++;
		for (j = 0; j < a->nr_lines; j++) {
			const struct ann_block *b = &a->blocks[a->lines[j].block];

			if (a->lines[j].addr == s->ip && b->from <= s->time && s->time < b->to) {
				hit = &a->lines[j];
				nr_hits++;
			}
		}
		if (nr_hits != 1) {
			pr_debug("sample at %#llx at %llu: on %d blocks' lines, not one\n",
				 (unsigned long long)s->ip, (unsigned long long)s->time, nr_hits);
			bad++;
			continue;
		}
		if (hit->nr_bytes < s->len || memcmp(hit->bytes, s->bytes, s->len)) {
			pr_debug("sample at %#llx at %llu: %d bytes shown, not the model's %d "
				 "(first %02x, model %02x)\n",
				 (unsigned long long)s->ip, (unsigned long long)s->time,
				 hit->nr_bytes, s->len, hit->nr_bytes ? hit->bytes[0] : 0,
				 s->bytes[0]);
			bad++;
		}
		hit->expected++;
		a->blocks[hit->block].expected++;
	}
	for (j = 0; j < a->nr_lines; j++) {
		const struct ann_line *l = &a->lines[j];
		double want = pct ? (total ? 100.0 * l->expected / total : 0) : l->expected;
		char w[32], got[32];

		snprintf(w, sizeof(w), "%.2f", want);
		snprintf(got, sizeof(got), "%.2f", l->figure);
		if (strcmp(w, got)) {
			pr_debug("%#llx in block %d: %s, the model says %s\n",
				 (unsigned long long)l->addr, l->block, got, w);
			bad++;
		}
	}
	/* a block no sample of the window belongs to has no business being there */
	for (j = 0; j < a->nr_blocks; j++) {
		if (!a->blocks[j].expected) {
			pr_debug("block %d holds none of the model's samples\n", j);
			bad++;
		}
	}
	if (!total) {
		pr_debug("the model has no samples up to %llu\n", (unsigned long long)until);
		bad++;
	}
	return bad;
}

static char *run(const char *path, const char *opts, char **err)
{
	char *cmd, *out = NULL;
	int st;

	*err = NULL;
	if (asprintf(&cmd, "'%s' annotate -i '%s' %s", test_self_exe(), path, opts) < 0)
		return NULL;
	st = fixture__run(cmd, &out, err);
	free(cmd);
	if (st) {
		pr_debug("annotate %s: exit %d\n%s", opts, st, *err ?: "");
		free(out);
		return NULL;
	}
	return out;
}

/* @out and @err checked against the model, up to @until */
static bool run_check(const struct fixture_kernel *fk, const char *opts, u64 until, bool pct,
		      struct ann *a)
{
	char *err, *out = run(fk->path, opts, &err);
	bool ok = out && parse(out, a);

	if (out && !ok)
		pr_debug("annotate %s: more blocks or lines than the test holds\n", opts);
	ok = ok && !check(a, fk, until, pct);

	/* a message on stderr would be a sample unaccounted for */
	if (ok && err && *err) {
		pr_debug("annotate %s says:\n%s", opts, err);
		ok = false;
	}
	if (!ok)
		pr_debug("annotate %s:\n%s", opts, out ?: "");
	free(out);
	free(err);
	return ok;
}

/*
 * One run writes the text, --json and --html: lib/annotate-json-versions.py,
 * which shares nothing with our code, finds in the document every block of
 * the text, in its order, with its version's span and each instruction's
 * figures, every model sample on one version's instruction with the
 * model's bytes, and on the page the document's blocks.  1: the checker
 * is not there (python3 missing).
 */
static int json_check(struct test_suite *t, const struct fixture_kernel *fk)
{
	char *cmd, *out = NULL, *err = NULL;
	int st;

	if (system("python3 -c 'import json' >/dev/null 2>&1")) {
		test_skip_part(t, "python3 (the JSON oracle) is not installed: --json not checked");
		return 1;
	}
	if (asprintf(&cmd,
		     "'%s' annotate -i '%s' -n --asm-raw --stdio --json='%s/a.json' "
		     "--html='%s/a.html' >'%s/a.txt' && "
		     "python3 '%s/tools/perf/tests/shell/lib/annotate-json-versions.py' "
		     "'%s/a.txt' '%s/a.json' '%s' '%s/a.html'",
		     test_self_exe(), fk->path, fk->dir, fk->dir, fk->dir, test_srcdir(), fk->dir,
		     fk->dir, fk->expected, fk->dir) < 0)
		return -1;
	st = fixture__run(cmd, &out, &err);
	free(cmd);
	if (st || (err && *err))
		pr_debug("--json against the text and the model: exit %d\n%s%s", st, out ?: "",
			 err ?: "");
	else
		pr_debug("%s", out ?: "");
	st = st || (err && *err) ? -1 : 0;
	free(out);
	free(err);
	return st;
}

/*
 * The page's first block, a poked function's first version, as headless
 * Chromium draws it: lib/annotate-version-shot.py finds its summary, the
 * version line under it and the hot line's red band below, in that order.
 */
static int shot_check(struct test_suite *t, const struct fixture_kernel *fk)
{
	char *cmd, *out = NULL, *err = NULL;
	int st;

	if (system("command -v chromium >/dev/null 2>&1")) {
		test_skip_part(t, "chromium is not installed: the --html version block not drawn");
		return 1;
	}
	if (asprintf(&cmd,
		     "timeout 50 chromium --headless --no-sandbox --disable-gpu --disable-quic "
		     "--no-first-run --disable-background-networking --disable-component-update "
		     "--disable-sync --user-data-dir='%s/chrome' --hide-scrollbars "
		     "--window-size=760,460 --screenshot='%s/shot.png' 'file://%s/a.html' "
		     ">'%s/chrome.log' 2>&1; "
		     "python3 '%s/tools/perf/tests/shell/lib/annotate-version-shot.py' "
		     "'%s/shot.png'",
		     fk->dir, fk->dir, fk->dir, fk->dir, test_srcdir(), fk->dir) < 0)
		return -1;
	st = fixture__run(cmd, &out, &err);
	free(cmd);
	pr_debug("%s%s%s", out ?: "", err ?: "",
		 st ? "the --html version block is not drawn as it should be\n" : "");
	free(err);
	free(out);
	return st ? -1 : 0;
}

static int test__annotate_kernel_versions(struct test_suite *t)
{
	static const char *const missing[] = {"fk_jl5_fn", "fk_jl2_fn", "fk_static_call_fn",
					      "fk_kprobed_fn"};
	struct fixture_kernel *fk = fixture_kernel__new(FK_KPROBE_SLOT | FK_KPROBE_OPT_SAMPLE);
	const u64 until = FK_T0 + 2500;
	struct ann *a = calloc(1, sizeof(*a));
	char *out = NULL, *err = NULL, opts[128], what[64];
	int ret = TEST_FAIL;
	size_t i;

	TEST_ASSERT_VAL("fixture", fk && a);
	if (!run_check(fk, "-n --asm-raw", UINT64_MAX, false, a))
		goto out;
	if (json_check(t, fk) < 0 || shot_check(t, fk) < 0)
		goto out;
	/* the jump label's four versions, each its own block */
	out = run(fk->path, "-n -s fk_jl5_fn", &err);
	if (!out || fixture__count(out, "# fk_jl5_fn, version ") != 4) {
		pr_debug("not 4 versions of fk_jl5_fn:\n%s", out ?: "");
		goto out;
	}
	zfree(&out);
	zfree(&err);
	/*
	 * the kprobe's int3 over mov %rsp,%rbp: the instruction it hides,
	 * tagged, on memory's bytes; never the int3, nor the "movl
	 * %esp,%ebp" of the bytes after it at +0x5.  Optimized, its jmp
	 * (e9) over the mov and two nops: those three, from the detour.
	 */
	out = run(fk->path, "-n --asm-raw -s fk_kprobed_fn", &err);
	if (!out ||
	    fixture__count(out, "cc 89 e5                movq   %rsp,%rbp [kprobed]\n") != 1 ||
	    fixture__count(out, "81000504:       cc                      int3\n") ||
	    fixture__count(out, "81000505:") || fixture__count(out, "81000504:       e9 ") != 1 ||
	    fixture__count(out, "movq   %rsp,%rbp [kprobed, optimized]\n") != 1 ||
	    fixture__count(out, "[kprobed, optimized]\n") != 3) {
		pr_debug("the kprobed instruction not shown as it was:\n%s", out ?: "");
		goto out;
	}
	zfree(&out);
	zfree(&err);
	if (!run_check(fk, "--asm-raw --percent-type global-hits", UINT64_MAX, true, a))
		goto out;
	snprintf(opts, sizeof(opts), "-n --asm-raw --time ,%llu.%09llu", until / 1000000000ULL,
		 until % 1000000000ULL);
	if (!run_check(fk, opts, until, false, a))
		goto out;
	fixture_kernel__delete(fk);

	/*
	 * A copy read while the kernel poked it (FK_KCORE_TORN: the static
	 * call's range read in text_poke_bp()'s int3 phase, cc and the old
	 * tail), with our recorder's read times and as stock perf leaves it
	 * (no times): every sample on the model's bytes, so the static call's
	 * first version is the call, not the int3 the copy holds (untimed, the
	 * fixture takes no sample before the copy ends: that version has none
	 * and is not listed; its call is the third version's).
	 */
	for (i = 0; i < 2; i++) {
		fk = fixture_kernel__new(FK_KCORE_TORN | (i ? FK_KCORE_UNTIMED : 0));
		TEST_ASSERT_VAL("torn fixture", fk);
		if (!run_check(fk, "-n --asm-raw", UINT64_MAX, false, a)) {
			pr_debug("the copy read mid-poke%s\n", i ? ", untimed" : "");
			goto out;
		}
		out = run(fk->path, "--asm-raw -s fk_static_call_fn", &err);
		if (!out || fixture__count(out, "81000304:       cc ") ||
		    fixture__count(out, "81000304:       e8 f7 0c 00 00") != (i ? 1 : 2)) {
			pr_debug("the static call's int3 phase shown as the copy holds it:\n%s",
				 out ?: "");
			goto out;
		}
		zfree(&out);
		zfree(&err);
		fixture_kernel__delete(fk);
		fk = NULL;
	}

	/* no kcore: the kallsyms functions' code is not known, one line each */
	fk = fixture_kernel__new(FK_NO_KCORE);
	TEST_ASSERT_VAL("fixture without kcore", fk);
	out = run(fk->path, "-n", &err);
	if (!out || !strstr(out, "BPF program 21,") || !strstr(out, "BPF program 22,") ||
	    !strstr(out, "<ftrace_trampoline>:")) {
		pr_debug("BPF programs or the trampoline not annotated without kcore:\n%s",
			 out ?: "");
		goto out;
	}
	for (i = 0; i < sizeof(missing) / sizeof(missing[0]); i++) {
		snprintf(what, sizeof(what), "cannot annotate %s ", missing[i]);
		if (fixture__count(err ?: "", what) != 1) {
			pr_debug("not one line for %s:\n%s", missing[i], err ?: "");
			goto out;
		}
	}
	zfree(&out);
	zfree(&err);
	out = run(fk->path, "-n --skip-missing", &err);
	if (!out || (err && *err)) {
		pr_debug("--skip-missing still says:\n%s", err ?: "");
		goto out;
	}
	ret = test_result(t);
out:
	free(out);
	free(err);
	free(a);
	fixture_kernel__delete(fk);
	return ret;
}

struct test_suite suite__annotate_kernel_versions = {
    .desc = "annotate: poked kernel functions per version, BPF programs per load (writer's kernel)",
    .func = test__annotate_kernel_versions,
};
