// SPDX-License-Identifier: GPL-2.0-only
/*
 * PERF_TYPE_SYNTH events (what perf's Intel PT decoder makes of ptwrite
 * and power packets) in a recording written with our writer: the synth:
 * field list and the synth field print as stock perf script prints them
 * (its ptwrite and cbr payload text, padded to 34 columns, perf's
 * defaults for the synth type), and --json gives the same payload text,
 * checked against values worked out by hand from perf's formats.
 *
 * Mutation caught: script_output_type() mapping PERF_TYPE_SYNTH to
 * SCRIPT_OUT_OTHER (the synth: list no longer applies, and the default
 * line gains a period); the cbr frequency rounding dropped ("+ 500").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"
#include "fixture.h"
#include "../util/script-fields.h"
#include "../util/writer.h"

#define PID 5150

/* perf's ids: attr.config of PERF_TYPE_SYNTH */
enum { SYNTH_PTWRITE = 0, SYNTH_CBR = 5 };

static int write_synth(const char *path)
{
	struct perf_event_attr attr = {
	    .type = PERF_TYPE_SYNTH,
	    .size = sizeof(attr),
	    .sample_period = 1,
	    .sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
			   PERF_SAMPLE_RAW,
	    .sample_id_all = 1,
	};
	struct perf_event_attr clock = {
	    .type = PERF_TYPE_SOFTWARE,
	    .size = sizeof(clock),
	    .config = PERF_COUNT_SW_CPU_CLOCK,
	    .sample_period = 10000,
	    .sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
			   PERF_SAMPLE_PERIOD,
	    .sample_id_all = 1,
	    .comm = 1,
	    .task = 1,
	};
	/* the raw payloads: perf's structs without their leading u32 */
	u8 ptw1[12] = {1, 0, 0, 0, 'h', 'e', 'l', 'l', 'o', 0, 0, 0};
	u8 ptw2[12] = {0, 0, 0, 0, 0x34, 0x12, 0, 0, 0, 0, 0, 0x80};
	/* cbr 20, max non-turbo 24, 1999500 kHz: 2000 MHz rounded, 83% */
	u8 cbr[12] = {20, 0, 24, 0, 0x8c, 0x82, 0x1e, 0, 0, 0, 0, 0};
	struct {
		int idx;
		const u8 *raw;
	} samples[3];
	struct perf_sample id = {.pid = PID, .tid = PID, .time = 1000};
	struct perf_writer *w = perf_writer__new(path, 0);
	int ptw, cb, cc, err, i;

	if (!w)
		return -1;
	cc = perf_writer__add_attr(w, &clock, NULL, 0, "cpu-clock");
	ptw = perf_writer__add_attr(w, &attr, NULL, 0, "ptwrite");
	attr.config = SYNTH_CBR;
	cb = perf_writer__add_attr(w, &attr, NULL, 0, "cbr");
	err = cc < 0 ? cc : ptw < 0 ? ptw : cb < 0 ? cb : 0;
	err = err ?: perf_writer__set_hostname(w, "synth-host");
	err = err ?: perf_writer__set_osrelease(w, "6.1.0-synth");
	err = err ?: perf_writer__set_version(w, "6.1.synth");
	err = err ?: perf_writer__set_arch(w, "x86_64");
	err = err ?: perf_writer__set_nrcpus(w, 1, 1);
	err = err ?: perf_writer__synth_comm(w, cc, PID, PID, "ptw-task", false, &id);
	samples[0].idx = ptw;
	samples[0].raw = ptw1;
	samples[1].idx = cb;
	samples[1].raw = cbr;
	samples[2].idx = ptw;
	samples[2].raw = ptw2;
	for (i = 0; !err && i < 3; i++) {
		struct perf_sample s = {
		    .ip = 0x401000 + 16 * i,
		    .pid = PID,
		    .tid = PID,
		    .time = 2000 + i * 1000,
		    .cpu = 0,
		    .period = 1,
		    .cpumode = PERF_RECORD_MISC_USER,
		    .raw_size = 12,
		    .raw_data = samples[i].raw,
		};

		err = perf_writer__synth_sample(w, samples[i].idx, &s);
	}
	for (i = 0; !err && i < 2; i++) {
		struct perf_sample s = {
		    .ip = 0x402000,
		    .pid = PID,
		    .tid = PID,
		    .time = 5000 + i,
		    .period = 10000,
		    .cpumode = PERF_RECORD_MISC_USER,
		};

		err = perf_writer__synth_sample(w, cc, &s);
	}
	if (err) {
		perf_writer__abort(w);
		return err;
	}
	return perf_writer__close(w);
}

