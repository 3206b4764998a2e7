// SPDX-License-Identifier: GPL-2.0-only
/*
 * The call stacks perf keeps while it decodes a trace, for the callchains
 * of --itrace=...g.  They follow perf's thread stack, whose quirks are
 * what makes its trees: a call whose return address is its target (a
 * "call next instruction") is no call; a return pops down to the entry
 * of its target and leaves the stack alone when no entry has it (a
 * return whose call the trace did not see); a trace start pops its
 * target and the calls the previous trace ended in.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "event.h"
#include "intel-pt-decode.h"
#include "itrace-stack.h"

/* perf's callchain_context(): where user addresses end, as its machine says on x86-64 */
#define ITRACE_STACK_KERNEL 0xffff800000000000ULL

struct itrace_stack_entry {
	u64 ret;
	bool trace_end; /* pushed by a call the trace ended in */
};

struct itrace_stack {
	s32 tid; /* -1: the idle task's stack of one CPU */
	int cpu;
	u64 trace_nr;
	struct itrace_stack_entry *e;
	size_t cnt, alloc;
};

struct itrace_stacks {
	struct itrace_stack *v;
	size_t nr, alloc;
	size_t last; /* the stack found last: the same task runs for a while */
};

struct itrace_stacks *itrace_stacks__new(void)
{
	return calloc(1, sizeof(struct itrace_stacks));
}

void itrace_stacks__delete(struct itrace_stacks *st)
{
	if (!st)
		return;
	for (size_t i = 0; i < st->nr; i++)
		free(st->v[i].e);
	free(st->v);
	free(st);
}

/* perf keeps the idle task's stacks (pid and tid 0) per CPU: it runs on each */
static struct itrace_stack *itrace_stacks__find(struct itrace_stacks *st, s32 pid, s32 tid, int cpu,
						bool create)
{
	struct itrace_stack *s;

	if (tid == -1)
		return NULL;
	if (!pid && !tid)
		tid = -1;
	else
		cpu = -1;
	if (st->last < st->nr && st->v[st->last].tid == tid && st->v[st->last].cpu == cpu)
		return &st->v[st->last];
	for (size_t i = 0; i < st->nr; i++) {
		if (st->v[i].tid == tid && st->v[i].cpu == cpu) {
			st->last = i;
			return &st->v[i];
		}
	}
	if (!create)
		return NULL;
	if (st->nr == st->alloc) {
		size_t n = st->alloc ? 2 * st->alloc : 16;

		s = realloc(st->v, n * sizeof(*s));
		if (!s)
			return NULL;
		st->v = s;
		st->alloc = n;
	}
	s = &st->v[st->nr];
	memset(s, 0, sizeof(*s));
	s->tid = tid;
	s->cpu = cpu;
	st->last = st->nr++;
	return s;
}

static int itrace_stack__push(struct itrace_stack *s, u64 ret, bool trace_end)
{
	if (s->cnt == s->alloc) {
		size_t n = s->alloc ? 2 * s->alloc : 64;
		struct itrace_stack_entry *e = realloc(s->e, n * sizeof(*e));

		if (!e)
			return -ENOMEM;
		s->e = e;
		s->alloc = n;
	}
	s->e[s->cnt].ret = ret;
	s->e[s->cnt++].trace_end = trace_end;
	return 0;
}

/* down to the innermost entry returning to @to, if one does */
static void itrace_stack__pop(struct itrace_stack *s, u64 to)
{
	for (size_t i = s->cnt; i--;) {
		if (s->e[i].ret == to) {
			s->cnt = i;
			return;
		}
	}
}

int itrace_stacks__branch(struct itrace_stacks *st, s32 pid, s32 tid, int cpu, u32 flags, u64 from,
			  u64 to, u8 insn_len, u64 trace_nr)
{
	struct itrace_stack *s;
	bool fresh;

	if (tid == -1)
		return 0;
	fresh = !itrace_stacks__find(st, pid, tid, cpu, false);
	s = itrace_stacks__find(st, pid, tid, cpu, true);
	if (!s)
		return -ENOMEM;
	if (fresh)
		s->trace_nr = trace_nr;
	/* a discontinuous trace: what the stack holds may be wrong, so nothing */
	if (trace_nr != s->trace_nr) {
		s->cnt = 0;
		s->trace_nr = trace_nr;
	}
	if (flags & IPT_FLAG_CALL) {
		if (!to || from + insn_len == to)
			return 0;
		return itrace_stack__push(s, from + insn_len, flags & IPT_FLAG_TRACE_END);
	}
	if (flags & IPT_FLAG_TRACE_BEGIN) {
		itrace_stack__pop(s, to);
		while (s->cnt && s->e[s->cnt - 1].trace_end)
			s->cnt--;
	} else if ((flags & IPT_FLAG_RETURN) && from) {
		itrace_stack__pop(s, to);
	}
	return 0;
}

static u64 itrace_stack__context(u64 ip)
{
	return ip < ITRACE_STACK_KERNEL ? PERF_CONTEXT_USER : PERF_CONTEXT_KERNEL;
}

size_t itrace_stacks__chain(struct itrace_stacks *st, s32 pid, s32 tid, int cpu, u64 ip, u64 *ips,
			    size_t sz)
{
	struct itrace_stack *s = itrace_stacks__find(st, pid, tid, cpu, false);
	u64 ctx = itrace_stack__context(ip), c;
	size_t i = 2, j;

	if (sz < 2)
		return 0;
	ips[0] = ctx;
	ips[1] = ip;
	for (j = 1; s && i < sz && j <= s->cnt; i++, j++) {
		u64 ret = s->e[s->cnt - j].ret;

		c = itrace_stack__context(ret);
		if (c != ctx) {
			/* the marker and the address both, or neither */
			if (i >= sz - 1)
				break;
			ips[i++] = c;
			ctx = c;
		}
		ips[i] = ret;
	}
	return i;
}

size_t itrace_stacks__late_chain(struct itrace_stacks *st, s32 pid, s32 tid, int cpu, u64 ip,
				 u64 *ips, size_t sz)
{
	struct itrace_stack *s = itrace_stacks__find(st, pid, tid, cpu, false);
	u64 ctx = itrace_stack__context(ip), last = ip, c, ret;
	size_t nr = 0, j = 1;

	if (sz < 2)
		return 0;
	/* past the kernel frames pushed after the sample, to a user one or the sample's ip */
	for (; s && j <= s->cnt; j++) {
		ret = s->e[s->cnt - j].ret;
		c = itrace_stack__context(ret);
		if (c == PERF_CONTEXT_USER || (c == ctx && ret == ip))
			break;
	}
	/* "last" starts as no context at all: the first frame gets its marker */
	for (; s && nr < sz && j <= s->cnt; nr++, j++) {
		ret = s->e[s->cnt - j].ret;
		c = itrace_stack__context(ret);
		if (c != last) {
			if (nr >= sz - 1)
				break;
			ips[nr++] = c;
			last = c;
		}
		ips[nr] = ret;
	}
	if (nr)
		return nr;
	ips[0] = ctx;
	ips[1] = ip;
	return 2;
}
