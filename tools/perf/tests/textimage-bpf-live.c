// SPDX-License-Identifier: GPL-2.0-only
/*
 * BPF programs on this machine: stock perf record -a while a helper loads,
 * runs and unloads tiny socket filters, so that KSYMBOL and BPF_EVENT
 * records come and go and the kernel reuses addresses.  Each program
 * whose JIT bytes perf captured in bpf_prog_info holds exactly those bytes
 * at its address from its load until its unload, and nothing is known
 * there after it (until the next program at that address loads).
 * Records with time 0 (written before perf's clock starts, loads and
 * unloads alike) leave no moment in between: those are not checked.
 *
 * Which programs have JIT bytes is taken from stock perf's own header
 * dump (perf report --header-only: "bpf_prog_info ID: NAME addr A size N"),
 * not from our reader: every program perf lists with a size must be a load
 * in the image at that address with that length.  Only when stock perf
 * lists none does the test skip.  Mutation caught: no BPF JIT image ever
 * entering the text image (ti__bpf_load() taking the "no bytes" branch
 * always) fails here, where it used to skip.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests.h"
#include "fixture.h"
#include "../util/header.h"
#include "../util/text-image.h"

static const struct bpf_prog_info_entry *prog(const struct perf_env *env, u32 id)
{
	int i;

	for (i = 0; i < env->nr_bpf_progs; i++) {
		if (env->bpf_progs[i].id == id)
			return &env->bpf_progs[i];
	}
	return NULL;
}

static int check_loads(struct text_image *ti)
{
	const struct perf_env *env = text_image__env(ti);
	const struct text_image_bpf_load *loads;
	size_t nr, i, j;
	int with_bytes = 0, reused = 0;

	loads = text_image__bpf_loads(ti, &nr);
	for (i = 0; i < nr; i++) {
		const struct text_image_bpf_load *l = &loads[i];
		const struct bpf_prog_info_entry *e = prog(env, l->id);
		u8 *buf, *known;
		bool next_at_unload = false;
		int n;

		/*
		 * Records perf writes before its clock starts carry time 0: a
		 * load and unload both at 0 leave no moment to look between.
		 */
		if (!l->len || !e || e->nr_jited_ksyms != 1 || !l->load_time)
			continue;
		buf = malloc(l->len);
		known = malloc(l->len);
		if (!buf || !known) {
			free(buf);
			free(known);
			return -1;
		}
		n = text_image__read(ti, l->addr, l->len, l->load_time, buf, known);
		if (n != (int)l->len || memcmp(buf, e->jited_prog_insns, l->len)) {
			pr_debug("program %u at %#llx: %d of %u bytes at its load\n", l->id,
				 (unsigned long long)l->addr, n, l->len);
			for (j = 0; j < nr; j++)
				pr_debug("  load %u at %#llx len %u: %llu..%llu\n", loads[j].id,
					 (unsigned long long)loads[j].addr, loads[j].len,
					 (unsigned long long)loads[j].load_time,
					 (unsigned long long)loads[j].unload_time);
			free(buf);
			free(known);
			return -1;
		}
		for (j = 0; j < nr; j++) {
			const struct text_image_bpf_load *o = &loads[j];

			if (j == i || o->addr >= l->addr + l->len || o->addr + o->len <= l->addr)
				continue;
			if (j > i && o->addr == l->addr)
				reused++;
			/*
			 * a program of the time-0 start state may have left
			 * without a record: then its bytes stay
			 */
			if (o->load_time == 0 || o->load_time == l->unload_time)
				next_at_unload = true;
		}
		if (l->unload_time != UINT64_MAX && !next_at_unload) {
			n = text_image__read(ti, l->addr, l->len, l->unload_time, buf, known);
			if (n != 0) {
				pr_debug("program %u at %#llx: %d bytes still known after unload\n",
					 l->id, (unsigned long long)l->addr, n);
				free(buf);
				free(known);
				return -1;
			}
		}
		free(buf);
		free(known);
		with_bytes++;
	}
	pr_debug("%zu BPF loads, %d with JIT bytes checked, %d addresses reused\n", nr, with_bytes,
		 reused);
	return with_bytes;
}

