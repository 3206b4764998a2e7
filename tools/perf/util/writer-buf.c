// SPDX-License-Identifier: GPL-2.0-only
/*
 * The writer's byte buffer: everything is put in the file's byte order,
 * so PERF_WRITER_SWAPPED files come out as a machine of the other
 * endianness would have written them.  Errors are sticky: a sequence of
 * puts is checked once at the end.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "writer-internal.h"

void wbuf__init(struct wbuf *b, bool swap, size_t limit)
{
	memset(b, 0, sizeof(*b));
	b->swap = swap;
	b->limit = limit;
}

void wbuf__exit(struct wbuf *b)
{
	zfree(&b->p);
	b->len = b->alloc = 0;
}

void wbuf__reset(struct wbuf *b)
{
	b->len = 0;
	b->err = 0;
}

/* room for @n more bytes; returns where they go, or NULL (error kept) */
u8 *wbuf__reserve(struct wbuf *b, size_t n)
{
	u8 *p;

	if (b->err)
		return NULL;
	if (n > b->limit - b->len) {
		b->err = -E2BIG;
		return NULL;
	}
	if (b->len + n > b->alloc) {
		size_t alloc = b->alloc ? b->alloc : 256;

		while (alloc < b->len + n)
			alloc *= 2;
		p = realloc(b->p, alloc);
		if (!p) {
			b->err = -ENOMEM;
			return NULL;
		}
		b->p = p;
		b->alloc = alloc;
	}
	p = b->p + b->len;
	b->len += n;
	return p;
}

void wbuf__put(struct wbuf *b, const void *data, size_t n)
{
	u8 *p = wbuf__reserve(b, n);

	if (p && n)
		memcpy(p, data, n);
}

void wbuf__zero(struct wbuf *b, size_t n)
{
	u8 *p = wbuf__reserve(b, n);

	if (p)
		memset(p, 0, n);
}

void wbuf__pad(struct wbuf *b, size_t align)
{
	if (b->len % align)
		wbuf__zero(b, align - b->len % align);
}

void wbuf__u16(struct wbuf *b, u16 v)
{
	if (b->swap)
		v = __builtin_bswap16(v);
	wbuf__put(b, &v, sizeof(v));
}

void wbuf__u32(struct wbuf *b, u32 v)
{
	if (b->swap)
		v = __builtin_bswap32(v);
	wbuf__put(b, &v, sizeof(v));
}

void wbuf__u64(struct wbuf *b, u64 v)
{
	if (b->swap)
		v = __builtin_bswap64(v);
	wbuf__put(b, &v, sizeof(v));
}

/* @nr may be hostile: check before multiplying */
void wbuf__u64_array(struct wbuf *b, const u64 *v, u64 nr)
{
	u64 i;

	if (b->err)
		return;
	if (nr > (b->limit - b->len) / sizeof(u64)) {
		b->err = -E2BIG;
		return;
	}
	if (!b->swap) {
		wbuf__put(b, v, nr * sizeof(u64));
		return;
	}
	for (i = 0; i < nr; i++)
		wbuf__u64(b, v[i]);
}

/* feature string: u32 length (with NUL, padded to 64), bytes, zeros */
void wbuf__string(struct wbuf *b, const char *s)
{
	size_t n = strnlen(s, STRING_MAX);
	u32 len = PERF_ALIGN(n + 1, NAME_ALIGN);

	if (n >= STRING_MAX) {
		b->err = -E2BIG;
		return;
	}
	wbuf__u32(b, len);
	wbuf__put(b, s, n);
	wbuf__zero(b, len - n);
}

/* record string: NUL terminated, zero padded to 8 bytes */
void wbuf__record_string(struct wbuf *b, const char *s)
{
	size_t n = strnlen(s, RECORD_MAX);

	wbuf__put(b, s, n);
	wbuf__zero(b, 1);
	wbuf__pad(b, 8);
}

static u8 revbits(u8 v)
{
	u8 r = 0;
	int i;

	for (i = 0; i < 8; i++)
		if (v & (1 << i))
			r |= 0x80 >> i;
	return r;
}

/*
 * struct perf_event_attr, 128 bytes, field by field.  The u64 of flag
 * bitfields at offset 40 is not byte swapped on the other endianness:
 * the compiler there allocates bitfields from the most significant bit
 * of each byte, so the bits of each byte are reversed (what perf's
 * swap_bitfield() undoes).
 */
void wbuf__attr(struct wbuf *b, const struct perf_event_attr *attr)
{
	static const u8 field_size[] = {4, 4, 8, 8, 8, 8, 0, 4, 4, 8, 8,
					8, 8, 4, 4, 8, 4, 2, 2, 4, 4, 8};
	u8 raw[ATTR_FILE_SIZE];
	size_t i, off = 0;

	memset(raw, 0, sizeof(raw));
	memcpy(raw, attr, sizeof(*attr) < sizeof(raw) ? sizeof(*attr) : sizeof(raw));
	if (!b->swap) {
		wbuf__put(b, raw, sizeof(raw));
		return;
	}
	for (i = 0; i < ARRAY_SIZE(field_size); i++) {
		u16 v16;
		u32 v32;
		u64 v64;
		int j;

		switch (field_size[i]) {
		case 0:
			for (j = 0; j < 8; j++)
				raw[off + j] = revbits(raw[off + j]);
			wbuf__put(b, raw + off, 8);
			off += 8;
			break;
		case 2:
			memcpy(&v16, raw + off, 2);
			wbuf__u16(b, v16);
			off += 2;
			break;
		case 4:
			memcpy(&v32, raw + off, 4);
			wbuf__u32(b, v32);
			off += 4;
			break;
		default:
			memcpy(&v64, raw + off, 8);
			wbuf__u64(b, v64);
			off += 8;
			break;
		}
	}
}

void wbuf__header(struct wbuf *b, u32 type, u16 misc)
{
	wbuf__u32(b, type);
	wbuf__u16(b, misc);
	wbuf__u16(b, 0); /* size: set by record__finish() */
}
