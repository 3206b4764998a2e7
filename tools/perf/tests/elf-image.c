// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ELF writer (util/elf-image.c) against readers that share none of
 * its code: GNU readelf, objdump and gdb, the raw section reader
 * tests/elf-section.c, sha1sum, stock perf 6.1, and the project's own
 * util/kcore.c (the reader snapshots are for, as an extra).  One fixture,
 * written as an object and as a core: four ranges (three ".text", two of
 * them with a hole between them and one more than a page further, and one
 * ".init.text", added out of address order) and symbols local and global,
 * function, object and untyped, inside the ranges, two at one address, at
 * the end of one, in the hole and outside every range.
 *
 * Parts, each with a mutation it catches (applied, seen failing, reverted):
 * - sha1: FIPS 180 vectors and n 'a's at the padding's edges, whole and in
 *   odd-sized pieces.  Mutation caught: `ctx->used > 56` -> `>= 56` in
 *   sha1__final() (a 55-byte tail gets a block too many).
 * - readelf -hlSsW: type, class, machine; one PT_LOAD per range in address
 *   order with p_offset % 4096 == p_vaddr % 4096; the sections; .symtab
 *   with sh_info and sh_link, each symbol's index, value, size, type,
 *   binding and section index; no warning.  Mutations caught: the symbol
 *   sweep binding a symbol at a range's end to it (`<=` -> `<`), sh_info
 *   one short, sym__cmp() ignoring names, p_offset or sh_offset + 1.
 * - objdump -d, gdb x/3i: the known bytes decode at their addresses, under
 *   their symbols in the object (push %rbp / mov %rsp,%rbp / ret...).
 *   Mutation caught: sh_offset + 1 (object), p_offset + 1 (core).
 * - elf-section.c: a section's address and bytes, read raw.
 *   Mutation caught: sh_offset + 1.
 * - build-id: readelf -n shows the id write() returned and build_id()
 *   predicted; sha1sum of the file with the descriptor zeroed is that id;
 *   the same contents added in another order give the same bytes; one code
 *   byte changed gives another id.  Mutation caught: the id written one
 *   byte past the descriptor.
 * - stock perf: a recording mapping the object in kernel mode (MMAP and
 *   MMAP2) symbolizes and reads its bytes in every range (perf script -F
 *   sym,insn); one whose kcore_dir/kcore is a core reads both segments;
 *   perf buildid-cache -a files both files under our id.  Mutations
 *   caught: sh_offset + 1, the object's hole of over a page not kept at
 *   its distance, the id written one byte off.
 * - kcore.c: kcore__open() on the core, kcore__open_vmlinux() on the object
 *   (and its build-id).  Mutation caught: p_offset + 1.
 * - 600 ranges added in descending order: overlaps found in every batch of
 *   the unsorted tail, PT_LOADs (read raw) in address order with their
 *   bytes.  Mutation caught: the tail merged without being sorted.
 * - an object's holes: 100 one-byte ranges 1 MiB apart give 64 MiB and a
 *   little, the first 65 at their distance.  Mutation caught: the 64 MiB
 *   bound on kept holes dropped.
 * - refusals: overlap (with the sorted part and with the unsorted tail)
 *   -EINVAL and adjacency allowed, empty and wrapping ranges, long and empty
 *   names, more than 4 GiB, a range past ELF_IMAGE_MAX_RANGES, an existing
 *   path -EEXIST with the file untouched, RLIMIT_FSIZE giving -EFBIG with
 *   nothing left behind.  Mutations caught: the tail's overlap check
 *   returning false, O_EXCL dropped, no unlink() after a failed write.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "elf-section.h"
#include "fixture.h"
#include "tests.h"
#include "../util/elf-image.h"
#include "../util/kcore.h"
#include "../util/sha1.h"
#include "../util/writer.h"

#define R0 0xffffffffc0001000ULL
#define R1 0xffffffffc0001100ULL
#define R2 0xffffffffc0003000ULL
/* more than a page past R2: in the object, still at its distance from R0 */
#define R3 0xffffffffc0005000ULL
#define OUTSIDE 0xffffffff81000000ULL

/* push %rbp; mov %rsp,%rbp; ret; int3 padding */
static const u8 r0_bytes[16] = {0x55, 0x48, 0x89, 0xe5, 0xc3, 0xcc, 0xcc, 0xcc,
				0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc};
/* xor %rax,%rax; ret */
static const u8 r1_bytes[4] = {0x48, 0x31, 0xc0, 0xc3};
/* nopl 0x0(%rax,%rax,1); ret */
static const u8 r2_bytes[6] = {0x0f, 0x1f, 0x44, 0x00, 0x00, 0xc3};
/* nop; ret */
static const u8 r3_bytes[2] = {0x90, 0xc3};

struct fx_range {
	const char *section;
	u64 addr;
	const u8 *bytes;
	size_t len;
	unsigned int shndx; /* expected: address order */
};

/* in the order they are added: not address order */
static const struct fx_range fx_ranges[] = {
    {".init.text", R2, r2_bytes, sizeof(r2_bytes), 3},
    {".text", R0, r0_bytes, sizeof(r0_bytes), 1},
    {".text", R1, r1_bytes, sizeof(r1_bytes), 2},
    {".text", R3, r3_bytes, sizeof(r3_bytes), 4},
};

struct fx_sym {
	const char *name;
	u64 addr, len;
	enum elf_image_sym_type type;
	bool global;
	/* as readelf -sW prints them */
	const char *stt, *ndx;
	unsigned int index; /* in .symtab */
};

static const struct fx_sym fx_syms[] = {
    {"b_func", R1, 4, ELF_IMAGE_SYM_FUNC, true, "FUNC", "2", 8},
    {"d_func", R3, 2, ELF_IMAGE_SYM_FUNC, true, "FUNC", "4", 9},
    {"c_func", R2, 6, ELF_IMAGE_SYM_FUNC, false, "FUNC", "3", 4},
    {"outside", OUTSIDE, 8, ELF_IMAGE_SYM_OBJECT, true, "OBJECT", "ABS", 5},
    {"prog_a", R0, 5, ELF_IMAGE_SYM_FUNC, true, "FUNC", "1", 6},
    {"at_end", R0 + sizeof(r0_bytes), 0, ELF_IMAGE_SYM_NOTYPE, false, "NOTYPE", "ABS", 3},
    /* two at one address: ordered by name, whichever came first */
    {"a_table_alias", R0 + 8, 8, ELF_IMAGE_SYM_OBJECT, false, "OBJECT", "1", 2},
    {"a_table", R0 + 8, 8, ELF_IMAGE_SYM_OBJECT, false, "OBJECT", "1", 1},
    {"in_hole", R0 + 0x80, 0, ELF_IMAGE_SYM_NOTYPE, true, "NOTYPE", "ABS", 7},
};
#define FX_NR_LOCALS 4

struct fx {
	char *dir;
	char exec[PATH_MAX], core[PATH_MAX];
	struct build_id exec_bid, core_bid;
};

