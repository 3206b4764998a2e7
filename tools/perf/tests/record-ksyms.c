// SPDX-License-Identifier: GPL-2.0-only
/*
 * record: the trimmed kallsyms copy keeps what poked code and trampolines
 * name.  A made-up kernel's full kallsyms (hundreds of filler functions
 * around the ones that matter, kprobe, ftrace and BPF trampolines in the
 * module area, a module spanning the BPF programs) and a kcore holding an
 * ftrace trampoline's bytes; the text pokes a real 6.1 guest made (a
 * static call site e8 -> e8, a jump label nop5 -> e9, a kprobe slot's
 * "41 54 cc", an optprobe detour ending in a jmp back) go through
 * record_ksyms__text_poke() as the record loop hands them, then
 * record_ksyms__kcore_dir() and the trimmer.  Expected, derived by hand
 * from the table below: each branch target resolves, in the trimmed copy,
 * to the symbol the full table names it by, at the same offset; the
 * __SCT__ and trampoline symbols nobody branched to are there, with the
 * target of an unpoked __SCT__ trampoline's jmp (in the kcore); and the
 * copy stays small (no filler beyond the neighbours that end the kept
 * symbols).  The lookup is the test's own sscanf, not kallsyms.c.
 * Mutation caught: record_ksyms__text_poke() not scanning the old bytes:
 * dynamic_cond_resched_old resolves to filler_65+0x700.
 * Mutation caught: kcore_dir__trim_kallsyms() looking in the group
 * starting highest below the ip only: fkmod_exit+0x10 resolves to
 * fkmod_helper+0x10010 ([bpf] starts between them).
 * Mutation caught: kcore_dir__trim_kallsyms() taking the kernel's lines as
 * listed, not merged into address order: __cond_resched (listed after
 * the filler) resolves to filler_63+0x100; taking a module's so:
 * fkmod_exit+0x10 resolves to bpf_prog_0123456789abcdef_late+0x10010.
 * Mutation caught: ksym__kept_by_name() without "__SCT__":
 * __SCT__might_resched is cut.
 * Mutation caught: record_ksyms__kcore_dir() not reading the static call
 * trampolines' bytes: __might_resched is cut.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"
#include "fixture.h"
#include "fixture-kcore.h"
#include "../util/kcore-copy.h"
#include "../util/record-features.h"
#include "../util/record-ksyms.h"

#define K ((u64)0xffffffff81000000ULL)
#define NR_FILLER 400
/* a filler every 0x100 bytes, except where a named symbol sits */
#define FILLER_STEP 0x100

static const struct named {
	u64 addr;
	const char *line_rest; /* type, name, module */
} named[] = {
    {K + 0x2000, "T __traceiter_sched_wakeup"}, {K + 0x3000, "T __SCT__cond_resched"},
    {K + 0x3100, "T __SCT__might_resched"},	{K + 0x4000, "T __cond_resched"},
    {K + 0x4800, "t dynamic_cond_resched_old"}, {K + 0x5000, "T ftrace_caller"},
    {K + 0x5100, "T ftrace_regs_caller"},	{K + 0x6000, "T do_work"},
    {K + 0x7000, "t kprobe_ret_target"},	{K + 0x8000, "T call_site_func"},
    {K + 0x9000, "T jump_label_func"},		{K + 0xa000, "T unrelated_func"},
    {K + 0xb000, "T __might_resched"},
};

/*
 * The module area: kprobe pages and an ftrace trampoline, a module whose
 * code spans the BPF programs' range (module_alloc() hands out space as
 * it comes), so that the group starting highest below fkmod_exit is
 * [bpf], not [fkmod]
 */
#define KPROBE_PAGE ((u64)0xffffffffc0001000ULL)
#define FTRACE_TRAMP ((u64)0xffffffffc0003000ULL)
#define OPTPROBE_PAGE ((u64)0xffffffffc0004000ULL)
#define MOD ((u64)0xffffffffc0010000ULL)
#define BPF_PROG ((u64)0xffffffffc0020000ULL)
#define BPF_TRAMP ((u64)0xffffffffc0028000ULL)
#define BPF_LATE ((u64)0xffffffffc0030000ULL)
#define MOD_EXIT ((u64)0xffffffffc0040000ULL)

static char *make_kallsyms(void)
{
	size_t alloc = 64 << 10, len = 0;
	char *s = malloc(alloc);

	if (!s)
		return NULL;
	len += sprintf(s + len, "%016" PRIx64 " T _text\n%016" PRIx64 " T _stext\n", K, K);
	for (int i = 1; i < NR_FILLER; i++) {
		u64 a = K + (u64)i * FILLER_STEP;
		bool taken = false;

		for (size_t j = 0; j < sizeof(named) / sizeof(named[0]); j++)
			taken |= named[j].addr == a;
		if (taken)
			continue;
		len += sprintf(s + len, "%016" PRIx64 " t filler_%d\n", a, i);
	}
	for (size_t j = 0; j < sizeof(named) / sizeof(named[0]); j++)
		len += sprintf(s + len, "%016" PRIx64 " %s\n", named[j].addr, named[j].line_rest);
	len += sprintf(s + len, "%016" PRIx64 " T _etext\n", K + NR_FILLER * FILLER_STEP);
	return s;
}

