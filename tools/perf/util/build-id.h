/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_BUILD_ID_H
#define __PERF_TEXTPOKE_BUILD_ID_H

#include "types.h"

#define BUILD_ID_SIZE 20
#define BUILD_ID_HEX_SIZE (BUILD_ID_SIZE * 2 + 1)

struct perf_env;

struct build_id {
	u8 data[BUILD_ID_SIZE];
	u8 size; /* 0: unknown */
};

/* lowercase hex, as perf and the build-id cache spell it; returns @buf */
char *build_id__sprintf(const struct build_id *bid, char *buf);
bool build_id__equal(const struct build_id *a, const struct build_id *b);

/*
 * NT_GNU_BUILD_ID in one buffer of notes (a .note.* section, a PT_NOTE
 * segment, /sys/kernel/notes), @swap: of the other byte order; one over
 * BUILD_ID_SIZE bytes is cut there, as perf does.  0 or -ENOENT.
 */
int notes__find_build_id(const u8 *notes, size_t len, bool swap, struct build_id *bid);

struct Elf;
/* NT_GNU_BUILD_ID of an open libelf handle; 0 or -ENOENT */
int elf__read_build_id(struct Elf *elf, struct build_id *bid);
/* NT_GNU_BUILD_ID of an ELF file; 0, or -errno (-ENOENT: no note) */
int filename__read_build_id(const char *path, struct build_id *bid);
/* the build-id of this process's (64-bit) vdso, read in memory; 0 or -errno */
int vdso__read_own_build_id(struct build_id *bid);
/*
 * the build-id of this kernel's compat (i386) vdso, which a child maps
 * (vdso-compat.c); 0 or -errno (no IA32 emulation, no ARCH_MAP_VDSO_32)
 */
int vdso__read_compat_build_id(struct build_id *bid);
/* the build-id of the kernel this process runs on (/sys/kernel/notes); 0 or -errno */
int kernel__read_running_build_id(struct build_id *bid);

/*
 * What the recording says the build-id of @filename was: the BUILD_ID
 * feature entries, matched by name (and by cpumode kernel for the
 * "[kernel.kallsyms]" entry).  0 when found.
 */
int perf_env__find_build_id(const struct perf_env *env, const char *filename, struct build_id *bid);

/*
 * Directory of @bid in perf's build-id cache ($HOME/.debug/.build-id/xx/yyy,
 * resolved through its symlink); a malloc'ed path, NULL when absent.
 */
char *build_id_cache__dir(const struct build_id *bid);

/* /usr/lib/debug/.build-id/xx/yyy.debug when present; malloc'ed or NULL */
char *build_id__debuginfo_path(const struct build_id *bid);

#endif /* __PERF_TEXTPOKE_BUILD_ID_H */
