/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_SHA1_H
#define __PERF_TEXTPOKE_SHA1_H

#include "types.h"

/*
 * SHA-1 (FIPS 180-4), for build-ids: GNU ld's --build-id=sha1 gives a
 * note of the same size, so tools that key on 20-byte ids take ours.
 * Not for anything that needs collision resistance.
 */
#define SHA1_DIGEST_SIZE 20

struct sha1_ctx {
	u32 h[5];
	u64 len; /* bytes hashed so far */
	u8 block[64];
	size_t used; /* bytes of @block filled */
};

void sha1__init(struct sha1_ctx *ctx);
void sha1__update(struct sha1_ctx *ctx, const void *data, size_t len);
/* the digest of everything updated since sha1__init(); @ctx is spent */
void sha1__final(struct sha1_ctx *ctx, u8 digest[SHA1_DIGEST_SIZE]);
/* the three above at once */
void sha1(const void *data, size_t len, u8 digest[SHA1_DIGEST_SIZE]);

#endif /* __PERF_TEXTPOKE_SHA1_H */
