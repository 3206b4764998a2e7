// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf textpoke inject --snapshot=start with a module and a BPF program
 * loaded before the recording, stock perf 6.1 as the judge.  A small
 * recording is written here, its expected bytes derived by hand: a
 * kernel and a module, each with a jump label poked from nop5 to jmp in
 * the middle of the recording, a BPF program whose KSYMBOL and BPF_EVENT
 * come at time 0 (as perf record synthesizes them for programs already
 * loaded), and a kcore copied at the end.  Stock perf takes a
 * kcore_dir's kcore only when its modules file lists every module map at
 * its address (symbol.c: do_validate_kcore_modules()): on OUT it shows
 * the module's bytes as they were, which it can only take from the
 * snapshot (under [kernel.kallsyms], as for any kcore: kcore_mapfn()
 * gives every segment the kernel's dso).  The BPF program's bytes sit in
 * the snapshot's kcore too, and perf still takes them from
 * HEADER_BPF_PROG_INFO under the program's own name: its map is made
 * before the kcore is read, and dso__load_kcore() keeps BPF maps.
 * readelf lists the kernel's, the module's and the program's symbols.
 * A poke made at time 0 is before the start: the snapshot holds the
 * code it replaced, and perf applies it first.  A trampoline whose name
 * holds a tab and a newline takes one kallsyms line, blanks made '_'.
 * Recorded without kcore and pokes, the snapshot's kcore holds no code
 * (not the BPF program's, which would become perf's kernel map) and perf
 * resolves every sample as on the input.  Recorded without a modules
 * file, the module is found in kallsyms for the snapshot's.
 *
 * Mutations caught: in snap__add_module(), mod->start = map->start + 1
 * (the modules file no longer matches the module map: perf drops the
 * kcore and shows no kernel or module bytes at all); START with
 * before_zero false (the snapshot holds the time-0 poke's jmp);
 * snap__name() keeping blanks (the trampoline's line is broken);
 * snap__without_kernel_text() returning 0 at once (the bare recording's
 * kernel and module samples resolve to nothing on OUT);
 * snap__probe_kallsyms_modules() reading nothing (no module in the
 * modules file of the recording without one).
 */
#include <elf.h>
#include <errno.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests.h"
#include "elf-section.h"
#include "fixture.h"
#include "fixture-kcore.h"
#include "../util/writer.h"

#define MS_T0 1000000000ULL
#define MS_TEXT 0xffffffff81000000ULL
#define MS_TEXT_LEN 0x2000
#define MS_MOD 0xffffffffc1000000ULL
#define MS_MOD_LEN 0x1000
#define MS_BPF 0xffffffffc0002000ULL
#define MS_BPF_LEN 0x20
#define MS_BPF_ID 31
#define MS_BPF_NAME "bpf_prog_c3c3c3c3c3c3c3c3_ms_c"
#define MS_SITE 0x104  /* the jump label, in the kernel and in the module */
#define MS_SITE0 0x204 /* a kernel jump label poked at time 0 */
#define MS_OOL 0xffffffffc0004000ULL
#define MS_OOL_NAME "../ftrace\ttrampoline\n[x]"
#define MS_OOL_LINE "ffffffffc0004000 t ../ftrace_trampoline_[x]\t[__builtin__ftrace]\n"

static const u8 nop5[5] = {0x0f, 0x1f, 0x44, 0x00, 0x00};
static const u8 jmp5[5] = {0xe9, 0x3b, 0x00, 0x00, 0x00};
static const u8 bpf_at5[2] = {0x66, 0x90};
static const u8 nop2[2] = {0x66, 0x90};
static const u8 jmp2[2] = {0xeb, 0x10};

struct ms_rec {
	char *dir;
	char *path;	 /* dir/perf.data */
	bool bare;	 /* no kcore, no pokes: the only known code is the BPF program's */
	bool no_modules; /* kcore_dir without its modules file; no module code or poke */
	int clock, dummy;
	u8 text[MS_TEXT_LEN], mod[MS_MOD_LEN], bpf[MS_BPF_LEN];
};

/* kernel or module code: int3 padding around a function with the jump label */
static void ms__code(u8 *code, size_t len)
{
	memset(code, 0xcc, len);
	memcpy(code + 0x100, "\x55\x48\x89\xe5", 4);
	memcpy(code + MS_SITE, nop5, 5);
	memset(code + 0x109, 0x90, 0x35);
	memcpy(code + 0x13e, "\x5d\xc3", 2);
	memcpy(code + 0x200, "\x55\x48\x89\xe5", 4);
	memcpy(code + MS_SITE0, nop2, 2);
	memset(code + 0x206, 0x90, 0x38);
	memcpy(code + 0x23e, "\x5d\xc3", 2);
}

static int ms__attrs(struct perf_writer *w, struct ms_rec *r)
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
	    .exclude_guest = 1,
	};

	r->clock = perf_writer__add_attr(w, &attr, NULL, 0, "cpu-clock");
	if (r->clock < 0)
		return r->clock;
	attr.config = PERF_COUNT_SW_DUMMY;
	attr.sample_period = 1;
	attr.mmap = attr.mmap2 = attr.comm = attr.task = 1;
	attr.ksymbol = attr.bpf_event = attr.text_poke = 1;
	r->dummy = perf_writer__add_attr(w, &attr, NULL, 0, "dummy:HG");
	return r->dummy < 0 ? r->dummy : 0;
}

/* HEADER_BPF_PROG_INFO for one program: arrays as offsets into the data, as perf writes them */
static int ms__bpf_prog_info(struct perf_writer *w, const struct ms_rec *r)
{
	/* bpil_array_types: JITED_INSNS 0, JITED_KSYMS 3, JITED_FUNC_LENS 4 */
	const u64 arrays = (1 << 0) | (1 << 3) | (1 << 4), ksym = MS_BPF;
	const u32 data_len = 0x30, func_len = MS_BPF_LEN;
	struct bpf_prog_info info = {0};
	u8 buf[4 + 16 + sizeof(info) + 0x30] = {0}, *p = buf + 4;

	*(u32 *)buf = 1;
	info.id = MS_BPF_ID;
	info.type = BPF_PROG_TYPE_KPROBE;
	info.tag[7] = MS_BPF_ID;
	strcpy((char *)info.name, "ms_c");
	info.jited_prog_len = MS_BPF_LEN;
	info.jited_prog_insns = 0;
	info.nr_jited_ksyms = 1;
	info.jited_ksyms = 0x20;
	info.nr_jited_func_lens = 1;
	info.jited_func_lens = 0x28;
	*(u32 *)p = sizeof(info);
	*(u32 *)(p + 4) = data_len;
	memcpy(p + 8, &arrays, 8);
	memcpy(p + 16, &info, sizeof(info));
	p += 16 + sizeof(info);
	memcpy(p, r->bpf, MS_BPF_LEN);
	memcpy(p + 0x20, &ksym, 8);
	memcpy(p + 0x28, &func_len, 4);
	return perf_writer__set_bpf_prog_info(w, buf, sizeof(buf));
}

static int ms__poke(struct perf_writer *w, const struct ms_rec *r, u64 addr, const u8 *old,
		    u16 old_len, const u8 *new, u16 new_len, const struct perf_sample *id)
{
	/* without a modules file, nothing but kallsyms says where the module is */
	if (r->bare || (r->no_modules && addr >= MS_MOD && addr < MS_MOD + MS_MOD_LEN))
		return 0;
	return perf_writer__synth_text_poke(w, r->dummy, addr, old, old_len, new, new_len, id);
}

static int ms__sample(struct perf_writer *w, const struct ms_rec *r, u64 time, u64 ip)
{
	struct perf_sample s = {
	    .ip = ip,
	    .time = time,
	    .period = 10000,
	    .cpumode = PERF_RECORD_MISC_KERNEL,
	};

	return perf_writer__synth_sample(w, r->clock, &s);
}

static int ms__records(struct perf_writer *w, struct ms_rec *r)
{
	struct perf_record_mmap2 m = {
	    .header.misc = PERF_RECORD_MISC_KERNEL,
	    .pid = -1,
	    .start = MS_TEXT,
	    .len = MS_TEXT_LEN,
	    .pgoff = MS_TEXT,
	};
	struct perf_sample t0 = {.time = 0}, t = {.time = MS_T0 + 2000};
	u8 tag[8] = {0xc3, 0, 0, 0, 0, 0, 0, MS_BPF_ID};
	int err;

	err = perf_writer__synth_mmap2(w, r->dummy, &m, "[kernel.kallsyms]_text", &t0);
	m.start = MS_MOD;
	m.len = MS_MOD_LEN;
	m.pgoff = 0;
	err = err ?:
		    perf_writer__synth_mmap2(w, r->dummy, &m,
					     "/lib/modules/6.1.0-fixture/kernel/ms_mod.ko", &t0);
	err = err ?: perf_writer__synth_comm(w, r->dummy, 0, 0, "swapper", false, &t0);
	/* what perf record synthesizes for a program loaded before it started */
	err = err ?:
		    perf_writer__synth_ksymbol(w, r->dummy, MS_BPF, MS_BPF_LEN,
					       PERF_RECORD_KSYMBOL_TYPE_BPF, 0, MS_BPF_NAME, &t0);
	err = err ?:
		    perf_writer__synth_bpf_event(w, r->dummy, PERF_BPF_EVENT_PROG_LOAD, 0, MS_BPF_ID,
						 tag, &t0);
	/* a trampoline named to break the kallsyms line it goes into */
	err = err ?:
		    perf_writer__synth_ksymbol(w, r->dummy, MS_OOL, 0x1000,
					       PERF_RECORD_KSYMBOL_TYPE_OOL, 0, MS_OOL_NAME, &t0);
	/* a poke without a time: perf applies it first, before any sample */
	err = err ?: ms__poke(w, r, MS_TEXT + MS_SITE0, nop2, 2, jmp2, 2, &t0);
	err = err ?: perf_writer__synth_finished_round(w);
	err = err ?: ms__sample(w, r, MS_T0 + 1000, MS_TEXT + MS_SITE);
	err = err ?: ms__sample(w, r, MS_T0 + 1001, MS_MOD + MS_SITE);
	err = err ?: ms__sample(w, r, MS_T0 + 1002, MS_BPF + 5);
	err = err ?: ms__poke(w, r, MS_TEXT + MS_SITE, nop5, 5, jmp5, 5, &t);
	t.time++;
	err = err ?: ms__poke(w, r, MS_MOD + MS_SITE, nop5, 5, jmp5, 5, &t);
	err = err ?: ms__sample(w, r, MS_T0 + 3000, MS_TEXT + MS_SITE);
	err = err ?: ms__sample(w, r, MS_T0 + 3001, MS_MOD + MS_SITE);
	err = err ?: ms__sample(w, r, MS_T0 + 3002, MS_BPF + 5);
	err = err ?: ms__sample(w, r, MS_T0 + 3003, MS_TEXT + MS_SITE0);
	/* its code, so that the snapshot has it */
	t.time = MS_T0 + 3500;
	err = err ?: ms__poke(w, r, MS_OOL, NULL, 0, r->text + 0x100, 0x40, &t);
	return err ?: perf_writer__synth_finished_round(w);
}

/* kcore as copied at the end: the kernel and the module with their jump labels poked */
static int ms__kcore(const char *dir, struct ms_rec *r)
{
	u8 *text = malloc(MS_TEXT_LEN), *mod = malloc(MS_MOD_LEN);
	struct fixture_segment segs[] = {{MS_TEXT, text, MS_TEXT_LEN}, {MS_MOD, mod, MS_MOD_LEN}};
	int err = -ENOMEM;

	if (text && mod) {
		memcpy(text, r->text, MS_TEXT_LEN);
		memcpy(mod, r->mod, MS_MOD_LEN);
		memcpy(text + MS_SITE, jmp5, 5);
		memcpy(mod + MS_SITE, jmp5, 5);
		memcpy(text + MS_SITE0, jmp2, 2);
		err = fixture__write_kcore(dir, segs, r->no_modules ? 1 : 2);
	}
	free(text);
	free(mod);
	return err;
}

static int ms__kcore_dir(const char *dir, struct ms_rec *r)
{
	static const char kallsyms[] = "ffffffff81000000 T _text\n"
				       "ffffffff81000000 T _stext\n"
				       "ffffffff81000100 T ms_kernel_fn\n"
				       "ffffffff81002000 T _etext\n"
				       "ffffffffc1000100 t ms_module_fn\t[ms_mod]\n";
	static const char modules[] = "ms_mod 4096 0 - Live 0xffffffffc1000000\n";
	char path[4200];
	int err;

	snprintf(path, sizeof(path), "%s/kcore_dir", dir);
	err = mkdir(path, 0700) ? -errno : 0;
	err = err ?: fixture__write_file(path, "kallsyms", kallsyms, strlen(kallsyms));
	if (!r->no_modules)
		err = err ?: fixture__write_file(path, "modules", modules, strlen(modules));
	if (r->bare)
		return err;
	return err ?: ms__kcore(path, r);
}

static int ms__new(struct ms_rec *r)
{
	static const char *const argv[] = {"/usr/bin/perf", "record", "--kcore", "-a"};
	struct perf_writer *w;
	int err;

	r->dir = fixture__tmpdir();
	if (!r->dir || asprintf(&r->path, "%s/perf.data", r->dir) < 0)
		return -ENOMEM;
	ms__code(r->text, MS_TEXT_LEN);
	ms__code(r->mod, MS_MOD_LEN);
	memset(r->bpf, 0x90, MS_BPF_LEN);
	memcpy(r->bpf, nop5, 5);
	memcpy(r->bpf + 5, bpf_at5, 2);
	memcpy(r->bpf + MS_BPF_LEN - 2, "\xc9\xc3", 2);
	w = perf_writer__new(r->path, PERF_WRITER_DIRECTORY);
	if (!w)
		return -errno;
	err = ms__attrs(w, r);
	err = err ?: perf_writer__set_hostname(w, "fixture-module");
	err = err ?: perf_writer__set_osrelease(w, "6.1.0-fixture");
	err = err ?: perf_writer__set_version(w, "6.1.fixture");
	err = err ?: perf_writer__set_arch(w, "x86_64");
	err = err ?: perf_writer__set_nrcpus(w, 1, 1);
	err = err ?: perf_writer__set_cpudesc(w, "Fixture CPU");
	err = err ?: perf_writer__set_cpuid(w, "GenuineIntel,6,85,4");
	err = err ?: perf_writer__set_total_mem(w, 1024 * 1024);
	err = err ?: perf_writer__set_cmdline(w, ARRAY_SIZE(argv), argv);
	err = err ?: perf_writer__set_sample_time(w, MS_T0 + 1000, MS_T0 + 3003);
	err = err ?: ms__bpf_prog_info(w, r);
	err = err ?: ms__records(w, r);
	err = err ?: ms__kcore_dir(perf_writer__dir_path(w), r);
	if (err) {
		perf_writer__abort(w);
		return err;
	}
	return perf_writer__close(w);
}

/* what perf script -F ip,dso,insn must print, derived by hand from the records */
static const char *const ms_expected =
    " ffffffff81000104 ([kernel.kallsyms]) insn: 0f 1f 44 00 00\n"
    " ffffffffc1000104 ([kernel.kallsyms]) insn: 0f 1f 44 00 00\n"
    " ffffffffc0002005 (" MS_BPF_NAME ") insn: 66 90\n"
    " ffffffff81000104 ([kernel.kallsyms]) insn: e9 3b 00 00 00\n"
    " ffffffffc1000104 ([kernel.kallsyms]) insn: e9 3b 00 00 00\n"
    " ffffffffc0002005 (" MS_BPF_NAME ") insn: 66 90\n"
    " ffffffff81000204 ([kernel.kallsyms]) insn: eb 10\n";

/* lines of perf's output equal to the expected ones, -1 when perf fails */
static int ms__perf_right(const struct ms_rec *r, const char *path)
{
	char *cmd = NULL, *out = NULL, *l, *e, *save_l = NULL, *save_e = NULL;
	char *want = strdup(ms_expected);
	int right = -1;

	if (!want || asprintf(&cmd, "HOME=%s perf script -i %s -F ip,dso,insn 2>/dev/null", r->dir,
			      path) < 0)
		goto out;
	if (fixture__run(cmd, &out, NULL) != 0 || !out)
		goto out;
	right = 0;
	for (l = strtok_r(out, "\n", &save_l), e = strtok_r(want, "\n", &save_e); l && e;
	     l = strtok_r(NULL, "\n", &save_l), e = strtok_r(NULL, "\n", &save_e)) {
		if (!strcmp(l, e))
			right++;
		else
			pr_debug("%s: perf '%s', expected '%s'\n", path, l, e);
	}
	if (l || e) {
		pr_debug("%s: perf printed another number of lines\n", path);
		right = -1;
	}
out:
	free(want);
	free(cmd);
	free(out);
	return right;
}

static int ms__check_file(const char *path, const char *want)
{
	char *cmd = NULL, *out = NULL;
	int ret = -1;

	if (asprintf(&cmd, "cat %s", path) < 0)
		return -1;
	if (!fixture__run(cmd, &out, NULL) && out && strstr(out, want))
		ret = 0;
	else
		pr_debug("%s does not hold '%s'\n", path, want);
	free(cmd);
	free(out);
	return ret;
}

/*
 * No kcore, no pokes: the snapshot's kcore would hold the BPF program
 * only, which perf would make its kernel map of, dropping every other
 * symbol.  It holds nothing, and perf resolves as on the input.
 */
static int ms__bare(void)
{
	struct ms_rec r = {.bare = true};
	char cmd[8700], *a = NULL, *b = NULL;
	int ret = -1, i;

	if (ms__new(&r)) {
		pr_debug("cannot write the bare recording\n");
		goto out;
	}
	snprintf(cmd, sizeof(cmd), "%s inject -q -i %s -o %s/out.data --snapshot=start",
		 test_self_exe(), r.path, r.dir);
	if (fixture__run(cmd, NULL, NULL)) {
		pr_debug("'%s' failed\n", cmd);
		goto out;
	}
	for (i = 0; i < 2; i++) {
		snprintf(cmd, sizeof(cmd), "HOME=%s perf script -i %s%s -F ip,sym,dso 2>/dev/null",
			 r.dir, i ? r.dir : r.path, i ? "/out.data" : "");
		if (fixture__run(cmd, i ? &b : &a, NULL) || !(i ? b : a))
			goto out;
	}
	if (strcmp(a, b) || !strstr(a, "ms_kernel_fn")) {
		pr_debug("bare: stock perf resolves\n%s\non the input, and\n%s\non the snapshot\n",
			 a, b);
		goto out;
	}
	snprintf(cmd, sizeof(cmd), "readelf -lW %s/out.data/kcore_dir/kcore | grep -c LOAD", r.dir);
	free(a);
	a = NULL;
	if (!fixture__run("readelf --version", NULL, NULL) &&
	    (fixture__run(cmd, &a, NULL) != 1 || !a || strcmp(a, "0\n"))) {
		pr_debug("bare: the kcore has code: %s", a ?: "");
		goto out;
	}
	ret = 0;
out:
	free(a);
	free(b);
	if (r.dir)
		fixture__remove_dir(r.dir, "inject-snapshot-module");
	free(r.dir);
	free(r.path);
	return ret;
}

/*
 * A kcore_dir without its modules file, and no module code or poke:
 * perf refuses the input's kcore (read_proc_modules() fails), the module
 * is found in kallsyms only, for the snapshot's modules file, and perf
 * takes the snapshot's kcore (the kernel's jump label as it was at the
 * start; the module's code is known nowhere).
 */
static int ms__no_modules(void)
{
	struct ms_rec r = {.no_modules = true};
	char cmd[8700];
	int in_right, out_right, ret = -1;

	if (ms__new(&r)) {
		pr_debug("cannot write the recording without modules\n");
		goto out;
	}
	snprintf(cmd, sizeof(cmd),
		 "%s inject -q -i %s -o %s/out.data --kcore-time=end --snapshot=start",
		 test_self_exe(), r.path, r.dir);
	if (fixture__run(cmd, NULL, NULL)) {
		pr_debug("'%s' failed\n", cmd);
		goto out;
	}
	snprintf(cmd, sizeof(cmd), "%s/out.data/kcore_dir/modules", r.dir);
	if (ms__check_file(cmd, "ms_mod 4096 0 - Live 0xffffffffc1000000"))
		goto out;
	snprintf(cmd, sizeof(cmd), "%s/out.data", r.dir);
	in_right = ms__perf_right(&r, r.path);
	out_right = ms__perf_right(&r, cmd);
	pr_debug("no modules file: perf right on %d of 7 samples on IN, %d on OUT\n", in_right,
		 out_right);
	/* on IN perf uses no kcore: the BPF program's bytes only */
	if (in_right != 2 || out_right != 5)
		goto out;
	ret = 0;
out:
	if (r.dir)
		fixture__remove_dir(r.dir, "inject-snapshot-module");
	free(r.dir);
	free(r.path);
	return ret;
}

static int test__inject_snapshot_module(struct test_suite *t)
{
	static const char *const symbols[] = {"ms_kernel_fn", "ms_module_fn", MS_BPF_NAME};
	struct ms_rec r = {0};
	char out[4200], kdir[4300], cmd[8700], *text = NULL;
	u8 *bytes = NULL;
	u64 addr, len;
	int in_right, out_right, ret = TEST_FAIL;
	size_t i;

	if (!fixture__have_perf()) {
		test_skip(t, "stock perf not installed");
		return TEST_SKIP;
	}
	if (ms__new(&r)) {
		pr_debug("cannot write the recording\n");
		goto out;
	}
	snprintf(out, sizeof(out), "%s/out.data", r.dir);
	snprintf(kdir, sizeof(kdir), "%s/kcore_dir", out);
	/*
	 * The copy was taken at the end, as --kcore-time says: fitting its
	 * anchor instead picks one segment's fit for the whole copy
	 * (text-image.c: ti__fit()), here the kernel's, which holds the
	 * module's poke, made 1 ns later, as made already.
	 */
	snprintf(cmd, sizeof(cmd), "%s inject -q -i %s -o %s --kcore-time=end --snapshot=start",
		 test_self_exe(), r.path, out);
	if (fixture__run(cmd, NULL, NULL)) {
		pr_debug("'%s' failed\n", cmd);
		goto out;
	}

	in_right = ms__perf_right(&r, r.path);
	out_right = ms__perf_right(&r, out);
	pr_debug("module and BPF: perf right on %d of 7 samples on IN, %d on OUT\n", in_right,
		 out_right);
	/* on IN the kernel's and the module's jump labels look poked from the start */
	if (in_right != 5 || out_right != 7)
		goto out;
	/* the start is before the poke made at time 0, as perf applies it on top */
	snprintf(cmd, sizeof(cmd), "%s/kcore", kdir);
	if (elf_section__read(cmd, ".kernel", &addr, &bytes, &len) || addr != MS_TEXT ||
	    len != MS_TEXT_LEN || memcmp(bytes + MS_SITE0, nop2, 2)) {
		pr_debug("%s: .kernel does not hold the nop2 at %#llx\n", cmd,
			 (unsigned long long)(MS_TEXT + MS_SITE0));
		goto out;
	}

	snprintf(cmd, sizeof(cmd), "%s/modules", kdir);
	if (ms__check_file(cmd, "ms_mod 4096 0 - Live 0xffffffffc1000000"))
		goto out;
	/* the trampoline's name made one line of kallsyms, blanks and all */
	snprintf(cmd, sizeof(cmd), "%s/kallsyms", kdir);
	if (ms__check_file(cmd, MS_OOL_LINE))
		goto out;
	if (fixture__run("readelf --version", NULL, NULL)) {
		test_skip_part(t, "readelf part: no readelf");
	} else {
		snprintf(cmd, sizeof(cmd), "readelf -sW %s/kcore", kdir);
		if (fixture__run(cmd, &text, NULL) || !text)
			goto out;
		for (i = 0; i < ARRAY_SIZE(symbols); i++) {
			if (!strstr(text, symbols[i])) {
				pr_debug("readelf does not list %s:\n%s", symbols[i], text);
				goto out;
			}
		}
	}
	if (ms__bare() || ms__no_modules())
		goto out;
	ret = test_result(t);
out:
	free(text);
	free(bytes);
	if (r.dir)
		fixture__remove_dir(r.dir, "inject-snapshot-module");
	free(r.dir);
	free(r.path);
	return ret;
}

struct test_suite suite__inject_snapshot_module = {
    .desc = "inject --snapshot=start: a module and a BPF program loaded before, by stock perf",
    .func = test__inject_snapshot_module,
    .exclusive = true,
};