/* the fixture, ranges and symbols added in @reverse order or not; @tweak changes a code byte */
static struct elf_image *fx__image(enum elf_image_type type, bool reverse, bool tweak)
{
	struct elf_image *ei = elf_image__new(type);
	u8 r1[sizeof(r1_bytes)];
	size_t n;

	if (!ei)
		return NULL;
	memcpy(r1, r1_bytes, sizeof(r1));
	if (tweak)
		r1[0] ^= 0x01;
	for (n = 0; n < ARRAY_SIZE(fx_ranges); n++) {
		const struct fx_range *r = &fx_ranges[reverse ? ARRAY_SIZE(fx_ranges) - 1 - n : n];

		if (elf_image__add_code(ei, r->section, r->addr, r->addr == R1 ? r1 : r->bytes,
					r->len))
			goto out_delete;
	}
	for (n = 0; n < ARRAY_SIZE(fx_syms); n++) {
		const struct fx_sym *s = &fx_syms[reverse ? ARRAY_SIZE(fx_syms) - 1 - n : n];

		if (elf_image__add_symbol(ei, s->name, s->addr, s->len, s->type, s->global))
			goto out_delete;
	}
	return ei;
out_delete:
	elf_image__delete(ei);
	return NULL;
}

static int fx__write(enum elf_image_type type, const char *path, struct build_id *bid,
		     struct build_id *predicted)
{
	struct elf_image *ei = fx__image(type, false, false);
	int err;

	if (!ei)
		return -ENOMEM;
	err = elf_image__build_id(ei, predicted);
	if (!err)
		err = elf_image__write(ei, path, bid);
	elf_image__delete(ei);
	return err;
}

/* a command's stdout and stderr, malloc'd; NULL when it could not run */
static char *__printf(1, 2) run(const char *fmt, ...)
{
	char cmd[1024], *out = NULL;
	size_t len = 0, alloc = 0;
	va_list ap;
	FILE *p;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	p = popen(cmd, "r");
	if (!p)
		return NULL;
	for (;;) {
		size_t n;

		if (len + 4096 + 1 > alloc) {
			char *q = realloc(out, alloc = 2 * (len + 4096 + 1));

			if (!q)
				break;
			out = q;
		}
		n = fread(out + len, 1, 4096, p);
		if (!n)
			break;
		len += n;
	}
	if (pclose(p) || !out) {
		pr_debug("'%s' failed\n", cmd);
		free(out);
		return NULL;
	}
	out[len] = '\0';
	return out;
}

static bool have(const char *tool)
{
	char *out = run("command -v %s >/dev/null 2>&1 && echo yes", tool);
	bool ok = out && !strncmp(out, "yes", 3);

	free(out);
	return ok;
}

/* runs of blanks as one space, none at either end of a line: lines of objdump, gdb, perf compare */
static void squeeze(char *s)
{
	char *to = s;
	bool line_start = true;

	for (; *s; s++) {
		bool blank = *s == ' ' || *s == '\t';

		if (blank && (line_start || s[1] == ' ' || s[1] == '\t' || s[1] == '\n' || !s[1]))
			continue;
		*to++ = blank ? ' ' : *s;
		line_start = *s == '\n';
	}
	*to = '\0';
}

/* does a line of @out start with @want? */
static bool has_line(const char *out, const char *want)
{
	const char *p = out;
	size_t n = strlen(want);

	while (p && *p) {
		if (!strncmp(p, want, n))
			return true;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	pr_debug("no line starting '%s' in:\n%s\n", want, out);
	return false;
}

static int check_sha1(void)
{
	static const struct {
		const char *msg, *hex;
	} vec[] = {
	    {"abc", "a9993e364706816aba3e25717850c26c9cd0d89d"},
	    {"", "da39a3ee5e6b4b0d3255bfef95601890afd80709"},
	    /* 56 bytes: the length no longer fits the block, one more is padded */
	    {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
	     "84983e441c3bd26ebaae4aa1f95129e5e54670f1"},
	    {"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmn"
	     "opqrlmnopqrsmnopqrstnopqrstu",
	     "a49b2446a02c645bf419f995b67091253a04a259"},
	};
	/* n 'a's (sha1sum's values): the padding's edges at 55, 56, 64 mod 64 */
	static const struct {
		size_t n;
		const char *hex;
	} as[] = {
	    {55, "c1c8bbdc22796e28c0e15163d20899b65621d65a"},
	    {63, "03f09f5b158a7a8cdad920bddc29b81c18a551f5"},
	    {64, "0098ba824b5c16427bd7a1122a5a442a25ec644d"},
	    {65, "11655326c708d70319be2610e8a57d9a5b959d3b"},
	};
	struct build_id bid = {.size = SHA1_DIGEST_SIZE};
	char hex[BUILD_ID_HEX_SIZE];
	struct sha1_ctx ctx;
	u8 chunk[997];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(vec); i++) {
		sha1(vec[i].msg, strlen(vec[i].msg), bid.data);
		if (strcmp(build_id__sprintf(&bid, hex), vec[i].hex)) {
			pr_debug("sha1(\"%s\") = %s, not %s\n", vec[i].msg, hex, vec[i].hex);
			return TEST_FAIL;
		}
	}
	memset(chunk, 'a', sizeof(chunk));
	for (i = 0; i < ARRAY_SIZE(as); i++) {
		sha1(chunk, as[i].n, bid.data);
		if (strcmp(build_id__sprintf(&bid, hex), as[i].hex)) {
			pr_debug("sha1 of %zu 'a's = %s, not %s\n", as[i].n, hex, as[i].hex);
			return TEST_FAIL;
		}
	}
	/* a million 'a's in pieces that straddle blocks */
	sha1__init(&ctx);
	for (i = 0; i < 1000000;) {
		size_t n = 1 + i % sizeof(chunk);

		if (n > 1000000 - i)
			n = 1000000 - i;
		sha1__update(&ctx, chunk, n);
		i += n;
	}
	sha1__final(&ctx, bid.data);
	TEST_ASSERT_VAL(
	    "sha1 of a million 'a'",
	    !strcmp(build_id__sprintf(&bid, hex), "34aa973cd4c4daa4f61eeb2bdbad27316534016f"));
	return TEST_OK;
}

static const struct fx_range *fx__range_at(u64 addr)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fx_ranges); i++)
		if (fx_ranges[i].addr == addr)
			return &fx_ranges[i];
	return NULL;
}

