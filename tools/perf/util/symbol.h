/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_SYMBOL_H
#define __PERF_TEXTPOKE_SYMBOL_H

#include <stdint.h>
#include <string.h>

#include "machine.h"
#include "types.h"

/*
 * A symbol table: symbols sorted by start, in the address space of their
 * object (file offsets for user DSOs, absolute for the kernel, relative to
 * the map for modules and KSYMBOL objects).  Built by appending, then
 * symbols__fixup() sorts it and gives zero-sized symbols an end, as perf
 * does, after which lookups are a binary search.
 */
struct symtree;

struct symbols {
	struct symbol **entries;
	size_t nr;
	size_t alloc;
	/*
	 * With symbols__use_tree(): perf's rb-tree rebuilt alongside, for
	 * lookups that must pick among overlapping symbols as perf does
	 */
	bool want_tree;
	struct symtree *tree;
	/* recent lookups; dropped by anything that changes the table */
	struct symbols_cache *cache;
};

struct symbol *symbol__new(u64 start, u64 len, u8 binding, u8 type, const char *name);
/* @name need not be NUL-terminated: @namelen bytes of it are copied */
struct symbol *symbol__new_len(u64 start, u64 len, u8 binding, u8 type, const char *name,
			       size_t namelen);
void symbol__delete(struct symbol *sym);

/*
 * A C++ symbol keeps its mangled name in sym->name and is demangled on
 * first use: most symbols of a library are never printed, and demangling
 * them all made up an eighth of perf textpoke script's time.  Read names
 * with symbol__name(), never sym->name.
 */
struct symbol *symbol__new_mangled(u64 start, u64 len, u8 binding, u8 type, const char *name);
/* "@name@plt" for a PLT entry; NULL when it is too long for the 1 KB perf allows */
struct symbol *symbol__new_plt(u64 start, u64 len, const char *name);

/* each symbol is preceded by the slot for its demangled name */
#define SYMBOL_PREFIX sizeof(const char *)
#define SYMBOL_DEMANGLE_PENDING ((const char *)1)
/* a PLT entry, "<mangled>@plt": demangled as "<demangled>@plt" */
#define SYMBOL_DEMANGLE_PLT ((const char *)2)

static inline const char **symbol__demangled_slot(struct symbol *sym)
{
	return (const char **)((char *)sym - SYMBOL_PREFIX);
}

const char *__symbol__name(struct symbol *sym);

/*
 * Symbols carved from a symbol_arena have the slot hold their block,
 * tagged with the low bit (never demangled: kallsyms names).
 */
static inline bool symbol__slot_is_block(const char *slot)
{
	return (uintptr_t)slot > 2 && ((uintptr_t)slot & 1);
}

static inline void symbol__set_namelen(struct symbol *sym, size_t len)
{
	sym->namelen = len < SYMBOL_NAMELEN_LONG ? len : SYMBOL_NAMELEN_LONG;
}

/* the name perf prints: demangled when it is a C++ name that demangles */
static inline const char *symbol__name(struct symbol *sym)
{
	const char *demangled = *symbol__demangled_slot(sym);

	if (!demangled)
		return sym->name;
	if (demangled == SYMBOL_DEMANGLE_PENDING || demangled == SYMBOL_DEMANGLE_PLT)
		return __symbol__name(sym);
	if (symbol__slot_is_block(demangled))
		return sym->name;
	return demangled;
}

/* strlen(symbol__name(sym)), from the symbol for a name that is not demangled */
static inline size_t symbol__name_len(struct symbol *sym)
{
	const char *demangled = *symbol__demangled_slot(sym);

	if ((!demangled || symbol__slot_is_block(demangled)) && sym->namelen != SYMBOL_NAMELEN_LONG)
		return sym->namelen;
	return strlen(symbol__name(sym));
}

/*
 * Many symbols at once (kallsyms: 100k+ of them): carved out of large
 * blocks instead of one malloc each.  Each block counts its live symbols
 * and goes with the last one; symbol__delete() works as for any symbol.
 */
struct symbol_block;

struct symbol_arena {
	struct symbol_block *cur;
};

struct symbol *symbol_arena__new_len(struct symbol_arena *arena, u64 start, u64 len, u8 binding,
				     u8 type, const char *name, size_t namelen);
/* drops the arena's hold on its current block; the symbols stay valid */
void symbol_arena__exit(struct symbol_arena *arena);

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

/* Sort by start only (stable) */
void symbols__sort(struct symbols *syms);

/*
 * Keep perf's rb-tree too (ELF tables): call before the first add; the
 * tree is built in symbols__fixup() from the adds in their order.
 */
void symbols__use_tree(struct symbols *syms);
/*
 * Add after the fixups, as perf adds PLT entries: no end or alias fixup.
 * Call symbols__sort() after the last one.
 */
int symbols__add_late(struct symbols *syms, struct symbol *sym);

/* symbol-rbtree.c: the shape of perf's symbol rb-tree */
struct symtree *symtree__new(void);
void symtree__delete(struct symtree *t);
int symtree__insert(struct symtree *t, struct symbol *sym); /* node index or -ENOMEM */
void symtree__erase(struct symtree *t, int node);
size_t symtree__inorder(const struct symtree *t, int *out);
struct symbol *symtree__find(const struct symtree *t, u64 addr);
/* for tests: the black height, or -1 when the tree breaks a rule */
int symtree__check(const struct symtree *t);

/* The symbol holding @addr: [start, end), or start itself when unsized */
struct symbol *symbols__find(struct symbols *syms, u64 addr);
/*
 * What the first symbols__find() builds (its cache and index over the
 * table), built now: before fork(), so that the workers share it
 */
void symbols__prepare(struct symbols *syms);

/*
 * The name perf script prints for a mangled C++ symbol (no parameters), a
 * malloc'ed string; NULL when @name is not mangled or cannot be demangled.
 */
char *symbol__demangle(const char *name);

#endif /* __PERF_TEXTPOKE_SYMBOL_H */
