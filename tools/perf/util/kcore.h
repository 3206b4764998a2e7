/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_KCORE_H
#define __PERF_TEXTPOKE_KCORE_H

#include "types.h"

/*
 * Kernel code from a file: the PT_LOAD segments of an ELF core (the kcore
 * that perf record --kcore copies into perf.data/kcore_dir/, or a copy of
 * /proc/kcore), or the allocated code sections of an ELF executable (a
 * vmlinux).  The file is mmap'd read-only and the segments' bytes point
 * into the mapping: they stay valid, and the file unmodified, until
 * kcore__delete().
 */
struct kcore_segment {
	u64 addr;
	u64 len;
	const u8 *bytes;
};

struct kcore {
	char *path;
	void *map;
	size_t map_len;
	int nr_segments;
	struct kcore_segment *segments; /* address order */
};

/*
 * An ELF core: its executable PT_LOAD segments.  NULL + errno, with an
 * error naming the file (and the segment) printed: ENOENT, ENOEXEC for a
 * file that is not an ELF core, EINVAL for a segment past the end of the
 * file, EOPNOTSUPP without libelf.
 */
struct kcore *kcore__open(const char *path);
/* @dir/kcore, as in a kcore_dir; ENOENT, silently, when there is none */
struct kcore *kcore__open_dir(const char *dir);
/* an ELF executable (vmlinux): SHF_ALLOC | SHF_EXECINSTR sections with bytes */
struct kcore *kcore__open_vmlinux(const char *path);
void kcore__delete(struct kcore *kcore);

/* the segment holding @addr, or NULL */
const struct kcore_segment *kcore__find(const struct kcore *kcore, u64 addr);

#endif /* __PERF_TEXTPOKE_KCORE_H */
