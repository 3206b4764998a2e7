// SPDX-License-Identifier: GPL-2.0-only
/*
 * The code bytes of a kernel object file, read from its ELF headers by
 * hand: the file is a recording's (any path an MMAP record names), so no
 * offset or count in it is trusted before it is checked against the
 * file's size, and libelf's lazy reads are not needed for a file this
 * small.
 */
#include <elf.h>
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dso-code.h"
#include "input-file.h"

/* [off, off + len) lies inside a file of @size bytes */
static bool in_file(u64 off, u64 len, size_t size)
{
	return off <= size && len <= size - off;
}

static int read_file(const char *path, struct dso_code *code)
{
	struct stat st;
	size_t done = 0;
	int fd = input_file__open(path, &st);

	if (fd < 0)
		return fd;
	if ((u64)st.st_size > DSO_CODE_MAX_FILE) {
		close(fd);
		return -EFBIG;
	}
	code->file = malloc(st.st_size ?: 1);
	if (!code->file) {
		close(fd);
		return -ENOMEM;
	}
	/* a file that shrinks while read is taken as far as it goes */
	while (done < (size_t)st.st_size) {
		ssize_t n = pread(fd, code->file + done, st.st_size - done, done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += n;
	}
	close(fd);
	code->size = done;
	return 0;
}

static int add_range(struct dso_code *code, u64 addr, u64 off, u64 len)
{
	struct dso_code_range *r;

	if (!len)
		return 0;
	if (!in_file(off, len, code->size) || addr + len < addr)
		return -EINVAL;
	if (code->nr == DSO_CODE_MAX_RANGES)
		return -EINVAL;
	r = realloc(code->ranges, (code->nr + 1) * sizeof(*r));
	if (!r)
		return -ENOMEM;
	code->ranges = r;
	r[code->nr++] = (struct dso_code_range){addr, len, code->file + off};
	return 0;
}

static int read_sections(struct dso_code *code, const Elf64_Ehdr *eh)
{
	u64 i;
	int err;

	if (eh->e_shentsize != sizeof(Elf64_Shdr) ||
	    !in_file(eh->e_shoff, (u64)eh->e_shnum * sizeof(Elf64_Shdr), code->size))
		return -EINVAL;
	for (i = 0; i < eh->e_shnum; i++) {
		Elf64_Shdr sh;

		memcpy(&sh, code->file + eh->e_shoff + i * sizeof(sh), sizeof(sh));
		if (sh.sh_type == SHT_NOTE && !code->bid.size &&
		    in_file(sh.sh_offset, sh.sh_size, code->size))
			notes__find_build_id(code->file + sh.sh_offset, sh.sh_size, false,
					     &code->bid);
		if (sh.sh_type != SHT_PROGBITS || !(sh.sh_flags & SHF_ALLOC) ||
		    !(sh.sh_flags & SHF_EXECINSTR))
			continue;
		err = add_range(code, sh.sh_addr, sh.sh_offset, sh.sh_size);
		if (err)
			return err;
	}
	return 0;
}

/* no section headers (stripped to the segments): the executable PT_LOADs */
static int read_segments(struct dso_code *code, const Elf64_Ehdr *eh)
{
	u64 i;
	int err;

	if (eh->e_phentsize != sizeof(Elf64_Phdr) ||
	    !in_file(eh->e_phoff, (u64)eh->e_phnum * sizeof(Elf64_Phdr), code->size))
		return -EINVAL;
	for (i = 0; i < eh->e_phnum; i++) {
		Elf64_Phdr ph;

		memcpy(&ph, code->file + eh->e_phoff + i * sizeof(ph), sizeof(ph));
		if (ph.p_type == PT_NOTE && !code->bid.size &&
		    in_file(ph.p_offset, ph.p_filesz, code->size))
			notes__find_build_id(code->file + ph.p_offset, ph.p_filesz, false,
					     &code->bid);
		if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X))
			continue;
		err = add_range(code, ph.p_vaddr, ph.p_offset, ph.p_filesz);
		if (err)
			return err;
	}
	return 0;
}

int dso_code__read(const char *path, struct dso_code *code)
{
	Elf64_Ehdr eh;
	int err;

	memset(code, 0, sizeof(*code));
	err = read_file(path, code);
	if (err)
		goto out_err;
	err = -ENOEXEC;
	if (code->size < sizeof(eh))
		goto out_err;
	memcpy(&eh, code->file, sizeof(eh));
	/* the fields are read as they lie: this host's byte order only */
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != (__BYTE_ORDER == __LITTLE_ENDIAN ? ELFDATA2LSB : ELFDATA2MSB))
		goto out_err;
	if (eh.e_shoff && eh.e_shnum)
		err = read_sections(code, &eh);
	else if (eh.e_phoff && eh.e_phnum)
		err = read_segments(code, &eh);
	else
		err = -ENODATA;
	if (!err && !code->nr)
		err = -ENODATA;
	if (err)
		goto out_err;
	return 0;

out_err:
	dso_code__exit(code);
	return err;
}

void dso_code__exit(struct dso_code *code)
{
	free(code->ranges);
	free(code->file);
	memset(code, 0, sizeof(*code));
}

int dso_code__keep(struct dso_code *code, size_t nr)
{
	size_t i, total = 0, off = 0;
	u8 *bytes;

	for (i = 0; i < nr; i++)
		total += code->ranges[i].len;
	bytes = malloc(total ?: 1);
	if (!bytes)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		memcpy(bytes + off, code->ranges[i].bytes, code->ranges[i].len);
		code->ranges[i].bytes = bytes + off;
		off += code->ranges[i].len;
	}
	free(code->file);
	code->file = bytes;
	code->size = total;
	code->nr = nr;
	return 0;
}

const char *dso_code__strerror(int err)
{
	switch (err) {
	case -EFBIG:
		return "larger than a kernel object can be";
	case -ENOEXEC:
		return "not a 64-bit ELF object of this byte order";
	case -EINVAL:
		return "ELF headers point outside the file";
	case -ENODATA:
		return "no code sections";
	default:
		return input_file__strerror(err);
	}
}
