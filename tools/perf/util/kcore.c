// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel code from a kcore copy or a vmlinux, mmap'd and borrowed: the
 * text image keeps pointers into the mapping rather than a copy, so a
 * 30 MB kcore costs page cache, not heap.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gelf.h>
#include <libelf.h>

#include "build-id.h"
#include "debug.h"
#include "input-file.h"
#include "kcore.h"

/*
 * /proc/kcore has a handful of segments, but an inject --snapshot core
 * has one per range of known bytes (with no kcore, one per poked site):
 * as many as the ELF writer writes, and more means a hostile file
 */
#define KCORE_MAX_SEGMENTS 65536

/*
 * "<file>: <what is wrong>": an error, or with @kcore->optional a warning,
 * since the caller goes on without the file.
 */
static void __printf(2, 3) kcore__refuse(const struct kcore *kcore, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (kcore->optional)
		pr_warning("%s: %s: not used\n", kcore->path, buf);
	else
		pr_err("%s: %s\n", kcore->path, buf);
}

void kcore__delete(struct kcore *kcore)
{
	if (!kcore)
		return;
	if (kcore->map && kcore->map != MAP_FAILED)
		munmap(kcore->map, kcore->map_len);
	if (kcore->areas != kcore->segments)
		free(kcore->areas);
	free(kcore->segments);
	free(kcore->reads);
	free(kcore->path);
	free(kcore);
}

static const struct kcore_segment *segments__find(const struct kcore_segment *v, int nr, u64 addr)
{
	int lo = 0, hi = nr;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		const struct kcore_segment *s = &v[mid];

		if (addr < s->addr)
			hi = mid;
		else if (addr - s->addr >= s->len)
			lo = mid + 1;
		else
			return s;
	}
	return NULL;
}

const struct kcore_segment *kcore__find(const struct kcore *kcore, u64 addr)
{
	return segments__find(kcore->segments, kcore->nr_segments, addr);
}

bool kcore__in_area(const struct kcore *kcore, u64 addr)
{
	if (!kcore->areas)
		return kcore__find(kcore, addr) != NULL;
	return segments__find(kcore->areas, kcore->nr_areas, addr) != NULL;
}

#define KCORE_PAGE 4096ULL

static bool zero_page(const u8 *p)
{
	for (size_t i = 0; i < KCORE_PAGE; i += sizeof(u64)) {
		u64 w;

		memcpy(&w, p + i, sizeof(w));
		if (w)
			return false;
	}
	return true;
}

static int segments__push(struct kcore_segment **v, int *nr, int *alloc, u64 addr, u64 len,
			  const u8 *bytes)
{
	if (*nr == *alloc) {
		int n = *alloc ? 2 * *alloc : 8;
		void *p = realloc(*v, n * sizeof(**v));

		if (!p)
			return -ENOMEM;
		*v = p;
		*alloc = n;
	}
	(*v)[(*nr)++] = (struct kcore_segment){addr, len, bytes};
	return 0;
}

/*
 * Split the segments around every whole page (by address) that holds
 * zeros only: what /proc/kcore gives for a page nothing maps.  A mapped
 * page of zeros is no code anyone runs, so calling it unknown loses
 * nothing; calling an unmapped one "00 00 ..." was the lie.  The file's
 * segments stay in @areas.  A page that the segment holds only in part
 * is kept: it may be a known range of a file written by other means.
 */
