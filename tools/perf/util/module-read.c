// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reading one loaded module for the recorder: its layout from sysfs, its
 * code from /proc/kcore, its kallsyms lines; and writing what was read
 * into kcore_dir.  See module-read.h.
 */
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "debug.h"
#include "kallsyms.h"
#include "module-read.h"
#include "write-all.h"

#define MODULE_PAGE 4096ULL
/* /proc/kcore has a few dozen segments */
#define KCORE_MAX_PHDRS 4096
/* no module is larger; more is a sysfs we misread */
#define MODULE_MAX_SIZE (1ULL << 30)

void module_code__exit(struct module_code *mc)
{
	zfree(&mc->text);
	zfree(&mc->init_text);
	zfree(&mc->kallsyms);
	mc->kallsyms_len = 0;
}

/* the first line of @path as a number (0x hex or decimal); 0 or -errno */
static int read_u64_file(const char *path, u64 *v)
{
	char buf[64];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;
	char *end;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return n < 0 ? -errno : -ENODATA;
	buf[n] = '\0';
	errno = 0;
	*v = strtoull(buf, &end, 0);
	if (errno || end == buf)
		return -EINVAL;
	return 0;
}

/*
 * Code sections of an x86 module: .text and its .text.* kin, the named
 * ones (.init.text, .exit.text, .noinstr.text, .sched.text,
 * .static_call.text ...) and the alternatives' replacements.
 */
static bool section__is_code(const char *name)
{
	size_t n = strlen(name);

	return !strncmp(name, ".text", 5) || (n > 5 && !strcmp(name + n - 5, ".text")) ||
	       strstr(name, ".text.") || !strcmp(name, ".altinstr_replacement") ||
	       !strcmp(name, ".fixup");
}

/* the kernel puts the sections named .init* in the init allocation */
static bool section__is_init(const char *name)
{
	return !strncmp(name, ".init", 5);
}

struct module_section {
	char name[64];
	u64 addr;
};

/* every section's address; the number of them or -errno */
static int module_read__sections(const char *dir, struct module_section **out)
{
	struct module_section *secs = NULL;
	int nr = 0, alloc = 0, err = 0;
	char path[4096];
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		u64 addr;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    strlen(de->d_name) >= sizeof(secs->name))
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >= (int)sizeof(path))
			continue;
		err = read_u64_file(path, &addr);
		/* gone while we read: the module went */
		if (err == -ENOENT)
			break;
		if (err) {
			err = 0;
			continue;
		}
		if (nr == alloc) {
			struct module_section *tmp;

			alloc = alloc ? 2 * alloc : 32;
			tmp = realloc(secs, alloc * sizeof(*tmp));
			if (!tmp) {
				err = -ENOMEM;
				break;
			}
			secs = tmp;
		}
		snprintf(secs[nr].name, sizeof(secs[nr].name), "%s", de->d_name);
		secs[nr++].addr = addr;
	}
	closedir(d);
	if (err) {
		free(secs);
		return err;
	}
	*out = secs;
	return nr;
}

/*
 * The code of an allocation [@a->addr, +len): from its start up to the
 * first other section in it, when a code section starts it.
 */
static void module_layout__text(const struct module_section *secs, int nr,
				const struct module_range *a, struct module_range *text)
{
	u64 end = a->addr + a->len;
	bool starts_with_code = false;

	text->addr = a->addr;
	text->len = 0;
	if (!a->len)
		return;
	for (int i = 0; i < nr; i++) {
		if (!module_range__has(a, secs[i].addr))
			continue;
		if (!section__is_code(secs[i].name)) {
			if (secs[i].addr < end)
				end = secs[i].addr;
		} else if (secs[i].addr == a->addr) {
			starts_with_code = true;
		}
	}
	if (starts_with_code)
		text->len = end - a->addr;
}

