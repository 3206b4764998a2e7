/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_INJECT_BUILDID_H
#define __PERF_TEXTPOKE_INJECT_BUILDID_H

#include "event.h"
#include "types.h"

struct machine;
struct perf_env;
struct perf_writer;

/*
 * perf textpoke inject -b and --buildid-all: which objects the output's
 * build-id table names, chosen as perf inject 6.1 chooses them.
 *  -b:            each object a sample's IP falls in (the kernel, a
 *                 module, a user file, the vdso), once, at its first
 *                 sample;
 *  --buildid-all: each object an MMAP or MMAP2 maps, sampled or not, at
 *                 its first map.
 * An object's build-id is the one the recording gives (MMAP2, or the
 * input's table), else read from the file now; an object with none is
 * left out, as perf leaves it out ([kernel.kallsyms] unless the input
 * names it, anon memory, BPF programs).  A file output's table also
 * names every vdso mapped, sampled or not, as perf's does.  A stream
 * gets each entry as a HEADER_BUILD_ID record just before the record
 * that brought it, as perf inject writes them; the input's own table is
 * not copied (perf drops the entries of objects nothing hit).
 */
struct inject_buildid;

struct inject_buildid *inject_buildid__new(bool all, const struct perf_env *env);
void inject_buildid__delete(struct inject_buildid *ib);

/* before a sample is written: its object's entry, if new; 0 or -errno */
int inject_buildid__sample(struct inject_buildid *ib, struct machine *machine,
			   struct perf_writer *w, const struct perf_sample *sample);
/*
 * before a side-band record is written: MMAP and MMAP2 update
 * @machine (the samples are looked up in it) and, with --buildid-all,
 * give the mapped object's entry, if new; 0 or -errno
 */
int inject_buildid__side_band(struct inject_buildid *ib, struct machine *machine,
			      struct perf_writer *w, union perf_event *event,
			      struct perf_sample *sample);
/* a file's table, at the end: the vdsos mapped and not named yet */
int inject_buildid__finish(struct inject_buildid *ib, struct perf_writer *w);
/* how many entries were written */
size_t inject_buildid__nr_entries(const struct inject_buildid *ib);

#endif /* __PERF_TEXTPOKE_INJECT_BUILDID_H */
