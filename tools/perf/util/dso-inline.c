// SPDX-License-Identifier: GPL-2.0-only
/*
 * The functions inlined at an address of a user object, from its DWARF
 * (the object's own, or its debug file under /usr/lib/debug/.build-id):
 * what perf 6.1 prints as callchain frames.  perf asks binutils'
 * addr2line -f -i, and gives each name it returns a frame of its own
 * at that address: the innermost inlined function first, the function
 * holding them last.  A name that is not the ELF symbol's becomes a
 * frame marked "(inlined)" -- the containing function too, when DWARF
 * calls it otherwise than the symbol table (glibc's
 * __libc_start_main_impl, exported as __libc_start_main).  Here libdw
 * answers the same question from the scopes around the address.
 *
 * Each object's DWARF is opened once, and each address asked once: a
 * callchain repeats the same few hundred return addresses.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build-id.h"
#include "debug.h"
#include "dso-inline.h"
#include "dso.h"
#include "input-file.h"

#ifdef HAVE_LIBDW
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <gelf.h>
#include <sys/stat.h>
#include <unistd.h>

/* addr2line's own limit on the depth of inlining it reports, as perf's */
#define INLINE_MAX_NEST 1024

struct inline_answer {
	u64 addr; /* file offset, as the object's symbols */
	unsigned int nr;
	char **names;
	char **lines; /* per name: where it is at the address, as perf's srcline prints it */
	bool names_known, line_known;
	char *line; /* "file.c:12", NULL: no line there */
	struct inline_answer *next;
};

#define INLINE_HASH 1024

/*
 * The functions around one innermost scope: the same for every address
 * in it, and costly to find (libdw walks the unit from its root), so
 * kept by the scope's DIE
 */
/*
 * A unit's functions by address, to go from an address to its function
 * without libdw's dwarf_getscopes(), which walks the unit's DIEs from
 * its root at each address
 */
struct cu_func {
	u64 lo, hi;
	Dwarf_Off die;
};

struct cu_funcs {
	Dwarf_Off cu;
	struct cu_func *funcs;
	size_t nr, alloc;
	struct cu_funcs *next;
};

struct scope_chain {
	Dwarf_Off die;
	unsigned int nr;
	char **names;
	char **lines; /* [0] unused: the line of each address is its own */
	struct scope_chain *next;
};

/* an executable PT_LOAD of the object as mapped */
struct inline_load {
	u64 offset, filesz, vaddr;
};

#define INLINE_LOADS 8

struct dso_inline {
	int fd;
	Elf *elf;
	Dwarf *dwarf;	/* NULL: the object has no DWARF we can find */
	bool have_file; /* the object's file was found: addr2line would answer */
	/* from the object itself: a debug file's headers have no file offsets */
	struct inline_load loads[INLINE_LOADS];
	unsigned int nr_loads;
	struct inline_answer *answers[INLINE_HASH];
	struct scope_chain *chains[INLINE_HASH];
	struct cu_funcs *units[INLINE_HASH];
};

static void dso_inline__close(struct dso_inline *di)
{
	if (di->dwarf)
		dwarf_end(di->dwarf);
	if (di->elf)
		elf_end(di->elf);
	if (di->fd >= 0)
		close(di->fd);
	di->dwarf = NULL;
	di->elf = NULL;
	di->fd = -1;
}

static void dso_inline__read_loads(struct dso_inline *di)
{
	size_t nr;

	if (elf_getphdrnum(di->elf, &nr))
		return;
	for (size_t i = 0; i < nr && di->nr_loads < INLINE_LOADS; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(di->elf, i, &ph) || ph.p_type != PT_LOAD || !(ph.p_flags & PF_X))
			continue;
		di->loads[di->nr_loads++] =
		    (struct inline_load){ph.p_offset, ph.p_filesz, ph.p_vaddr};
	}
}

