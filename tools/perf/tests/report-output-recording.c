// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf textpoke report --json and --html FILE end to end, on the made-up
 * kernel's recording (fixture-kernel.h, kcore copied at the start): the
 * code changes and regions must be the ones the fixture's time line
 * describes (written out below, by hand from fixture-kernel.h), each
 * version's samples the model's samples in its interval, the profile's
 * sample count the model's.  The oracles are Python's JSON and HTML
 * parsers and headless Chromium's DOM (the scripts in tests/report-output/); the
 * Chromium screenshot must not be blank.
 *
 * Mutation caught: json__changes() writing regions[0] for every region
 * fails the other regions' lines; html__site_lane()
 * writing data-time-ns of version v - 1 fails every change.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fixture-kernel.h"
#include "report-output-fixture.h"
#include "tests.h"

#define T(x) (FK_T0 + (x))
#define ALIVE UINT64_MAX

static const struct {
	u64 addr;
	u32 len;
	const char *kind, *sym;
	u64 times[4]; /* of versions 1.., 0 ends */
} sites[] = {
    {FK_JL5_SITE, 5, "jump_label", "fk_jl5_fn+0x4", {T(2000), T(5000), T(6000)}},
    {FK_JL2_SITE, 2, "jump_label", "fk_jl2_fn+0x4", {T(2010), T(5010), T(6010)}},
    {FK_SCALL_SITE, 5, "static_call", "fk_static_call_fn+0x4", {T(2020), T(5020)}},
    {FK_FTRACE_SITE, 5, "ftrace", "fk_traced_fn", {T(2030), T(5030)}},
    {FK_KPROBE_SITE, 1, "kprobe", "fk_kprobed_fn+0x4", {T(2040), T(5040)}},
    /* filled by an old_len 0 poke, emptied by a new_len 0 one */
    {FK_TRAMP, FK_TRAMP_BODY, "trampoline", "ftrace_trampoline", {T(3001), T(3200)}},
};

static const struct {
	u64 addr;
	const char *name, *type;
	u64 start, end;
	int reused;
} regions[] = {
    {FK_TRAMP, "ftrace_trampoline", "ool", T(3000), T(3201), -1},
    {FK_BPF, FK_BPF_A_NAME, "bpf", T(4000), T(4200), 2},
    {FK_BPF, FK_BPF_B_NAME, "bpf", T(4300), ALIVE, 1},
};

#define NR_SITES (sizeof(sites) / sizeof(sites[0]))
#define NR_REGIONS (sizeof(regions) / sizeof(regions[0]))

static size_t nr_changes(size_t s)
{
	size_t n = 0;

	while (n < 4 && sites[s].times[n])
		n++;
	return n;
}

/* the model's kernel samples at the site in [from, to) */
static u64 model_samples(const struct fixture_kernel *fk, size_t s, u64 from, u64 to)
{
	u64 n = 0;
	int i;

	for (i = 0; i < fk->nr_samples; i++) {
		const struct fixture_kernel_sample *m = &fk->samples[i];

		n += m->ip >= sites[s].addr && m->ip < sites[s].addr + sites[s].len &&
		     m->time >= from && m->time < to;
	}
	return n;
}

/* the version's bytes, as the model had them at a sample on the site's first byte */
static void model_bytes(FILE *fp, const struct fixture_kernel *fk, size_t s, size_t k, u64 from,
			u64 to)
{
	char hex[3 * 16 + 1] = "";
	size_t n;
	u32 b;
	int i;

	for (i = 0; i < fk->nr_samples; i++) {
		const struct fixture_kernel_sample *m = &fk->samples[i];

		if (m->ip != sites[s].addr || m->time < from || m->time >= to ||
		    m->len < sites[s].len || sites[s].len > 16)
			continue;
		for (b = 0, n = 0; b < sites[s].len; b++)
			n +=
			    snprintf(hex + n, sizeof(hex) - n, "%s%02x", b ? " " : "", m->bytes[b]);
		fprintf(fp, "changes.sites.%zu.versions.%zu.bytes\ts:", s, k);
		rof_hex(fp, hex);
		fputc('\n', fp);
		return;
	}
}

static void exp_s(FILE *fp, const char *path, const char *v)
{
	fprintf(fp, "%s\ts:", path);
	rof_hex(fp, v);
	fputc('\n', fp);
}

