/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_COMPRESS_H
#define __PERF_TEXTPOKE_COMPRESS_H

#include <sys/types.h>

#include "types.h"

/*
 * Streaming zstd decompression of COMPRESSED / COMPRESSED2 payloads.  perf
 * record compresses all records through one stream, so one decompressor
 * lives for the whole session and a record's output may end in the middle
 * of the next record (the session carries that remainder over).
 */
struct zstd_data;

/* NULL with errno = ENOTSUP when built without libzstd */
struct zstd_data *zstd_data__new(void);
void zstd_data__delete(struct zstd_data *zd);

/*
 * Feeds @src; decompressed bytes go to @dst (at most @dst_len).  Returns
 * the bytes written, and sets *@consumed to the input used; the caller
 * calls again with the rest of the input when the output was full.  -EIO
 * on corrupt data.
 */
ssize_t zstd_data__decompress(struct zstd_data *zd, const void *src, size_t src_len,
			      size_t *consumed, void *dst, size_t dst_len);

bool zstd_data__available(void);

#endif /* __PERF_TEXTPOKE_COMPRESS_H */
