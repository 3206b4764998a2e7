// SPDX-License-Identifier: GPL-2.0-only
/*
 * inject --jit maps every version of an OOL region for exactly its life:
 * an ftrace trampoline filled by an old_len 0 TEXT_POKE and later
 * retargeted (its call rel32 poked), and a kprobe slot page whose one
 * slot, in the middle of the page, is filled.  Stock perf 6.1 on OUT
 * must print at each sample the bytes of the version alive then (values
 * written by hand below), under the region's name, and nothing once the
 * region is unregistered (the run in the middle of the page included,
 * which the input's unregister at the page's start does not remove);
 * OUT/jit holds one object per version and run: three.
 * Mutation caught: jit__ool_unregister() leaving every run mapped (the
 * test for the run at the region's start made runs[i].addr != 0): the
 * sample after the page went still resolves to kprobe_insn_page.  (Not
 * mapping a new version, changed && r->ksym_mapped in jit__text_poke(),
 * is caught by the object count.)
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests.h"
#include "../util/inject.h"
#include "../util/writer.h"

#define OJ_T0 1000000000ULL
#define OJ_TRAMP 0xffffffffa0010000ULL
#define OJ_TRAMP_LEN 0x40
#define OJ_PAGE 0xffffffffa0020000ULL
#define OJ_SLOT (OJ_PAGE + 0x40)

/* push %rbp; mov %rsp,%rbp; call rel32; pop %rbp; ret; then int3 */
static void oj__tramp(u8 *b, u32 rel)
{
	static const u8 head[] = {0x55, 0x48, 0x89, 0xe5, 0xe8};

	memset(b, 0xcc, OJ_TRAMP_LEN);
	memcpy(b, head, sizeof(head));
	memcpy(b + 5, &rel, 4);
	b[9] = 0x5d;
	b[10] = 0xc3;
}

struct oj_expect {
	u64 time, ip;
	const char *sym;
	u8 len;
	u8 bytes[8];
};

static int oj__write(const char *path, struct oj_expect *exp)
{
	struct perf_event_attr attr = {
	    .type = PERF_TYPE_SOFTWARE,
	    .config = PERF_COUNT_SW_CPU_CLOCK,
	    .sample_period = 10000,
	    .sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
			   PERF_SAMPLE_PERIOD,
	    .sample_id_all = 1,
	};
	/* a kprobe slot: the probed mov %rsp,%rbp copied, then jmp back */
	static const u8 slot[8] = {0x48, 0x89, 0xe5, 0xe9, 0x10, 0x20, 0x30, 0x40};
	u8 v1[OJ_TRAMP_LEN], v2[OJ_TRAMP_LEN];
	struct perf_sample id = {.pid = 1, .tid = 1};
	struct perf_writer *w = perf_writer__new(path, 0);
	int clock, dummy, err, i;

	if (!w)
		return -errno;
	oj__tramp(v1, 0x1000);
	oj__tramp(v2, 0x2000);
	clock = perf_writer__add_attr(w, &attr, NULL, 0, "cpu-clock");
	attr.config = PERF_COUNT_SW_DUMMY;
	attr.ksymbol = attr.text_poke = 1;
	dummy = perf_writer__add_attr(w, &attr, NULL, 0, "dummy:HG");
	err = clock < 0 ? clock : dummy < 0 ? dummy : 0;
	err = err ?: perf_writer__set_arch(w, "x86_64");
	err = err ?: perf_writer__set_osrelease(w, "6.1.0-ool");
#define OJ_AT(t) (id.time = OJ_T0 + (t), &id)
	err = err ?:
		    perf_writer__synth_ksymbol(w, dummy, OJ_TRAMP, OJ_TRAMP_LEN,
					       PERF_RECORD_KSYMBOL_TYPE_OOL, 0, "ftrace_trampoline",
					       OJ_AT(100));
	err = err ?:
		    perf_writer__synth_text_poke(w, dummy, OJ_TRAMP, NULL, 0, v1, OJ_TRAMP_LEN,
						 OJ_AT(101));
	err = err ?:
		    perf_writer__synth_text_poke(w, dummy, OJ_TRAMP + 4, v1 + 4, 5, v2 + 4, 5,
						 OJ_AT(200));
	err = err ?:
		    perf_writer__synth_ksymbol(
			w, dummy, OJ_TRAMP, OJ_TRAMP_LEN, PERF_RECORD_KSYMBOL_TYPE_OOL,
			PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER, "ftrace_trampoline", OJ_AT(300));
	err =
	    err ?:
		  perf_writer__synth_ksymbol(w, dummy, OJ_PAGE, 0x1000, PERF_RECORD_KSYMBOL_TYPE_OOL,
					     0, "kprobe_insn_page", OJ_AT(400));
	err = err ?:
		    perf_writer__synth_text_poke(w, dummy, OJ_SLOT, NULL, 0, slot, sizeof(slot),
						 OJ_AT(401));
	err = err ?:
		    perf_writer__synth_ksymbol(
			w, dummy, OJ_PAGE, 0x1000, PERF_RECORD_KSYMBOL_TYPE_OOL,
			PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER, "kprobe_insn_page", OJ_AT(500));
#undef OJ_AT
	/* the samples, with what each must show */
	exp[0] = (struct oj_expect){OJ_T0 + 150, OJ_TRAMP + 4, "ftrace_trampoline", 5};
	memcpy(exp[0].bytes, v1 + 4, 5);
	exp[1] = (struct oj_expect){OJ_T0 + 250, OJ_TRAMP + 4, "ftrace_trampoline", 5};
	memcpy(exp[1].bytes, v2 + 4, 5);
	exp[2] = (struct oj_expect){OJ_T0 + 350, OJ_TRAMP + 4, "[unknown]", 0};
	exp[3] = (struct oj_expect){OJ_T0 + 450, OJ_SLOT, "kprobe_insn_page", 3};
	memcpy(exp[3].bytes, slot, 3);
	exp[4] = (struct oj_expect){OJ_T0 + 550, OJ_SLOT, "[unknown]", 0};
	for (i = 0; !err && i < 5; i++) {
		struct perf_sample s = {
		    .pid = 1,
		    .tid = 1,
		    .period = 10000,
		    .time = exp[i].time,
		    .ip = exp[i].ip,
		    .cpumode = PERF_RECORD_MISC_KERNEL,
		};

		err = perf_writer__synth_sample(w, clock, &s);
	}
	if (err) {
		perf_writer__abort(w);
		return err;
	}
	return perf_writer__close(w);
}

