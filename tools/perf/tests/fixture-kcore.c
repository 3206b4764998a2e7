// SPDX-License-Identifier: GPL-2.0-only
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fixture-kcore.h"

int fixture__write_file(const char *dir, const char *name, const void *buf, size_t len)
{
	char *path;
	FILE *f;
	int err = 0;

	if (asprintf(&path, "%s/%s", dir, name) < 0)
		return -ENOMEM;
	f = fopen(path, "w");
	if (!f)
		err = -errno;
	else if (len && fwrite(buf, len, 1, f) != 1)
		err = -EIO;
	if (f && fclose(f) && !err)
		err = -EIO;
	free(path);
	return err;
}

int fixture__kcore_head(u8 *head, const struct fixture_segment *segs, int nr)
{
	Elf64_Ehdr *eh = (Elf64_Ehdr *)head;
	Elf64_Phdr *ph = (Elf64_Phdr *)(head + sizeof(*eh));
	size_t off = FIXTURE_KCORE_DATA;
	int i;

	if (sizeof(*eh) + nr * sizeof(*ph) > FIXTURE_KCORE_DATA)
		return -E2BIG;
	memset(head, 0, FIXTURE_KCORE_DATA);
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_CORE;
	eh->e_machine = EM_X86_64;
	eh->e_version = EV_CURRENT;
	eh->e_phoff = sizeof(*eh);
	eh->e_ehsize = sizeof(*eh);
	eh->e_phentsize = sizeof(*ph);
	eh->e_phnum = nr;
	for (i = 0; i < nr; i++) {
		ph[i].p_type = PT_LOAD;
		ph[i].p_flags = PF_R | PF_W | PF_X;
		ph[i].p_offset = off;
		ph[i].p_vaddr = segs[i].vaddr;
		ph[i].p_filesz = ph[i].p_memsz = segs[i].len;
		ph[i].p_align = 0x1000;
		off += segs[i].len;
	}
	return 0;
}

int fixture__write_kcore(const char *dir, const struct fixture_segment *segs, int nr)
{
	size_t size = FIXTURE_KCORE_DATA, off = FIXTURE_KCORE_DATA;
	u8 *buf;
	int i, err;

	for (i = 0; i < nr; i++)
		size += segs[i].len;
	buf = calloc(1, size);
	if (!buf)
		return -ENOMEM;
	err = fixture__kcore_head(buf, segs, nr);
	for (i = 0; !err && i < nr; i++) {
		memcpy(buf + off, segs[i].bytes, segs[i].len);
		off += segs[i].len;
	}
	err = err ?: fixture__write_file(dir, "kcore", buf, size);
	free(buf);
	return err;
}

int fixture__write_kcore_dir(const char *dir, const char *kallsyms, const char *modules,
			     const struct fixture_segment *segs, int nr)
{
	char *path;
	int err;

	if (asprintf(&path, "%s/kcore_dir", dir) < 0)
		return -ENOMEM;
	err = mkdir(path, 0700) ? -errno : 0;
	err = err ?: fixture__write_file(path, "kallsyms", kallsyms, strlen(kallsyms));
	if (modules)
		err = err ?: fixture__write_file(path, "modules", modules, strlen(modules));
	if (nr)
		err = err ?: fixture__write_kcore(path, segs, nr);
	free(path);
	return err;
}