/* readelf -hlSsW of one of the two files */
static int check_readelf(const char *path, bool core, u64 *note_off)
{
	char *out = run("readelf -hlSsW %s 2>&1", path), *line, *save = NULL;
	unsigned int loads = 0, notes = 0, syms = 0, code_sections = 0;
	bool symtab = false, type = false, machine = false, class = false;
	int ret = TEST_FAIL;

	TEST_ASSERT_VAL("readelf runs", out);
	if (strstr(out, "Warning") || strstr(out, "Error")) {
		pr_debug("readelf complains about %s:\n%s\n", path, out);
		goto out;
	}
	*note_off = 0;
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned long long off, vaddr, paddr, filesz, memsz, align, addr, size, value;
		char name[64], stt[16], bind[16], vis[16], ndx[16];
		unsigned int nr, es, lk, inf, al;

		if (strstr(line, "Type:") && strstr(line, core ? "CORE (Core file)" : "EXEC ("))
			type = true;
		if (strstr(line, "Machine:") && strstr(line, "X86-64"))
			machine = true;
		if (strstr(line, "Class:") && strstr(line, "ELF64"))
			class = true;
		if (sscanf(line, " LOAD 0x%llx 0x%llx 0x%llx 0x%llx 0x%llx R E 0x%llx", &off,
			   &vaddr, &paddr, &filesz, &memsz, &align) == 6) {
			const struct fx_range *r = fx__range_at(vaddr);

			/* program headers in address order, one per range */
			if (loads >= ARRAY_SIZE(fx_ranges) || !r || r->shndx != loads + 1 ||
			    filesz != r->len || memsz != r->len || align != 4096 ||
			    off % 4096 != vaddr % 4096) {
				pr_debug("%s: unexpected %s\n", path, line);
				goto out;
			}
			loads++;
		} else if (sscanf(line, " NOTE 0x%llx 0x%llx 0x%llx 0x%llx", &off, &vaddr, &paddr,
				  &filesz) == 4) {
			if (filesz != 36 || off != *note_off) {
				pr_debug("%s: unexpected %s (the section at %#llx)\n", path, line,
					 (unsigned long long)*note_off);
				goto out;
			}
			notes++;
		} else if (sscanf(line, " [%u] %63s PROGBITS %llx %llx %llx %x AX %u %u %u", &nr,
				  name, &addr, &off, &size, &es, &lk, &inf, &al) == 9) {
			const struct fx_range *r = fx__range_at(addr);

			if (!r || r->shndx != nr || strcmp(r->section, name) || size != r->len ||
			    off % 4096 != addr % 4096) {
				pr_debug("%s: unexpected %s\n", path, line);
				goto out;
			}
			code_sections++;
		} else if (sscanf(line, " [%u] .note.gnu.build-id NOTE %llx %llx %llx", &nr, &addr,
				  &off, &size) == 4) {
			if (size != 36 || nr != ARRAY_SIZE(fx_ranges) + 1)
				goto out;
			*note_off = off;
		} else if (sscanf(line, " [%u] .symtab SYMTAB %llx %llx %llx %x %u %u %u", &nr,
				  &addr, &off, &size, &es, &lk, &inf, &al) == 8) {
			/* sh_info: the first global; sh_link: .strtab, next */
			if (es != 24 || size != 24 * (ARRAY_SIZE(fx_syms) + 1) ||
			    inf != FX_NR_LOCALS + 1 || lk != nr + 1) {
				pr_debug("%s: unexpected %s\n", path, line);
				goto out;
			}
			symtab = true;
		} else if (sscanf(line, " %u: %llx %llu %15s %15s %15s %15s %63s", &nr, &value,
				  &size, stt, bind, vis, ndx, name) == 8) {
			size_t i;

			for (i = 0; i < ARRAY_SIZE(fx_syms); i++)
				if (!strcmp(fx_syms[i].name, name))
					break;
			if (i == ARRAY_SIZE(fx_syms) || fx_syms[i].index != nr ||
			    fx_syms[i].addr != value || fx_syms[i].len != size ||
			    strcmp(fx_syms[i].stt, stt) ||
			    strcmp(fx_syms[i].global ? "GLOBAL" : "LOCAL", bind) ||
			    strcmp(fx_syms[i].ndx, ndx)) {
				pr_debug("%s: unexpected symbol %s\n", path, line);
				goto out;
			}
			syms++;
		}
	}
	if (!type || !machine || !class || loads != ARRAY_SIZE(fx_ranges) || notes != 1 ||
	    code_sections != ARRAY_SIZE(fx_ranges) || !symtab || syms != ARRAY_SIZE(fx_syms)) {
		pr_debug("%s: type %d machine %d class %d, %u loads, %u notes, %u code sections, "
			 "symtab %d, %u symbols\n",
			 path, type, machine, class, loads, notes, code_sections, symtab, syms);
		goto out;
	}
	ret = TEST_OK;
out:
	free(out);
	return ret;
}

static int check_objdump(const char *path, bool core)
{
	static const char *const insns[] = {
	    "ffffffffc0001000: 55 push %rbp",
	    "ffffffffc0001001: 48 89 e5 mov %rsp,%rbp",
	    "ffffffffc0001004: c3 ret",
	    "ffffffffc0001100: 48 31 c0 xor %rax,%rax",
	    "ffffffffc0001103: c3 ret",
	    "ffffffffc0003000: 0f 1f 44 00 00 nopl 0x0(%rax,%rax,1)",
	    "ffffffffc0003005: c3 ret",
	    "ffffffffc0005000: 90 nop",
	    "ffffffffc0005001: c3 ret",
	};
	static const char *const labels[] = {
	    "ffffffffc0001000 <prog_a>:",	  "ffffffffc0001100 <b_func>:",
	    "ffffffffc0003000 <c_func>:",	  "ffffffffc0005000 <d_func>:",
	    "Disassembly of section .init.text:",
	};
	char *out = run("objdump -d %s 2>&1", path);
	int ret = TEST_FAIL;
	size_t i;

	TEST_ASSERT_VAL("objdump runs", out);
	squeeze(out);
	for (i = 0; i < ARRAY_SIZE(insns); i++)
		if (!has_line(out, insns[i]))
			goto out;
	/* a core's symbols are for perf; BFD names a core's sections after its segments */
	for (i = 0; !core && i < ARRAY_SIZE(labels); i++)
		if (!has_line(out, labels[i]))
			goto out;
	ret = TEST_OK;
out:
	free(out);
	return ret;
}

static int check_gdb(const char *path, bool core)
{
	char *out =
	    run("DEBUGINFOD_URLS= gdb -nx -batch %s %s -ex 'x/3i %#llx' -ex 'x/2i %#llx' 2>&1",
		core ? "-c" : "", path, R0, R1);
	int ret = TEST_FAIL;

	TEST_ASSERT_VAL("gdb runs", out);
	squeeze(out);
	if (core ? has_line(out, "0xffffffffc0001000: push %rbp") &&
		       has_line(out, "0xffffffffc0001001: mov %rsp,%rbp") &&
		       has_line(out, "0xffffffffc0001004: ret") &&
		       has_line(out, "0xffffffffc0001100: xor %rax,%rax") :
		   has_line(out, "0xffffffffc0001000 <prog_a>: push %rbp") &&
		       has_line(out, "0xffffffffc0001001 <prog_a+1>: mov %rsp,%rbp") &&
		       has_line(out, "0xffffffffc0001004 <prog_a+4>: ret") &&
		       has_line(out, "0xffffffffc0001100 <b_func>: xor %rax,%rax"))
		ret = TEST_OK;
	free(out);
	return ret;
}

