// SPDX-License-Identifier: GPL-2.0-only
/*
 * End to end against stock perf: workloads recorded at test time with
 * `perf record -e cpu-clock [-g]`, read with our session and resolved by
 * the machine model, must give for every sample (and every callchain frame)
 * the address, symbol, offset and dso that `perf script -F ip,sym,symoff,dso`
 * prints, line for line.  The workloads: a user-space loop (ELF symbols,
 * the vdso, libc, the kernel), the same as a 32-bit task (also in pipe
 * mode), a C++ one (demangling, PLT entries), a
 * stand-in JIT (anon memory named by /tmp/perf-PID.map) and,
 * when BPF programs can be loaded, one that spends its time in BPF
 * programs reusing each other's addresses.  A part whose tool is missing
 * (gcc -m32 or a kernel that runs 32-bit programs, g++, a JIT workload,
 * loadable BPF) is named in the Skip the test then ends with, after every
 * other part passed.  The 32-bit task also comes, on every machine, from
 * a recording stock perf made on Debian's kernel under qemu
 * (tests/data/m32-guest/m32.data, cpu-clock:u -g), its objects unpacked
 * from their perf archive into the build-id cache of a scratch HOME that
 * stock perf and we both read: the recorded paths exist nowhere else.
 * Mutation caught: [vdso32] named [vdso] for a 32-bit task.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests.h"
#include "../util/machine.h"
#include "../util/symbol.h"
#include "../util/session.h"

struct lines {
	char **v;
	size_t nr;
	size_t alloc;
};

static int lines__add(struct lines *l, const char *s)
{
	if (l->nr == l->alloc) {
		size_t alloc = l->alloc ? l->alloc * 2 : 1024;
		char **v = realloc(l->v, alloc * sizeof(*v));

		if (!v)
			return -ENOMEM;
		l->v = v;
		l->alloc = alloc;
	}
	l->v[l->nr] = strdup(s);
	return l->v[l->nr++] ? 0 : -ENOMEM;
}

static void lines__exit(struct lines *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* "addr sym+0xoff (dso)" as perf script -F ip,sym,symoff,dso prints it */
static int format_line(struct lines *out, u64 addr, const struct addr_location *al)
{
	char line[1024];

	if (al->sym)
		snprintf(line, sizeof(line), "%" PRIx64 " %s+0x%" PRIx64 " (%s)", addr,
			 symbol__name(al->sym), al->addr - al->sym->start, map__dso_name(al->map));
	else
		snprintf(line, sizeof(line), "%" PRIx64 " [unknown] (%s)", addr,
			 al->map ? map__dso_name(al->map) : "[unknown]");
	return lines__add(out, line);
}

struct e2e_tool {
	struct perf_tool tool;
	struct lines *out;
};

static int e2e__frame(struct callchain_frame *frame, void *arg)
{
	return format_line(arg, callchain_frame__addr(frame), &frame->al);
}

static int e2e__sample(struct perf_tool *tool, union perf_event *event, struct perf_sample *sample,
		       struct evsel *evsel, struct machine *machine)
{
	struct e2e_tool *e2e = (struct e2e_tool *)tool;
	struct addr_location al;
	int err;

	addr_location__init(&al);
	err = machine__resolve(machine, &al, sample);
	if (!err) {
		if (sample->callchain)
			err = thread__walk_callchain(al.thread, sample, e2e__frame, e2e->out);
		else
			err = format_line(e2e->out, sample->ip, &al);
	}
	addr_location__exit(&al);
	return err;
}

static int ours(const char *path, struct lines *out)
{
	struct e2e_tool e2e = {
	    .tool = {.sample = e2e__sample, .ordered_events = true},
	    .out = out,
	};
	struct perf_session *session = perf_session__new(path, &e2e.tool);
	int err;

	if (!session)
		return -EINVAL;
	err = perf_session__process_events(session);
	perf_session__delete(session);
	return err;
}

static int theirs(const char *path, struct lines *out)
{
	char cmd[4200], line[1024];
	FILE *fp;
	int err = 0;

	snprintf(cmd, sizeof(cmd), "perf script -F ip,sym,symoff,dso -i %s 2>/dev/null", path);
	fp = popen(cmd, "r");
	if (!fp)
		return -errno;
	while (!err && fgets(line, sizeof(line), fp)) {
		char *p = line;

		while (*p == ' ' || *p == '\t')
			p++;
		p[strcspn(p, "\n")] = '\0';
		if (*p)
			err = lines__add(out, p);
	}
	if (pclose(fp) != 0 && !err)
		err = -EIO;
	return err;
}

