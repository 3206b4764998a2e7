// SPDX-License-Identifier: GPL-2.0-only
/*
 * inject --jit on a BPF program of two sub-programs at addresses apart
 * (as the x86 JIT places them), each with its KSYMBOL, one PROG_LOAD and
 * its bytes in HEADER_BPF_PROG_INFO as one image cut by jited_func_lens.
 * Stock perf 6.1 on OUT must name each sample after its sub-program's
 * KSYMBOL and print the bytes written by hand below (the second
 * sub-program's start at the image's offset 16, not 0), and annotate the
 * second sub-program; OUT/jit holds two objects; the PROG_LOAD is gone
 * and the PROG_UNLOAD kept (perf script --show-bpf-events).  Before it, a
 * BPF KSYMBOL whose PROG_LOAD was lost came and went at the first
 * sub-program's address: it stays a KSYMBOL and takes no object.
 * Mutations caught: jit__sub_bytes() not adding the earlier sub-programs'
 * lengths (off += flen dropped): the second one's sample shows the first
 * one's bytes; jit__same_ksymbol() returning true whatever the machine
 * says: the lost KSYMBOL takes the program's object, the program's
 * sample gets no bytes.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests.h"
#include "../util/inject.h"
#include "../util/writer.h"

#define SJ_T0 1000000000ULL
#define SJ_MAIN 0xffffffffc0003000ULL
#define SJ_HELPER 0xffffffffc0005000ULL
#define SJ_MAIN_LEN 16
#define SJ_HELPER_LEN 24
#define SJ_ID 81
#define SJ_MAIN_NAME "bpf_prog_1111111111111111_sj_main"
#define SJ_HELPER_NAME "bpf_prog_2222222222222222_sj_helper"
#define SJ_LOST_NAME "bpf_prog_3333333333333333_sj_lost"

/* main: nop; mov $1,%eax; call; leave-ish; helper: push %rbp; mov %rsp,%rbp; xor; ... */
static const u8 sj_main[SJ_MAIN_LEN] = {0x90, 0xb8, 0x01, 0x00, 0x00, 0x00, 0xe8, 0xf5,
					0x1f, 0x00, 0x00, 0xc9, 0xc3, 0xcc, 0xcc, 0xcc};
static const u8 sj_helper[SJ_HELPER_LEN] = {0x55, 0x48, 0x89, 0xe5, 0x31, 0xc0, 0x48, 0x83,
					    0xc0, 0x02, 0x5d, 0xc3, 0xcc, 0xcc, 0xcc, 0xcc,
					    0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc};

/* HEADER_BPF_PROG_INFO of one program: info_len, data_len, arrays, info, data */
static int sj__prog_info(struct perf_writer *w)
{
	/* perf's bpil array bits: JITED_INSNS 0, JITED_KSYMS 3, JITED_FUNC_LENS 4 */
	const u64 arrays = (1 << 0) | (1 << 3) | (1 << 4);
	const u64 ksyms[2] = {SJ_MAIN, SJ_HELPER};
	const u32 lens[2] = {SJ_MAIN_LEN, SJ_HELPER_LEN};
	enum { INSNS = 0, KSYMS = 40, LENS = 56, DATA_LEN = 64 };
	u8 buf[4 + 16 + sizeof(struct bpf_prog_info) + DATA_LEN], *data;
	u32 nr = 1, info_len = sizeof(struct bpf_prog_info), data_len = DATA_LEN;
	struct bpf_prog_info info;

	memset(buf, 0, sizeof(buf));
	memset(&info, 0, sizeof(info));
	info.id = SJ_ID;
	info.type = BPF_PROG_TYPE_SOCKET_FILTER;
	info.jited_prog_len = SJ_MAIN_LEN + SJ_HELPER_LEN;
	info.jited_prog_insns = INSNS;
	info.nr_jited_ksyms = 2;
	info.jited_ksyms = KSYMS;
	info.nr_jited_func_lens = 2;
	info.jited_func_lens = LENS;
	memcpy(buf, &nr, 4);
	memcpy(buf + 4, &info_len, 4);
	memcpy(buf + 8, &data_len, 4);
	memcpy(buf + 12, &arrays, 8);
	memcpy(buf + 20, &info, sizeof(info));
	data = buf + 20 + sizeof(info);
	memcpy(data + INSNS, sj_main, SJ_MAIN_LEN);
	memcpy(data + INSNS + SJ_MAIN_LEN, sj_helper, SJ_HELPER_LEN);
	memcpy(data + KSYMS, ksyms, sizeof(ksyms));
	memcpy(data + LENS, lens, sizeof(lens));
	return perf_writer__set_bpf_prog_info(w, buf, sizeof(buf));
}