static int check_elf_section(const char *path)
{
	static const struct {
		const char *name;
		u64 addr;
		const u8 *bytes;
		size_t len;
	} want[] = {
	    {".init.text", R2, r2_bytes, sizeof(r2_bytes)},
	    /* the first of the two .text sections */
	    {".text", R0, r0_bytes, sizeof(r0_bytes)},
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(want); i++) {
		u64 addr, len;
		u8 *bytes;
		bool ok;

		if (elf_section__read(path, want[i].name, &addr, &bytes, &len)) {
			pr_debug("%s: no section %s\n", path, want[i].name);
			return TEST_FAIL;
		}
		ok = addr == want[i].addr && len == want[i].len &&
		     !memcmp(bytes, want[i].bytes, len);
		free(bytes);
		TEST_ASSERT_VAL(want[i].name, ok);
	}
	return TEST_OK;
}

static char *file__read(const char *path, size_t *len)
{
	struct stat st;
	char *buf = NULL;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return NULL;
	if (!fstat(fd, &st) && (buf = malloc(st.st_size + 1)) &&
	    pread(fd, buf, st.st_size, 0) != st.st_size)
		zfree(&buf);
	close(fd);
	*len = buf ? st.st_size : 0;
	return buf;
}

/* the id readelf -n prints, into @hex */
static int readelf_build_id(const char *path, char *hex)
{
	char *out = run("readelf -nW %s 2>&1", path), *p;
	int ret = TEST_FAIL;

	TEST_ASSERT_VAL("readelf -n runs", out);
	p = strstr(out, "Build ID: ");
	if (p && sscanf(p, "Build ID: %40[0-9a-f]", hex) == 1 && strlen(hex) == 40)
		ret = TEST_OK;
	else
		pr_debug("%s: no build-id in:\n%s\n", path, out);
	free(out);
	return ret;
}

/* sha1sum of @path with the 20 bytes at @desc_off zeroed */
static int sha1sum_zeroed(const char *dir, const char *path, u64 desc_off, char *hex)
{
	char copy[PATH_MAX], *out;
	size_t len;
	char *buf = file__read(path, &len);
	int fd, ret = TEST_FAIL;

	TEST_ASSERT_VAL("read back", buf);
	snprintf(copy, sizeof(copy), "%s/zeroed", dir);
	if (desc_off + BUILD_ID_SIZE > len) {
		free(buf);
		return TEST_FAIL;
	}
	memset(buf + desc_off, 0, BUILD_ID_SIZE);
	fd = open(copy, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd >= 0 && write(fd, buf, len) == (ssize_t)len && !close(fd)) {
		out = run("sha1sum %s", copy);
		if (out && sscanf(out, "%40[0-9a-f]", hex) == 1)
			ret = TEST_OK;
		free(out);
	} else if (fd >= 0) {
		close(fd);
	}
	unlink(copy);
	free(buf);
	return ret;
}

static int check_build_id(struct fx *fx, const char *path, const struct build_id *bid,
			  const struct build_id *predicted, u64 note_off, bool readelf,
			  bool sha1sum)
{
	char hex[BUILD_ID_HEX_SIZE], oracle[BUILD_ID_HEX_SIZE] = "";

	TEST_ASSERT_VAL("build-id size", bid->size == BUILD_ID_SIZE);
	TEST_ASSERT_VAL("build_id() predicts write()", build_id__equal(bid, predicted));
	build_id__sprintf(bid, hex);
	if (readelf) {
		TEST_ASSERT_VAL("readelf -n", readelf_build_id(path, oracle) == TEST_OK);
		if (strcmp(hex, oracle)) {
			pr_debug("%s: readelf -n says %s, write() said %s\n", path, oracle, hex);
			return TEST_FAIL;
		}
	}
	if (sha1sum) {
		TEST_ASSERT_VAL("sha1sum",
				sha1sum_zeroed(fx->dir, path, note_off + 16, oracle) == TEST_OK);
		if (strcmp(hex, oracle)) {
			pr_debug("%s: sha1sum of the zeroed file %s, build-id %s\n", path, oracle,
				 hex);
			return TEST_FAIL;
		}
	}
	return TEST_OK;
}

/* the same contents in another order: the same bytes; one byte changed: another id */
static int check_contents_id(struct fx *fx, const struct build_id *bid)
{
	struct elf_image *ei = fx__image(ELF_IMAGE_EXEC, true, false);
	char path[PATH_MAX], *a, *b;
	struct build_id other;
	size_t alen, blen;
	bool same;
	int err;

	TEST_ASSERT_VAL("reverse fixture", ei);
	snprintf(path, sizeof(path), "%s/exec-reverse", fx->dir);
	err = elf_image__write(ei, path, &other);
	elf_image__delete(ei);
	TEST_ASSERT_EQUAL("write reverse", err, 0);
	a = file__read(fx->exec, &alen);
	b = file__read(path, &blen);
	same = a && b && alen == blen && !memcmp(a, b, alen);
	free(a);
	free(b);
	unlink(path);
	TEST_ASSERT_VAL("another add order, same file", same);
	TEST_ASSERT_VAL("another add order, same id", build_id__equal(bid, &other));

	ei = fx__image(ELF_IMAGE_EXEC, false, true);
	TEST_ASSERT_VAL("tweaked fixture", ei);
	err = elf_image__build_id(ei, &other);
	elf_image__delete(ei);
	TEST_ASSERT_EQUAL("tweaked build-id", err, 0);
	TEST_ASSERT_VAL("one byte changed, another id", !build_id__equal(bid, &other));
	return TEST_OK;
}

static int check_kcore_segments(const struct kcore *kcore, const char *path)
{
	size_t i;

	if (!kcore) {
		pr_debug("%s: util/kcore.c cannot read it\n", path);
		return TEST_FAIL;
	}
	TEST_ASSERT_EQUAL("segments", kcore->nr_segments, ARRAY_SIZE(fx_ranges));
	for (i = 0; i < ARRAY_SIZE(fx_ranges); i++) {
		const struct fx_range *r = &fx_ranges[i];
		const struct kcore_segment *s = kcore__find(kcore, r->addr);

		TEST_ASSERT_VAL("segment found", s && s->addr == r->addr && s->len == r->len);
		TEST_ASSERT_VAL("segment bytes", !memcmp(s->bytes, r->bytes, r->len));
	}
	TEST_ASSERT_VAL("hole", !kcore__find(kcore, R0 + sizeof(r0_bytes)));
	return TEST_OK;
}

static int check_kcore(struct fx *fx)
{
	struct kcore *kcore = kcore__open(fx->core);
	int ret = check_kcore_segments(kcore, fx->core);

	kcore__delete(kcore);
	if (ret)
		return ret;
	kcore = kcore__open_vmlinux(fx->exec);
	ret = check_kcore_segments(kcore, fx->exec);
	if (!ret && !build_id__equal(&kcore->bid, &fx->exec_bid)) {
		pr_debug("%s: kcore.c reads another build-id\n", fx->exec);
		ret = TEST_FAIL;
	}
	kcore__delete(kcore);
	return ret;
}

