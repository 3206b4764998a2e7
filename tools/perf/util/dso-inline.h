/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_DSO_INLINE_H
#define __PERF_TEXTPOKE_DSO_INLINE_H

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

/* called by dso__put() */
void dso_inline__delete(struct dso_inline *di);

#endif /* __PERF_TEXTPOKE_DSO_INLINE_H */
