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
 * printed as it is).  The names live as long as @dso.
 */
unsigned int dso__inline_names(struct dso *dso, u64 offset, char *const **names);

/* called by dso__put() */
void dso_inline__delete(struct dso_inline *di);

#endif /* __PERF_TEXTPOKE_DSO_INLINE_H */
