/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_CAPTURE_THREAD_H
#define __PERF_TEXTPOKE_CAPTURE_THREAD_H
/*
 * What the side-band capture readers of record share (BPF JIT images at
 * load, module code at load): one reader thread per CPU, pinned to it
 * and real-time, so that it reads what the kernel just made before the
 * kernel takes it away again.
 */
#include <stdbool.h>

/* the online CPUs, 0 .. n-1, in *@cpus (to free); their number or -ENOMEM */
int capture__online_cpus(int **cpus);
/* the calling thread on @cpu alone (none for a negative @cpu) */
void capture__pin(int cpu);
/*
 * the calling thread real-time (SCHED_FIFO, the lowest priority) or back
 * to normal; only root may: without it a capture loses more races, no more
 */
void capture__set_fifo(bool fifo);

#endif /* __PERF_TEXTPOKE_CAPTURE_THREAD_H */
