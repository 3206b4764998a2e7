/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_SCRIPT_BRANCH_H
#define __PERF_TEXTPOKE_SCRIPT_BRANCH_H

#include <stddef.h>

#include "types.h"

struct perf_sample;
struct thread;

/* the text of one sample's branch stack, grown as needed and reused */
struct script_branch_buf {
	char *buf;
	size_t len, alloc;
};

/*
 * The sample's branch stack as -F brstack, brstacksym or brstackoff
 * prints it (the first of them in @fields; with the dso of each address
 * when @fields has SF_DSO), into @sb.  0, or -1 when memory ran out.
 */
int script_branch__format(struct script_branch_buf *sb, u64 fields, struct thread *thread,
			  const struct perf_sample *sample);
void script_branch_buf__exit(struct script_branch_buf *sb);

#endif /* __PERF_TEXTPOKE_SCRIPT_BRANCH_H */
