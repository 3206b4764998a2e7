// SPDX-License-Identifier: GPL-2.0-only
/*
 * inject --snapshot=start|end|TIME holds the code of that moment: on a
 * generated recording whose kcore was copied at the end, the bytes at a
 * poked site, in the trampoline and in a BPF program, read from the
 * snapshot's kcore by tests/elf-section.c (raw ELF headers), are the
 * generator model's bytes at a sample of that moment; `readelf -sW`
 * lists the kernel's symbols and the trampoline and BPF programs alive
 * then (and not the others); `objdump -d` disassembles the poked site as
 * it was.  perf textpoke inject --snapshot=<seconds> gives the TIME
 * snapshot.  Where a file of the kcore_dir is there already, the write
 * fails and leaves none of the others behind.
 *
 * Mutations caught: in inject_snapshot__write(), INJECT_SNAPSHOT_END
 * looking KSYMBOL objects up at UINT64_MAX instead of 0 (past every
 * span's end): BPF program B, alive at the end, is not listed; in
 * snap__write_files(), no unlink() of the files written before the
 * failure: kcore and modules are left.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests.h"
#include "elf-section.h"
#include "fixture.h"
#include "fixture-kernel.h"
#include "../util/inject-snapshot.h"
#include "../util/text-image.h"

struct snap_case {
	const char *what;
	enum inject_snapshot_at at;
	u64 time;
	/* the site to check, and the sample of the model that says its bytes */
	u64 site;
	u64 model_time;
	const char *section;
	/* listed by readelf -sW, and not listed */
	const char *listed;
	const char *absent;
	/* objdump -d shows this at the site ("" for no check) */
	const char *insn;
};

static const struct fixture_kernel_sample *model_at(const struct fixture_kernel *fk, u64 time,
						    u64 ip)
{
	int i;

	for (i = 0; i < fk->nr_samples; i++) {
		if (fk->samples[i].time == time && fk->samples[i].ip == ip)
			return &fk->samples[i];
	}
	return NULL;
}

static int check_bytes(const struct snap_case *c, const struct fixture_kernel *fk,
		       const char *kcore)
{
	const struct fixture_kernel_sample *e = model_at(fk, c->model_time, c->site);
	u8 *bytes = NULL;
	u64 addr, len;
	int ret = -1;

	if (!e) {
		pr_debug("%s: no sample of the model at %llu\n", c->what,
			 (unsigned long long)c->model_time);
		return -1;
	}
	if (elf_section__read(kcore, c->section, &addr, &bytes, &len)) {
		pr_debug("%s: %s: no section %s\n", c->what, kcore, c->section);
		return -1;
	}
	if (c->site < addr || c->site + e->len > addr + len)
		pr_debug("%s: %s is %#llx..%#llx, the site %#llx is not in it\n", c->what,
			 c->section, (unsigned long long)addr, (unsigned long long)(addr + len),
			 (unsigned long long)c->site);
	else if (memcmp(bytes + (c->site - addr), e->bytes, e->len))
		pr_debug("%s: the bytes at %#llx are not the model's at %llu\n", c->what,
			 (unsigned long long)c->site, (unsigned long long)c->model_time);
	else
		ret = 0;
	free(bytes);
	return ret;
}

static int check_tool(const char *cmd_fmt, const char *kcore, const char *want,
		      const char *unwanted)
{
	char *cmd = NULL, *out = NULL;
	int ret = -1;

	if (asprintf(&cmd, cmd_fmt, kcore) < 0)
		return -1;
	if (fixture__run(cmd, &out, NULL) != 0 || !out)
		pr_debug("'%s' failed\n", cmd);
	else if (want && !strstr(out, want))
		pr_debug("'%s' does not show '%s':\n%s", cmd, want, out);
	else if (unwanted && strstr(out, unwanted))
		pr_debug("'%s' shows '%s':\n%s", cmd, unwanted, out);
	else
		ret = 0;
	free(cmd);
	free(out);
	return ret;
}

