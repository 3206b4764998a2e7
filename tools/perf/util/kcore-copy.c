// SPDX-License-Identifier: GPL-2.0-only
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "debug.h"
#include "kallsyms.h"
#include "kcore-copy.h"
#include "write-all.h"

#define KCORE_PAGE 4096ULL
/* /proc/kcore has a few dozen segments; a core with more is not one */
#define KCORE_MAX_PHDRS 4096

/*
 * /proc files report size 0: copy until EOF.  @to is created, never
 * truncated: it is a fresh name in the recording's kcore_dir, so that a
 * failure may remove it.  A missing @from is an error unless @optional
 * (no /proc/modules: a kernel built without modules has none).
 */
static int copy_proc_file(const char *from, const char *to, bool optional)
{
	int in, out, err = 0;
	bool read_failed;

	in = open(from, O_RDONLY | O_CLOEXEC);
	if (in < 0 && !(optional && errno == ENOENT)) {
		err = -errno;
		pr_err("%s: %s\n", from, strerror(-err));
		return err;
	}
	out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (out < 0) {
		err = -errno;
		goto out_close;
	}
	if (in >= 0) {
		err = copy_to_eof(in, out, &read_failed);
		if (err && read_failed)
			pr_err("%s: %s\n", from, strerror(-err));
	}
	if (close(out) && !err)
		err = -errno;
	if (err)
		unlink(to);
out_close:
	if (in >= 0)
		close(in);
	return err;
}

struct addr_range {
	u64 start, end;
};

static int kallsyms__text(const char *path, struct addr_range *r)
{
	char line[512], name[256], type;
	unsigned long long addr;
	FILE *f = fopen(path, "r");

	if (!f)
		return -errno;
	r->start = r->end = 0;
	while (fgets(line, sizeof(line), f) && (!r->start || !r->end)) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3 || strchr(line, '['))
			continue;
		if (!r->start && !strcmp(name, "_stext"))
			r->start = addr;
		else if (!r->end && !strcmp(name, "_etext"))
			r->end = addr;
	}
	fclose(f);
	if (!r->start || r->end <= r->start)
		return -ENOENT;
	r->start &= ~(KCORE_PAGE - 1);
	r->end = (r->end + KCORE_PAGE - 1) & ~(KCORE_PAGE - 1);
	return 0;
}

struct ranges {
	struct addr_range *v;
	size_t nr, alloc;
};

static int ranges__add(struct ranges *r, u64 start, u64 end)
{
	if (end <= start)
		return 0;
	if (r->nr == r->alloc) {
		size_t n = r->alloc ? 2 * r->alloc : 64;
		void *p = realloc(r->v, n * sizeof(*r->v));

		if (!p)
			return -ENOMEM;
		r->v = p;
		r->alloc = n;
	}
	r->v[r->nr++] = (struct addr_range){start, end};
	return 0;
}

