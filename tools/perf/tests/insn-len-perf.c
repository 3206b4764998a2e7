// SPDX-License-Identifier: GPL-2.0-only
/*
 * insn against stock perf's own decoder, at every byte: a recording from
 * our writer whose samples land on each byte offset of a stretch of real
 * code (copies of this machine's 64-bit and 32-bit C libraries), most of
 * them inside instructions, and on hand-written encodings written into
 * that stretch (AVX-512 k-mask moves and EVEX forms capstone 4 does not
 * know, VEX, XOP, 3DNow!, the hypervisor emulation prefix, long prefix
 * runs) and on pseudo-random bytes after those.  perf 6.1's `perf script -F ip,insn` decodes each with its
 * instruction-length decoder; ours must print the same bytes, line for
 * line.  Then probes of every opcode of every map under every prefix,
 * VEX and EVEX form and ModRM.reg, which reach every entry of perf's
 * tables: stock perf says for each whether it decodes and how long it is.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fixture.h"
#include "tests.h"
#include "../util/writer.h"

#define PID 5151
#define WINDOW 0x4000	    /* bytes of code sampled per object, at every offset */
#define RANDOM_BYTES 0x2000 /* of them, after the blob: pseudo-random */

/* encodings a disassembler may not know, sampled at each of their bytes too */
/* clang-format off */
static const u8 blob[] = {
	0xc5, 0xf8, 0x90, 0xc1,		      /* kmovw %k1,%k0 */
	0xc4, 0xe1, 0xf8, 0x90, 0xc1,	      /* kmovq %k1,%k0 */
	0xc5, 0xfb, 0x92, 0xc8,		      /* kmovd %eax,%k1 */
	0xc5, 0xf8, 0x93, 0xc1,		      /* kmovw %k1,%eax */
	0xc5, 0xf8, 0x91, 0x04, 0x24,	      /* kmovw %k0,(%rsp) */
	0xc4, 0xe3, 0xf9, 0x30, 0xc1, 0x05,   /* kshiftrw */
	0x62, 0xf1, 0xfd, 0x48, 0x6f, 0x44, 0x24, 0x01, /* vmovdqa64 0x40(%rsp),%zmm0 */
	0x62, 0xf1, 0xff, 0x48, 0x6f, 0xc1,	     /* vmovdqu16 */
	0x62, 0xf3, 0x7d, 0x48, 0x1b, 0xc1, 0x01,    /* vextractf32x8 */
	0x62, 0xf3, 0xfd, 0x48, 0x25, 0xc1, 0xff,    /* vpternlogq */
	0x62, 0xf2, 0x7d, 0x48, 0xc6, 0x4c, 0x24, 0x01, /* vgatherpf0dps */
	0x62, 0xb1, 0x7c, 0x48, 0x10, 0x84, 0x24, 0x00, 0x01, 0x00, 0x00,
	0x62, 0xf5, 0x7c, 0x48, 0x58, 0xc1,   /* vaddph: EVEX map 5 (AVX512-FP16) */
	0x62, 0xf6, 0x7d, 0x48, 0x98, 0xc1,   /* vfmadd132ph: map 6 */
	0x62, 0xf6, 0x7d, 0x48, 0x13, 0xc1,   /* vcvtph2psx */
	0x62, 0xf5, 0x7e, 0x08, 0x10, 0xc1,   /* vmovsh */
	0x62, 0xf7, 0x7c, 0x48, 0x58, 0xc1,   /* map 7: none */
	0xc4, 0xe3, 0x7d, 0x4a, 0xc1, 0x20,   /* vblendvps */
	0xc4, 0xe2, 0x70, 0xf3, 0xc8,	      /* blsr */
	0xc4, 0xe3, 0x7b, 0xf0, 0xc1, 0x05,   /* rorx */
	0x8f, 0xe8, 0x78, 0xc0, 0xc1, 0x00,   /* XOP vprotb */
	0x8f, 0xea, 0x78, 0x10, 0xc1, 0x00, 0x00, 0x00, 0x00, /* XOP bextr */
	0x0f, 0x0f, 0x44, 0x24, 0x08, 0x9e,   /* 3DNow! pfadd */
	0x0f, 0x0b, 0x78, 0x65, 0x6e, 0x0f, 0xa2, /* ud2 "xen" cpuid */
	0x0f, 0x0b, 0x6b, 0x76, 0x6d, 0x0f, 0x01, 0xc1, /* ud2 "kvm" vmcall */
	0x26, 0x2e, 0x36, 0x3e, 0x64, 0x65, 0x90, /* more than four prefixes */
	0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x66, 0xe8, 0x00, 0x00, 0x00, 0x00,   /* call with 66 */
	0x66, 0x68, 0x01, 0x02, 0x03, 0x04,   /* push with 66 */
	0x48, 0x9a, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, /* far call with REX.W */
	0x0f, 0x38, 0xf2, 0xc1,		      /* andn without VEX */
	0xc5, 0xf8, 0x00, 0xc0,		      /* sldt with VEX */
	0x0f, 0x19, 0x04, 0x24, 0x0f, 0xff, 0xc0, 0x0f, 0xb8, 0xc0,
	0xc4, 0x07, 0xc5, 0x06, 0x62, 0x00,   /* les, lds, bound in 32-bit mode */
	0xa1, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
	0x67, 0x8b, 0x06, 0x34, 0x12, 0xc8, 0x10, 0x00, 0x00,
};
/* clang-format on */

