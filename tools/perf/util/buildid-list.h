/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_BUILDID_LIST_H
#define __PERF_TEXTPOKE_BUILDID_LIST_H

#include <stdio.h>

#include "types.h"

/*
 * perf textpoke buildid-list: the objects of a recording and their
 * build-ids, one "<build-id padded to 40> <name>" line each, as perf
 * buildid-list 6.1 prints them: the build-id table as the header has it
 * (entries of one name merged, the host's first); with --with-hits, in a
 * stream, or when the header has no table, the objects as the records
 * bring them in (table entries, then maps), only those a sample's IP
 * fell in with --with-hits or without a table.  An ELF file as input:
 * its own build-id.
 */
struct buildid_list_opts {
	const char *input;
	bool with_hits;
	bool kernel; /* -k: the running kernel's build-id */
	bool force;
};

/* 0, or -errno with an error printed */
int buildid_list__run(const struct buildid_list_opts *opts, FILE *fp);

#endif /* __PERF_TEXTPOKE_BUILDID_LIST_H */
