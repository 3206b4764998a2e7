/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_KALLSYMS_H
#define __PERF_TEXTPOKE_KALLSYMS_H

#include <elf.h>

#include "types.h"

/*
 * What a kallsyms file may hold.  /proc/kallsyms is about 6 MB with a
 * distribution kernel and its modules, and some 20 MB (400k symbols) for
 * an allyesconfig one: 64 MiB leaves room for any real kernel while a
 * hostile file (a huge sparse one, or /dev/zero named by a symlink) is
 * refused without reading it all.
 */
#define KALLSYMS_MAX_SIZE (64 << 20)

/* read and parsed in pieces of this size; a longer line is cut there */
#define KALLSYMS_CHUNK (256 << 10)

/*
 * Calls @cb for each line of a kallsyms file ("ffffffff81000000 T _text",
 * module symbols followed by "\t[module]").  @module is NULL for the
 * kernel's own symbols.  Returns the number of lines handed to @cb, or
 * -errno (the first non-zero return of @cb stops the walk and is returned).
 * Only a regular file is read (see input_file__open(), whose
 * input_file__strerror() says why one is refused), -EFBIG when it holds
 * KALLSYMS_MAX_SIZE bytes or more.  The lines before a read error or
 * -EFBIG have been handed over.
 */
int kallsyms__parse(const char *path, void *arg,
		    int (*cb)(void *arg, const char *name, char type, u64 start,
			      const char *module));

/*
 * What a kallsyms or modules file held beside its lines: lines in no
 * such form (skipped), and a last line with no newline (the file was cut
 * there; still handed over, its name maybe cut too)
 */
struct kallsyms_damage {
	u64 nr_bad;
	u64 first_bad; /* the offset of the first bad line */
	bool cut;
	u64 cut_at; /* the offset of the unended line */
};

/* kallsyms__parse(), and what it skipped in @damage */
int kallsyms__parse_checked(const char *path, void *arg,
			    int (*cb)(void *arg, const char *name, char type, u64 start,
				      const char *module),
			    struct kallsyms_damage *damage);

/*
 * A copy of /proc/modules read through: its module lines ("name size
 * refs users state 0xaddr"), or -errno as kallsyms__parse(); what is not
 * such a line in @damage
 */
int modules__check(const char *path, struct kallsyms_damage *damage);

/*
 * The 16 hex digits (either case) at @p, a 64-bit kernel's kallsyms
 * address, into *@addr: false when one is not a hex digit.  @p must hold
 * 16 bytes.  Eight digits at a time, where a loop spent a branch on each.
 */
bool kallsyms__addr16(const char *p, u64 *addr);

/* warns of what @damage holds, naming @path and its kind ("kallsyms", "modules") */
void kallsyms_damage__warn(const char *path, const struct kallsyms_damage *d, const char *what);

/*
 * Inline, as they run for each of 100k+ lines; letters as the C locale's
 * toupper() and isupper() see them.
 */

/* 'T', 't', 'W', 'w' (text), 'D', 'B' (data): the types perf keeps */
static inline bool kallsyms__type_is_symbol(char type)
{
	switch (type) {
	case 'T':
	case 't':
	case 'W':
	case 'w':
	case 'D':
	case 'd':
	case 'B':
	case 'b':
		return true;
	default:
		return false;
	}
}

/* STB_* */
static inline u8 kallsyms__binding(char type)
{
	if (type == 'W')
		return STB_WEAK;
	return type >= 'A' && type <= 'Z' ? STB_GLOBAL : STB_LOCAL;
}

/* STT_FUNC or STT_OBJECT */
static inline u8 kallsyms__elf_type(char type)
{
	return type == 'T' || type == 't' || type == 'W' || type == 'w' ? STT_FUNC : STT_OBJECT;
}

#endif /* __PERF_TEXTPOKE_KALLSYMS_H */