static int compare(const char *path, size_t *nr_lines, const char *must_contain)
{
	struct lines a = {.nr = 0}, b = {.nr = 0};
	size_t i, hits = 0;
	int ret = TEST_FAIL;

	if (ours(path, &a)) {
		pr_debug("%s: our session failed\n", path);
		goto out;
	}
	if (theirs(path, &b)) {
		pr_debug("%s: perf script failed\n", path);
		goto out;
	}
	for (i = 0; i < a.nr && i < b.nr; i++) {
		if (strcmp(a.v[i], b.v[i])) {
			pr_debug("%s: line %zu differs:\n  perf: %s\n  ours: %s\n", path, i + 1,
				 b.v[i], a.v[i]);
			goto out;
		}
		if (must_contain && strstr(a.v[i], must_contain))
			hits++;
	}
	if (a.nr != b.nr) {
		pr_debug("%s: %zu lines from perf script, %zu from us\n", path, b.nr, a.nr);
		goto out;
	}
	if (must_contain && !hits) {
		pr_debug("%s: no line with %s: the workload missed its point\n", path,
			 must_contain);
		goto out;
	}
	*nr_lines = a.nr;
	ret = TEST_OK;
out:
	lines__exit(&a);
	lines__exit(&b);
	return ret;
}

static int run(const char *cmd)
{
	int status = system(cmd);

	if (status == -1 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/*
 * The checked-in 32-bit recording's objects into @dir/.debug, and HOME set
 * to @dir for perf script and for our session: 0, or -1 and the reason
 * for the part's skip in @why (what is missing from the tree fails)
 */
static int m32_guest_home(const char *dir, char *why, size_t len)
{
	char cmd[8192];

	snprintf(cmd, sizeof(cmd), "test -r '%s/tools/perf/tests/data/m32-guest/debug.tar.bz2'",
		 test_srcdir());
	if (run(cmd)) {
		pr_debug("tools/perf/tests/data/m32-guest/debug.tar.bz2 is missing from the tree\n");
		return -2;
	}
	if (run("command -v bzip2 >/dev/null 2>&1")) {
		snprintf(why, len, "bzip2 is not installed (unpacks the recordings' perf archive)");
		return -1;
	}
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p '%s/.debug' && tar xjf '%s/tools/perf/tests/data/m32-guest/debug.tar.bz2' "
		 "-C '%s/.debug'",
		 dir, test_srcdir(), dir);
	if (run(cmd) || setenv("HOME", dir, 1)) {
		pr_debug("cannot unpack the m32-guest objects into %s/.debug\n", dir);
		return -2;
	}
	return 0;
}

static int test__machine_perf_script(struct test_suite *t)
{
	char dir[] = "/tmp/textpoke-e2e-XXXXXX", cmd[8192], path[4200], why[200];
	const char *src = test_srcdir();
	size_t n = 0;
	int ret = TEST_FAIL, rc;

	if (run("perf --version >/dev/null 2>&1")) {
		test_skip(t, "stock perf is not installed");
		return TEST_SKIP;
	}
	if (run("gcc --version >/dev/null 2>&1")) {
		test_skip(t, "gcc is not installed (the workloads are built at test time)");
		return TEST_SKIP;
	}
	TEST_ASSERT_VAL("mkdtemp", mkdtemp(dir));

	snprintf(cmd, sizeof(cmd),
		 "gcc -O1 -fno-omit-frame-pointer -o %s/loop %s/tools/perf/tests/workloads/loop.c "
		 "&& gcc -O1 -o %s/bpf-spin %s/tools/perf/tests/workloads/machine-bpf-spin.c",
		 dir, src, dir, src);
	if (run(cmd)) {
		pr_debug("cannot build the workloads: %s\n", cmd);
		goto out;
	}

	/* samples without callchains: the IP of each */
	snprintf(cmd, sizeof(cmd),
		 "perf record -q -e cpu-clock -o %s/flat.data %s/loop 0.5 "
		 ">/dev/null 2>&1",
		 dir, dir);
	if (run(cmd)) {
		ret = TEST_SKIP;
		test_skip(t, "perf record -e cpu-clock failed (perf_event_paranoid?)");
		goto out;
	}
	snprintf(path, sizeof(path), "%s/flat.data", dir);
	if (compare(path, &n, "leaf") != TEST_OK)
		goto out;
	pr_debug("%s: %zu lines equal\n", path, n);

	/* frame-pointer callchains, user and kernel */
	snprintf(cmd, sizeof(cmd),
		 "perf record -q -e cpu-clock -g -o %s/fp.data %s/loop 0.5 "
		 ">/dev/null 2>&1",
		 dir, dir);
	snprintf(path, sizeof(path), "%s/fp.data", dir);
	if (run(cmd) || compare(path, &n, "leaf+") != TEST_OK)
		goto out;
	pr_debug("%s: %zu lines equal\n", path, n);

	/* a 32-bit task: ELF32 objects and the compat vdso, "[vdso32]" */
	snprintf(cmd, sizeof(cmd),
		 "gcc -m32 -O1 -fno-omit-frame-pointer -o %s/loop32 "
		 "%s/tools/perf/tests/workloads/loop.c >/dev/null 2>&1",
		 dir, src);
	if (test_why_no_32bit(dir, why, sizeof(why))) {
		test_skip_part(t, "32-bit part: %s", why);
	} else if (run(cmd)) {
		pr_debug("gcc -m32 cannot build %s/loop32\n", dir);
		goto out;
	} else {
		snprintf(cmd, sizeof(cmd),
			 "perf record -q -e cpu-clock -g -o %s/m32.data "
			 "%s/loop32 0.5 >/dev/null 2>&1",
			 dir, dir);
		snprintf(path, sizeof(path), "%s/m32.data", dir);
		if (run(cmd) || compare(path, &n, "leaf+") != TEST_OK)
			goto out;
		pr_debug("%s: %zu lines equal\n", path, n);

		/* pipe mode: features as records, no build-id table */
		snprintf(cmd, sizeof(cmd),
			 "perf record -q -e cpu-clock -g -o - %s/loop32 0.3 "
			 "2>/dev/null >%s/m32.pipe.data",
			 dir, dir);
		snprintf(path, sizeof(path), "%s/m32.pipe.data", dir);
		if (run(cmd) || compare(path, &n, "leaf+") != TEST_OK)
			goto out;
		pr_debug("%s: %zu lines equal\n", path, n);
	}

	/* a 32-bit task of a real kernel, from the tree; HOME stays the scratch one */
	snprintf(path, sizeof(path), "%s/tools/perf/tests/data/m32-guest/m32.data", src);
	rc = m32_guest_home(dir, why, sizeof(why));
	if (rc == -1) {
		test_skip_part(t, "checked-in 32-bit part: %s", why);
	} else if (rc || compare(path, &n, "leaf+") != TEST_OK) {
		goto out;
	} else {
		pr_debug("%s: %zu lines equal\n", path, n);
	}

	/* C++: demangled names, name@plt entries */
	snprintf(cmd, sizeof(cmd),
		 "g++ -O1 -fno-omit-frame-pointer -o %s/cxx "
		 "%s/tools/perf/tests/workloads/machine-cxx.cc >/dev/null 2>&1",
		 dir, src);
	if (run(cmd)) {
		test_skip_part(t, "C++ part: g++ cannot build a workload");
	} else {
		snprintf(cmd, sizeof(cmd),
			 "perf record -q -e cpu-clock -g -o %s/cxx.data %s/cxx 0.5 >/dev/null 2>&1",
			 dir, dir);
		snprintf(path, sizeof(path), "%s/cxx.data", dir);
		if (run(cmd) || compare(path, &n, "ns::Acc::bar+") != TEST_OK)
			goto out;
		pr_debug("%s: %zu lines equal\n", path, n);
	}

	/* JIT code in anon memory, named by /tmp/perf-PID.map */
	snprintf(cmd, sizeof(cmd),
		 "gcc -O1 -o %s/jit %s/tools/perf/tests/workloads/machine-jit.c "
		 "&& perf record -q -e cpu-clock -o %s/jit.data %s/jit %s/jit.pid >/dev/null 2>&1",
		 dir, src, dir, dir, dir);
	rc = run(cmd);
	snprintf(path, sizeof(path), "%s/jit.data", dir);
	if (rc == 2) {
		test_skip_part(t, "JIT part: no JIT workload on this architecture");
	} else {
		int ok = !rc && compare(path, &n, "jitted_loop_") == TEST_OK;

		snprintf(cmd, sizeof(cmd), "rm -f /tmp/perf-$(cat %s/jit.pid).map", dir);
		run(cmd);
		if (!ok)
			goto out;
		pr_debug("%s: %zu lines equal\n", path, n);
	}

	/* BPF programs coming and going at the same address */
	snprintf(cmd, sizeof(cmd),
		 "perf record -q -e cpu-clock -g -o %s/bpf.data %s/bpf-spin 3 "
		 ">/dev/null 2>&1",
		 dir, dir);
	rc = run(cmd);
	snprintf(path, sizeof(path), "%s/bpf.data", dir);
	if (rc == 2) {
		test_skip_part(t, "BPF part: BPF programs cannot be loaded here");
	} else if (rc || compare(path, &n, "bpf_prog_") != TEST_OK) {
		goto out;
	} else {
		pr_debug("%s: %zu lines equal\n", path, n);
	}
	ret = test_result(t);
out:
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	run(cmd);
	return ret;
}

struct test_suite suite__machine_perf_script = {
    .desc = "Machine model: sym/dso of every sample and frame equal perf script's",
    .func = test__machine_perf_script,
    .exclusive = true,
};