static int sj__write(const char *path)
{
	struct perf_event_attr attr = {
	    .type = PERF_TYPE_SOFTWARE,
	    .config = PERF_COUNT_SW_CPU_CLOCK,
	    .sample_period = 10000,
	    .sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
			   PERF_SAMPLE_PERIOD,
	    .sample_id_all = 1,
	};
	const u8 tag[8] = {0x11};
	struct perf_sample id = {.pid = 1, .tid = 1};
	struct perf_sample s = {.pid = 1, .tid = 1, .period = 10000};
	struct perf_writer *w = perf_writer__new(path, 0);
	int clock, dummy, err;

	if (!w)
		return -errno;
	clock = perf_writer__add_attr(w, &attr, NULL, 0, "cpu-clock");
	attr.config = PERF_COUNT_SW_DUMMY;
	attr.ksymbol = attr.bpf_event = 1;
	dummy = perf_writer__add_attr(w, &attr, NULL, 0, "dummy:HG");
	err = clock < 0 ? clock : dummy < 0 ? dummy : 0;
	err = err ?: perf_writer__set_arch(w, "x86_64");
	err = err ?: perf_writer__set_osrelease(w, "6.1.0-subprog");
	err = err ?: sj__prog_info(w);
#define SJ_AT(t) (id.time = SJ_T0 + (t), &id)
	/* a BPF KSYMBOL whose PROG_LOAD was lost, at the address reused next */
	err =
	    err ?:
		  perf_writer__synth_ksymbol(w, dummy, SJ_MAIN, SJ_MAIN_LEN,
					     PERF_RECORD_KSYMBOL_TYPE_BPF, 0, SJ_LOST_NAME, SJ_AT(2));
	err = err ?:
		    perf_writer__synth_ksymbol(
			w, dummy, SJ_MAIN, SJ_MAIN_LEN, PERF_RECORD_KSYMBOL_TYPE_BPF,
			PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER, SJ_LOST_NAME, SJ_AT(5));
	err = err ?:
		    perf_writer__synth_ksymbol(w, dummy, SJ_MAIN, SJ_MAIN_LEN,
					       PERF_RECORD_KSYMBOL_TYPE_BPF, 0, SJ_MAIN_NAME,
					       SJ_AT(10));
	err = err ?:
		    perf_writer__synth_ksymbol(w, dummy, SJ_HELPER, SJ_HELPER_LEN,
					       PERF_RECORD_KSYMBOL_TYPE_BPF, 0, SJ_HELPER_NAME,
					       SJ_AT(11));
	err = err ?:
		    perf_writer__synth_bpf_event(w, dummy, PERF_BPF_EVENT_PROG_LOAD, 0, SJ_ID, tag,
						 SJ_AT(12));
	s.cpumode = PERF_RECORD_MISC_KERNEL;
	s.time = SJ_T0 + 20;
	s.ip = SJ_MAIN + 1;
	err = err ?: perf_writer__synth_sample(w, clock, &s);
	s.time = SJ_T0 + 21;
	s.ip = SJ_HELPER + 4;
	err = err ?: perf_writer__synth_sample(w, clock, &s);
	err = err ?:
		    perf_writer__synth_ksymbol(
			w, dummy, SJ_MAIN, SJ_MAIN_LEN, PERF_RECORD_KSYMBOL_TYPE_BPF,
			PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER, SJ_MAIN_NAME, SJ_AT(30));
	err = err ?:
		    perf_writer__synth_ksymbol(
			w, dummy, SJ_HELPER, SJ_HELPER_LEN, PERF_RECORD_KSYMBOL_TYPE_BPF,
			PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER, SJ_HELPER_NAME, SJ_AT(31));
	err = err ?:
		    perf_writer__synth_bpf_event(w, dummy, PERF_BPF_EVENT_PROG_UNLOAD, 0, SJ_ID, tag,
						 SJ_AT(32));
#undef SJ_AT
	if (err) {
		perf_writer__abort(w);
		return err;
	}
	return perf_writer__close(w);
}

