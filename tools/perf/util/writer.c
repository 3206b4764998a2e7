// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf.data writer.  File mode lays the output out as
 *
 *	0    struct perf_file_header (104 bytes, rewritten at close)
 *	104  attrs: nr x { attr (128 bytes), {offset, size} of its ids }
 *	     id arrays
 *	     data section (records; COMPRESSED records with ZSTD)
 *	     feature table: one {offset, size} per set bit, ascending
 *	     feature payloads
 *
 * Pipe mode streams {magic, 16}, HEADER_ATTR records, HEADER_FEATURE
 * records ending with the HEADER_LAST_FEATURE mark, HEADER_TRACING_DATA,
 * HEADER_BUILD_ID records, then the data records.
 *
 * Everything is assembled in the file's byte order by the put helpers, so
 * PERF_WRITER_SWAPPED produces what a machine of the other endianness
 * would have written.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef HAVE_ZSTD
#include <zstd.h>
#endif

#include "header.h"
#include "writer.h"

#define ATTR_FILE_SIZE 128	/* PERF_ATTR_SIZE_VER7: perf 6.1 refuses more */
#define NAME_ALIGN 64		/* strings in feature sections */
#define RECORD_MAX 65528	/* largest header.size that is a multiple of 8 */
#define FEATURE_MAX (1ULL << 30)	/* sanity cap on one feature payload */
#define STRING_MAX (16U << 20)
#define MAX_IDS (1U << 20)
#define OUT_BUF_SIZE (256 * 1024)
#define FIRST_AUTO_ID 1000

/*
 * zstd: kernel records are batched up to ZIN_SIZE bytes, then flushed
 * into COMPRESSED records.  Stock perf decompresses each COMPRESSED
 * record into a buffer of COMP_MMAP_LEN (the COMPRESSED feature's
 * mmap_len) plus the carried-over part of the previous one, and spins if
 * the output does not fit: a batch must stay well below it.
 */
#define ZIN_SIZE (128 * 1024)
#define COMP_MMAP_LEN (512 * 1024)
#define COMP_PAYLOAD_MAX (RECORD_MAX - 8)

#define PERF_RECORD_MISC_BUILD_ID_SIZE_ (1 << 15)

/* growable byte buffer in the file's byte order; errors are sticky */
struct wbuf {
	u8 *p;
	size_t len;
	size_t alloc;
	size_t limit;
	bool swap;
	int err;
};

struct writer_attr {
	struct perf_event_attr attr;
	u64 *ids;
	u32 nr_ids;
	char *name;
};

struct writer_feat {
	struct wbuf buf;
	bool set;
};

struct perf_writer {
	unsigned int flags;
	bool swap;
	bool pipe;
	bool started;
	bool event_desc;
	bool own_fd;
	int err;
	int fd;
	char *path;	/* destination, NULL for a caller's fd */
	char *tmp_path;	/* temporary file, or directory in DIRECTORY mode */
	char *data_path; /* the file written */
	u8 *obuf;
	size_t olen;
	u64 off;	/* file offset of obuf[0] */
	u64 data_offset;
	struct writer_attr *attrs;
	int nr_attrs;
	u64 next_id;
	struct writer_feat feat[HEADER_LAST_FEATURE];
	struct wbuf build_ids;	/* BUILD_ID entries */
	struct wbuf rec;	/* record being assembled */
	u64 nr_records[PERF_RECORD_HEADER_MAX];
	int zlevel;
#ifdef HAVE_ZSTD
	ZSTD_CCtx *zctx;
	u8 *zin;
	size_t zin_len;
	u8 *zout;
	size_t zout_size;
	u64 zbytes_in;
	u64 zbytes_out;
#endif
};

static void wbuf__init(struct wbuf *b, bool swap, size_t limit)
{
	memset(b, 0, sizeof(*b));
	b->swap = swap;
	b->limit = limit;
}

static void wbuf__exit(struct wbuf *b)
{
	zfree(&b->p);
	b->len = b->alloc = 0;
}

static void wbuf__reset(struct wbuf *b)
{
	b->len = 0;
	b->err = 0;
}

/* room for @n more bytes; returns where they go, or NULL (error kept) */
static u8 *wbuf__reserve(struct wbuf *b, size_t n)
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

static void wbuf__put(struct wbuf *b, const void *data, size_t n)
{
	u8 *p = wbuf__reserve(b, n);

	if (p && n)
		memcpy(p, data, n);
}

static void wbuf__zero(struct wbuf *b, size_t n)
{
	u8 *p = wbuf__reserve(b, n);

	if (p)
		memset(p, 0, n);
}

static void wbuf__pad(struct wbuf *b, size_t align)
{
	if (b->len % align)
		wbuf__zero(b, align - b->len % align);
}

static void wbuf__u16(struct wbuf *b, u16 v)
{
	if (b->swap)
		v = __builtin_bswap16(v);
	wbuf__put(b, &v, sizeof(v));
}

static void wbuf__u32(struct wbuf *b, u32 v)
{
	if (b->swap)
		v = __builtin_bswap32(v);
	wbuf__put(b, &v, sizeof(v));
}

static void wbuf__u64(struct wbuf *b, u64 v)
{
	if (b->swap)
		v = __builtin_bswap64(v);
	wbuf__put(b, &v, sizeof(v));
}

