/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_TESTS_KERNEL_OBJECT_ELF_H
#define __PERF_TEXTPOKE_TESTS_KERNEL_OBJECT_ELF_H
/*
 * Kernel objects as perf textpoke inject --jit writes them, for the
 * tests of their readers, written here byte by byte with no project ELF
 * code (util/elf-image.c is what inject uses): an ET_EXEC file with one
 * PT_LOAD and a .text at the kernel address, at file offset
 * KOBJ_TEXT_OFFSET (not the address, as in any ELF file), a PT_NOTE and
 * .note.gnu.build-id, .symtab with one STT_FUNC per entry, .strtab and
 * .shstrtab.
 */
#include "../util/types.h"

#define KOBJ_TEXT_OFFSET 0x200

struct kobj_sym {
	const char *name;
	u32 off, len; /* from the object's address */
};

/* 0 or -errno */
int kobj_elf__write(const char *path, u64 addr, const u8 *code, u32 len,
		    const struct kobj_sym *syms, int nr_syms, const u8 bid[20]);
/* ELF headers whose section and program tables lie far past the end of the file */
int kobj_elf__write_hostile(const char *path);

#endif /* __PERF_TEXTPOKE_TESTS_KERNEL_OBJECT_ELF_H */
