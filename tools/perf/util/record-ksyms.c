// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the kallsyms copy must keep beyond the addresses samples hit: the
 * code a recording shows and names is not only where samples fell.  A
 * poked instruction names its branch target ("jmp __traceiter_sched_wakeup"
 * in a __SCT__ trampoline, "call __cond_resched" at a call site), and a
 * trampoline's code (a kprobe slot, an optprobe detour, an ftrace
 * trampoline, a BPF program) calls and jumps into the kernel.  A reader
 * names each target by the kallsyms symbol at or below it; when that
 * symbol was cut from the copy, the target gets the name of whatever
 * symbol was kept below it, with an offset of megabytes.  So every such
 * target goes into the hit set, from which the trimmer keeps the symbol
 * holding it and the one that ends it.
 *
 * The bytes looked at are the ones the recording holds: every TEXT_POKE's
 * old and new bytes (slot and trampoline bodies arrive as old_len 0
 * pokes), the BPF JIT images captured, and the kcore copy's bytes of the
 * trampolines that existed when it was taken (the OOL and BPF entries of
 * the kallsyms copy).  A BPF trampoline made during the recording has no
 * bytes anywhere (the kernel writes it without a TEXT_POKE): only its
 * name is kept.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf-capture.h"
#include "debug.h"
#include "event.h"
#include "insn-len.h"
#include "kcore-copy.h"
#include "kcore.h"
#include "record-ksyms.h"

/*
 * The target of a direct relative branch (call/jmp rel32, jmp rel8, jcc,
 * loop/jrcxz) of @len bytes at @addr; false for any other instruction.
 * The displacement is the instruction's last 1 or 4 bytes, so the length
 * decides which: a 66 prefix (rel16 on AMD) is no kernel code and is
 * skipped.
 */
static bool branch_target(const u8 *p, int len, u64 addr, u64 *target)
{
	int i = 0, imm;
	s64 rel;

	/* legacy prefixes, then at most one REX */
	while (i < len && (p[i] == 0x2e || p[i] == 0x3e || p[i] == 0x26 || p[i] == 0x36 ||
			   p[i] == 0x64 || p[i] == 0x65 || p[i] == 0xf0 || p[i] == 0xf2 ||
			   p[i] == 0xf3 || p[i] == 0x67 || p[i] == 0x66))
		i++;
	if (i < len && (p[i] & 0xf0) == 0x40)
		i++;
	if (i >= len)
		return false;
	if (p[i] == 0xe8 || p[i] == 0xe9)
		imm = 4;
	else if (p[i] == 0xeb || (p[i] & 0xf0) == 0x70 || (p[i] >= 0xe0 && p[i] <= 0xe3))
		imm = 1;
	else if (p[i] == 0x0f && i + 1 < len && (p[i + 1] & 0xf0) == 0x80)
		imm = 4, i++;
	else
		return false;
	if (len != i + 1 + imm)
		return false;
	if (imm == 4) {
		s32 r;

		memcpy(&r, p + len - 4, 4);
		rel = r;
	} else {
		rel = (s8)p[len - 1];
	}
	*target = addr + len + rel;
	return true;
}

void record_ksyms__code(struct record_hits *h, const u8 *code, size_t len, u64 addr)
{
	size_t off = 0;

	while (off < len) {
		int l = insn_len(code + off, NULL, len - off, INSN_LEN_64, NULL);
		u64 target;

		/* data between code (an ftrace trampoline's ops pointer): step over a byte */
		if (l <= 0) {
			off++;
			continue;
		}
		if (branch_target(code + off, l, addr + off, &target))
			record_hits__kernel_ip(h, target);
		off += l;
	}
}

void record_ksyms__text_poke(struct record_hits *h, const union perf_event *ev)
{
	const struct perf_record_text_poke *tp = &ev->text_poke;
	size_t room = ev->header.size, head = offsetof(struct perf_record_text_poke, bytes);

	if (room < head)
		return;
	record_hits__kernel_ip(h, tp->addr);
	if (head + tp->old_len + tp->new_len > room)
		return;
	record_ksyms__code(h, tp->bytes, tp->old_len, tp->addr);
	record_ksyms__code(h, tp->bytes + tp->old_len, tp->new_len, tp->addr);
}

