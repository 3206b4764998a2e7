// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdlib.h>

#include "compress.h"
#include "debug.h"

#ifdef HAVE_ZSTD
#include <zstd.h>

struct zstd_data {
	ZSTD_DStream *dstream;
};

bool zstd_data__available(void)
{
	return true;
}

struct zstd_data *zstd_data__new(void)
{
	struct zstd_data *zd = calloc(1, sizeof(*zd));

	if (!zd)
		return NULL;
	zd->dstream = ZSTD_createDStream();
	if (!zd->dstream || ZSTD_isError(ZSTD_initDStream(zd->dstream))) {
		zstd_data__delete(zd);
		errno = ENOMEM;
		return NULL;
	}
	return zd;
}

void zstd_data__delete(struct zstd_data *zd)
{
	if (!zd)
		return;
	if (zd->dstream)
		ZSTD_freeDStream(zd->dstream);
	free(zd);
}

ssize_t zstd_data__decompress(struct zstd_data *zd, const void *src, size_t src_len,
			      size_t *consumed, void *dst, size_t dst_len)
{
	ZSTD_inBuffer in = {src, src_len, 0};
	ZSTD_outBuffer out = {dst, dst_len, 0};

	while (in.pos < in.size && out.pos < out.size) {
		size_t ret = ZSTD_decompressStream(zd->dstream, &out, &in);

		if (ZSTD_isError(ret)) {
			pr_debug("zstd: %s\n", ZSTD_getErrorName(ret));
			*consumed = in.pos;
			return -EIO;
		}
	}
	/* flush what the decoder still holds for this input */
	while (out.pos < out.size) {
		size_t before = out.pos, ret;

		ret = ZSTD_decompressStream(zd->dstream, &out, &in);
		if (ZSTD_isError(ret)) {
			*consumed = in.pos;
			return -EIO;
		}
		if (out.pos == before)
			break;
	}
	*consumed = in.pos;
	return out.pos;
}

#else

struct zstd_data {
	int unused;
};

bool zstd_data__available(void)
{
	return false;
}

struct zstd_data *zstd_data__new(void)
{
	errno = ENOTSUP;
	return NULL;
}

void zstd_data__delete(struct zstd_data *zd)
{
}

ssize_t zstd_data__decompress(struct zstd_data *zd, const void *src, size_t src_len,
			      size_t *consumed, void *dst, size_t dst_len)
{
	*consumed = 0;
	return -ENOTSUP;
}
#endif
