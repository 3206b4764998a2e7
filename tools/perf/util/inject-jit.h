/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_INJECT_JIT_H
#define __PERF_TEXTPOKE_INJECT_JIT_H

#include "event.h"
#include "types.h"

struct text_image;
struct machine;
struct perf_env;
struct perf_writer;
struct inject_jit;

/*
 * perf textpoke inject --jit: an ELF object (elf-image.c, ET_EXEC, .text
 * at the kernel address, .symtab, build-id) for every version of every
 * code region that exists only at run time (each BPF program load, each
 * OOL region: ftrace trampolines, kprobe slot pages), written into
 * @write_dir (an existing, empty directory), and the records that map
 * each object at its address for exactly its lifetime in the rewritten
 * stream.  The records name each object as @final_dir/<name>: the output
 * is written under a temporary name and renamed into place at the end,
 * so @write_dir is where the files are now and @final_dir (absolute)
 * where they will be.  The two may be equal (--jit-dir).  @ti is
 * finished (the whole side-band is known).  NULL + errno with an error
 * printed.
 */
struct inject_jit *inject_jit__new(struct text_image *ti, struct machine *machine,
				   const struct perf_env *env, const char *write_dir,
				   const char *final_dir);
void inject_jit__delete(struct inject_jit *jit);

/*
 * Each record of the input, in file order, before it is written: 0 to
 * pass it through as it is; 1 when the hook has written through @w what
 * replaces it (possibly nothing); -errno.  @sample is the record's parsed
 * sample or id trailer.
 */
int inject_jit__event(struct inject_jit *jit, struct perf_writer *w, union perf_event *event,
		      struct perf_sample *sample);

/* BUILD_ID feature entries of the objects, added through @w */
int inject_jit__add_build_ids(struct inject_jit *jit, struct perf_writer *w);

/* how many objects were written (0: nothing to inject, which is said) */
size_t inject_jit__nr_objects(const struct inject_jit *jit);

#endif /* __PERF_TEXTPOKE_INJECT_JIT_H */