/* @nr may be hostile: check before multiplying */
static void wbuf__u64_array(struct wbuf *b, const u64 *v, u64 nr)
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
static void wbuf__string(struct wbuf *b, const char *s)
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
static void wbuf__record_string(struct wbuf *b, const char *s)
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
static void wbuf__attr(struct wbuf *b, const struct perf_event_attr *attr)
{
	static const u8 field_size[] = { 4, 4, 8, 8, 8, 8, 0, 4, 4, 8, 8, 8, 8,
					 4, 4, 8, 4, 2, 2, 4, 4, 8 };
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

static void wbuf__header(struct wbuf *b, u32 type, u16 misc)
{
	wbuf__u32(b, type);
	wbuf__u16(b, misc);
	wbuf__u16(b, 0); /* size: set by record__finish() */
}

/* ---- output ---- */

static int writer__flush(struct perf_writer *w)
{
	size_t done = 0;

	while (done < w->olen) {
		ssize_t n = write(w->fd, w->obuf + done, w->olen - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			w->err = n < 0 ? -errno : -EIO;
			return w->err;
		}
		done += n;
	}
	w->off += w->olen;
	w->olen = 0;
	return 0;
}

static int writer__emit(struct perf_writer *w, const void *data, size_t n)
{
	const u8 *p = data;

	if (w->err)
		return w->err;
	while (n) {
		size_t chunk = OUT_BUF_SIZE - w->olen;

		if (chunk > n)
			chunk = n;
		memcpy(w->obuf + w->olen, p, chunk);
		w->olen += chunk;
		p += chunk;
		n -= chunk;
		if (w->olen == OUT_BUF_SIZE && writer__flush(w))
			return w->err;
	}
	return 0;
}

static int writer__emit_zero(struct perf_writer *w, size_t n)
{
	static const u8 zero[64];

	while (n && !w->err) {
		size_t chunk = n < sizeof(zero) ? n : sizeof(zero);

		writer__emit(w, zero, chunk);
		n -= chunk;
	}
	return w->err;
}

static u64 writer__pos(struct perf_writer *w)
{
	return w->off + w->olen;
}

static u16 writer__u16(struct perf_writer *w, u16 v)
{
	return w->swap ? __builtin_bswap16(v) : v;
}

static u32 writer__u32(struct perf_writer *w, u32 v)
{
	return w->swap ? __builtin_bswap32(v) : v;
}

/* ---- zstd ---- */

#ifdef HAVE_ZSTD
static int writer__zstd_init(struct perf_writer *w)
{
	w->zctx = ZSTD_createCCtx();
	w->zin = malloc(ZIN_SIZE);
	w->zout_size = ZSTD_CStreamOutSize();
	w->zout = malloc(w->zout_size);
	if (!w->zctx || !w->zin || !w->zout)
		return -ENOMEM;
	if (ZSTD_isError(ZSTD_CCtx_setParameter(w->zctx, ZSTD_c_compressionLevel, w->zlevel)))
		return -EINVAL;
	return 0;
}

static void writer__zstd_exit(struct perf_writer *w)
{
	ZSTD_freeCCtx(w->zctx);
	w->zctx = NULL;
	zfree(&w->zin);
	zfree(&w->zout);
}

static int writer__emit_compressed(struct perf_writer *w, const u8 *p, size_t n)
{
	while (n && !w->err) {
		size_t chunk = n < COMP_PAYLOAD_MAX ? n : COMP_PAYLOAD_MAX;
		struct perf_event_header h = {
			.type = writer__u32(w, PERF_RECORD_COMPRESSED),
			.size = writer__u16(w, chunk + sizeof(h)),
		};

		writer__emit(w, &h, sizeof(h));
		writer__emit(w, p, chunk);
		w->nr_records[PERF_RECORD_COMPRESSED]++;
		p += chunk;
		n -= chunk;
	}
	return w->err;
}

/*
 * Compress the batch and flush the stream (not end it): like perf
 * record, the whole data section is one zstd stream, each batch
 * decodable as soon as its records arrive.
 */
static int writer__zstd_flush(struct perf_writer *w)
{
	ZSTD_inBuffer in = { w->zin, w->zin_len, 0 };
	size_t left;

	if (!w->zin_len || w->err)
		return w->err;
	do {
		ZSTD_outBuffer out = { w->zout, w->zout_size, 0 };

		left = ZSTD_compressStream2(w->zctx, &out, &in, ZSTD_e_flush);
		if (ZSTD_isError(left)) {
			w->err = -EIO;
			return w->err;
		}
		if (writer__emit_compressed(w, w->zout, out.pos))
			return w->err;
		w->zbytes_out += out.pos;
	} while (left || in.pos < in.size);
	w->zbytes_in += w->zin_len;
	w->zin_len = 0;
	return 0;
}
#else
static int writer__zstd_init(struct perf_writer *w)
{
	return -EOPNOTSUPP;
}

static void writer__zstd_exit(struct perf_writer *w)
{
}

static int writer__zstd_flush(struct perf_writer *w)
{
	return w->err;
}
#endif

/* what perf record reports: uncompressed / compressed, 0 when unknown (pipe) */
static u32 writer__zstd_ratio(struct perf_writer *w)
{
#ifdef HAVE_ZSTD
	if (w->zbytes_out)
		return w->zbytes_in / w->zbytes_out;
#endif
	return 0;
}

/* ---- headers ---- */

static bool writer__has_event_desc(struct perf_writer *w)
{
	int i;

	if (!w->event_desc || !w->nr_attrs)
		return false;
	for (i = 0; i < w->nr_attrs; i++)
		if (!w->attrs[i].name)
			return false;
	return true;
}

/* the features the writer makes itself, built just before they are written */
static int writer__auto_features(struct perf_writer *w)
{
	struct writer_feat *f;
	int i;

	if (writer__has_event_desc(w)) {
		f = &w->feat[HEADER_EVENT_DESC];
		wbuf__reset(&f->buf);
		wbuf__u32(&f->buf, w->nr_attrs);
		wbuf__u32(&f->buf, ATTR_FILE_SIZE);
		for (i = 0; i < w->nr_attrs; i++) {
			struct writer_attr *a = &w->attrs[i];

			wbuf__attr(&f->buf, &a->attr);
			wbuf__u32(&f->buf, a->nr_ids);
			wbuf__string(&f->buf, a->name);
			wbuf__u64_array(&f->buf, a->ids, a->nr_ids);
		}
		if (f->buf.err)
			return f->buf.err;
		f->set = true;
	}
	if (w->flags & PERF_WRITER_ZSTD) {
		f = &w->feat[HEADER_COMPRESSED];
		wbuf__reset(&f->buf);
		wbuf__u32(&f->buf, 1);	/* version */
		wbuf__u32(&f->buf, 1);	/* zstd */
		wbuf__u32(&f->buf, w->zlevel);
		wbuf__u32(&f->buf, writer__zstd_ratio(w));
		wbuf__u32(&f->buf, COMP_MMAP_LEN);
		if (f->buf.err)
			return f->buf.err;
		f->set = true;
	}
	if (w->build_ids.len) {
		f = &w->feat[HEADER_BUILD_ID];
		wbuf__reset(&f->buf);
		wbuf__put(&f->buf, w->build_ids.p, w->build_ids.len);
		if (f->buf.err)
			return f->buf.err;
		f->set = true;
	}
	return 0;
}

static void writer__file_header(struct perf_writer *w, struct wbuf *b, u64 data_size)
{
	u64 attr_bytes = (u64)w->nr_attrs * (ATTR_FILE_SIZE + 16);
	u64 features[HEADER_FEAT_BITS / 64] = { 0 };
	int i;

	for (i = HEADER_FIRST_FEATURE; i < HEADER_LAST_FEATURE; i++)
		if (w->feat[i].set)
			features[i / 64] |= 1ULL << (i % 64);
	wbuf__u64(b, PERF_MAGIC2);
	wbuf__u64(b, sizeof(struct perf_file_header));
	wbuf__u64(b, ATTR_FILE_SIZE + 16);
	wbuf__u64(b, sizeof(struct perf_file_header));
	wbuf__u64(b, attr_bytes);
	wbuf__u64(b, w->data_offset);
	wbuf__u64(b, data_size);
	wbuf__u64(b, 0);
	wbuf__u64(b, 0);
	/*
	 * The bitmap is an array of unsigned long that perf byte swaps as
	 * u64s; bit n of a u64 is bit n whatever the byte order.
	 */
	wbuf__u64_array(b, features, ARRAY_SIZE(features));
}

/* file mode: header placeholder, attrs, ids; the data section starts after */
static int writer__start_file(struct perf_writer *w)
{
	struct wbuf b;
	u64 ids_off;
	int i, err;

	wbuf__init(&b, w->swap, FEATURE_MAX);
	ids_off = sizeof(struct perf_file_header) + (u64)w->nr_attrs * (ATTR_FILE_SIZE + 16);
	w->data_offset = ids_off;
	for (i = 0; i < w->nr_attrs; i++)
		w->data_offset += (u64)w->attrs[i].nr_ids * sizeof(u64);
	/* zero data.size until close: perf calls such a file unfinished */
	writer__file_header(w, &b, 0);
	for (i = 0; i < w->nr_attrs; i++) {
		struct writer_attr *a = &w->attrs[i];

		wbuf__attr(&b, &a->attr);
		wbuf__u64(&b, ids_off);
		wbuf__u64(&b, (u64)a->nr_ids * sizeof(u64));
		ids_off += (u64)a->nr_ids * sizeof(u64);
	}
	for (i = 0; i < w->nr_attrs; i++)
		wbuf__u64_array(&b, w->attrs[i].ids, w->attrs[i].nr_ids);
	err = b.err ? b.err : writer__emit(w, b.p, b.len);
	wbuf__exit(&b);
	return err;
}

static int writer__emit_wbuf_record(struct perf_writer *w, struct wbuf *b)
{
	u16 size;

	if (b->err)
		return b->err;
	if (b->len > RECORD_MAX || b->len % 8)
		return -E2BIG;
	size = writer__u16(w, b->len);
	memcpy(b->p + 6, &size, sizeof(size));
	return writer__emit(w, b->p, b->len);
}

static int writer__start_pipe(struct perf_writer *w)
{
	struct writer_feat *td = &w->feat[HEADER_TRACING_DATA];
	struct wbuf b;
	int i, err = 0;

	wbuf__init(&b, w->swap, RECORD_MAX);
	wbuf__u64(&b, PERF_MAGIC2);
	wbuf__u64(&b, sizeof(struct perf_pipe_file_header));
	err = b.err ? b.err : writer__emit(w, b.p, b.len);

	for (i = 0; !err && i < w->nr_attrs; i++) {
		wbuf__reset(&b);
		wbuf__header(&b, PERF_RECORD_HEADER_ATTR, 0);
		wbuf__attr(&b, &w->attrs[i].attr);
		wbuf__u64_array(&b, w->attrs[i].ids, w->attrs[i].nr_ids);
		err = writer__emit_wbuf_record(w, &b);
		w->nr_records[PERF_RECORD_HEADER_ATTR]++;
	}
	/* features travel as records; TRACING_DATA and BUILD_ID have their own */
	for (i = HEADER_FIRST_FEATURE; !err && i <= HEADER_LAST_FEATURE; i++) {
		struct writer_feat *f = &w->feat[i];

		if (i < HEADER_LAST_FEATURE &&
		    (!f->set || i == HEADER_TRACING_DATA || i == HEADER_BUILD_ID))
			continue;
		wbuf__reset(&b);
		wbuf__header(&b, PERF_RECORD_HEADER_FEATURE, 0);
		wbuf__u64(&b, i);
		if (i < HEADER_LAST_FEATURE) {
			wbuf__put(&b, f->buf.p, f->buf.len);
			wbuf__pad(&b, 8);
		}
		err = writer__emit_wbuf_record(w, &b);
		w->nr_records[PERF_RECORD_HEADER_FEATURE]++;
	}
	/*
	 * The tracing data follows its 16-byte record, outside header.size;
	 * its size field counts the padding to 8 bytes.
	 */
	if (!err && td->set) {
		wbuf__reset(&b);
		wbuf__header(&b, PERF_RECORD_HEADER_TRACING_DATA, 0);
		wbuf__u32(&b, PERF_ALIGN(td->buf.len, 8));
		wbuf__u32(&b, 0);
		err = writer__emit_wbuf_record(w, &b);
		if (!err)
			err = writer__emit(w, td->buf.p, td->buf.len);
		if (!err)
			err = writer__emit_zero(w, PERF_ALIGN(td->buf.len, 8) - td->buf.len);
		w->nr_records[PERF_RECORD_HEADER_TRACING_DATA]++;
	}
	/* BUILD_ID entries are complete HEADER_BUILD_ID records already */
	if (!err && w->build_ids.len) {
		size_t pos = 0;

		while (!err && pos < w->build_ids.len) {
			struct perf_event_header h;
			u16 size;

			memcpy(&h, w->build_ids.p + pos, sizeof(h));
			size = writer__u16(w, h.size);
			err = writer__emit(w, w->build_ids.p + pos, size);
			w->nr_records[PERF_RECORD_HEADER_BUILD_ID]++;
			pos += size;
		}
	}
	wbuf__exit(&b);
	return err;
}

static int writer__start(struct perf_writer *w)
{
	int err;

	if (w->started)
		return w->err;
	w->started = true;
	if (w->pipe) {
		err = writer__auto_features(w);
		if (!err)
			err = writer__start_pipe(w);
	} else {
		err = writer__start_file(w);
	}
	if (err && !w->err)
		w->err = err;
	return w->err;
}

/* ---- records ---- */

/*
 * Every record of the data section comes through here.  Kernel records
 * go into the zstd batch when compressing; user records (FINISHED_ROUND
 * and the like) stay outside, after the batch, as perf record writes
 * them.
 */
static int writer__record(struct perf_writer *w, const void *rec, size_t len, u32 type)
{
	if (w->err)
		return w->err;
	if (writer__start(w))
		return w->err;
	if (type < PERF_RECORD_HEADER_MAX)
		w->nr_records[type]++;
#ifdef HAVE_ZSTD
	if (w->zctx && type < PERF_RECORD_USER_TYPE_START) {
		if (w->zin_len + len > ZIN_SIZE && writer__zstd_flush(w))
			return w->err;
		memcpy(w->zin + w->zin_len, rec, len);
		w->zin_len += len;
		return 0;
	}
	if (w->zctx && writer__zstd_flush(w))
		return w->err;
#endif
	return writer__emit(w, rec, len);
}

static struct writer_attr *writer__get_attr(struct perf_writer *w, int idx)
{
	if (idx < 0 || idx >= w->nr_attrs)
		return NULL;
	return &w->attrs[idx];
}

static void writer__put_id_trailer(struct perf_writer *w, struct wbuf *b,
				   const struct writer_attr *a, const struct perf_sample *id)
{
	static const struct perf_sample none;
	u64 type = a->attr.sample_type;
	u64 ident;

	if (!a->attr.sample_id_all)
		return;
	if (!id)
		id = &none;
	ident = id->id ? id->id : (a->nr_ids ? a->ids[0] : 0);
	if (type & PERF_SAMPLE_TID) {
		wbuf__u32(b, id->pid);
		wbuf__u32(b, id->tid);
	}
	if (type & PERF_SAMPLE_TIME)
		wbuf__u64(b, id->time);
	if (type & PERF_SAMPLE_ID)
		wbuf__u64(b, ident);
	if (type & PERF_SAMPLE_STREAM_ID)
		wbuf__u64(b, id->stream_id);
	if (type & PERF_SAMPLE_CPU) {
		wbuf__u32(b, id->cpu);
		wbuf__u32(b, 0);
	}
	if (type & PERF_SAMPLE_IDENTIFIER)
		wbuf__u64(b, ident);
}

/* start a record for attr @idx in w->rec */
static struct writer_attr *writer__begin(struct perf_writer *w, int idx, u32 type, u16 misc)
{
	struct writer_attr *a = writer__get_attr(w, idx);

	if (!a)
		return NULL;
	wbuf__reset(&w->rec);
	wbuf__header(&w->rec, type, misc);
	return a;
}

static int writer__finish(struct perf_writer *w, const struct writer_attr *a,
			  const struct perf_sample *id, u32 type)
{
	struct wbuf *b = &w->rec;
	u16 size;

	if (a)
		writer__put_id_trailer(w, b, a, id);
	if (b->err)
		return b->err;
	if (b->len % 8)
		return -EINVAL;
	size = writer__u16(w, b->len);
	memcpy(b->p + 6, &size, sizeof(size));
	return writer__record(w, b->p, b->len, type);
}

int perf_writer__synth_comm(struct perf_writer *w, int idx, u32 pid, u32 tid, const char *comm,
			    bool exec, const struct perf_sample *id)
{
	struct writer_attr *a;

	if (!comm)
		return -EINVAL;
	a = writer__begin(w, idx, PERF_RECORD_COMM, exec ? PERF_RECORD_MISC_COMM_EXEC : 0);
	if (!a)
		return -EINVAL;
	wbuf__u32(&w->rec, pid);
	wbuf__u32(&w->rec, tid);
	wbuf__record_string(&w->rec, comm);
	return writer__finish(w, a, id, PERF_RECORD_COMM);
}

int perf_writer__synth_mmap2(struct perf_writer *w, int idx, const struct perf_record_mmap2 *m,
			     const char *filename, const struct perf_sample *id)
{
	struct writer_attr *a;
	struct wbuf *b = &w->rec;

	if (!m || !filename)
		return -EINVAL;
	a = writer__begin(w, idx, PERF_RECORD_MMAP2, m->header.misc);
	if (!a)
		return -EINVAL;
	wbuf__u32(b, m->pid);
	wbuf__u32(b, m->tid);
	wbuf__u64(b, m->start);
	wbuf__u64(b, m->len);
	wbuf__u64(b, m->pgoff);
	if (m->header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID_BIT) {
		if (m->build_id_size > sizeof(m->build_id))
			return -EINVAL;
		wbuf__put(b, &m->build_id_size, 1);
		wbuf__zero(b, 3);
		wbuf__put(b, m->build_id, sizeof(m->build_id));
	} else {
		wbuf__u32(b, m->maj);
		wbuf__u32(b, m->min);
		wbuf__u64(b, m->ino);
		wbuf__u64(b, m->ino_generation);
	}
	wbuf__u32(b, m->prot);
	wbuf__u32(b, m->flags);
	wbuf__record_string(b, filename);
	return writer__finish(w, a, id, PERF_RECORD_MMAP2);
}

static int writer__synth_task(struct perf_writer *w, int idx, u32 type, u32 pid, u32 ppid,
			      u32 tid, u32 ptid, u64 time, const struct perf_sample *id)
{
	struct writer_attr *a = writer__begin(w, idx, type, 0);

	if (!a)
		return -EINVAL;
	wbuf__u32(&w->rec, pid);
	wbuf__u32(&w->rec, ppid);
	wbuf__u32(&w->rec, tid);
	wbuf__u32(&w->rec, ptid);
	wbuf__u64(&w->rec, time);
	return writer__finish(w, a, id, type);
}

int perf_writer__synth_fork(struct perf_writer *w, int idx, u32 pid, u32 ppid, u32 tid, u32 ptid,
			    u64 time, const struct perf_sample *id)
{
	return writer__synth_task(w, idx, PERF_RECORD_FORK, pid, ppid, tid, ptid, time, id);
}

int perf_writer__synth_exit(struct perf_writer *w, int idx, u32 pid, u32 ppid, u32 tid, u32 ptid,
			    u64 time, const struct perf_sample *id)
{
	return writer__synth_task(w, idx, PERF_RECORD_EXIT, pid, ppid, tid, ptid, time, id);
}

int perf_writer__synth_ksymbol(struct perf_writer *w, int idx, u64 addr, u32 len, u16 ksym_type,
			       u16 flags, const char *name, const struct perf_sample *id)
{
	struct writer_attr *a;

	if (!name)
		return -EINVAL;
	/* the kernel marks ksymbols as kernel code */
	a = writer__begin(w, idx, PERF_RECORD_KSYMBOL, PERF_RECORD_MISC_KERNEL);
	if (!a)
		return -EINVAL;
	wbuf__u64(&w->rec, addr);
	wbuf__u32(&w->rec, len);
	wbuf__u16(&w->rec, ksym_type);
	wbuf__u16(&w->rec, flags);
	wbuf__record_string(&w->rec, name);
	return writer__finish(w, a, id, PERF_RECORD_KSYMBOL);
}

int perf_writer__synth_bpf_event(struct perf_writer *w, int idx, u16 type, u16 flags, u32 prog_id,
				 const u8 tag[8], const struct perf_sample *id)
{
	static const u8 no_tag[8];
	struct writer_attr *a = writer__begin(w, idx, PERF_RECORD_BPF_EVENT, 0);

	if (!a)
		return -EINVAL;
	wbuf__u16(&w->rec, type);
	wbuf__u16(&w->rec, flags);
	wbuf__u32(&w->rec, prog_id);
	wbuf__put(&w->rec, tag ? tag : no_tag, 8);
	return writer__finish(w, a, id, PERF_RECORD_BPF_EVENT);
}

int perf_writer__synth_text_poke(struct perf_writer *w, int idx, u64 addr, const u8 *old_bytes,
				 u16 old_len, const u8 *new_bytes, u16 new_len,
				 const struct perf_sample *id)
{
	struct writer_attr *a;

	if ((old_len && !old_bytes) || (new_len && !new_bytes))
		return -EINVAL;
	a = writer__begin(w, idx, PERF_RECORD_TEXT_POKE, PERF_RECORD_MISC_KERNEL);
	if (!a)
		return -EINVAL;
	wbuf__u64(&w->rec, addr);
	wbuf__u16(&w->rec, old_len);
	wbuf__u16(&w->rec, new_len);
	wbuf__put(&w->rec, old_bytes, old_len);
	wbuf__put(&w->rec, new_bytes, new_len);
	/* header 8 + addr 8 + lens 4 + bytes: zero pad to 8, as the kernel does */
	wbuf__pad(&w->rec, 8);
	return writer__finish(w, a, id, PERF_RECORD_TEXT_POKE);
}

int perf_writer__synth_lost(struct perf_writer *w, int idx, u64 lost, const struct perf_sample *id)
{
	struct writer_attr *a = writer__begin(w, idx, PERF_RECORD_LOST, 0);

	if (!a)
		return -EINVAL;
	wbuf__u64(&w->rec, id && id->id ? id->id : perf_writer__attr_id(w, idx));
	wbuf__u64(&w->rec, lost);
	return writer__finish(w, a, id, PERF_RECORD_LOST);
}

int perf_writer__synth_finished_round(struct perf_writer *w)
{
	wbuf__reset(&w->rec);
	wbuf__header(&w->rec, PERF_RECORD_FINISHED_ROUND, 0);
	return writer__finish(w, NULL, NULL, PERF_RECORD_FINISHED_ROUND);
}

static void wbuf__regs(struct wbuf *b, const struct regs_dump *r, u64 mask)
{
	wbuf__u64(b, r->abi);
	if (!r->abi)
		return;
	if (!r->regs) {
		b->err = -EINVAL;
		return;
	}
	wbuf__u64_array(b, r->regs, __builtin_popcountll(mask));
}

static void wbuf__read(struct wbuf *b, const struct perf_event_attr *attr,
		       const struct sample_read *r)
{
	u64 fmt = attr->read_format;
	u64 per_value = 1 + !!(fmt & PERF_FORMAT_ID) + !!(fmt & PERF_FORMAT_LOST);

	if (fmt & PERF_FORMAT_GROUP) {
		wbuf__u64(b, r->nr);
		if (fmt & PERF_FORMAT_TOTAL_TIME_ENABLED)
			wbuf__u64(b, r->time_enabled);
		if (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING)
			wbuf__u64(b, r->time_running);
		if (r->nr && !r->values) {
			b->err = -EINVAL;
			return;
		}
		if (r->nr > RECORD_MAX / 8 / per_value) {
			b->err = -E2BIG;
			return;
		}
		wbuf__u64_array(b, r->values, r->nr * per_value);
		return;
	}
	wbuf__u64(b, r->one_value);
	if (fmt & PERF_FORMAT_TOTAL_TIME_ENABLED)
		wbuf__u64(b, r->time_enabled);
	if (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING)
		wbuf__u64(b, r->time_running);
	if (fmt & PERF_FORMAT_ID)
		wbuf__u64(b, r->one_id);
	if (fmt & PERF_FORMAT_LOST)
		wbuf__u64(b, 0);
}

int perf_writer__synth_sample(struct perf_writer *w, int idx, const struct perf_sample *s)
{
	struct writer_attr *a;
	struct wbuf *b = &w->rec;
	u64 type, ident;
	u16 misc;

	if (!s)
		return -EINVAL;
	misc = s->misc ? s->misc : s->cpumode;
	a = writer__begin(w, idx, PERF_RECORD_SAMPLE, misc);
	if (!a)
		return -EINVAL;
	type = a->attr.sample_type;
	ident = s->id ? s->id : (a->nr_ids ? a->ids[0] : 0);

	if (type & PERF_SAMPLE_IDENTIFIER)
		wbuf__u64(b, ident);
	if (type & PERF_SAMPLE_IP)
		wbuf__u64(b, s->ip);
	if (type & PERF_SAMPLE_TID) {
		wbuf__u32(b, s->pid);
		wbuf__u32(b, s->tid);
	}
	if (type & PERF_SAMPLE_TIME)
		wbuf__u64(b, s->time);
	if (type & PERF_SAMPLE_ADDR)
		wbuf__u64(b, s->addr);
	if (type & PERF_SAMPLE_ID)
		wbuf__u64(b, ident);
	if (type & PERF_SAMPLE_STREAM_ID)
		wbuf__u64(b, s->stream_id);
	if (type & PERF_SAMPLE_CPU) {
		wbuf__u32(b, s->cpu);
		wbuf__u32(b, 0);
	}
	if (type & PERF_SAMPLE_PERIOD)
		wbuf__u64(b, s->period);
	if (type & PERF_SAMPLE_READ)
		wbuf__read(b, &a->attr, &s->read);
	if (type & PERF_SAMPLE_CALLCHAIN) {
		if (s->callchain) {
			wbuf__u64(b, s->callchain->nr);
			wbuf__u64_array(b, s->callchain->ips, s->callchain->nr);
		} else {
			wbuf__u64(b, 0);
		}
	}
	if (type & PERF_SAMPLE_RAW) {
		/* the kernel pads the data so that u32 size + data end on 8 bytes */
		u64 padded = PERF_ALIGN((u64)s->raw_size + 4, 8) - 4;

		if (s->raw_size && !s->raw_data)
			return -EINVAL;
		if (padded > RECORD_MAX)
			return -E2BIG;
		wbuf__u32(b, padded);
		wbuf__put(b, s->raw_data, s->raw_size);
		wbuf__zero(b, padded - s->raw_size);
	}
	if (type & PERF_SAMPLE_BRANCH_STACK) {
		wbuf__u64(b, s->branch_nr);
		if (a->attr.branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
			wbuf__u64(b, s->branch_hw_idx);
		if (s->branch_nr && !s->branch_entries)
			return -EINVAL;
		if (s->branch_nr > RECORD_MAX / sizeof(struct branch_entry))
			return -E2BIG;
		wbuf__u64_array(b, (const u64 *)s->branch_entries, s->branch_nr * 3);
	}
	if (type & PERF_SAMPLE_REGS_USER)
		wbuf__regs(b, &s->user_regs, a->attr.sample_regs_user);
	if (type & PERF_SAMPLE_STACK_USER) {
		if (s->user_stack.size % 8 || (s->user_stack.size && !s->user_stack.data))
			return -EINVAL;
		if (s->user_stack.size > RECORD_MAX)
			return -E2BIG;
		wbuf__u64(b, s->user_stack.size);
		wbuf__put(b, s->user_stack.data, s->user_stack.size);
		if (s->user_stack.size)
			wbuf__u64(b, s->user_stack.dyn_size);
	}
	if (type & PERF_SAMPLE_WEIGHT_STRUCT) {
		wbuf__u32(b, s->weight);
		wbuf__u16(b, s->ins_lat);
		wbuf__u16(b, s->p_stage_cyc);
	} else if (type & PERF_SAMPLE_WEIGHT) {
		wbuf__u64(b, s->weight);
	}
	if (type & PERF_SAMPLE_DATA_SRC)
		wbuf__u64(b, s->data_src);
	if (type & PERF_SAMPLE_TRANSACTION)
		wbuf__u64(b, s->transaction);
	if (type & PERF_SAMPLE_REGS_INTR)
		wbuf__regs(b, &s->intr_regs, a->attr.sample_regs_intr);
	if (type & PERF_SAMPLE_PHYS_ADDR)
		wbuf__u64(b, s->phys_addr);
	if (type & PERF_SAMPLE_CGROUP)
		wbuf__u64(b, s->cgroup);
	if (type & PERF_SAMPLE_DATA_PAGE_SIZE)
		wbuf__u64(b, s->data_page_size);
	if (type & PERF_SAMPLE_CODE_PAGE_SIZE)
		wbuf__u64(b, s->code_page_size);
	if (type & PERF_SAMPLE_AUX) {
		if (s->aux_size && !s->aux_data)
			return -EINVAL;
		if (s->aux_size > RECORD_MAX)
			return -E2BIG;
		wbuf__u64(b, s->aux_size);
		wbuf__put(b, s->aux_data, s->aux_size);
		wbuf__pad(b, 8);
	}
	return writer__finish(w, NULL, NULL, PERF_RECORD_SAMPLE);
}

int perf_writer__write_event(struct perf_writer *w, const union perf_event *ev)
{
	u32 type;
	u16 size;

	if (!ev)
		return -EINVAL;
	type = writer__u32(w, ev->header.type);
	size = writer__u16(w, ev->header.size);
	if (size < sizeof(struct perf_event_header) || size % 8)
		return -EINVAL;
	switch (type) {
	case PERF_RECORD_HEADER_ATTR:
	case PERF_RECORD_HEADER_EVENT_TYPE:
	case PERF_RECORD_HEADER_TRACING_DATA:
	case PERF_RECORD_HEADER_BUILD_ID:
	case PERF_RECORD_AUXTRACE: /* payload outside header.size */
	case PERF_RECORD_HEADER_FEATURE:
	case PERF_RECORD_COMPRESSED:
	case PERF_RECORD_COMPRESSED2:
		return -EINVAL;
	default:
		if (type >= PERF_RECORD_HEADER_MAX)
			return -EINVAL;
	}
	return writer__record(w, ev, size, type);
}

/* ---- attrs ---- */

int perf_writer__add_attr(struct perf_writer *w, const struct perf_event_attr *attr,
			  const u64 *ids, u32 nr_ids, const char *name)
{
	struct writer_attr *a, *tmp;

	if (!attr || (nr_ids && !ids) || nr_ids > MAX_IDS)
		return -EINVAL;
	if (w->started)
		return -EBUSY;
	/* HEADER_ATTR record: header, attr, ids must fit a record */
	if (w->pipe && nr_ids > (RECORD_MAX - 8 - ATTR_FILE_SIZE) / 8)
		return -E2BIG;
	if (w->nr_attrs && w->attrs[0].attr.sample_id_all != attr->sample_id_all)
		return -EINVAL;
	if (name && strnlen(name, STRING_MAX) >= STRING_MAX)
		return -E2BIG;
	tmp = realloc(w->attrs, (w->nr_attrs + 1) * sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	w->attrs = tmp;
	a = &w->attrs[w->nr_attrs];
	memset(a, 0, sizeof(*a));
	a->attr = *attr;
	a->attr.size = ATTR_FILE_SIZE;
	a->attr.sample_type |= PERF_SAMPLE_IDENTIFIER;
	a->nr_ids = nr_ids ? nr_ids : 1;
	a->ids = calloc(a->nr_ids, sizeof(u64));
	if (!a->ids)
		return -ENOMEM;
	if (nr_ids)
		memcpy(a->ids, ids, nr_ids * sizeof(u64));
	else
		a->ids[0] = w->next_id++;
	if (name) {
		a->name = strdup(name);
		if (!a->name) {
			zfree(&a->ids);
			return -ENOMEM;
		}
	}
	return w->nr_attrs++;
}

const struct perf_event_attr *perf_writer__attr(const struct perf_writer *w, int idx)
{
	if (idx < 0 || idx >= w->nr_attrs)
		return NULL;
	return &w->attrs[idx].attr;
}

u64 perf_writer__attr_id(const struct perf_writer *w, int idx)
{
	if (idx < 0 || idx >= w->nr_attrs || !w->attrs[idx].nr_ids)
		return 0;
	return w->attrs[idx].ids[0];
}

u64 perf_writer__nr_records(const struct perf_writer *w, u32 type)
{
	return type < PERF_RECORD_HEADER_MAX ? w->nr_records[type] : 0;
}

/* ---- features ---- */

/* pipe mode sends features at the first record, file mode at close */
static struct wbuf *writer__feat_begin(struct perf_writer *w, int feat)
{
	struct writer_feat *f;

	if (feat < HEADER_FIRST_FEATURE || feat >= HEADER_LAST_FEATURE)
		return NULL;
	if (w->pipe && w->started)
		return NULL;
	f = &w->feat[feat];
	wbuf__reset(&f->buf);
	f->set = false;
	return &f->buf;
}

static int writer__feat_end(struct perf_writer *w, int feat)
{
	struct writer_feat *f = &w->feat[feat];

	if (f->buf.err)
		return f->buf.err;
	/* pipe mode: a HEADER_FEATURE record of 16 bytes + payload */
	if (w->pipe && feat != HEADER_TRACING_DATA && f->buf.len > RECORD_MAX - 16)
		return -E2BIG;
	f->set = true;
	return 0;
}

static int writer__feat_error(struct perf_writer *w, int feat)
{
	if (feat < HEADER_FIRST_FEATURE || feat >= HEADER_LAST_FEATURE)
		return -EINVAL;
	return -EBUSY;
}

static int writer__set_string(struct perf_writer *w, int feat, const char *s)
{
	struct wbuf *b;

	if (!s)
		return -EINVAL;
	b = writer__feat_begin(w, feat);
	if (!b)
		return writer__feat_error(w, feat);
	wbuf__string(b, s);
	return writer__feat_end(w, feat);
}

int perf_writer__set_hostname(struct perf_writer *w, const char *s)
{
	return writer__set_string(w, HEADER_HOSTNAME, s);
}

int perf_writer__set_osrelease(struct perf_writer *w, const char *s)
{
	return writer__set_string(w, HEADER_OSRELEASE, s);
}

int perf_writer__set_version(struct perf_writer *w, const char *s)
{
	return writer__set_string(w, HEADER_VERSION, s);
}

int perf_writer__set_arch(struct perf_writer *w, const char *s)
{
	return writer__set_string(w, HEADER_ARCH, s);
}

int perf_writer__set_cpudesc(struct perf_writer *w, const char *s)
{
	return writer__set_string(w, HEADER_CPUDESC, s);
}

int perf_writer__set_cpuid(struct perf_writer *w, const char *s)
{
	return writer__set_string(w, HEADER_CPUID, s);
}

int perf_writer__set_nrcpus(struct perf_writer *w, u32 nr_avail, u32 nr_online)
{
	struct wbuf *b = writer__feat_begin(w, HEADER_NRCPUS);

	if (!b)
		return -EBUSY;
	wbuf__u32(b, nr_avail);
	wbuf__u32(b, nr_online);
	return writer__feat_end(w, HEADER_NRCPUS);
}

static int writer__set_u64s(struct perf_writer *w, int feat, const u64 *v, int n)
{
	struct wbuf *b = writer__feat_begin(w, feat);

	if (!b)
		return writer__feat_error(w, feat);
	wbuf__u64_array(b, v, n);
	return writer__feat_end(w, feat);
}

int perf_writer__set_total_mem(struct perf_writer *w, u64 kb)
{
	return writer__set_u64s(w, HEADER_TOTAL_MEM, &kb, 1);
}

int perf_writer__set_sample_time(struct perf_writer *w, u64 first, u64 last)
{
	u64 v[2] = { first, last };

	return writer__set_u64s(w, HEADER_SAMPLE_TIME, v, 2);
}

int perf_writer__set_clockid(struct perf_writer *w, u64 res_ns)
{
	return writer__set_u64s(w, HEADER_CLOCKID, &res_ns, 1);
}

int perf_writer__set_dir_format(struct perf_writer *w, u64 version)
{
	return writer__set_u64s(w, HEADER_DIR_FORMAT, &version, 1);
}

int perf_writer__set_cmdline(struct perf_writer *w, int argc, const char *const *argv)
{
	struct wbuf *b;
	int i;

	if (argc < 0 || argc > 1 << 20 || (argc && !argv))
		return -EINVAL;
	for (i = 0; i < argc; i++)
		if (!argv[i])
			return -EINVAL;
	b = writer__feat_begin(w, HEADER_CMDLINE);
	if (!b)
		return -EBUSY;
	wbuf__u32(b, argc);
	for (i = 0; i < argc; i++)
		wbuf__string(b, argv[i]);
	return writer__feat_end(w, HEADER_CMDLINE);
}

int perf_writer__add_build_id(struct perf_writer *w, u16 misc, s32 pid, const u8 *build_id,
			      u8 size, const char *filename)
{
	struct wbuf *b = &w->build_ids;
	size_t start = b->len, n;
	u16 rec_size;

	if (!build_id || !filename || size > 20)
		return -EINVAL;
	if (w->pipe && w->started)
		return -EBUSY;
	n = strnlen(filename, PATH_MAX + 1);
	if (n > PATH_MAX)
		return -E2BIG;
	/*
	 * struct perf_record_header_build_id: 36 bytes, then the name padded
	 * to 64; the same bytes are a HEADER_BUILD_ID record in pipe mode.
	 */
	rec_size = 36 + PERF_ALIGN(n + 1, NAME_ALIGN);
	wbuf__u32(b, PERF_RECORD_HEADER_BUILD_ID);
	wbuf__u16(b, misc | PERF_RECORD_MISC_BUILD_ID_SIZE_);
	wbuf__u16(b, rec_size);
	wbuf__u32(b, pid);
	wbuf__put(b, build_id, size);
	wbuf__zero(b, 20 - size);
	wbuf__put(b, &size, 1);
	wbuf__zero(b, 3);
	wbuf__put(b, filename, n);
	wbuf__zero(b, rec_size - 36 - n);
	if (b->err) {
		int err = b->err;

		b->len = start;
		b->err = 0;
		return err;
	}
	return 0;
}

int perf_writer__set_feature(struct perf_writer *w, int feat, const void *buf, size_t size)
{
	struct wbuf *b;

	if (!buf && size)
		return -EINVAL;
	if (size > FEATURE_MAX)
		return -E2BIG;
	b = writer__feat_begin(w, feat);
	if (!b)
		return writer__feat_error(w, feat);
	wbuf__put(b, buf, size);
	return writer__feat_end(w, feat);
}

int perf_writer__set_bpf_prog_info(struct perf_writer *w, const void *buf, size_t size)
{
	return perf_writer__set_feature(w, HEADER_BPF_PROG_INFO, buf, size);
}

int perf_writer__set_tracing_data(struct perf_writer *w, const void *buf, size_t size)
{
	return perf_writer__set_feature(w, HEADER_TRACING_DATA, buf, size);
}

void perf_writer__set_event_desc(struct perf_writer *w, bool on)
{
	w->event_desc = on;
}

int perf_writer__set_zstd_level(struct perf_writer *w, int level)
{
#ifdef HAVE_ZSTD
	if (level < 1 || level > ZSTD_maxCLevel())
		return -EINVAL;
	if (w->started)
		return -EBUSY;
	w->zlevel = level;
	if (w->zctx && ZSTD_isError(ZSTD_CCtx_setParameter(w->zctx, ZSTD_c_compressionLevel,
							   level)))
		return -EINVAL;
	return 0;
#else
	return -EOPNOTSUPP;
#endif
}

/* ---- create, close, abort ---- */

static int rm_rf_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path) ? -1 : 0;
}

static int rm_rf(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISDIR(st.st_mode))
		return unlink(path) ? -errno : 0;
	return nftw(path, rm_rf_one, 16, FTW_DEPTH | FTW_PHYS) ? -errno : 0;
}

