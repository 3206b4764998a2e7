// SPDX-License-Identifier: GPL-2.0-only
/*
 * ELF files of kernel code, written by hand from <elf.h> structs: the
 * format is small, and writing it ourselves keeps the layout (and so the
 * build-id) a function of the contents alone.
 *
 *	+--------------------------+ 0
 *	| Elf64_Ehdr               |
 *	| Elf64_Phdr PT_NOTE       |
 *	| Elf64_Phdr PT_LOAD x nr  |  one per range, address order
 *	+--------------------------+
 *	| code of range 0          |  p_offset % 4096 == p_vaddr % 4096
 *	| code of range 1 ...      |  (zeros between ranges to get there)
 *	+--------------------------+
 *	| .note.gnu.build-id       |  4-aligned, NT_GNU_BUILD_ID, 20 bytes
 *	| .symtab                  |  8-aligned: null, locals, globals
 *	| .strtab                  |  names in .symtab order
 *	| .shstrtab                |
 *	| Elf64_Shdr x (nr + 5)    |  8-aligned: null, code..., note,
 *	+--------------------------+  symtab, strtab, shstrtab
 *
 * The offsets keep each segment congruent to its address modulo the page
 * size, as ld lays out executables: then a loader that mmaps segments
 * (gdb's, libelf's ELF_C_READ_MMAP readers, perf's kcore maps) and one
 * that preads them agree, and the padding costs no more than the part of
 * a page between two ranges.  In an object (ET_EXEC), a hole of up to
 * EI_EXEC_MAX_GAP between two ranges is reproduced in the file, as zeros,
 * so that address minus offset is the same for all of them: perf maps a
 * kernel-mapped object with the offset of its first .text only.  Past
 * EI_EXEC_MAX_HOLES of such zeros in all (a hostile caller's many ranges
 * far apart), the compact layout again.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elf-image.h"
#include "sha1.h"
#include "write-all.h"

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
	       "elf-image.c writes host structs as ELFDATA2LSB");
/* no extended numbering: e_phnum, e_shnum and st_shndx stay below their escapes */
_Static_assert(ELF_IMAGE_MAX_RANGES + 1 < PN_XNUM && ELF_IMAGE_MAX_RANGES + 5 < SHN_LORESERVE,
	       "too many ranges for 16-bit ELF counts");
_Static_assert(ELF_IMAGE_MAX_NAMES < UINT32_MAX - 1, "names past 32-bit string offsets");

#ifndef NT_GNU_BUILD_ID
#define NT_GNU_BUILD_ID 3
#endif

#define EI_PAGE 4096ULL
/*
 * Ranges added out of address order wait in a short unsorted tail,
 * checked one by one, until it is merged into the sorted part: adding n
 * ranges in any order costs O(n log n + n * n / EI_TAIL_MAX) with small
 * constants, and in address order O(n).
 */
#define EI_TAIL_MAX 256
#define EI_OUT_BUF (1 << 16)
/* the widest hole between two ranges of an object that the file reproduces, and all of them */
#define EI_EXEC_MAX_GAP (1ULL << 20)
#define EI_EXEC_MAX_HOLES (64ULL << 20)

struct ei_range {
	u64 addr, len;
	u8 *bytes;
	u32 name; /* offset in elf_image::names */
	/* set by elf_image__layout() */
	u32 shname; /* offset in .shstrtab */
	u64 off;
};

struct ei_sym {
	u64 addr, len;
	u32 name; /* offset in elf_image::names */
	u8 type;  /* STT_* */
	u8 bind;  /* STB_* */
};

struct elf_image {
	enum elf_image_type type;
	/* [0, nr_sorted) in address order, [nr_sorted, nr_ranges) as added */
	struct ei_range *ranges;
	size_t nr_ranges, nr_sorted, alloc_ranges;
	u64 code_bytes;
	struct ei_sym *syms;
	size_t nr_syms, alloc_syms;
	bool syms_sorted;
	/* every name, NUL-terminated, back to back */
	char *names;
	size_t names_len, names_alloc;
	u64 sym_names_len; /* .strtab without its leading NUL */
};

