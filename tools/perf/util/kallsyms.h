/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_KALLSYMS_H
#define __PERF_TEXTPOKE_KALLSYMS_H

#include "types.h"

/*
 * Calls @cb for each line of a kallsyms file ("ffffffff81000000 T _text",
 * module symbols followed by "\t[module]").  @module is NULL for the
 * kernel's own symbols.  Returns the number of lines handed to @cb, or
 * -errno (the first non-zero return of @cb stops the walk and is returned).
 */
int kallsyms__parse(const char *path, void *arg,
		    int (*cb)(void *arg, const char *name, char type, u64 start,
			      const char *module));

/* 'T', 't', 'W', 'w' (text), 'D', 'B' (data): the types perf keeps */
bool kallsyms__type_is_symbol(char type);
u8 kallsyms__binding(char type); /* STB_* */
u8 kallsyms__elf_type(char type); /* STT_FUNC or STT_OBJECT */

#endif /* __PERF_TEXTPOKE_KALLSYMS_H */