static struct perf_writer *writer__alloc(unsigned int flags)
{
	struct perf_writer *w = calloc(1, sizeof(*w));
	int i;

	if (!w)
		return NULL;
	w->flags = flags;
	w->swap = flags & PERF_WRITER_SWAPPED;
	w->pipe = flags & PERF_WRITER_PIPE;
	w->fd = -1;
	w->event_desc = true;
	w->next_id = FIRST_AUTO_ID;
	w->zlevel = 1;
	for (i = 0; i < HEADER_LAST_FEATURE; i++)
		wbuf__init(&w->feat[i].buf, w->swap, FEATURE_MAX);
	wbuf__init(&w->build_ids, w->swap, FEATURE_MAX);
	wbuf__init(&w->rec, w->swap, RECORD_MAX);
	w->obuf = malloc(OUT_BUF_SIZE);
	if (!w->obuf)
		goto out_free;
	if ((flags & PERF_WRITER_ZSTD) && writer__zstd_init(w)) {
		writer__zstd_exit(w);
		free(w->obuf);
		free(w);
		errno = EOPNOTSUPP;
		return NULL;
	}
	return w;

out_free:
	free(w);
	errno = ENOMEM;
	return NULL;
}

static void writer__free(struct perf_writer *w)
{
	int i;

	if (w->own_fd && w->fd >= 0)
		close(w->fd);
	for (i = 0; i < w->nr_attrs; i++) {
		free(w->attrs[i].ids);
		free(w->attrs[i].name);
	}
	free(w->attrs);
	for (i = 0; i < HEADER_LAST_FEATURE; i++)
		wbuf__exit(&w->feat[i].buf);
	wbuf__exit(&w->build_ids);
	wbuf__exit(&w->rec);
	writer__zstd_exit(w);
	free(w->obuf);
	free(w->path);
	free(w->tmp_path);
	free(w->data_path);
	free(w);
}

