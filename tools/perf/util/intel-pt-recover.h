/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_INTEL_PT_RECOVER_H
#define __PERF_TEXTPOKE_INTEL_PT_RECOVER_H

/*
 * After a decode error, the rest of a trace buffer is walked the way perf's
 * own decoder recovers (see intel-pt-recover.c).  Only with libipt.
 */
#ifdef HAVE_LIBIPT

struct ipt_queue;

/* the walk at the instruction decoder's position: 0 or a libipt error */
int ipt_walk__start(struct ipt_queue *q);
/* one step of the walk: 0, or a libipt error (-pte_eos at the buffer's end) */
int ipt_walk__step(struct ipt_queue *q);

#endif /* HAVE_LIBIPT */
#endif /* __PERF_TEXTPOKE_INTEL_PT_RECOVER_H */
