// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: the ELF readers of kernel code (util/kcore.c).  The input
 * is the file: read as an ELF core (a kcore_dir's kcore, a /proc/kcore
 * copy), as an executable (a vmlinux), and for its build-id.  Every
 * segment either reader returns must lie inside the mapped file and be
 * found again by kcore__find() at its first and last byte.
 */
#include <stdio.h>
#include <unistd.h>

#include "fuzz.h"
#include "../util/kcore.h"

static int fkc__check(const struct kcore *kc, const char *how)
{
	const u8 *map = kc->map;
	u64 sum = 0;

	for (int i = 0; i < kc->nr_segments; i++) {
		const struct kcore_segment *seg = &kc->segments[i];
		const struct kcore_segment *found;

		if (!seg->len || seg->bytes < map || seg->len > kc->map_len ||
		    (size_t)(seg->bytes - map) > kc->map_len - seg->len ||
		    seg->addr + seg->len - 1 < seg->addr) {
			fprintf(stderr, "fuzz kcore: %s segment %d (%#llx+%#llx) not in the file\n",
				how, i, (unsigned long long)seg->addr,
				(unsigned long long)seg->len);
			return FUZZ_BUG;
		}
		/* in address order, not overlapping */
		if (i && seg->addr < kc->segments[i - 1].addr + kc->segments[i - 1].len) {
			fprintf(stderr,
				"fuzz kcore: %s segment %d at %#llx overlaps the one before\n", how,
				i, (unsigned long long)seg->addr);
			return FUZZ_BUG;
		}
		found = kcore__find(kc, seg->addr + seg->len - 1);
		if (kcore__find(kc, seg->addr) != seg || found != seg) {
			fprintf(stderr, "fuzz kcore: %s segment %d not found at its ends\n", how,
				i);
			return FUZZ_BUG;
		}
		sum += seg->bytes[0] + seg->bytes[seg->len - 1];
	}
	return sum == (u64)-1; /* never: keeps the reads */
}

int fuzz__kcore(const u8 *data, size_t size)
{
	struct build_id bid;
	struct kcore *kc;
	char path[64];
	int fd, ret = 0;

	fd = fuzz__memfd(data, size, path, sizeof(path));
	if (fd < 0)
		return 0;
	kc = kcore__open(path);
	if (kc) {
		ret = fkc__check(kc, "core");
		kcore__delete(kc);
	}
	kc = kcore__open_vmlinux(path);
	if (kc) {
		if (!ret)
			ret = fkc__check(kc, "vmlinux");
		kcore__delete(kc);
	}
	kcore__read_build_id(path, &bid);
	close(fd);
	return ret;
}