/* "<dir>/.<base>.XXXXXX" next to @path, so that rename() stays in one fs */
static char *writer__tmp_template(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	int dir_len = slash ? (int)(slash - path + 1) : 0;
	char *tmpl;

	if (asprintf(&tmpl, "%.*s.%s.XXXXXX", dir_len, path, base) < 0)
		return NULL;
	return tmpl;
}

struct perf_writer *perf_writer__new(const char *path, unsigned int flags)
{
	struct perf_writer *w;
	size_t len;
	int err = -ENOMEM;

	if (!path || !*path || ((flags & PERF_WRITER_PIPE) && (flags & PERF_WRITER_DIRECTORY))) {
		errno = EINVAL;
		return NULL;
	}
	if ((flags & PERF_WRITER_PIPE) && !strcmp(path, "-"))
		return perf_writer__new_fd(STDOUT_FILENO, flags);
	len = strlen(path);
	while (len > 1 && path[len - 1] == '/')
		len--;
	w = writer__alloc(flags);
	if (!w)
		return NULL;
	w->path = strndup(path, len);
	if (!w->path)
		goto out_free;
	w->tmp_path = writer__tmp_template(w->path);
	if (!w->tmp_path)
		goto out_free;
	if (flags & PERF_WRITER_DIRECTORY) {
		if (!mkdtemp(w->tmp_path)) {
			err = -errno;
			goto out_free;
		}
		if (asprintf(&w->data_path, "%s/data", w->tmp_path) < 0) {
			w->data_path = NULL;
			goto out_rmdir;
		}
		w->fd = open(w->data_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (w->fd < 0) {
			err = -errno;
			goto out_rmdir;
		}
	} else {
		w->fd = mkostemp(w->tmp_path, O_CLOEXEC);
		if (w->fd < 0) {
			err = -errno;
			goto out_free;
		}
		w->data_path = strdup(w->tmp_path);
		if (!w->data_path)
			goto out_rmdir;
	}
	w->own_fd = true;
	return w;

out_rmdir:
	rm_rf(w->tmp_path);
out_free:
	writer__free(w);
	errno = -err;
	return NULL;
}

struct perf_writer *perf_writer__new_fd(int fd, unsigned int flags)
{
	struct perf_writer *w;