/* the PT_LOAD headers of @path, read raw (no libelf, no kcore.c), into a malloc'd array */
static int raw_loads(const char *path, Elf64_Phdr **loads, size_t *nr)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	int fd = open(path, O_RDONLY), err = -ENOEXEC;
	size_t i;

	*loads = NULL;
	*nr = 0;
	if (fd < 0)
		return -errno;
	if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) || eh.e_phentsize != sizeof(ph))
		goto out;
	*loads = calloc(eh.e_phnum, sizeof(ph));
	if (!*loads)
		goto out;
	for (i = 0; i < eh.e_phnum; i++) {
		if (pread(fd, &ph, sizeof(ph), eh.e_phoff + i * sizeof(ph)) != sizeof(ph))
			goto out;
		if (ph.p_type == PT_LOAD)
			(*loads)[(*nr)++] = ph;
	}
	err = 0;
out:
	close(fd);
	return err;
}

/*
 * 600 one-page ranges added in descending order, so through the unsorted
 * tail and its merges: overlaps with ranges in each batch are found, and
 * the program headers come out in address order with the right bytes.
 */
static int check_many_ranges(struct fx *fx)
{
	enum { NR = 600 };
	static const int probe[] = {NR - 1, 450, 300, 77, 0};
	struct elf_image *ei = elf_image__new(ELF_IMAGE_CORE);
	struct kcore *kcore = NULL;
	Elf64_Phdr *loads = NULL;
	static u8 page[4096];
	char path[PATH_MAX];
	int i, fd = -1, ret = TEST_FAIL;
	size_t nr;

	TEST_ASSERT_VAL("new", ei);
	snprintf(path, sizeof(path), "%s/many", fx->dir);
	for (i = NR - 1; i >= 0; i--) {
		/* every other page, so that no two are adjacent */
		page[0] = i;
		page[1] = i >> 8;
		if (elf_image__add_code(ei, "load", R0 + 2ULL * i * sizeof(page), page,
					sizeof(page)))
			goto out;
	}
	for (i = 0; i < (int)ARRAY_SIZE(probe); i++) {
		/* the range's last byte and the free page after it */
		u64 addr = R0 + 2ULL * probe[i] * sizeof(page) + sizeof(page) - 1;

		if (elf_image__add_code(ei, "load", addr, page, 2) != -EINVAL) {
			pr_debug("overlap at %#llx with range %d of many not refused\n",
				 (unsigned long long)addr, probe[i]);
			goto out;
		}
	}
	if (elf_image__write(ei, path, NULL) || raw_loads(path, &loads, &nr) || nr != NR)
		goto out;
	fd = open(path, O_RDONLY);
	for (i = 0; i < NR; i++) {
		const Elf64_Phdr *ph = &loads[i];
		u8 b[2] = {0, 0};

		if (ph->p_vaddr != R0 + 2ULL * i * sizeof(page) || ph->p_filesz != sizeof(page) ||
		    ph->p_offset % 4096 != ph->p_vaddr % 4096 ||
		    pread(fd, b, 2, ph->p_offset) != 2 || b[0] != (u8)i || b[1] != (u8)(i >> 8)) {
			pr_debug("%s: PT_LOAD %d at %#llx (offset %#llx, bytes %02x %02x)\n", path,
				 i, (unsigned long long)ph->p_vaddr,
				 (unsigned long long)ph->p_offset, b[0], b[1]);
			goto out;
		}
	}
	/* and as kcore.c reads it */
	kcore = kcore__open(path);
	if (!kcore || kcore->nr_segments != NR || kcore->segments[NR - 1].bytes[0] != (u8)(NR - 1))
		goto out;
	ret = TEST_OK;
out:
	if (fd >= 0)
		close(fd);
	free(loads);
	kcore__delete(kcore);
	elf_image__delete(ei);
	unlink(path);
	return ret;
}

/*
 * PERF_RECORD_MMAP of @obj at R0 with cpumode kernel, as the kernel
 * writes for kernel maps: the trailer is sample_id_all's for
 * TID | TIME | IDENTIFIER (the writer adds IDENTIFIER).
 */
static int perf_data__mmap(struct perf_writer *w, int idx, const char *obj)
{
	size_t name_len = PERF_ALIGN(strlen(obj) + 1, 8);
	size_t size = sizeof(struct perf_record_mmap) + name_len + 4 * sizeof(u64);
	union perf_event *ev = calloc(1, size);
	struct perf_record_mmap *m = &ev->mmap;
	u64 *trailer;
	int err;

	if (!ev)
		return -ENOMEM;
	m->header.type = PERF_RECORD_MMAP;
	m->header.misc = PERF_RECORD_MISC_KERNEL;
	m->header.size = size;
	m->pid = -1;
	m->tid = 0;
	m->start = R0;
	m->len = R3 + sizeof(r3_bytes) - R0;
	m->pgoff = 0;
	strcpy(m->filename, obj);
	trailer = (u64 *)(m->filename + name_len);
	trailer[0] = (u64)0 << 32 | (u32)-1; /* pid -1, tid 0 */
	trailer[1] = 200;
	trailer[2] = perf_writer__attr_id(w, idx);
	err = perf_writer__write_event(w, ev);
	free(ev);
	return err;
}

/*
 * A recording that maps the object at its kernel address (as a
 * PERF_RECORD_MMAP, or with @mmap2 a PERF_RECORD_MMAP2, cpumode kernel)
 * and samples in its two .text ranges.
 */
static int perf_data__write(const char *data, const char *obj, bool mmap2)
{
	struct perf_event_attr attr = {
	    .type = PERF_TYPE_SOFTWARE,
	    .config = PERF_COUNT_SW_CPU_CLOCK,
	    .size = sizeof(attr),
	    .sample_period = 1,
	    .sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME,
	    .sample_id_all = 1,
	    .mmap = 1,
	    .comm = 1,
	};
	static const u64 ips[] = {R0, R0 + 1, R0 + 4, R1, R1 + 3, R2, R3};
	struct perf_sample id = {.pid = -1, .tid = 0, .time = 100};
	struct perf_writer *w = perf_writer__new(data, 0);
	struct perf_record_mmap2 m = {
	    .header.misc = PERF_RECORD_MISC_KERNEL,
	    .pid = -1,
	    .tid = 0,
	    .prot = PROT_READ | PROT_EXEC,
	    .flags = MAP_PRIVATE,
	};
	int idx, err;
	size_t i;

	if (!w)
		return -errno;
	idx = perf_writer__add_attr(w, &attr, NULL, 0, "cpu-clock");
	err = idx < 0 ? idx : 0;
	err = err ?: perf_writer__set_arch(w, "x86_64");
	/* the kernel itself, away from the object */
	m.start = OUTSIDE;
	m.len = 0x1000000;
	m.pgoff = OUTSIDE;
	err = err ?: perf_writer__synth_mmap2(w, idx, &m, "[kernel.kallsyms]_text", &id);
	m.start = R0;
	m.len = R3 + sizeof(r3_bytes) - R0;
	m.pgoff = 0;
	id.time = 200;
	if (mmap2)
		err = err ?: perf_writer__synth_mmap2(w, idx, &m, obj, &id);
	else
		err = err ?: perf_data__mmap(w, idx, obj);
	for (i = 0; !err && i < ARRAY_SIZE(ips); i++) {
		struct perf_sample s = {
		    .ip = ips[i],
		    .pid = 0,
		    .tid = 0,
		    .time = 1000 + i,
		    .cpumode = PERF_RECORD_MISC_KERNEL,
		};

		err = perf_writer__synth_sample(w, idx, &s);
	}
	if (err) {
		perf_writer__abort(w);
		return err;
	}
	return perf_writer__close(w);
}

