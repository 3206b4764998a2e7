/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_TESTS_ELF_SECTION_H
#define __PERF_TEXTPOKE_TESTS_ELF_SECTION_H

#include "../util/types.h"

/*
 * An oracle for the bytes of an ELF file's section, written apart from
 * util/kcore.c: raw Elf64 headers read with pread(), no libelf, so that a
 * bug in how the code under test finds or maps sections cannot hide in
 * the expected value.  Little-endian 64-bit files only (this host's).
 * On success *@bytes is malloc'd (free() it); negative errno otherwise.
 */
int elf_section__read(const char *path, const char *name, u64 *addr, u8 **bytes, u64 *len);

#endif /* __PERF_TEXTPOKE_TESTS_ELF_SECTION_H */