/* @path's DWARF, if it has any; @runtime: the object itself, whose headers place its code */
static int dso_inline__open(struct dso_inline *di, const char *path, bool runtime)
{
	struct stat st;

	di->fd = input_file__open(path, &st);
	if (di->fd < 0)
		return di->fd;
	di->elf = elf_begin(di->fd, ELF_C_READ_MMAP, NULL);
	if (di->elf && elf_kind(di->elf) == ELF_K_ELF) {
		if (runtime)
			dso_inline__read_loads(di);
		di->dwarf = dwarf_begin_elf(di->elf, DWARF_C_READ, NULL);
	}
	if (!di->dwarf) {
		dso_inline__close(di);
		return -ENOENT;
	}
	return 0;
}

static struct dso_inline *dso_inline__new(struct dso *dso)
{
	struct dso_inline *di = calloc(1, sizeof(*di));
	struct build_id bid = dso->bid;
	const char *runtime;
	char *path;

	if (!di)
		return NULL;
	di->fd = -1;
	elf_version(EV_CURRENT);
	/* the object itself when it kept its DWARF, else its debug file */
	runtime = dso__runtime_path(dso);
	di->have_file = runtime != NULL;
	if (runtime) {
		if (!bid.size)
			filename__read_build_id(runtime, &bid);
		if (!dso_inline__open(di, runtime, true))
			return di;
	}
	path = build_id__debuginfo_path(&bid);
	/* without the object's own headers an address cannot be placed */
	if (path && di->nr_loads)
		dso_inline__open(di, path, false);
	free(path);
	return di;
}

void dso_inline__delete(struct dso_inline *di)
{
	if (!di)
		return;
	for (size_t i = 0; i < INLINE_HASH; i++) {
		while (di->answers[i]) {
			struct inline_answer *next = di->answers[i]->next;

			for (unsigned int j = 0; j < di->answers[i]->nr; j++) {
				free(di->answers[i]->names[j]);
				free(di->answers[i]->lines[j]);
			}
			free(di->answers[i]->lines);
			free(di->answers[i]->line);
			free(di->answers[i]->names);
			free(di->answers[i]);
			di->answers[i] = next;
		}
	}
	for (size_t i = 0; i < INLINE_HASH; i++) {
		while (di->chains[i]) {
			struct scope_chain *next = di->chains[i]->next;

			for (unsigned int j = 0; j < di->chains[i]->nr; j++) {
				free(di->chains[i]->names[j]);
				free(di->chains[i]->lines[j]);
			}
			free(di->chains[i]->names);
			free(di->chains[i]->lines);
			free(di->chains[i]);
			di->chains[i] = next;
		}
		while (di->units[i]) {
			struct cu_funcs *next = di->units[i]->next;

			free(di->units[i]->funcs);
			free(di->units[i]);
			di->units[i] = next;
		}
	}
	dso_inline__close(di);
	free(di);
}

/* a file offset of the object as the link-time address DWARF speaks of */
static bool dso_inline__vaddr(const struct dso_inline *di, u64 offset, u64 *vaddr)
{
	for (unsigned int i = 0; i < di->nr_loads; i++) {
		const struct inline_load *l = &di->loads[i];

		if (offset >= l->offset && offset - l->offset < l->filesz) {
			*vaddr = l->vaddr + (offset - l->offset);
			return true;
		}
	}
	return false;
}

/* as addr2line names a function: its linkage name when it has one, else its name */
static const char *scope__name(Dwarf_Die *die, bool *linkage)
{
	Dwarf_Attribute attr;
	const char *name = NULL;

	if (dwarf_attr_integrate(die, DW_AT_linkage_name, &attr) ||
	    dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attr))
		name = dwarf_formstring(&attr);
	*linkage = name != NULL;
	if (!name && dwarf_attr_integrate(die, DW_AT_name, &attr))
		name = dwarf_formstring(&attr);
	return name;
}

