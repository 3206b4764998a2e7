// SPDX-License-Identifier: GPL-2.0-only
/*
 * inject --jit on generated kernels, stock perf 6.1 as the judge: on OUT,
 * `perf script -F time,ip,sym,insn` prints at every sample in the ftrace
 * trampoline (KSYMBOL OOL filled by a TEXT_POKE) and in the two BPF
 * programs that share an address the bytes the generator's model says
 * were there (tests/fixture-kernel.c, not our code), with the symbol
 * named as on IN; and `perf annotate -s ftrace_trampoline` disassembles
 * the trampoline (objdump) where on IN it cannot (perf fills an OOL dso
 * from the TEXT_POKE for insn, but has no file to give objdump).
 * readelf (an oracle of its own) lists the objects' symbols at their
 * kernel addresses.  With a kcore_dir holding kcore, perf ignores kernel
 * MMAP2s, so OUT keeps IN's records: the same bytes and symbols, annotate
 * refused as on IN, the objects written all the same.  Without a kcore,
 * kallsyms and modules only, the objects are mapped.
 * Mutation caught: jit__ool_map() mapping a run one byte late
 * (r->addr + start + 1): the trampoline sample gets the wrong bytes.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests.h"
#include "fixture-kernel.h"
#include "../util/inject.h"

#define IJ_MAX_LINES 256

/* one sample line of perf script -F time,ip,sym,insn */
struct ij_line {
	u64 time; /* ns */
	u64 ip;
	char sym[128];
	u8 insn[16];
	int insn_len;
};

static int ij__parse(const char *s, struct ij_line *l)
{
	unsigned long long sec, ns, ip;
	const char *p;
	int n = 0;

	memset(l, 0, sizeof(*l));
	if (sscanf(s, " %llu.%llu: %llx %127s%n", &sec, &ns, &ip, l->sym, &n) < 4)
		return -1;
	l->time = sec * 1000000000ULL + ns;
	l->ip = ip;
	if (!strcmp(l->sym, "insn:")) { /* no symbol */
		strcpy(l->sym, "[unknown]");
		p = s + n - 5;
	} else {
		p = strstr(s + n, "insn:");
	}
	if (!p)
		return 0;
	p += 5;
	while (l->insn_len < (int)sizeof(l->insn)) {
		unsigned int b;
		int m;

		if (sscanf(p, " %2x%n", &b, &m) != 1)
			break;
		l->insn[l->insn_len++] = b;
		p += m;
	}
	return 0;
}

/* stock perf script's sample lines of @data, HOME in @home */
static int ij__script(const char *home, const char *data, struct ij_line *lines, int *nr)
{
	char *cmd, buf[512];
	FILE *f;
	int st;

	if (asprintf(&cmd, "HOME=%s perf script -i %s -F time,ip,sym,insn --ns 2>%s/script.err",
		     home, data, home) < 0)
		return -ENOMEM;
	f = popen(cmd, "r");
	free(cmd);
	if (!f)
		return -errno;
	*nr = 0;
	while (fgets(buf, sizeof(buf), f)) {
		if (*nr < IJ_MAX_LINES && !ij__parse(buf, &lines[*nr]))
			(*nr)++;
	}
	st = pclose(f);
	return st ? -EIO : 0;
}

static const struct ij_line *ij__find(const struct ij_line *lines, int nr, u64 time, u64 ip)
{
	int i;

	for (i = 0; i < nr; i++) {
		if (lines[i].time == time && lines[i].ip == ip)
			return &lines[i];
	}
	return NULL;
}

static bool ij__in(u64 ip, u64 start, u64 len)
{
	return ip >= start && ip < start + len;
}

/*
 * stock perf annotate of @sym on @data: true when it disassembled, the
 * sample's line included; false when it said it could not
 */
static int ij__annotate(const char *home, const char *data, const char *sym, u64 ip)
{
	char *cmd, buf[512], want[32];
	bool refused = false, shown = false;
	FILE *f;

	snprintf(want, sizeof(want), "%" PRIx64 ":", ip);
	if (asprintf(&cmd, "HOME=%s perf annotate -i %s --stdio -s %s 2>&1", home, data, sym) < 0)
		return -ENOMEM;
	f = popen(cmd, "r");
	free(cmd);
	if (!f)
		return -errno;
	while (fgets(buf, sizeof(buf), f)) {
		if (strstr(buf, "Couldn't annotate"))
			refused = true;
		if (strstr(buf, want) && strstr(buf, "100.00"))
			shown = true;
	}
	pclose(f);
	return shown && !refused ? 1 : refused ? 0 : -EIO;
}

/* readelf -sW lists @name at @addr in one of the objects in @dir */
static bool ij__readelf_has(const char *dir, const char *name, u64 addr)
{
	char *cmd;
	int st;

	if (asprintf(&cmd, "readelf -sW %s/* | grep -q ' %016" PRIx64 " .* FUNC .* %s$'", dir, addr,
		     name) < 0)
		return false;
	st = system(cmd);
	free(cmd);
	return st == 0;
}

