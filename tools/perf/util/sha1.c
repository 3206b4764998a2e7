// SPDX-License-Identifier: GPL-2.0-only
/*
 * SHA-1 as FIPS 180-4 section 6.1 states it: 512-bit blocks, big-endian
 * words, 80 rounds in four groups of 20.
 */
#include <string.h>

#include "sha1.h"

static inline u32 rol32(u32 x, unsigned int n)
{
	return (x << n) | (x >> (32 - n));
}

static u32 load_be32(const u8 *p)
{
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
}

static void store_be32(u8 *p, u32 v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static void sha1__block(u32 h[5], const u8 *block)
{
	u32 w[80], a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
	int t;

	for (t = 0; t < 16; t++)
		w[t] = load_be32(block + 4 * t);
	for (; t < 80; t++)
		w[t] = rol32(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1);
	for (t = 0; t < 80; t++) {
		u32 f, k, tmp;

		if (t < 20) {
			f = (b & c) | (~b & d); /* Ch */
			k = 0x5a827999;
		} else if (t < 40) {
			f = b ^ c ^ d; /* Parity */
			k = 0x6ed9eba1;
		} else if (t < 60) {
			f = (b & c) | (b & d) | (c & d); /* Maj */
			k = 0x8f1bbcdc;
		} else {
			f = b ^ c ^ d;
			k = 0xca62c1d6;
		}
		tmp = rol32(a, 5) + f + e + k + w[t];
		e = d;
		d = c;
		c = rol32(b, 30);
		b = a;
		a = tmp;
	}
	h[0] += a;
	h[1] += b;
	h[2] += c;
	h[3] += d;
	h[4] += e;
}

void sha1__init(struct sha1_ctx *ctx)
{
	static const u32 iv[5] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0};

	memcpy(ctx->h, iv, sizeof(iv));
	ctx->len = 0;
	ctx->used = 0;
}

void sha1__update(struct sha1_ctx *ctx, const void *data, size_t len)
{
	const u8 *p = data;

	ctx->len += len;
	if (ctx->used) {
		size_t n = sizeof(ctx->block) - ctx->used;

		if (n > len)
			n = len;
		memcpy(ctx->block + ctx->used, p, n);
		ctx->used += n;
		p += n;
		len -= n;
		if (ctx->used < sizeof(ctx->block))
			return;
		sha1__block(ctx->h, ctx->block);
		ctx->used = 0;
	}
	/* whole blocks straight from the caller's buffer: no copy for bulk code bytes */
	for (; len >= sizeof(ctx->block); p += sizeof(ctx->block), len -= sizeof(ctx->block))
		sha1__block(ctx->h, p);
	memcpy(ctx->block, p, len);
	ctx->used = len;
}

void sha1__final(struct sha1_ctx *ctx, u8 digest[SHA1_DIGEST_SIZE])
{
	u64 bits = ctx->len * 8;
	int i;

	/* a 1 bit, zeros up to 56 mod 64, then the message length in bits, big-endian */
	ctx->block[ctx->used++] = 0x80;
	if (ctx->used > 56) {
		memset(ctx->block + ctx->used, 0, sizeof(ctx->block) - ctx->used);
		sha1__block(ctx->h, ctx->block);
		ctx->used = 0;
	}
	memset(ctx->block + ctx->used, 0, 56 - ctx->used);
	store_be32(ctx->block + 56, bits >> 32);
	store_be32(ctx->block + 60, (u32)bits);
	sha1__block(ctx->h, ctx->block);
	for (i = 0; i < 5; i++)
		store_be32(digest + 4 * i, ctx->h[i]);
}

void sha1(const void *data, size_t len, u8 digest[SHA1_DIGEST_SIZE])
{
	struct sha1_ctx ctx;

	sha1__init(&ctx);
	sha1__update(&ctx, data, len);
	sha1__final(&ctx, digest);
}
