// SPDX-License-Identifier: GPL-2.0-only
#include <zstd.h>

int main(void)
{
	ZSTD_DStream *ds = ZSTD_createDStream();

	ZSTD_freeDStream(ds);
	return 0;
}