/*
 * Probes: one 16-byte slot per (prefixes, map, opcode, ModRM.reg), the
 * ModRM a register form so that nothing but the opcode's own attributes
 * decide the length, then filler an immediate is read from.  Together
 * they reach every entry of every table perf's decoder has, and with a
 * sample on each, stock perf says what each entry is.
 */
#define SLOT 16

struct probes {
	u8 *buf;
	size_t nr, alloc; /* slots */
};

static int probe(struct probes *pr, const u8 *head, size_t n, u8 op, u8 reg)
{
	u8 *slot;

	if (pr->nr == pr->alloc) {
		size_t alloc = pr->alloc ? 2 * pr->alloc : 4096;
		u8 *p = realloc(pr->buf, alloc * SLOT);

		if (!p)
			return -ENOMEM;
		pr->buf = p;
		pr->alloc = alloc;
	}
	slot = pr->buf + pr->nr++ * SLOT;
	memset(slot, 0x11, SLOT);
	memcpy(slot, head, n);
	slot[n] = op;
	slot[n + 1] = 0xc0 | reg << 3;
	return 0;
}

static int make_probes(struct probes *pr)
{
	/* legacy prefixes that select forms, and the escapes */
	static const u8 pfx[][2] = {{}, {0x66}, {0xf3}, {0xf2}, {0x66, 0xf2}, {0xf2, 0x66}};
	static const u8 pfx_len[] = {0, 1, 1, 1, 2, 2};
	static const u8 esc[][2] = {{}, {0x0f}, {0x0f, 0x38}, {0x0f, 0x3a}};
	static const u8 esc_len[] = {0, 1, 2, 2};
	unsigned int p, e, op, reg, m, pp;
	int err = 0;

	for (p = 0; p < 6; p++) {
		for (e = 0; e < 4; e++) {
			for (op = 0; op < 256; op++) {
				for (reg = 0; reg < 8; reg++) {
					u8 head[4];

					memcpy(head, pfx[p], pfx_len[p]);
					memcpy(head + pfx_len[p], esc[e], esc_len[e]);
					err = err ?:
						    probe(pr, head, pfx_len[p] + esc_len[e], op, reg);
				}
			}
		}
	}
	/* VEX2 (map 1), VEX3 and EVEX maps 0..7; W 0, vvvv 1111, L 0 */
	for (pp = 0; pp < 4; pp++) {
		for (op = 0; op < 256; op++) {
			for (reg = 0; reg < 8; reg++) {
				u8 vex2[2] = {0xc5, 0xf8 | pp};

				err = err ?: probe(pr, vex2, 2, op, reg);
				for (m = 0; m < 8; m++) {
					u8 vex3[3] = {0xc4, 0xe0 | m, 0x78 | pp};

					err = err ?: probe(pr, vex3, 3, op, reg);
				}
				for (m = 0; m < 8; m++) {
					u8 evex[4] = {0x62, 0xf0 | m, 0x7c | pp, 0x48};

					err = err ?: probe(pr, evex, 4, op, reg);
				}
			}
		}
	}
	return err;
}