/* the better of two symbols at or below @addr, as binutils' better_fit() sees it */
static bool sym__better(const GElf_Sym *best, const GElf_Sym *sym, u64 addr)
{
	bool best_fn, sym_fn;

	if (!best)
		return true;
	if (sym->st_value != best->st_value)
		return sym->st_value > best->st_value;
	if (best->st_value + best->st_size <= addr)
		return sym->st_size > best->st_size;
	if (sym->st_value + sym->st_size <= addr)
		return false;
	best_fn = GELF_ST_TYPE(best->st_info) != STT_NOTYPE;
	sym_fn = GELF_ST_TYPE(sym->st_info) != STT_NOTYPE;
	if (best_fn != sym_fn)
		return sym_fn;
	return sym->st_size < best->st_size;
}

/*
 * The name of the ELF symbol addr2line finds at @vaddr (binutils'
 * elf_find_function()), for code DWARF has a line but no function for.
 * @file, when not NULL, gets the source file addr2line names where DWARF
 * has no line: the STT_FILE symbol before a local function's, a
 * malloc'ed name, else NULL.
 */
static char *dso_inline__elf_name(struct dso_inline *di, u64 vaddr, char **file)
{
	enum { NOTHING_SEEN, SYMBOL_SEEN, FILE_AFTER_SYMBOL } state = NOTHING_SEEN;
	Elf_Scn *scn = NULL, *symtab = NULL, *dynsym = NULL;
	const char *last_file = NULL, *best_file = NULL;
	GElf_Sym best = {0}, sym;
	size_t sec = 0, nr;
	bool have = false;
	Elf_Data *data;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(di->elf, scn)) != NULL) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB)
			symtab = scn;
		else if (sh.sh_type == SHT_DYNSYM)
			dynsym = scn;
		else if ((sh.sh_flags & SHF_ALLOC) && vaddr >= sh.sh_addr &&
			 vaddr - sh.sh_addr < sh.sh_size && !sec)
			sec = elf_ndxscn(scn);
	}
	scn = symtab ?: dynsym;
	if (!scn || !sec || !gelf_getshdr(scn, &sh) || !sh.sh_entsize)
		return NULL;
	data = elf_getdata(scn, NULL);
	if (!data)
		return NULL;
	nr = sh.sh_size / sh.sh_entsize;
	/* bfd leaves out the null symbol */
	for (size_t i = 1; i < nr; i++) {
		int type;

		if (!gelf_getsym(data, i, &sym))
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		if (type == STT_FILE) {
			last_file = elf_strptr(di->elf, sh.sh_link, sym.st_name);
			if (state == SYMBOL_SEEN)
				state = FILE_AFTER_SYMBOL;
			continue;
		}
		if (state == NOTHING_SEEN)
			state = SYMBOL_SEEN;
		if (sym.st_shndx != sec || sym.st_value > vaddr)
			continue;
		if (type != STT_FUNC && type != STT_NOTYPE && type != STT_GNU_IFUNC)
			continue;
		if (sym__better(have ? &best : NULL, &sym, vaddr)) {
			best = sym;
			have = true;
			best_file = last_file && (GELF_ST_BIND(sym.st_info) == STB_LOCAL ||
						  state != FILE_AFTER_SYMBOL) ?
					last_file :
					NULL;
		}
	}
	if (!have)
		return NULL;
	if (file)
		*file = best_file ? strdup(best_file) : NULL;
	return strdup(elf_strptr(di->elf, sh.sh_link, best.st_name) ?: "??");
}

/* "file:line" as perf prints a srcline: the file's base name */
static char *fileline(const char *file, int line)
{
	const char *base = strrchr(file, '/');
	char *s;

	if (asprintf(&s, "%s:%d", base ? base + 1 : file, line) < 0)
		return NULL;
	return s;
}

