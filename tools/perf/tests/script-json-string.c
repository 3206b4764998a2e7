// SPDX-License-Identifier: GPL-2.0-only
/*
 * --json's strings: quotes, backslashes, control bytes and NULs escaped as
 * RFC 8259 says, valid UTF-8 kept, invalid UTF-8 replaced by U+FFFD per
 * maximal subpart.  Hand-worked cases, then random byte strings checked by
 * Python: json.loads() of our string must equal the bytes decoded by
 * Python's own UTF-8 decoder with errors="replace".
 *
 * Mutation caught: utf8__next() accepting 0xed 0xa0 (a surrogate: hi left
 * at 0xbf); '\n' written as "\u000a" instead of "\n" (the hand cases).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"
#include "fixture.h"
#include "../util/script-json.h"
#include "../util/script-print.h"

static const struct {
	const char *in;
	size_t len;
	const char *want;
} cases[] = {
#define C(in, want)                      \
	{                                \
		in, sizeof(in) - 1, want \
	}
    C("plain", "\"plain\""),
    C("q\"b\\c", "\"q\\\"b\\\\c\""),
    C("\x01\x1f\n\t\r\b\f", "\"\\u0001\\u001f\\n\\t\\r\\b\\f\""),
    C("a\0b", "\"a\\u0000b\""),
    C("\x7f/", "\"\x7f/\""),
    C("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\""),
    C("\xff", "\"\\ufffd\""),
    C("x\xe2\x82", "\"x\\ufffd\""),
    C("\xe2\x82X", "\"\\ufffdX\""),
    C("\xc0\xaf", "\"\\ufffd\\ufffd\""),
    C("\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\""),
    C("\xed\x9f\xbf", "\"\xed\x9f\xbf\""),
    C("\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\""),
    C("\xf0\x9f\x98", "\"\\ufffd\""),
    C("\xe0\x80\x80", "\"\\ufffd\\ufffd\\ufffd\""),
    C("\x80\xbf", "\"\\ufffd\\ufffd\""),
#undef C
};

#define NR_RANDOM 400

/* our strings and their bytes in hex, one per line, for Python to compare */
static int python_check(struct test_suite *t, struct script_buf *b)
{
	char *dir = fixture__tmpdir(), *cmd = NULL, *out = NULL, *err = NULL;
	char path_json[512], path_hex[512];
	FILE *fj = NULL, *fh = NULL;
	unsigned int seed = 12, i, k;
	int ret = TEST_FAIL;

	if (!dir)
		return TEST_FAIL;
	if (system("python3 -c 'import json' >/dev/null 2>&1")) {
		test_skip_part(t, "random part: python3 is not installed");
		ret = TEST_OK;
		goto out;
	}
	snprintf(path_json, sizeof(path_json), "%s/strings.json", dir);
	snprintf(path_hex, sizeof(path_hex), "%s/strings.hex", dir);
	fj = fopen(path_json, "w");
	fh = fopen(path_hex, "w");
	if (!fj || !fh)
		goto out;
	for (i = 0; i < NR_RANDOM; i++) {
		unsigned char raw[24];
		unsigned int n = rand_r(&seed) % sizeof(raw);

		/* mostly high bytes and controls: where the rules are */
		for (k = 0; k < n; k++) {
			unsigned int r = rand_r(&seed);

			raw[k] = r % 3 ? 0x80 + (r >> 8) % 0x80 : (r >> 8) % 0x80;
		}
		b->len = 0;
		script_json__string(b, (const char *)raw, n);
		fwrite(b->data, 1, b->len, fj);
		fputc('\n', fj);
		/* "h" keeps the line of an empty string */
		fputc('h', fh);
		for (k = 0; k < n; k++)
			fprintf(fh, "%02x", raw[k]);
		fputc('\n', fh);
	}
	if (fclose(fj) | fclose(fh)) {
		fj = fh = NULL;
		goto out;
	}
	fj = fh = NULL;
	if (asprintf(&cmd,
		     "python3 -c 'import json, sys\n"
		     "j = open(sys.argv[1], \"rb\").read().split(b\"\\n\")[:-1]\n"
		     "h = open(sys.argv[2]).read().split()\n"
		     "assert len(j) == %d, len(j)\n"
		     "assert len(h) == len(j), len(h)\n"
		     "for a, x in zip(j, h):\n"
		     "    want = bytes.fromhex(x[1:]).decode(\"utf-8\", \"replace\")\n"
		     "    got = json.loads(a.decode(\"utf-8\"))\n"
		     "    assert got == want, (a, x, got, want)\n"
		     "print(\"ok\", len(j))' '%s' '%s'",
		     NR_RANDOM, path_json, path_hex) < 0)
		goto out;
	if (fixture__run(cmd, &out, &err)) {
		pr_debug("python3 disagrees: %s%s\n", out ?: "", err ?: "");
		goto out;
	}
	pr_debug("python3: %s", out);
	ret = TEST_OK;
out:
	if (fj)
		fclose(fj);
	if (fh)
		fclose(fh);
	free(cmd);
	free(out);
	free(err);
	fixture__remove_dir(dir, "script-json-string");
	free(dir);
	return ret;
}

static int test__script_json_string(struct test_suite *t)
{
	struct script_buf b;
	size_t i;
	int ret;

	TEST_ASSERT_VAL("buffer", !script_buf__init(&b, NULL));
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		b.len = 0;
		script_json__string(&b, cases[i].in, cases[i].len);
		if (b.len != strlen(cases[i].want) || memcmp(b.data, cases[i].want, b.len)) {
			pr_debug("case %zu: got %.*s, want %s\n", i, (int)b.len, b.data,
				 cases[i].want);
			script_buf__exit(&b);
			return TEST_FAIL;
		}
	}
	ret = python_check(t, &b);
	script_buf__exit(&b);
	return ret ?: test_result(t);
}

struct test_suite suite__script_json_string = {
    .desc =
	"script: --json strings escaped per RFC 8259, invalid UTF-8 as U+FFFD as Python decodes it",
    .func = test__script_json_string,
};
