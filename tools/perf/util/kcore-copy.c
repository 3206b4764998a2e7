// SPDX-License-Identifier: GPL-2.0-only
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "debug.h"
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

/* lowest module start to highest module end; 0 when there are none */
static void modules__range(const char *path, struct addr_range *r)
{
	char line[1024];
	unsigned long long size, addr;
	FILE *f = path ? fopen(path, "r") : NULL;

	r->start = r->end = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, " 0x");

		if (sscanf(line, "%*s %llu", &size) != 1 || !p ||
		    sscanf(p + 1, "%llx", &addr) != 1 || !addr)
			continue;
		if (!r->start || addr < r->start)
			r->start = addr;
		if (addr + size > r->end)
			r->end = addr + size;
	}
	fclose(f);
	r->start &= ~(KCORE_PAGE - 1);
	r->end = (r->end + KCORE_PAGE - 1) & ~(KCORE_PAGE - 1);
}

struct kcore_piece {
	u64 vaddr, src_off, size;
};

static int copy_bytes(int in, u64 in_off, int out, u64 out_off, u64 size)
{
	static u8 buf[1 << 16];

	while (size) {
		size_t n = size < sizeof(buf) ? size : sizeof(buf);
		ssize_t r = pread(in, buf, n, in_off);
		int err;

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
		size -= r;
	}
	return 0;
}

/* as kcore__copy_text(); *@out_failed says the error was in writing @out */
static int __kcore__copy_text(const char *kcore, const char *kallsyms, const char *modules,
			      const char *out, bool *out_failed)
{
	struct kcore_piece pieces[2 * 64];
	struct addr_range want[2];
	Elf64_Ehdr eh, oh;
	Elf64_Phdr *ph = NULL;
	int in, fd = -1, nr = 0, err;
	u64 total = 0, off;

	err = kallsyms__text(kallsyms, &want[0]);
	if (err) {
		pr_err("%s: no _stext/_etext, cannot tell where kernel text is\n", kallsyms);
		return err;
	}
	modules__range(modules, &want[1]);
	in = open(kcore, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -errno;
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
	for (int w = 0; w < 2; w++) {
		if (want[w].end <= want[w].start)
			continue;
		for (int i = 0; i < eh.e_phnum && nr < (int)ARRAY_SIZE(pieces); i++) {
			u64 lo, hi;

			if (ph[i].p_type != PT_LOAD ||
			    ph[i].p_vaddr + ph[i].p_filesz < ph[i].p_vaddr)
				continue;
			lo = ph[i].p_vaddr > want[w].start ? ph[i].p_vaddr : want[w].start;
			hi = ph[i].p_vaddr + ph[i].p_filesz < want[w].end ?
				 ph[i].p_vaddr + ph[i].p_filesz :
				 want[w].end;
			if (lo >= hi)
				continue;
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
		       (unsigned long long)want[0].start);
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
			err = copy_bytes(in, pieces[i].src_off, fd, off, pieces[i].size);
		if (err)
			goto out_close;
		off = (off + pieces[i].size + KCORE_PAGE - 1) & ~(KCORE_PAGE - 1);
	}
	err = 0;
out_close:
	if (fd >= 0 && close(fd) && !err)
		err = -errno;
	if (err && fd >= 0)
		unlink(out);
	free(ph);
	close(in);
	return err;
}

int kcore__copy_text(const char *kcore, const char *kallsyms, const char *modules, const char *out)
{
	bool out_failed = false;

	return __kcore__copy_text(kcore, kallsyms, modules, out, &out_failed);
}

int kcore_dir__write_from(const char *dir, const char *proc, bool quiet)
{
	char path[4096], from[4096], kallsyms[4096], modules[4096];
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
	err = __kcore__copy_text(from, kallsyms, modules, path, &out_failed);
	if (err && out_failed)
		return err;
	if (err && !quiet)
		fprintf(stderr,
			"perf textpoke record: kernel text not copied from %s (%s): "
			"kcore_dir holds kallsyms and modules only\n",
			from, strerror(-err));
	return 0;
}

int kcore_dir__write(const char *dir, bool quiet)
{
	return kcore_dir__write_from(dir, "/proc", quiet);
}