/* where @die, an inlined instance, was called: addr2line's line for its caller */
static char *scope__call_line(Dwarf_Die *cudie, Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	Dwarf_Files *files;
	Dwarf_Word idx, line;
	const char *file;
	size_t nfiles;

	if (!dwarf_attr(die, DW_AT_call_file, &attr) || dwarf_formudata(&attr, &idx) ||
	    !dwarf_attr(die, DW_AT_call_line, &attr) || dwarf_formudata(&attr, &line) ||
	    dwarf_getsrcfiles(cudie, &files, &nfiles) || idx >= nfiles ||
	    !(file = dwarf_filesrc(files, idx, NULL, NULL)))
		return NULL;
	return fileline(file, (int)line);
}

/* the line at @vaddr, from the line table */
static char *cu__line(Dwarf_Die *cudie, u64 vaddr)
{
	Dwarf_Line *line = dwarf_getsrc_die(cudie, vaddr);
	const char *file;
	int lineno;

	if (!line || dwarf_lineno(line, &lineno) || !(file = dwarf_linesrc(line, NULL, NULL)))
		return NULL;
	return fileline(file, lineno);
}

static int cu_func__cmp(const void *pa, const void *pb)
{
	const struct cu_func *x = pa, *y = pb;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	/* the assembler's aliases: the later DIE last, as binutils takes it */
	return x->die < y->die ? -1 : x->die > y->die;
}

static int cu_funcs__add(struct cu_funcs *u, Dwarf_Die *die)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;

	while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0) {
		if (lo >= hi)
			continue;
		if (u->nr == u->alloc) {
			size_t alloc = u->alloc ? u->alloc * 2 : 64;
			struct cu_func *f = realloc(u->funcs, alloc * sizeof(*f));

			if (!f)
				return -ENOMEM;
			u->funcs = f;
			u->alloc = alloc;
		}
		u->funcs[u->nr++] = (struct cu_func){lo, hi, dwarf_dieoffset(die)};
	}
	return 0;
}

/* the functions of a unit, and of its namespaces and classes (C++) */
static int cu_funcs__scan(struct cu_funcs *u, Dwarf_Die *parent, int depth)
{
	Dwarf_Die child;

	if (depth > 8 || dwarf_child(parent, &child))
		return 0;
	do {
		int tag = dwarf_tag(&child), err = 0;

		if (tag == DW_TAG_subprogram)
			err = cu_funcs__add(u, &child);
		else if (tag == DW_TAG_namespace || tag == DW_TAG_class_type ||
			 tag == DW_TAG_structure_type)
			err = cu_funcs__scan(u, &child, depth + 1);
		if (err)
			return err;
	} while (dwarf_siblingof(&child, &child) == 0);
	return 0;
}

static struct cu_funcs *dso_inline__unit(struct dso_inline *di, Dwarf_Die *cudie)
{
	Dwarf_Off off = dwarf_dieoffset(cudie);
	size_t h = (off * 0x9e3779b97f4a7c15ULL) >> 54;
	struct cu_funcs *u;

	for (u = di->units[h]; u; u = u->next)
		if (u->cu == off)
			return u;
	u = calloc(1, sizeof(*u));
	if (!u)
		return NULL;
	u->cu = off;
	if (cu_funcs__scan(u, cudie, 0)) {
		free(u->funcs);
		free(u);
		return NULL;
	}
	if (u->nr)
		qsort(u->funcs, u->nr, sizeof(*u->funcs), cu_func__cmp);
	u->next = di->units[h];
	di->units[h] = u;
	return u;
}

/*
 * The function holding @vaddr: of those reaching it, the one starting
 * closest below it, the last in DIE order among aliases (binutils'
 * choice); the entries are sorted so, and the first found going back
 * from @vaddr is the one.  Nested ranges are rare: a few steps back suffice.
 */
static bool cu_funcs__find(const struct cu_funcs *u, u64 vaddr, Dwarf_Off *die)
{
	size_t lo = 0, hi = u->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (u->funcs[mid].lo <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo, steps = 0; i-- > 0 && steps < 64; steps++) {
		if (u->funcs[i].hi > vaddr) {
			*die = u->funcs[i].die;
			return true;
		}
	}
	return false;
}

