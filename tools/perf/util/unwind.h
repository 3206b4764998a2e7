/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_UNWIND_H
#define __PERF_TEXTPOKE_UNWIND_H

#include <stdbool.h>

#include "types.h"

struct perf_sample;
struct thread;

/*
 * User call chains of samples recorded with --call-graph dwarf: the
 * kernel records only the kernel part of the callchain, and with it the
 * task's user registers (PERF_SAMPLE_REGS_USER), their ABI word and a
 * copy of the top of its user stack (PERF_SAMPLE_STACK_USER).  The user
 * frames are unwound here, after the fact, with elfutils' libdw from the
 * .eh_frame / .debug_frame of the objects the thread had mapped at the
 * sample's time.
 *
 * The sample's ABI word, not the object's ELF class as in stock perf,
 * chooses the register set, the DWARF numbering and the word size:
 * PERF_SAMPLE_REGS_ABI_32 is a compat (i386) task, whose memory reads
 * are 4 bytes zero-extended and whose addresses are 32 bits wide;
 * PERF_SAMPLE_REGS_ABI_64 is x86_64.  Stock perf 6.1 on Debian gives no
 * user frame at all for a 32-bit task.
 *
 * Nothing outside the sample is read as stack: a read outside the dump
 * (or past its dyn_size) ends the chain, as does a frame that does not
 * move the stack up or repeats.  Code and CFI come from the object
 * files, found as symbols are (the recorded path when its build-id
 * fits, else the build-id cache), each opened once per unwinder.
 */
struct unwinder;

struct unwinder *unwinder__new(void);
void unwinder__delete(struct unwinder *uw);

/*
 * Can @sample be unwound: its event samples both REGS_USER and
 * STACK_USER (@sample_type), and both were captured (registers with an
 * ABI, a dump the kernel copied bytes into: dyn_size, which perf takes as
 * the stack's size) -- perf's own test before it unwinds.  A sample taken
 * in a page fault early in an exec can carry a dump of dyn_size 0: perf
 * gives it no user frame, not even its IP.
 */
bool unwind__sample_has_stack(u64 sample_type, const struct perf_sample *sample);

struct unwind_frame {
	/*
	 * As perf reports it: the sample's user IP for the first frame,
	 * then each caller's return address minus one (inside the call
	 * instruction, where its symbol and line are), except below a
	 * signal frame
	 */
	u64 ip;
};

/*
 * Unwind @sample's user stack in @thread's address space, calling @cb
 * for each frame, innermost first, at most @max_stack frames.  A chain
 * that ends early for any reason (no CFI, a bad or truncated stack, a
 * loop) just ends: what was found is delivered and 0 returned.  @cb's
 * non-zero value stops the walk and is returned; -errno when nothing
 * could be tried (no registers, no memory).
 */
int unwinder__walk(struct unwinder *uw, struct thread *thread, const struct perf_sample *sample,
		   unsigned int max_stack, int (*cb)(const struct unwind_frame *frame, void *arg),
		   void *arg);

/* what the walks did, for tests and -v */
struct unwind_stats {
	u64 nr_walks;
	u64 nr_frames;
	u64 nr_no_object;    /* a pc in no map, or in an object whose file was not found */
	u64 nr_bad_stack;    /* a read outside the dump, or a frame that did not move */
	u64 nr_max_stack;    /* cut by @max_stack */
	u64 nr_objects_open; /* object files opened (each once) */
	u64 nr_slow_walks;   /* walks the kept simple CFI rules could not do */
};

const struct unwind_stats *unwinder__stats(const struct unwinder *uw);

#endif /* __PERF_TEXTPOKE_UNWIND_H */
