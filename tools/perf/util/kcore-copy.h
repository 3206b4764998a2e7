/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_KCORE_COPY_H
#define __PERF_TEXTPOKE_KCORE_COPY_H

#include "types.h"

/*
 * The starting image of a recording: <dir>/kcore_dir/{kallsyms,modules}
 * copied from /proc and, where /proc/kcore exists, <dir>/kcore_dir/kcore:
 * an ELF core holding the kernel text (_stext.._etext, page aligned) and
 * the module area, as perf record --kcore writes it.  Taken after the
 * side-band is enabled, so a poke already present in the copy shows as
 * pre-applied.  Stock perf reads kcore_dir for kernel symbols and code.
 * Without /proc/kcore, or with one that cannot be read, a one-line notice
 * says the text will come from the text pokes alone.  A /proc/kallsyms
 * that cannot be read, or any failure to write (ENOSPC, EFBIG), is
 * returned as -errno: the recording cannot be whole without it.
 */
/*
 * The events' clock for kcore_times: @now gives its time, 0 or -errno.
 * NULL: no times are written (the copy is then one of unknown moments,
 * as stock perf's).
 */
struct kcore_clock {
	int (*now)(void *arg, u64 *time);
	void *arg;
};

/*
 * With @clock, <dir>/kcore_dir/kcore_times says when each range of the
 * kcore copy was read (a time taken before the read and one after it),
 * in address order: a poke made while the copy ran is then placed right.
 * A clock that fails once means no kcore_times.
 */
int kcore_dir__write(const char *dir, bool quiet, const struct kcore_clock *clock);
/* the same from @proc/{kallsyms,modules,vmallocinfo,kcore}: tests give a directory of their own */
int kcore_dir__write_from(const char *dir, const char *proc, bool quiet,
			  const struct kcore_clock *clock);

/*
 * Cut <dir>/kcore_dir/kallsyms down to what the recording can ask of it:
 * for each of the sorted kernel addresses @ips (samples, callchains, text
 * poke sites), the symbol that holds it and the one after it, which ends
 * it (readers, perf among them, end a kallsyms symbol at the next);
 * every module's and the kernel's first and last symbol, which bound the
 * maps readers stretch over them; and _text, _stext and _etext, which
 * tie the addresses to the kernel's.  Only the symbol types perf loads
 * (t, w, d, b) count.  The file is replaced atomically; 0 or -errno.
 */
int kcore_dir__trim_kallsyms(const char *dir, const u64 *ips, size_t nr);

/*
 * @kcore_dir/kallsyms mapped and its lines parsed once, for what
 * reads it at the end of a recording (record-ksyms.c's scan, then the
 * trim): two parses of it were the most of the recorder's own
 * instructions.  new: 0 or -errno (-ENOENT without a copy).
 */
struct kallsyms_copy;

/* a line of the copy; @name and @mod are not NUL-terminated, @mod NULL for the kernel's */
struct kallsyms_copy_sym {
	const char *name;
	size_t name_len;
	char type;
	u64 addr;
	const char *mod;
	size_t mod_len;
};

int kallsyms_copy__new(const char *kcore_dir, struct kallsyms_copy **kc);
void kallsyms_copy__delete(struct kallsyms_copy *kc);
/* @cb for each line in the copy's order, until it returns non-zero, which is returned */
int kallsyms_copy__for_each(const struct kallsyms_copy *kc,
			    int (*cb)(void *arg, const struct kallsyms_copy_sym *sym), void *arg);
/* kcore_dir__trim_kallsyms() of the parsed copy; the copy's lines stay as they were */
int kallsyms_copy__trim(struct kallsyms_copy *kc, const u64 *ips, size_t nr);
/* the bytes of every file in <dir>/kcore_dir, 0 when there is none */
u64 kcore_dir__size(const char *dir);

/* the most kernel text and module code copied; more is refused (-EFBIG) */
#define KCORE_COPY_MAX (1ULL << 30)

/*
 * Copy from the ELF core @kcore the parts that hold kernel text (from
 * @kallsyms: _stext.._etext) and modules (from @modules: lowest to highest
 * module end, as stock perf copies, but only the pages @vmallocinfo says
 * are mapped, or without it each module's own range: /proc/kcore reads
 * free module space as zeros, which are no code) into a new ELF core
 * @out, one PT_LOAD per piece.  0, or
 * -errno with a message naming the file: -ENOENT when @kallsyms names no
 * _stext/_etext, -EINVAL for a core that is not a 64-bit little-endian
 * ELF, -ENODATA when no segment covers the text.  @out must not exist:
 * it is created, and removed on failure; errors writing it come back as
 * they are (-ENOSPC, -EFBIG), with no message.  With @clock and @times,
 * the read times go to the new file @times (see kcore_dir__write()).
 */
int kcore__copy_text(const char *kcore, const char *kallsyms, const char *modules,
		     const char *vmallocinfo, const char *out, const struct kcore_clock *clock,
		     const char *times);

#endif /* __PERF_TEXTPOKE_KCORE_COPY_H */
