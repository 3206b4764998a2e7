/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_INJECT_JITDUMP_H
#define __PERF_TEXTPOKE_INJECT_JITDUMP_H

#include "event.h"
#include "types.h"

struct perf_writer;
struct inject_jitdump;

/*
 * perf textpoke inject --jit, the user-space half, as perf inject --jit
 * does it: at each MMAP/MMAP2 of a jitdump (jit-PID.dump, jitdump.h), the
 * file is read and each JIT_CODE_LOAD becomes jitted-PID-INDEX.so in the
 * jitdump's directory (jit-elf.c), mapped by a user MMAP2 at the load's
 * time; each JIT_CODE_MOVE maps that object again at its new address.
 * The jitdump's own MMAP is dropped, and so are the process's later
 * anonymous (//anon) mappings, which held the code the objects now name.
 *
 * NULL + errno on failure.
 */
struct inject_jitdump *inject_jitdump__new(void);
/*
 * Before the first record: whether every event was recorded with -k
 * mono, the clock jitdump times are in unless their header says arch
 * timestamps (TSC, converted through the recording's TIME_CONV)
 */
void inject_jitdump__set_mono_clock(struct inject_jitdump *j, bool mono_clock);
void inject_jitdump__delete(struct inject_jitdump *j);

/* a TIME_CONV record of the input, for jitdumps with arch timestamps */
void inject_jitdump__time_conv(struct inject_jitdump *j, const union perf_event *event);

/*
 * Each kernel record of the input, in file order: 0 to pass it through;
 * 1 when what replaces it has been written through @w (possibly
 * nothing); -errno.  A jitdump that cannot be read or is damaged is a
 * warning (file, offset, record) and keeps its MMAP; its good loads
 * before the damage are used.
 */
int inject_jitdump__event(struct inject_jitdump *j, struct perf_writer *w, union perf_event *event,
			  struct perf_sample *sample);

/* a BUILD_ID feature entry per object written, as perf inject's header has them */
int inject_jitdump__add_build_ids(struct inject_jitdump *j, struct perf_writer *w);

size_t inject_jitdump__nr_objects(const struct inject_jitdump *j);

#endif /* __PERF_TEXTPOKE_INJECT_JITDUMP_H */