/*
 * Stock perf 6.1 loads the object as a kernel-mapped object: each sample
 * symbolized from its .symtab and its bytes (-F insn) read from the
 * object, in every range, and nothing else said.
 */
static int check_stock_perf(struct fx *fx)
{
	static const char want[] = "ffffffffc0001000 prog_a+0x0 (exec) insn: 55\n"
				   "ffffffffc0001001 prog_a+0x1 (exec) insn: 48 89 e5\n"
				   "ffffffffc0001004 prog_a+0x4 (exec) insn: c3\n"
				   "ffffffffc0001100 b_func+0x0 (exec) insn: 48 31 c0\n"
				   "ffffffffc0001103 b_func+0x3 (exec) insn: c3\n"
				   /* not .text: perf 6.1 gives it no symbols, but the bytes */
				   "ffffffffc0003000 [unknown] (exec) insn: 0f 1f 44 00 00\n"
				   /* over a page past the others, kept at its distance */
				   "ffffffffc0005000 d_func+0x0 (exec) insn: 90\n";
	char data[PATH_MAX], record[PATH_MAX + 64], *out;
	int mmap2, bad;

	for (mmap2 = 0; mmap2 < 2; mmap2++) {
		snprintf(data, sizeof(data), "%s/perf-%s.data", fx->dir, mmap2 ? "mmap2" : "mmap");
		TEST_ASSERT_EQUAL("perf.data", perf_data__write(data, fx->exec, mmap2), 0);
		/* the record is what perf sees: MMAP or MMAP2, of the object, in kernel mode */
		out = run(
		    "DEBUGINFOD_URLS= HOME='%s' perf script -i '%s' --show-mmap-events -F ip 2>&1",
		    fx->dir, data);
		TEST_ASSERT_VAL("perf script runs", out);
		snprintf(record, sizeof(record), "%s -1/0: [0xffffffffc0001000(0x4002) @ 0",
			 mmap2 ? "PERF_RECORD_MMAP2" : "PERF_RECORD_MMAP");
		bad = !strstr(out, record) || !strstr(out, fx->exec);
		if (bad)
			pr_debug("no '%s' of %s in:\n%s\n", record, fx->exec, out);
		free(out);
		if (bad)
			return TEST_FAIL;
		out = run(
		    "DEBUGINFOD_URLS= HOME='%s' perf script -i '%s' -F ip,sym,symoff,dso,insn 2>&1",
		    fx->dir, data);
		TEST_ASSERT_VAL("perf script runs", out);
		squeeze(out);
		bad = strcmp(out, want);
		if (bad)
			pr_debug("stock perf script (%s) printed:\n%swhere it should print:\n%s",
				 mmap2 ? "MMAP2" : "MMAP", out, want);
		free(out);
		if (bad)
			return TEST_FAIL;
	}
	return TEST_OK;
}

/* stock perf's own build-id reader: perf buildid-cache -a says which id it files @path under */
static int check_perf_build_id(struct fx *fx, const char *path, const struct build_id *bid)
{
	char hex[BUILD_ID_HEX_SIZE], want[PATH_MAX + 64], *out;
	bool ok;

	snprintf(want, sizeof(want), "Adding %s %s: Ok", build_id__sprintf(bid, hex), path);
	out = run("DEBUGINFOD_URLS= HOME='%s' perf buildid-cache -v -a '%s' 2>&1", fx->dir, path);
	TEST_ASSERT_VAL("perf buildid-cache runs", out);
	ok = strstr(out, want);
	if (!ok)
		pr_debug("no '%s' in:\n%s\n", want, out);
	free(out);
	return ok ? TEST_OK : TEST_FAIL;
}

/* kernel text for the kcore_dir part: two ranges with a hole, as a snapshot of modules has */
#define KTEXT 0xffffffff81000000ULL
#define KTEXT_B (KTEXT + 0x3000)

static int kcore_dir__write(const char *dir)
{
	static const char kallsyms[] = "ffffffff81000000 T _text\n"
				       "ffffffff81000000 T _stext\n"
				       "ffffffff81000000 T k_prog\n"
				       "ffffffff81003000 t k_func\n"
				       "ffffffff81004000 T _etext\n";
	struct elf_image *ei = elf_image__new(ELF_IMAGE_CORE);
	char path[PATH_MAX];
	int fd, err;

	if (!ei)
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s/kcore_dir", dir);
	err = mkdir(path, 0700) ? -errno : 0;
	err = err ?: elf_image__add_code(ei, "load", KTEXT_B, r1_bytes, sizeof(r1_bytes));
	err = err ?: elf_image__add_code(ei, "load", KTEXT, r0_bytes, sizeof(r0_bytes));
	err = err ?: elf_image__add_symbol(ei, "k_prog", KTEXT, 5, ELF_IMAGE_SYM_FUNC, true);
	err = err ?: elf_image__add_symbol(ei, "k_func", KTEXT_B, 4, ELF_IMAGE_SYM_FUNC, false);
	snprintf(path, sizeof(path), "%s/kcore_dir/kcore", dir);
	err = err ?: elf_image__write(ei, path, NULL);
	elf_image__delete(ei);
	snprintf(path, sizeof(path), "%s/kcore_dir/kallsyms", dir);
	fd = err ? -1 : open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (!err && (fd < 0 || write(fd, kallsyms, sizeof(kallsyms) - 1) != sizeof(kallsyms) - 1))
		err = -EIO;
	if (fd >= 0)
		close(fd);
	snprintf(path, sizeof(path), "%s/kcore_dir/modules", dir);
	fd = err ? -1 : open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (!err && fd < 0)
		err = -errno;
	if (fd >= 0)
		close(fd);
	return err;
}

/*
 * A perf.data directory whose kcore_dir/kcore is our core, and kernel
 * samples in both ranges.  The kernel's MMAP2 ends before the second
 * range, as a real one ends before the modules: perf 6.1's
 * dso__load_kcore() merges the segments other than _stext's only into
 * the gaps between the existing kernel maps, so one inside the kernel
 * map's old extent is dropped (tried: [unknown] for its sample).
 */
