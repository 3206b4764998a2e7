/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_ANNOTATE_KERNEL_H
#define __PERF_TEXTPOKE_ANNOTATE_KERNEL_H

#include <stdio.h>

#include "annotate.h"
#include "types.h"

struct annotate_sym;
struct annotate_totals;
struct annotate_output;

/*
 * Kernel code for perf textpoke annotate: the code live when each sample
 * was taken, from the text image.  A symbol whose bytes a poke changed
 * during the recording is one block per version; BPF programs and
 * trampolines (KSYMBOL objects, one per load) come with their JIT or
 * poked bytes.
 */
struct annotate_kernel;

/* nothing is read until the first kernel symbol is printed */
struct annotate_kernel *annotate_kernel__new(const struct annotate_opts *opts);
void annotate_kernel__delete(struct annotate_kernel *ak);

/*
 * A sample of @as's at @ip, @off bytes into its symbol, taken at @time:
 * kept for the version split.  0 or -ENOMEM.
 */
int annotate_kernel__sample(struct annotate_sym *as, u64 ip, u64 off, u64 time, u64 period);
/* what annotate_kernel__sample() kept for @as */
void annotate_kernel__sym_exit(struct annotate_sym *as);
/*
 * A parallel run (annotate-workers.c): what annotate_kernel__sample() kept
 * for @as written to @fp, and another worker's read from @fp and added to
 * @as's.  0 or a negative errno; -ENODATA: the state ends early.
 */
int annotate_kernel__send(const struct annotate_sym *as, FILE *fp);
int annotate_kernel__merge(struct annotate_sym *as, FILE *fp);

/*
 * @as's blocks to @out (its code callback), one per version with samples.
 * Code that cannot be had is one line (none with --skip-missing, or when
 * @out is not the run's first output).  0, or -errno.
 */
int annotate_kernel__write(struct annotate_kernel *ak, const struct annotate_sym *as,
			   const struct annotate_totals *totals, struct annotate_output *out);

#endif /* __PERF_TEXTPOKE_ANNOTATE_KERNEL_H */