struct object {
	char path[4096];
	u64 base, pgoff, len;	     /* the executable mapping */
	u64 window;		     /* file offset of the sampled stretch */
	u64 probes_base, probes_off; /* the probes, appended to the file and mapped apart */
	size_t nr_probes;
};

/*
 * Copy the ELF at @src to @dst with the blob written at the middle of its
 * executable segment, and say where that segment and the stretch are.
 */
static int copy_object(const char *src, const char *dst, struct object *o, const struct probes *pr)
{
	struct stat st;
	u8 *buf = NULL;
	int fd, err = -EINVAL, i, phnum;
	u64 off = 0, filesz = 0;
	u32 seed;

	fd = open(src, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) || st.st_size < (off_t)sizeof(Elf64_Ehdr))
		goto out;
	buf = malloc(st.st_size);
	if (!buf || pread(fd, buf, st.st_size, 0) != st.st_size)
		goto out;
	close(fd);
	fd = -1;
	if (memcmp(buf, ELFMAG, SELFMAG))
		goto out;
	if (buf[EI_CLASS] == ELFCLASS64) {
		Elf64_Ehdr *eh = (void *)buf;

		phnum = eh->e_phnum;
		for (i = 0; i < phnum; i++) {
			Elf64_Phdr *ph = (void *)(buf + eh->e_phoff + i * sizeof(*ph));

			if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
				off = ph->p_offset;
				filesz = ph->p_filesz;
				break;
			}
		}
	} else {
		Elf32_Ehdr *eh = (void *)buf;

		phnum = eh->e_phnum;
		for (i = 0; i < phnum; i++) {
			Elf32_Phdr *ph = (void *)(buf + eh->e_phoff + i * sizeof(*ph));

			if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
				off = ph->p_offset;
				filesz = ph->p_filesz;
				break;
			}
		}
	}
	if (filesz < 4 * WINDOW || off + filesz > (u64)st.st_size)
		goto out;
	o->pgoff = off & ~0xfffULL;
	o->len = (off - o->pgoff + filesz + 0xfff) & ~0xfffULL;
	o->window = off + filesz / 2;
	memcpy(buf + o->window, blob, sizeof(blob));
	/* and bytes that are no code: every table entry, valid or not, is reached */
	for (i = 0, seed = 0x1234567; i < RANDOM_BYTES; i++) {
		seed = seed * 1103515245 + 12345;
		buf[o->window + sizeof(blob) + i] = seed >> 16;
	}
	fd = open(dst, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, buf, st.st_size) != st.st_size)
		goto out;
	o->probes_off = ((u64)st.st_size + 0xfff) & ~0xfffULL;
	if (pwrite(fd, pr->buf, pr->nr * SLOT, o->probes_off) != (ssize_t)(pr->nr * SLOT))
		goto out;
	o->nr_probes = pr->nr;
	err = 0;
out:
	if (fd >= 0)
		close(fd);
	free(buf);
	return err;
}

