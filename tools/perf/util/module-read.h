/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_MODULE_READ_H
#define __PERF_TEXTPOKE_MODULE_READ_H

#include "module-events.h"
#include "types.h"

/*
 * One loaded module as the recorder takes it, the moment module:module_load
 * fires (module-capture.c runs these): where it is, its code and its
 * symbols.  The files come from @sys (/sys) and @proc (/proc), so that
 * tests can give directories of their own.
 *
 * Where: /sys/module/<name>/sections/ has the address of every allocated
 * section, coresize and initsize the sizes of the two allocations (the
 * kernel lays each one out code first: its code ends where its first
 * other section begins).  initsize reads 0 once the init sections are
 * freed: then the init allocation is taken from the init sections'
 * addresses (to the end of the page of the last), with no code.
 *
 * Nothing pins a module while it is read: between two reads it may go
 * (the files vanish: -ENOENT) or go and come back elsewhere.  What the
 * reads hold is judged later against the times of its free
 * (module_load__code_ok()).
 */

struct module_code {
	struct module_load ml; /* the name, ranges and read times */
	u8 *text;	       /* ml.text.len bytes, NULL: not read */
	u8 *init_text;	       /* ml.init_text.len bytes, NULL: not read */
	char *kallsyms;	       /* its kallsyms lines, NUL-terminated; NULL: none */
	size_t kallsyms_len;
};

void module_code__exit(struct module_code *mc);

/*
 * The layout of module @mc->ml.name: core, text, init, init_text.  0,
 * -ENOENT when it is not (or no longer) loaded, -EPERM when the addresses
 * read as zeros (kptr_restrict), -ENODATA when it has no sections.
 */
int module_read__layout(struct module_code *mc, const char *sys);

/*
 * Its code (text, then init_text, the one that goes first) from
 * @proc/kcore; 0 or -errno (nothing kept then).
 */
int module_read__code(struct module_code *mc, const char *proc);

/*
 * The lines of @proc/kallsyms of each of the @nr modules @mcs, those
 * inside its ranges, in one read of the table (it takes long: 0.8 s on
 * Debian's kernel under qemu); a module with none (gone) gets none.  0 or
 * -errno (then none gets any).  @stop (NULL: none), asked now and then,
 * ends the read early (-EINTR): a caller may have more urgent work.
 */
int module_read__kallsyms(struct module_code **mcs, size_t nr, const char *proc,
			  bool (*stop)(void *arg), void *stop_arg);

/*
 * @kcore_dir/module.<seq>.kcore (the code read, one PT_LOAD per range)
 * and module.<seq>.kallsyms; 0 or -errno of the write.
 */
int module_code__write(const struct module_code *mc, const char *kcore_dir);

#endif /* __PERF_TEXTPOKE_MODULE_READ_H */