/* where elf_image__layout() puts things */
struct ei_layout {
	u16 phnum, shnum;
	u64 note_off;
	u64 symtab_off, symtab_size;
	u64 strtab_off, strtab_size;
	u64 shstrtab_off, shstrtab_size;
	u64 shoff;
	size_t nr_locals;
};

/* the fixed part of .shstrtab; code sections' names follow */
static const char ei_shstrtab[] = "\0.note.gnu.build-id\0.symtab\0.strtab\0.shstrtab";
#define EI_SHNAME_NOTE 1
#define EI_SHNAME_SYMTAB (EI_SHNAME_NOTE + sizeof(".note.gnu.build-id"))
#define EI_SHNAME_STRTAB (EI_SHNAME_SYMTAB + sizeof(".symtab"))
#define EI_SHNAME_SHSTRTAB (EI_SHNAME_STRTAB + sizeof(".strtab"))

/* namesz, descsz, type, "GNU\0", the id */
#define EI_NOTE_SIZE (12 + 4 + BUILD_ID_SIZE)
#define EI_NOTE_DESC 16

struct elf_image *elf_image__new(enum elf_image_type type)
{
	struct elf_image *ei;

	if (type != ELF_IMAGE_EXEC && type != ELF_IMAGE_CORE) {
		errno = EINVAL;
		return NULL;
	}
	ei = calloc(1, sizeof(*ei));
	if (!ei) {
		errno = ENOMEM;
		return NULL;
	}
	ei->type = type;
	ei->syms_sorted = true;
	return ei;
}

void elf_image__delete(struct elf_image *ei)
{
	size_t i;

	if (!ei)
		return;
	for (i = 0; i < ei->nr_ranges; i++)
		free(ei->ranges[i].bytes);
	free(ei->ranges);
	free(ei->syms);
	free(ei->names);
	free(ei);
}

/* @name into the pool: its offset, or -errno */
static s64 elf_image__add_name(struct elf_image *ei, const char *name)
{
	size_t len = strnlen(name, ELF_IMAGE_MAX_NAME + 1);
	size_t off = ei->names_len;

	if (!len)
		return -EINVAL;
	if (len > ELF_IMAGE_MAX_NAME)
		return -ENAMETOOLONG;
	/* well inside what 32-bit st_name and sh_name offsets reach */
	if (len + 1 > ELF_IMAGE_MAX_NAMES - ei->names_len)
		return -E2BIG;
	if (ei->names_len + len + 1 > ei->names_alloc) {
		size_t alloc = ei->names_alloc ? ei->names_alloc : 4096;
		char *p;

		while (alloc < ei->names_len + len + 1)
			alloc *= 2;
		p = realloc(ei->names, alloc);
		if (!p)
			return -ENOMEM;
		ei->names = p;
		ei->names_alloc = alloc;
	}
	memcpy(ei->names + off, name, len + 1);
	ei->names_len += len + 1;
	return off;
}

