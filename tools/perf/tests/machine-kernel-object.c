// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel-space ELF objects mapped by kernel MMAP/MMAP2 records, as perf
 * textpoke inject --jit writes them for BPF programs and OOL regions: an
 * ET_EXEC file whose .text is linked at the kernel address, with a
 * .symtab and a build-id.  Two objects are mapped one after the other at
 * one address, a KSYMBOL unregister between them (the second by a plain
 * MMAP), so each sample must resolve to the object mapped at its time:
 * its symbols from the file's own .symtab, its insn bytes from the file's
 * code.  An object whose file is missing and one whose ELF headers lie
 * give a warning naming the file and no bytes, never a crash.  One more
 * object is written by util/elf-image.c and named as inject names them,
 * so that the reader is held to the files inject really writes: two
 * ranges with a hole between them, whose bytes are unknown (stock perf
 * prints the file's zeros there; only sym and dso are compared with it).
 *
 * perf textpoke code over the address at three moments shows the same.
 * The objects are written byte by byte (kernel-object-elf.c, no project
 * ELF code), and the expected symbol, dso and bytes of every sample come
 * from the tables below, the dso names from perf's rule for them (the basename, '-' made
 * '_', see kmod_path__parse_name()).  Stock perf 6.1's perf script -F
 * ip,sym,dso on the same recording must print the same symbols and dsos.
 *
 * Mutation caught: kernel_mmap__is_object() returning false (objects taken
 * for modules again): the samples lose their symbols and dso names.
 * Mutation caught: machine__close_ksym_spans() skipping object spans
 * (continue when span->ksym_type == KSYM_TYPE_OBJECT): the sample after
 * the unregister resolves to the first object.  Mutation caught:
 * ti__object_close() adding no new_len 0 pokes: the gap after the
 * unregister keeps the first object's bytes (insn: 48 89 e5).
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fixture.h"
#include "kernel-object-elf.h"
#include "tests.h"
#include "../util/elf-image.h"
#include "../util/writer.h"

#define OBJ_ADDR 0xffffffffa0401000ULL /* reused: A, then B */
#define MISSING_ADDR 0xffffffffa0501000ULL
#define HOSTILE_ADDR 0xffffffffa0601000ULL
#define IMAGE_ADDR 0xffffffffa0801000ULL /* written by util/elf-image.c, as inject writes */

struct obj {
	const char *file; /* basename */
	const char *dso;  /* what perf names it */
	u64 addr;
	const u8 *code;
	u32 len;
	const struct kobj_sym *syms;
	int nr_syms;
	u8 bid[20];
};

/* nopl; push %rbp; mov %rsp,%rbp; xor %eax,%eax; leave; ret; int3s; then a sub-program */
static const u8 code_a[0x20] = {
    0x0f, 0x1f, 0x44, 0x00, 0x00, 0x55, 0x48, 0x89, 0xe5, 0x31, 0xc0, 0xc9, 0xc3, 0xcc, 0xcc, 0xcc,
    0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xb8, 0x01, 0x00, 0x00, 0x00, 0xc3, 0xcc, 0xcc,
};
static const struct kobj_sym syms_a[] = {
    {"bpf_prog_6deef7357e7b4530_sock_filter", 0, 0x18},
    {"bpf_prog_6deef7357e7b4530_F", 0x18, 0x8},
};

/* mov $2,%rax; ret; int3s */
static const u8 code_b[0x10] = {
    0x48, 0xc7, 0xc0, 0x02, 0x00, 0x00, 0x00, 0xc3, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
};
static const struct kobj_sym syms_b[] = {
    {"bpf_prog_0123456789abcdef_tc_egress", 0, 0x10},
};

/*
 * mov $0x2a,%eax; ret; then a second function: xor %eax,%eax; and a
 * second range 0x100 further (bytes between them unknown, which the
 * writer keeps as a hole in the file): inc %eax; ret
 */