static int perf_data__write_kcore_dir(const char *data)
{
	struct perf_event_attr attr = {
	    .type = PERF_TYPE_SOFTWARE,
	    .config = PERF_COUNT_SW_CPU_CLOCK,
	    .size = sizeof(attr),
	    .sample_period = 1,
	    .sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME,
	    .sample_id_all = 1,
	    .mmap = 1,
	    .comm = 1,
	};
	static const u64 ips[] = {KTEXT, KTEXT + 1, KTEXT + 4, KTEXT_B};
	struct perf_sample id = {.pid = -1, .tid = 0, .time = 100};
	struct perf_writer *w = perf_writer__new(data, PERF_WRITER_DIRECTORY);
	struct perf_record_mmap2 m = {
	    .header.misc = PERF_RECORD_MISC_KERNEL,
	    .pid = -1,
	    .tid = 0,
	    .start = KTEXT,
	    .len = 0x1000,
	    .pgoff = KTEXT,
	    .prot = PROT_READ | PROT_EXEC,
	    .flags = MAP_PRIVATE,
	};
	int idx, err;
	size_t i;

	if (!w)
		return -errno;
	idx = perf_writer__add_attr(w, &attr, NULL, 0, "cpu-clock");
	err = idx < 0 ? idx : 0;
	err = err ?: perf_writer__set_arch(w, "x86_64");
	err = err ?: perf_writer__synth_mmap2(w, idx, &m, "[kernel.kallsyms]_text", &id);
	for (i = 0; !err && i < ARRAY_SIZE(ips); i++) {
		struct perf_sample s = {
		    .ip = ips[i],
		    .time = 1000 + i,
		    .cpumode = PERF_RECORD_MISC_KERNEL,
		};

		err = perf_writer__synth_sample(w, idx, &s);
	}
	err = err ?: kcore_dir__write(perf_writer__dir_path(w));
	if (err) {
		perf_writer__abort(w);
		return err;
	}
	return perf_writer__close(w);
}

/* stock perf reads the core as kcore_dir/kcore: the bytes of both PT_LOADs (-F insn) */
static int check_stock_perf_kcore(struct fx *fx)
{
	static const char want[] = "ffffffff81000000 k_prog+0x0 insn: 55\n"
				   "ffffffff81000001 k_prog+0x1 insn: 48 89 e5\n"
				   "ffffffff81000004 k_prog+0x4 insn: c3\n"
				   "ffffffff81003000 k_func+0x0 insn: 48 31 c0\n";
	char data[PATH_MAX], *out;
	int bad;

	snprintf(data, sizeof(data), "%s/perf-kcore.data", fx->dir);
	TEST_ASSERT_EQUAL("perf.data with kcore_dir", perf_data__write_kcore_dir(data), 0);
	out = run("DEBUGINFOD_URLS= HOME='%s' perf script -i '%s' -F ip,sym,symoff,insn 2>&1",
		  fx->dir, data);
	TEST_ASSERT_VAL("perf script runs", out);
	squeeze(out);
	bad = strcmp(out, want);
	if (bad)
		pr_debug("stock perf script on kcore_dir printed:\n%swhere it should print:\n%s",
			 out, want);
	free(out);
	return bad ? TEST_FAIL : TEST_OK;
}

/*
 * An object's holes are kept as zeros only up to 64 MiB in all: 100
 * one-byte ranges 1 MiB apart make a file of 64 MiB and a little, not
 * 100 MiB; the first 65 ranges (64 holes of 1 MiB - 1) keep address
 * minus offset, the others only the congruence.
 */
static int check_exec_holes(struct fx *fx)
{
	enum { NR = 100 };
	const u64 step = 1ULL << 20;
	struct elf_image *ei = elf_image__new(ELF_IMAGE_EXEC);
	Elf64_Phdr *loads = NULL;
	char path[PATH_MAX];
	struct stat st;
	int i, ret = TEST_FAIL;
	size_t nr;

	TEST_ASSERT_VAL("new", ei);
	snprintf(path, sizeof(path), "%s/holes", fx->dir);
	for (i = 0; i < NR; i++)
		if (elf_image__add_code(ei, NULL, R0 + i * step, r3_bytes, 1))
			goto out;
	if (elf_image__write(ei, path, NULL) || stat(path, &st) || raw_loads(path, &loads, &nr) ||
	    nr != NR)
		goto out;
	if (st.st_size > (64 << 20) + (1 << 20) || st.st_size < 64 << 20) {
		pr_debug("%s: %lld bytes for %d one-byte ranges 1 MiB apart\n", path,
			 (long long)st.st_size, NR);
		goto out;
	}
	for (i = 0; i < NR; i++) {
		const Elf64_Phdr *ph = &loads[i];
		bool kept = ph->p_vaddr - ph->p_offset == loads[0].p_vaddr - loads[0].p_offset;

		if (ph->p_offset % 4096 != ph->p_vaddr % 4096 || (i <= 64) != kept) {
			pr_debug("%s: PT_LOAD %d at %#llx, offset %#llx\n", path, i,
				 (unsigned long long)ph->p_vaddr, (unsigned long long)ph->p_offset);
			goto out;
		}
	}
	ret = TEST_OK;
out:
	free(loads);
	elf_image__delete(ei);
	unlink(path);
	return ret;
}

