// SPDX-License-Identifier: GPL-2.0-only
/*
 * --json on the writer's fixture recording (tests/fixture.h: 64-bit,
 * 32-bit and register-less samples, COMM/FORK/EXIT/MMAP2, BPF programs,
 * jump label TEXT_POKEs), in file and pipe form, every side-band record
 * shown: each line parses (python3's json.loads), and the records of each
 * type and the samples of each ABI are as many as the fixture's model
 * wrote, each TEXT_POKE with its bytes ("text") and its decoded line;
 * and Python finds each sample's insnlen, insn, disasm and poked (some
 * samples are on poked jump labels) as it reads them in the text listing.
 *
 * Mutation caught: script__print_side_band() skipping
 * script_print__side_band_end() (side-band objects never close: lines
 * merge and fail to parse, counts drop); script_json__side_band() naming
 * the record by header.misc instead of its type; script__json_text()
 * keeping only the seconds of the poke's time (poked differs).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"
#include "fixture.h"
#include "../util/writer.h"

static int count_types(const struct fixture *f, const char *out)
{
	static const struct {
		u32 type;
		const char *key;
	} types[] = {
	    {PERF_RECORD_SAMPLE, "{\"record\":\"sample\""},
	    {PERF_RECORD_COMM, "{\"record\":\"COMM\""},
	    {PERF_RECORD_FORK, "{\"record\":\"FORK\""},
	    {PERF_RECORD_EXIT, "{\"record\":\"EXIT\""},
	    {PERF_RECORD_MMAP2, "{\"record\":\"MMAP2\""},
	    {PERF_RECORD_KSYMBOL, "{\"record\":\"KSYMBOL\""},
	    {PERF_RECORD_BPF_EVENT, "{\"record\":\"BPF_EVENT\""},
	    {PERF_RECORD_TEXT_POKE, "{\"record\":\"TEXT_POKE\""},
	};
	static const char *const abis[] = {"\"abi\":\"none\"", "\"abi\":\"32\"", "\"abi\":\"64\""};
	int total = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(types); i++) {
		int n = fixture__count(out, types[i].key);

		if (n != (int)f->nr_records[types[i].type]) {
			pr_debug("%s: %d lines, the fixture wrote %llu records\n", types[i].key, n,
				 (unsigned long long)f->nr_records[types[i].type]);
			return TEST_FAIL;
		}
		total += n;
	}
	for (i = 0; i < ARRAY_SIZE(abis); i++) {
		if (fixture__count(out, abis[i]) != f->nr_samples_abi[i]) {
			pr_debug("%s: %d samples, the fixture wrote %d\n", abis[i],
				 fixture__count(out, abis[i]), f->nr_samples_abi[i]);
			return TEST_FAIL;
		}
	}
	if (fixture__count(out, "\n") != total) {
		pr_debug("%d lines for %d records\n", fixture__count(out, "\n"), total);
		return TEST_FAIL;
	}
	/* each poke: perf's Old/New bytes, and our decoded line */
	if (fixture__count(out, "\"text\":\"") < (int)f->nr_records[PERF_RECORD_TEXT_POKE] ||
	    fixture__count(out, "Old bytes:") != (int)f->nr_records[PERF_RECORD_TEXT_POKE] ||
	    fixture__count(out, ",\"decoded\":\"") != (int)f->nr_records[PERF_RECORD_TEXT_POKE]) {
		pr_debug("TEXT_POKE records without their bytes or decoded line\n");
		return TEST_FAIL;
	}
	return TEST_OK;
}

/*
 * The text fields, both ways: Python reads "ip ilen: N insn: .. disasm
 * [poked S.N]" out of the text listing and compares with the JSON of the
 * same samples (the fixture's samples on jump labels were poked)
 */