static void exp_json(FILE *fp, const struct fixture_kernel *fk)
{
	char p[128], v[64];
	size_t s, k, n;

	fprintf(fp, "changes.sites#len\ti:%zu\n", NR_SITES);
	fprintf(fp, "changes.regions#len\ti:%zu\n", NR_REGIONS);
	fprintf(fp, "profile.0.nr_samples\ti:%d\n", fk->nr_samples);
	fprintf(fp, "changes.consistency.pokes.mismatch\ti:0\n");
	fprintf(fp, "changes.consistency.trusted\tb:true\n");
	for (s = 0; s < NR_SITES; s++) {
		n = nr_changes(s);
		snprintf(p, sizeof(p), "changes.sites.%zu.addr", s);
		snprintf(v, sizeof(v), "0x%" PRIx64, sites[s].addr);
		exp_s(fp, p, v);
		snprintf(p, sizeof(p), "changes.sites.%zu.kind", s);
		exp_s(fp, p, sites[s].kind);
		snprintf(p, sizeof(p), "changes.sites.%zu.sym", s);
		exp_s(fp, p, sites[s].sym);
		fprintf(fp, "changes.sites.%zu.len\ti:%u\n", s, sites[s].len);
		fprintf(fp, "changes.sites.%zu.nr_changes\ti:%zu\n", s, n);
		fprintf(fp, "changes.sites.%zu.first_change_ns\ti:%" PRIu64 "\n", s,
			sites[s].times[0]);
		fprintf(fp, "changes.sites.%zu.last_change_ns\ti:%" PRIu64 "\n", s,
			sites[s].times[n - 1]);
		for (k = 0; k <= n; k++) {
			u64 from = k ? sites[s].times[k - 1] : 0;
			u64 to = k < n ? sites[s].times[k] : UINT64_MAX;

			if (k)
				fprintf(fp,
					"changes.sites.%zu.versions.%zu.time_ns\ti:%" PRIu64 "\n",
					s, k, from);
			fprintf(fp, "changes.sites.%zu.versions.%zu.nr_samples\ti:%" PRIu64 "\n", s,
				k, model_samples(fk, s, from, to));
			model_bytes(fp, fk, s, k, from, to);
		}
	}
	for (s = 0; s < NR_REGIONS; s++) {
		snprintf(p, sizeof(p), "changes.regions.%zu.name", s);
		exp_s(fp, p, regions[s].name);
		snprintf(p, sizeof(p), "changes.regions.%zu.addr", s);
		snprintf(v, sizeof(v), "0x%" PRIx64, regions[s].addr);
		exp_s(fp, p, v);
		snprintf(p, sizeof(p), "changes.regions.%zu.type", s);
		exp_s(fp, p, regions[s].type);
		fprintf(fp, "changes.regions.%zu.start_ns\ti:%" PRIu64 "\n", s, regions[s].start);
		if (regions[s].end == ALIVE)
			fprintf(fp, "changes.regions.%zu.end_ns\tn:\n", s);
		else
			fprintf(fp, "changes.regions.%zu.end_ns\ti:%" PRIu64 "\n", s,
				regions[s].end);
		fprintf(fp, "changes.regions.%zu.alive_at_end\tb:%s\n", s,
			regions[s].end == ALIVE ? "true" : "false");
		if (regions[s].reused >= 0)
			fprintf(fp, "changes.regions.%zu.reused_by.0\ti:%d\n", s,
				regions[s].reused);
		else
			fprintf(fp, "changes.regions.%zu.reused_by#len\ti:0\n", s);
	}
}

static void attr(FILE *fp, const char *key, const char *v)
{
	fprintf(fp, " %s=", key);
	rof_hex(fp, v);
}

static void exp_html(FILE *fp)
{
	char v[64];
	size_t s, k, n;

	fprintf(fp, "count %zu lane\ntags script 1\n", NR_SITES + NR_REGIONS);
	for (s = 0; s < NR_SITES; s++) {
		n = nr_changes(s);
		snprintf(v, sizeof(v), "0x%" PRIx64, sites[s].addr);
		fprintf(fp, "has lane");
		attr(fp, "data-type", "site");
		attr(fp, "data-addr", v);
		attr(fp, "data-kind", sites[s].kind);
		attr(fp, "data-sym", sites[s].sym);
		fprintf(fp, "\ncount %zu seg", n + 1);
		attr(fp, "data-addr", v);
		fputc('\n', fp);
		for (k = 1; k <= n; k++) {
			char t[32];

			snprintf(t, sizeof(t), "%" PRIu64, sites[s].times[k - 1]);
			fprintf(fp, "has seg");
			attr(fp, "data-addr", v);
			attr(fp, "data-time-ns", t);
			fputc('\n', fp);
		}
	}
	for (s = 0; s < NR_REGIONS; s++) {
		char t[32];

		snprintf(v, sizeof(v), "0x%" PRIx64, regions[s].addr);
		snprintf(t, sizeof(t), "%" PRIu64, regions[s].start);
		fprintf(fp, "count 1 life");
		attr(fp, "data-name", regions[s].name);
		attr(fp, "data-addr", v);
		attr(fp, "data-start-ns", t);
		if (regions[s].end != ALIVE) {
			snprintf(t, sizeof(t), "%" PRIu64, regions[s].end);
			attr(fp, "data-end-ns", t);
		}
		fputc('\n', fp);
	}
	fprintf(fp, "has row\n");
}

