// SPDX-License-Identifier: GPL-2.0-only
/* placeholder until the JIT object writer lands: refuses, never pretends */
#include <errno.h>

#include "debug.h"
#include "inject-jit.h"

struct inject_jit *inject_jit__new(struct text_image *ti, struct machine *machine,
				   const struct perf_env *env, const char *write_dir,
				   const char *final_dir)
{
	pr_err("--jit is not built yet\n");
	errno = EOPNOTSUPP;
	return NULL;
}

void inject_jit__delete(struct inject_jit *jit)
{
}

int inject_jit__event(struct inject_jit *jit, struct perf_writer *w, union perf_event *event,
		      struct perf_sample *sample)
{
	return 0;
}

int inject_jit__add_build_ids(struct inject_jit *jit, struct perf_writer *w)
{
	return 0;
}

size_t inject_jit__nr_objects(const struct inject_jit *jit)
{
	return 0;
}
