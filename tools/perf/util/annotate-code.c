// SPDX-License-Identifier: GPL-2.0-only
/*
 * The code of a user symbol for perf textpoke annotate: its bytes from
 * the object's file through the same reader as script's insn field
 * (dso-data.c, the build-id cache's copy first), and the link-time
 * addresses perf annotate prints, from the object's program headers.
 * The file is a recording's object and may be anything: every header is
 * checked against what could be read before it is used.
 */
#include <elf.h>
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "annotate-internal.h"
#include "dso.h"
#include "dso-data.h"
#include "machine.h"

/* the PT_LOAD segments of an ELF header and its program headers, read through @dd */
static int annotate_code__read_loads(struct annotate_code *code, struct dso_data *dd,
				     struct dso *dso, const char *path)
{
	union {
		Elf64_Ehdr e64;
		Elf32_Ehdr e32;
	} eh;
	u8 ph[64];
	u64 phoff;
	unsigned int phnum, phentsize, i;
	bool elf64;
	ssize_t n;

	n = dso_data__read(dd, dso, path, 0, (u8 *)&eh, sizeof(eh), &elf64);
	if (n < 0)
		return n;
	if ((size_t)n < sizeof(eh.e32) || memcmp(eh.e64.e_ident, ELFMAG, SELFMAG) ||
	    eh.e64.e_ident[EI_DATA] != ELFDATA2LSB)
		return -ENOEXEC;
	code->elf64 = eh.e64.e_ident[EI_CLASS] == ELFCLASS64;
	if (code->elf64) {
		if ((size_t)n < sizeof(eh.e64))
			return -ENOEXEC;
		phoff = le64toh(eh.e64.e_phoff);
		phnum = le16toh(eh.e64.e_phnum);
		phentsize = le16toh(eh.e64.e_phentsize);
		if (phentsize < sizeof(Elf64_Phdr))
			return -ENOEXEC;
	} else {
		phoff = le32toh(eh.e32.e_phoff);
		phnum = le16toh(eh.e32.e_phnum);
		phentsize = le16toh(eh.e32.e_phentsize);
		if (phentsize < sizeof(Elf32_Phdr))
			return -ENOEXEC;
	}
	code->nr_loads = 0;
	for (i = 0; i < phnum && code->nr_loads < ANNOTATE_CODE_MAX_LOADS; i++) {
		u64 offset, vaddr, size;

		n = dso_data__read(dd, dso, path, phoff + (u64)i * phentsize, ph,
				   code->elf64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr), &elf64);
		if (n < 0)
			return n;
		if (code->elf64) {
			Elf64_Phdr p;

			if ((size_t)n < sizeof(p))
				return -ENOEXEC;
			memcpy(&p, ph, sizeof(p));
			if (le32toh(p.p_type) != PT_LOAD)
				continue;
			offset = le64toh(p.p_offset);
			vaddr = le64toh(p.p_vaddr);
			size = le64toh(p.p_filesz);
		} else {
			Elf32_Phdr p;

			if ((size_t)n < sizeof(p))
				return -ENOEXEC;
			memcpy(&p, ph, sizeof(p));
			if (le32toh(p.p_type) != PT_LOAD)
				continue;
			offset = le32toh(p.p_offset);
			vaddr = le32toh(p.p_vaddr);
			size = le32toh(p.p_filesz);
		}
		if (!size || offset + size < offset)
			continue;
		code->loads[code->nr_loads].offset = offset;
		code->loads[code->nr_loads].vaddr = vaddr;
		code->loads[code->nr_loads].size = size;
		code->nr_loads++;
	}
	return code->nr_loads ? 0 : -ENOEXEC;
}

bool annotate_code__vaddr(const struct annotate_code *code, u64 offset, u64 *vaddr)
{
	size_t i;

	for (i = 0; i < code->nr_loads; i++) {
		if (offset < code->loads[i].offset ||
		    offset - code->loads[i].offset >= code->loads[i].size)
			continue;
		*vaddr = code->loads[i].vaddr + (offset - code->loads[i].offset);
		return true;
	}
	return false;
}

bool annotate_code__offset(const struct annotate_code *code, u64 vaddr, u64 *offset)
{
	size_t i;

	for (i = 0; i < code->nr_loads; i++) {
		if (vaddr < code->loads[i].vaddr ||
		    vaddr - code->loads[i].vaddr >= code->loads[i].size)
			continue;
		*offset = code->loads[i].offset + (vaddr - code->loads[i].vaddr);
		return true;
	}
	return false;
}

int annotate_code__read(struct annotate_code *code, struct dso_data *dd, struct dso *dso,
			struct symbol *sym)
{
	const char *path;
	bool elf64;
	ssize_t n;
	int err;

	memset(code, 0, sizeof(*code));
	if (dso->kind != DSO_KIND__USER)
		return -ENOENT;
	path = dso__data_path(dso);
	if (!path || path[0] != '/')
		return -ENOENT;
	if (sym->end <= sym->start)
		return -ENODATA;
	if (sym->end - sym->start > ANNOTATE_SYM_MAX_SIZE)
		return -EFBIG;
	err = annotate_code__read_loads(code, dd, dso, path);
	if (err)
		return err;
	if (!annotate_code__vaddr(code, sym->start, &code->vaddr))
		return -ENOEXEC;
	code->len = sym->end - sym->start;
	/*
	 * The symbol's code is the run of its segment from its start: a
	 * symbol of no size given an end past its segment (_fini, last of
	 * the executable segment) is what the segment holds of it, as
	 * objdump shows perf the section's bytes alone
	 */
	if (!annotate_code__vaddr(code, sym->end - 1, &(u64){0})) {
		size_t i;

		for (i = 0; i < code->nr_loads; i++) {
			const u64 lo = code->loads[i].offset, size = code->loads[i].size;

			if (sym->start >= lo && sym->start - lo < size) {
				code->len = size - (sym->start - lo);
				break;
			}
		}
		if (i == code->nr_loads)
			return -ENOEXEC;
	}
	code->bytes = malloc(code->len);
	if (!code->bytes)
		return -ENOMEM;
	n = dso_data__read(dd, dso, path, sym->start, code->bytes, code->len, &elf64);
	if (n < 0 || (size_t)n < code->len) {
		annotate_code__exit(code);
		return n < 0 ? n : -ENODATA;
	}
	return 0;
}

void annotate_code__exit(struct annotate_code *code)
{
	free(code->bytes);
	code->bytes = NULL;
	code->len = 0;
}