/* stock perf script's line for the sample at @time: symbol and insn bytes */
static int oj__line(FILE *f, u64 time, char *sym, size_t sym_size, u8 *bytes, int *len)
{
	char buf[512];

	rewind(f);
	while (fgets(buf, sizeof(buf), f)) {
		unsigned long long sec, ns, ip;
		char s[128];
		const char *p;
		int n;

		if (sscanf(buf, " %llu.%llu: %llx %127s%n", &sec, &ns, &ip, s, &n) < 4 ||
		    sec * 1000000000ULL + ns != time)
			continue;
		snprintf(sym, sym_size, "%s", strcmp(s, "insn:") ? s : "[unknown]");
		*len = 0;
		p = strstr(buf, "insn:");
		if (!p)
			return 0;
		for (p += 5; *len < 8;) {
			unsigned int b;
			int m;

			if (sscanf(p, " %2x%n", &b, &m) != 1)
				break;
			bytes[(*len)++] = b;
			p += m;
		}
		return 0;
	}
	return -ENOENT;
}

static int oj__count(const char *dir)
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

static int test__inject_jit_ool(struct test_suite *t)
{
	char dir[] = "/tmp/textpoke-inject-jit-ool.XXXXXX";
	char *in = NULL, *out = NULL, *jit = NULL, *cmd = NULL;
	struct inject_opts o = {.jit = true, .quiet = true};
	struct oj_expect exp[5];
	int ret = TEST_FAIL, i, n;
	FILE *f = NULL;

	if (system("perf --version >/dev/null 2>&1")) {
		test_skip(t, "no stock perf");
		return TEST_SKIP;
	}
	if (!mkdtemp(dir))
		return TEST_FAIL;
	if (asprintf(&in, "%s/in.data", dir) < 0 || asprintf(&out, "%s/out.data", dir) < 0 ||
	    asprintf(&jit, "%s/out.data/jit", dir) < 0)
		goto out;
	if (oj__write(in, exp)) {
		pr_debug("cannot write the recording\n");
		goto out;
	}
	o.input = in;
	o.output = out;
	if (inject__run(&o)) {
		pr_debug("inject --jit failed\n");
		goto out;
	}
	n = oj__count(jit);
	if (n != 3) {
		pr_debug("%s: %d objects, not 3 (two trampoline versions, one slot)\n", jit, n);
		goto out;
	}
	if (asprintf(&cmd, "HOME=%s perf script -i %s -F time,ip,sym,insn --ns 2>%s/script.err",
		     dir, out, dir) < 0)
		goto out;
	f = popen(cmd, "r");
	zfree(&cmd);
	if (!f)
		goto out;
	{
		/* a copy that can be read more than once */
		FILE *copy = tmpfile();
		char buf[512];

		while (copy && fgets(buf, sizeof(buf), f))
			fputs(buf, copy);
		pclose(f);
		f = copy;
	}
	if (!f)
		goto out;
	for (i = 0; i < 5; i++) {
		char sym[128];
		u8 bytes[8];
		int len;

		if (oj__line(f, exp[i].time, sym, sizeof(sym), bytes, &len)) {
			pr_debug("no perf script line for the sample at %" PRIu64 "\n",
				 exp[i].time);
			goto out;
		}
		if (strcmp(sym, exp[i].sym) || len < exp[i].len ||
		    memcmp(bytes, exp[i].bytes, exp[i].len) || (!exp[i].len && len)) {
			pr_debug("sample at %" PRIu64 ": perf shows %s with %d bytes (first %02x), "
				 "expected %s with %d (first %02x)\n",
				 exp[i].time, sym, len, len ? bytes[0] : 0, exp[i].sym, exp[i].len,
				 exp[i].bytes[0]);
			goto out;
		}
	}
	ret = test_result(t);
out:
	if (f)
		fclose(f);
	if (asprintf(&cmd, "rm -rf %s", dir) >= 0 && system(cmd))
		pr_debug("cannot remove %s\n", dir);
	free(cmd);
	free(in);
	free(out);
	free(jit);
	return ret;
}

struct test_suite suite__inject_jit_ool = {
    .desc = "inject --jit: each version of an OOL region mapped for exactly its life",
    .func = test__inject_jit_ool,
};