#define IMAGE_GAP 0x100
static const u8 code_image[IMAGE_GAP + 3] = {
    0xb8, 0x2a, 0x00, 0x00, 0x00, 0xc3, 0x31, 0xc0, [IMAGE_GAP] = 0xff, 0xc0, 0xc3,
};
static const struct kobj_sym syms_image[] = {
    {"bpf_prog_e1e2e3e4e5e6e7e8_xdp", 0, 6},
    {"bpf_prog_e1e2e3e4e5e6e7e8_F", 6, 2},
    {"bpf_prog_e1e2e3e4e5e6e7e8_G", IMAGE_GAP, 3},
};

enum { OBJ_A, OBJ_B, OBJ_MISSING, OBJ_HOSTILE, OBJ_IMAGE, OBJ_NR };

/* elf_image__write() says it */
static struct build_id image_bid;

static const struct obj objs[OBJ_NR] = {
    [OBJ_A] = {.file = "bpf_prog_6deef7357e7b4530_sock_filter-1.elf",
	       .dso = "bpf_prog_6deef7357e7b4530_sock_filter_1.elf",
	       .addr = OBJ_ADDR,
	       .code = code_a,
	       .len = sizeof(code_a),
	       .syms = syms_a,
	       .nr_syms = 2,
	       .bid = {0xa1, 0xa2, 0xa3, 0xa4}},
    [OBJ_B] = {.file = "bpf_prog_0123456789abcdef_tc_egress-2.elf",
	       .dso = "bpf_prog_0123456789abcdef_tc_egress_2.elf",
	       .addr = OBJ_ADDR,
	       .code = code_b,
	       .len = sizeof(code_b),
	       .syms = syms_b,
	       .nr_syms = 1,
	       .bid = {0xb1, 0xb2, 0xb3, 0xb4}},
    [OBJ_MISSING] = {.file = "missing.elf",
		     .dso = "missing.elf",
		     .addr = MISSING_ADDR,
		     .len = 0x40,
		     .bid = {0xc1}},
    [OBJ_HOSTILE] = {.file = "hostile.elf",
		     .dso = "hostile.elf",
		     .addr = HOSTILE_ADDR,
		     .len = 0x40,
		     .bid = {0xd1}},
    /* inject --jit's names: the symbol's, then the object's number */
    [OBJ_IMAGE] = {.file = "bpf_prog_e1e2e3e4e5e6e7e8_xdp.7.o",
		   .dso = "bpf_prog_e1e2e3e4e5e6e7e8_xdp.7.o",
		   .addr = IMAGE_ADDR,
		   .code = code_image,
		   .len = sizeof(code_image),
		   .syms = syms_image,
		   .nr_syms = 3},
};

/* what each sample must show: expected sym (NULL: none) and dso of the object, and bytes */
struct expect {
	u64 time, ip;
	int obj; /* -1: no object */
	int sym; /* index in the object's syms, -1: none */
	u32 insn_len;
};

static const struct expect samples[] = {
    {110, OBJ_ADDR + 0x5, OBJ_A, 0, 1},		    /* push %rbp */
    {120, OBJ_ADDR + 0x6, OBJ_A, 0, 3},		    /* mov %rsp,%rbp */
    {130, OBJ_ADDR + 0x18, OBJ_A, 1, 5},	    /* the sub-program's mov $1,%eax */
    {140, MISSING_ADDR + 0x10, OBJ_MISSING, -1, 0}, /* the file is not there */
    {150, HOSTILE_ADDR + 0x10, OBJ_HOSTILE, -1, 0}, /* section headers past the end */
    {160, IMAGE_ADDR + 0x0, OBJ_IMAGE, 0, 5},	    /* mov $0x2a,%eax */
    {170, IMAGE_ADDR + 0x6, OBJ_IMAGE, 1, 2},	    /* xor %eax,%eax */
    {175, IMAGE_ADDR + 0x80, OBJ_IMAGE, -1, 0},	    /* the hole: no symbol, no bytes */
    {180, IMAGE_ADDR + IMAGE_GAP, OBJ_IMAGE, 2, 2}, /* inc %eax, in the second range */
    {250, OBJ_ADDR + 0x6, -1, -1, 0},		    /* after A's unregister, before B */
    {310, OBJ_ADDR + 0x0, OBJ_B, 0, 7},		    /* mov $2,%rax */
    {320, OBJ_ADDR + 0x7, OBJ_B, 0, 1},		    /* ret */
    {330, OBJ_ADDR + 0x18, -1, -1, 0},		    /* past B's end */
};

