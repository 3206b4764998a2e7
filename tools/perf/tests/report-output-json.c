// SPDX-License-Identifier: GPL-2.0-only
/*
 * report --json on a hand-made report: Python's strict JSON parser (the
 * oracle, tests/report-output/json-check.py) reads the document, and
 * every figure must equal the fixture's struct, key by key as
 * Documentation/report-json.md names them.  Hostile strings come back
 * as the fixture's hand-written expected readings; addresses as exact
 * "0x..." strings; keys not sorted on are absent.
 *
 * Mutation caught: json__string() writing '"' unescaped (fwrite for every
 * code point) makes the document unparseable; an invalid byte written as
 * is fails the UTF-8 decode; "%.6f" of overhead without the 100.0 factor
 * fails the overhead values.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report-output-fixture.h"
#include "tests.h"

static void exp_str(FILE *fp, const char *path, const char *s)
{
	fprintf(fp, "%s\t", path);
	if (!s) {
		fputs("n:\n", fp);
		return;
	}
	fputs("s:", fp);
	rof_hex(fp, s);
	fputc('\n', fp);
}

static void exp_addr(FILE *fp, const char *path, u64 addr)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "0x%" PRIx64, addr);
	exp_str(fp, path, buf);
}

#define EXP_INT(fp, path, v) fprintf(fp, "%s\ti:%lld\n", path, (long long)(v))

static void exp_hist(FILE *fp, const struct report_output_fixture *f, int h)
{
	const struct report_hist *hist = &f->hists[h];
	char p[128];
	size_t e, k;

	snprintf(p, sizeof(p), "profile.%d.event", h);
	exp_str(fp, p, hist->event_name);
	snprintf(p, sizeof(p), "profile.%d.time_slices", h);
	exp_str(fp, p, hist->time_slices);
	snprintf(p, sizeof(p), "profile.%d.nr_samples", h);
	EXP_INT(fp, p, hist->nr_samples);
	snprintf(p, sizeof(p), "profile.%d.total_period", h);
	EXP_INT(fp, p, hist->total_period);
	snprintf(p, sizeof(p), "profile.%d.entries#len", h);
	EXP_INT(fp, p, hist->nr_entries);
	for (e = 0; e < hist->nr_entries; e++) {
		const struct hist_entry *he = &hist->entries[e];

#define P(key) snprintf(p, sizeof(p), "profile.%d.entries.%zu." key, h, e)
		P("overhead");
		fprintf(fp, "%s\tf:%.4f\n", p, 100.0 * he->period / hist->total_period);
		P("nr_samples");
		EXP_INT(fp, p, he->nr_samples);
		P("period");
		EXP_INT(fp, p, he->period);
		P("comm");
		exp_str(fp, p, h ? he->comm : f->comm[e]->expected);
		P("pid");
		EXP_INT(fp, p, he->pid);
		P("thread_comm");
		exp_str(fp, p, h ? he->thread_comm : f->comm[e]->expected);
		P("tid");
		EXP_INT(fp, p, he->tid);
		P("dso");
		exp_str(fp, p, he->dso);
		P("sym");
		exp_str(fp, p, h ? he->sym : f->sym[e]->expected);
		P("ip");
		exp_addr(fp, p, he->ip);
		P("sym_start");
		exp_addr(fp, p, he->sym_start);
		P("level");
		exp_str(fp, p, he->level == 'k' ? "kernel" : "user");
		P("cpu");
		EXP_INT(fp, p, he->cpu);
		P("abi");
		EXP_INT(fp, p, he->abi);
#undef P
	}
	snprintf(p, sizeof(p), "profile.%d.abi_counts#len", h);
	EXP_INT(fp, p, hist->nr_comms);
	for (e = 0; e < hist->nr_comms; e++) {
		static const char *const names[4] = {"none", "abi32", "abi64", "other"};

		snprintf(p, sizeof(p), "profile.%d.abi_counts.%zu.comm", h, e);
		exp_str(fp, p, e ? f->comm[1]->expected : hist->abi_counts[e].comm);
		for (k = 0; k < 4; k++) {
			snprintf(p, sizeof(p), "profile.%d.abi_counts.%zu.%s", h, e, names[k]);
			EXP_INT(fp, p, hist->abi_counts[e].nr[k]);
		}
	}
}

static const char *const verdict_name[] = {"verified", "pre_applied", "mismatch", "unknown"};
static const char *const kind_name[] = {"jump_label", "static_call", "ftrace", "kprobe",
					"optprobe",   "trampoline",  "other"};

static void exp_changes(FILE *fp, const struct report_output_fixture *f)
{
	const struct report_changes *rc = &f->rc;
	char p[128];
	size_t s, v, r;

	/* the seconds strings by hand, for the span and one site */
	exp_str(fp, "changes.first_time", "5.000000");
	EXP_INT(fp, "changes.first_time_ns", rc->first_time);
	exp_str(fp, "changes.last_time", "5.010000");
	EXP_INT(fp, "changes.last_time_ns", rc->last_time);
	exp_str(fp, "changes.sites.1.first_change", "5.002010");
	exp_str(fp, "changes.sites.1.last_change", "5.005010");
	EXP_INT(fp, "changes.nr_kernel_samples", rc->nr_kernel_samples);
	EXP_INT(fp, "changes.nr_sites", rc->nr_sites);
	EXP_INT(fp, "changes.sites#len", rc->nr_sites);
	for (s = 0; s < rc->nr_sites; s++) {
		const struct report_site *st = &rc->sites[s];

#define P(key) snprintf(p, sizeof(p), "changes.sites.%zu." key, s)
		P("addr");
		exp_addr(fp, p, st->addr);
		P("len");
		EXP_INT(fp, p, st->len);
		P("sym");
		exp_str(fp, p, f->site_sym[s]->expected);
		P("kind");
		exp_str(fp, p, kind_name[st->kind]);
		P("nr_changes");
		EXP_INT(fp, p, st->nr_versions - 1);
		P("first_change_ns");
		EXP_INT(fp, p, st->first_change);
		P("last_change_ns");
		EXP_INT(fp, p, st->last_change);
		P("nr_samples_changed");
		EXP_INT(fp, p, st->nr_samples_changed);
		P("versions#len");
		EXP_INT(fp, p, st->nr_versions);
#undef P
		for (v = 0; v < st->nr_versions; v++) {
			const struct report_version *rv = &st->versions[v];

#define P(key) snprintf(p, sizeof(p), "changes.sites.%zu.versions.%zu." key, s, v)
			P("version");
			EXP_INT(fp, p, v);
			P("time_ns");
			if (v)
				EXP_INT(fp, p, rv->time);
			else
				fprintf(fp, "%s\tn:\n", p);
			P("duration_ns");
			EXP_INT(fp, p, rv->duration);
			P("nr_samples");
			EXP_INT(fp, p, rv->nr_samples);
			P("changed");
			fprintf(fp, "%s\tb:%s\n", p, rv->changed ? "true" : "false");
			P("desc");
			exp_str(fp, p, rv->desc);
			P("bytes");
			exp_str(fp, p, rv->bytes ? f->bytes_hex[s][v] : NULL);
			P("verdict");
			exp_str(fp, p, v ? verdict_name[rv->verdict] : NULL);
#undef P
		}
	}
	EXP_INT(fp, "changes.regions#len", rc->nr_regions);
	for (r = 0; r < rc->nr_regions; r++) {
		const struct report_region *rg = &rc->regions[r];

#define P(key) snprintf(p, sizeof(p), "changes.regions.%zu." key, r)
		P("name");
		exp_str(fp, p, rg->name);
		P("addr");
		exp_addr(fp, p, rg->addr);
		P("len");
		EXP_INT(fp, p, rg->len);
		P("ksym_type");
		EXP_INT(fp, p, rg->ksym_type);
		P("type");
		exp_str(fp, p, rg->ksym_type == 1 ? "bpf" : "ool");
		P("start_ns");
		EXP_INT(fp, p, rg->start);
		P("end_ns");
		if (rg->end == UINT64_MAX)
			fprintf(fp, "%s\tn:\n", p);
		else
			EXP_INT(fp, p, rg->end);
		P("alive_at_end");
		fprintf(fp, "%s\tb:%s\n", p, rg->end == UINT64_MAX ? "true" : "false");
		P("bytes_known");
		fprintf(fp, "%s\tb:%s\n", p, rg->bytes_known ? "true" : "false");
		P("nr_samples");
		EXP_INT(fp, p, rg->nr_samples);
		P("reused_by#len");
		EXP_INT(fp, p, rg->nr_reused);
		if (rg->nr_reused) {
			P("reused_by.0");
			EXP_INT(fp, p, rg->reused[0]);
		}
#undef P
	}
	exp_str(fp, "changes.regions.2.end", NULL);
	exp_str(fp, "changes.regions.0.end", "5.003201");
	for (v = 0; v < 4; v++) {
		snprintf(p, sizeof(p), "changes.consistency.pokes.%s", verdict_name[v]);
		EXP_INT(fp, p, rc->consistency.verdicts[v]);
	}
	EXP_INT(fp, "changes.consistency.nr_lost", rc->consistency.nr_lost);
	EXP_INT(fp, "changes.consistency.nr_lost_samples", rc->consistency.nr_lost_samples);
	EXP_INT(fp, "changes.consistency.nr_unordered", rc->consistency.nr_unordered);
	EXP_INT(fp, "changes.consistency.nr_unmapped", rc->consistency.nr_unmapped);
	EXP_INT(fp, "changes.consistency.nr_unmapped_module_space",
		rc->consistency.nr_unmapped_module_space);
	fprintf(fp, "changes.consistency.trusted\tb:false\n");
	exp_str(fp, "changes.consistency.verdict", rc->consistency.verdict);
}