int module_read__layout(struct module_code *mc, const char *sys)
{
	struct module_load *ml = &mc->ml;
	struct module_section *secs = NULL;
	u64 core_lo = ~0ULL, init_lo = ~0ULL, init_hi = 0, core_size = 0, init_size = 0;
	char dir[4096], path[4096];
	int nr, err;

	if (snprintf(dir, sizeof(dir), "%s/module/%s", sys, ml->name) >= (int)sizeof(dir) - 16)
		return -ENAMETOOLONG;
	snprintf(path, sizeof(path), "%.4070s/coresize", dir);
	err = read_u64_file(path, &core_size);
	if (err)
		return err;
	snprintf(path, sizeof(path), "%.4070s/initsize", dir);
	/* 0 once init is over: then there is no init allocation to read */
	if (read_u64_file(path, &init_size))
		init_size = 0;
	snprintf(path, sizeof(path), "%.4070s/sections", dir);
	nr = module_read__sections(path, &secs);
	if (nr < 0)
		return nr;
	err = -ENODATA;
	for (int i = 0; i < nr; i++) {
		u64 *lo = section__is_init(secs[i].name) ? &init_lo : &core_lo;

		if (secs[i].addr && secs[i].addr < *lo)
			*lo = secs[i].addr;
		if (section__is_init(secs[i].name) && secs[i].addr > init_hi)
			init_hi = secs[i].addr;
		if (!secs[i].addr)
			err = -EPERM;
	}
	if (core_lo == ~0ULL || core_size > MODULE_MAX_SIZE || init_size > MODULE_MAX_SIZE ||
	    core_lo + core_size < core_lo)
		goto out_free;
	ml->core = (struct module_range){core_lo, core_size};
	if (init_size && init_lo != ~0ULL && init_lo + init_size > init_lo)
		ml->init = (struct module_range){init_lo, init_size};
	module_layout__text(secs, nr, &ml->core, &ml->text);
	module_layout__text(secs, nr, &ml->init, &ml->init_text);
	/*
	 * Read after its init (initsize 0): the init sections' addresses
	 * stay in sysfs, so the allocation's place is known, its size only
	 * up to the page of its last section (each part starts a page).
	 * Its code is gone: nothing of it to read.
	 */
	if (!init_size && init_lo != ~0ULL && init_hi - init_lo < MODULE_MAX_SIZE) {
		ml->init =
		    (struct module_range){init_lo, ((init_hi | (MODULE_PAGE - 1)) + 1) - init_lo};
		ml->init_text = (struct module_range){init_lo, 0};
	}
	err = 0;
out_free:
	free(secs);
	return err;
}

struct kcore_phdrs {
	int nr;
	Elf64_Phdr *ph;
};

static int kcore_phdrs__read(int fd, struct kcore_phdrs *k)
{
	Elf64_Ehdr eh;

	if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_phentsize != sizeof(Elf64_Phdr) ||
	    !eh.e_phnum || eh.e_phnum > KCORE_MAX_PHDRS)
		return -ENOEXEC;
	k->ph = calloc(eh.e_phnum, sizeof(*k->ph));
	if (!k->ph)
		return -ENOMEM;
	k->nr = eh.e_phnum;
	if (pread(fd, k->ph, k->nr * sizeof(*k->ph), eh.e_phoff) !=
	    (ssize_t)(k->nr * sizeof(*k->ph))) {
		zfree(&k->ph);
		return -ENOEXEC;
	}
	return 0;
}

/* @r's bytes from the kcore segment that holds all of it */
static int kcore__read_range(int fd, const struct kcore_phdrs *k, const struct module_range *r,
			     u8 **out)
{
	u8 *buf;

	for (int i = 0; i < k->nr; i++) {
		const Elf64_Phdr *p = &k->ph[i];
		ssize_t n;

		if (p->p_type != PT_LOAD || r->addr < p->p_vaddr ||
		    r->addr - p->p_vaddr > p->p_filesz ||
		    r->len > p->p_filesz - (r->addr - p->p_vaddr))
			continue;
		buf = malloc(r->len);
		if (!buf)
			return -ENOMEM;
		n = pread(fd, buf, r->len, p->p_offset + (r->addr - p->p_vaddr));
		if (n != (ssize_t)r->len) {
			free(buf);
			return n < 0 ? -errno : -EIO;
		}
		*out = buf;
		return 0;
	}
	return -ERANGE;
}

int module_read__code(struct module_code *mc, const char *proc)
{
	struct kcore_phdrs k = {0};
	char path[4096];
	int fd, err;

	snprintf(path, sizeof(path), "%s/kcore", proc);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	err = kcore_phdrs__read(fd, &k);
	/* the init code first: it is the one freed soonest */
	if (!err && mc->ml.init_text.len)
		err = kcore__read_range(fd, &k, &mc->ml.init_text, &mc->init_text);
	if (!err && mc->ml.text.len)
		err = kcore__read_range(fd, &k, &mc->ml.text, &mc->text);
	if (err) {
		zfree(&mc->text);
		zfree(&mc->init_text);
	}
	free(k.ph);
	close(fd);
	return err;
}

/* the kallsyms lines of one module, as they are gathered */
struct kallsyms_buf {
	char *buf;
	size_t len, alloc;
};

struct kallsyms_lines {
	struct module_code **mcs;
	struct kallsyms_buf *bufs;
	size_t nr_mcs;
	bool (*stop)(void *arg);
	void *stop_arg;
	unsigned int nr;
};

static int kallsyms_buf__add(struct kallsyms_buf *b, const char *line, int n)
{
	if (b->len + n + 1 > b->alloc) {
		size_t a = b->alloc ? 2 * b->alloc : 4096;
		char *tmp;

		while (a < b->len + n + 1)
			a *= 2;
		tmp = realloc(b->buf, a);
		if (!tmp)
			return -ENOMEM;
		b->buf = tmp;
		b->alloc = a;
	}
	memcpy(b->buf + b->len, line, n + 1);
	b->len += n;
	return 0;
}

