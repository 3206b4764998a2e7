// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ELF object of a jitdump code load (jit-elf.h), built in one buffer
 * and written with one write(): thousands of them come out of one V8
 * recording, so no libelf, no per-section system call.
 *
 * Layout (what perf 6.1's genelf gives, found by readelf on perf inject
 * --jit's objects): ELF header, one program header, .text at 0x80, then
 * .eh_frame at the next multiple of 8 after the code and .eh_frame_hdr
 * after it (addresses equal to file offsets, as the PT_LOAD maps the file
 * 1:1), then the non-allocated sections: .shstrtab, .symtab, .strtab,
 * the build-id note, the DWARF, and the section headers last.
 *
 * The line program is DWARF 2 as genelf encodes it, so that addr2line
 * (perf's srcline) and objdump -l (perf annotate) find the same rows:
 * line_base -5, line_range 242, opcode_base 13; rows start at
 * JIT_ELF_TEXT_OFFSET, each line's address is taken relative to the
 * load's code; a file entry is defined (DW_LNE_define_file) each time the
 * file changes from the previous line's; a special opcode where the
 * deltas allow one, else advance_line/advance_pc/copy; the sequence ends
 * at the last line's address.
 */
#include <dwarf.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jit-elf.h"

#define JIT_LINE_BASE (-5)
#define JIT_LINE_RANGE 242
#define JIT_OPCODE_BASE 13

struct jbuf {
	u8 *p;
	size_t len, alloc;
	int err;
};

static u8 *jbuf__reserve(struct jbuf *b, size_t n)
{
	if (b->err)
		return NULL;
	if (b->len + n > b->alloc) {
		size_t a = b->alloc ? b->alloc : 1024;
		u8 *p;

		while (a < b->len + n)
			a *= 2;
		p = realloc(b->p, a);
		if (!p) {
			b->err = -ENOMEM;
			return NULL;
		}
		b->p = p;
		b->alloc = a;
	}
	b->len += n;
	return b->p + b->len - n;
}

static void jbuf__put(struct jbuf *b, const void *data, size_t n)
{
	u8 *p = jbuf__reserve(b, n);

	if (p && n)
		memcpy(p, data, n);
}

static void jbuf__u8(struct jbuf *b, u8 v)
{
	jbuf__put(b, &v, 1);
}

static void jbuf__align(struct jbuf *b, size_t a)
{
	size_t n = (a - b->len % a) % a;
	u8 *p = jbuf__reserve(b, n);

	if (p)
		memset(p, 0, n);
}

static void jbuf__uleb(struct jbuf *b, u64 v)
{
	do {
		u8 c = v & 0x7f;

		v >>= 7;
		jbuf__u8(b, c | (v ? 0x80 : 0));
	} while (v);
}

static void jbuf__sleb(struct jbuf *b, s64 v)
{
	bool more;

	do {
		u8 c = v & 0x7f;

		v >>= 7; /* arithmetic on gcc and clang */
		more = !((v == 0 && !(c & 0x40)) || (v == -1 && (c & 0x40)));
		jbuf__u8(b, c | (more ? 0x80 : 0));
	} while (more);
}

static void jbuf__u16(struct jbuf *b, u16 v)
{
	jbuf__put(b, &v, 2);
}

static void jbuf__u32(struct jbuf *b, u32 v)
{
	jbuf__put(b, &v, 4);
}

static void jbuf__u64(struct jbuf *b, u64 v)
{
	jbuf__put(b, &v, 8);
}

static void jbuf__set32(struct jbuf *b, size_t at, u32 v)
{
	if (!b->err)
		memcpy(b->p + at, &v, 4);
}

/*
 * The build-id: three 64-bit lanes of a multiply-xorshift over the file's
 * 8-byte words, each finished with MurmurHash3's fmix64, the first 20
 * bytes kept.  Not SHA-1: a V8 recording gives thousands of objects and
 * SHA-1 took nine tenths of inject's instructions; an id needs to tell
 * objects apart, not to resist an attacker.
 */
static u64 jit_fmix64(u64 h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	return h ^ (h >> 33);
}

static void jit_build_id(const u8 *p, size_t len, u64 addr, u8 out[BUILD_ID_SIZE])
{
	static const u64 k[3] = {0x9e3779b97f4a7c15ULL, 0xbf58476d1ce4e5b9ULL,
				 0x94d049bb133111ebULL};
	u64 h[3] = {addr ^ k[1], len ^ k[2], addr + len + k[0]}, w;
	u8 digest[24];
	size_t i, j;

	for (i = 0; i < len; i += 8) {
		w = 0;
		memcpy(&w, p + i, len - i < 8 ? len - i : 8);
		for (j = 0; j < 3; j++) {
			h[j] = (h[j] ^ w) * k[j];
			h[j] ^= h[j] >> 29;
		}
	}
	for (j = 0; j < 3; j++) {
		w = jit_fmix64(h[j] + j);
		memcpy(digest + 8 * j, &w, 8);
	}
	memcpy(out, digest, BUILD_ID_SIZE);
}

/* the special opcode for these deltas, 0 when none fits */
static u8 jit_special_opcode(u32 dline, u64 daddr)
{
	u32 t = dline - JIT_LINE_BASE;
	u64 op;

	if (t >= JIT_LINE_RANGE || daddr > 256 / JIT_LINE_RANGE)
		return 0;
	op = t + daddr * JIT_LINE_RANGE + JIT_OPCODE_BASE;
	return op <= 255 ? op : 0;
}

static void jit_line_program(struct jbuf *b, const struct jitdump_debug *d)
{
	static const u8 std_lengths[JIT_OPCODE_BASE - 1] = {0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1};
	u64 vma = JIT_ELF_TEXT_OFFSET, file_idx = 0;
	const char *file = NULL;
	size_t start = b->len, i;
	s32 line = 1;

	jbuf__u32(b, 0); /* unit length, below */
	jbuf__u16(b, 2);
	jbuf__u32(b, 0); /* header length, below */
	jbuf__u8(b, 1);	 /* minimum instruction length */
	jbuf__u8(b, 1);	 /* default is_stmt */
	jbuf__u8(b, (u8)JIT_LINE_BASE);
	jbuf__u8(b, JIT_LINE_RANGE);
	jbuf__u8(b, JIT_OPCODE_BASE);
	jbuf__put(b, std_lengths, sizeof(std_lengths));
	jbuf__u8(b, 0); /* no include directories */
	jbuf__u8(b, 0); /* no files: each is defined in the program */
	jbuf__set32(b, start + 6, b->len - start - 10);

	jbuf__u8(b, 0);
	jbuf__uleb(b, 9);
	jbuf__u8(b, DW_LNE_set_address);
	jbuf__u64(b, vma);
	for (i = 0; i < d->nr; i++) {
		const struct jitdump_line *l = &d->lines[i];
		u64 addr = l->addr - d->code_addr + JIT_ELF_TEXT_OFFSET;
		bool row = false;
		u8 op;

		if (!file || strcmp(file, l->file)) {
			size_t n = strlen(l->file);

			jbuf__u8(b, 0);
			jbuf__uleb(b, n + 5);
			jbuf__u8(b, DW_LNE_define_file);
			jbuf__put(b, l->file, n + 1);
			jbuf__u8(b, 0); /* directory, time, size: unknown */
			jbuf__u8(b, 0);
			jbuf__u8(b, 0);
			file = l->file;
			jbuf__u8(b, DW_LNS_set_file);
			jbuf__uleb(b, ++file_idx);
			row = true;
		}
		op = jit_special_opcode((u32)l->line - (u32)line, addr - vma);
		if (op) {
			jbuf__u8(b, op);
			line = l->line;
			vma = addr;
			continue;
		}
		if (l->line != line) {
			jbuf__u8(b, DW_LNS_advance_line);
			jbuf__sleb(b, (s64)l->line - line);
			line = l->line;
			row = true;
		}
		if (addr != vma) {
			jbuf__u8(b, DW_LNS_advance_pc);
			jbuf__uleb(b, addr - vma);
			vma = addr;
			row = true;
		}
		if (row)
			jbuf__u8(b, DW_LNS_copy);
	}
	jbuf__u8(b, 0);
	jbuf__uleb(b, 1);
	jbuf__u8(b, DW_LNE_end_sequence);
	jbuf__set32(b, start, b->len - start - 4);
}

/* DW_TAG_compile_unit with a DW_AT_stmt_list: what addr2line needs to find the lines */
static void jit_debug_info(struct jbuf *b)
{
	size_t start = b->len;

	jbuf__u32(b, 0);
	jbuf__u16(b, 2);
	jbuf__u32(b, 0); /* abbrev offset */
	jbuf__u8(b, 8);	 /* address size */
	jbuf__uleb(b, 1);
	jbuf__u32(b, 0); /* stmt_list: the only line program */
	jbuf__set32(b, start, b->len - start - 4);
}

static void jit_debug_abbrev(struct jbuf *b)
{
	jbuf__uleb(b, 1);
	jbuf__uleb(b, DW_TAG_compile_unit);
	jbuf__u8(b, DW_CHILDREN_yes);
	jbuf__uleb(b, DW_AT_stmt_list);
	jbuf__uleb(b, DW_FORM_data4);
	jbuf__u8(b, 0);
	jbuf__u8(b, 0);
	jbuf__u8(b, 0);
}

/* the section names, one table; their offsets */
static const char shstrtab[] = "\0.text\0.eh_frame\0.eh_frame_hdr\0.shstrtab\0.symtab\0.strtab\0"
			       ".note.gnu.build-id\0.debug_line\0.debug_info\0.debug_abbrev";

static u32 shname(const char *name)
{
	const char *p = shstrtab;

	while (strcmp(p, name))
		p += strlen(p) + 1;
	return p - shstrtab;
}

enum { S_TEXT, S_EH, S_EH_HDR, S_SHSTR, S_SYM, S_STR, S_NOTE, S_LINE, S_INFO, S_ABBREV, S_NR };

struct jit_sec {
	bool on;
	const char *name;
	u32 type;
	u64 flags, addr, off, size, align, entsize;
	u32 link, info;
};

static void jit_sec(struct jit_sec *s, const char *name, u32 type, u64 flags, u64 align)
{
	s->on = true;
	s->name = name;
	s->type = type;
	s->flags = flags;
	s->align = align;
}

int jit_elf__write(const char *path, const struct jitdump_load *load,
		   const struct jitdump_debug *debug, const struct jitdump_unwind *unwind,
		   struct build_id *bid, struct stat *st)
{
	struct jit_sec sec[S_NR] = {{0}};
	struct jbuf b = {0};
	size_t idx[S_NR], nr = 1, i, note_desc = 0;
	u64 eh_base = 0, eh_size = 0;
	Elf64_Ehdr *eh;
	Elf64_Phdr ph = {0};
	Elf64_Sym sym[2] = {{0}};
	int fd, err = 0;

	if (debug && !debug->nr)
		debug = NULL;
	jbuf__reserve(&b, sizeof(Elf64_Ehdr));
	ph.p_type = PT_LOAD;
	ph.p_flags = PF_R | PF_X;
	ph.p_offset = ph.p_vaddr = ph.p_paddr = JIT_ELF_TEXT_OFFSET;
	ph.p_filesz = ph.p_memsz = load->code_size;
	ph.p_align = 8;
	jbuf__put(&b, &ph, sizeof(ph));
	jbuf__align(&b, 16);

	jit_sec(&sec[S_TEXT], ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 16);
	sec[S_TEXT].addr = sec[S_TEXT].off = b.len;
	sec[S_TEXT].size = load->code_size;
	jbuf__put(&b, load->code, load->code_size);
	if (unwind) {
		eh_size = unwind->size - unwind->hdr_size;
		eh_base = (JIT_ELF_TEXT_OFFSET + load->code_size + 7) & ~7ULL;
		jbuf__align(&b, 8);
		jit_sec(&sec[S_EH], ".eh_frame", SHT_PROGBITS, SHF_ALLOC, 8);
		sec[S_EH].addr = eh_base;
		sec[S_EH].off = b.len;
		sec[S_EH].size = eh_size;
		jbuf__put(&b, unwind->data, eh_size);
		jbuf__align(&b, 4);
		jit_sec(&sec[S_EH_HDR], ".eh_frame_hdr", SHT_PROGBITS, SHF_ALLOC, 4);
		sec[S_EH_HDR].addr = eh_base + eh_size;
		sec[S_EH_HDR].off = b.len;
		sec[S_EH_HDR].size = unwind->hdr_size;
		jbuf__put(&b, unwind->data + eh_size, unwind->hdr_size);
	}

	jit_sec(&sec[S_SHSTR], ".shstrtab", SHT_STRTAB, 0, 1);
	sec[S_SHSTR].off = b.len;
	sec[S_SHSTR].size = sizeof(shstrtab);
	jbuf__put(&b, shstrtab, sizeof(shstrtab));

	/* section indexes, for the links: the DWARF only with lines, the rest always */
	for (i = 0; i < S_NR; i++) {
		bool present = sec[i].on || (i >= S_SYM && i <= S_NOTE) || (i >= S_LINE && debug);

		idx[i] = present ? nr++ : 0;
	}

	jbuf__align(&b, 8);
	jit_sec(&sec[S_SYM], ".symtab", SHT_SYMTAB, 0, 8);
	sec[S_SYM].off = b.len;
	sec[S_SYM].size = sizeof(sym);
	sec[S_SYM].entsize = sizeof(Elf64_Sym);
	sec[S_SYM].link = idx[S_STR];
	sec[S_SYM].info = 2; /* both symbols are local */
	sym[1].st_name = 1;
	sym[1].st_info = ELF64_ST_INFO(STB_LOCAL, STT_FUNC);
	sym[1].st_shndx = idx[S_TEXT];
	sym[1].st_value = JIT_ELF_TEXT_OFFSET;
	sym[1].st_size = load->code_size;
	jbuf__put(&b, sym, sizeof(sym));

	jit_sec(&sec[S_STR], ".strtab", SHT_STRTAB, 0, 1);
	sec[S_STR].off = b.len;
	jbuf__u8(&b, 0);
	jbuf__put(&b, load->name, strlen(load->name) + 1);
	sec[S_STR].size = b.len - sec[S_STR].off;

	jbuf__align(&b, 4);
	jit_sec(&sec[S_NOTE], ".note.gnu.build-id", SHT_NOTE, SHF_ALLOC, 4);
	sec[S_NOTE].off = b.len;
	jbuf__u32(&b, 4);
	jbuf__u32(&b, BUILD_ID_SIZE);
	jbuf__u32(&b, NT_GNU_BUILD_ID);
	jbuf__put(&b, "GNU", 4);
	note_desc = b.len;
	jbuf__reserve(&b, BUILD_ID_SIZE);
	if (!b.err)
		memset(b.p + note_desc, 0, BUILD_ID_SIZE);
	sec[S_NOTE].size = b.len - sec[S_NOTE].off;

	if (debug) {
		jit_sec(&sec[S_LINE], ".debug_line", SHT_PROGBITS, 0, 1);
		sec[S_LINE].off = b.len;
		jit_line_program(&b, debug);
		sec[S_LINE].size = b.len - sec[S_LINE].off;
		jit_sec(&sec[S_INFO], ".debug_info", SHT_PROGBITS, 0, 1);
		sec[S_INFO].off = b.len;
		jit_debug_info(&b);
		sec[S_INFO].size = b.len - sec[S_INFO].off;
		jit_sec(&sec[S_ABBREV], ".debug_abbrev", SHT_PROGBITS, 0, 1);
		sec[S_ABBREV].off = b.len;
		jit_debug_abbrev(&b);
		sec[S_ABBREV].size = b.len - sec[S_ABBREV].off;
	}

	jbuf__align(&b, 8);
	if (!b.err) {
		size_t shoff = b.len;
		Elf64_Shdr sh = {0};

		jbuf__put(&b, &sh, sizeof(sh));
		for (i = 0; i < S_NR; i++) {
			if (!sec[i].on)
				continue;
			memset(&sh, 0, sizeof(sh));
			sh.sh_name = shname(sec[i].name);
			sh.sh_type = sec[i].type;
			sh.sh_flags = sec[i].flags;
			sh.sh_addr = sec[i].addr;
			sh.sh_offset = sec[i].off;
			sh.sh_size = sec[i].size;
			sh.sh_link = sec[i].link;
			sh.sh_info = sec[i].info;
			sh.sh_addralign = sec[i].align;
			sh.sh_entsize = sec[i].entsize;
			jbuf__put(&b, &sh, sizeof(sh));
		}
		if (!b.err) {
			eh = (Elf64_Ehdr *)b.p;
			memset(eh, 0, sizeof(*eh));
			memcpy(eh->e_ident, ELFMAG, SELFMAG);
			eh->e_ident[EI_CLASS] = ELFCLASS64;
			eh->e_ident[EI_DATA] = ELFDATA2LSB;
			eh->e_ident[EI_VERSION] = EV_CURRENT;
			eh->e_type = ET_DYN;
			eh->e_machine = EM_X86_64;
			eh->e_version = EV_CURRENT;
			eh->e_entry = JIT_ELF_TEXT_OFFSET;
			eh->e_phoff = sizeof(*eh);
			eh->e_shoff = shoff;
			eh->e_ehsize = sizeof(*eh);
			eh->e_phentsize = sizeof(Elf64_Phdr);
			eh->e_phnum = 1;
			eh->e_shentsize = sizeof(Elf64_Shdr);
			eh->e_shnum = nr;
			eh->e_shstrndx = idx[S_SHSTR];
		}
	}
	if (b.err) {
		free(b.p);
		return b.err;
	}

	/* the build-id: of the load address and the file with the note's descriptor zero */
	jit_build_id(b.p, b.len, load->code_addr, b.p + note_desc);
	memcpy(bid->data, b.p + note_desc, BUILD_ID_SIZE);
	bid->size = BUILD_ID_SIZE;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		err = -errno;
	} else {
		ssize_t n = write(fd, b.p, b.len);

		if (n != (ssize_t)b.len)
			err = n < 0 ? -errno : -ENOSPC;
		else if (st && fstat(fd, st))
			err = -errno;
		if (close(fd) && !err)
			err = -errno;
		if (err)
			unlink(path);
	}
	free(b.p);
	return err;
}
