// SPDX-License-Identifier: GPL-2.0-only
/*
 * "%.2f" of a double, as glibc prints it (fmt-fixed.h says why).
 *
 * v * 100 is exact in a long double (x86's 64-bit significand holds a
 * 53-bit one times 100, seven bits), so its fractional part says exactly
 * whether v is below, at or above the midpoint between two hundredths:
 * the rounding printf makes (to nearest, ties to even) without printf.
 * Anything else (negative, not finite, too large, a long double no wider
 * than a double) goes to snprintf().
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fmt-fixed.h"

int fmt_fixed2(char *buf, size_t size, int width, double v)
{
	char digits[32];
	long double x, ip, frac;
	unsigned long long k;
	int n = 0, len, pad;

	if (LDBL_MANT_DIG < 64 || !(v >= 0.0) || v >= 1e15 || width < 0 || width > 1024)
		return snprintf(buf, size, "%*.2f", width, v);
	x = (long double)v * 100.0L;
	ip = floorl(x);
	frac = x - ip;
	k = (unsigned long long)ip;
	if (frac > 0.5L || (frac == 0.5L && (k & 1)))
		k++;
	/* the digits backwards: hundredths, tenths, the point, the units up */
	digits[n++] = '0' + k % 10;
	k /= 10;
	digits[n++] = '0' + k % 10;
	k /= 10;
	digits[n++] = '.';
	do {
		digits[n++] = '0' + k % 10;
		k /= 10;
	} while (k);
	pad = width > n ? width - n : 0;
	len = pad + n;
	if (size) {
		size_t room = size - 1, i = 0;

		for (; i < (size_t)pad && i < room; i++)
			buf[i] = ' ';
		for (int d = n - 1; d >= 0 && i < room; d--)
			buf[i++] = digits[d];
		buf[i] = '\0';
	}
	return len;
}
