/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_SCRIPT_DEMANGLE_H
#define __PERF_TEXTPOKE_SCRIPT_DEMANGLE_H

#include <stddef.h>

/*
 * C++ symbol names as perf 6.1 prints them: demangled without parameter
 * lists or template return types (libiberty's cplus_demangle() with
 * DMGL_NO_OPTS), e.g. "hash_table<spec_hasher, false, xcallocator>::expand".
 * Names that are not mangled, or that cannot be demangled, come back as
 * they are.
 */
struct script_demangler;

struct script_demangler *script_demangler__new(void);
void script_demangler__delete(struct script_demangler *d);

/*
 * @name must stay valid and unchanged while @d lives (symbol names of the
 * machine model do): results are cached by its address.
 */
const char *script_demangle(struct script_demangler *d, const char *name);

/* the parameter-less form of a full demangled name; written to @out */
void script_demangle__strip(const char *full, char *out, size_t size);

#endif /* __PERF_TEXTPOKE_SCRIPT_DEMANGLE_H */