/* runs @cmd, true when its output holds every one of @want (NULL-ended) and no @bad */
static bool sj__output_has(const char *cmd, const char *const *want, const char *bad)
{
	bool seen[8] = {false}, ok = true;
	char buf[1024];
	size_t i;
	FILE *f = popen(cmd, "r");

	if (!f)
		return false;
	while (fgets(buf, sizeof(buf), f)) {
		for (i = 0; want[i]; i++)
			seen[i] |= strstr(buf, want[i]) != NULL;
		if (bad && strstr(buf, bad)) {
			pr_debug("unexpected: %s", buf);
			ok = false;
		}
	}
	pclose(f);
	for (i = 0; want[i]; i++) {
		if (!seen[i]) {
			pr_debug("missing from `%s`: %s\n", cmd, want[i]);
			ok = false;
		}
	}
	return ok;
}

static int sj__count(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	if (!d)
		return -1;
	while ((de = readdir(d)))
		n += de->d_name[0] != '.';
	closedir(d);
	return n;
}

static int test__inject_jit_subprog(struct test_suite *t)
{
	static const char *const script_want[] = {
	    "1.000000020:  ffffffffc0003001 " SJ_MAIN_NAME " insn: b8 01 00 00 00",
	    "1.000000021:  ffffffffc0005004 " SJ_HELPER_NAME " insn: 31 c0",
	    NULL,
	};
	static const char *const events_want[] = {
	    "PERF_RECORD_MMAP2 -1/0: [0xffffffffc0003000(0x10) @ 0 <",
	    "PERF_RECORD_MMAP2 -1/0: [0xffffffffc0005000(0x18) @ 0 <",
	    "PERF_RECORD_BPF_EVENT type 2, flags 0, id 81",
	    /* the lost one stays a KSYMBOL: the next load there is not its */
	    "PERF_RECORD_KSYMBOL addr ffffffffc0003000 len 16 type 1 flags 0x0 name " SJ_LOST_NAME,
	    NULL,
	};
	static const char *const annotate_want[] = {
	    "ffffffffc0005000 <" SJ_HELPER_NAME ">:",
	    "xor    %eax,%eax",
	    NULL,
	};
	char dir[] = "/tmp/textpoke-inject-jit-subprog.XXXXXX";
	char *in = NULL, *out = NULL, *jit = NULL, *cmd = NULL;
	struct inject_opts o = {.jit = true, .quiet = true};
	int ret = TEST_FAIL, n;

	if (system("perf --version >/dev/null 2>&1")) {
		test_skip(t, "no stock perf");
		return TEST_SKIP;
	}
	if (system("objdump --version >/dev/null 2>&1")) {
		test_skip(t, "no objdump (binutils) for perf annotate");
		return TEST_SKIP;
	}
	if (!mkdtemp(dir))
		return TEST_FAIL;
	if (asprintf(&in, "%s/in.data", dir) < 0 || asprintf(&out, "%s/out.data", dir) < 0 ||
	    asprintf(&jit, "%s/out.data/jit", dir) < 0)
		goto out;
	if (sj__write(in)) {
		pr_debug("cannot write the recording\n");
		goto out;
	}
	o.input = in;
	o.output = out;
	if (inject__run(&o)) {
		pr_debug("inject --jit failed\n");
		goto out;
	}
	n = sj__count(jit);
	if (n != 2) {
		pr_debug("%s: %d objects, not one per sub-program\n", jit, n);
		goto out;
	}
	if (asprintf(&cmd, "HOME=%s perf script -i %s -F time,ip,sym,insn --ns 2>/dev/null", dir,
		     out) < 0 ||
	    !sj__output_has(cmd, script_want, NULL))
		goto out;
	zfree(&cmd);
	if (asprintf(&cmd,
		     "HOME=%s perf script -i %s --show-mmap-events --show-bpf-events -F time "
		     "2>/dev/null",
		     dir, out) < 0 ||
	    !sj__output_has(cmd, events_want, "PERF_RECORD_BPF_EVENT type 1,"))
		goto out;
	zfree(&cmd);
	if (asprintf(&cmd, "HOME=%s perf annotate -i %s --stdio -s %s 2>&1", dir, out,
		     SJ_HELPER_NAME) < 0 ||
	    !sj__output_has(cmd, annotate_want, "Couldn't annotate"))
		goto out;
	ret = test_result(t);
out:
	free(cmd);
	if (asprintf(&cmd, "rm -rf %s", dir) >= 0 && system(cmd))
		pr_debug("cannot remove %s\n", dir);
	free(cmd);
	free(in);
	free(out);
	free(jit);
	return ret;
}

struct test_suite suite__inject_jit_subprog = {
    .desc = "inject --jit: a BPF program's sub-programs, each its own object and symbol",
    .func = test__inject_jit_subprog,
};
