/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_TESTS_FIXTURE_KCORE_H
#define __PERF_TEXTPOKE_TESTS_FIXTURE_KCORE_H

#include <stddef.h>

#include "../util/types.h"

/*
 * What the made-up kernels' recordings share: a perf.data directory's
 * kcore_dir, as perf record --kcore writes it (kallsyms, modules, and a
 * kcore of PT_LOAD segments as perf's kcore_copy() writes one).
 */

/* one PT_LOAD segment: @len bytes of @bytes at @vaddr */
struct fixture_segment {
	u64 vaddr;
	const u8 *bytes;
	size_t len;
};

/* @dir/@name holding @len bytes of @buf; 0 or -errno */
int fixture__write_file(const char *dir, const char *name, const void *buf, size_t len);

/* where a kcore's segments start in the file, after its ELF and program headers */
#define FIXTURE_KCORE_DATA 0x1000

/*
 * The first FIXTURE_KCORE_DATA bytes of such a kcore, for a writer that
 * streams the segments itself (@segs' bytes unused); 0 or -E2BIG
 */
int fixture__kcore_head(u8 *head, const struct fixture_segment *segs, int nr);

/*
 * @dir/kcore: an ELF64 x86_64 core with one PT_LOAD per segment, their
 * bytes from file offset FIXTURE_KCORE_DATA on, back to back
 */
int fixture__write_kcore(const char *dir, const struct fixture_segment *segs, int nr);

/*
 * @dir/kcore_dir with @kallsyms, @modules (NULL: no modules file), and
 * a kcore of @segs (nr 0: none)
 */
int fixture__write_kcore_dir(const char *dir, const char *kallsyms, const char *modules,
			     const struct fixture_segment *segs, int nr);

#endif /* __PERF_TEXTPOKE_TESTS_FIXTURE_KCORE_H */
