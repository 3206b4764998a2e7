/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_KCORE_DIR_PACK_H
#define __PERF_TEXTPOKE_KCORE_DIR_PACK_H

#include <stddef.h>

#include "types.h"

/*
 * A kcore_dir carried inside a plain perf.data file, as the payload of
 * the HEADER_TEXTPOKE_KCORE_DIR feature: record writes a file where no
 * kcore copy is made (as perf record does), and the kallsyms and modules
 * its readers take from kcore_dir/ travel in the file.  Readers unpack it
 * into a temporary kcore_dir and read that as they read a directory
 * recording's, so both forms answer alike.
 *
 * Layout (the file's byte order), one entry per regular file, sorted by
 * name: u32 name length (with its NUL), u32 zero, u64 byte count, the
 * name padded to 8 bytes, the bytes padded to 8.
 */

/* the regular files of @kdir packed into a new buffer: 0 or -errno */
int kcore_dir__pack(const char *kdir, void **buf, size_t *len);

/*
 * @buf's files written to a new directory <TMPDIR>/perf-textpoke.XXXXXX/
 * kcore_dir, returned in @kdir: 0, -EINVAL for a malformed payload (an
 * entry past the end, a name with a '/', a name twice), or -errno.
 */
int kcore_dir__unpack(const void *buf, u64 size, bool swap, char **kdir);

/* remove what kcore_dir__unpack() made: @kdir's files, it, its parent */
void kcore_dir__remove_unpacked(const char *kdir);

#endif /* __PERF_TEXTPOKE_KCORE_DIR_PACK_H */