static int kcore__drop_zero_pages(struct kcore *kcore)
{
	struct kcore_segment *out = NULL;
	int nr = 0, alloc = 0, err = 0;

	for (int i = 0; i < kcore->nr_segments && !err; i++) {
		const struct kcore_segment *s = &kcore->segments[i];
		u64 run = s->addr, end = s->addr + s->len;

		for (u64 a = (s->addr + KCORE_PAGE - 1) & ~(KCORE_PAGE - 1);
		     a >= s->addr && a + KCORE_PAGE <= end && !err; a += KCORE_PAGE) {
			if (!zero_page(s->bytes + (a - s->addr)))
				continue;
			if (a > run)
				err = segments__push(&out, &nr, &alloc, run, a - run,
						     s->bytes + (run - s->addr));
			run = a + KCORE_PAGE;
		}
		if (!err && end > run)
			err = segments__push(&out, &nr, &alloc, run, end - run,
					     s->bytes + (run - s->addr));
	}
	if (err) {
		free(out);
		return err;
	}
	kcore->areas = kcore->segments;
	kcore->nr_areas = kcore->nr_segments;
	kcore->segments = out;
	kcore->nr_segments = nr;
	return 0;
}

static int segment__cmp(const void *a, const void *b)
{
	const struct kcore_segment *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static struct kcore *kcore__map(const char *path, bool optional)
{
	struct kcore *kcore = calloc(1, sizeof(*kcore));
	struct stat st;
	int fd, err;

	if (!kcore || !(kcore->path = strdup(path))) {
		err = ENOMEM;
		goto out_delete;
	}
	kcore->optional = optional;
	fd = input_file__open(path, &st);
	if (fd < 0) {
		err = -fd;
		kcore__refuse(kcore, "%s", input_file__strerror(fd));
		goto out_delete;
	}
	if (st.st_size == 0) {
		err = ENOEXEC;
		kcore__refuse(kcore, "empty file");
		close(fd);
		goto out_delete;
	}
	kcore->map_len = st.st_size;
	kcore->map = mmap(NULL, kcore->map_len, PROT_READ, MAP_PRIVATE, fd, 0);
	err = errno;
	close(fd);
	if (kcore->map == MAP_FAILED) {
		kcore__refuse(kcore, "cannot map: %s", strerror(err));
		goto out_delete;
	}
	return kcore;

out_delete:
	kcore__delete(kcore);
	errno = err;
	return NULL;
}

static int kcore__add(struct kcore *kcore, u64 addr, u64 offset, u64 len, int *alloc)
{
	struct kcore_segment *s;

	if (!len)
		return 0;
	if (offset > kcore->map_len || len > kcore->map_len - offset) {
		kcore__refuse(
		    kcore,
		    "segment at %#llx: %#llx bytes at offset %#llx pass the end of the file "
		    "(%#zx bytes, truncated?)",
		    (unsigned long long)addr, (unsigned long long)len, (unsigned long long)offset,
		    kcore->map_len);
		return -EINVAL;
	}
	if (addr + len < addr) {
		kcore__refuse(kcore, "segment at %#llx of %#llx bytes wraps around",
			      (unsigned long long)addr, (unsigned long long)len);
		return -EINVAL;
	}
	if (kcore->nr_segments >= KCORE_MAX_SEGMENTS) {
		kcore__refuse(kcore, "more than %d code segments", KCORE_MAX_SEGMENTS);
		return -E2BIG;
	}
	if (kcore->nr_segments == *alloc) {
		int n = *alloc ? 2 * *alloc : 8;

		s = realloc(kcore->segments, n * sizeof(*s));
		if (!s)
			return -ENOMEM;
		kcore->segments = s;
		*alloc = n;
	}
	s = &kcore->segments[kcore->nr_segments++];
	s->addr = addr;
	s->len = len;
	s->bytes = (const u8 *)kcore->map + offset;
	return 0;
}

/*
 * A file without code is no starting image; overlapping segments would
 * make "which bytes" ambiguous: refuse both.
 */
static int kcore__finish(struct kcore *kcore, bool class64)
{
	u64 upper = class64 ? 1ULL << 63 : 1ULL << 31;
	int i;

	if (!kcore->nr_segments) {
		kcore__refuse(kcore, "no kernel code in it: %s",
			      kcore->vmlinux ? "no allocated, executable section with bytes" :
					       "no executable PT_LOAD segment with bytes");
		return -ENOEXEC;
	}
	qsort(kcore->segments, kcore->nr_segments, sizeof(*kcore->segments), segment__cmp);
	kcore->upper_half = kcore->segments[0].addr >= upper;
	for (i = 1; i < kcore->nr_segments; i++) {
		const struct kcore_segment *a = &kcore->segments[i - 1], *b = &kcore->segments[i];

		if (b->addr < a->addr + a->len) {
			kcore__refuse(kcore, "code segments at %#llx and %#llx overlap",
				      (unsigned long long)a->addr, (unsigned long long)b->addr);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * What libelf takes on trust: it reads a program header table past the
 * end of the file as no segments at all, and a damaged identification as
 * another file's layout.  Say what is wrong, and where, before it does.
 */
static int kcore__check_ident(struct kcore *kcore)
{
	const unsigned char *id = kcore->map;
	size_t ehsize;

	if (kcore->map_len < EI_NIDENT || memcmp(id, ELFMAG, SELFMAG)) {
		kcore__refuse(kcore, "not an ELF file (no ELF magic at offset 0)");
		return -ENOEXEC;
	}
	if (id[EI_CLASS] != ELFCLASS32 && id[EI_CLASS] != ELFCLASS64) {
		kcore__refuse(kcore, "ELF class %u at offset %#x: neither 32- nor 64-bit",
			      id[EI_CLASS], EI_CLASS);
		return -ENOEXEC;
	}
	if (id[EI_DATA] != ELFDATA2LSB && id[EI_DATA] != ELFDATA2MSB) {
		kcore__refuse(kcore,
			      "ELF data encoding %u at offset %#x: neither little nor big endian",
			      id[EI_DATA], EI_DATA);
		return -ENOEXEC;
	}
	if (id[EI_VERSION] != EV_CURRENT) {
		kcore__refuse(kcore, "ELF version %u at offset %#x, expected %u", id[EI_VERSION],
			      EI_VERSION, EV_CURRENT);
		return -ENOEXEC;
	}
	ehsize = id[EI_CLASS] == ELFCLASS64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
	if (kcore->map_len < ehsize) {
		kcore__refuse(kcore, "truncated at %#zx, inside the %zu-byte ELF header",
			      kcore->map_len, ehsize);
		return -ENOEXEC;
	}
	return 0;
}

/* the @what table, @nr entries of @size bytes (@want each) at @off, inside the file */
static int kcore__check_table(struct kcore *kcore, const char *what, u64 off, size_t nr,
			      unsigned int size, size_t want)
{
	if (!nr)
		return 0;
	if (!want || size != want) {
		kcore__refuse(kcore, "%s table entries of %u bytes, expected %zu", what, size,
			      want);
		return -ENOEXEC;
	}
	if (off > kcore->map_len || nr > (kcore->map_len - off) / size) {
		kcore__refuse(kcore,
			      "the %s table (%zu x %u bytes at offset %#llx) passes the end of "
			      "the file at %#zx (truncated?)",
			      what, nr, size, (unsigned long long)off, kcore->map_len);
		return -ENOEXEC;
	}
	return 0;
}

static Elf *kcore__elf(struct kcore *kcore, Elf_Kind kind)
{
	Elf *elf;

	if (kcore__check_ident(kcore))
		return NULL;
	elf_version(EV_CURRENT);
	elf = elf_memory(kcore->map, kcore->map_len);
	if (!elf || elf_kind(elf) != kind) {
		kcore__refuse(kcore, "not an ELF file");
		if (elf)
			elf_end(elf);
		return NULL;
	}
	return elf;
}

/* the executable PT_LOAD segments of an ELF core */
static int kcore__add_segments(struct kcore *kcore, Elf *elf, const GElf_Ehdr *ehdr)
{
	int alloc = 0, err;
	size_t i, n;

	if (ehdr->e_type != ET_CORE) {
		kcore__refuse(kcore, "ELF type %d, not a core file (a vmlinux? use --vmlinux)",
			      ehdr->e_type);
		return -ENOEXEC;
	}
	/* libelf counts a table that passes the end of the file as none: look first */
	if (ehdr->e_phnum != PN_XNUM &&
	    kcore__check_table(kcore, "program header", ehdr->e_phoff, ehdr->e_phnum,
			       ehdr->e_phentsize, gelf_fsize(elf, ELF_T_PHDR, 1, EV_CURRENT)))
		return -ENOEXEC;
	if (elf_getphdrnum(elf, &n)) {
		kcore__refuse(kcore, "bad program headers: %s", elf_errmsg(-1));
		return -ENOEXEC;
	}
	/* PN_XNUM: the count is in section 0, known only now */
	err = ehdr->e_phnum != PN_XNUM ?
		  0 :
		  kcore__check_table(kcore, "program header", ehdr->e_phoff, n, ehdr->e_phentsize,
				     gelf_fsize(elf, ELF_T_PHDR, 1, EV_CURRENT));
	for (i = 0; i < n && !err; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, i, &ph)) {
			kcore__refuse(kcore, "program header %zu: %s", i, elf_errmsg(-1));
			return -ENOEXEC;
		}
		/* perf maps only the executable segments of kcore too */
		if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X))
			continue;
		err = kcore__add(kcore, ph.p_vaddr, ph.p_offset,
				 ph.p_filesz < ph.p_memsz ? ph.p_filesz : ph.p_memsz, &alloc);
	}
	return err;
}