#define T_UNREGISTER_A 200
#define T_MAP_B 300

/* a plain PERF_RECORD_MMAP of the kernel, with its sample_id_all trailer (TID, TIME, IDENTIFIER) */
static int write_kernel_mmap(struct perf_writer *w, int idx, u64 start, u64 len,
			     const char *filename, u64 time)
{
	union {
		struct perf_record_mmap m;
		u8 bytes[4096 + 256];
	} rec;
	size_t n = PERF_ALIGN(strlen(filename) + 1, 8);
	u64 *trailer;

	memset(&rec, 0, sizeof(rec));
	rec.m.header.type = PERF_RECORD_MMAP;
	rec.m.header.misc = PERF_RECORD_MISC_KERNEL;
	rec.m.header.size = sizeof(rec.m) + n + 24;
	rec.m.pid = -1;
	rec.m.tid = 0;
	rec.m.start = start;
	rec.m.len = len;
	strcpy(rec.m.filename, filename);
	trailer = (u64 *)(rec.m.filename + n);
	trailer[0] = 0xffffffffULL; /* pid -1, tid 0 */
	trailer[1] = time;
	trailer[2] = perf_writer__attr_id(w, idx);
	return perf_writer__write_event(w, (union perf_event *)&rec);
}

static int write_kernel_mmap2(struct perf_writer *w, int idx, u64 start, u64 len,
			      const char *filename, const u8 *bid, u64 time)
{
	struct perf_record_mmap2 m = {
	    .header.misc = PERF_RECORD_MISC_KERNEL | PERF_RECORD_MISC_MMAP_BUILD_ID_BIT,
	    .pid = -1,
	    .tid = 0,
	    .start = start,
	    .len = len,
	    .build_id_size = 20,
	    .prot = 5,
	};
	struct perf_sample id = {.pid = -1, .tid = 0, .time = time};

	memcpy(m.build_id, bid, 20);
	return perf_writer__synth_mmap2(w, idx, &m, filename, &id);
}

static int write_recording(const char *data, char paths[OBJ_NR][4096])
{
	struct perf_event_attr attr = {
	    .type = PERF_TYPE_SOFTWARE,
	    .size = sizeof(attr),
	    .config = PERF_COUNT_SW_CPU_CLOCK,
	    .sample_period = 10000,
	    .sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME,
	    .sample_id_all = 1,
	    .mmap = 1,
	    .mmap2 = 1,
	    .ksymbol = 1,
	};
	struct perf_sample id = {.pid = -1, .tid = 0, .time = T_UNREGISTER_A};
	struct perf_writer *w = perf_writer__new(data, 0);
	size_t i;
	int idx, err;

	if (!w)
		return -errno;
	idx = perf_writer__add_attr(w, &attr, NULL, 0, "cpu-clock");
	err = idx < 0 ? idx : 0;
	err = err ?: perf_writer__set_arch(w, "x86_64");
	err = err ?: perf_writer__set_osrelease(w, "0.0-not-this-kernel");
	/* the BUILD_ID entries inject --jit writes (perf 6.1 names these objects by path) */
	err = err ?:
		    perf_writer__add_build_id(w, PERF_RECORD_MISC_KERNEL, -1, objs[OBJ_A].bid, 20,
					      paths[OBJ_A]);
	err = err ?:
		    perf_writer__add_build_id(w, PERF_RECORD_MISC_KERNEL, -1, objs[OBJ_B].bid, 20,
					      paths[OBJ_B]);
	err = err ?:
		    write_kernel_mmap2(w, idx, OBJ_ADDR, objs[OBJ_A].len, paths[OBJ_A],
				       objs[OBJ_A].bid, 100);
	err = err ?:
		    write_kernel_mmap2(w, idx, MISSING_ADDR, objs[OBJ_MISSING].len,
				       paths[OBJ_MISSING], objs[OBJ_MISSING].bid, 101);
	err = err ?:
		    write_kernel_mmap2(w, idx, HOSTILE_ADDR, objs[OBJ_HOSTILE].len,
				       paths[OBJ_HOSTILE], objs[OBJ_HOSTILE].bid, 102);
	err = err ?:
		    write_kernel_mmap2(w, idx, IMAGE_ADDR, objs[OBJ_IMAGE].len, paths[OBJ_IMAGE],
				       image_bid.data, 103);
	for (i = 0; !err && i < ARRAY_SIZE(samples); i++) {
		struct perf_sample s = {
		    .ip = samples[i].ip,
		    .pid = 0,
		    .tid = 0,
		    .time = samples[i].time,
		    .cpumode = PERF_RECORD_MISC_KERNEL,
		};

		if (i && samples[i].time > T_UNREGISTER_A && samples[i - 1].time < T_UNREGISTER_A)
			err = perf_writer__synth_ksymbol(
			    w, idx, OBJ_ADDR, objs[OBJ_A].len, PERF_RECORD_KSYMBOL_TYPE_BPF,
			    PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER, syms_a[0].name, &id);
		if (!err && i && samples[i].time > T_MAP_B && samples[i - 1].time < T_MAP_B)
			err = write_kernel_mmap(w, idx, OBJ_ADDR, objs[OBJ_B].len, paths[OBJ_B],
						T_MAP_B);
		err = err ?: perf_writer__synth_sample(w, idx, &s);
	}
	if (err) {
		perf_writer__abort(w);
		return err;
	}
	return perf_writer__close(w);
}