static int touch(const char *dir, const char *name)
{
	char path[4200];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static bool exists(const char *dir, const char *name)
{
	char path[4200];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return !access(path, F_OK);
}

static int test__inject_snapshot_time(struct test_suite *t)
{
	static const struct snap_case cases[] = {
	    {"start", INJECT_SNAPSHOT_START, 0, FK_JL5_SITE, FK_T0 + 1000, ".kernel", "fk_jl5_fn",
	     "ftrace_trampoline", "nopl"},
	    {"after the first pokes", INJECT_SNAPSHOT_TIME, FK_T0 + 2050, FK_JL5_SITE, FK_T0 + 2100,
	     ".kernel", "fk_target_b", FK_BPF_A_NAME, "jmp"},
	    {"trampoline", INJECT_SNAPSHOT_TIME, FK_T0 + 3100, FK_TRAMP + 4, FK_T0 + 3100,
	     ".ksym.ftrace_trampoline", "ftrace_trampoline", FK_BPF_A_NAME, ""},
	    {"BPF program A", INJECT_SNAPSHOT_TIME, FK_T0 + 4100, FK_BPF + 5, FK_T0 + 4100,
	     ".ksym." FK_BPF_A_NAME, FK_BPF_A_NAME, FK_BPF_B_NAME, ""},
	    {"end", INJECT_SNAPSHOT_END, 0, FK_JL5_SITE, FK_T0 + 6100, ".kernel", FK_BPF_B_NAME,
	     "ftrace_trampoline", "jmp"},
	    {"end, BPF program B", INJECT_SNAPSHOT_END, 0, FK_BPF + 5, FK_T0 + 4400,
	     ".ksym." FK_BPF_B_NAME, FK_BPF_B_NAME, FK_BPF_A_NAME, ""},
	};
	bool have_readelf = !fixture__run("readelf --version", NULL, NULL);
	bool have_objdump = !fixture__run("objdump --version", NULL, NULL);
	struct fixture_kernel *fk = fixture_kernel__new(FK_KCORE_END);
	struct text_image *ti = NULL;
	char dir[4096], kcore[8400], want[128];
	int ret = TEST_FAIL;
	size_t i;

	TEST_ASSERT_VAL("fixture", fk);
	ti = text_image__load(fk->path, NULL);
	if (!ti)
		goto out;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct snap_case *c = &cases[i];

		snprintf(dir, sizeof(dir), "%s/snap%zu", fk->dir, i);
		snprintf(kcore, sizeof(kcore), "%s/kcore", dir);
		if (mkdir(dir, 0700) || inject_snapshot__write(ti, text_image__machine(ti), c->at,
							       c->time, dir, NULL)) {
			pr_debug("%s: no snapshot\n", c->what);
			goto out;
		}
		if (check_bytes(c, fk, kcore))
			goto out;
		if (have_readelf && check_tool("readelf -sW %s", kcore, c->listed, c->absent))
			goto out;
		/* "<addr>:\t<bytes>\t<mnemonic>": the site as the snapshot has it */
		snprintf(want, sizeof(want), "%llx:", (unsigned long long)c->site);
		if (have_objdump && *c->insn && check_tool("objdump -d %s", kcore, want, NULL))
			goto out;
	}
	/* the poked site at the start, and at the end: a nop5, then a jmp */
	if (have_objdump) {
		snprintf(kcore, sizeof(kcore),
			 "objdump -d --start-address=%#llx --stop-address=%#llx %%s",
			 (unsigned long long)FK_JL5_SITE, (unsigned long long)FK_JL5_SITE + 5);
		snprintf(dir, sizeof(dir), "%s/snap0/kcore", fk->dir);
		if (check_tool(kcore, dir, "nopl", "jmp"))
			goto out;
		snprintf(dir, sizeof(dir), "%s/snap4/kcore", fk->dir);
		if (check_tool(kcore, dir, "jmp", "nopl"))
			goto out;
	}
	/* a time as perf script prints it, through perf textpoke inject: case 1 again */
	snprintf(dir, sizeof(dir), "%s/out-time.data", fk->dir);
	snprintf(kcore, sizeof(kcore), "%s inject -q -i %s -o %s --snapshot=1.000002050",
		 test_self_exe(), fk->path, dir);
	if (fixture__run(kcore, NULL, NULL)) {
		pr_debug("'%s' failed\n", kcore);
		goto out;
	}
	snprintf(kcore, sizeof(kcore), "%s/kcore_dir/kcore", dir);
	if (check_bytes(&cases[1], fk, kcore))
		goto out;
	/* a file that is there already: an error, and nothing of ours is left */
	snprintf(dir, sizeof(dir), "%s/snap-taken", fk->dir);
	if (mkdir(dir, 0700) || touch(dir, "kallsyms") ||
	    inject_snapshot__write(ti, text_image__machine(ti), INJECT_SNAPSHOT_START, 0, dir,
				   NULL) != -EEXIST) {
		pr_debug("%s: no EEXIST for a kallsyms that is there\n", dir);
		goto out;
	}
	if (exists(dir, "kcore") || exists(dir, "modules")) {
		pr_debug("%s: a failed snapshot left files behind\n", dir);
		goto out;
	}
	if (!have_readelf)
		test_skip_part(t, "readelf part: no readelf");
	if (!have_objdump)
		test_skip_part(t, "objdump part: no objdump");
	ret = test_result(t);
out:
	text_image__delete(ti);
	fixture_kernel__delete(fk);
	return ret;
}

struct test_suite suite__inject_snapshot_time = {
    .desc = "inject --snapshot=start|end|TIME: the model's bytes and symbols of that moment",
    .func = test__inject_snapshot_time,
};
