// SPDX-License-Identifier: GPL-2.0-only
/*
 * inject --jit on a hostile recording: a BPF program named with "../" and
 * '/' and longer than any sane name, one whose HEADER_BPF_PROG_INFO claims
 * a sub-program of 2 GiB in a 32-byte image, and a KSYMBOL OOL of 4 GiB.
 * The output must hold exactly one object, in OUT/jit, under a name made
 * of [A-Za-z0-9_.] with no "..", of bounded length; nothing may appear
 * beside OUT; and stock perf 6.1 (the judge of the records) must see the
 * object mapped by an MMAP2 where the sane program's KSYMBOL was, with its
 * PROG_LOAD gone, and the two others' KSYMBOL and BPF_EVENT records as
 * IN had them.
 * Mutation caught: jit__basename() keeping every character (c == '_' made
 * c != '\0'): the name's "../" and '/' reach the path, and inject fails.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests.h"
#include "../util/inject.h"
#include "../util/writer.h"

#define HJ_T0 1000000000ULL
#define HJ_GOOD 0xffffffffc0001000ULL
#define HJ_HUGE 0xffffffffc0002000ULL
#define HJ_OOL 0xffffffffa0004000ULL
#define HJ_GOOD_ID 71
#define HJ_HUGE_ID 72
#define HJ_LEN 32

static const char hj_evil[] =
    "bpf_prog_0000000000000071_../../../../tmp/x/..//..aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";

/* HEADER_BPF_PROG_INFO: per program info_len, data_len, the arrays mask, info, data */
static int hj__prog_info(struct perf_writer *w)
{
	const u32 ids[2] = {HJ_GOOD_ID, HJ_HUGE_ID};
	const u64 addrs[2] = {HJ_GOOD, HJ_HUGE};
	/* the second one's only sub-program is 2 GiB long, in a 32-byte image */
	const u32 func_lens[2] = {HJ_LEN, 0x80000000U};
	/* perf's bpil array bits: JITED_INSNS 0, JITED_KSYMS 3, JITED_FUNC_LENS 4 */
	const u64 arrays = (1 << 0) | (1 << 3) | (1 << 4);
	const size_t data_len = 48, one = 16 + sizeof(struct bpf_prog_info) + data_len;
	u8 buf[4 + 2 * (16 + sizeof(struct bpf_prog_info) + 48)], *p = buf + 4;
	u32 nr = 2, info_len = sizeof(struct bpf_prog_info), dl = data_len;
	int i;

	memset(buf, 0, sizeof(buf));
	memcpy(buf, &nr, 4);
	for (i = 0; i < 2; i++, p += one) {
		struct bpf_prog_info info;
		u8 *data = p + 16 + sizeof(info);

		memset(&info, 0, sizeof(info));
		info.id = ids[i];
		info.type = BPF_PROG_TYPE_SOCKET_FILTER;
		info.jited_prog_len = HJ_LEN;
		info.jited_prog_insns = 0; /* offsets into data */
		info.nr_jited_ksyms = 1;
		info.jited_ksyms = 32;
		info.nr_jited_func_lens = 1;
		info.jited_func_lens = 40;
		memcpy(p, &info_len, 4);
		memcpy(p + 4, &dl, 4);
		memcpy(p + 8, &arrays, 8);
		memcpy(p + 16, &info, sizeof(info));
		memset(data, 0x90, HJ_LEN); /* nops */
		data[HJ_LEN - 1] = 0xc3;
		memcpy(data + 32, &addrs[i], 8);
		memcpy(data + 40, &func_lens[i], 4);
	}
	return perf_writer__set_bpf_prog_info(w, buf, sizeof(buf));
}

static int hj__write(const char *path)
{
	struct perf_event_attr attr = {
	    .type = PERF_TYPE_SOFTWARE,
	    .config = PERF_COUNT_SW_CPU_CLOCK,
	    .sample_period = 10000,
	    .sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
			   PERF_SAMPLE_PERIOD,
	    .sample_id_all = 1,
	};
	const u8 tag[8] = {0};
	struct perf_sample id = {.pid = 1, .tid = 1};
	struct perf_sample s = {.pid = 1, .tid = 1, .period = 10000};
	struct perf_writer *w = perf_writer__new(path, 0);
	int clock, dummy, err;

	if (!w)
		return -errno;
	clock = perf_writer__add_attr(w, &attr, NULL, 0, "cpu-clock");
	attr.config = PERF_COUNT_SW_DUMMY;
	attr.ksymbol = attr.bpf_event = attr.text_poke = 1;
	dummy = perf_writer__add_attr(w, &attr, NULL, 0, "dummy:HG");
	err = clock < 0 ? clock : dummy < 0 ? dummy : 0;
	err = err ?: perf_writer__set_arch(w, "x86_64");
	err = err ?: perf_writer__set_osrelease(w, "6.1.0-hostile");
	err = err ?: hj__prog_info(w);
	id.time = HJ_T0 + 10;
	err = err ?:
		    perf_writer__synth_ksymbol(w, dummy, HJ_GOOD, HJ_LEN,
					       PERF_RECORD_KSYMBOL_TYPE_BPF, 0, hj_evil, &id);
	id.time = HJ_T0 + 11;
	err = err ?:
		    perf_writer__synth_bpf_event(w, dummy, PERF_BPF_EVENT_PROG_LOAD, 0, HJ_GOOD_ID,
						 tag, &id);
	id.time = HJ_T0 + 20;
	err =
	    err ?:
		  perf_writer__synth_ksymbol(w, dummy, HJ_HUGE, HJ_LEN, PERF_RECORD_KSYMBOL_TYPE_BPF,
					     0, "bpf_prog_0000000000000072_huge", &id);
	id.time = HJ_T0 + 21;
	err = err ?:
		    perf_writer__synth_bpf_event(w, dummy, PERF_BPF_EVENT_PROG_LOAD, 0, HJ_HUGE_ID,
						 tag, &id);
	id.time = HJ_T0 + 30;
	err = err ?:
		    perf_writer__synth_ksymbol(w, dummy, HJ_OOL, 0xffffffffU,
					       PERF_RECORD_KSYMBOL_TYPE_OOL, 0, "../ool/..", &id);
	s.time = HJ_T0 + 40;
	s.ip = HJ_GOOD + 4;
	s.cpumode = PERF_RECORD_MISC_KERNEL;
	err = err ?: perf_writer__synth_sample(w, clock, &s);
	if (err) {
		perf_writer__abort(w);
		return err;
	}
	return perf_writer__close(w);
}

