// SPDX-License-Identifier: GPL-2.0-only
/* placeholder until the snapshot writer lands: refuses, never pretends */
#include <errno.h>

#include "debug.h"
#include "inject-snapshot.h"

int inject_snapshot__write(struct text_image *ti, struct machine *machine,
			   enum inject_snapshot_at at, u64 time, const char *dir)
{
	pr_err("--snapshot is not built yet\n");
	return -EOPNOTSUPP;
}
