/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_SYMBOL_H
#define __PERF_TEXTPOKE_SYMBOL_H

#include "machine.h"
#include "types.h"

/*
 * A symbol table: symbols sorted by start, in the address space of their
 * object (file offsets for user DSOs, absolute for the kernel, relative to
 * the map for modules and KSYMBOL objects).  Built by appending, then
 * symbols__fixup() sorts it and gives zero-sized symbols an end, as perf
 * does, after which lookups are a binary search.
 */
struct symbols {
	struct symbol **entries;
	size_t nr;
	size_t alloc;
};

struct symbol *symbol__new(u64 start, u64 len, u8 binding, u8 type, const char *name);
void symbol__delete(struct symbol *sym);

void symbols__init(struct symbols *syms);
void symbols__exit(struct symbols *syms);
/* takes ownership of @sym, also when it fails (-ENOMEM) */
int symbols__add(struct symbols *syms, struct symbol *sym);

/*
 * Sort, then fix up ends and aliases.  Zero-sized symbols end where the
 * next one starts; with @kallsyms, a zero-sized symbol followed by one of
 * the other kind (kernel vs "[module]") ends one page later instead.  Of
 * symbols sharing a start, one survives, picked as perf picks it (sized
 * over unsized, strong over weak, global over local, fewer leading
 * underscores, longer name).
 */
void symbols__fixup(struct symbols *syms, bool kallsyms);

/* The symbol holding @addr: [start, end), or start itself when unsized */
struct symbol *symbols__find(const struct symbols *syms, u64 addr);

#endif /* __PERF_TEXTPOKE_SYMBOL_H */
