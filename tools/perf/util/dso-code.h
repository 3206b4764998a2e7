/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_DSO_CODE_H
#define __PERF_TEXTPOKE_DSO_CODE_H

#include <stddef.h>

#include "build-id.h"
#include "types.h"

/*
 * The code of an ELF object that a kernel MMAP maps (perf textpoke inject
 * --jit writes one per BPF program or OOL region version, linked at its
 * kernel address): its SHF_EXECINSTR sections, or without section
 * headers its executable PT_LOADs, at their link-time addresses, and its
 * NT_GNU_BUILD_ID.  The file comes from a recording, so it is read as
 * hostile: a regular file only, at most DSO_CODE_MAX_FILE bytes, every
 * header checked against the file's size before it is used.
 */
struct dso_code_range {
	u64 addr;
	size_t len;
	const u8 *bytes; /* into dso_code.file */
};

struct dso_code {
	struct dso_code_range *ranges;
	size_t nr;
	struct build_id bid; /* size 0: the file has none */
	u8 *file;
	size_t size;
};

/* a BPF program's or OOL region's object is kilobytes: anything this large is no such object */
#define DSO_CODE_MAX_FILE (16U << 20)
#define DSO_CODE_MAX_RANGES 256

/*
 * 0, or -errno: what input_file__open() said, -EFBIG past the size cap,
 * -ENOEXEC when the file is not a 64-bit little-endian ELF object,
 * -EINVAL when its headers point outside it, -ENODATA when it has no
 * code, -ENOMEM.  dso_code__strerror() says which.
 */
int dso_code__read(const char *path, struct dso_code *code);
void dso_code__exit(struct dso_code *code);
/*
 * Keep only ranges[0..@nr) (which the caller may have narrowed, inside
 * the file): their bytes are copied and the file's freed.  0 or -ENOMEM.
 */
int dso_code__keep(struct dso_code *code, size_t nr);
const char *dso_code__strerror(int err);

#endif /* __PERF_TEXTPOKE_DSO_CODE_H */