/* the path from a function down to the innermost scope at @vaddr */
static int scope__path(Dwarf_Die *fn, u64 vaddr, Dwarf_Die *path, int max)
{
	Dwarf_Die cur = *fn, child;
	int depth = 0;

	path[depth++] = cur;
	while (depth < max && dwarf_child(&cur, &child) == 0) {
		bool found = false;

		do {
			int tag = dwarf_tag(&child);

			if ((tag == DW_TAG_lexical_block || tag == DW_TAG_inlined_subroutine) &&
			    dwarf_haspc(&child, vaddr) == 1) {
				found = true;
				break;
			}
		} while (dwarf_siblingof(&child, &child) == 0);
		if (!found)
			break;
		cur = child;
		path[depth++] = cur;
	}
	return depth;
}

#define SCOPE_DEPTH 64

/* the functions around the innermost scope of @path, innermost first, with the outer ones' call sites */
static struct scope_chain *dso_inline__chain(struct dso_inline *di, Dwarf_Die *cudie,
					     Dwarf_Die *path, int depth)
{
	Dwarf_Off off = dwarf_dieoffset(&path[depth - 1]);
	size_t h = (off * 0x9e3779b97f4a7c15ULL) >> 54;
	struct scope_chain *c;
	int inner_at = depth - 1;

	for (c = di->chains[h]; c; c = c->next)
		if (c->die == off)
			return c;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->die = off;
	c->names = calloc(depth, sizeof(*c->names));
	c->lines = calloc(depth, sizeof(*c->lines));
	for (int i = depth - 1; c->names && c->lines && i >= 0; i--) {
		int tag = dwarf_tag(&path[i]);
		const char *name;
		bool linkage;

		if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_subprogram)
			continue;
		name = scope__name(&path[i], &linkage);
		/* the outer levels' lines: the call site of the level inside each */
		if (c->nr)
			c->lines[c->nr] = scope__call_line(cudie, &path[inner_at]);
		inner_at = i;
		c->names[c->nr] = strdup(name ?: "??");
		if (!c->names[c->nr]) {
			free(c->lines[c->nr]);
			c->lines[c->nr] = NULL;
			break;
		}
		c->nr++;
	}
	c->next = di->chains[h];
	di->chains[h] = c;
	return c;
}

static int dso_inline__lookup(struct dso_inline *di, u64 offset, struct inline_answer *a)
{
	Dwarf_Die cudie, fn, path[SCOPE_DEPTH];
	struct scope_chain *chain;
	struct cu_funcs *unit;
	Dwarf_Off fn_off;
	u64 vaddr;
	int depth;

	if (!dso_inline__vaddr(di, offset, &vaddr) || !dwarf_addrdie(di->dwarf, vaddr, &cudie))
		return 0;
	/* no line: addr2line says "??:0", which perf takes as no answer */
	if (!dwarf_getsrc_die(&cudie, vaddr))
		return 0;
	unit = dso_inline__unit(di, &cudie);
	if (!unit)
		return -ENOMEM;
	if (!cu_funcs__find(unit, vaddr, &fn_off) || !dwarf_offdie(di->dwarf, fn_off, &fn)) {
		/* a line but no function: addr2line names the ELF symbol */
		a->names = calloc(1, sizeof(*a->names));
		a->lines = calloc(1, sizeof(*a->lines));
		if (!a->names || !a->lines)
			return -ENOMEM;
		a->names[0] = dso_inline__elf_name(di, vaddr, NULL);
		a->lines[0] = a->names[0] ? cu__line(&cudie, vaddr) : NULL;
		a->nr = a->names[0] != NULL;
		return 0;
	}
	depth = scope__path(&fn, vaddr, path, SCOPE_DEPTH);
	chain = dso_inline__chain(di, &cudie, path, depth);
	if (!chain)
		return -ENOMEM;
	a->names = calloc(chain->nr ?: 1, sizeof(*a->names));
	a->lines = calloc(chain->nr ?: 1, sizeof(*a->lines));
	if (!a->names || !a->lines)
		return -ENOMEM;
	for (unsigned int i = 0; i < chain->nr; i++) {
		a->names[i] = strdup(chain->names[i]);
		if (!a->names[i])
			return -ENOMEM;
		a->nr++;
		a->lines[i] = !i	      ? cu__line(&cudie, vaddr) :
			      chain->lines[i] ? strdup(chain->lines[i]) :
						NULL;
	}
	return 0;
}