/* the object as inject --jit writes it, through util/elf-image.c */
static int write_image(const char *path)
{
	const struct obj *o = &objs[OBJ_IMAGE];
	struct elf_image *ei = elf_image__new(ELF_IMAGE_EXEC);
	int i, err;

	if (!ei)
		return -ENOMEM;
	err = elf_image__add_code(ei, ".text", o->addr, o->code, 8);
	err = err ?:
		    elf_image__add_code(ei, ".text", o->addr + IMAGE_GAP, o->code + IMAGE_GAP,
					o->len - IMAGE_GAP);
	for (i = 0; !err && i < o->nr_syms; i++)
		err = elf_image__add_symbol(ei, o->syms[i].name, o->addr + o->syms[i].off,
					    o->syms[i].len, ELF_IMAGE_SYM_FUNC, true);
	err = err ?: elf_image__write(ei, path, &image_bid);
	elf_image__delete(ei);
	return err;
}

/* " insn: 55" for the @len bytes at @off of @code */
static void insn_text(char *buf, size_t size, const u8 *code, u32 off, u32 len)
{
	size_t pos = snprintf(buf, size, " insn:");
	u32 i;

	for (i = 0; i < len; i++)
		pos += snprintf(buf + pos, size - pos, " %02x", code[off + i]);
}

/* the expected "ip sym (dso)" of every sample, one per line, as perf script -F ip,sym,dso */
static int check_lines(const char *out, bool with_insn)
{
	const char *line = out;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(samples); i++) {
		const struct expect *e = &samples[i];
		const struct obj *o = e->obj >= 0 ? &objs[e->obj] : NULL;
		const char *end = line ? strchr(line, '\n') : NULL;
		char want[512], insn[128] = "";
		size_t pos;

		if (!end) {
			pr_debug("sample %zu: no line\n", i);
			return -1;
		}
		if (with_insn && o && e->insn_len)
			insn_text(insn, sizeof(insn), o->code, e->ip - o->addr, e->insn_len);
		pos = snprintf(want, sizeof(want), "%16llx %s (%s)", (unsigned long long)e->ip,
			       o && e->sym >= 0 ? o->syms[e->sym].name : "[unknown]",
			       o ? o->dso : "[unknown]");
		snprintf(want + pos, sizeof(want) - pos, "%s", insn);
		/* perf script indents the ip field */
		while (*line == ' ' || *line == '\t')
			line++;
		if ((size_t)(end - line) != strlen(want) || strncmp(line, want, end - line)) {
			pr_debug("sample %zu at %llu: '%.*s', expected '%s'\n", i,
				 (unsigned long long)e->time, (int)(end - line), line, want);
			return -1;
		}
		line = end + 1;
	}
	if (*line) {
		pr_debug("more lines than samples: '%s'\n", line);
		return -1;
	}
	return 0;
}

