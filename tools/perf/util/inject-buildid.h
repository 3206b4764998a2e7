/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_INJECT_BUILDID_H
#define __PERF_TEXTPOKE_INJECT_BUILDID_H

#include "event.h"
#include "types.h"

struct perf_env;
struct perf_writer;

/*
 * perf textpoke inject -b and --buildid-all: which objects the output's
 * build-id table names, chosen as perf inject 6.1 chooses them.
 *  -b:            each object a sample's IP falls in (the kernel, a
 *                 module, a user file, the vdso), in the order of the
 *                 first hits;
 *  --buildid-all: each object an MMAP or MMAP2 maps, sampled or not, at
 *                 its first map.
 * An object's build-id is the one the recording gives (MMAP2, or the
 * input's table), else read from the file now; an object with none is
 * left out, as perf leaves it out ([kernel.kallsyms] unless the input
 * names it, anon memory, BPF programs).  A file output's table also
 * names every vdso mapped, sampled or not, as perf's does.  A stream
 * gets the entries as HEADER_BUILD_ID records: -b's before its first
 * record (perf inject writes each before the first sample in the
 * object: the set is the same), --buildid-all's each just before its
 * MMAP.  The input's own table is not copied (perf drops the entries of
 * objects nothing hit).
 */
struct inject_buildid;

struct inject_buildid *inject_buildid__new(bool all, const struct perf_env *env);
void inject_buildid__delete(struct inject_buildid *ib);

/*
 * -b: the objects the samples hit, found in a pass of their own over
 * @path in time order (in file order a sample may come before the MMAP
 * of its object); nothing for --buildid-all.  0 or -errno, said.
 */
int inject_buildid__scan(struct inject_buildid *ib, const char *path);
/*
 * --buildid-all, before a side-band record is written: an MMAP's or
 * MMAP2's object, if new, as a table entry (a stream's record just
 * before it); 0 or -errno
 */
int inject_buildid__side_band(struct inject_buildid *ib, struct perf_writer *w,
			      union perf_event *event);
/*
 * -b: the entries the scan found, to a stream before its first record,
 * to a file's table at the end (@file), with every vdso mapped
 */
int inject_buildid__write_all(struct inject_buildid *ib, struct perf_writer *w, bool file);
/* how many entries were written */
size_t inject_buildid__nr_entries(const struct inject_buildid *ib);

#endif /* __PERF_TEXTPOKE_INJECT_BUILDID_H */
