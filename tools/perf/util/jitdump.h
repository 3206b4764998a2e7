/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_JITDUMP_H
#define __PERF_TEXTPOKE_JITDUMP_H

#include <stdbool.h>
#include <stddef.h>

#include "types.h"

/*
 * The jitdump format (tools/perf/Documentation/jitdump-specification.txt):
 * what a JIT (Java's perf agent, V8's --perf-prof, .NET, LuaJIT) writes to
 * jit-PID.dump and maps executable, so that a recording names the file.
 * A 40-byte header, then records of a 16-byte prefix (id, total size,
 * timestamp).  Both byte orders, told by the header's magic.
 */
#define JITDUMP_MAGIC 0x4A695444U /* "JiTD" as a little-endian writer puts it */
#define JITDUMP_MAGIC_SWAPPED 0x4454694AU
#define JITDUMP_VERSION 1 /* the newest perf 6.1 reads */
#define JITDUMP_FLAGS_ARCH_TIMESTAMP ((u64)1)

enum jitdump_record {
	JITDUMP_CODE_LOAD = 0,
	JITDUMP_CODE_MOVE = 1,
	JITDUMP_CODE_DEBUG_INFO = 2,
	JITDUMP_CODE_CLOSE = 3,
	JITDUMP_CODE_UNWINDING_INFO = 4,
};

/* one line of a DEBUG_INFO record, fields in host order */
struct jitdump_line {
	u64 addr;
	s32 line;
	s32 discrim;
	const char *file; /* in the mapped file, NUL terminated */
};

/* the DEBUG_INFO pending for the next load (nr 0: none) */
struct jitdump_debug {
	u64 code_addr;
	size_t nr;
	struct jitdump_line *lines;
};

/* the UNWINDING_INFO pending for the next load (data NULL: none) */
struct jitdump_unwind {
	const u8 *data;	 /* .eh_frame, then .eh_frame_hdr */
	u64 size;	 /* both */
	u64 hdr_size;	 /* the .eh_frame_hdr at the end */
	u64 mapped_size; /* what follows the code in memory */
};

struct jitdump_load {
	u64 offset; /* of the record in the file, for messages */
	u64 time;
	u32 pid, tid;
	u64 vma, code_addr, code_size, code_index;
	const char *name;
	const u8 *code;
};

struct jitdump_move {
	u64 offset;
	u64 time;
	u32 pid, tid;
	u64 vma, old_code_addr, new_code_addr, code_size, code_index;
};

/*
 * What the walk calls back, in file order.  A load comes with the
 * DEBUG_INFO and UNWINDING_INFO read since the previous load (each the
 * last one of its kind, as perf takes them), which it consumes; a move
 * with the mapped size of an UNWINDING_INFO still pending (0: none), as
 * perf gives it.  A callback's nonzero return stops the walk with it.
 */
struct jitdump_ops {
	int (*load)(void *arg, const struct jitdump_load *load, const struct jitdump_debug *debug,
		    const struct jitdump_unwind *unwind);
	int (*move)(void *arg, const struct jitdump_move *move, u64 unwind_mapped_size);
};

struct jitdump_header {
	bool swapped;
	u32 version, elf_mach, pid;
	u64 timestamp, flags;
};

/*
 * Reads @path (mapped, never copied: a hostile size cannot make a large
 * allocation) and walks its records.  A bad header is an error (-EINVAL,
 * -ENOENT... with the message printed: file, offset, field); a bad or cut
 * record is a warning naming the file, the offset and the record, after
 * which the walk stops (a cut one) or goes on past it (a malformed
 * DEBUG_INFO or UNWINDING_INFO is left out; an unknown type is skipped).
 * @hdr (may be NULL) gets the header, also when the callbacks are not
 * called because @check_header says no (it returns nonzero: the walk
 * returns that).  0, a callback's value, or -errno.
 */
int jitdump__walk(const char *path, const struct jitdump_ops *ops, void *arg,
		  int (*check_header)(void *arg, const struct jitdump_header *hdr),
		  struct jitdump_header *hdr);

/*
 * perf's rule for a jitdump's MMAP: the basename is jit-<digits>.dump,
 * the number the mapping process's pid (unless @pid is 0: a system-wide
 * synthesized record)
 */
bool jitdump__is_marker(const char *filename, u32 pid);

#endif /* __PERF_TEXTPOKE_JITDUMP_H */