	if (fd < 0 || !(flags & PERF_WRITER_PIPE) || (flags & PERF_WRITER_DIRECTORY)) {
		errno = EINVAL;
		return NULL;
	}
	w = writer__alloc(flags);
	if (!w) {
		errno = ENOMEM;
		return NULL;
	}
	w->fd = fd;
	return w;
}

const char *perf_writer__dir_path(const struct perf_writer *w)
{
	return (w->flags & PERF_WRITER_DIRECTORY) ? w->tmp_path : NULL;
}

static int writer__finish_file(struct perf_writer *w)
{
	struct wbuf b;
	u64 data_size, table, payload;
	int i, nr = 0, err;

	data_size = writer__pos(w) - w->data_offset;
	err = writer__auto_features(w);
	if (err)
		return err;
	for (i = HEADER_FIRST_FEATURE; i < HEADER_LAST_FEATURE; i++)
		nr += w->feat[i].set;
	table = writer__pos(w);
	payload = table + (u64)nr * sizeof(struct perf_file_section);

	wbuf__init(&b, w->swap, FEATURE_MAX);
	for (i = HEADER_FIRST_FEATURE; i < HEADER_LAST_FEATURE; i++) {
		if (!w->feat[i].set)
			continue;
		wbuf__u64(&b, payload);
		wbuf__u64(&b, w->feat[i].buf.len);
		payload += w->feat[i].buf.len;
	}
	err = b.err ? b.err : writer__emit(w, b.p, b.len);
	for (i = HEADER_FIRST_FEATURE; !err && i < HEADER_LAST_FEATURE; i++)
		if (w->feat[i].set)
			err = writer__emit(w, w->feat[i].buf.p, w->feat[i].buf.len);
	if (!err)
		err = writer__flush(w);
	if (!err) {
		wbuf__reset(&b);
		writer__file_header(w, &b, data_size);
		err = b.err;
	}
	if (!err && pwrite(w->fd, b.p, b.len, 0) != (ssize_t)b.len)
		err = errno ? -errno : -EIO;
	wbuf__exit(&b);
	return err;
}

/* keep an existing destination as <path>.old, as perf record does */
static int writer__keep_old(struct perf_writer *w)
{
	struct stat st;
	char *old;
	int err = 0;

	if (lstat(w->path, &st))
		return errno == ENOENT ? 0 : -errno;
	if (asprintf(&old, "%s.old", w->path) < 0)
		return -ENOMEM;
	err = rm_rf(old);
	if (!err && rename(w->path, old))
		err = -errno;
	free(old);
	return err;
}

int perf_writer__close(struct perf_writer *w)
{
	int err;

	if (!w)
		return -EINVAL;
	err = writer__start(w);
	if (!err)
		err = writer__zstd_flush(w);
	if (!err) {
		if (w->pipe)
			err = writer__flush(w);
		else
			err = writer__finish_file(w);
	}
	if (!err && w->own_fd && fsync(w->fd))
		err = -errno;
	if (w->own_fd) {
		if (close(w->fd) && !err)
			err = -errno;
		w->fd = -1;
	}
	if (!err && w->path) {
		err = writer__keep_old(w);
		if (!err && rename(w->tmp_path, w->path))
			err = -errno;
	}
	if (err && w->tmp_path)
		rm_rf(w->tmp_path);
	writer__free(w);
	return err;
}

void perf_writer__abort(struct perf_writer *w)
{
	if (!w)
		return;
	if (w->own_fd) {
		close(w->fd);
		w->fd = -1;
	}
	if (w->tmp_path)
		rm_rf(w->tmp_path);
	writer__free(w);
}
