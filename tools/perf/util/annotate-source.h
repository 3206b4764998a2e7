/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_ANNOTATE_SOURCE_H
#define __PERF_TEXTPOKE_ANNOTATE_SOURCE_H

#include <stdio.h>

#include "types.h"

struct annotate_code;
struct annotate_opts;
struct annotate_source;
struct dso;
struct symbol;

/*
 * The lines perf annotate --stdio 6.1 prints around one symbol's
 * instructions besides the instructions themselves: what objdump -l -S
 * writes (the section and symbol lines, the function names, the source
 * lines) as perf numbers and prints them, and with -l/--print-line each
 * hot instruction's file:line and the summary of the hottest lines.
 * @width is the address column's width, which perf's numbers take too.
 * NULL on ENOMEM.
 */
struct annotate_source *annotate_source__new(struct dso *dso, struct symbol *sym,
					     const struct annotate_code *code,
					     const struct annotate_opts *opts, int width);
void annotate_source__delete(struct annotate_source *src);

/* what objdump prints before the first instruction: the section's and the symbol's lines */
void annotate_source__preamble(struct annotate_source *src, FILE *fp);

/* the lines objdump -l [-S] prints before the instruction at @off into the code */
void annotate_source__before_insn(struct annotate_source *src, u64 off, FILE *fp);

/*
 * After the instruction at @off has been printed, before its newline:
 * -l's " // file:line" when its share @percent is above perf's 0.5, and
 * that share counted in the summary.  @lines: how many lines objdump
 * wrote it on.  0 or -ENOMEM.
 */
int annotate_source__after_insn(struct annotate_source *src, u64 off, double percent,
				unsigned int lines, FILE *fp);

/* -l: perf's "Sorted summary for file" of the lines counted, printed before the symbol */
void annotate_source__summary(struct annotate_source *src, FILE *fp);

#endif /* __PERF_TEXTPOKE_ANNOTATE_SOURCE_H */
