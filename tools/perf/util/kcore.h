/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_KCORE_H
#define __PERF_TEXTPOKE_KCORE_H

#include "build-id.h"
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

/*
 * When a range of a copy was read from /proc/kcore: between @first and
 * @last, in the recording's clock (kcore_dir/kcore_times, which our
 * recorder writes and stock perf ignores)
 */
struct kcore_read {
	u64 addr, len;
	u64 first, last;
};

/* the name of the read times' file in a kcore_dir */
#define KCORE_TIMES "kcore_times"

struct kcore {
	char *path;
	void *map;
	size_t map_len;
	int nr_segments;
	struct kcore_segment *segments; /* address order */
	/*
	 * A kcore_dir copy's segments as the file has them, zero pages
	 * included: where the copy looked, for "is this address in a map";
	 * @segments leaves those pages out (kcore__open_dir())
	 */
	int nr_areas;
	struct kcore_segment *areas;
	/* kcore_dir/kcore_times, in address order; none for stock perf's copy */
	size_t nr_reads;
	struct kcore_read *reads;
	bool vmlinux;  /* read as an executable, not as a core */
	bool optional; /* the caller does without it: what is wrong is a warning */
	/* all code in the upper half of the address space, where kernels keep it */
	bool upper_half;
	struct build_id bid; /* a vmlinux's NT_GNU_BUILD_ID, size 0 when it has none */
};

/*
 * An ELF core: its executable PT_LOAD segments.  NULL + errno, with an
 * error naming the file (and the offset or the segment) printed: what
 * open() said (ENOENT...), what input_file__open() says of a file that is
 * not regular, ENOEXEC for a file that is not an ELF core (a damaged
 * identification, program headers past the end of the file, no code),
 * EINVAL for a segment past the end of the file, EOPNOTSUPP without
 * libelf.  Never blocks: a FIFO is refused, not opened for reading.
 */
struct kcore *kcore__open(const char *path);
/*
 * @dir/kcore, as in a kcore_dir; ENOENT, silently, when there is none.
 * @optional for a kcore_dir the caller can do without (a recording's
 * own): what is wrong with its kcore is then a warning saying it is not
 * used.  /proc/kcore reads a page nothing maps (a vmalloc hole, free
 * module space, a freed init section) as zeros, so a whole page of
 * zeros in the copy is left out of @segments: unknown, not code.
 */
struct kcore *kcore__open_dir(const char *dir, bool optional);
/*
 * An ELF executable (vmlinux): SHF_ALLOC | SHF_EXECINSTR sections with
 * bytes, and its build-id; errors as kcore__open().  Whether it is the
 * recorded kernel is for the caller to say (text-image.c).
 */
struct kcore *kcore__open_vmlinux(const char *path);
/* the build-id of a regular ELF file, quietly: 0 or -errno (-ENOENT: none) */
int kcore__read_build_id(const char *path, struct build_id *bid);
void kcore__delete(struct kcore *kcore);

/* the segment holding @addr, or NULL */
const struct kcore_segment *kcore__find(const struct kcore *kcore, u64 addr);
/* whether the file's segments (zero pages included) cover @addr */
bool kcore__in_area(const struct kcore *kcore, u64 addr);

#endif /* __PERF_TEXTPOKE_KCORE_H */
