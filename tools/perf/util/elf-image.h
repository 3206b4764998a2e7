/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_ELF_IMAGE_H
#define __PERF_TEXTPOKE_ELF_IMAGE_H

#include "build-id.h"
#include "types.h"

/*
 * ELF files of kernel code for tools that know nothing of text pokes
 * (stock perf, objdump, gdb): an ET_EXEC object per version of a code
 * region that exists only at run time (a BPF program, an ftrace
 * trampoline, a kprobe slot page), and an ET_CORE image of kernel code
 * at one moment (the kcore of a kcore_dir snapshot).
 *
 * Each code range is one PT_LOAD (PF_R | PF_X) and one SHT_PROGBITS
 * section (SHF_ALLOC | SHF_EXECINSTR) with sh_addr = p_vaddr = its
 * address and the same file offset, so that program-header readers (perf
 * reading a kcore) and section readers (objdump -d, gdb, perf reading an
 * object's .symtab) see the same bytes.  In an object, ranges less than
 * 1 MiB apart keep their distance in the file (the hole as zeros, not as
 * a section): stock perf maps an object's .text sections with the file
 * offset of the first, so only then does it find the later ones' bytes;
 * ranges further apart need an object each, and a range perf should
 * symbolize must be named ".text" (perf 6.1 gives an object's other
 * sections no symbols).  In a core, perf 6.1 (dso__load_kcore()) keeps a
 * PT_LOAD other than _stext's only where no kernel map was: the kernel's
 * MMAP in the recording must end before them, as a real one ends before
 * the modules.  Only known bytes are written:
 * unknown ones split a range, never become zeros.  Symbols go to
 * .symtab/.strtab, bound to the section holding their address (SHN_ABS
 * outside every range).  A NT_GNU_BUILD_ID note (a SHA-1 of the contents,
 * so equal contents give equal ids) sits in its own PT_NOTE and
 * .note.gnu.build-id section.  Little-endian ELFCLASS64, EM_X86_64.
 */
struct elf_image;

/*
 * What a caller may ask of one image, so that a damaged recording cannot
 * make a huge file or allocation: bytes of code in all (ELF offsets would
 * allow more, no kernel has that much text), ranges (each takes a program
 * header and a section: 16-bit counts without extended numbering; note
 * that util/kcore.c reads at most 4096 segments), the length of a section
 * or symbol name (kallsyms allows 512), symbols (a kernel with its
 * modules has a few hundred thousand) and bytes of names in all.
 */
#define ELF_IMAGE_MAX_CODE (4ULL << 30)
#define ELF_IMAGE_MAX_RANGES 65000
#define ELF_IMAGE_MAX_NAME 4096
#define ELF_IMAGE_MAX_SYMBOLS (4U << 20)
#define ELF_IMAGE_MAX_NAMES (256U << 20)

enum elf_image_type {
	ELF_IMAGE_EXEC, /* ET_EXEC: a JIT or OOL object, linked at its kernel address */
	ELF_IMAGE_CORE, /* ET_CORE: a kcore-like image, as perf reads kcore_dir/kcore */
};

struct elf_image *elf_image__new(enum elf_image_type type);
void elf_image__delete(struct elf_image *ei);

/*
 * @len bytes of code at @addr (copied), in a section named @section
 * (".text" for an object; a kcore image may name them as it likes;
 * NULL: ".text").  -EINVAL for an empty range, one that wraps around the
 * address space or one overlapping an earlier one (ranges may come in any
 * order), -ENAMETOOLONG for a name longer than ELF_IMAGE_MAX_NAME,
 * -EFBIG past ELF_IMAGE_MAX_CODE bytes in all, -E2BIG past
 * ELF_IMAGE_MAX_RANGES ranges, -ENOMEM.  A failed call adds nothing.
 */
int elf_image__add_code(struct elf_image *ei, const char *section, u64 addr, const void *bytes,
			size_t len);

enum elf_image_sym_type {
	ELF_IMAGE_SYM_FUNC,   /* STT_FUNC: code (kallsyms t/T, a BPF program) */
	ELF_IMAGE_SYM_OBJECT, /* STT_OBJECT: data (kallsyms d/D/b/B/r/R) */
	ELF_IMAGE_SYM_NOTYPE, /* STT_NOTYPE: anything else */
};

/*
 * A symbol of @len bytes (0: unknown) at @addr; @global gives STB_GLOBAL,
 * else STB_LOCAL (locals are written first, as ELF wants).  Names are
 * copied; -EINVAL for an empty name, -ENAMETOOLONG for one longer than
 * ELF_IMAGE_MAX_NAME, -E2BIG past ELF_IMAGE_MAX_SYMBOLS symbols or
 * ELF_IMAGE_MAX_NAMES bytes of names (with the sections'), -ENOMEM.
 * Equal symbols may be added twice: both are written.
 */
int elf_image__add_symbol(struct elf_image *ei, const char *name, u64 addr, u64 len,
			  enum elf_image_sym_type type, bool global);

/*
 * Room for @nr more symbols whose names take @names bytes with their
 * NULs, so that adding that many grows nothing (a kernel's 100k symbols
 * would otherwise leave up to twice their size allocated): 0, -E2BIG past
 * the limits above, -ENOMEM.  Adding more than that still works.
 */
int elf_image__reserve_symbols(struct elf_image *ei, size_t nr, size_t names);

/*
 * Write the file to @path, which must not exist (O_CREAT | O_EXCL, mode
 * 0644); on failure nothing is left at @path.  @bid (may be NULL) gets
 * the build-id written into the note.  0 or -errno (what open() or the
 * writes said: -EEXIST, -ENOSPC, -EFBIG...).
 *
 * The file's contents depend only on what was added, not on the order it
 * was added in: ranges are written in address order, symbols locals first
 * and then by address (then name, size, type).  The build-id is the SHA-1
 * of the whole file with the 20 bytes of the note's descriptor taken as
 * zeros, so it can be checked with sha1sum.
 */
int elf_image__write(struct elf_image *ei, const char *path, struct build_id *bid);

/* the build-id elf_image__write() will give the contents added so far */
int elf_image__build_id(struct elf_image *ei, struct build_id *bid);

#endif /* __PERF_TEXTPOKE_ELF_IMAGE_H */