/*
 * The module area lines, one by one, in the kernel's %016lx form; the
 * module's in its symbol table's order, not by address, as kallsyms lists
 * a module's symbols
 */
static int append_modules(char **s)
{
	const u64 addrs[] = {KPROBE_PAGE, FTRACE_TRAMP, OPTPROBE_PAGE,	 MOD + 0x20000,
			     MOD_EXIT,	  MOD,		MOD + 0x100,	 BPF_PROG,
			     BPF_TRAMP,	  BPF_LATE,	MOD_EXIT + 0x100};
	const char *rest[] = {
	    "t kprobe_insn_page\t[__builtin__kprobes]",
	    "t ftrace_trampoline\t[__builtin__ftrace]",
	    "t kprobe_optinsn_page\t[__builtin__kprobes]",
	    "t fkmod_helper\t[fkmod]",
	    "t fkmod_exit\t[fkmod]",
	    "t fkmod_init\t[fkmod]",
	    "t fkmod_work\t[fkmod]",
	    "t bpf_prog_6deef7357e7b4530_a\t[bpf]",
	    "t bpf_trampoline_6442\t[bpf]",
	    "t bpf_prog_0123456789abcdef_late\t[bpf]",
	    "t fkmod_cleanup\t[fkmod]",
	};
	size_t len = strlen(*s);
	char *t = realloc(*s, len + 1024);

	if (!t)
		return -ENOMEM;
	*s = t;
	for (size_t i = 0; i < sizeof(addrs) / sizeof(addrs[0]); i++)
		len += sprintf(t + len, "%016" PRIx64 " %s\n", addrs[i], rest[i]);
	return 0;
}

static void put_rel32(u8 *p, u64 insn, int len, u64 target)
{
	s32 rel = (s32)(target - (insn + len));

	memcpy(p + len - 4, &rel, 4);
}

/* a TEXT_POKE record of @old and @new at @addr, into @buf */
static const union perf_event *text_poke(u8 *buf, u64 addr, const u8 *old, u16 old_len,
					 const u8 *new, u16 new_len)
{
	union perf_event *ev = (void *)buf;
	size_t size = sizeof(struct perf_record_text_poke) + old_len + new_len;

	memset(buf, 0, 256);
	ev->header.type = PERF_RECORD_TEXT_POKE;
	ev->header.size = (size + 7) & ~7UL;
	ev->text_poke.addr = addr;
	ev->text_poke.old_len = old_len;
	ev->text_poke.new_len = new_len;
	if (old_len)
		memcpy(ev->text_poke.bytes, old, old_len);
	memcpy(ev->text_poke.bytes + old_len, new, new_len);
	return ev;
}

/* the symbol at or below @addr in kallsyms file @path, as "name+0xoff" */
static int resolve(const char *path, u64 addr, char *out, size_t len)
{
	FILE *f = fopen(path, "r");
	char line[512], name[256], best[256] = "";
	u64 a, best_a = 0;
	char type;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%" SCNx64 " %c %255s", &a, &type, name) != 3)
			continue;
		if (a <= addr && a >= best_a) {
			best_a = a;
			strcpy(best, name);
		}
	}
	fclose(f);
	snprintf(out, len, "%s+0x%" PRIx64 "", best, addr - best_a);
	return 0;
}