static int range__cmp(const void *a, const void *b)
{
	const struct ei_range *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* merge the unsorted tail into the sorted part */
static int elf_image__sort_ranges(struct elf_image *ei)
{
	struct ei_range *merged, *a, *a_end, *b, *b_end, *to;

	if (ei->nr_sorted == ei->nr_ranges)
		return 0;
	merged = malloc(ei->alloc_ranges * sizeof(*merged));
	if (!merged)
		return -ENOMEM;
	qsort(ei->ranges + ei->nr_sorted, ei->nr_ranges - ei->nr_sorted, sizeof(*ei->ranges),
	      range__cmp);
	a = ei->ranges;
	a_end = b = ei->ranges + ei->nr_sorted;
	b_end = ei->ranges + ei->nr_ranges;
	to = merged;
	while (a < a_end && b < b_end)
		*to++ = a->addr < b->addr ? *a++ : *b++;
	while (a < a_end)
		*to++ = *a++;
	while (b < b_end)
		*to++ = *b++;
	free(ei->ranges);
	ei->ranges = merged;
	ei->nr_sorted = ei->nr_ranges;
	return 0;
}

/* does [addr, addr + len) overlap a range added before? */
static bool elf_image__overlaps(const struct elf_image *ei, u64 addr, u64 len)
{
	size_t lo = 0, hi = ei->nr_sorted, i;

	/* the first sorted range at or above @addr; the one before it may reach in */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ei->ranges[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < ei->nr_sorted && ei->ranges[lo].addr - addr < len)
		return true;
	if (lo > 0 && ei->ranges[lo - 1].addr + ei->ranges[lo - 1].len > addr)
		return true;
	for (i = ei->nr_sorted; i < ei->nr_ranges; i++) {
		const struct ei_range *r = &ei->ranges[i];

		if (r->addr < addr + len && addr < r->addr + r->len)
			return true;
	}
	return false;
}

int elf_image__add_code(struct elf_image *ei, const char *section, u64 addr, const void *bytes,
			size_t len)
{
	struct ei_range *r;
	size_t names_len = ei->names_len;
	bool in_order;
	s64 name;
	int err;

	if (!len || !bytes || addr + len < addr || addr + len == 0)
		return -EINVAL;
	if (ei->nr_ranges >= ELF_IMAGE_MAX_RANGES)
		return -E2BIG;
	if (len > ELF_IMAGE_MAX_CODE - ei->code_bytes)
		return -EFBIG;
	if (ei->nr_ranges - ei->nr_sorted >= EI_TAIL_MAX) {
		err = elf_image__sort_ranges(ei);
		if (err)
			return err;
	}
	in_order = ei->nr_sorted == ei->nr_ranges &&
		   (!ei->nr_sorted ||
		    ei->ranges[ei->nr_sorted - 1].addr + ei->ranges[ei->nr_sorted - 1].len <= addr);
	if (!in_order && elf_image__overlaps(ei, addr, len))
		return -EINVAL;
	if (ei->nr_ranges == ei->alloc_ranges) {
		size_t alloc = ei->alloc_ranges ? 2 * ei->alloc_ranges : 16;

		r = realloc(ei->ranges, alloc * sizeof(*r));
		if (!r)
			return -ENOMEM;
		ei->ranges = r;
		ei->alloc_ranges = alloc;
	}
	if (!section)
		section = ".text";
	/* a run of ranges in one section (".text") keeps one copy of the name */
	if (ei->nr_ranges && !strcmp(ei->names + ei->ranges[ei->nr_ranges - 1].name, section))
		name = ei->ranges[ei->nr_ranges - 1].name;
	else
		name = elf_image__add_name(ei, section);
	if (name < 0)
		return name;
	r = &ei->ranges[ei->nr_ranges];
	memset(r, 0, sizeof(*r));
	r->bytes = malloc(len);
	if (!r->bytes) {
		ei->names_len = names_len;
		return -ENOMEM;
	}
	memcpy(r->bytes, bytes, len);
	r->addr = addr;
	r->len = len;
	r->name = name;
	ei->nr_ranges++;
	if (in_order)
		ei->nr_sorted++;
	ei->code_bytes += len;
	return 0;
}

int elf_image__reserve_symbols(struct elf_image *ei, size_t nr, size_t names)
{
	void *p;

	if (nr > ELF_IMAGE_MAX_SYMBOLS - ei->nr_syms || names > ELF_IMAGE_MAX_NAMES - ei->names_len)
		return -E2BIG;
	if (ei->nr_syms + nr > ei->alloc_syms) {
		p = realloc(ei->syms, (ei->nr_syms + nr) * sizeof(*ei->syms));
		if (!p)
			return -ENOMEM;
		ei->syms = p;
		ei->alloc_syms = ei->nr_syms + nr;
	}
	if (ei->names_len + names > ei->names_alloc) {
		p = realloc(ei->names, ei->names_len + names);
		if (!p)
			return -ENOMEM;
		ei->names = p;
		ei->names_alloc = ei->names_len + names;
	}
	return 0;
}

int elf_image__add_symbol(struct elf_image *ei, const char *name, u64 addr, u64 len,
			  enum elf_image_sym_type type, bool global)
{
	static const u8 stt[] = {
	    [ELF_IMAGE_SYM_FUNC] = STT_FUNC,
	    [ELF_IMAGE_SYM_OBJECT] = STT_OBJECT,
	    [ELF_IMAGE_SYM_NOTYPE] = STT_NOTYPE,
	};
	struct ei_sym *s;
	s64 off;

	if (!name || (unsigned int)type >= ARRAY_SIZE(stt))
		return -EINVAL;
	if (ei->nr_syms >= ELF_IMAGE_MAX_SYMBOLS)
		return -E2BIG;
	if (ei->nr_syms == ei->alloc_syms) {
		size_t alloc = ei->alloc_syms ? 2 * ei->alloc_syms : 256;

		s = realloc(ei->syms, alloc * sizeof(*s));
		if (!s)
			return -ENOMEM;
		ei->syms = s;
		ei->alloc_syms = alloc;
	}
	off = elf_image__add_name(ei, name);
	if (off < 0)
		return off;
	s = &ei->syms[ei->nr_syms++];
	s->addr = addr;
	s->len = len;
	s->name = off;
	s->type = stt[type];
	s->bind = global ? STB_GLOBAL : STB_LOCAL;
	ei->sym_names_len += ei->names_len - off;
	ei->syms_sorted = false;
	return 0;
}

/* locals first (ELF wants them so), then by address; ties so that add order does not count */
static int sym__cmp(const void *a, const void *b, void *names)
{
	const struct ei_sym *x = a, *y = b;
	int c;

	if (x->bind != y->bind)
		return x->bind == STB_LOCAL ? -1 : 1;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	c = strcmp((const char *)names + x->name, (const char *)names + y->name);
	if (c)
		return c;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return (int)x->type - (int)y->type;
}

/*
 * Heapsort, in place: qsort() takes a copy of the array to merge into,
 * and a kernel snapshot's .symtab is 100k symbols and more (3 MB more at
 * the snapshot's peak of memory)
 */
static void syms__sift(struct ei_sym *a, size_t root, size_t n, char *names)
{
	for (;;) {
		size_t child = 2 * root + 1;
		struct ei_sym t;

		if (child >= n)
			return;
		if (child + 1 < n && sym__cmp(&a[child], &a[child + 1], names) < 0)
			child++;
		if (sym__cmp(&a[root], &a[child], names) >= 0)
			return;
		t = a[root];
		a[root] = a[child];
		a[child] = t;
		root = child;
	}
}

static void syms__sort(struct ei_sym *a, size_t n, char *names)
{
	struct ei_sym t;
	size_t i;

	for (i = n / 2; i-- > 0;)
		syms__sift(a, i, n, names);
	for (i = n; i-- > 1;) {
		t = a[0];
		a[0] = a[i];
		a[i] = t;
		syms__sift(a, 0, i, names);
	}
}

static int elf_image__layout(struct elf_image *ei, struct ei_layout *l)
{
	u64 off, holes = 0, shname = sizeof(ei_shstrtab);
	size_t i;
	int err;

	err = elf_image__sort_ranges(ei);
	if (err)
		return err;
	if (!ei->syms_sorted) {
		syms__sort(ei->syms, ei->nr_syms, ei->names);
		ei->syms_sorted = true;
	}
	memset(l, 0, sizeof(*l));
	while (l->nr_locals < ei->nr_syms && ei->syms[l->nr_locals].bind == STB_LOCAL)
		l->nr_locals++;
	l->phnum = ei->nr_ranges + 1;
	l->shnum = ei->nr_ranges + 5;
	off = sizeof(Elf64_Ehdr) + l->phnum * sizeof(Elf64_Phdr);
	for (i = 0; i < ei->nr_ranges; i++) {
		struct ei_range *r = &ei->ranges[i];
		const struct ei_range *prev = i ? &ei->ranges[i - 1] : NULL;
		u64 gap = prev ? r->addr - (prev->addr + prev->len) : 0;

		/*
		 * perf maps an object's .text with one file offset (the first
		 * one's) and reads every later .text through it: in an object,
		 * near ranges keep their distance in the file too, as long as
		 * the zeros that costs stay few.
		 */
		if (ei->type == ELF_IMAGE_EXEC && prev && gap <= EI_EXEC_MAX_GAP &&
		    gap <= EI_EXEC_MAX_HOLES - holes) {
			off += gap;
			holes += gap;
		} else {
			off += (r->addr - off) & (EI_PAGE - 1);
		}
		r->off = off;
		off += r->len;
		if (prev && !strcmp(ei->names + r->name, ei->names + prev->name)) {
			r->shname = prev->shname;
		} else {
			r->shname = shname;
			shname += strlen(ei->names + r->name) + 1;
		}
	}
	l->note_off = PERF_ALIGN(off, 4);
	l->symtab_off = PERF_ALIGN(l->note_off + EI_NOTE_SIZE, 8);
	l->symtab_size = (ei->nr_syms + 1) * sizeof(Elf64_Sym);
	l->strtab_off = l->symtab_off + l->symtab_size;
	l->strtab_size = 1 + ei->sym_names_len;
	l->shstrtab_off = l->strtab_off + l->strtab_size;
	l->shstrtab_size = shname;
	l->shoff = PERF_ALIGN(l->shstrtab_off + l->shstrtab_size, 8);
	return 0;
}

/*
 * The file as a stream of bytes in offset order, buffered: to a file
 * descriptor, to a SHA-1, or both.
 */
struct ei_out {
	int fd; /* -1: hash only */
	struct sha1_ctx sha;
	u64 off; /* file offset of buf[0] */
	size_t used;
	int err;
	u8 buf[EI_OUT_BUF];
};

static void ei_out__flush(struct ei_out *o)
{
	if (!o->used || o->err)
		return;
	sha1__update(&o->sha, o->buf, o->used);
	if (o->fd >= 0)
		o->err = pwrite_all(o->fd, o->buf, o->used, o->off);
	o->off += o->used;
	o->used = 0;
}

static void ei_out__put(struct ei_out *o, const void *p, size_t n)
{
	if (o->err)
		return;
	/* code bytes in bulk go straight through */
	if (n >= sizeof(o->buf) / 2) {
		ei_out__flush(o);
		if (o->err)
			return;
		sha1__update(&o->sha, p, n);
		if (o->fd >= 0)
			o->err = pwrite_all(o->fd, p, n, o->off);
		o->off += n;
		return;
	}
	if (o->used + n > sizeof(o->buf))
		ei_out__flush(o);
	memcpy(o->buf + o->used, p, n);
	o->used += n;
}

static u64 ei_out__pos(const struct ei_out *o)
{
	return o->off + o->used;
}

/* zeros up to @to */
static void ei_out__pad(struct ei_out *o, u64 to)
{
	static const u8 zeros[EI_PAGE];

	while (!o->err && ei_out__pos(o) < to) {
		u64 n = to - ei_out__pos(o);

		ei_out__put(o, zeros, n < sizeof(zeros) ? n : sizeof(zeros));
	}
}

static void elf_image__emit_ehdr(const struct elf_image *ei, const struct ei_layout *l,
				 struct ei_out *o)
{
	Elf64_Ehdr eh = {
	    .e_ident = {ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3, ELFCLASS64, ELFDATA2LSB, EV_CURRENT,
			ELFOSABI_NONE},
	    .e_type = ei->type == ELF_IMAGE_CORE ? ET_CORE : ET_EXEC,
	    .e_machine = EM_X86_64,
	    .e_version = EV_CURRENT,
	    .e_phoff = sizeof(Elf64_Ehdr),
	    .e_shoff = l->shoff,
	    .e_ehsize = sizeof(Elf64_Ehdr),
	    .e_phentsize = sizeof(Elf64_Phdr),
	    .e_phnum = l->phnum,
	    .e_shentsize = sizeof(Elf64_Shdr),
	    .e_shnum = l->shnum,
	    .e_shstrndx = l->shnum - 1,
	};
	size_t i;

	ei_out__put(o, &eh, sizeof(eh));
	{
		/* first, as in /proc/kcore */
		Elf64_Phdr ph = {
		    .p_type = PT_NOTE,
		    .p_flags = PF_R,
		    .p_offset = l->note_off,
		    .p_filesz = EI_NOTE_SIZE,
		    .p_memsz = EI_NOTE_SIZE,
		    .p_align = 4,
		};

		ei_out__put(o, &ph, sizeof(ph));
	}
	for (i = 0; i < ei->nr_ranges; i++) {
		const struct ei_range *r = &ei->ranges[i];
		Elf64_Phdr ph = {
		    .p_type = PT_LOAD,
		    .p_flags = PF_R | PF_X,
		    .p_offset = r->off,
		    .p_vaddr = r->addr,
		    .p_paddr = ei->type == ELF_IMAGE_EXEC ? r->addr : 0,
		    .p_filesz = r->len,
		    .p_memsz = r->len,
		    .p_align = EI_PAGE,
		};

		ei_out__put(o, &ph, sizeof(ph));
	}
}

/* @first..@last of the sorted symbols, each bound to the range holding it */
static void elf_image__emit_syms(const struct elf_image *ei, size_t first, size_t last,
				 u32 *st_name, struct ei_out *o)
{
	size_t i, r = 0;

	for (i = first; i < last; i++) {
		const struct ei_sym *s = &ei->syms[i];
		Elf64_Sym sym = {
		    .st_name = *st_name,
		    .st_info = ELF64_ST_INFO(s->bind, s->type),
		    .st_other = STV_DEFAULT,
		    .st_shndx = SHN_ABS,
		    .st_value = s->addr,
		    .st_size = s->len,
		};

		/* both in address order: one sweep over the ranges */
		while (r < ei->nr_ranges && ei->ranges[r].addr + ei->ranges[r].len <= s->addr)
			r++;
		if (r < ei->nr_ranges && ei->ranges[r].addr <= s->addr)
			sym.st_shndx = 1 + r;
		*st_name += strlen(ei->names + s->name) + 1;
		ei_out__put(o, &sym, sizeof(sym));
	}
}

static void elf_image__emit_shdr(struct ei_out *o, u32 name, u32 type, u64 flags, u64 addr, u64 off,
				 u64 size, u32 link, u32 info, u64 align, u64 entsize)
{
	Elf64_Shdr sh = {
	    .sh_name = name,
	    .sh_type = type,
	    .sh_flags = flags,
	    .sh_addr = addr,
	    .sh_offset = off,
	    .sh_size = size,
	    .sh_link = link,
	    .sh_info = info,
	    .sh_addralign = align,
	    .sh_entsize = entsize,
	};

	ei_out__put(o, &sh, sizeof(sh));
}

/* the whole file, the note's descriptor as zeros */
static void elf_image__emit(const struct elf_image *ei, const struct ei_layout *l, struct ei_out *o)
{
	static const Elf64_Sym null_sym;
	u32 note[4] = {4, BUILD_ID_SIZE, NT_GNU_BUILD_ID};
	u8 desc[BUILD_ID_SIZE] = {0};
	u32 st_name = 1, nr = ei->nr_ranges;
	size_t i;

	memcpy(&note[3], "GNU", 4);
	elf_image__emit_ehdr(ei, l, o);
	for (i = 0; i < ei->nr_ranges; i++) {
		ei_out__pad(o, ei->ranges[i].off);
		ei_out__put(o, ei->ranges[i].bytes, ei->ranges[i].len);
	}
	ei_out__pad(o, l->note_off);
	ei_out__put(o, note, sizeof(note));
	ei_out__put(o, desc, sizeof(desc));

	ei_out__pad(o, l->symtab_off);
	ei_out__put(o, &null_sym, sizeof(null_sym));
	elf_image__emit_syms(ei, 0, l->nr_locals, &st_name, o);
	elf_image__emit_syms(ei, l->nr_locals, ei->nr_syms, &st_name, o);
	ei_out__put(o, "", 1);
	for (i = 0; i < ei->nr_syms; i++) {
		const char *name = ei->names + ei->syms[i].name;

		ei_out__put(o, name, strlen(name) + 1);
	}

	ei_out__put(o, ei_shstrtab, sizeof(ei_shstrtab));
	for (i = 0; i < ei->nr_ranges; i++) {
		const char *name = ei->names + ei->ranges[i].name;

		if (!i || ei->ranges[i].shname != ei->ranges[i - 1].shname)
			ei_out__put(o, name, strlen(name) + 1);
	}

	ei_out__pad(o, l->shoff);
	elf_image__emit_shdr(o, 0, SHT_NULL, 0, 0, 0, 0, 0, 0, 0, 0);
	for (i = 0; i < ei->nr_ranges; i++) {
		const struct ei_range *r = &ei->ranges[i];

		elf_image__emit_shdr(o, r->shname, SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, r->addr,
				     r->off, r->len, 0, 0, 1, 0);
	}
	elf_image__emit_shdr(o, EI_SHNAME_NOTE, SHT_NOTE, 0, 0, l->note_off, EI_NOTE_SIZE, 0, 0, 4,
			     0);
	elf_image__emit_shdr(o, EI_SHNAME_SYMTAB, SHT_SYMTAB, 0, 0, l->symtab_off, l->symtab_size,
			     nr + 3, 1 + l->nr_locals, 8, sizeof(Elf64_Sym));
	elf_image__emit_shdr(o, EI_SHNAME_STRTAB, SHT_STRTAB, 0, 0, l->strtab_off, l->strtab_size,
			     0, 0, 1, 0);
	elf_image__emit_shdr(o, EI_SHNAME_SHSTRTAB, SHT_STRTAB, 0, 0, l->shstrtab_off,
			     l->shstrtab_size, 0, 0, 1, 0);
	ei_out__flush(o);
}

/* lay out, then stream to @fd (-1: nowhere) and hash; the id in @bid */
static int elf_image__run(struct elf_image *ei, int fd, struct ei_layout *l, struct build_id *bid)
{
	struct ei_out *o = malloc(sizeof(*o));
	int err;

	if (!o)
		return -ENOMEM;
	err = elf_image__layout(ei, l);
	if (err)
		goto out_free;
	o->fd = fd;
	o->off = 0;
	o->used = 0;
	o->err = 0;
	sha1__init(&o->sha);
	elf_image__emit(ei, l, o);
	err = o->err;
	if (!err && ei_out__pos(o) != l->shoff + l->shnum * sizeof(Elf64_Shdr))
		err = -EIO; /* the layout and the stream disagree: a bug here, not a bad file */
	if (!err) {
		sha1__final(&o->sha, bid->data);
		bid->size = BUILD_ID_SIZE;
	}
out_free:
	free(o);
	return err;
}

int elf_image__build_id(struct elf_image *ei, struct build_id *bid)
{
	struct ei_layout l;

	return elf_image__run(ei, -1, &l, bid);
}

int elf_image__write(struct elf_image *ei, const char *path, struct build_id *bid)
{
	struct build_id id;
	struct ei_layout l;
	int fd, err;

	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	err = elf_image__run(ei, fd, &l, &id);
	if (!err)
		err = pwrite_all(fd, id.data, BUILD_ID_SIZE, l.note_off + EI_NOTE_DESC);
	if (close(fd) && !err)
		err = -errno;
	if (err) {
		unlink(path);
		return err;
	}
	if (bid)
		*bid = id;
	return 0;
}