static int write_recording(const char *path, struct object *objs, int nr)
{
	struct perf_event_attr attr = {
	    .type = PERF_TYPE_SOFTWARE,
	    .size = sizeof(attr),
	    .config = PERF_COUNT_SW_CPU_CLOCK,
	    .sample_period = 10000,
	    .sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
			   PERF_SAMPLE_PERIOD,
	    .disabled = 1,
	    .sample_id_all = 1,
	    .mmap = 1,
	    .mmap2 = 1,
	    .comm = 1,
	    .task = 1,
	};
	struct perf_sample id = {.pid = PID, .tid = PID, .time = 1000};
	struct perf_writer *w = perf_writer__new(path, 0);
	u64 t = 2000;
	int idx, err, i;

	if (!w)
		return -errno;
	idx = perf_writer__add_attr(w, &attr, NULL, 0, "cpu-clock");
	err = idx < 0 ? idx : 0;
	err = err ?: perf_writer__set_hostname(w, "insn-host");
	err = err ?: perf_writer__set_osrelease(w, "6.1.0-insn");
	err = err ?: perf_writer__set_version(w, "6.1.insn");
	err = err ?: perf_writer__set_arch(w, "x86_64");
	err = err ?: perf_writer__set_nrcpus(w, 1, 1);
	err = err ?: perf_writer__synth_comm(w, idx, PID, PID, "insn-every-byte", false, &id);
	for (i = 0; !err && i < nr; i++) {
		struct perf_record_mmap2 m = {
		    .header.misc = PERF_RECORD_MISC_USER,
		    .pid = PID,
		    .tid = PID,
		    .start = objs[i].base,
		    .len = objs[i].len,
		    .pgoff = objs[i].pgoff,
		    .maj = 8,
		    .ino = 7000 + i,
		    .prot = PROT_READ | PROT_EXEC,
		    .flags = MAP_PRIVATE,
		};

		err = perf_writer__synth_mmap2(w, idx, &m, objs[i].path, &id);
		m.start = objs[i].probes_base;
		m.pgoff = objs[i].probes_off;
		m.len = (objs[i].nr_probes * SLOT + 0xfff) & ~0xfffULL;
		err = err ?: perf_writer__synth_mmap2(w, idx, &m, objs[i].path, &id);
	}
	for (i = 0; !err && i < nr; i++) {
		u64 k;

		for (k = 0; !err && k < WINDOW; k++) {
			struct perf_sample s = {
			    .ip = objs[i].base + objs[i].window + k - objs[i].pgoff,
			    .pid = PID,
			    .tid = PID,
			    .time = t++,
			    .period = 10000,
			    .cpumode = PERF_RECORD_MISC_USER,
			};

			err = perf_writer__synth_sample(w, idx, &s);
		}
		for (k = 0; !err && k < objs[i].nr_probes; k++) {
			struct perf_sample s = {
			    .ip = objs[i].probes_base + k * SLOT,
			    .pid = PID,
			    .tid = PID,
			    .time = t++,
			    .period = 10000,
			    .cpumode = PERF_RECORD_MISC_USER,
			};

			err = perf_writer__synth_sample(w, idx, &s);
		}
	}
	if (err) {
		perf_writer__abort(w);
		return err;
	}
	return perf_writer__close(w);
}

static char *sh_out(const char *cmd)
{
	char *out = NULL;

	if (fixture__run(cmd, &out, NULL) || !out) {
		free(out);
		return NULL;
	}
	return out;
}