/* the allocated code sections of an ELF executable, and its build-id */
static int kcore__add_sections(struct kcore *kcore, Elf *elf, const GElf_Ehdr *ehdr)
{
	Elf_Scn *scn = NULL;
	int alloc = 0, err;
	size_t n;

	if (ehdr->e_type != ET_EXEC && ehdr->e_type != ET_DYN) {
		kcore__refuse(kcore, "ELF type %d, not an executable such as a vmlinux%s",
			      ehdr->e_type,
			      ehdr->e_type == ET_CORE ? " (a kcore? use --kcore)" : "");
		return -ENOEXEC;
	}
	/* as for a core's program headers; e_shnum 0: the count is in section 0 */
	if (ehdr->e_shnum &&
	    kcore__check_table(kcore, "section header", ehdr->e_shoff, ehdr->e_shnum,
			       ehdr->e_shentsize, gelf_fsize(elf, ELF_T_SHDR, 1, EV_CURRENT)))
		return -ENOEXEC;
	if (elf_getshdrnum(elf, &n)) {
		kcore__refuse(kcore, "bad section headers: %s", elf_errmsg(-1));
		return -ENOEXEC;
	}
	err = ehdr->e_shnum ?
		  0 :
		  kcore__check_table(kcore, "section header", ehdr->e_shoff, n, ehdr->e_shentsize,
				     gelf_fsize(elf, ELF_T_SHDR, 1, EV_CURRENT));
	while (!err && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh)) {
			kcore__refuse(kcore, "bad section header: %s", elf_errmsg(-1));
			return -ENOEXEC;
		}
		if (sh.sh_type != SHT_PROGBITS ||
		    (sh.sh_flags & (SHF_ALLOC | SHF_EXECINSTR)) != (SHF_ALLOC | SHF_EXECINSTR))
			continue;
		err = kcore__add(kcore, sh.sh_addr, sh.sh_offset, sh.sh_size, &alloc);
	}
	if (!err)
		elf__read_build_id(elf, &kcore->bid);
	return err;
}

