// SPDX-License-Identifier: GPL-2.0-only
/*
 * Symbol tables shared by ELF and kallsyms loading.  The fixups reproduce
 * what perf's symbols__fixup_end() and symbols__fixup_duplicate() decide,
 * because the names perf prints for aliases are what users compare with.
 */
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "addr-buckets.h"
#include "symbol.h"

#define PAGE_SIZE_4K 4096ULL

struct symbol *symbol__new_len(u64 start, u64 len, u8 binding, u8 type, const char *name,
			       size_t namelen)
{
	char *mem = malloc(SYMBOL_PREFIX + sizeof(struct symbol) + namelen + 1);
	struct symbol *sym;

	if (!mem)
		return NULL;
	sym = (struct symbol *)(mem + SYMBOL_PREFIX);
	*symbol__demangled_slot(sym) = NULL;
	sym->start = start;
	sym->end = start + len;
	sym->binding = binding;
	sym->type = type;
	symbol__set_namelen(sym, namelen);
	memcpy(sym->name, name, namelen);
	sym->name[namelen] = '\0';
	return sym;
}

struct symbol *symbol__new(u64 start, u64 len, u8 binding, u8 type, const char *name)
{
	return symbol__new_len(start, len, binding, type, name, strlen(name));
}

struct symbol *symbol__new_mangled(u64 start, u64 len, u8 binding, u8 type, const char *name)
{
	struct symbol *sym = symbol__new(start, len, binding, type, name);

	if (sym && name[0] == '_' && name[1] == 'Z')
		*symbol__demangled_slot(sym) = SYMBOL_DEMANGLE_PENDING;
	return sym;
}

/* PLT names were cut at 1 KB, "name@plt" included, when made eagerly */
#define SYMBOL_PLT_NAME_MAX 1024

struct symbol *symbol__new_plt(u64 start, u64 len, const char *name)
{
	size_t n = strlen(name);
	struct symbol *sym;
	char *mem;

	if (n + sizeof("@plt") > SYMBOL_PLT_NAME_MAX)
		return NULL;
	mem = malloc(SYMBOL_PREFIX + sizeof(struct symbol) + n + sizeof("@plt"));
	if (!mem)
		return NULL;
	sym = (struct symbol *)(mem + SYMBOL_PREFIX);
	sym->start = start;
	sym->end = start + len;
	sym->binding = STB_GLOBAL;
	sym->type = STT_FUNC;
	symbol__set_namelen(sym, n + strlen("@plt"));
	memcpy(sym->name, name, n);
	memcpy(sym->name + n, "@plt", sizeof("@plt"));
	*symbol__demangled_slot(sym) =
	    name[0] == '_' && name[1] == 'Z' ? SYMBOL_DEMANGLE_PLT : NULL;
	return sym;
}

const char *__symbol__name(struct symbol *sym)
{
	const char **slot = symbol__demangled_slot(sym);
	char *demangled, *plt;
	size_t n;

	if (*slot != SYMBOL_DEMANGLE_PLT) {
		*slot = symbol__demangle(sym->name);
		return *slot ?: sym->name;
	}
	/* the name without "@plt", demangled, then "@plt" again */
	n = strlen(sym->name) - strlen("@plt");
	plt = strndup(sym->name, n);
	demangled = plt ? symbol__demangle(plt) : NULL;
	free(plt);
	*slot = NULL;
	if (demangled) {
		plt = malloc(SYMBOL_PLT_NAME_MAX);
		if (plt)
			snprintf(plt, SYMBOL_PLT_NAME_MAX, "%s@plt", demangled);
		*slot = plt;
		free(demangled);
	}
	return *slot ?: sym->name;
}

#define SYMBOL_BLOCK_SIZE (256 * 1024)

struct symbol_block {
	size_t live; /* symbols carved and not deleted, + 1 while current */
	size_t used, size;
	char data[];
};

