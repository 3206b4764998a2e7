/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_DSO_INLINE_H
#define __PERF_TEXTPOKE_DSO_INLINE_H

#include <stddef.h>

#include "types.h"

struct dso;
struct dso_inline;

/*
 * The names of the functions at @offset (a file offset, as the object's
 * symbols) of a user object, as perf's callchains show them: the
 * innermost inlined function first, the function holding them last.  0
 * when the object has no DWARF covering @offset (the frame is then
 * printed as it is).  @lines (may be NULL) gets each one's source line
 * there, as perf's srcline prints it: the address's own line for the
 * innermost, the call site for the others (NULL entries: none).  They
 * live as long as @dso.
 */
unsigned int dso__inline_names(struct dso *dso, u64 offset, char *const **names,
			       char *const **lines);

/*
 * The source line at @offset of a user object, "file.c:12" as perf's
 * srcline field prints it (the file's base name), from its DWARF; NULL
 * when there is none.  Lives as long as @dso.
 */
const char *dso__srcline(struct dso *dso, u64 offset);

/*
 * The srcline field as perf script prints it for a frame at @offset of
 * @dso: dso__srcline(), else perf's "dso[addr]" (written in @buf) where
 * addr2line has no answer.  addr2line's "??:0" (a function, no line) perf
 * prints only at a frame unwound from a stack dump (@unwound), whose line
 * comes from its inline list; at a sample's own line and a recorded
 * callchain's frame it leaves that answer out: NULL, no line at all.
 */
const char *dso__srcline_print(struct dso *dso, u64 offset, bool unwound, char *buf, size_t size);

/*
 * What objdump -l finds at @offset of a user object (a file offset), for
 * annotate's source lines: the line table's row there, its file as the
 * table names it (the directory joined, as objdump prints it), and the
 * innermost function, the inlined one where code was inlined.  The
 * strings live as long as @dso.
 */
struct dso_source_loc {
	const char *file; /* NULL: no row covers @offset */
	/* the unit's DW_AT_comp_dir, which binutils puts before a relative @file */
	const char *comp_dir;
	unsigned int line, discriminator;
	const char *function; /* NULL: none known */
};

/* 0 and *@loc; -ENOENT when the object has no DWARF we can read */
int dso__source_loc(struct dso *dso, u64 offset, struct dso_source_loc *loc);

/*
 * The name of the section holding @offset of a user object, from its
 * (or its debug file's) section headers, in @buf: 0, or -ENOENT
 */
int dso__section_name(struct dso *dso, u64 offset, char *buf, size_t size);

/* called by dso__put() */
void dso_inline__delete(struct dso_inline *di);

#endif /* __PERF_TEXTPOKE_DSO_INLINE_H */