static const char *const option_sets[] = {
    "",
    "-F synth:ip,synth",
    "-F synth:comm,tid,time,event,synth",
    "-F synth:",
    "-F +synth",
    "-F ip,synth",
    "-F synth:-synth",
    "-F synth",
};

static int compare(const char *path, const char *opts)
{
	char *cmd = NULL, *theirs = NULL, *ours = NULL;
	int ret = TEST_FAIL, st_perf, st_ours;

	if (asprintf(&cmd, "perf script -i '%s' %s", path, opts) < 0)
		return TEST_FAIL;
	st_perf = fixture__run(cmd, &theirs, NULL);
	free(cmd);
	if (asprintf(&cmd, "'%s' script -i '%s' %s", test_self_exe(), path, opts) < 0)
		goto out;
	st_ours = fixture__run(cmd, &ours, NULL);
	free(cmd);
	if (st_perf || st_ours || !theirs || !ours || !theirs[0] || strcmp(theirs, ours)) {
		pr_debug("%s: perf exit %d:\n%s\nours exit %d:\n%s\n", opts, st_perf, theirs ?: "",
			 st_ours, ours ?: "");
		goto out;
	}
	pr_debug("%s: %d lines as perf script\n", opts, fixture__count(ours, "\n"));
	ret = TEST_OK;
out:
	free(theirs);
	free(ours);
	return ret;
}

/* --json: the payload text perf's formats give, worked out by hand */
static int check_json(const char *path)
{
	static const char *const want[] = {
	    "{\"record\":\"sample\",\"event\":\"ptwrite\",\"synth\":"
	    "\"IP: 1 payload: 0x6f6c6c6568 hello\"}\n",
	    "{\"record\":\"sample\",\"event\":\"cbr\",\"synth\":\"cbr: 20 freq: 2000 MHz ( 83%)\"}\n",
	    "{\"record\":\"sample\",\"event\":\"ptwrite\",\"synth\":"
	    "\"IP: 0 payload: 0x8000000000001234\"}\n",
	    "{\"record\":\"sample\",\"event\":\"cpu-clock\",\"synth\":null}\n",
	};
	char *cmd = NULL, *out = NULL, *p;
	size_t i;
	int ret = TEST_FAIL;

	if (asprintf(&cmd, "'%s' script -i '%s' --json -F event,synth", test_self_exe(), path) < 0)
		return TEST_FAIL;
	if (fixture__run(cmd, &out, NULL) || !out)
		goto out;
	pr_debug("%s", out);
	p = out;
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		if (strncmp(p, want[i], strlen(want[i]))) {
			pr_debug("line %zu: want %s", i + 1, want[i]);
			goto out;
		}
		p += strlen(want[i]);
	}
	ret = TEST_OK;
out:
	free(cmd);
	free(out);
	return ret;
}

static int test__script_json_synth(struct test_suite *t)
{
	char *dir = fixture__tmpdir(), *path = NULL;
	size_t i;
	int ret = TEST_FAIL;

	TEST_ASSERT_VAL("tmpdir", dir);
	if (asprintf(&path, "%s/synth.data", dir) < 0 || write_synth(path)) {
		pr_debug("cannot write the synth recording\n");
		goto out;
	}
	if (check_json(path))
		goto out;
	if (!fixture__have_perf()) {
		test_skip_part(t, "perf part: stock perf is not installed");
		ret = test_result(t);
		goto out;
	}
	for (i = 0; i < ARRAY_SIZE(option_sets); i++) {
		if (compare(path, option_sets[i]))
			goto out;
	}
	ret = test_result(t);
out:
	free(path);
	fixture__remove_dir(dir, "script-json-synth");
	free(dir);
	return ret;
}

struct test_suite suite__script_json_synth = {
    .desc =
	"script: PERF_TYPE_SYNTH samples, -F synth: and the synth field, as perf script and in --json",
    .func = test__script_json_synth,
};
