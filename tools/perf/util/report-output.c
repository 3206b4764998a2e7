// SPDX-License-Identifier: GPL-2.0-only
/* placeholder until the JSON and HTML writers land: refuse, never pretend */
#include <errno.h>

#include "debug.h"
#include "report-output.h"

int report_output__json(const struct report_output *ro, FILE *fp)
{
	pr_err("--json is not built yet\n");
	return -EOPNOTSUPP;
}

int report_output__html(const struct report_output *ro, FILE *fp)
{
	pr_err("--html is not built yet\n");
	return -EOPNOTSUPP;
}
