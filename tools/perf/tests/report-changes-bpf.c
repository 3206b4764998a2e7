// SPDX-License-Identifier: GPL-2.0-only
/*
 * The code-change report's regions on a real recording: the BPF churn
 * workload loads 150 socket filters one after the other, 2 ms apart, so
 * that the kernel frees each before the next few load and gives their
 * addresses out again.  Stock perf 6.1 is the oracle: every KSYMBOL
 * register line of `perf script --show-bpf-events` is a region with the
 * same address, length, type, name and start time, ending at the next
 * unregister line at its address (or alive); the regions that held the
 * same addresses are the ones stock perf's lines say did; and a BPF
 * region's bytes are known exactly when `perf report --header-only -I`
 * lists a bpf_prog_info of that name at that address.  Other processes'
 * programs are left out of the comparison on both sides, and so are the
 * workload's programs that one of theirs overlapped (see oracle__reuse()).  Then one filter
 * that loops on every packet is sampled system-wide: its region counts as
 * many samples as stock perf script resolves to its symbol.
 *
 * Mutation caught: rc__region_reuse() filling only one side of each pair
 *   (the r[b].reused[fill[b]++] = a dropped): lists hold other indexes.
 * Mutation caught: rc__add_region() taking t_start for the end: every end
 *   differs from the unregister lines.
 * Mutation caught: report_changes__sample() looking regions up at time 0
 *   (the busy program's samples land nowhere).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests.h"
#include "fixture.h"
#include "../util/report-changes.h"
#include "../util/session.h"
#include "../util/text-image.h"

#define NR_PROGS "150"
#define OPEN UINT64_MAX

struct theirs {
	u64 addr, start, end;
	u32 len;
	u16 type;
	char name[128];
	size_t nr_reused; /* the workload's programs that overlapped it */
	bool info;	  /* a bpf_prog_info of that name at that address */
	bool mine;	  /* the workload's program */
	bool disturbed;	  /* another process's region overlapped it */
};

struct oracle {
	struct theirs *v;
	size_t nr, alloc;
};

