/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_INJECT_H
#define __PERF_TEXTPOKE_INJECT_H

#include "inject-snapshot.h"
#include "itrace.h"
#include "text-image.h"
#include "types.h"

/*
 * perf textpoke inject: a recording rewritten for tools that know nothing
 * of text pokes.  Two passes over the input: the side-band builds the
 * text image (every poke, BPF program and OOL region with its life),
 * then every record is copied in file order into the output, with the
 * records the modes replace replaced:
 *  --snapshot: the output is a perf.data directory whose kcore_dir/ holds
 *              the kernel code of one moment (inject-snapshot.c);
 *  --jit:      an ELF object per BPF program and OOL region version, in
 *              OUT/jit/ (or --jit-dir), mapped by MMAP2 records for
 *              exactly its life (inject-jit.c);
 *  --itrace:   an Intel PT trace replaced by the samples decoded from it
 *              (inject-itrace.c), a third pass.
 *  -b, --buildid-all: the build-id table of the objects hit or mapped
 *              (inject-buildid.c), with any of the above or alone.
 * With none, records pass through as perf inject passes them.  A pipe
 * on input is spooled to an unlinked temporary file for the two passes.
 */
struct inject_opts {
	const char *input;  /* "-": stdin */
	const char *output; /* "-": stdout, the pipe format */
	bool build_ids;	    /* -b: the objects the samples hit */
	bool buildid_all;   /* --buildid-all: every object mapped */
	bool jit;
	const char *jit_dir; /* NULL: OUT/jit */
	bool snapshot;
	enum inject_snapshot_at snapshot_at;
	u64 snapshot_time;
	struct text_image_opts image;
	struct itrace_opts itrace; /* .set: --itrace */
	bool strip;		   /* with itrace: the recorded samples and switches left out */
	bool quiet;
};

/* 0, or -errno with an error printed; nothing is left at the output on failure */
int inject__run(const struct inject_opts *opts);

#endif /* __PERF_TEXTPOKE_INJECT_H */
