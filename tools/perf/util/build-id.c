// SPDX-License-Identifier: GPL-2.0-only
/*
 * Build-ids: reading them from ELF files and finding the files perf's
 * build-id cache and distributions' debuginfo packages keep under them.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <elf.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gelf.h>
#include <libelf.h>

#include "build-id.h"
#include "header.h"

#ifndef NT_GNU_BUILD_ID
#define NT_GNU_BUILD_ID 3
#endif

char *build_id__sprintf(const struct build_id *bid, char *buf)
{
	static const char hex[] = "0123456789abcdef";
	u8 i;

	for (i = 0; i < bid->size && i < BUILD_ID_SIZE; i++) {
		buf[2 * i] = hex[bid->data[i] >> 4];
		buf[2 * i + 1] = hex[bid->data[i] & 0xf];
	}
	buf[2 * i] = '\0';
	return buf;
}

bool build_id__equal(const struct build_id *a, const struct build_id *b)
{
	return a->size && a->size == b->size && !memcmp(a->data, b->data, a->size);
}

int notes__find_build_id(const u8 *p, size_t len, bool swap, struct build_id *bid)
{
	while (len >= 12) {
		u32 namesz, descsz, type;
		size_t nlen, dlen;

		memcpy(&namesz, p, 4);
		memcpy(&descsz, p + 4, 4);
		memcpy(&type, p + 8, 4);
		if (swap) {
			namesz = __builtin_bswap32(namesz);
			descsz = __builtin_bswap32(descsz);
			type = __builtin_bswap32(type);
		}
		nlen = PERF_ALIGN((u64)namesz, 4);
		dlen = PERF_ALIGN((u64)descsz, 4);
		p += 12;
		len -= 12;
		if (nlen > len || dlen > len - nlen)
			break;
		if (type == NT_GNU_BUILD_ID && namesz == 4 && !memcmp(p, "GNU", 4)) {
			bid->size = descsz > BUILD_ID_SIZE ? BUILD_ID_SIZE : descsz;
			memcpy(bid->data, p + nlen, bid->size);
			return 0;
		}
		p += nlen + dlen;
		len -= nlen + dlen;
	}
	return -ENOENT;
}

int kernel__read_running_build_id(struct build_id *bid)
{
	u8 buf[4096];
	ssize_t n;
	int fd, err;

	/* a sysfs file of a few notes: one read takes it all */
	fd = open("/sys/kernel/notes", O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf));
	err = n < 0 ? -errno : notes__find_build_id(buf, n, false, bid);
	close(fd);
	return err;
}

/*
 * The kernel maps the same vdso image into every 64-bit process, so this
 * process's stands for a recorded task's, as perf record takes its own.
 * The image is in memory whole, file offsets equal to offsets in it.
 */
int vdso__read_own_build_id(struct build_id *bid)
{
	const u8 *image = (const u8 *)getauxval(AT_SYSINFO_EHDR);
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)image;

	if (!image)
		return -ENOENT;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_phentsize != sizeof(Elf64_Phdr))
		return -EINVAL;
	for (unsigned int i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *ph = (const Elf64_Phdr *)(image + eh->e_phoff) + i;

		if (ph->p_type == PT_NOTE &&
		    !notes__find_build_id(image + ph->p_offset, ph->p_filesz, false, bid))
			return 0;
	}
	return -ENOENT;
}

int elf__read_build_id(struct Elf *elf, struct build_id *bid)
{
	bool swap;
	Elf_Scn *scn = NULL;
	GElf_Ehdr ehdr;
	size_t i, nr_phdr;

	if (!gelf_getehdr(elf, &ehdr))
		return -EINVAL;
	swap = (ehdr.e_ident[EI_DATA] == ELFDATA2MSB) != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr shdr;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_NOTE)
			continue;
		data = elf_rawdata(scn, NULL);
		if (data && data->d_buf &&
		    !notes__find_build_id(data->d_buf, data->d_size, swap, bid))
			return 0;
	}

	/* stripped of section headers (vdso images, some cores): segments */
	if (elf_getphdrnum(elf, &nr_phdr))
		return -ENOENT;
	for (i = 0; i < nr_phdr; i++) {
		GElf_Phdr phdr;
		char *image;
		size_t size;

		if (!gelf_getphdr(elf, i, &phdr) || phdr.p_type != PT_NOTE)
			continue;
		image = elf_rawfile(elf, &size);
		if (!image || phdr.p_offset > size || phdr.p_filesz > size - phdr.p_offset)
			continue;
		if (!notes__find_build_id((u8 *)image + phdr.p_offset, phdr.p_filesz, swap, bid))
			return 0;
	}
	return -ENOENT;
}

int filename__read_build_id(const char *path, struct build_id *bid)
{
	int fd, err;
	Elf *elf;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf) {
		close(fd);
		return -EINVAL;
	}
	err = elf_kind(elf) == ELF_K_ELF ? elf__read_build_id(elf, bid) : -EINVAL;
	elf_end(elf);
	close(fd);
	return err;
}

int perf_env__find_build_id(const struct perf_env *env, const char *filename, struct build_id *bid)
{
	int i;

	if (!env)
		return -ENOENT;
	for (i = 0; i < env->nr_build_ids; i++) {
		const struct build_id_entry *e = &env->build_ids[i];

		if (!e->filename || strcmp(e->filename, filename))
			continue;
		bid->size = e->size && e->size <= BUILD_ID_SIZE ? e->size : BUILD_ID_SIZE;
		memcpy(bid->data, e->build_id, bid->size);
		return 0;
	}
	return -ENOENT;
}

static const char *debug_home(void)
{
	const char *home = getenv("HOME");

	return home && *home ? home : "/root";
}

char *build_id_cache__dir(const struct build_id *bid)
{
	char hex[BUILD_ID_HEX_SIZE], link[PATH_MAX], *resolved;
	struct stat st;

	if (!bid->size)
		return NULL;
	build_id__sprintf(bid, hex);
	if (snprintf(link, sizeof(link), "%s/.debug/.build-id/%.2s/%s", debug_home(), hex,
		     hex + 2) >= (int)sizeof(link))
		return NULL;
	resolved = realpath(link, NULL);
	if (!resolved)
		return NULL;
	/* a directory of files (elf, kallsyms, vdso), or in the old layout the file */
	if (stat(resolved, &st) || (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode))) {
		free(resolved);
		return NULL;
	}
	return resolved;
}

char *build_id__debuginfo_path(const struct build_id *bid)
{
	char hex[BUILD_ID_HEX_SIZE], *path;

	if (!bid->size)
		return NULL;
	build_id__sprintf(bid, hex);
	if (asprintf(&path, "/usr/lib/debug/.build-id/%.2s/%s.debug", hex, hex + 2) < 0)
		return NULL;
	if (access(path, R_OK)) {
		free(path);
		return NULL;
	}
	return path;
}
