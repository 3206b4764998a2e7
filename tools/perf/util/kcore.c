// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel code from a kcore copy or a vmlinux, mmap'd and borrowed: the
 * text image keeps pointers into the mapping rather than a copy, so a
 * 30 MB kcore costs page cache, not heap.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef HAVE_LIBELF
#include <gelf.h>
#include <libelf.h>
#endif

#include "debug.h"
#include "kcore.h"

/* a kcore has a handful of segments; more means a damaged or hostile file */
#define KCORE_MAX_SEGMENTS 4096

void kcore__delete(struct kcore *kcore)
{
	if (!kcore)
		return;
	if (kcore->map && kcore->map != MAP_FAILED)
		munmap(kcore->map, kcore->map_len);
	free(kcore->segments);
	free(kcore->path);
	free(kcore);
}

const struct kcore_segment *kcore__find(const struct kcore *kcore, u64 addr)
{
	int lo = 0, hi = kcore->nr_segments;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		const struct kcore_segment *s = &kcore->segments[mid];

		if (addr < s->addr)
			hi = mid;
		else if (addr - s->addr >= s->len)
			lo = mid + 1;
		else
			return s;
	}
	return NULL;
}

static int segment__cmp(const void *a, const void *b)
{
	const struct kcore_segment *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static struct kcore *kcore__map(const char *path)
{
	struct kcore *kcore = calloc(1, sizeof(*kcore));
	struct stat st;
	int fd, err;

	if (!kcore || !(kcore->path = strdup(path))) {
		err = ENOMEM;
		goto out_delete;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		pr_err("%s: %s\n", path, strerror(err));
		goto out_delete;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size == 0) {
		err = ENOEXEC;
		pr_err("%s: not a regular, non-empty file\n", path);
		close(fd);
		goto out_delete;
	}
	kcore->map_len = st.st_size;
	kcore->map = mmap(NULL, kcore->map_len, PROT_READ, MAP_PRIVATE, fd, 0);
	err = errno;
	close(fd);
	if (kcore->map == MAP_FAILED) {
		pr_err("%s: cannot map: %s\n", path, strerror(err));
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
		pr_err("%s: segment at %#llx: %#llx bytes at offset %#llx pass the end of the file "
		       "(%#zx bytes, truncated?)\n",
		       kcore->path, (unsigned long long)addr, (unsigned long long)len,
		       (unsigned long long)offset, kcore->map_len);
		return -EINVAL;
	}
	if (addr + len < addr) {
		pr_err("%s: segment at %#llx of %#llx bytes wraps around\n", kcore->path,
		       (unsigned long long)addr, (unsigned long long)len);
		return -EINVAL;
	}
	if (kcore->nr_segments >= KCORE_MAX_SEGMENTS) {
		pr_err("%s: more than %d code segments\n", kcore->path, KCORE_MAX_SEGMENTS);
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

/* overlapping segments would make "which bytes" ambiguous: refuse them */
static int kcore__finish(struct kcore *kcore)
{
	int i;

	qsort(kcore->segments, kcore->nr_segments, sizeof(*kcore->segments), segment__cmp);
	for (i = 1; i < kcore->nr_segments; i++) {
		const struct kcore_segment *a = &kcore->segments[i - 1], *b = &kcore->segments[i];

		if (b->addr < a->addr + a->len) {
			pr_err("%s: code segments at %#llx and %#llx overlap\n", kcore->path,
			       (unsigned long long)a->addr, (unsigned long long)b->addr);
			return -EINVAL;
		}
	}
	return 0;
}

#ifdef HAVE_LIBELF
static Elf *kcore__elf(struct kcore *kcore, Elf_Kind kind)
{
	Elf *elf;

	elf_version(EV_CURRENT);
	elf = elf_memory(kcore->map, kcore->map_len);
	if (!elf || elf_kind(elf) != kind) {
		pr_err("%s: not an ELF file\n", kcore->path);
		if (elf)
			elf_end(elf);
		return NULL;
	}
	return elf;
}

static struct kcore *__kcore__open(const char *path, bool vmlinux)
{
	struct kcore *kcore = kcore__map(path);
	int alloc = 0, err = -ENOEXEC;
	GElf_Ehdr ehdr;
	Elf *elf;

	if (!kcore)
		return NULL;
	elf = kcore__elf(kcore, ELF_K_ELF);
	if (!elf)
		goto out_delete;
	if (!gelf_getehdr(elf, &ehdr)) {
		pr_err("%s: bad ELF header: %s\n", path, elf_errmsg(-1));
		goto out_end;
	}
	if (!vmlinux) {
		size_t i, n;

		if (ehdr.e_type != ET_CORE) {
			pr_err("%s: ELF type %d, not a core file (a vmlinux? use --vmlinux)\n",
			       path, ehdr.e_type);
			goto out_end;
		}
		if (elf_getphdrnum(elf, &n)) {
			pr_err("%s: bad program headers: %s\n", path, elf_errmsg(-1));
			goto out_end;
		}
		err = 0;
		for (i = 0; i < n && !err; i++) {
			GElf_Phdr ph;

			if (!gelf_getphdr(elf, i, &ph)) {
				pr_err("%s: program header %zu: %s\n", path, i, elf_errmsg(-1));
				err = -ENOEXEC;
				break;
			}
			/* perf maps only the executable segments of kcore too */
			if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X))
				continue;
			err =
			    kcore__add(kcore, ph.p_vaddr, ph.p_offset,
				       ph.p_filesz < ph.p_memsz ? ph.p_filesz : ph.p_memsz, &alloc);
		}
	} else {
		Elf_Scn *scn = NULL;

		err = 0;
		while (!err && (scn = elf_nextscn(elf, scn))) {
			GElf_Shdr sh;

			if (!gelf_getshdr(scn, &sh)) {
				pr_err("%s: bad section header: %s\n", path, elf_errmsg(-1));
				err = -ENOEXEC;
				break;
			}
			if (sh.sh_type != SHT_PROGBITS ||
			    (sh.sh_flags & (SHF_ALLOC | SHF_EXECINSTR)) !=
				(SHF_ALLOC | SHF_EXECINSTR))
				continue;
			err = kcore__add(kcore, sh.sh_addr, sh.sh_offset, sh.sh_size, &alloc);
		}
	}
	if (!err)
		err = kcore__finish(kcore);
out_end:
	elf_end(elf);
	if (!err)
		return kcore;
out_delete:
	kcore__delete(kcore);
	errno = -err;
	return NULL;
}
#else
static struct kcore *__kcore__open(const char *path, bool vmlinux)
{
	pr_err("%s: reading ELF files needs libelf, not built in\n", path);
	errno = EOPNOTSUPP;
	return NULL;
}
#endif

struct kcore *kcore__open(const char *path)
{
	return __kcore__open(path, false);
}

struct kcore *kcore__open_vmlinux(const char *path)
{
	return __kcore__open(path, true);
}

struct kcore *kcore__open_dir(const char *dir)
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
	kcore = kcore__open(path);
	free(path);
	return kcore;
}
