/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_DSO_H
#define __PERF_TEXTPOKE_DSO_H

#include "build-id.h"
#include "symbol.h"
#include "types.h"

/* What an object is decides where its symbols come from */
enum dso_kind {
	DSO_KIND__USER,	   /* a file mapped by a process: ELF symbols */
	DSO_KIND__VDSO,	   /* [vdso]: build-id cache, or this kernel's vdso */
	DSO_KIND__ANON,	   /* //anon (JIT code): /tmp/perf-PID.map if present */
	DSO_KIND__NO_DSO,  /* [heap], [stack], SysV shm: no symbols */
	DSO_KIND__KERNEL,  /* [kernel.kallsyms]: kallsyms, loaded by the machine */
	DSO_KIND__MODULE,  /* [module]: kallsyms "[module]" entries */
	DSO_KIND__KSYMBOL, /* a KSYMBOL (BPF program, trampoline): one symbol */
	/*
	 * an ELF file a kernel MMAP maps, not a module (perf textpoke
	 * inject --jit objects): its own .symtab, at link-time addresses
	 */
	DSO_KIND__KERNEL_OBJECT,
};

/*
 * An object that maps refer to.  Refcounted: every map holds a reference,
 * and the machine's dso table holds one.  Symbols are loaded on the first
 * lookup (dso__load()); the kernel's are loaded by the machine, which knows
 * where kallsyms is.
 */
struct dso {
	int refcnt;
	enum dso_kind kind;
	/*
	 * made the serial-th in this process: the order perf's trees give
	 * objects (by their addresses, which follow it), the same in every
	 * worker, which reads the side-band that makes them in one order
	 */
	u32 serial;
	char *name;			/* what perf script prints as dso */
	char *long_name;		/* the file: a module's path; else == name */
	size_t name_len, long_name_len; /* for the printers, which write one a frame */
	const char *short_name;		/* basename of name, "[JIT] tid N" for perf-N.map */
	char *short_name_alloc;		/* short_name when it is not part of name */
	struct build_id bid;		/* as recorded; size 0 when unknown */
	u64 ino;     /* the first MMAP2 inode of its maps: perf's dso id, which --mmaps prints */
	bool loaded; /* symbols were looked for (found or not) */
	bool hit;    /* inject -b: a sample fell in it; its build-id was looked for */
	bool print_long_name; /* a module perf names by its path (see map__dso_name()) */
	struct symbols symbols;
	char *symsrc; /* the file the symbols came from */
	u8 *image;    /* or the bytes (a vdso read from memory), the object's whole image */
	size_t image_size;
	struct dso_inline *inl; /* DWARF for callchains' inlined frames, opened on first use */
	char *runtime_path;	/* dso__runtime_path()'s answer, once runtime_known */
	bool runtime_known;
	char *data_path; /* dso__data_path()'s answer, once data_known */
	bool data_known;
	struct dso *next; /* dsos hash chain */
};

/*
 * A kernel MMAP of a '/' path maps a module when perf's
 * kmod_path__parse_name() calls it one (its last extension, past .gz,
 * .xz or .zst, starts with ".ko"), and else an object of its own.
 */
bool kernel_mmap__is_object(const char *filename);
/* perf's name for such an object: the basename, each '-' made '_' */
void kernel_object__name(const char *filename, char *buf, size_t size);

struct dso_inline;

struct dso *dso__new(const char *name, enum dso_kind kind);
struct dso *dso__get(struct dso *dso);
void dso__put(struct dso *dso);
int dso__set_long_name(struct dso *dso, const char *long_name);
void dso__set_build_id(struct dso *dso, const struct build_id *bid);

/*
 * Load the symbols of a user-space object once.  @running_kernel says that
 * the recording was made on the kernel this process runs on, so that its
 * vdso may stand in when no copy of the recorded one exists.  0 also when
 * nothing was found (the object then has no symbols); -errno on failure.
 */
int dso__load(struct dso *dso, bool running_kernel);
struct symbol *dso__find_symbol(struct dso *dso, u64 addr);
/* adds @sym to the table of an already loaded object (KSYMBOL) */
int dso__insert_symbol(struct dso *dso, struct symbol *sym);

/* symbol-elf.c: ELF symbols, as perf's dso__load_sym() keeps them */
int dso__load_elf(struct dso *dso);
/*
 * The file @dso's code was mapped from, for reading its code and CFI: its
 * path when the build-id fits (or none was recorded), else the build-id
 * cache's copy; NULL when neither is there.  Looked for once (opening and
 * checking ELF files is no per-read cost) and kept by @dso until its name
 * or build-id changes.
 */
const char *dso__runtime_path(struct dso *dso);
/*
 * The file a user object's bytes are read from (the insn field, user code
 * for Intel PT), in perf's order for data reads: the build-id cache's copy
 * when the recording names the object's build-id and the cache holds it,
 * else the path it was mapped from, unchecked, as perf reads it.  Looked
 * for once and kept by @dso until its name or build-id changes; no ELF
 * library needed.
 */
const char *dso__data_path(struct dso *dso);
/*
 * perf's --symfs for user objects: their files are looked for below
 * @dir first (the build-id cache after), for symbols and unwinding
 */
void dso__set_symfs(const char *dir);
/*
 * Symbols are looked up for these names only (annotate -s): an object
 * whose symbol table cannot hold any of them is left unread, with no
 * symbols.  Only when every name is a plain identifier ("leaf", not
 * "ns::f" or "f@plt"); NULL, 0: every table is read (the default).
 */
void dso__set_wanted_names(const char *const *names, size_t nr);
/* a DSO_KIND__KERNEL_OBJECT's symbols, from long_name (build-id checked when known) */
int dso__load_kernel_object(struct dso *dso);
/* the vdso image of this process, when its build-id fits */
int dso__load_own_vdso(struct dso *dso);
/* the 32-bit or x32 vdso of this kernel, through perf's helper program */
int dso__load_compat_vdso(struct dso *dso, const char *helper);
/*
 * The .text symbols of a vmlinux (a regular file) at their link-time
 * addresses, appended to @out unsorted.  -EILSEQ when its build-id is not
 * @want (when that is known), -ENODATA without a symbol table, -errno.
 */
int vmlinux__load_symbols(const char *path, const struct build_id *want, struct symbols *out);

/* The machine's objects by name */
#define DSOS_HASH_BITS 8
struct dsos {
	struct dso *heads[1 << DSOS_HASH_BITS];
	size_t nr;
};

void dsos__init(struct dsos *dsos);
void dsos__exit(struct dsos *dsos);
/* borrowed pointer, or NULL */
struct dso *dsos__find(struct dsos *dsos, const char *name);
/* a new reference; created with @kind when not there yet */
struct dso *dsos__findnew(struct dsos *dsos, const char *name, enum dso_kind kind);

#endif /* __PERF_TEXTPOKE_DSO_H */