static int bpf_prog__targets(const struct bpf_prog_capture *p, void *arg)
{
	u64 off = 0;

	/* the image is the sub-programs' code one after the other */
	for (u32 i = 0; i < p->info.nr_jited_ksyms && i < p->info.nr_jited_func_lens; i++) {
		if (off + p->func_lens[i] > p->info.jited_prog_len)
			break;
		record_ksyms__code(arg, p->insns + off, p->func_lens[i], p->ksyms[i]);
		off += p->func_lens[i];
	}
	return 0;
}

void record_ksyms__bpf(struct record_hits *h, struct bpf_capture *cap)
{
	if (cap)
		bpf_capture__for_each(cap, bpf_prog__targets, h);
}

/*
 * Kept by name: code a recording names without a sample or a poke there.
 * Static call trampolines are what call sites call (objtool turns a
 * static call into "call __SCT__<name>" until it is patched); the kernel's
 * ftrace entry code is what ftrace sites call and what ftrace trampolines
 * are copied from; optprobe detours are copied from optprobe_template_*.
 */
/* @name, @len bytes, starts with @prefix */
static bool name__starts(const char *name, size_t len, const char *prefix, size_t n)
{
	return len >= n && !memcmp(name, prefix, n);
}

static bool ksym__kept_by_name(const char *name, size_t len)
{
	/* by first letter: this is asked of every kernel symbol */
	switch (len ? name[0] : 0) {
	case '_':
		return name__starts(name, len, "__SCT__", 7);
	case 'f':
		/* ftrace_call covers ftrace_caller*, ftrace_regs_call ftrace_regs_caller* */
		return name__starts(name, len, "ftrace_", 7) &&
		       (name__starts(name + 7, len - 7, "call", 4) ||
			name__starts(name + 7, len - 7, "regs_call", 9) ||
			name__starts(name + 7, len - 7, "stub", 4) ||
			name__starts(name + 7, len - 7, "graph_call", 10));
	case 'r':
		return name__starts(name, len, "return_to_handler", 17);
	case 'o':
		return name__starts(name, len, "optprobe_template_", 18);
	default:
		return false;
	}
}

/* @mod, @len bytes, is @name */
static bool mod__is(const char *mod, size_t len, const char *name, size_t n)
{
	return len == n && !memcmp(mod, name, n);
}

/*
 * The pseudo-modules kallsyms puts out-of-line code in: kprobe slot pages,
 * ftrace trampolines, BPF programs, trampolines and dispatchers
 */
static bool ksym__is_trampoline_module(const char *mod, size_t len)
{
	return mod && (mod__is(mod, len, "__builtin__kprobes", 18) ||
		       mod__is(mod, len, "__builtin__ftrace", 17) || mod__is(mod, len, "bpf", 3));
}

/* a trampoline's bytes are read up to the next symbol, and no further than this */
#define TRAMPOLINE_MAX (64U << 10)
/* a static call trampoline: jmp rel32 (or ret) and padding */
#define SCT_MAX 16U

struct ksyms_scan {
	struct record_hits *h;
	u64 *addrs; /* every symbol's address, to end a trampoline at the next */
	size_t nr_addrs, alloc_addrs;
	u64 *tramps; /* the trampolines' addresses */
	size_t nr_tramps, alloc_tramps;
	u64 *scts; /* the static call trampolines' */
	size_t nr_scts, alloc_scts;
	int err;
};

static int u64__push(u64 **v, size_t *nr, size_t *alloc, u64 x)
{
	if (*nr == *alloc) {
		size_t n = *alloc ? *alloc * 2 : 4096;
		u64 *t = realloc(*v, n * sizeof(*t));

		if (!t)
			return -ENOMEM;
		*v = t;
		*alloc = n;
	}
	(*v)[(*nr)++] = x;
	return 0;
}