/*
 * The programs stock perf lists with JIT bytes: each must be a load of ours
 * at perf's address with perf's length.  Returns how many perf lists, or -1
 * when one is missing from the image.
 */
static int check_perf_listed(struct text_image *ti, const char *dir, const char *path)
{
	const struct text_image_bpf_load *loads;
	char *cmd = NULL, *out = NULL, *line, *save = NULL;
	int listed = -1, st;
	size_t nr, i;

	if (asprintf(&cmd, "HOME=%s perf report --header-only -i %s", dir, path) < 0)
		return -1;
	st = fixture__run(cmd, &out, NULL);
	free(cmd);
	if (st != 0 || !out) {
		pr_debug("perf report --header-only -i %s: exit %d\n", path, st);
		free(out);
		return -1;
	}
	loads = text_image__bpf_loads(ti, &nr);
	listed = 0;
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned int id, size;
		unsigned long long addr;
		char name[256];

		if (sscanf(line, "# bpf_prog_info %u: %255s addr %llx size %u", &id, name, &addr,
			   &size) != 4 ||
		    !size)
			continue;
		listed++;
		for (i = 0; i < nr; i++) {
			if (loads[i].id == id && loads[i].addr == addr && loads[i].len == size)
				break;
		}
		if (i == nr) {
			pr_debug(
			    "perf lists program %u %s at %#llx size %u; the image has no such load\n",
			    id, name, addr, size);
			listed = -1;
			break;
		}
	}
	free(out);
	return listed;
}

static int test__textimage_bpf_live(struct test_suite *t)
{
	char *dir = NULL, *cmd = NULL, *path = NULL;
	struct text_image *ti = NULL;
	int ret = TEST_FAIL, n;

	if (!fixture__have_perf() || geteuid()) {
		test_skip(t, "needs stock perf and root to record");
		return TEST_SKIP;
	}
	dir = fixture__tmpdir();
	if (!dir || asprintf(&path, "%s/perf.data", dir) < 0)
		goto out;
	if (asprintf(&cmd,
		     "cd %s && gcc -O1 -o bpf %s/tools/perf/tests/workloads/record-bpf-churn.c"
		     " && ./bpf churn 1 >/dev/null 2>&1",
		     dir, test_srcdir()) < 0)
		goto out;
	if (fixture__run(cmd, NULL, NULL) != 0) {
		test_skip(t, "cannot build or load a BPF socket filter here");
		ret = TEST_SKIP;
		goto out;
	}
	free(cmd);
	if (asprintf(&cmd,
		     "cd %s && (./bpf churn 30 20 >/dev/null 2>&1 &) && "
		     "perf record -q -o %s -a -e cpu-clock sleep 1 >/dev/null 2>&1",
		     dir, path) < 0 ||
	    fixture__run(cmd, NULL, NULL) != 0)
		goto out;
	ti = text_image__load(path, NULL);
	if (!ti)
		goto out;
	n = check_perf_listed(ti, dir, path);
	if (n == 0) {
		test_skip(t, "stock perf's header lists no bpf_prog_info with JIT bytes"
			     " (kernel.kptr_restrict? net.core.bpf_jit_enable?)");
		ret = TEST_SKIP;
		goto out;
	}
	if (n < 0)
		goto out;
	/* the workload loads programs while perf runs: some have a load time */
	n = check_loads(ti);
	if (n == 0)
		pr_debug("perf lists BPF programs with JIT bytes; none was checked at its load\n");
	if (n > 0)
		ret = TEST_OK;
out:
	text_image__delete(ti);
	if (dir)
		fixture__rm_rf(dir);
	free(dir);
	free(cmd);
	free(path);
	return ret;
}

struct test_suite suite__textimage_bpf_live = {
    .desc = "textimage: BPF programs recorded here hold their JIT bytes from load to unload",
    .func = test__textimage_bpf_live,
    .exclusive = true,
};