/* the cached answers at @offset, made on first use; NULL when there is no DWARF */
static struct inline_answer *dso__inline_answer(struct dso *dso, u64 offset)
{
	struct dso_inline *di = dso->inl;
	struct inline_answer *a;
	size_t h = (offset * 0x9e3779b97f4a7c15ULL) >> 54;

	if (dso->kind != DSO_KIND__USER)
		return NULL;
	if (!di) {
		di = dso->inl = dso_inline__new(dso);
		if (!di)
			return NULL;
	}
	if (!di->dwarf)
		return NULL;
	for (a = di->answers[h]; a; a = a->next)
		if (a->addr == offset)
			return a;
	a = calloc(1, sizeof(*a));
	if (!a)
		return NULL;
	a->addr = offset;
	a->next = di->answers[h];
	di->answers[h] = a;
	return a;
}

unsigned int dso__inline_names(struct dso *dso, u64 offset, char *const **names,
			       char *const **lines)
{
	struct inline_answer *a = dso__inline_answer(dso, offset);

	if (!a)
		return 0;
	if (!a->names_known) {
		a->names_known = true;
		if (dso_inline__lookup(dso->inl, offset, a)) {
			for (unsigned int i = 0; i < a->nr; i++) {
				free(a->names[i]);
				free(a->lines ? a->lines[i] : NULL);
			}
			free(a->names);
			free(a->lines);
			a->names = NULL;
			a->lines = NULL;
			a->nr = 0;
		}
	}
	*names = a->names;
	if (lines)
		*lines = a->lines;
	return a->nr;
}

const char *dso__srcline(struct dso *dso, u64 offset)
{
	struct inline_answer *a = dso__inline_answer(dso, offset);
	char *elf_file = NULL, *name;
	Dwarf_Die cudie;
	u64 vaddr;

	/* an object addr2line can read but that has no line there: "??:0" */
	if (!a)
		return dso->kind == DSO_KIND__USER && dso->inl && dso->inl->have_file ? "??:0" :
											NULL;
	if (a->line_known)
		return a->line;
	a->line_known = true;
	if (!dso_inline__vaddr(dso->inl, offset, &vaddr)) {
		a->line = strdup("??:0");
		return a->line;
	}
	if (dwarf_addrdie(dso->inl->dwarf, vaddr, &cudie))
		a->line = cu__line(&cudie, vaddr);
	if (a->line)
		return a->line;
	/*
	 * No line: addr2line still names the function from the ELF symbols,
	 * and a file from the STT_FILE before a local one, line "?", which
	 * perf prints as "file:0", or "??:0" without a file; with no
	 * function either perf takes it for no answer and prints its own
	 */
	name = dso_inline__elf_name(dso->inl, vaddr, &elf_file);
	if (!name)
		return NULL;
	free(name);
	a->line = elf_file ? fileline(elf_file, 0) : strdup("??:0");
	free(elf_file);
	return a->line;
}