static int count_lines(const char *path)
{
	FILE *f = fopen(path, "r");
	int n = 0, c;

	if (!f)
		return -1;
	while ((c = getc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

static int test__record_ksyms(struct test_suite *t __maybe_unused)
{
	/* the ftrace trampoline's bytes: push %rbp; call do_work; pop %rbp; ret */
	u8 tramp[0x40] = {0x55, 0xe8, 0, 0, 0, 0, 0x5d, 0xc3};
	/* an unpoked static call trampoline: jmp __might_resched; int3 padding */
	u8 sct[16] = {0xe9, 0, 0, 0, 0, 0xcc, 0xcc, 0xcc};
	struct fixture_segment segs[] = {
	    {K + 0x3100, sct, sizeof(sct)},
	    {FTRACE_TRAMP, tramp, sizeof(tramp)},
	};
	const struct {
		u64 target;
		const char *want;
	} checks[] = {
	    {K + 0x4000, "__cond_resched+0x0"},
	    {K + 0x4800, "dynamic_cond_resched_old+0x0"},
	    {K + 0x2000, "__traceiter_sched_wakeup+0x0"},
	    {K + 0x6000, "do_work+0x0"},
	    {K + 0x7010, "kprobe_ret_target+0x10"},
	    {K + 0x3100, "__SCT__might_resched+0x0"},
	    {K + 0xb000, "__might_resched+0x0"},
	    {K + 0x5100, "ftrace_regs_caller+0x0"},
	    {MOD_EXIT + 0x10, "fkmod_exit+0x10"},
	    {BPF_TRAMP, "bpf_trampoline_6442+0x0"},
	    {OPTPROBE_PAGE, "kprobe_optinsn_page+0x0"},
	    {FTRACE_TRAMP, "ftrace_trampoline+0x0"},
	    /* nothing names it: the neighbour kept below answers, not it */
	    {K + 0xa000, NULL},
	};
	struct record_hits hits;
	char *dir = NULL, *kallsyms = NULL, path[4096], fpath[4096], got[300], full[300];
	u8 buf[256], old[16], new[16];
	size_t nr = 0;
	u64 *ips = NULL;
	int ret = TEST_FAIL, lines;

	record_hits__init(&hits);
	put_rel32(tramp + 1, FTRACE_TRAMP + 1, 5, K + 0x6000);
	put_rel32(sct, K + 0x3100, 5, K + 0xb000);
	dir = fixture__tmpdir();
	kallsyms = make_kallsyms();
	if (!dir || !kallsyms || append_modules(&kallsyms))
		goto out;
	if (fixture__write_kcore_dir(dir, kallsyms, NULL, segs, 2)) {
		pr_debug("cannot write %s/kcore_dir\n", dir);
		goto out;
	}
	if (fixture__write_file(dir, "full", kallsyms, strlen(kallsyms)))
		goto out;

	/* a static call site in call_site_func: call the old target, then the new */
	old[0] = new[0] = 0xe8;
	put_rel32(old, K + 0x8010, 5, K + 0x4800);
	put_rel32(new, K + 0x8010, 5, K + 0x4000);
	record_ksyms__text_poke(&hits, text_poke(buf, K + 0x8010, old, 5, new, 5));
	/* a jump label in jump_label_func: nop5 -> jmp */
	memcpy(old, "\x0f\x1f\x44\x00\x00", 5);
	new[0] = 0xe9;
	put_rel32(new, K + 0x9020, 5, K + 0x2000);
	record_ksyms__text_poke(&hits, text_poke(buf, K + 0x9020, old, 5, new, 5));
	/* a jump label in the module, to a function past the BPF programs */
	memcpy(old, "\x0f\x1f\x44\x00\x00", 5);
	new[0] = 0xe9;
	put_rel32(new, MOD + 0x110, 5, MOD_EXIT + 0x10);
	record_ksyms__text_poke(&hits, text_poke(buf, MOD + 0x110, old, 5, new, 5));
	/* a kprobe slot filled: push %r12; int3 */
	record_ksyms__text_poke(
	    &hits, text_poke(buf, KPROBE_PAGE + 0x20, NULL, 0, (const u8 *)"\x41\x54\xcc", 3));
	/* an optprobe detour's tail: the copied insn, then jmp back past the site */
	memcpy(new, "\x41\x54\xe9", 3);
	put_rel32(new + 2, OPTPROBE_PAGE + 0x82, 5, K + 0x7010);
	record_ksyms__text_poke(&hits, text_poke(buf, OPTPROBE_PAGE + 0x80, NULL, 0, new, 7));

	snprintf(path, sizeof(path), "%s/kcore_dir", dir);
	if (record_ksyms__kcore_dir(&hits, path)) {
		pr_debug("record_ksyms__kcore_dir(%s) failed\n", path);
		goto out;
	}
	ips = record_hits__kernel_ips(&hits, &nr);
	if (!ips || kcore_dir__trim_kallsyms(dir, ips, nr)) {
		pr_debug("trimming %s failed\n", dir);
		goto out;
	}
	snprintf(path, sizeof(path), "%s/kcore_dir/kallsyms", dir);
	snprintf(fpath, sizeof(fpath), "%s/full", dir);
	for (size_t i = 0; i < sizeof(checks) / sizeof(checks[0]); i++) {
		if (resolve(path, checks[i].target, got, sizeof(got)) ||
		    resolve(fpath, checks[i].target, full, sizeof(full)))
			goto out;
		if (checks[i].want &&
		    (strcmp(got, checks[i].want) || strcmp(full, checks[i].want))) {
			pr_debug("%#" PRIx64 ": trimmed copy says %s, full table %s, expected %s\n",
				 checks[i].target, got, full, checks[i].want);
			goto out;
		}
		if (!checks[i].want && !strcmp(got, full)) {
			pr_debug("%#" PRIx64 ": %s kept, though nothing names it\n",
				 checks[i].target, got);
			goto out;
		}
		pr_debug("%#" PRIx64 ": %s\n", checks[i].target, got);
	}
	/*
	 * 25 symbols to keep by hand count (8 module area ones, 12 of the
	 * named, _text, _stext, _etext, fkmod_cleanup) plus the neighbours
	 * ending them: far from the table's 400 and more
	 */
	lines = count_lines(path);
	if (lines < 20 || lines > 60) {
		pr_debug("the trimmed copy has %d lines, expected 20..60 of %d\n", lines,
			 count_lines(fpath));
		goto out;
	}
	ret = TEST_OK;
out:
	free(ips);
	record_hits__exit(&hits);
	free(kallsyms);
	if (dir)
		fixture__rm_rf(dir);
	free(dir);
	return ret;
}

struct test_suite suite__record_ksyms = {
    .desc = "record: kallsyms keeps the targets of poked and trampoline code, __SCT__, trampolines",
    .func = test__record_ksyms,
};
