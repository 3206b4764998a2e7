/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_JIT_ELF_H
#define __PERF_TEXTPOKE_JIT_ELF_H

#include "build-id.h"
#include "jitdump.h"
#include "types.h"

struct stat;

/*
 * The ELF object of one jitdump code load, laid out as perf 6.1's
 * genelf writes it, so that perf report, annotate (objdump) and srcline
 * (addr2line) give on it what they give on perf inject --jit's:
 * ET_DYN, .text at address and file offset JIT_ELF_TEXT_OFFSET covered by
 * one PT_LOAD, a local FUNC symbol over the code, a GNU build-id note,
 * .eh_frame and .eh_frame_hdr from the UNWINDING_INFO (after the code,
 * 8-aligned), and .debug_line/.debug_info/.debug_abbrev (DWARF 2, one
 * compilation unit) from the DEBUG_INFO.  The MMAP2 that maps it has
 * pgoff JIT_ELF_TEXT_OFFSET.
 */
#define JIT_ELF_TEXT_OFFSET 0x80

/*
 * Writes @path (created or truncated, 0644, as perf does) for @load with
 * the @debug (NULL or nr 0: none) and @unwind (NULL: none) that go with
 * it.  @bid gets the build-id: a hash of the load address and the file
 * (jit_build_id()), so equal loads give equal ids.  0 or -errno (nothing left at @path).
 */
int jit_elf__write(const char *path, const struct jitdump_load *load,
		   const struct jitdump_debug *debug, const struct jitdump_unwind *unwind,
		   struct build_id *bid, struct stat *st);

#endif /* __PERF_TEXTPOKE_JIT_ELF_H */