static int check_refusals(struct fx *fx)
{
	static const char keep[] = "not an ELF file, and it stays so\n";
	struct elf_image *ei = elf_image__new(ELF_IMAGE_EXEC);
	char long_name[ELF_IMAGE_MAX_NAME + 2], path[128], *back;
	size_t len;
	void *huge;
	int fd, err;

	TEST_ASSERT_VAL("new", ei);
	TEST_ASSERT_EQUAL("R0", elf_image__add_code(ei, NULL, R0, r0_bytes, sizeof(r0_bytes)), 0);
	TEST_ASSERT_EQUAL("R2", elf_image__add_code(ei, ".text", R2, r2_bytes, 6), 0);
	/* in the sorted part */
	TEST_ASSERT_EQUAL("overlap end", elf_image__add_code(ei, "x", R0 + 15, r0_bytes, 2),
			  -EINVAL);
	TEST_ASSERT_EQUAL("overlap start", elf_image__add_code(ei, "x", R0 - 1, r0_bytes, 2),
			  -EINVAL);
	TEST_ASSERT_EQUAL("cover", elf_image__add_code(ei, "x", R0 - 1, r0_bytes, 16), -EINVAL);
	/* out of order: into the tail, then against it */
	TEST_ASSERT_EQUAL("below", elf_image__add_code(ei, "x", R0 - 0x100, r0_bytes, 16), 0);
	TEST_ASSERT_EQUAL("overlap tail",
			  elf_image__add_code(ei, "x", R0 - 0x100 + 15, r0_bytes, 1), -EINVAL);
	TEST_ASSERT_EQUAL("adjacent", elf_image__add_code(ei, "x", R0 + 16, r1_bytes, 4), 0);
	TEST_ASSERT_EQUAL("empty", elf_image__add_code(ei, "x", R1, r1_bytes, 0), -EINVAL);
	TEST_ASSERT_EQUAL("wraps", elf_image__add_code(ei, "x", ~0ULL - 1, r1_bytes, 4), -EINVAL);
	memset(long_name, 'n', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';
	TEST_ASSERT_EQUAL("long section", elf_image__add_code(ei, long_name, R1, r1_bytes, 4),
			  -ENAMETOOLONG);
	TEST_ASSERT_EQUAL("long symbol",
			  elf_image__add_symbol(ei, long_name, R0, 1, ELF_IMAGE_SYM_FUNC, true),
			  -ENAMETOOLONG);
	long_name[ELF_IMAGE_MAX_NAME] = '\0';
	TEST_ASSERT_EQUAL("longest symbol",
			  elf_image__add_symbol(ei, long_name, R0, 1, ELF_IMAGE_SYM_FUNC, true), 0);
	TEST_ASSERT_EQUAL("empty symbol",
			  elf_image__add_symbol(ei, "", R0, 1, ELF_IMAGE_SYM_FUNC, true), -EINVAL);
	/* never read: a mapping that faults if it were */
	huge = mmap(NULL, ELF_IMAGE_MAX_CODE + 1, PROT_NONE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (huge != MAP_FAILED) {
		err = elf_image__add_code(ei, "x", 0x1000, huge, ELF_IMAGE_MAX_CODE + 1);
		munmap(huge, ELF_IMAGE_MAX_CODE + 1);
		TEST_ASSERT_EQUAL("more than 4 GiB", err, -EFBIG);
	}

	elf_image__delete(ei);

	/* one range past the limit, in one-byte ranges */
	ei = elf_image__new(ELF_IMAGE_CORE);
	TEST_ASSERT_VAL("new", ei);
	for (err = 0, len = 0; !err && len < ELF_IMAGE_MAX_RANGES; len++)
		err = elf_image__add_code(ei, "x", R0 + 2 * len, r0_bytes, 1);
	TEST_ASSERT_EQUAL("ranges up to the limit", err, 0);
	TEST_ASSERT_EQUAL("a range past the limit",
			  elf_image__add_code(ei, "x", R0 + 2 * len, r0_bytes, 1), -E2BIG);

	/* an existing path: refused, and left as it was */
	snprintf(path, sizeof(path), "%s/existing", fx->dir);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	TEST_ASSERT_VAL("existing file", fd >= 0);
	err = write(fd, keep, sizeof(keep) - 1) == sizeof(keep) - 1 ? 0 : -EIO;
	close(fd);
	TEST_ASSERT_EQUAL("existing file written", err, 0);
	TEST_ASSERT_EQUAL("EEXIST", elf_image__write(ei, path, NULL), -EEXIST);
	back = file__read(path, &len);
	err = back && len == sizeof(keep) - 1 && !memcmp(back, keep, len) ? 0 : -1;
	free(back);
	unlink(path);
	TEST_ASSERT_EQUAL("existing file untouched", err, 0);

	snprintf(path, sizeof(path), "%s/no/such/dir", fx->dir);
	TEST_ASSERT_EQUAL("ENOENT", elf_image__write(ei, path, NULL), -ENOENT);
	elf_image__delete(ei);
	return TEST_OK;
}

/* a file size limit below the image's size: -EFBIG, and no file left behind */
static int check_efbig(struct fx *fx)
{
	char path[PATH_MAX];
	int status;
	pid_t pid;

	snprintf(path, sizeof(path), "%s/too-big", fx->dir);
	pid = fork();
	TEST_ASSERT_VAL("fork", pid >= 0);
	if (!pid) {
		struct rlimit rl = {.rlim_cur = 4096, .rlim_max = 4096};
		struct elf_image *ei = fx__image(ELF_IMAGE_CORE, false, false);
		int err;

		signal(SIGXFSZ, SIG_IGN);
		if (!ei || setrlimit(RLIMIT_FSIZE, &rl))
			_exit(2);
		err = elf_image__write(ei, path, NULL);
		_exit(err == -EFBIG && access(path, F_OK) && errno == ENOENT ? 0 : 1);
	}
	TEST_ASSERT_VAL("wait", waitpid(pid, &status, 0) == pid);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		pr_debug("RLIMIT_FSIZE: not -EFBIG, or %s left behind\n", path);
		unlink(path);
		return TEST_FAIL;
	}
	return TEST_OK;
}

static int test__elf_image(struct test_suite *t)
{
	struct build_id exec_pred, core_pred;
	u64 exec_note = 0, core_note = 0;
	bool readelf = have("readelf"), sha1sum = have("sha1sum");
	struct fx fx;
	int ret = TEST_FAIL;

	TEST_ASSERT_VAL("sha1 vectors", check_sha1() == TEST_OK);
	fx.dir = fixture__tmpdir();
	TEST_ASSERT_VAL("scratch directory", fx.dir);
	snprintf(fx.exec, sizeof(fx.exec), "%s/exec", fx.dir);
	snprintf(fx.core, sizeof(fx.core), "%s/core", fx.dir);
	if (fx__write(ELF_IMAGE_EXEC, fx.exec, &fx.exec_bid, &exec_pred) ||
	    fx__write(ELF_IMAGE_CORE, fx.core, &fx.core_bid, &core_pred)) {
		pr_debug("cannot write the fixture into %s\n", fx.dir);
		goto out;
	}

	if (!readelf) {
		test_skip_part(t, "readelf part: no readelf");
	} else if (check_readelf(fx.exec, false, &exec_note) ||
		   check_readelf(fx.core, true, &core_note)) {
		goto out;
	}
	if (!have("objdump"))
		test_skip_part(t, "objdump part: no objdump");
	else if (check_objdump(fx.exec, false) || check_objdump(fx.core, true))
		goto out;
	if (!have("gdb"))
		test_skip_part(t, "gdb part: no gdb");
	else if (check_gdb(fx.exec, false) || check_gdb(fx.core, true))
		goto out;
	if (check_elf_section(fx.exec) || check_elf_section(fx.core))
		goto out;

	if (!sha1sum)
		test_skip_part(t, "build-id against sha1sum: no sha1sum");
	/* the zeroed copy needs the note's offset, which readelf gave */
	if (check_build_id(&fx, fx.exec, &fx.exec_bid, &exec_pred, exec_note, readelf,
			   sha1sum && readelf) ||
	    check_build_id(&fx, fx.core, &fx.core_bid, &core_pred, core_note, readelf,
			   sha1sum && readelf))
		goto out;
	TEST_ASSERT_VAL("exec and core differ", !build_id__equal(&fx.exec_bid, &fx.core_bid));
	if (check_contents_id(&fx, &fx.exec_bid))
		goto out;

	if (!fixture__have_perf())
		test_skip_part(t, "stock perf part: no perf");
	else if (check_stock_perf(&fx) || check_stock_perf_kcore(&fx) ||
		 check_perf_build_id(&fx, fx.exec, &fx.exec_bid) ||
		 check_perf_build_id(&fx, fx.core, &fx.core_bid))
		goto out;
	if (check_kcore(&fx) || check_many_ranges(&fx) || check_exec_holes(&fx))
		goto out;
	if (check_refusals(&fx) || check_efbig(&fx))
		goto out;
	ret = test_result(t);
out:
	fixture__remove_dir(fx.dir, "elf-image");
	free(fx.dir);
	return ret;
}

struct test_suite suite__elf_image = {
    .desc = "elf-image: ELF objects and cores as readelf, objdump, gdb and perf read them",
    .func = test__elf_image,
};