static int compare_text(const struct fixture *f)
{
	char *cmd = NULL, *out = NULL, *err = NULL;
	int ret = TEST_FAIL;

	if (asprintf(
		&cmd,
		"exe='%s'; in='%s'; \"$exe\" script -i \"$in\" -F ip,insnlen,insn,disasm,poked "
		">\"$in.txt\" && \"$exe\" script -i \"$in\" -F ip,insnlen,insn,disasm,poked "
		"--json >\"$in.json\" && python3 -c 'import json, re, sys\n"
		"t = open(sys.argv[1]).read().split(\"\\n\")[:-1]\n"
		"j = [json.loads(l) for l in open(sys.argv[2])]\n"
		"assert len(t) == len(j), (len(t), len(j))\n"
		"poked = 0\n"
		"for a, o in zip(t, j):\n"
		"    m = re.match(r\" *([0-9a-f]+) ilen: (\\d+)(.*)$\", a)\n"
		"    n = int(m[2])\n"
		"    r = re.match(r\"(?: insn:((?: [0-9a-f]{2}){%%d}))?(?: (.*?))?"
		"(?: \\[poked (\\d+)\\.(\\d{9})\\])?$\" %% n, m[3])\n"
		"    assert int(o[\"ip\"], 16) == int(m[1], 16), (a, o)\n"
		"    assert o[\"insnlen\"] == n, (a, o)\n"
		"    assert o[\"insn\"] == (r[1][1:] if r[1] else None), (a, o)\n"
		"    assert o[\"disasm\"] == r[2], (a, o)\n"
		"    p = int(r[3]) * 1000000000 + int(r[4]) if r[3] else None\n"
		"    assert o[\"poked\"] == p, (a, o)\n"
		"    poked += p is not None\n"
		"assert poked, \"no poked sample\"\n"
		"print(len(j), \"samples equal,\", poked, \"poked\")' \"$in.txt\" \"$in.json\"",
		test_self_exe(), f->path) < 0)
		return TEST_FAIL;
	if (fixture__run(cmd, &out, &err)) {
		pr_debug("text against json: %s%s\n", out ?: "", err ?: "");
		goto out;
	}
	pr_debug("text against json: %s", out);
	ret = TEST_OK;
out:
	free(cmd);
	free(out);
	free(err);
	return ret;
}

static int check(struct test_suite *t, const struct fixture *f, bool *python_done)
{
	char *cmd = NULL, *out = NULL, *err = NULL;
	int ret = TEST_FAIL;

	if (asprintf(&cmd,
		     "'%s' script -i '%s' --json --show-task-events --show-mmap-events "
		     "--show-bpf-events --show-text-poke-events -F +abi,+insn,+disasm,+poked",
		     test_self_exe(), f->path) < 0)
		return TEST_FAIL;
	if (fixture__run(cmd, &out, &err) || !out) {
		pr_debug("%s: %s\n", cmd, err ?: "");
		goto out;
	}
	if (count_types(f, out))
		goto out;
	free(cmd);
	/* the same listing again, through Python's parser */
	if (asprintf(&cmd,
		     "'%s' script -i '%s' --json --show-task-events --show-mmap-events "
		     "--show-bpf-events --show-text-poke-events -F +abi,+insn,+disasm,+poked | "
		     "python3 -c 'import json, sys\n"
		     "n = 0\n"
		     "for l in sys.stdin.buffer:\n"
		     "    o = json.loads(l.decode(\"utf-8\"))\n"
		     "    assert isinstance(o, dict) and \"record\" in o, l\n"
		     "    n += 1\n"
		     "print(n, \"objects\")'",
		     test_self_exe(), f->path) < 0) {
		cmd = NULL;
		goto out;
	}
	if (system("python3 -c 'import json' >/dev/null 2>&1")) {
		if (!*python_done)
			test_skip_part(t, "json.loads part: python3 is not installed");
		*python_done = true;
		ret = TEST_OK;
		goto out;
	}
	free(out);
	free(err);
	out = err = NULL;
	if (fixture__run(cmd, &out, &err)) {
		pr_debug("python3: %s%s\n", out ?: "", err ?: "");
		goto out;
	}
	pr_debug("python3: %s", out);
	ret = compare_text(f);
out:
	free(cmd);
	free(out);
	free(err);
	return ret;
}

static int test__script_json_fixture(struct test_suite *t)
{
	static const unsigned int modes[] = {0, PERF_WRITER_PIPE};
	bool python_done = false;
	size_t m;

	for (m = 0; m < ARRAY_SIZE(modes); m++) {
		struct fixture *f = fixture__new(modes[m]);
		int err;

		TEST_ASSERT_VAL("fixture", f);
		err = check(t, f, &python_done);
		fixture__delete(f);
		if (err) {
			pr_debug("%s mode fails\n", modes[m] ? "pipe" : "file");
			return TEST_FAIL;
		}
	}
	return test_result(t);
}

struct test_suite suite__script_json_fixture = {
    .desc =
	"script: --json of the fixture recording: every record and ABI the fixture wrote, parsed by Python",
    .func = test__script_json_fixture,
};