static int run(const char *cmd)
{
	int status = system(cmd);

	if (status == -1 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* stock perf's KSYMBOL lines, in file order */
static int oracle__read(struct oracle *o, const char *dir, const char *path)
{
	char cmd[8400], line[1024], name[128];
	unsigned long long sec, ns, addr;
	unsigned int len, type, flags;
	size_t i;
	FILE *fp;

	snprintf(cmd, sizeof(cmd),
		 "HOME=%s perf script -i %s --show-bpf-events --ns -F time 2>/dev/null", dir, path);
	fp = popen(cmd, "r");
	if (!fp)
		return -errno;
	while (fgets(line, sizeof(line), fp)) {
		if (sscanf(line,
			   " %llu.%llu: PERF_RECORD_KSYMBOL addr %llx len %u type %u flags %x "
			   "name %127s",
			   &sec, &ns, &addr, &len, &type, &flags, name) != 7)
			continue;
		if (flags & 1) {
			/* ends what is registered there */
			for (i = o->nr; i-- > 0;) {
				if (o->v[i].addr == addr && o->v[i].end == OPEN) {
					o->v[i].end = sec * 1000000000ULL + ns;
					break;
				}
			}
			continue;
		}
		if (o->nr == o->alloc) {
			size_t n = o->alloc ? 2 * o->alloc : 256;
			void *p = realloc(o->v, n * sizeof(*o->v));

			if (!p) {
				pclose(fp);
				return -ENOMEM;
			}
			o->v = p;
			o->alloc = n;
		}
		o->v[o->nr] = (struct theirs){addr, sec * 1000000000ULL + ns, OPEN, len, type};
		snprintf(o->v[o->nr].name, sizeof(o->v[o->nr].name), "%s", name);
		o->nr++;
	}
	return pclose(fp) ? -EIO : 0;
}

/* which of them perf's header says it has the JIT image of */
static int oracle__read_info(struct oracle *o, const char *dir, const char *path)
{
	char cmd[8400], line[1024], name[128];
	unsigned long long addr;
	unsigned int id, size;
	size_t i;
	FILE *fp;

	snprintf(cmd, sizeof(cmd), "HOME=%s perf report --header-only -I -i %s 2>/dev/null", dir,
		 path);
	fp = popen(cmd, "r");
	if (!fp)
		return -errno;
	while (fgets(line, sizeof(line), fp)) {
		if (sscanf(line, "# bpf_prog_info %u: %127s addr %llx size %u", &id, name, &addr,
			   &size) != 4 ||
		    !size)
			continue;
		for (i = 0; i < o->nr; i++) {
			if (o->v[i].addr == addr && !strcmp(o->v[i].name, name))
				o->v[i].info = true;
		}
	}
	return pclose(fp) ? -EIO : 0;
}

static bool is_mine(const char *name)
{
	return strstr(name, "_tp_churn") != NULL;
}

/*
 * Other processes load programs too, and perf record synthesizes a
 * program that lives when it starts at time 0, however late that record
 * comes: the comparison keeps to the workload's programs that no other
 * region overlapped.
 */
static void oracle__reuse(struct oracle *o)
{
	size_t i, j;

	for (i = 0; i < o->nr; i++) {
		o->v[i].mine = is_mine(o->v[i].name);
		for (j = 0; j < o->nr; j++) {
			if (i == j || o->v[j].addr >= o->v[i].addr + o->v[i].len ||
			    o->v[i].addr >= o->v[j].addr + o->v[j].len)
				continue;
			if (is_mine(o->v[j].name))
				o->v[i].nr_reused++;
			else
				o->v[i].disturbed = true;
		}
	}
}

static const struct theirs *oracle__find(const struct oracle *o, u64 addr, u64 start)
{
	size_t i;

	for (i = 0; i < o->nr; i++) {
		if (o->v[i].addr == addr && o->v[i].start == start)
			return &o->v[i];
	}
	return NULL;
}

static int compare(const struct oracle *o, const struct report_changes *rc, size_t *nr_reused)
{
	size_t i, j, k, nr_mine = 0, nr_compared = 0;

	for (i = 0; i < rc->nr_regions; i++)
		nr_mine += is_mine(rc->regions[i].name);
	for (i = 0; i < o->nr; i++)
		nr_mine -= o->v[i].mine;
	TEST_ASSERT_EQUAL("the workload's regions, ours less stock perf's", nr_mine, 0);
	for (i = 0; i < o->nr; i++) {
		const struct theirs *w = &o->v[i];
		const struct report_region *r = NULL;
		size_t reused = 0;

		if (!w->mine || w->disturbed)
			continue;
		nr_compared++;
		for (j = 0; j < rc->nr_regions && !r; j++) {
			if (rc->regions[j].addr == w->addr && rc->regions[j].start == w->start)
				r = &rc->regions[j];
		}
		if (!r) {
			pr_debug("no region for %s at %#llx from %llu\n", w->name,
				 (unsigned long long)w->addr, (unsigned long long)w->start);
			return TEST_FAIL;
		}
		for (k = 0; k < r->nr_reused; k++)
			reused += r->reused[k] < rc->nr_regions &&
				  is_mine(rc->regions[r->reused[k]].name);
		pr_debug("%s %#llx %llu..%llu reused %zu/%zu bytes %d/%d\n", w->name,
			 (unsigned long long)w->addr, (unsigned long long)w->start,
			 (unsigned long long)w->end, reused, w->nr_reused, r->bytes_known, w->info);
		TEST_ASSERT_EQUAL("length", r->len, w->len);
		TEST_ASSERT_EQUAL("type", r->ksym_type, w->type);
		TEST_ASSERT_VAL("name", r->name && !strcmp(r->name, w->name));
		TEST_ASSERT_EQUAL("end", r->end, w->end);
		TEST_ASSERT_EQUAL("reused", reused, w->nr_reused);
		for (k = 0; k < r->nr_reused; k++) {
			const struct theirs *x;

			TEST_ASSERT_VAL("reused index",
					r->reused[k] < rc->nr_regions &&
					    &rc->regions[r->reused[k]] != r &&
					    (!k || r->reused[k] > r->reused[k - 1]));
			x = oracle__find(o, rc->regions[r->reused[k]].addr,
					 rc->regions[r->reused[k]].start);
			if (!is_mine(rc->regions[r->reused[k]].name))
				continue;
			TEST_ASSERT_VAL("reused by one stock perf says held the address",
					x && x != w && x->addr < w->addr + w->len &&
					    w->addr < x->addr + x->len);
		}
		if (w->type == PERF_RECORD_KSYMBOL_TYPE_BPF)
			TEST_ASSERT_EQUAL("bytes known", r->bytes_known, w->info);
		*nr_reused += !!w->nr_reused;
	}
	/* most of them: another process churning the same pages would make this fail */
	pr_debug("%zu of the workload's programs compared\n", nr_compared);
	TEST_ASSERT_VAL("programs compared", nr_compared >= 100);
	return TEST_OK;
}

struct feed {
	struct perf_tool tool;
	struct report_changes *rc;
};

static int feed__sample(struct perf_tool *tool, union perf_event *event, struct perf_sample *sample,
			struct evsel *evsel, struct machine *machine)
{
	struct feed *f = (struct feed *)tool;

	report_changes__sample(f->rc, sample->ip, sample->cpumode, sample->time);
	return 0;
}

/* what the driver does: every sample in time order */
static int feed_samples(const char *path, struct report_changes *rc)
{
	struct feed f = {.tool = {.sample = feed__sample, .ordered_events = true}, .rc = rc};
	struct perf_session *session = perf_session__new(path, &f.tool);
	int err;

	if (!session)
		return -EINVAL;
	err = perf_session__process_events(session);
	perf_session__delete(session);
	return err;
}

/* samples stock perf script puts in the busy program, and its name */
static long theirs_busy(const char *dir, const char *path, char *name, size_t size)
{
	char cmd[8400], line[1024], sym[256];
	long n = 0;
	FILE *fp;

	name[0] = '\0';
	snprintf(cmd, sizeof(cmd), "HOME=%s perf script -i %s -F ip,sym 2>/dev/null", dir, path);
	fp = popen(cmd, "r");
	if (!fp)
		return -errno;
	while (fgets(line, sizeof(line), fp)) {
		unsigned long long ip;

		if (sscanf(line, " %llx %255s", &ip, sym) != 2 || !strstr(sym, "_tp_busy"))
			continue;
		snprintf(name, size, "%s", sym);
		n++;
	}
	return pclose(fp) ? -EIO : n;
}

static int check_busy(const char *dir)
{
	char cmd[8400], path[4200], name[256];
	struct report_changes *rc = NULL;
	struct text_image *ti = NULL;
	long theirs;
	u64 ours = 0;
	size_t i;
	int ret = TEST_FAIL;

	snprintf(path, sizeof(path), "%s/busy.data", dir);
	snprintf(cmd, sizeof(cmd),
		 "%s record -o %s -e cpu-clock -a -- %s/churn busy 1 >/dev/null 2>&1",
		 test_self_exe(), path, dir);
	if (run(cmd))
		return TEST_FAIL;
	theirs = theirs_busy(dir, path, name, sizeof(name));
	ti = text_image__load(path, NULL);
	rc = ti ? report_changes__new(ti, text_image__machine(ti)) : NULL;
	if (!rc || feed_samples(path, rc) || report_changes__finish(rc, 0, 0, 0))
		goto out;
	for (i = 0; i < rc->nr_regions; i++) {
		if (!strcmp(rc->regions[i].name, name))
			ours += rc->regions[i].nr_samples;
	}
	pr_debug("busy: %s: %ld samples by stock perf, %llu in our region\n", name, theirs,
		 (unsigned long long)ours);
	if (theirs <= 0 || ours != (u64)theirs)
		goto out;
	ret = TEST_OK;
out:
	report_changes__delete(rc);
	text_image__delete(ti);
	return ret;
}

static int test__report_changes_bpf(struct test_suite *t)
{
	char *dir = NULL, cmd[8400], path[4200];
	struct oracle o = {.nr = 0};
	struct report_changes *rc = NULL;
	struct text_image *ti = NULL;
	size_t nr_reused = 0;
	int ret = TEST_FAIL, err;

	if (geteuid()) {
		test_skip(t, "needs root to load BPF programs");
		return TEST_SKIP;
	}
	if (run("perf --version >/dev/null 2>&1")) {
		test_skip(t, "no stock perf to compare with");
		return TEST_SKIP;
	}
	dir = fixture__tmpdir();
	TEST_ASSERT_VAL("tmpdir", dir);
	snprintf(cmd, sizeof(cmd),
		 "gcc -O1 -o %s/churn %s/tools/perf/tests/workloads/record-bpf-churn.c 2>/dev/null",
		 dir, test_srcdir());
	if (run(cmd)) {
		test_skip(t, "gcc cannot build the BPF churn workload");
		ret = TEST_SKIP;
		goto out;
	}
	snprintf(cmd, sizeof(cmd), "%s/churn churn 1 >/dev/null 2>&1", dir);
	if (run(cmd)) {
		test_skip(t, "cannot load BPF socket filters here");
		ret = TEST_SKIP;
		goto out;
	}
	snprintf(path, sizeof(path), "%s/churn.data", dir);
	snprintf(cmd, sizeof(cmd),
		 "%s record -o %s -e cpu-clock -- %s/churn churn " NR_PROGS " 2 >/dev/null 2>&1",
		 test_self_exe(), path, dir);
	if (run(cmd)) {
		pr_debug("perf textpoke record failed: %s\n", cmd);
		goto out;
	}
	err = oracle__read(&o, dir, path);
	err = err ?: oracle__read_info(&o, dir, path);
	if (err || o.nr < 150) {
		pr_debug("stock perf: %d, %zu KSYMBOLs\n", err, o.nr);
		goto out;
	}
	oracle__reuse(&o);
	ti = text_image__load(path, NULL);
	rc = ti ? report_changes__new(ti, text_image__machine(ti)) : NULL;
	if (!rc || report_changes__finish(rc, 0, 0, 0))
		goto out;
	if (verbose > 1)
		report_changes__fprintf(rc, stderr);
	if (compare(&o, rc, &nr_reused))
		goto out;
	pr_debug("%zu regions, %zu at an address another one held\n", o.nr, nr_reused);
	if (!nr_reused)
		test_skip_part(
		    t, "address reuse: the kernel gave every program an address of its own");
	if (check_busy(dir))
		goto out;
	ret = test_result(t);
out:
	report_changes__delete(rc);
	text_image__delete(ti);
	free(o.v);
	fixture__remove_dir(dir, "report-changes-bpf");
	free(dir);
	return ret;
}

struct test_suite suite__report_changes_bpf = {
    .desc = "report changes: BPF churn regions, lives and address reuse as stock perf sees them",
    .func = test__report_changes_bpf,
    .exclusive = true,
};