/* the entries of @dir, each checked by @ok; their number, or -1 when one fails */
static int hj__entries(const char *dir, bool (*ok)(const char *name))
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (!ok(de->d_name)) {
			pr_debug("%s: unexpected entry %s\n", dir, de->d_name);
			n = -1;
			break;
		}
		n++;
	}
	closedir(d);
	return n;
}

static bool hj__sane_object(const char *name)
{
	size_t i, len = strlen(name);

	if (strstr(name, "..") || len > 100 || !len || name[0] == '.')
		return false;
	for (i = 0; i < len; i++) {
		char c = name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '.'))
			return false;
	}
	return true;
}

static bool hj__top(const char *name)
{
	return !strcmp(name, "in.data") || !strcmp(name, "out.data") ||
	       !strcmp(name, "script.out") || !strcmp(name, "script.err");
}

/* stock perf's view of OUT's side-band: what each expected line says */
static int hj__stock(const char *dir, const char *out)
{
	static const char *const want[] = {
	    /* the sane program: mapped, its PROG_LOAD gone */
	    "PERF_RECORD_MMAP2 -1/0: [0xffffffffc0001000(0x20) @ 0 <",
	    /* the hostile ones as IN had them */
	    "PERF_RECORD_KSYMBOL addr ffffffffc0002000 len 32 type 1 flags 0x0 name "
	    "bpf_prog_0000000000000072_huge",
	    "PERF_RECORD_BPF_EVENT type 1, flags 0, id 72",
	    "PERF_RECORD_KSYMBOL addr ffffffffa0004000 len 4294967295 type 2 flags 0x0 name "
	    "../ool/..",
	};
	char *cmd, buf[1024];
	bool seen[4] = {false}, bad = false;
	size_t i;
	FILE *f;

	if (asprintf(&cmd,
		     "HOME=%s perf script -i %s --show-mmap-events --show-bpf-events -F time "
		     "2>%s/script.err",
		     dir, out, dir) < 0)
		return -ENOMEM;
	f = popen(cmd, "r");
	free(cmd);
	if (!f)
		return -errno;
	while (fgets(buf, sizeof(buf), f)) {
		for (i = 0; i < 4; i++) {
			if (strstr(buf, want[i]))
				seen[i] = true;
		}
		/* mapped from OUT/jit, under its sanitised name */
		if (strstr(buf, want[0]) &&
		    (!strstr(buf, "]: r-xp ") ||
		     !strstr(buf, "/out.data/jit/bpf_prog_0000000000000071_"))) {
			pr_debug("the MMAP2 names another file: %s", buf);
			bad = true;
		}
		if (strstr(buf, "PERF_RECORD_BPF_EVENT type 1, flags 0, id 71")) {
			pr_debug("OUT keeps the PROG_LOAD of the mapped program: %s", buf);
			bad = true;
		}
	}
	pclose(f);
	for (i = 0; i < 4; i++) {
		if (!seen[i]) {
			pr_debug("stock perf script on OUT lacks: %s\n", want[i]);
			bad = true;
		}
	}
	return bad ? -1 : 0;
}

static int test__inject_jit_hostile(struct test_suite *t)
{
	char dir[] = "/tmp/textpoke-inject-jit-hostile.XXXXXX";
	char *in = NULL, *out = NULL, *jit = NULL, *cmd = NULL;
	struct inject_opts o = {.jit = true, .quiet = true};
	int ret = TEST_FAIL;

	if (!mkdtemp(dir))
		return TEST_FAIL;
	if (asprintf(&in, "%s/in.data", dir) < 0 || asprintf(&out, "%s/out.data", dir) < 0 ||
	    asprintf(&jit, "%s/out.data/jit", dir) < 0 || asprintf(&cmd, "rm -rf %s", dir) < 0)
		goto out;
	if (hj__write(in)) {
		pr_debug("cannot write the hostile recording\n");
		goto out;
	}
	o.input = in;
	o.output = out;
	if (inject__run(&o)) {
		pr_debug("inject --jit refused the hostile recording\n");
		goto out;
	}
	if (hj__entries(jit, hj__sane_object) != 1 || hj__entries(dir, hj__top) != 2) {
		pr_debug(
		    "OUT/jit must hold one sanely named object, and nothing may be beside OUT\n");
		goto out;
	}
	if (system("perf --version >/dev/null 2>&1")) {
		test_skip_part(t, "records part: no stock perf");
	} else if (hj__stock(dir, out)) {
		goto out;
	}
	ret = test_result(t);
out:
	if (cmd && system(cmd))
		pr_debug("cannot remove %s\n", dir);
	free(in);
	free(out);
	free(jit);
	free(cmd);
	return ret;
}

struct test_suite suite__inject_jit_hostile = {
    .desc = "inject --jit: hostile names and lengths stay in OUT/jit, records stay when unusable",
    .func = test__inject_jit_hostile,
};