static int addr_range__cmp(const void *a, const void *b)
{
	const struct addr_range *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* sorted, overlapping and touching ranges merged */
static void ranges__merge(struct ranges *r)
{
	size_t o = 0;

	if (!r->nr)
		return;
	qsort(r->v, r->nr, sizeof(*r->v), addr_range__cmp);
	for (size_t i = 1; i < r->nr; i++) {
		if (r->v[i].start <= r->v[o].end) {
			if (r->v[i].end > r->v[o].end)
				r->v[o].end = r->v[i].end;
		} else {
			r->v[++o] = r->v[i];
		}
	}
	r->nr = o + 1;
}

/*
 * Each module's [address, address + size), page-rounded; @extent the
 * lowest start to the highest end (0, 0 when there are none).  The size
 * is all of a module's memory, which later kernels allocate in pieces,
 * so this is where modules may be, not where they are.
 */
static int modules__ranges(const char *path, struct ranges *r, struct addr_range *extent)
{
	char line[1024];
	unsigned long long size, addr;
	FILE *f = path ? fopen(path, "r") : NULL;
	int err = 0;

	extent->start = extent->end = 0;
	if (!f)
		return 0;
	while (!err && fgets(line, sizeof(line), f)) {
		char *p = strstr(line, " 0x");
		u64 lo, hi;

		if (sscanf(line, "%*s %llu", &size) != 1 || !p ||
		    sscanf(p + 1, "%llx", &addr) != 1 || !addr || addr + size < addr)
			continue;
		lo = addr & ~(KCORE_PAGE - 1);
		hi = (addr + size + KCORE_PAGE - 1) & ~(KCORE_PAGE - 1);
		if (!extent->start || lo < extent->start)
			extent->start = lo;
		if (hi > extent->end)
			extent->end = hi;
		err = ranges__add(r, lo, hi);
	}
	fclose(f);
	ranges__merge(r);
	return err;
}

/*
 * The pages vmalloc has mapped, from /proc/vmallocinfo: an area's
 * "pages=N" are its first N pages (the rest is its guard page, or
 * nothing).  An area without "pages=" (ioremap, vmap) holds no code
 * copied here.  -ENOENT when the file cannot be read or shows no
 * address (%pK printed as zeros): nothing is known from it.
 */
static int vmallocinfo__mapped(const char *path, struct ranges *r)
{
	char line[1024];
	unsigned long long start, end, pages;
	FILE *f = path ? fopen(path, "r") : NULL;
	bool any = false;
	int err = 0;

	if (!f)
		return -ENOENT;
	while (!err && fgets(line, sizeof(line), f)) {
		const char *p = strstr(line, " pages=");

		if (sscanf(line, "0x%llx-0x%llx", &start, &end) != 2 || !start || end <= start)
			continue;
		any = true;
		if (!p || sscanf(p + 7, "%llu", &pages) != 1 || pages > (end - start) / KCORE_PAGE)
			continue;
		err = ranges__add(r, start, start + pages * KCORE_PAGE);
	}
	fclose(f);
	if (!err && !any)
		err = -ENOENT;
	ranges__merge(r);
	return err;
}

/*
 * What of the module area to copy: the mapped pages (per @vmallocinfo)
 * between the lowest module's start and the highest module's end, the
 * extent stock perf copies; without a readable @vmallocinfo, the
 * modules' own ranges.  Free module space between them reads as zeros
 * from /proc/kcore, which a reader would take for bytes: it is left out.
 */
static int module_area__ranges(const char *modules, const char *vmallocinfo, struct ranges *out)
{
	struct ranges mods = {0}, mapped = {0};
	struct addr_range extent;
	int err = modules__ranges(modules, &mods, &extent);

	if (err || !mods.nr)
		goto out;
	err = vmallocinfo__mapped(vmallocinfo, &mapped);
	if (err == -ENOENT) {
		err = 0;
		for (size_t i = 0; !err && i < mods.nr; i++)
			err = ranges__add(out, mods.v[i].start, mods.v[i].end);
		goto out;
	}
	for (size_t i = 0; !err && i < mapped.nr; i++) {
		u64 lo = mapped.v[i].start > extent.start ? mapped.v[i].start : extent.start;
		u64 hi = mapped.v[i].end < extent.end ? mapped.v[i].end : extent.end;

		err = ranges__add(out, lo, hi);
	}
out:
	free(mods.v);
	free(mapped.v);
	return err;
}

struct kcore_piece {
	u64 vaddr, src_off, size;
};

/* when each range was read, for kcore_times */
struct kcore_reads {
	const struct kcore_clock *clock;
	struct kcore_read_time {
		u64 addr, len, first, last;
	} * v;
	size_t nr, alloc;
	bool failed; /* the clock failed once: no times at all */
};

static void kcore_reads__add(struct kcore_reads *kr, u64 addr, u64 len, u64 first, u64 last)
{
	if (kr->nr == kr->alloc) {
		size_t n = kr->alloc ? 2 * kr->alloc : 256;
		void *p = realloc(kr->v, n * sizeof(*kr->v));

		if (!p) {
			kr->failed = true;
			return;
		}
		kr->v = p;
		kr->alloc = n;
	}
	kr->v[kr->nr++] = (struct kcore_read_time){addr, len, first, last};
}

static bool kcore_reads__now(struct kcore_reads *kr, u64 *t)
{
	if (!kr || !kr->clock || kr->failed)
		return false;
	if (kr->clock->now(kr->clock->arg, t))
		kr->failed = true;
	return !kr->failed;
}

/* @size bytes at @vaddr (file offset @in_off), each pread's range timed into @kr */
static int copy_bytes(int in, u64 in_off, int out, u64 out_off, u64 size, u64 vaddr,
		      struct kcore_reads *kr)
{
	static u8 buf[1 << 16];

	while (size) {
		size_t n = size < sizeof(buf) ? size : sizeof(buf);
		u64 first = 0, last = 0;
		bool timed = kcore_reads__now(kr, &first);
		ssize_t r = pread(in, buf, n, in_off);
		int err;

		/* after the read: a poke before this time may be in the bytes */
		if (timed && kcore_reads__now(kr, &last))
			kcore_reads__add(kr, vaddr, r > 0 ? (u64)r : n, first, last);

		/* kcore reads of holes fail or come back short: keep zeros there */
		if (r <= 0) {
			memset(buf, 0, n);
			r = n;
		}
		err = pwrite_all(out, buf, r, out_off);
		if (err)
			return err;
		in_off += r;
		out_off += r;
		vaddr += r;
		size -= r;
	}
	return 0;
}

/*
 * @path: "<addr> <len> <first> <last>" per range read, in address order
 * (the copy is one ascending pass), times in the events' clock; stock
 * perf reads only kcore, kallsyms and modules of a kcore_dir
 */
static int kcore_reads__write(const struct kcore_reads *kr, const char *path)
{
	FILE *f = fopen(path, "wx");
	int err = 0;

	if (!f)
		return -errno;
	fprintf(f, "# perf textpoke: each range of kcore read between two times of the "
		   "events' clock: <addr> <len> <first ns> <last ns>\n");
	for (size_t i = 0; i < kr->nr; i++)
		fprintf(f, "%llx %llx %llu %llu\n", (unsigned long long)kr->v[i].addr,
			(unsigned long long)kr->v[i].len, (unsigned long long)kr->v[i].first,
			(unsigned long long)kr->v[i].last);
	if (ferror(f))
		err = -EIO;
	if (fclose(f) && !err)
		err = -errno;
	if (err)
		unlink(path);
	return err;
}

/* as kcore__copy_text(); *@out_failed says the error was in writing @out */
static int __kcore__copy_text(const char *kcore, const char *kallsyms, const char *modules,
			      const char *vmallocinfo, const char *out,
			      const struct kcore_clock *clock, const char *times, bool *out_failed)
{
	struct kcore_reads kr = {.clock = clock};
	struct kcore_piece *pieces = NULL;
	struct ranges want = {0};
	struct addr_range text = {0, 0};
	Elf64_Ehdr eh, oh;
	Elf64_Phdr *ph = NULL;
	int in, fd = -1, nr = 0, alloc_pieces = 0, err;
	u64 total = 0, off;

	err = kallsyms__text(kallsyms, &text);
	if (err) {
		pr_err("%s: no _stext/_etext, cannot tell where kernel text is\n", kallsyms);
		return err;
	}
	err = ranges__add(&want, text.start, text.end);
	err = err ?: module_area__ranges(modules, vmallocinfo, &want);
	if (err) {
		free(want.v);
		return err;
	}
	in = open(kcore, O_RDONLY | O_CLOEXEC);
	if (in < 0) {
		err = -errno;
		free(want.v);
		return err;
	}
	err = -EINVAL;
	if (pread(in, &eh, sizeof(eh), 0) != sizeof(eh) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB ||
	    eh.e_phentsize != sizeof(Elf64_Phdr) || !eh.e_phnum || eh.e_phnum > KCORE_MAX_PHDRS) {
		pr_err("%s: not a 64-bit little-endian ELF core\n", kcore);
		goto out_close;
	}
	err = -ENOMEM;
	ph = calloc(eh.e_phnum, sizeof(*ph));
	if (!ph)
		goto out_close;
	err = -EINVAL;
	if (pread(in, ph, eh.e_phnum * sizeof(*ph), eh.e_phoff) !=
	    (ssize_t)(eh.e_phnum * sizeof(*ph))) {
		pr_err("%s: program headers at 0x%llx truncated\n", kcore,
		       (unsigned long long)eh.e_phoff);
		goto out_close;
	}
	for (size_t w = 0; w < want.nr; w++) {
		for (int i = 0; i < eh.e_phnum && nr < KCORE_MAX_PHDRS; i++) {
			u64 lo, hi;

			if (ph[i].p_type != PT_LOAD ||
			    ph[i].p_vaddr + ph[i].p_filesz < ph[i].p_vaddr)
				continue;
			lo = ph[i].p_vaddr > want.v[w].start ? ph[i].p_vaddr : want.v[w].start;
			hi = ph[i].p_vaddr + ph[i].p_filesz < want.v[w].end ?
				 ph[i].p_vaddr + ph[i].p_filesz :
				 want.v[w].end;
			if (lo >= hi)
				continue;
			if (nr == alloc_pieces) {
				int n = alloc_pieces ? 2 * alloc_pieces : 16;
				void *p = realloc(pieces, n * sizeof(*pieces));

				err = -ENOMEM;
				if (!p)
					goto out_close;
				pieces = p;
				alloc_pieces = n;
			}
			pieces[nr].vaddr = lo;
			pieces[nr].src_off = ph[i].p_offset + (lo - ph[i].p_vaddr);
			pieces[nr].size = hi - lo;
			total += hi - lo;
			nr++;
		}
	}
	err = -ENODATA;
	if (!nr) {
		pr_err("%s: no segment holds the kernel text at 0x%llx\n", kcore,
		       (unsigned long long)text.start);
		goto out_close;
	}
	err = -EFBIG;
	if (total > KCORE_COPY_MAX) {
		pr_err("%s: %llu bytes of text to copy, more than the %llu allowed\n", kcore,
		       (unsigned long long)total, (unsigned long long)KCORE_COPY_MAX);
		goto out_close;
	}
	/* from here on every failure is one of writing @out */
	*out_failed = true;
	fd = open(out, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0400);
	if (fd < 0) {
		err = -errno;
		goto out_close;
	}
	memset(&oh, 0, sizeof(oh));
	memcpy(oh.e_ident, eh.e_ident, EI_NIDENT);
	oh.e_type = ET_CORE;
	oh.e_machine = eh.e_machine;
	oh.e_version = EV_CURRENT;
	oh.e_phoff = sizeof(oh);
	oh.e_ehsize = sizeof(oh);
	oh.e_phentsize = sizeof(Elf64_Phdr);
	oh.e_phnum = nr;
	err = pwrite_all(fd, &oh, sizeof(oh), 0);
	if (err)
		goto out_close;
	/* segment data page aligned after the headers, as perf's copy lays it out */
	off = (sizeof(oh) + nr * sizeof(Elf64_Phdr) + KCORE_PAGE - 1) & ~(KCORE_PAGE - 1);
	for (int i = 0; i < nr; i++) {
		Elf64_Phdr p = {
		    .p_type = PT_LOAD,
		    .p_flags = PF_R | PF_X,
		    .p_offset = off,
		    .p_vaddr = pieces[i].vaddr,
		    .p_filesz = pieces[i].size,
		    .p_memsz = pieces[i].size,
		    .p_align = KCORE_PAGE,
		};

		err = pwrite_all(fd, &p, sizeof(p), sizeof(oh) + i * sizeof(p));
		if (!err)
			err = copy_bytes(in, pieces[i].src_off, fd, off, pieces[i].size,
					 pieces[i].vaddr, &kr);
		if (err)
			goto out_close;
		off = (off + pieces[i].size + KCORE_PAGE - 1) & ~(KCORE_PAGE - 1);
	}
	/* a clock that failed once: no times, rather than times for some ranges */
	err = 0;
	if (times && clock && !kr.failed)
		err = kcore_reads__write(&kr, times);
out_close:
	if (fd >= 0 && close(fd) && !err)
		err = -errno;
	if (err && fd >= 0)
		unlink(out);
	free(pieces);
	free(want.v);
	free(kr.v);
	free(ph);
	close(in);
	return err;
}

int kcore__copy_text(const char *kcore, const char *kallsyms, const char *modules,
		     const char *vmallocinfo, const char *out, const struct kcore_clock *clock,
		     const char *times)
{
	bool out_failed = false;

	return __kcore__copy_text(kcore, kallsyms, modules, vmallocinfo, out, clock, times,
				  &out_failed);
}

int kcore_dir__write_from(const char *dir, const char *proc, bool quiet,
			  const struct kcore_clock *clock)
{
	char path[4096], from[4096], kallsyms[4096], modules[4096], vmallocinfo[4096];
	char times[4096];
	bool out_failed = false;
	int err;

	snprintf(path, sizeof(path), "%s/kcore_dir", dir);
	if (mkdir(path, 0755) && errno != EEXIST)
		return -errno;
	snprintf(from, sizeof(from), "%s/kallsyms", proc);
	snprintf(kallsyms, sizeof(kallsyms), "%s/kcore_dir/kallsyms", dir);
	err = copy_proc_file(from, kallsyms, false);
	if (err)
		return err;
	snprintf(from, sizeof(from), "%s/modules", proc);
	snprintf(modules, sizeof(modules), "%s/kcore_dir/modules", dir);
	err = copy_proc_file(from, modules, true);
	if (err)
		return err;
	snprintf(from, sizeof(from), "%s/kcore", proc);
	if (access(from, R_OK)) {
		if (!quiet)
			fprintf(stderr,
				"perf textpoke record: no %s: kcore_dir holds kallsyms "
				"and modules only, kernel text comes from the text pokes\n",
				from);
		return 0;
	}
	snprintf(path, sizeof(path), "%s/kcore_dir/kcore", dir);
	/*
	 * The copies of kallsyms and modules say where the text was when we
	 * copied it.  A kcore we cannot read costs the starting image only,
	 * as perf record goes on without kcore unless --kcore asked for it;
	 * one we cannot write (ENOSPC, EFBIG) means the recording cannot be
	 * written either.
	 */
	snprintf(vmallocinfo, sizeof(vmallocinfo), "%s/vmallocinfo", proc);
	snprintf(times, sizeof(times), "%s/kcore_dir/kcore_times", dir);
	err = __kcore__copy_text(from, kallsyms, modules, vmallocinfo, path, clock, times,
				 &out_failed);
	if (err && out_failed)
		return err;
	if (err && !quiet)
		fprintf(stderr,
			"perf textpoke record: kernel text not copied from %s (%s): "
			"kcore_dir holds kallsyms and modules only\n",
			from, strerror(-err));
	return 0;
}

int kcore_dir__write(const char *dir, bool quiet, const struct kcore_clock *clock)
{
	return kcore_dir__write_from(dir, "/proc", quiet, clock);
}

/* a kallsyms line: where it is in the copy, its address, the module it names */
struct ksym_line {
	u64 addr;
	u32 off, len;
	const char *mod; /* "" for the kernel, else the name between [ and ] */
	u32 mod_len;
	u8 name_off;	/* past the address and the type */
	bool perf_type; /* a type perf loads, so it can hold or end a symbol */
	bool keep;
};

static bool ksym_line__same_mod(const struct ksym_line *x, const struct ksym_line *y)
{
	/* the kernel's lines (no module) are most: no call for them */
	return x->mod_len == y->mod_len && (!x->mod_len || !memcmp(x->mod, y->mod, x->mod_len));
}

static bool ksym__perf_type(char type)
{
	switch (type | 0x20) {
	case 't':
	case 'w':
	case 'd':
	case 'b':
		return true;
	default:
		return false;
	}
}

/* "ffffffff81000000 T _text\t[mod]": 0, or -EINVAL for a line that is none */
static int ksym_line__parse(struct ksym_line *l, const char *p, size_t len)
{
	const char *end = p + len, *name, *br;
	u64 addr = 0;
	int digits = 0;

	/* a 64-bit kernel's lines: 16 digits, parsed at once */
	if (len >= 17 && p[16] == ' ' && kallsyms__addr16(p, &addr)) {
		p += 16;
		digits = 16;
	}
	for (; p < end && digits < 17; p++, digits++) {
		int v = *p >= '0' && *p <= '9'			   ? *p - '0' :
			((*p | 0x20) >= 'a' && (*p | 0x20) <= 'f') ? (*p | 0x20) - 'a' + 10 :
								     -1;

		if (v < 0)
			break;
		addr = addr << 4 | v;
	}
	if (!digits || digits > 16 || end - p < 4 || *p != ' ' || p[2] != ' ')
		return -EINVAL;
	l->addr = addr;
	l->perf_type = ksym__perf_type(p[1]);
	name = p + 3;
	l->name_off = name - (end - len);
	l->mod = "";
	l->mod_len = 0;
	br = memchr(name, '[', end - name);
	if (br) {
		const char *close = memchr(br, ']', end - br);

		if (close) {
			l->mod = br + 1;
			l->mod_len = close - br - 1;
		}
	}
	return 0;
}

static bool ksym_line__named(const struct ksym_line *l, const char *buf, const char *name)
{
	const char *p = buf + l->off + l->name_off, *end = buf + l->off + l->len;
	size_t n = strlen(name);

	return !l->mod_len && (size_t)(end - p) >= n && !memcmp(p, name, n) &&
	       (p + n == end || p[n] == '\t' || p[n] == ' ' || p[n] == '\n');
}

/* the last line at or below @addr among the perf-loaded ones of [lo, hi) */
static long ksym__find(struct ksym_line **v, long lo, long hi, u64 addr)
{
	long found = -1;

	while (lo < hi) {
		long mid = lo + (hi - lo) / 2;

		if (v[mid]->addr <= addr) {
			found = mid;
			lo = mid + 1;
		} else {
			hi = mid;
		}
	}
	while (found >= 0 && !v[found]->perf_type)
		found--;
	return found;
}

static void ksym__keep_around(struct ksym_line **v, long first, long last, u64 addr)
{
	long i = ksym__find(v, first, last + 1, addr), j;

	if (i < first)
		return;
	/* aliases at the same address: the reader picks among them, keep them all */
	for (j = i; j >= first && v[j]->addr == v[i]->addr; j--)
		v[j]->keep = true;
	for (j = i + 1; j <= last && v[j]->addr == v[i]->addr; j++)
		v[j]->keep = true;
	/* the next symbol perf loads, which ends this one */
	while (j <= last && !v[j]->perf_type)
		j++;
	for (u64 next = j <= last ? v[j]->addr : 0; j <= last && v[j]->addr == next; j++)
		v[j]->keep = true;
}

struct ksym_group {
	long first, last; /* indexes in the sorted view */
};

/* where the ascending run of addresses from @v[@i] ends */
static size_t ksym__run_end(struct ksym_line **v, size_t i, size_t n)
{
	while (i + 1 < n && v[i]->addr <= v[i + 1]->addr)
		i++;
	return i + 1;
}

/*
 * @v[0..n) in address order, equal addresses kept in their order: a merge
 * of its ascending runs, pairwise until one is left.  kallsyms lists the
 * kernel's and each module's symbols nearly in address order (a handful
 * of runs each), so this costs a pass or two where a sort costs n log n.
 */
static void ksym__merge_runs(struct ksym_line **v, struct ksym_line **tmp, size_t n)
{
	size_t runs;

	if (ksym__run_end(v, 0, n) >= n)
		return;
	do {
		runs = 0;
		for (size_t a = 0; a < n; runs++) {
			size_t b = ksym__run_end(v, a, n), c = b < n ? ksym__run_end(v, b, n) : n;
			size_t i = a, j = b, o = a;

			/* the left run first on a tie: it came first */
			while (i < b && j < c)
				tmp[o++] = v[j]->addr < v[i]->addr ? v[j++] : v[i++];
			while (i < b)
				tmp[o++] = v[i++];
			while (j < c)
				tmp[o++] = v[j++];
			a = c;
		}
		memcpy(v, tmp, n * sizeof(*v));
	} while (runs > 1);
}

static u32 ksym_mod__hash(const struct ksym_line *l)
{
	u32 h = 2166136261U;

	for (u32 i = 0; i < l->mod_len; i++)
		h = (h ^ (u8)l->mod[i]) * 16777619U;
	return h;
}

/*
 * The sorted view @v of @lines: each module's lines (the kernel's, module
 * "", too) together, in address order, ties in the copy's order; a group
 * per module in @groups.  The lines are dealt into their module's group
 * in the copy's order, then each group merged from its runs: one sort of
 * every line by module and address was the most of a trim's cost.
 * 0 or -ENOMEM.
 */
static int ksym__sorted_view(struct ksym_line *lines, size_t nr_lines, struct ksym_line **v,
			     struct ksym_group *groups, size_t *nr_groups)
{
	size_t runs = 0, size = 16, nr = 0;
	u32 *slots, *group_of;
	struct ksym_line **tmp;
	int err = -ENOMEM;

	for (size_t i = 0; i < nr_lines; i++)
		runs += !i || !ksym_line__same_mod(&lines[i], &lines[i - 1]);
	while (size < 2 * runs)
		size <<= 1;
	/* a module's group + 1 in its hash slot, 0 for a free slot */
	slots = calloc(size, sizeof(*slots));
	group_of = malloc((nr_lines ? nr_lines : 1) * sizeof(*group_of));
	tmp = malloc((nr_lines ? nr_lines : 1) * sizeof(*tmp));
	if (!slots || !group_of || !tmp)
		goto out_free;
	/* first: a line of the group, to compare names with; last: how many lines it has */
	for (size_t i = 0; i < nr_lines; i++) {
		u32 h, g;

		if (i && ksym_line__same_mod(&lines[i], &lines[i - 1])) {
			g = group_of[i - 1];
		} else {
			for (h = ksym_mod__hash(&lines[i]) & (size - 1); slots[h];
			     h = (h + 1) & (size - 1)) {
				if (ksym_line__same_mod(&lines[groups[slots[h] - 1].first],
							&lines[i]))
					break;
			}
			if (!slots[h]) {
				groups[nr] = (struct ksym_group){.first = i, .last = 0};
				slots[h] = ++nr;
			}
			g = slots[h] - 1;
		}
		group_of[i] = g;
		groups[g].last++;
	}
	/* first: where the group starts in @v; last: where its next line goes, then its last */
	for (size_t g = 0, at = 0; g < nr; g++) {
		size_t n = groups[g].last;

		groups[g].first = groups[g].last = at;
		at += n;
	}
	for (size_t i = 0; i < nr_lines; i++)
		v[groups[group_of[i]].last++] = &lines[i];
	for (size_t g = 0; g < nr; g++) {
		groups[g].last--;
		ksym__merge_runs(v + groups[g].first, tmp, groups[g].last - groups[g].first + 1);
	}
	*nr_groups = nr;
	err = 0;
out_free:
	free(tmp);
	free(group_of);
	free(slots);
	return err;
}

static int ksym_group__cmp(const void *a, const void *b, void *arg)
{
	struct ksym_line **v = arg;
	const struct ksym_group *x = a, *y = b;

	return v[x->first]->addr < v[y->first]->addr ? -1 : v[x->first]->addr > v[y->first]->addr;
}

/* a kallsyms copy larger than this is not one */
#define KALLSYMS_MAX (256U << 20)

/*
 * @path mapped read-only (*@buf NULL for an empty file): the copy is
 * megabytes, and reading it into fresh memory cost more in page faults
 * than the trim's parse
 */
static int map_file(const char *path, const char **buf, size_t *len)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC), err = 0;
	void *p;

	*buf = NULL;
	*len = 0;
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		err = -errno;
		goto out_close;
	}
	if (st.st_size > KALLSYMS_MAX) {
		err = -EFBIG;
		goto out_close;
	}
	if (st.st_size) {
		p = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (p == MAP_FAILED) {
			err = -errno;
			goto out_close;
		}
		*buf = p;
		*len = st.st_size;
	}