static int kallsyms_lines__add(void *arg, const char *name, char type, u64 start,
			       const char *module)
{
	struct kallsyms_lines *l = arg;
	char line[512];
	int n = -1;

	/* a syscall every 1024 lines: the whole table is some 100,000 */
	if (l->stop && !(++l->nr % 1024) && l->stop(l->stop_arg))
		return -EINTR;
	if (!module)
		return 0;
	for (size_t i = 0; i < l->nr_mcs; i++) {
		const struct module_load *ml = &l->mcs[i]->ml;

		if (strcmp(module, ml->name) ||
		    (!module_range__has(&ml->core, start) && !module_range__has(&ml->init, start)))
			continue;
		if (n < 0)
			n = snprintf(line, sizeof(line), "%016" PRIx64 " %c %s\t[%s]\n", start,
				     type, name, module);
		if (n >= (int)sizeof(line))
			return 0;
		if (kallsyms_buf__add(&l->bufs[i], line, n))
			return -ENOMEM;
	}
	return 0;
}

int module_read__kallsyms(struct module_code **mcs, size_t nr, const char *proc,
			  bool (*stop)(void *arg), void *stop_arg)
{
	struct kallsyms_lines l = {.mcs = mcs, .nr_mcs = nr, .stop = stop, .stop_arg = stop_arg};
	char path[4096];
	int err;

	if (!nr)
		return 0;
	l.bufs = calloc(nr, sizeof(*l.bufs));
	if (!l.bufs)
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s/kallsyms", proc);
	err = kallsyms__parse(path, &l, kallsyms_lines__add);
	for (size_t i = 0; i < nr; i++) {
		/* none: unloaded before we got here */
		if (err < 0 || !l.bufs[i].len) {
			free(l.bufs[i].buf);
			continue;
		}
		free(mcs[i]->kallsyms);
		mcs[i]->kallsyms = l.bufs[i].buf;
		mcs[i]->kallsyms_len = l.bufs[i].len;
	}
	free(l.bufs);
	return err < 0 ? err : 0;
}

/* an ELF64 core with one PT_LOAD per range read, as kcore_dir/kcore is laid out */
static int module_code__write_core(const struct module_code *mc, const char *path)
{
	const struct module_range *r[2] = {&mc->ml.text, &mc->ml.init_text};
	const u8 *bytes[2] = {mc->text, mc->init_text};
	Elf64_Phdr ph[2];
	Elf64_Ehdr eh;
	u64 off;
	int fd, nr = 0, err;

	memset(&eh, 0, sizeof(eh));
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = ET_CORE;
	eh.e_machine = EM_X86_64;
	eh.e_version = EV_CURRENT;
	eh.e_phoff = sizeof(eh);
	eh.e_ehsize = sizeof(eh);
	eh.e_phentsize = sizeof(Elf64_Phdr);
	off = MODULE_PAGE;
	for (int i = 0; i < 2; i++) {
		if (!bytes[i] || !r[i]->len)
			continue;
		ph[nr] = (Elf64_Phdr){
		    .p_type = PT_LOAD,
		    .p_flags = PF_R | PF_X,
		    .p_offset = off,
		    .p_vaddr = r[i]->addr,
		    .p_filesz = r[i]->len,
		    .p_memsz = r[i]->len,
		    .p_align = MODULE_PAGE,
		};
		off = (off + r[i]->len + MODULE_PAGE - 1) & ~(MODULE_PAGE - 1);
		nr++;
	}
	if (!nr)
		return 0;
	eh.e_phnum = nr;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0400);
	if (fd < 0)
		return -errno;
	err = pwrite_all(fd, &eh, sizeof(eh), 0);
	if (!err)
		err = pwrite_all(fd, ph, nr * sizeof(ph[0]), sizeof(eh));
	for (int i = 0, j = 0; i < 2 && !err; i++) {
		if (!bytes[i] || !r[i]->len)
			continue;
		err = pwrite_all(fd, bytes[i], r[i]->len, ph[j++].p_offset);
	}
	if (close(fd) && !err)
		err = -errno;
	if (err)
		unlink(path);
	return err;
}

int module_code__write(const struct module_code *mc, const char *kcore_dir)
{
	char path[4096];
	int fd, err;

	snprintf(path, sizeof(path), "%s/module.%u.kcore", kcore_dir, mc->ml.seq);
	err = module_code__write_core(mc, path);
	if (err || !mc->kallsyms_len)
		return err;
	snprintf(path, sizeof(path), "%s/module.%u.kallsyms", kcore_dir, mc->ml.seq);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	err = pwrite_all(fd, mc->kallsyms, mc->kallsyms_len, 0);
	if (close(fd) && !err)
		err = -errno;
	if (err)
		unlink(path);
	return err;
}