static void symbol_block__put(struct symbol_block *block)
{
	if (!--block->live)
		munmap(block, sizeof(*block) + block->size);
}

/*
 * A block's pages made present in one call: a table of 10^5 kernel
 * symbols touches some 7 MB, and a page fault each (in a VM dearer than
 * the parse) was a third of a short report's time
 */
static struct symbol_block *symbol_block__new(void)
{
	void *p = mmap(NULL, sizeof(struct symbol_block) + SYMBOL_BLOCK_SIZE,
		       PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

struct symbol *symbol_arena__new_len(struct symbol_arena *arena, u64 start, u64 len, u8 binding,
				     u8 type, const char *name, size_t namelen)
{
	size_t need = PERF_ALIGN(SYMBOL_PREFIX + sizeof(struct symbol) + namelen + 1, 8);
	struct symbol_block *block = arena->cur;
	struct symbol *sym;

	if (need > SYMBOL_BLOCK_SIZE / 16)
		return symbol__new_len(start, len, binding, type, name, namelen);
	if (!block || block->used + need > block->size) {
		block = symbol_block__new();
		if (!block)
			return NULL;
		block->live = 1;
		block->used = 0;
		block->size = SYMBOL_BLOCK_SIZE;
		symbol_arena__exit(arena);
		arena->cur = block;
	}
	sym = (struct symbol *)(block->data + block->used + SYMBOL_PREFIX);
	block->used += need;
	block->live++;
	*symbol__demangled_slot(sym) = (const char *)((uintptr_t)block | 1);
	sym->start = start;
	sym->end = start + len;
	sym->binding = binding;
	sym->type = type;
	symbol__set_namelen(sym, namelen);
	memcpy(sym->name, name, namelen);
	sym->name[namelen] = '\0';
	return sym;
}

void symbol_arena__exit(struct symbol_arena *arena)
{
	if (arena->cur)
		symbol_block__put(arena->cur);
	arena->cur = NULL;
}

void symbol__delete(struct symbol *sym)
{
	const char *demangled;

	if (!sym)
		return;
	demangled = *symbol__demangled_slot(sym);
	if (symbol__slot_is_block(demangled)) {
		symbol_block__put((struct symbol_block *)((uintptr_t)demangled & ~(uintptr_t)1));
		return;
	}
	if (demangled != SYMBOL_DEMANGLE_PENDING && demangled != SYMBOL_DEMANGLE_PLT)
		free((char *)demangled);
	free((char *)sym - SYMBOL_PREFIX);
}

/*
 * Samples hit the same few addresses over and over (a hot loop, the idle
 * routine): a small direct-mapped cache of address -> symbol in front of
 * the search saves most of the tree walks.  Allocated on the first lookup,
 * so objects that are never looked up cost nothing.
 */
#define SYMBOLS_CACHE_BITS 7
#define SYMBOLS_CACHE_SIZE (1U << SYMBOLS_CACHE_BITS)
#define SYMBOLS_CACHE_EMPTY ((u64)-1)

/*
 * A kernel's table is 100k+ symbols and a storm of samples lands all over
 * it: the search itself then misses the cache at every step, once for the
 * pointer and once for the symbol.  So the cache also keeps each symbol's
 * {start, end} in one array, in table order, with a bucket index over the
 * starts (addr-buckets.h).
 */
struct symbol_span {
	u64 start, end;
};

struct symbols_cache {
	u64 addr[SYMBOLS_CACHE_SIZE];
	struct symbol *sym[SYMBOLS_CACHE_SIZE];
	struct symbol_span *span; /* syms->nr of them, NULL: search the table itself */
	struct addr_buckets index;
};

static void symbols__cache_drop(struct symbols *syms)
{
	if (syms->cache) {
		free(syms->cache->span);
		addr_buckets__exit(&syms->cache->index);
	}
	zfree(&syms->cache);
}

/* without memory, lookups search the table itself */
static void symbols_cache__index(struct symbols_cache *c, const struct symbols *syms)
{
	size_t i;

	c->span = malloc(syms->nr * sizeof(*c->span));
	if (!c->span)
		return;
	for (i = 0; i < syms->nr; i++)
		c->span[i] = (struct symbol_span){syms->entries[i]->start, syms->entries[i]->end};
	if (addr_buckets__build(&c->index, c->span, syms->nr, sizeof(*c->span)))
		zfree(&c->span);
}

static unsigned int symbols_cache__slot(u64 addr)
{
	return (unsigned int)((addr * 0x9e3779b97f4a7c15ULL) >> (64 - SYMBOLS_CACHE_BITS));
}

void symbols__init(struct symbols *syms)
{
	memset(syms, 0, sizeof(*syms));
}

void symbols__exit(struct symbols *syms)
{
	size_t i;

	for (i = 0; i < syms->nr; i++)
		symbol__delete(syms->entries[i]);
	zfree(&syms->entries);
	syms->nr = syms->alloc = 0;
	symtree__delete(syms->tree);
	syms->tree = NULL;
	symbols__cache_drop(syms);
}

void symbols__use_tree(struct symbols *syms)
{
	syms->want_tree = true;
}

int symbols__add(struct symbols *syms, struct symbol *sym)
{
	if (!sym)
		return -ENOMEM;
	symbols__cache_drop(syms);
	if (syms->nr == syms->alloc) {
		size_t alloc = syms->alloc ? syms->alloc * 2 : 64;
		struct symbol **entries = realloc(syms->entries, alloc * sizeof(*entries));

		if (!entries) {
			symbol__delete(sym);
			return -ENOMEM;
		}
		syms->entries = entries;
		syms->alloc = alloc;
	}
	syms->entries[syms->nr++] = sym;
	return 0;
}

struct sort_entry {
	u64 start;
	struct symbol *sym;
};

/*
 * Stable by start (equal starts keep the order they were added in): an
 * LSD radix sort, one pass per byte of start that is not the same in
 * every symbol, several times faster than qsort() with a tie-break.
 */
static void sort_entries__radix(struct sort_entry *a, struct sort_entry *tmp, size_t n)
{
	struct sort_entry *src = a, *dst = tmp, *swap;
	unsigned int shift;
	size_t i;

	for (shift = 0; shift < 64; shift += 8) {
		size_t count[256] = {0}, pos = 0, c;

		for (i = 0; i < n; i++)
			count[(src[i].start >> shift) & 0xff]++;
		if (count[(src[0].start >> shift) & 0xff] == n)
			continue;
		for (i = 0; i < 256; i++) {
			c = count[i];
			count[i] = pos;
			pos += c;
		}
		for (i = 0; i < n; i++)
			dst[count[(src[i].start >> shift) & 0xff]++] = src[i];
		swap = src;
		src = dst;
		dst = swap;
	}
	if (src != a)
		memcpy(a, src, n * sizeof(*a));
}

static int leading_underscores(const char *name)
{
	int n = 0;

	while (name[n] == '_')
		n++;
	return n;
}

/* true when @a should be kept over @b (both start at the same address) */
static bool symbol__better(struct symbol *a, struct symbol *b)
{
	const char *a_name, *b_name;
	bool a_sized = a->end > a->start, b_sized = b->end > b->start;
	bool a_weak = a->binding == STB_WEAK, b_weak = b->binding == STB_WEAK;
	bool a_global = a->binding == STB_GLOBAL, b_global = b->binding == STB_GLOBAL;
	int a_us, b_us;
	size_t a_len, b_len;

	if (a_sized != b_sized)
		return a_sized;
	if (a_weak != b_weak)
		return !a_weak;
	if (a_global != b_global)
		return a_global;
	a_name = symbol__name(a);
	b_name = symbol__name(b);
	a_us = leading_underscores(a_name);
	b_us = leading_underscores(b_name);
	if (a_us != b_us)
		return a_us < b_us;
	a_len = strlen(a_name);
	b_len = strlen(b_name);
	if (a_len != b_len)
		return a_len > b_len;
	/* perf's x86 tie-break avoids the "SyS" syscall aliases */
	if (!strncmp(a_name, "SyS", 3) || !strncmp(a_name, "compat_SyS", 10))
		return false;
	return true;
}

/* kallsyms' "name\t[module]": the bracket is last, no need to scan most names */
static bool symbol__is_module(const struct symbol *sym)
{
	size_t n = sym->namelen != SYMBOL_NAMELEN_LONG ? sym->namelen : strlen(sym->name);

	return n && sym->name[n - 1] == ']' && strchr(sym->name, '[') != NULL;
}

void symbols__sort(struct symbols *syms)
{
	struct sort_entry *tmp;
	size_t i;

	if (syms->nr < 2)
		return;
	symbols__cache_drop(syms);
	/* kallsyms and most symbol tables come sorted already */
	for (i = 1; i < syms->nr; i++)
		if (syms->entries[i - 1]->start > syms->entries[i]->start)
			break;
	if (i == syms->nr)
		return;
	tmp = malloc(2 * syms->nr * sizeof(*tmp));
	if (tmp) {
		for (i = 0; i < syms->nr; i++) {
			tmp[i].start = syms->entries[i]->start;
			tmp[i].sym = syms->entries[i];
		}
		sort_entries__radix(tmp, tmp + syms->nr, syms->nr);
		for (i = 0; i < syms->nr; i++)
			syms->entries[i] = tmp[i].sym;
		free(tmp);
	} else {
		/* out of memory: an insertion sort in place, slow but stable too */
		struct symbol **e = syms->entries;
		size_t j;

		for (i = 1; i < syms->nr; i++)
			for (j = i; j > 0 && e[j - 1]->start > e[j]->start; j--) {
				struct symbol *s = e[j];

				e[j] = e[j - 1];
				e[j - 1] = s;
			}
	}
}

/*
 * perf's tree from the adds in their order; on return @order[i] is the node
 * of entries[i] once they are sorted (the tree's in-order is the stable
 * sort by start).  Without memory the tree is dropped: lookups then use
 * the sorted array, which agrees with perf except among overlaps.
 */
static int *symbols__build_tree(struct symbols *syms)
{
	int *order = NULL;
	size_t i;

	symtree__delete(syms->tree);
	syms->tree = symtree__new();
	if (!syms->tree)
		return NULL;
	for (i = 0; i < syms->nr; i++)
		if (symtree__insert(syms->tree, syms->entries[i]) < 0)
			goto out_drop;
	order = malloc(syms->nr * sizeof(*order));
	if (!order)
		goto out_drop;
	symtree__inorder(syms->tree, order);
	return order;

out_drop:
	symtree__delete(syms->tree);
	syms->tree = NULL;
	return NULL;
}

void symbols__fixup(struct symbols *syms, bool kallsyms)
{
	bool curr_mod;
	int *order = NULL;
	size_t i, out;

	if (!syms->nr)
		return;
	symbols__cache_drop(syms);
	if (syms->want_tree)
		order = symbols__build_tree(syms);
	symbols__sort(syms);

	/* ends first, then aliases: the order perf applies them in */
	curr_mod = kallsyms && symbol__is_module(syms->entries[0]);
	for (i = 0; i + 1 < syms->nr; i++) {
		struct symbol *prev = syms->entries[i], *curr = syms->entries[i + 1];
		bool prev_mod = curr_mod;

		/* each name looked at once: kallsyms has some 10^5 */
		curr_mod = kallsyms && symbol__is_module(curr);
		if (prev->end != prev->start)
			continue;
		if (kallsyms && prev_mod != curr_mod)
			prev->end =
			    ((prev->end + PAGE_SIZE_4K) + PAGE_SIZE_4K - 1) & ~(PAGE_SIZE_4K - 1);
		else
			prev->end = curr->start;
	}
	if (syms->entries[syms->nr - 1]->end == syms->entries[syms->nr - 1]->start) {
		struct symbol *last = syms->entries[syms->nr - 1];

		last->end = ((last->start + PAGE_SIZE_4K - 1) & ~(PAGE_SIZE_4K - 1)) + PAGE_SIZE_4K;
	}

	/* of a run of aliases one survives; the tree loses the same nodes in the same order */
	for (i = 1, out = 0; i < syms->nr; i++) {
		struct symbol *kept = syms->entries[out], *next = syms->entries[i];

		if (kept->start != next->start) {
			syms->entries[++out] = next;
			if (order)
				order[out] = order[i];
			continue;
		}
		if (symbol__better(kept, next)) {
			if (order)
				symtree__erase(syms->tree, order[i]);
			symbol__delete(next);
		} else {
			if (order) {
				symtree__erase(syms->tree, order[out]);
				order[out] = order[i];
			}
			symbol__delete(kept);
			syms->entries[out] = next;
		}
	}
	syms->nr = out + 1;
	free(order);
}

int symbols__add_late(struct symbols *syms, struct symbol *sym)
{
	int err = symbols__add(syms, sym);

	if (err)
		return err;
	if (syms->tree && symtree__insert(syms->tree, sym) < 0) {
		symtree__delete(syms->tree);
		syms->tree = NULL;
	}
	return 0;
}

/*
 * The symbol of @addr, from the number of symbols starting at or below it
 * (@lo).  Tables are disjoint but for symbols added after the fixups: PLT
 * entries over a symbol stretched across .plt (_init).  Those sit below the
 * stretched one in perf's rb-tree, whose search meets the outer symbol
 * first: so does this, a few steps back.
 */
static struct symbol *symbols__pick(const struct symbols *syms, const struct symbol_span *span,
				    size_t lo, u64 addr)
{
	size_t i, found = 0;

	for (i = lo; i > 0 && lo - i < 8; i--) {
		u64 start = span ? span[i - 1].start : syms->entries[i - 1]->start;
		u64 end = span ? span[i - 1].end : syms->entries[i - 1]->end;

		if (addr < end || addr == start)
			found = i;
	}
	return found ? syms->entries[found - 1] : NULL;
}

static struct symbol *__symbols__find(const struct symbols *syms, u64 addr)
{
	const struct symbols_cache *c = syms->cache;
	const struct symbol_span *span = c ? c->span : NULL;
	size_t lo = 0, hi = syms->nr;

	if (syms->tree)
		return symtree__find(syms->tree, addr);
	if (span)
		addr_buckets__range(&c->index, addr, syms->nr, &lo, &hi);
	/* the last symbol starting at or below addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		u64 start = span ? span[mid].start : syms->entries[mid]->start;

		if (start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return symbols__pick(syms, span, lo, addr);
}

void symbols__prepare(struct symbols *syms)
{
	struct symbols_cache *c;

	if (syms->cache || !syms->nr)
		return;
	c = calloc(1, sizeof(*c));
	if (c) {
		memset(c->addr, 0xff, sizeof(c->addr));
		/* with the tree, perf's order among overlaps is the tree's */
		if (!syms->tree)
			symbols_cache__index(c, syms);
	}
	syms->cache = c;
}

struct symbol *symbols__find(struct symbols *syms, u64 addr)
{
	struct symbols_cache *c;
	unsigned int slot;

	if (!syms->cache)
		symbols__prepare(syms);
	c = syms->cache;
	if (!c || addr == SYMBOLS_CACHE_EMPTY)
		return __symbols__find(syms, addr);
	slot = symbols_cache__slot(addr);
	if (c->addr[slot] != addr) {
		c->addr[slot] = addr;
		c->sym[slot] = __symbols__find(syms, addr);
	}
	return c->sym[slot];
}
