/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_SCRIPT_HEADER_H
#define __PERF_TEXTPOKE_SCRIPT_HEADER_H

#include <stdio.h>

#include "types.h"

struct perf_session;

/*
 * The feature payloads of a recording as stored, kept by the session's
 * feature callback for perf script --header: perf prints some of them
 * from bytes its perf_env does not keep (pmu mappings).
 */
struct script_header {
	void *feat[64];
	u64 size[64];
	bool full;	 /* -I: the topologies in full */
	bool pipe;	 /* features arrive as records, during processing */
	int pending[64]; /* arrived, not printed yet */
	size_t nr_pending;
};

/* the session's feature callback stores into @h (0, or -ENOMEM) */
int script_header__keep(struct script_header *h, int feat, const void *buf, u64 size);
void script_header__exit(struct script_header *h);

/*
 * perf_session__fprintf_info() without -I: the "# ========" block of
 * perf script --header and perf report --header-only.  Features whose
 * details perf prints with -I only get perf's "info available" line.
 * For a pipe, the block has no sections: the features come as
 * records, and script_header__fprintf_pending() prints those that came
 * since, as perf prints each where it is in the stream.  0, or -EINVAL
 * (with the reason printed) for a byte-swapped recording.
 */
int script_header__fprintf(struct script_header *h, struct perf_session *session, FILE *fp);
void script_header__fprintf_pending(struct script_header *h, struct perf_session *session,
				    FILE *fp);

#endif /* __PERF_TEXTPOKE_SCRIPT_HEADER_H */