/* writes the JSON of @ro and the expected lines, runs the oracle: its exit status */
static int check(const char *dir, const struct report_output *ro,
		 void (*expect)(FILE *fp, const void *arg), const void *arg)
{
	char doc[256], exp[256], script[512], *cmd;
	FILE *fp;
	int ret;

	snprintf(doc, sizeof(doc), "%s/report.json", dir);
	snprintf(exp, sizeof(exp), "%s/expected", dir);
	fp = fopen(doc, "w");
	if (!fp)
		return -1;
	ret = report_output__json(ro, fp);
	if (fclose(fp) || ret) {
		pr_debug("report_output__json: %d\n", ret);
		return -1;
	}
	fp = fopen(exp, "w");
	if (!fp)
		return -1;
	expect(fp, arg);
	if (fclose(fp))
		return -1;
	if (asprintf(&cmd, "python3 '%s' '%s' '%s'",
		     rof_script("json-check.py", script, sizeof(script)), doc, exp) < 0)
		return -1;
	ret = rof_run(cmd);
	free(cmd);
	return ret;
}

static void expect_full(FILE *fp, const void *arg)
{
	const struct report_output_fixture *f = arg;

	exp_str(fp, "schema", "perf-textpoke-report");
	EXP_INT(fp, "schema_version", 1);
	exp_str(fp, "input", "perf.data");
	EXP_INT(fp, "total_lost_samples", 7);
	EXP_INT(fp, "profile.0.nr_entries_below_limit", 0);
	exp_str(fp, "sort.0", "comm");
	exp_str(fp, "sort.6", "abi");
	EXP_INT(fp, "profile#len", 2);
	exp_hist(fp, f, 0);
	exp_hist(fp, f, 1);
	exp_changes(fp, f);
	EXP_INT(fp, "sample_density.nr_samples", 160);
	/* 9.9 ms in 256 bins at most: 64 us ones, the first one's start a multiple of that */
	EXP_INT(fp, "sample_density.bin_ns", 65536);
	EXP_INT(fp, "sample_density.start_ns", ROF_T / 65536 * 65536);
}

