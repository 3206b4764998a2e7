/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_UTF8_H
#define __PERF_TEXTPOKE_UTF8_H

#include <stddef.h>

#include "types.h"

/*
 * Strings from a recording (comm, symbol, DSO names) are hostile bytes
 * that the JSON and HTML writers must turn into text their parsers take.
 * This is the one judgment of what is well-formed UTF-8 (RFC 3629: no
 * overlong form, no UTF-16 surrogate, nothing past U+10FFFF, nothing cut
 * short); what replaces a bad sequence is each writer's policy, said at
 * the caller.
 */
#define UTF8_INVALID 0xffffffffu

/*
 * The character at @s, of at most @n (>= 1) bytes: its code point in
 * *@cp and its length.  When the bytes there are not well-formed, *@cp
 * is UTF8_INVALID and the length is that of the maximal subpart (the
 * longest start of a well-formed sequence, at least 1), which Unicode
 * recommends replacing by one U+FFFD, as Python's "replace" does.
 */
size_t utf8__next(const u8 *s, size_t n, u32 *cp);

#endif /* __PERF_TEXTPOKE_UTF8_H */
