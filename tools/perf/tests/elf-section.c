// SPDX-License-Identifier: GPL-2.0-only
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elf-section.h"

static int read_at(int fd, void *buf, size_t len, u64 off)
{
	ssize_t n = pread(fd, buf, len, off);

	return n == (ssize_t)len ? 0 : -EIO;
}

int elf_section__read(const char *path, const char *name, u64 *addr, u8 **bytes, u64 *len)
{
	Elf64_Ehdr eh;
	Elf64_Shdr strtab, sh;
	char sname[64];
	int fd = open(path, O_RDONLY), err = -ENOENT;
	unsigned int i;

	if (fd < 0)
		return -errno;
	if (read_at(fd, &eh, sizeof(eh), 0) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_shentsize != sizeof(sh) ||
	    read_at(fd, &strtab, sizeof(strtab), eh.e_shoff + (u64)eh.e_shstrndx * sizeof(sh))) {
		err = -ENOEXEC;
		goto out;
	}
	for (i = 0; i < eh.e_shnum; i++) {
		if (read_at(fd, &sh, sizeof(sh), eh.e_shoff + (u64)i * sizeof(sh)) ||
		    sh.sh_name >= strtab.sh_size) {
			err = -ENOEXEC;
			goto out;
		}
		memset(sname, 0, sizeof(sname));
		if (pread(fd, sname, sizeof(sname) - 1, strtab.sh_offset + sh.sh_name) < 0 ||
		    strcmp(sname, name))
			continue;
		*bytes = malloc(sh.sh_size ? sh.sh_size : 1);
		if (!*bytes) {
			err = -ENOMEM;
			goto out;
		}
		if (read_at(fd, *bytes, sh.sh_size, sh.sh_offset)) {
			free(*bytes);
			*bytes = NULL;
			err = -EIO;
			goto out;
		}
		*addr = sh.sh_addr;
		*len = sh.sh_size;
		err = 0;
		break;
	}
out:
	close(fd);
	return err;
}
