// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer entry for fuzz__intel_pt() (tools/perf/tests/fuzz-intel-pt.c) */
#include <stdlib.h>

#include "../fuzz.h"

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	/* a failed check of the target's own: libFuzzer keeps the input as a crash */
	if (fuzz__intel_pt(data, size))
		abort();
	return 0;
}