out_close:
	close(fd);
	return err;
}

struct kallsyms_copy {
	char path[4096], tmp[4096];
	const char *buf; /* the copy, mapped; NULL when it is empty */
	size_t len;
	struct ksym_line *lines; /* its lines, in its order */
	size_t nr_lines;
};

int kallsyms_copy__new(const char *kcore_dir, struct kallsyms_copy **out)
{
	struct kallsyms_copy *kc = calloc(1, sizeof(*kc));
	size_t alloc = 0;
	int err;

	*out = NULL;
	if (!kc)
		return -ENOMEM;
	snprintf(kc->path, sizeof(kc->path), "%s/kallsyms", kcore_dir);
	snprintf(kc->tmp, sizeof(kc->tmp), "%s/.kallsyms.tmp", kcore_dir);
	err = map_file(kc->path, &kc->buf, &kc->len);
	if (err)
		goto out_delete;
	for (size_t off = 0; off < kc->len;) {
		const char *nl = memchr(kc->buf + off, '\n', kc->len - off);
		size_t l = nl ? (size_t)(nl - kc->buf - off) + 1 : kc->len - off;
		struct ksym_line *line;

		if (kc->nr_lines == alloc) {
			size_t n = alloc ? alloc * 2 : 1 << 16;
			struct ksym_line *t = realloc(kc->lines, n * sizeof(*t));

			err = -ENOMEM;
			if (!t)
				goto out_delete;
			kc->lines = t;
			alloc = n;
		}
		line = &kc->lines[kc->nr_lines];
		memset(line, 0, sizeof(*line));
		if (!ksym_line__parse(line, kc->buf + off, l)) {
			line->off = off;
			line->len = l;
			kc->nr_lines++;
		}
		off += l;
	}
	*out = kc;
	return 0;
out_delete:
	kallsyms_copy__delete(kc);
	return err;
}