int dso__source_loc(struct dso *dso, u64 offset, struct dso_source_loc *loc)
{
	struct inline_answer *a = dso__inline_answer(dso, offset);
	Dwarf_Attribute attr;
	char *const *names;
	Dwarf_Line *line;
	Dwarf_Die cudie;
	unsigned int disc;
	int lineno;
	u64 vaddr;

	memset(loc, 0, sizeof(*loc));
	if (!a)
		return -ENOENT;
	/* the function as addr2line -f names it: the innermost of the inline chain */
	if (dso__inline_names(dso, offset, &names, NULL))
		loc->function = names[0];
	if (!dso_inline__vaddr(dso->inl, offset, &vaddr) ||
	    !dwarf_addrdie(dso->inl->dwarf, vaddr, &cudie))
		return 0;
	line = dwarf_getsrc_die(&cudie, vaddr);
	if (!line || dwarf_lineno(line, &lineno) || lineno <= 0)
		return 0;
	loc->file = dwarf_linesrc(line, NULL, NULL);
	loc->comp_dir = dwarf_formstring(dwarf_attr(&cudie, DW_AT_comp_dir, &attr));
	loc->line = lineno;
	if (!dwarf_linediscriminator(line, &disc))
		loc->discriminator = disc;
	return 0;
}

/* the allocated section of @elf holding @vaddr, its name copied to @buf */
static bool elf__section_name(Elf *elf, u64 vaddr, char *buf, size_t size)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	const char *name;
	GElf_Shdr sh;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return false;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC) || vaddr < sh.sh_addr ||
		    vaddr - sh.sh_addr >= sh.sh_size)
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name)
			return false;
		snprintf(buf, size, "%s", name);
		return true;
	}
	return false;
}

int dso__section_name(struct dso *dso, u64 offset, char *buf, size_t size)
{
	struct dso_inline *one;
	const char *path;
	struct stat st;
	bool found;
	u64 vaddr;

	/* the ELF the DWARF came from: the object's, or its debug file's, headers */
	if (dso__inline_answer(dso, offset))
		return dso_inline__vaddr(dso->inl, offset, &vaddr) &&
			       elf__section_name(dso->inl->elf, vaddr, buf, size) ?
			   0 :
			   -ENOENT;
	/* no DWARF: the object's own section headers, read once for the symbol */
	path = dso->kind == DSO_KIND__USER ? dso__runtime_path(dso) : NULL;
	one = path ? calloc(1, sizeof(*one)) : NULL;
	if (!one)
		return -ENOENT;
	one->fd = input_file__open(path, &st);
	found = one->fd >= 0;
	if (found) {
		elf_version(EV_CURRENT);
		one->elf = elf_begin(one->fd, ELF_C_READ_MMAP, NULL);
		found = one->elf && elf_kind(one->elf) == ELF_K_ELF;
	}
	if (found)
		dso_inline__read_loads(one);
	found = found && dso_inline__vaddr(one, offset, &vaddr) &&
		elf__section_name(one->elf, vaddr, buf, size);
	dso_inline__close(one);
	free(one);
	return found ? 0 : -ENOENT;
}

#else /* !HAVE_LIBDW */

void dso_inline__delete(struct dso_inline *di)
{
}

unsigned int dso__inline_names(struct dso *dso, u64 offset, char *const **names,
			       char *const **lines)
{
	return 0;
}

const char *dso__srcline(struct dso *dso, u64 offset)
{
	return NULL;
}

int dso__source_loc(struct dso *dso, u64 offset, struct dso_source_loc *loc)
{
	memset(loc, 0, sizeof(*loc));
	return -ENOENT;
}

int dso__section_name(struct dso *dso, u64 offset, char *buf, size_t size)
{
	return -ENOENT;
}

#endif /* HAVE_LIBDW */

const char *dso__srcline_print(struct dso *dso, u64 offset, bool unwound, char *buf, size_t size)
{
	const char *line = dso__srcline(dso, offset);

	if (line)
		return unwound || strcmp(line, "??:0") ? line : NULL;
	snprintf(buf, size, "%s[%" PRIx64 "]", dso->short_name, offset);
	return buf;
}