static int test__machine_kernel_object(struct test_suite *t)
{
	char paths[OBJ_NR][4096], data[4200], cmd[9000], *dir = fixture__tmpdir();
	char *out = NULL, *err_out = NULL, *theirs = NULL;
	int ret = TEST_FAIL, i;

	TEST_ASSERT_VAL("tmpdir", dir);
	for (i = 0; i < OBJ_NR; i++)
		snprintf(paths[i], sizeof(paths[i]), "%s/%s", dir, objs[i].file);
	snprintf(data, sizeof(data), "%s/perf.data", dir);
	if (kobj_elf__write(paths[OBJ_A], OBJ_ADDR, code_a, sizeof(code_a), syms_a, 2,
			    objs[OBJ_A].bid) ||
	    kobj_elf__write(paths[OBJ_B], OBJ_ADDR, code_b, sizeof(code_b), syms_b, 1,
			    objs[OBJ_B].bid) ||
	    kobj_elf__write_hostile(paths[OBJ_HOSTILE]) || write_image(paths[OBJ_IMAGE]) ||
	    write_recording(data, paths)) {
		pr_debug("cannot write the fixture in %s\n", dir);
		goto out;
	}

	snprintf(cmd, sizeof(cmd), "'%s' script -i '%s' -F ip,sym,dso,insn", test_self_exe(), data);
	if (fixture__run(cmd, &out, &err_out) || !out) {
		pr_debug("%s failed: %s\n", cmd, err_out ?: "");
		goto out;
	}
	pr_debug("ours:\n%s%s", out, err_out ?: "");
	if (check_lines(out, true))
		goto out;
	/* one warning for each object whose bytes cannot be read, naming its file */
	for (i = OBJ_MISSING; i <= OBJ_HOSTILE; i++) {
		if (!strstr(err_out, paths[i])) {
			pr_debug("no warning names %s\n", paths[i]);
			goto out;
		}
	}

	/* perf textpoke code: A's bytes while A is mapped, none in the gap, B's and no more after */
	{
		static const struct {
			const char *time;
			const char *want;
		} code[] = {
		    {"0.000000150", "ffffffffa0401018:  b8 01 00 00 00"},
		    {"0.000000250", "ffffffffa0401000:  ?? x 32 (unknown)"},
		    {"0.000000310", "ffffffffa0401000:  48 c7 c0 02 00 00 00"},
		    {"0.000000310", "ffffffffa0401010:  ?? x 16 (unknown)"},
		};
		size_t j;

		for (j = 0; j < ARRAY_SIZE(code); j++) {
			free(out);
			snprintf(cmd, sizeof(cmd),
				 "'%s' code -i '%s' --time %s %#llx 0x20 2>/dev/null",
				 test_self_exe(), data, code[j].time, OBJ_ADDR);
			if (fixture__run(cmd, &out, NULL) || !out || !strstr(out, code[j].want)) {
				pr_debug("%s: no '%s' in:\n%s", cmd, code[j].want, out ?: "");
				goto out;
			}
		}
	}

	if (!fixture__have_perf()) {
		test_skip_part(t, "stock perf part: no perf");
	} else {
		snprintf(cmd, sizeof(cmd),
			 "HOME='%s' perf script -i '%s' -F ip,sym,dso 2>/dev/null", dir, data);
		if (fixture__run(cmd, &theirs, NULL) || !theirs) {
			pr_debug("%s failed\n", cmd);
			goto out;
		}
		pr_debug("stock perf:\n%s", theirs);
		if (check_lines(theirs, false))
			goto out;
	}
	ret = test_result(t);
out:
	free(out);
	free(err_out);
	free(theirs);
	fixture__remove_dir(dir, "machine-kernel-object");
	free(dir);
	return ret;
}

struct test_suite suite__machine_kernel_object = {
    .desc = "Machine model: kernel ELF objects mapped by MMAP/MMAP2, address reuse by time",
    .func = test__machine_kernel_object,
};