static int ij__one(unsigned int flags, const char *what)
{
	bool kcore = !(flags & FK_NO_KCORE);
	static struct ij_line in[IJ_MAX_LINES], out[IJ_MAX_LINES];
	struct fixture_kernel *fk = fixture_kernel__new(flags);
	struct inject_opts o = {.jit = true, .quiet = true};
	int nr_in = 0, nr_out = 0, i, ret = TEST_FAIL;
	int tramp = 0, bpf = 0;
	char *outp = NULL, *jitdir = NULL;

	if (!fk) {
		pr_debug("%s: fixture: %s\n", what, strerror(errno));
		return TEST_FAIL;
	}
	if (asprintf(&outp, "%s/out.data", fk->dir) < 0 ||
	    asprintf(&jitdir, "%s/out.data/jit", fk->dir) < 0)
		goto out;
	o.input = fk->path;
	o.output = outp;
	if (inject__run(&o)) {
		pr_debug("%s: inject --jit failed\n", what);
		goto out;
	}
	if (ij__script(fk->dir, fk->path, in, &nr_in) || ij__script(fk->dir, outp, out, &nr_out)) {
		pr_debug("%s: stock perf script failed, see %s/script.err\n", what, fk->dir);
		goto out;
	}
	for (i = 0; i < fk->nr_samples; i++) {
		const struct fixture_kernel_sample *s = &fk->samples[i];
		const struct ij_line *a = ij__find(in, nr_in, s->time, s->ip);
		const struct ij_line *b = ij__find(out, nr_out, s->time, s->ip);
		bool t = ij__in(s->ip, FK_TRAMP, FK_TRAMP_LEN);

		if (!t && !ij__in(s->ip, FK_BPF, 0x1000))
			continue;
		if (!a || !b) {
			pr_debug("%s: sample %" PRIu64 " %#" PRIx64 " missing from perf script\n",
				 what, s->time, s->ip);
			goto out;
		}
		if (strcmp(a->sym, b->sym)) {
			pr_debug("%s: sample at %#" PRIx64 ": symbol %s on IN, %s on OUT\n", what,
				 s->ip, a->sym, b->sym);
			goto out;
		}
		if (b->insn_len < s->len || memcmp(b->insn, s->bytes, s->len)) {
			pr_debug("%s: sample %" PRIu64 " at %#" PRIx64
				 " (%s): perf prints %d bytes "
				 "(first %02x), the model has %d (first %02x)\n",
				 what, s->time, s->ip, b->sym, b->insn_len, b->insn[0], s->len,
				 s->bytes[0]);
			goto out;
		}
		if (t) {
			/* stock perf fills an OOL dso from the old_len 0 TEXT_POKE itself */
			pr_debug2("%s: IN prints %d trampoline bytes\n", what, a->insn_len);
			tramp++;
		} else {
			bpf++;
		}
	}
	if (!tramp || bpf < 2) {
		pr_debug("%s: %d trampoline and %d BPF samples checked\n", what, tramp, bpf);
		goto out;
	}
	if (!ij__readelf_has(jitdir, "ftrace_trampoline", FK_TRAMP) ||
	    !ij__readelf_has(jitdir, FK_BPF_A_NAME, FK_BPF) ||
	    !ij__readelf_has(jitdir, FK_BPF_B_NAME, FK_BPF)) {
		pr_debug("%s: readelf -sW does not list the objects' symbols\n", what);
		goto out;
	}
	/* with a kcore, perf ignores the MMAP2s: OUT keeps IN's records */
	if (ij__annotate(fk->dir, fk->path, "ftrace_trampoline", FK_TRAMP + 4) != 0 ||
	    ij__annotate(fk->dir, outp, "ftrace_trampoline", FK_TRAMP + 4) != !kcore) {
		pr_debug("%s: stock perf annotate of the trampoline: not refused on IN, or not "
			 "disassembled with its sample on OUT\n",
			 what);
		goto out;
	}
	pr_debug("%s: %d trampoline and %d BPF samples get the model's bytes\n", what, tramp, bpf);
	ret = TEST_OK;
out:
	free(outp);
	free(jitdir);
	fixture_kernel__delete(fk);
	return ret;
}

static int test__inject_jit_fixture(struct test_suite *t)
{
	if (system("perf --version >/dev/null 2>&1")) {
		test_skip(t, "no stock perf");
		return TEST_SKIP;
	}
	if (system("readelf --version >/dev/null 2>&1")) {
		test_skip(t, "no readelf");
		return TEST_SKIP;
	}
	if (ij__one(FK_NO_KCORE, "no kcore") || ij__one(0, "kcore"))
		return TEST_FAIL;
	return test_result(t);
}

struct test_suite suite__inject_jit_fixture = {
    .desc = "inject --jit: stock perf prints the trampoline's and BPF programs' bytes",
    .func = test__inject_jit_fixture,
};
