/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_TRACE_SANITIZE_H
#define __PERF_TEXTPOKE_TRACE_SANITIZE_H

#include <stddef.h>

#include "types.h"

/*
 * What a recording's tracing data may hand libtraceevent.  Its parsers
 * (1.7.1 measured) trust their text to be what the kernel writes, and a
 * hostile file reaches their bugs: reads outside their buffers, NULL
 * dereferences, leaks on error paths.  These functions keep only text of
 * the kernel's shape, so that the library parses nothing else.  Pure text
 * functions: no libtraceevent needed.
 */

enum trace_text {
	TRACE_TEXT__KALLSYMS, /* "<hex> <type> <name>[\t[<module>]]" */
	TRACE_TEXT__PRINTK,   /* "0x<hex> : \"<format>\"" */
	TRACE_TEXT__CMDLINES, /* "<pid> <comm>" */
};

/*
 * The lines of @text (@size bytes, NULs included) that have the kernel's
 * shape for @kind, each '\n'-terminated, as a malloc'ed string.  The
 * others are counted in *@nr_bad, the first at offset *@first_bad of
 * @text.  NULL when no line is left (or out of memory).
 */
char *trace_text__filter(enum trace_text kind, const char *text, size_t size, u64 *nr_bad,
			 size_t *first_bad);

/*
 * An event format (name, ID, field declarations, print fmt) checked
 * against the kernel's shape and rewritten for libtraceevent: 0 and a
 * malloc'ed copy in *@out (*@out_size bytes, NUL-terminated), or -1 with
 * the offset in @fmt of what was refused in *@bad_at and why in *@why.
 * @ftrace: the format is one of ftrace's own ("field special:" allowed).
 */
int trace_format__sanitize(const char *fmt, size_t size, bool ftrace, char **out, size_t *out_size,
			   size_t *bad_at, const char **why);

#endif /* __PERF_TEXTPOKE_TRACE_SANITIZE_H */