static int test__insn_len_perf(struct test_suite *t)
{
	char *libc64 = sh_out("gcc -print-file-name=libc.so.6 2>/dev/null");
	char *libc32 = sh_out("gcc -m32 -print-file-name=libc.so.6 2>/dev/null");
	char *dir = NULL, *ours = NULL, *theirs = NULL, data[4200], cmd[9000];
	struct object objs[2] = {};
	int nr = 0, ret = TEST_FAIL, lines = 0, with_insn = 0, nr_lines = 0, err;
	const char *srcs[2];
	char *p, *q;

	if (!fixture__have_perf()) {
		test_skip(t, "stock perf is not installed");
		ret = TEST_SKIP;
		goto out;
	}
	if (libc64)
		libc64[strcspn(libc64, "\n")] = '\0';
	if (libc32)
		libc32[strcspn(libc32, "\n")] = '\0';
	srcs[0] = libc64;
	srcs[1] = libc32;
	dir = fixture__tmpdir();
	TEST_ASSERT_VAL("tmpdir", dir);
	for (int i = 0; i < 2; i++) {
		struct object *o = &objs[nr];

		if (!srcs[i] || srcs[i][0] != '/' || access(srcs[i], R_OK)) {
			pr_debug("no %s-bit libc: not checked\n", i ? "32" : "64");
			continue;
		}
		struct probes pr = {};

		snprintf(o->path, sizeof(o->path), "%s/libc%d.so", dir, i ? 32 : 64);
		o->base = i ? 0xf7000000ULL : 0x7f0000000000ULL;
		o->probes_base = i ? 0xe0000000ULL : 0x7e0000000000ULL;
		err = make_probes(&pr) ?: copy_object(srcs[i], o->path, o, &pr);
		nr_lines += WINDOW + pr.nr;
		free(pr.buf);
		if (err) {
			pr_debug("%s: no executable segment to copy\n", srcs[i]);
			goto out;
		}
		nr++;
	}
	if (!nr) {
		test_skip(t, "no C library to copy");
		ret = TEST_SKIP;
		goto out;
	}
	snprintf(data, sizeof(data), "%s/perf.data", dir);
	if (write_recording(data, objs, nr)) {
		pr_debug("cannot write %s\n", data);
		goto out;
	}
	/* a scratch HOME: no build-id cache of this machine's stands in */
	snprintf(cmd, sizeof(cmd), "HOME='%s' perf script -i '%s' -F ip,insn 2>/dev/null", dir,
		 data);
	theirs = sh_out(cmd);
	snprintf(cmd, sizeof(cmd), "'%s' script -i '%s' -F ip,insn", test_self_exe(), data);
	ours = sh_out(cmd);
	if (!theirs || !ours) {
		pr_debug("%s failed\n", theirs ? "perf textpoke script" : "stock perf script");
		goto out;
	}
	/* line by line, so that a difference says where */
	for (p = theirs, q = ours; *p || *q; lines++) {
		size_t lp = strcspn(p, "\n"), lq = strcspn(q, "\n");

		if (lp != lq || memcmp(p, q, lp)) {
			pr_debug("line %d: stock perf '%.*s', ours '%.*s'\n", lines + 1, (int)lp, p,
				 (int)lq, q);
			goto out;
		}
		with_insn += memmem(p, lp, " insn:", 6) != NULL;
		p += lp + !!p[lp];
		q += lq + !!q[lq];
	}
	pr_debug("%d lines equal, %d with insn, %d objects\n", lines, with_insn, nr);
	TEST_ASSERT_EQUAL("one line per sample", lines, nr_lines);
	/*
	 * not an agreement on printing nothing: perf refuses most VEX and
	 * EVEX probes (no such form), but decodes the rest
	 */
	TEST_ASSERT_VAL("insn on many lines", with_insn > lines / 4);
	if (nr < 2)
		test_skip(t, "64-bit only: no 32-bit libc (gcc-multilib missing)");
	ret = nr < 2 ? TEST_SKIP : TEST_OK;
out:
	if (dir)
		fixture__remove_dir(dir, "insn-len-perf");
	free(dir);
	free(libc64);
	free(libc32);
	free(ours);
	free(theirs);
	return ret;
}

struct test_suite suite__insn_len_perf = {
    .desc = "insn: the bytes perf 6.1 prints at every byte of real and AVX-512/VEX/XOP code",
    .func = test__insn_len_perf,
};
