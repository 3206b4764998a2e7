// SPDX-License-Identifier: GPL-2.0-only
/* Kernel objects written byte by byte for the tests (see kernel-object-elf.h) */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kernel-object-elf.h"

#define TEXT_OFFSET KOBJ_TEXT_OFFSET

struct buf {
	u8 *p;
	size_t len;
};

static void put(struct buf *b, size_t off, const void *src, size_t len)
{
	memcpy(b->p + off, src, len);
	if (off + len > b->len)
		b->len = off + len;
}

/*
 * An ET_EXEC object: one PT_LOAD and a .text at @addr (file offset
 * TEXT_OFFSET), a PT_NOTE and .note.gnu.build-id, .symtab with a FUNC
 * symbol per entry, .strtab, .shstrtab.
 */
int kobj_elf__write(const char *path, u64 addr, const u8 *code, u32 len,
		    const struct kobj_sym *syms, int nr_syms, const u8 bid[20])
{
	static const char shstr[] = "\0.text\0.note.gnu.build-id\0.symtab\0.strtab\0.shstrtab";
	enum { SH_NULL, SH_TEXT, SH_NOTE, SH_SYMTAB, SH_STRTAB, SH_SHSTRTAB, SH_NR };
	u8 mem[8192] = {0};
	struct buf b = {mem, 0};
	Elf64_Ehdr eh = {0};
	Elf64_Phdr ph[2] = {{0}};
	Elf64_Shdr sh[SH_NR] = {{0}};
	Elf64_Sym sym = {0};
	char strtab[512] = "";
	size_t strlen_ = 1, note_off = 0x100, sym_off, str_off, shstr_off, sh_off;
	u32 note_hdr[3] = {4, 20, NT_GNU_BUILD_ID};
	int i, fd, err = 0;

	/* what fits in mem[] and strtab[] */
	if (len > 4096 || nr_syms > 8)
		return -E2BIG;
	for (i = 0; i < nr_syms; i++)
		if (strlen(syms[i].name) > 60)
			return -E2BIG;
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = ET_EXEC;
	eh.e_machine = EM_X86_64;
	eh.e_version = EV_CURRENT;
	eh.e_entry = addr;
	eh.e_phoff = sizeof(eh);
	eh.e_ehsize = sizeof(eh);
	eh.e_phentsize = sizeof(Elf64_Phdr);
	eh.e_phnum = 2;
	eh.e_shentsize = sizeof(Elf64_Shdr);
	eh.e_shnum = SH_NR;
	eh.e_shstrndx = SH_SHSTRTAB;

	put(&b, note_off, note_hdr, sizeof(note_hdr));
	put(&b, note_off + 12, "GNU", 4);
	put(&b, note_off + 16, bid, 20);
	put(&b, TEXT_OFFSET, code, len);

	sym_off = PERF_ALIGN(TEXT_OFFSET + len, 8);
	put(&b, sym_off, &sym, sizeof(sym));
	for (i = 0; i < nr_syms; i++) {
		sym.st_name = strlen_;
		sym.st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC);
		sym.st_shndx = SH_TEXT;
		sym.st_value = addr + syms[i].off;
		sym.st_size = syms[i].len;
		put(&b, sym_off + (i + 1) * sizeof(sym), &sym, sizeof(sym));
		strlen_ +=
		    snprintf(strtab + strlen_, sizeof(strtab) - strlen_, "%s", syms[i].name) + 1;
	}
	str_off = sym_off + (nr_syms + 1) * sizeof(sym);
	put(&b, str_off, strtab, strlen_);
	shstr_off = str_off + strlen_;
	put(&b, shstr_off, shstr, sizeof(shstr));
	sh_off = PERF_ALIGN(shstr_off + sizeof(shstr), 8);
	eh.e_shoff = sh_off;

	ph[0].p_type = PT_LOAD;
	ph[0].p_flags = PF_R | PF_X;
	ph[0].p_offset = TEXT_OFFSET;
	ph[0].p_vaddr = ph[0].p_paddr = addr;
	ph[0].p_filesz = ph[0].p_memsz = len;
	ph[0].p_align = 0x100;
	ph[1].p_type = PT_NOTE;
	ph[1].p_flags = PF_R;
	ph[1].p_offset = note_off;
	ph[1].p_filesz = ph[1].p_memsz = 36;
	ph[1].p_align = 4;

	sh[SH_TEXT] = (Elf64_Shdr){.sh_name = 1,
				   .sh_type = SHT_PROGBITS,
				   .sh_flags = SHF_ALLOC | SHF_EXECINSTR,
				   .sh_addr = addr,
				   .sh_offset = TEXT_OFFSET,
				   .sh_size = len,
				   .sh_addralign = 16};
	sh[SH_NOTE] = (Elf64_Shdr){.sh_name = 7,
				   .sh_type = SHT_NOTE,
				   .sh_flags = SHF_ALLOC,
				   .sh_offset = note_off,
				   .sh_size = 36,
				   .sh_addralign = 4};
	sh[SH_SYMTAB] = (Elf64_Shdr){.sh_name = 26,
				     .sh_type = SHT_SYMTAB,
				     .sh_offset = sym_off,
				     .sh_size = (nr_syms + 1) * sizeof(sym),
				     .sh_link = SH_STRTAB,
				     .sh_info = 1,
				     .sh_addralign = 8,
				     .sh_entsize = sizeof(sym)};
	sh[SH_STRTAB] = (Elf64_Shdr){.sh_name = 34,
				     .sh_type = SHT_STRTAB,
				     .sh_offset = str_off,
				     .sh_size = strlen_,
				     .sh_addralign = 1};
	sh[SH_SHSTRTAB] = (Elf64_Shdr){.sh_name = 42,
				       .sh_type = SHT_STRTAB,
				       .sh_offset = shstr_off,
				       .sh_size = sizeof(shstr),
				       .sh_addralign = 1};
	put(&b, sh_off, sh, sizeof(sh));
	put(&b, sizeof(eh), ph, sizeof(ph));
	put(&b, 0, &eh, sizeof(eh));

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return -errno;
	if (write(fd, b.p, b.len) != (ssize_t)b.len)
		err = -EIO;
	close(fd);
	return err;
}

/* ELF headers whose section and program tables lie far past the end of the file */
int kobj_elf__write_hostile(const char *path)
{
	Elf64_Ehdr eh = {0};
	int fd, err = 0;

	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = ET_EXEC;
	eh.e_machine = EM_X86_64;
	eh.e_version = EV_CURRENT;
	eh.e_phoff = 0x7fffffffffff0000ULL;
	eh.e_phentsize = sizeof(Elf64_Phdr);
	eh.e_phnum = 0xffff;
	eh.e_shoff = 0x7fffffffffff0000ULL;
	eh.e_shentsize = sizeof(Elf64_Shdr);
	eh.e_shnum = 0xfff0;
	eh.e_shstrndx = 3;
	eh.e_ehsize = sizeof(eh);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return -errno;
	if (write(fd, &eh, sizeof(eh)) != sizeof(eh))
		err = -EIO;
	close(fd);
	return err;
}
