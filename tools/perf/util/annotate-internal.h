/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_ANNOTATE_INTERNAL_H
#define __PERF_TEXTPOKE_ANNOTATE_INTERNAL_H

#include <stdio.h>

#include "annotate.h"
#include "types.h"

struct dso;
struct annotate_ksym;
struct dso_data;
struct symbol;

/* the samples at one byte of a symbol's code */
struct annotate_hits {
	u64 nr;
	u64 period;
};

/*
 * One symbol of one event: the samples whose ip fell in it, by offset
 * into it (perf's sym_hist), as perf annotate counts them.  The symbol
 * belongs to @dso's table, which lives as long as the reference held here.
 */
struct annotate_sym {
	int evsel_idx;
	const char *evsel_name; /* the session's */
	struct dso *dso;	/* a reference */
	struct symbol *sym;
	struct annotate_hits *hits; /* [sym->end - sym->start] */
	u64 nr_samples, period;
	/* kernel code: each sample's time too, for its version (annotate-kernel.c) */
	struct annotate_ksym *ksym;
};

/* what the global percentages are of: the event's samples the filters kept */
struct annotate_totals {
	u64 nr_samples, period;
};

/*
 * The code of a user symbol as its object's file holds it, and where the
 * object's PT_LOAD segments put it: perf annotate prints link-time
 * addresses (objdump's), while the symbol tables and samples are kept in
 * file offsets.
 */
#define ANNOTATE_CODE_MAX_LOADS 16

struct annotate_code {
	u8 *bytes;
	size_t len;
	u64 vaddr; /* of bytes[0] */
	bool elf64;
	size_t nr_loads;
	struct {
		u64 offset, vaddr, size;
	} loads[ANNOTATE_CODE_MAX_LOADS];
};

/*
 * The bytes of @sym of the user object @dso, read with @dd from the file
 * that dso__data_path() names.  0, or -errno: -ENOENT no file, -ENOEXEC
 * not an ELF object that maps the symbol, -ENODATA fewer bytes than the
 * symbol's size, -EFBIG a symbol too large to annotate, -ENOMEM.
 */
int annotate_code__read(struct annotate_code *code, struct dso_data *dd, struct dso *dso,
			struct symbol *sym);
void annotate_code__exit(struct annotate_code *code);
/* a file offset of the object -> its link-time address; false outside the PT_LOADs */
bool annotate_code__vaddr(const struct annotate_code *code, u64 offset, u64 *vaddr);
/* and back */
bool annotate_code__offset(const struct annotate_code *code, u64 vaddr, u64 *offset);

/* an annotated symbol's largest size: perf's histograms are as large */
#define ANNOTATE_SYM_MAX_SIZE (16U << 20)

/*
 * Print @as as perf annotate --stdio 6.1 does: the header line, its
 * dashes, then each instruction with its share (or count) and address.
 * 0, or -errno when its code cannot be had (nothing printed then).
 */
int annotate_sym__fprintf(const struct annotate_sym *as, const struct annotate_totals *totals,
			  const struct annotate_opts *opts, struct dso_data *dd, FILE *fp);
/* the same with @code given: its bytes, and where they were */
int annotate_code__fprintf(const struct annotate_sym *as, const struct annotate_code *code,
			   const struct annotate_totals *totals, const struct annotate_opts *opts,
			   FILE *fp);

#endif /* __PERF_TEXTPOKE_ANNOTATE_INTERNAL_H */