/* perf's default keys: no pid, tid, cpu or abi columns, so no such keys */
static void expect_default_sort(FILE *fp, const void *arg)
{
	const struct report_output_fixture *f = arg;

	EXP_INT(fp, "sort#len", 3);
	/* --percent-limit 18: the 15% row is left out, and counted */
	EXP_INT(fp, "profile.0.entries#len", 3);
	EXP_INT(fp, "profile.0.nr_entries_below_limit", 1);
	EXP_INT(fp, "profile.1.nr_entries_below_limit", 0);
	EXP_INT(fp, "total_lost_samples", 0);
	exp_str(fp, "profile.0.entries.1.comm", f->comm[1]->expected);
	exp_str(fp, "profile.0.entries.1.sym", NULL);
	exp_addr(fp, "profile.0.entries.1.ip", 0x401234);
	fprintf(fp, "profile.0.entries.1.pid\t<missing>\n");
	fprintf(fp, "profile.0.entries.1.cpu\t<missing>\n");
	fprintf(fp, "profile.0.entries.1.abi\t<missing>\n");
	fprintf(fp, "changes\tn:\n");
	fprintf(fp, "sample_density\tn:\n");
}

static int test__report_output_json(struct test_suite *t)
{
	struct report_output_fixture *f = malloc(sizeof(*f));
	char *dir = rof_scratch__new();
	int ret = TEST_FAIL, err;
	FILE *full;

	if (!f || !dir)
		goto out;
	if (system("python3 -c 'import json' >/dev/null 2>&1")) {
		test_skip(t, "python3 (the JSON oracle) is not installed");
		ret = TEST_SKIP;
		goto out;
	}
	report_output_fixture__init(f);
	if (check(dir, &f->ro, expect_full, f)) {
		pr_debug("the full report does not read back\n");
		goto out;
	}
	f->ro.sort = NULL;
	f->ro.changes = NULL;
	f->ro.density = NULL;
	f->ro.percent_limit = 18;
	f->ro.nr_lost_samples = 0;
	if (check(dir, &f->ro, expect_default_sort, f)) {
		pr_debug("the default sort keys do not read back\n");
		goto out;
	}
	/* a full disk is an error, not a short document and success */
	full = fopen("/dev/full", "w");
	if (full) {
		err = report_output__json(&f->ro, full);
		fclose(full);
		if (err >= 0)
			goto out;
	}
	/* a sort key with no column is refused, nothing written */
	f->ro.sort = "comm,nosuchkey";
	if (report_output__json(&f->ro, stderr) != -EINVAL)
		goto out;
	ret = TEST_OK;
out:
	rof_scratch__remove(dir);
	free(f);
	return ret;
}

struct test_suite suite__report_output_json = {
    .desc = "report --json: every figure of a hand-made report, read back by Python's parser",
    .func = test__report_output_json,
};
