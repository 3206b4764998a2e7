// SPDX-License-Identifier: GPL-2.0-only
/* Placeholder so the tree links; replaced by the machine model. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "machine.h"

struct machine {
	int unused;
};

struct machine *machine__new(struct perf_env *env, const char *kcore_dir)
{
	return calloc(1, sizeof(struct machine));
}

void machine__delete(struct machine *machine)
{
	free(machine);
}

int machine__process_event(struct machine *machine, union perf_event *event,
			   struct perf_sample *sample)
{
	return 0;
}