static void exp_profile_only(FILE *fp, const struct fixture_kernel *fk)
{
	fprintf(fp, "changes\tn:\n");
	fprintf(fp, "profile.0.nr_samples\ti:%d\n", fk->nr_samples);
}

static int write_file(const char *path, void (*fn)(FILE *fp, const struct fixture_kernel *fk),
		      const struct fixture_kernel *fk)
{
	FILE *fp = fopen(path, "w");

	if (!fp)
		return -1;
	fn(fp, fk);
	return fclose(fp) ? -1 : 0;
}

static void exp_html_fk(FILE *fp, const struct fixture_kernel *fk)
{
	exp_html(fp);
}

static int test__report_output_recording(struct test_suite *t)
{
	struct fixture_kernel *fk = NULL;
	char *dir = rof_scratch__new(), *cmd = NULL, path[512], exp[512];
	int ret = TEST_FAIL;

	if (!dir)
		goto out;
	if (system("python3 -c 'import json, html.parser' >/dev/null 2>&1")) {
		test_skip(t, "python3 (the JSON and HTML oracle) is not installed");
		ret = TEST_SKIP;
		goto out;
	}
	fk = fixture_kernel__new(0);
	if (!fk)
		goto out;
	snprintf(path, sizeof(path), "%s/report.json", dir);
	if (asprintf(&cmd, "'%s' report -i '%s' --json >'%s'", test_self_exe(), fk->path, path) <
		0 ||
	    rof_run(cmd))
		goto out;
	snprintf(exp, sizeof(exp), "%s/json.expected", dir);
	if (write_file(exp, exp_json, fk) || rof_check("json-check.py", path, exp))
		goto out;

	free(cmd);
	snprintf(path, sizeof(path), "%s/report.html", dir);
	if (asprintf(&cmd, "'%s' report -i '%s' --html '%s' --stdio >/dev/null", test_self_exe(),
		     fk->path, path) < 0 ||
	    rof_run(cmd))
		goto out;
	snprintf(exp, sizeof(exp), "%s/html.expected", dir);
	if (write_file(exp, exp_html_fk, fk) || rof_check("html-check.py", path, exp))
		goto out;

	/* --no-changes: the profile alone, no lanes */
	free(cmd);
	snprintf(path, sizeof(path), "%s/profile.json", dir);
	if (asprintf(&cmd, "'%s' report -i '%s' --no-changes --json >'%s'", test_self_exe(),
		     fk->path, path) < 0 ||
	    rof_run(cmd))
		goto out;
	snprintf(exp, sizeof(exp), "%s/profile.expected", dir);
	if (write_file(exp, exp_profile_only, fk) || rof_check("json-check.py", path, exp))
		goto out;
	snprintf(path, sizeof(path), "%s/report.html", dir);
	snprintf(exp, sizeof(exp), "%s/html.expected", dir);
	if (write_file(exp, exp_html_fk, fk))
		goto out;

	if (system("command -v chromium >/dev/null 2>&1")) {
		test_skip_part(t, "Chromium part: chromium is not installed (make test-deps)");
	} else if (rof_chromium(dir, path, exp, "#show=0xffffffff81000104:1", NULL,
				getenv("TEXTPOKE_REPORT_PNG"))) {
		goto out;
	}
	ret = test_result(t);
out:
	free(cmd);
	fixture_kernel__delete(fk);
	rof_scratch__remove(dir);
	return ret;
}

struct test_suite suite__report_output_recording = {
    .desc = "report --json and --html FILE on the made-up kernel: every site, change and region",
    .func = test__report_output_recording,
};