static int ksyms_scan__line(void *arg, const struct kallsyms_copy_sym *sym)
{
	struct ksyms_scan *s = arg;
	bool tramp = ksym__is_trampoline_module(sym->mod, sym->mod_len);

	if (!sym->addr)
		return 0;
	if (tramp || (!sym->mod && ksym__kept_by_name(sym->name, sym->name_len)))
		record_hits__kernel_ip(s->h, sym->addr);
	if (u64__push(&s->addrs, &s->nr_addrs, &s->alloc_addrs, sym->addr))
		return -ENOMEM;
	if (tramp && u64__push(&s->tramps, &s->nr_tramps, &s->alloc_tramps, sym->addr))
		return -ENOMEM;
	if (!sym->mod && name__starts(sym->name, sym->name_len, "__SCT__", 7) &&
	    u64__push(&s->scts, &s->nr_scts, &s->alloc_scts, sym->addr))
		return -ENOMEM;
	return 0;
}

/* where the ascending run from @v[@i] ends */
static size_t u64__run_end(const u64 *v, size_t i, size_t n)
{
	while (i + 1 < n && v[i] <= v[i + 1])
		i++;
	return i + 1;
}

/*
 * @v sorted by merging its ascending runs pairwise: kallsyms lists the
 * kernel's symbols nearly in address order, so this is a pass or two over
 * the kernel's where qsort() took n log n calls; 0 or -ENOMEM
 */
static int u64__sort_runs(u64 *v, size_t n)
{
	size_t runs;
	u64 *tmp;

	if (u64__run_end(v, 0, n) >= n)
		return 0;
	tmp = malloc(n * sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	do {
		runs = 0;
		for (size_t a = 0; a < n; runs++) {
			size_t b = u64__run_end(v, a, n), c = b < n ? u64__run_end(v, b, n) : n;
			size_t i = a, j = b, o = a;

			while (i < b && j < c)
				tmp[o++] = v[j] < v[i] ? v[j++] : v[i++];
			while (i < b)
				tmp[o++] = v[i++];
			while (j < c)
				tmp[o++] = v[j++];
			a = c;
		}
		memcpy(v, tmp, n * sizeof(*v));
	} while (runs > 1);
	free(tmp);
	return 0;
}

/* the first address in sorted @v above @addr, or 0 */
static u64 next_above(const u64 *v, size_t n, u64 addr)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n ? v[lo] : 0;
}

/* the targets in the kcore copy's bytes of the code at @start: up to the next symbol, @max */
static void ksyms_scan__code(struct ksyms_scan *s, const struct kcore *kcore, u64 start, u64 max)
{
	u64 end = next_above(s->addrs, s->nr_addrs, start);
	const struct kcore_segment *seg = kcore__find(kcore, start);

	if (!seg)
		return;
	if (!end || end - start > max)
		end = start + max;
	if (end > seg->addr + seg->len)
		end = seg->addr + seg->len;
	record_ksyms__code(s->h, seg->bytes + (start - seg->addr), end - start, start);
}

int record_ksyms__kallsyms(struct record_hits *h, const struct kallsyms_copy *kc,
			   const char *kcore_dir)
{
	struct ksyms_scan s = {.h = h};
	struct kcore *kcore = NULL;
	int err;

	err = kallsyms_copy__for_each(kc, ksyms_scan__line, &s);
	if (err < 0)
		goto out_free;
	err = u64__sort_runs(s.addrs, s.nr_addrs);
	if (err)
		goto out_free;
	/*
	 * No kcore (none here, or not readable): the trampolines' names
	 * alone.  A static call trampoline nobody poked during the recording
	 * still shows where its static call goes: "jmp __traceiter_<event>"
	 */
	if (s.nr_tramps || s.nr_scts)
		kcore = kcore__open_dir(kcore_dir, true);
	for (size_t i = 0; kcore && i < s.nr_tramps; i++)
		ksyms_scan__code(&s, kcore, s.tramps[i], TRAMPOLINE_MAX);
	for (size_t i = 0; kcore && i < s.nr_scts; i++)
		ksyms_scan__code(&s, kcore, s.scts[i], SCT_MAX);
	kcore__delete(kcore);
out_free:
	free(s.addrs);
	free(s.tramps);
	free(s.scts);
	return err;
}

int record_ksyms__kcore_dir(struct record_hits *h, const char *kcore_dir)
{
	struct kallsyms_copy *kc;
	int err = kallsyms_copy__new(kcore_dir, &kc);

	if (!err)
		err = record_ksyms__kallsyms(h, kc, kcore_dir);
	kallsyms_copy__delete(kc);
	return err;
}
