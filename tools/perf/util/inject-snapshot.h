/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_INJECT_SNAPSHOT_H
#define __PERF_TEXTPOKE_INJECT_SNAPSHOT_H

#include "types.h"

struct text_image;
struct machine;

/* when the snapshot's code was true */
enum inject_snapshot_at {
	INJECT_SNAPSHOT_START, /* before every record: what makes stock perf's forward replay right */
	INJECT_SNAPSHOT_END,   /* after every record */
	INJECT_SNAPSHOT_TIME, /* after every record with time <= the given time */
};

/*
 * Write @dir/kcore, @dir/kallsyms and @dir/modules (@dir exists and is
 * empty): the kernel code of the finished image @ti as it was at @at
 * (@time for INJECT_SNAPSHOT_TIME) as an ELF core, one PT_LOAD per range
 * of known bytes (kernel text, modules, BPF programs and OOL regions
 * alive then), with .symtab symbols, and the kallsyms and modules files
 * that match it, in the form stock perf checks kcore_dir against.
 * @machine holds the recording's kernel symbols and module maps.
 * Messages call the directory @name (NULL: @dir), what the user will find
 * once the output is in place, not the temporary it is written in.  0, or
 * -errno with an error printed.
 */
int inject_snapshot__write(struct text_image *ti, struct machine *machine,
			   enum inject_snapshot_at at, u64 time, const char *dir, const char *name);

#endif /* __PERF_TEXTPOKE_INJECT_SNAPSHOT_H */
