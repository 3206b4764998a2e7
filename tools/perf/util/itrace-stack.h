/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_ITRACE_STACK_H
#define __PERF_TEXTPOKE_ITRACE_STACK_H

#include <stddef.h>

#include "types.h"

/*
 * --itrace=...g: the callchains perf synthesizes for a trace's samples
 * from a call stack it keeps per thread (per CPU for the idle task) out
 * of the trace's calls and returns (perf's thread-stack.c), not from
 * anything recorded: return addresses pushed at calls, popped at the
 * return to one of them.
 */
struct itrace_stacks;

struct itrace_stacks *itrace_stacks__new(void);
void itrace_stacks__delete(struct itrace_stacks *st);

/*
 * A branch of task @pid/@tid on @cpu (IPT_FLAG_*), from the instruction
 * at @from of @insn_len bytes to @to; @trace_nr changes when the trace
 * is discontinuous (the decoder lost sync), which empties the stack.
 */
int itrace_stacks__branch(struct itrace_stacks *st, s32 pid, s32 tid, int cpu, u32 flags, u64 from,
			  u64 to, u8 insn_len, u64 trace_nr);

/*
 * A sample's callchain as perf lays it out: a context marker, @ip, then
 * the return addresses innermost first with a marker where the context
 * changes, at most @sz entries in all, into @ips; its length.
 */
size_t itrace_stacks__chain(struct itrace_stacks *st, s32 pid, s32 tid, int cpu, u64 ip, u64 *ips,
			    size_t sz);

/*
 * The chain perf adds to a recorded sample of a traced task ('G', and
 * report's default: thread_stack__sample_late()): the return addresses
 * alone, the kernel ones above the first user one left out (the trace
 * went on past the sample in the kernel), or the context and @ip when
 * there are none; its length.
 */
size_t itrace_stacks__late_chain(struct itrace_stacks *st, s32 pid, s32 tid, int cpu, u64 ip,
				 u64 *ips, size_t sz);

#endif /* __PERF_TEXTPOKE_ITRACE_STACK_H */
