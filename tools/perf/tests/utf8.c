// SPDX-License-Identifier: GPL-2.0-only
/*
 * utf8__next(), the decoder behind script --json and report --json and
 * --html, on sequences at each edge of RFC 3629, each with its length
 * and code point worked out by hand from Unicode's table of well-formed
 * byte sequences (Table 3-7), not by any decoder.  An invalid sequence
 * must give the length of its maximal subpart.
 *
 * Mutation caught: the 0xed lead keeping hi at 0xbf (surrogates
 * accepted); "i >= n" dropped from the continuation check (a sequence is
 * read past the length it was given).
 */
#include <string.h>

#include "tests.h"
#include "../util/utf8.h"

#define BAD UTF8_INVALID

static const struct {
	const char *in;
	size_t n; /* the bytes utf8__next() may look at */
	size_t len;
	u32 cp;
	const char *why;
} cases[] = {
    {"A", 1, 1, 0x41, "ASCII"},
    {"", 1, 1, 0, "NUL is a character"},
    {"\x7f", 1, 1, 0x7f, "last one-byte"},
    {"\xc2\x80", 2, 2, 0x80, "first two-byte"},
    {"\xdf\xbf", 2, 2, 0x7ff, "last two-byte"},
    {"\xe0\xa0\x80", 3, 3, 0x800, "first three-byte"},
    {"\xe2\x82\xac", 3, 3, 0x20ac, "euro sign"},
    {"\xed\x9f\xbf", 3, 3, 0xd7ff, "just below the surrogates"},
    {"\xee\x80\x80", 3, 3, 0xe000, "just above the surrogates"},
    {"\xef\xbf\xbf", 3, 3, 0xffff, "last three-byte"},
    {"\xf0\x90\x80\x80", 4, 4, 0x10000, "first four-byte"},
    {"\xf0\x9f\x98\x80", 4, 4, 0x1f600, "an emoji"},
    {"\xf4\x8f\xbf\xbf", 4, 4, 0x10ffff, "last code point"},
    {"\xc3\xa9", 4, 2, 0xe9, "more room than the sequence"},
    /* overlong forms */
    {"\xc0\xaf", 2, 1, BAD, "overlong '/' in two bytes"},
    {"\xc1\xbf", 2, 1, BAD, "overlong 0x7f"},
    {"\xe0\x80\xaf", 3, 1, BAD, "overlong '/' in three bytes"},
    {"\xe0\x9f\xbf", 3, 1, BAD, "overlong 0x7ff"},
    {"\xf0\x80\x80\xaf", 4, 1, BAD, "overlong '/' in four bytes"},
    {"\xf0\x8f\xbf\xbf", 4, 1, BAD, "overlong 0xffff"},
    /* UTF-16 surrogates */
    {"\xed\xa0\x80", 3, 1, BAD, "first surrogate"},
    {"\xed\xbf\xbf", 3, 1, BAD, "last surrogate"},
    /* past U+10FFFF */
    {"\xf4\x90\x80\x80", 4, 1, BAD, "U+110000"},
    {"\xf5\x80\x80\x80", 4, 1, BAD, "lead 0xf5"},
    {"\xf7\xbf\xbf\xbf", 4, 1, BAD, "lead 0xf7"},
    {"\xf8\x88\x80\x80\x80", 5, 1, BAD, "five-byte form"},
    {"\xfe", 1, 1, BAD, "0xfe"},
    {"\xff", 1, 1, BAD, "0xff"},
    /* continuation bytes with no lead */
    {"\x80", 1, 1, BAD, "lone 0x80"},
    {"\xbf\xbf", 2, 1, BAD, "lone 0xbf"},
    /* truncated: by the length, by a byte that is no continuation */
    {"\xc3", 1, 1, BAD, "two-byte lead at the end"},
    {"\xc3\xa9", 1, 1, BAD, "two-byte sequence beyond n"},
    {"\xe2", 1, 1, BAD, "three-byte lead at the end"},
    {"\xe2\x82", 2, 2, BAD, "three-byte sequence cut after two"},
    {"\xe2\x82\xac", 2, 2, BAD, "three-byte sequence beyond n"},
    {"\xf0\x9f", 2, 2, BAD, "four-byte sequence cut after two"},
    {"\xf0\x9f\x98", 3, 3, BAD, "four-byte sequence cut after three"},
    {"\xe2\x82X", 3, 2, BAD, "three-byte sequence broken by ASCII"},
    {"\xe2\x82", 3, 2, BAD, "three-byte sequence broken by NUL"},
    {"\xf0\x9f\x98X", 4, 3, BAD, "four-byte sequence broken by ASCII"},
    {"\xe2\xc3\xa9", 3, 1, BAD, "three-byte lead, then a new lead"},
};

static int test__utf8(struct test_suite *t)
{
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		u32 cp = 0x12345;
		size_t len = utf8__next((const u8 *)cases[i].in, cases[i].n, &cp);

		if (len != cases[i].len || cp != cases[i].cp) {
			pr_debug("case %zu (%s): length %zu, code point %#x; want %zu, %#x\n", i,
				 cases[i].why, len, cp, cases[i].len, cases[i].cp);
			return TEST_FAIL;
		}
	}
	return test_result(t);
}

struct test_suite suite__utf8 = {
    .desc = "utf8: well-formed, overlong, surrogate, past U+10FFFF and cut-short sequences",
    .func = test__utf8,
};