static struct kcore *__kcore__open(const char *path, bool vmlinux, bool optional)
{
	struct kcore *kcore = kcore__map(path, optional);
	int err = -ENOEXEC;
	GElf_Ehdr ehdr;
	Elf *elf;

	if (!kcore)
		return NULL;
	kcore->vmlinux = vmlinux;
	elf = kcore__elf(kcore, ELF_K_ELF);
	if (!elf)
		goto out_delete;
	if (!gelf_getehdr(elf, &ehdr)) {
		kcore__refuse(kcore, "bad ELF header: %s", elf_errmsg(-1));
		goto out_end;
	}
	if (vmlinux)
		err = kcore__add_sections(kcore, elf, &ehdr);
	else
		err = kcore__add_segments(kcore, elf, &ehdr);
	if (!err)
		err = kcore__finish(kcore, gelf_getclass(elf) == ELFCLASS64);
out_end:
	elf_end(elf);
	if (!err)
		return kcore;
out_delete:
	kcore__delete(kcore);
	errno = -err;
	return NULL;
}

struct kcore *kcore__open(const char *path)
{
	return __kcore__open(path, false, false);
}

struct kcore *kcore__open_vmlinux(const char *path)
{
	return __kcore__open(path, true, false);
}

/*
 * @dir/kcore_times: "<addr> <len> <first> <last>" a line (hex, hex, ns,
 * ns), '#' lines are comments.  Ranges in address order, not
 * overlapping, first <= last; anything else and the times are not used,
 * with a warning: the copy is then one of unknown moments, as stock
 * perf's.
 */