void kallsyms_copy__delete(struct kallsyms_copy *kc)
{
	if (!kc)
		return;
	if (kc->buf)
		munmap((void *)kc->buf, kc->len);
	free(kc->lines);
	free(kc);
}

int kallsyms_copy__for_each(const struct kallsyms_copy *kc,
			    int (*cb)(void *arg, const struct kallsyms_copy_sym *sym), void *arg)
{
	for (size_t i = 0; i < kc->nr_lines; i++) {
		const struct ksym_line *l = &kc->lines[i];
		const char *line = kc->buf + l->off, *name = line + l->name_off;
		const char *end = line + l->len, *tab = memchr(name, '\t', end - name);
		struct kallsyms_copy_sym sym = {
		    .name = name,
		    .type = line[l->name_off - 2],
		    .addr = l->addr,
		    .mod = l->mod_len ? l->mod : NULL,
		    .mod_len = l->mod_len,
		};
		int err;

		/* "name\t[mod]\n" or "name\n" */
		if (tab)
			end = tab;
		else if (end > name && end[-1] == '\n')
			end--;
		sym.name_len = end - name;
		err = cb(arg, &sym);
		if (err)
			return err;
	}
	return 0;
}

int kallsyms_copy__trim(struct kallsyms_copy *kc, const u64 *ips, size_t nr)
{
	struct ksym_line *lines = kc->lines, **v = NULL;
	struct ksym_group *groups = NULL;
	size_t nr_lines = kc->nr_lines, nr_groups = 0, out_len = 0;
	const char *buf = kc->buf;
	char *out = NULL;
	int fd = -1, err = -ENOMEM;

	for (size_t i = 0; i < nr_lines; i++)
		lines[i].keep = false;
	v = malloc((nr_lines ? nr_lines : 1) * sizeof(*v));
	groups = malloc((nr_lines ? nr_lines : 1) * sizeof(*groups));
	if (!v || !groups)
		goto out_free;
	err = ksym__sorted_view(lines, nr_lines, v, groups, &nr_groups);
	if (err)
		goto out_free;
	for (size_t i = 0; i < nr_lines; i++) {
		struct ksym_line *l = &lines[i];
		const char *name = buf + l->off + l->name_off;

		/* the kernel's bounds, which readers look for by name: "__" starts thousands */
		if (!l->mod_len && name[0] == '_' && l->name_off + 1u < l->len && name[1] != '_' &&
		    (ksym_line__named(l, buf, "_text") || ksym_line__named(l, buf, "_stext") ||
		     ksym_line__named(l, buf, "_etext")))
			l->keep = true;
	}
	for (size_t g = 0; g < nr_groups; g++) {
		v[groups[g].first]->keep = true;
		v[groups[g].last]->keep = true;
	}
	qsort_r(groups, nr_groups, sizeof(*groups), ksym_group__cmp, v);
	for (size_t i = 0; i < nr; i++) {
		size_t lo = 0, hi = nr_groups;

		/* the groups starting at or below the ip */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (v[groups[mid].first]->addr <= ips[i])
				lo = mid + 1;
			else
				hi = mid;
		}
		/*
		 * Not only the highest: BPF programs, kprobe slot pages and
		 * ftrace trampolines are scattered over the module area, so
		 * their pseudo-modules' ranges hold real modules' and each
		 * other's; every group whose range holds the ip keeps its own
		 * symbol there.
		 */
		for (size_t g = lo; g-- > 0;) {
			if (v[groups[g].last]->addr >= ips[i])
				ksym__keep_around(v, groups[g].first, groups[g].last, ips[i]);
		}
	}
	fd = open(kc->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		err = -errno;
		goto out_free;
	}
	/*
	 * In the copy's own order: readers see the table as the kernel listed
	 * it.  Gathered and written at once: a write per kept line cost as
	 * much as the trim itself.
	 */
	for (size_t i = 0; i < nr_lines; i++)
		out_len += lines[i].keep ? lines[i].len : 0;
	out = malloc(out_len ? out_len : 1);
	err = -ENOMEM;
	if (!out)
		goto out_close;
	out_len = 0;
	for (size_t i = 0; i < nr_lines; i++) {
		if (!lines[i].keep)
			continue;
		memcpy(out + out_len, buf + lines[i].off, lines[i].len);
		out_len += lines[i].len;
	}
	err = pwrite_all(fd, out, out_len, 0);
out_close:
	if (close(fd) && !err)
		err = -errno;
	if (!err && rename(kc->tmp, kc->path))
		err = -errno;
	if (err)
		unlink(kc->tmp);
out_free:
	free(groups);
	free(v);
	free(out);
	return err;
}

int kcore_dir__trim_kallsyms(const char *dir, const u64 *ips, size_t nr)
{
	struct kallsyms_copy *kc;
	char path[4096];
	int err;

	snprintf(path, sizeof(path), "%s/kcore_dir", dir);
	err = kallsyms_copy__new(path, &kc);
	if (!err)
		err = kallsyms_copy__trim(kc, ips, nr);
	kallsyms_copy__delete(kc);
	return err;
}

u64 kcore_dir__size(const char *dir)
{
	char path[4096];
	struct dirent *de;
	struct stat st;
	u64 total = 0;
	DIR *d;

	snprintf(path, sizeof(path), "%s/kcore_dir", dir);
	d = opendir(path);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (!fstatat(dirfd(d), de->d_name, &st, 0) && S_ISREG(st.st_mode))
			total += st.st_size;
	}
	closedir(d);
	return total;
}
