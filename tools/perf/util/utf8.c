// SPDX-License-Identifier: GPL-2.0-only
/*
 * The UTF-8 decoder behind every writer of hostile strings (utf8.h):
 * one place decides what is well-formed, so script --json and report
 * --json/--html cannot disagree about it.
 */
#include "utf8.h"

/*
 * Unicode's table of well-formed sequences: the lead byte fixes the
 * length, and for four leads the second byte has a narrower range, which
 * is what rules out overlong forms (e0, f0), surrogates (ed) and code
 * points past U+10FFFF (f4).  Leads c0, c1 and f5..ff start nothing.
 * Checking each byte as it comes makes the first bad one end the
 * maximal subpart.
 */
size_t utf8__next(const u8 *s, size_t n, u32 *cp)
{
	u8 c = s[0], lo = 0x80, hi = 0xbf;
	size_t need, i;
	u32 v;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		need = 1;
		v = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		need = 2;
		v = c & 0x0f;
		if (c == 0xe0)
			lo = 0xa0;
		else if (c == 0xed)
			hi = 0x9f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		need = 3;
		v = c & 0x07;
		if (c == 0xf0)
			lo = 0x90;
		else if (c == 0xf4)
			hi = 0x8f;
	} else {
		*cp = UTF8_INVALID;
		return 1;
	}
	for (i = 1; i <= need; i++) {
		if (i >= n || s[i] < lo || s[i] > hi) {
			*cp = UTF8_INVALID;
			return i;
		}
		v = v << 6 | (s[i] & 0x3f);
		lo = 0x80;
		hi = 0xbf;
	}
	*cp = v;
	return need + 1;
}