static void kcore__read_times(struct kcore *kcore, const char *dir)
{
	char *path, line[256];
	size_t alloc = 0, lineno = 0;
	unsigned long long a, l, f, t;
	FILE *file;
	int n;

	if (asprintf(&path, "%s/%s", dir, KCORE_TIMES) < 0)
		return;
	file = fopen(path, "r");
	if (!file) {
		free(path);
		return;
	}
	while (fgets(line, sizeof(line), file)) {
		struct kcore_read *r;

		lineno++;
		if (line[0] == '#')
			continue;
		if (sscanf(line, "%llx %llx %llu %llu%n", &a, &l, &f, &t, &n) != 4 ||
		    (line[n] != '\n' && line[n]) || !l || a + l < a || f > t ||
		    (kcore->nr_reads && a < kcore->reads[kcore->nr_reads - 1].addr +
						kcore->reads[kcore->nr_reads - 1].len)) {
			pr_warning("%s: line %zu is no '<addr> <len> <first> <last>' after the "
				   "last: the read times are not used\n",
				   path, lineno);
			goto out_drop;
		}
		if (kcore->nr_reads == alloc) {
			size_t m = alloc ? 2 * alloc : 64;

			r = realloc(kcore->reads, m * sizeof(*r));
			if (!r)
				goto out_drop;
			kcore->reads = r;
			alloc = m;
		}
		kcore->reads[kcore->nr_reads++] = (struct kcore_read){a, l, f, t};
	}
	goto out;
out_drop:
	zfree(&kcore->reads);
	kcore->nr_reads = 0;
out:
	fclose(file);
	free(path);
}

struct kcore *kcore__open_dir(const char *dir, bool optional)
{
	struct kcore *kcore;
	char *path;

	if (asprintf(&path, "%s/kcore", dir) < 0) {
		errno = ENOMEM;
		return NULL;
	}
	/* kallsyms alone (no /proc/kcore when recording) is normal: no error */
	if (access(path, F_OK) && errno == ENOENT) {
		free(path);
		errno = ENOENT;
		return NULL;
	}
	kcore = __kcore__open(path, false, optional);
	free(path);
	if (kcore && kcore__drop_zero_pages(kcore)) {
		kcore__delete(kcore);
		errno = ENOMEM;
		return NULL;
	}
	if (kcore)
		kcore__read_times(kcore, dir);
	return kcore;
}

int kcore__read_build_id(const char *path, struct build_id *bid)
{
	struct stat st;
	int fd = input_file__open(path, &st), err;
	Elf *elf;

	if (fd < 0)
		return fd;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	err = elf && elf_kind(elf) == ELF_K_ELF ? elf__read_build_id(elf, bid) : -ENOEXEC;
	if (elf)
		elf_end(elf);
	close(fd);
	return err;
}
