// SPDX-License-Identifier: GPL-2.0-only
/* placeholder until the code-change report lands: refuses, never pretends */
#include <errno.h>

#include "debug.h"
#include "report-changes.h"

const char *report_site_kind__name(enum report_site_kind kind)
{
	return "other";
}

struct report_changes *report_changes__new(struct text_image *ti, struct machine *machine)
{
	pr_err("the code-change report is not built yet\n");
	errno = EOPNOTSUPP;
	return NULL;
}

void report_changes__sample(struct report_changes *rc, u64 ip, u8 cpumode, u64 time)
{
}

int report_changes__finish(struct report_changes *rc, u64 nr_lost, u64 nr_lost_samples,
			   u64 nr_unordered)
{
	return -EOPNOTSUPP;
}

void report_changes__delete(struct report_changes *rc)
{
}

void report_changes__fprintf(const struct report_changes *rc, FILE *fp)
{
}
