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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "interrupt.h"
#include "writer-internal.h"
#include "write-all.h"

/* ---- output ---- */

/* @len bytes at the end of the output, past what the buffer holds */
static int writer__write_out(struct perf_writer *w, const u8 *p, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = write(w->fd, p + done, len - done);

		if (n < 0 && errno == EINTR && !interrupt__pending())
			continue;
		if (n <= 0) {
			w->err = n < 0 ? -errno : -EIO;
			return w->err;
		}
		done += n;
	}
	w->off += len;
	return 0;
}

static int writer__flush(struct perf_writer *w)
{
	if (writer__write_out(w, w->obuf, w->olen))
		return w->err;
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

/* ---- zstd ---- */

/* records go through the compressor (perf record -z) */
static bool writer__compressing(const struct perf_writer *w)
{
#ifdef HAVE_ZSTD
	return w->zctx != NULL;
#else
	return false;
#endif
}

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
	ZSTD_inBuffer in = {w->zin, w->zin_len, 0};
	size_t left;

	if (!w->zin_len || w->err)
		return w->err;
	do {
		ZSTD_outBuffer out = {w->zout, w->zout_size, 0};

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
		wbuf__u32(&f->buf, 1); /* version */
		wbuf__u32(&f->buf, 1); /* zstd */
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
	u64 features[HEADER_FEAT_BITS / 64] = {0};
	int i;

	for (i = HEADER_FIRST_FEATURE; i < WRITER_NR_FEATS; i++)
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

static int writer__emit_bpf_piece(struct perf_writer *w, const u8 *p, size_t len)
{
	struct wbuf b;
	int err;

	wbuf__init(&b, w->swap, RECORD_MAX);
	wbuf__header(&b, PERF_RECORD_HEADER_FEATURE, 0);
	wbuf__u64(&b, HEADER_BPF_PROG_INFO);
	wbuf__put(&b, p, len);
	wbuf__pad(&b, 8);
	err = writer__emit_wbuf_record(w, &b);
	w->nr_records[PERF_RECORD_HEADER_FEATURE]++;
	wbuf__exit(&b);
	return err;
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
		if (i == HEADER_BPF_PROG_INFO && f->buf.len > RECORD_MAX - 16) {
			f->sent = true;
			err = writer__bpf_prog_info_split(w, &f->buf, writer__emit_bpf_piece);
			continue;
		}
		wbuf__reset(&b);
		wbuf__header(&b, PERF_RECORD_HEADER_FEATURE, 0);
		wbuf__u64(&b, i);
		if (i < HEADER_LAST_FEATURE) {
			wbuf__put(&b, f->buf.p, f->buf.len);
			wbuf__pad(&b, 8);
			f->sent = true;
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
		w->build_ids_sent = pos;
	}
	wbuf__exit(&b);
	return err;
}

/* pipe mode: the BUILD_ID entries not sent yet, complete HEADER_BUILD_ID records already */
static int writer__pipe_build_ids(struct perf_writer *w)
{
	int err = 0;

	while (!err && w->build_ids_sent < w->build_ids.len) {
		struct perf_event_header h;
		u16 size;

		memcpy(&h, w->build_ids.p + w->build_ids_sent, sizeof(h));
		size = writer__u16(w, h.size);
		err = writer__emit(w, w->build_ids.p + w->build_ids_sent, size);
		w->nr_records[PERF_RECORD_HEADER_BUILD_ID]++;
		w->build_ids_sent += size;
	}
	return err;
}

/* pipe mode: what was set after the first record, as records after the last */
static int writer__pipe_late_features(struct perf_writer *w)
{
	struct wbuf b;
	int err = 0;

	wbuf__init(&b, w->swap, RECORD_MAX);
	for (int i = HEADER_FIRST_FEATURE; !err && i < HEADER_LAST_FEATURE; i++) {
		struct writer_feat *f = &w->feat[i];

		if (!f->set || f->sent || i == HEADER_TRACING_DATA || i == HEADER_BUILD_ID)
			continue;
		f->sent = true;
		if (i == HEADER_BPF_PROG_INFO && f->buf.len > RECORD_MAX - 16) {
			err = writer__bpf_prog_info_split(w, &f->buf, writer__emit_bpf_piece);
			continue;
		}
		wbuf__reset(&b);
		wbuf__header(&b, PERF_RECORD_HEADER_FEATURE, 0);
		wbuf__u64(&b, i);
		wbuf__put(&b, f->buf.p, f->buf.len);
		wbuf__pad(&b, 8);
		err = writer__emit_wbuf_record(w, &b);
		f->sent = true;
		w->nr_records[PERF_RECORD_HEADER_FEATURE]++;
	}
	wbuf__exit(&b);
	return err ?: writer__pipe_build_ids(w);
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
/* 0 when a record may be written now: no error, no AUX payload owed, started */
static int writer__ready(struct perf_writer *w)
{
	if (w->err)
		return w->err;
	if (w->aux_owed)
		return -EBUSY;
	return writer__start(w);
}

int writer__record(struct perf_writer *w, const void *rec, size_t len, u32 type)
{
	int err = writer__ready(w);

	if (err)
		return err;
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

int writer__records(struct perf_writer *w, const u8 *p, size_t len, const u32 *counts)
{
	struct perf_event_header h;
	int err = writer__ready(w);

	if (err)
		return err;
	/* into the zstd batch, or a few: through the buffer, one by one */
	if (writer__compressing(w) || len < OUT_BUF_SIZE / 4) {
		for (size_t off = 0; off < len && !w->err; off += writer__u16(w, h.size)) {
			memcpy(&h, p + off, sizeof(h));
			writer__record(w, p + off, writer__u16(w, h.size), writer__u32(w, h.type));
		}
		return w->err;
	}
	for (u32 type = 0; type < PERF_RECORD_HEADER_MAX; type++)
		w->nr_records[type] += counts[type];
	/* many: written where they lie, as perf record writes its rings */
	if (writer__flush(w))
		return w->err;
	return writer__write_out(w, p, len);
}

int perf_writer__flush_build_ids(struct perf_writer *w)
{
	if (w->err)
		return w->err;
	/* a file keeps them for its feature; a stream not started sends them at its start */
	if (!w->pipe || !w->started)
		return 0;
	if (w->aux_owed)
		return -EBUSY;
#ifdef HAVE_ZSTD
	if (w->zctx && writer__zstd_flush(w))
		return w->err;
#endif
	return writer__pipe_build_ids(w);
}

/*
 * AUX area trace rides after its AUXTRACE record, outside header.size and
 * outside any compression, as perf record writes it.
 */
int perf_writer__write_auxtrace(struct perf_writer *w, const union perf_event *ev)
{
	int err;

	if (!ev || w->swap || ev->header.type != PERF_RECORD_AUXTRACE ||
	    ev->header.size < sizeof(struct perf_record_auxtrace) || ev->header.size % 8)
		return -EINVAL;
	if (writer__start(w))
		return w->err;
	/*
	 * perf finds AUX traces by the index in HEADER_AUXTRACE: the file
	 * offset and header.size of each record (perf refuses an entry whose
	 * size is not the record's), as perf record keeps it
	 */
	if (!w->pipe && !writer__compressing(w) && !(w->flags & PERF_WRITER_NO_AUXTRACE_INDEX)) {
		wbuf__u64(&w->aux_index, w->off + w->olen);
		wbuf__u64(&w->aux_index, ev->header.size);
		if (w->aux_index.err)
			return w->aux_index.err;
		w->nr_aux++;
	}
	err = writer__record(w, ev, ev->header.size, PERF_RECORD_AUXTRACE);
	if (!err)
		w->aux_owed = ev->auxtrace.size;
	return err;
}

/* HEADER_AUXTRACE: the number of entries, then each entry's offset and size */
static int writer__aux_index(struct perf_writer *w)
{
	struct wbuf b;
	int err;

	if (!w->nr_aux)
		return 0;
	wbuf__init(&b, w->swap, FEATURE_MAX);
	wbuf__u64(&b, w->nr_aux);
	wbuf__put(&b, w->aux_index.p, w->aux_index.len);
	err = b.err ?: perf_writer__set_feature(w, HEADER_AUXTRACE, b.p, b.len);
	wbuf__exit(&b);
	return err;
}

int perf_writer__write_auxtrace_data(struct perf_writer *w, const void *buf, size_t len)
{
	if (w->err)
		return w->err;
	if (len > w->aux_owed)
		return -EINVAL;
	w->aux_owed -= len;
	return writer__emit(w, buf, len);
}

/* ---- attrs ---- */

int perf_writer__add_attr(struct perf_writer *w, const struct perf_event_attr *attr, const u64 *ids,
			  u32 nr_ids, const char *name)
{
	struct writer_attr *a, *tmp;

	if (!attr || (nr_ids && !ids) || nr_ids > MAX_IDS)
		return -EINVAL;
	if (w->started)
		return -EBUSY;
	/* HEADER_ATTR record: header, attr, ids must fit a record */
	if (w->pipe && nr_ids > (RECORD_MAX - 8 - ATTR_FILE_SIZE) / 8)
		return -E2BIG;
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
	if (!(w->flags & PERF_WRITER_KEEP_ATTRS)) {
		a->attr.sample_type |= PERF_SAMPLE_IDENTIFIER;
		/* without it perf warns and falls back to unordered processing */
		a->attr.sample_id_all = 1;
	}
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

int perf_writer__write_unchecked(struct perf_writer *w, const void *bytes, size_t len)
{
	int err;

	if (w->pipe || w->swap || writer__compressing(w))
		return -EOPNOTSUPP;
	err = writer__ready(w);
	if (err)
		return err;
	/* a few: through the buffer, not a write of their own */
	if (len < OUT_BUF_SIZE / 4)
		return writer__emit(w, bytes, len);
	if (writer__flush(w))
		return w->err;
	return writer__write_out(w, bytes, len);
}

void perf_writer__count(struct perf_writer *w, u32 type)
{
	if (type < PERF_RECORD_HEADER_MAX)
		w->nr_records[type]++;
}

int perf_writer__read_back_mark(struct perf_writer *w, u64 *pos)
{
	struct stat st;
	int mode;

	if (w->err)
		return w->err;
	if (w->pipe || w->swap || writer__compressing(w) || fstat(w->fd, &st) ||
	    !S_ISREG(st.st_mode))
		return -EOPNOTSUPP;
	mode = fcntl(w->fd, F_GETFL);
	if (mode < 0 || (mode & O_ACCMODE) != O_RDWR)
		return -EOPNOTSUPP;
	*pos = writer__pos(w);
	return 0;
}

/* more than RECORD_MAX: a record always fits whole after what is left of the last */
#define READ_BACK_CHUNK (1U << 20)

int perf_writer__read_back(struct perf_writer *w, u64 from,
			   int (*fn)(void *arg, const union perf_event *ev), void *arg)
{
	size_t have = 0, skip = 0;
	u64 to;
	u8 *buf;
	int err = 0;

	if (w->err || writer__flush(w))
		return w->err;
	to = w->off;
	buf = malloc(READ_BACK_CHUNK);
	if (!buf)
		return -ENOMEM;
	while (!err && (from < to || have)) {
		size_t off = 0, want = READ_BACK_CHUNK - have;
		ssize_t n;

		if (want > to - from)
			want = to - from;
		n = want ? pread(w->fd, buf + have, want, from) : 0;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || (want && !n)) {
			err = n < 0 ? -errno : -EIO;
			break;
		}
		have += n;
		from += n;
		/* an AUXTRACE record's trace follows it, outside its size */
		off = skip < have ? skip : have;
		skip -= off;
		while (have - off >= sizeof(struct perf_event_header)) {
			const union perf_event *ev = (const void *)(buf + off);

			if (ev->header.size < sizeof(ev->header)) {
				err = -EINVAL;
				break;
			}
			if (ev->header.size > have - off)
				break;
			err = fn(arg, ev);
			if (err)
				break;
			if (ev->header.type == PERF_RECORD_AUXTRACE &&
			    ev->header.size >= sizeof(struct perf_record_auxtrace))
				skip = ev->auxtrace.size;
			off += ev->header.size;
			if (skip) {
				size_t s = skip < have - off ? skip : have - off;

				off += s;
				skip -= s;
			}
		}
		if (err)
			break;
		/* what is left is the start of a record, unless the file ends in it */
		if (!off && from >= to) {
			err = have ? -EINVAL : 0;
			break;
		}
		memmove(buf, buf + off, have - off);
		have -= off;
	}
	free(buf);
	return err;
}

u64 perf_writer__nr_records(const struct perf_writer *w, u32 type)
{
	return type < PERF_RECORD_HEADER_MAX ? w->nr_records[type] : 0;
}

/*
 * The batch still pending is compressed first, so that after the last
 * record the counts are what close leaves in the file (close has nothing
 * more to compress then).
 */
int perf_writer__zstd_bytes(struct perf_writer *w, u64 *in, u64 *out)
{
	int err;

	*in = 0;
	*out = 0;
	err = writer__start(w);
	if (!err)
		err = writer__zstd_flush(w);
	if (err)
		return err;
#ifdef HAVE_ZSTD
	*in = w->zbytes_in;
	*out = w->zbytes_out;
#endif
	return 0;
}

int perf_writer__set_zstd_level(struct perf_writer *w, int level)
{
#ifdef HAVE_ZSTD
	if (level < 1 || level > ZSTD_maxCLevel())
		return -EINVAL;
	if (w->started)
		return -EBUSY;
	w->zlevel = level;
	if (w->zctx &&
	    ZSTD_isError(ZSTD_CCtx_setParameter(w->zctx, ZSTD_c_compressionLevel, level)))
		return -EINVAL;
	return 0;
#else
	return -EOPNOTSUPP;
#endif
}

/* ---- create, close, abort ---- */

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
	for (i = 0; i < WRITER_NR_FEATS; i++)
		wbuf__init(&w->feat[i].buf, w->swap, FEATURE_MAX);
	wbuf__init(&w->build_ids, w->swap, FEATURE_MAX);
	wbuf__init(&w->rec, w->swap, RECORD_MAX);
	wbuf__init(&w->aux_index, w->swap, FEATURE_MAX);
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
	for (i = 0; i < WRITER_NR_FEATS; i++)
		wbuf__exit(&w->feat[i].buf);
	wbuf__exit(&w->build_ids);
	wbuf__exit(&w->rec);
	wbuf__exit(&w->aux_index);
	writer__zstd_exit(w);
	free(w->obuf);
	free(w->path);
	free(w->tmp_path);
	free(w->data_path);
	free(w);
}

struct perf_writer *perf_writer__new(const char *path, unsigned int flags)
{
	struct perf_writer *w;
	int err;

	if (!path || !*path || ((flags & PERF_WRITER_PIPE) && (flags & PERF_WRITER_DIRECTORY))) {
		errno = EINVAL;
		return NULL;
	}
	if ((flags & PERF_WRITER_PIPE) && !strcmp(path, "-"))
		return perf_writer__new_fd(STDOUT_FILENO, flags);
	w = writer__alloc(flags);
	if (!w)
		return NULL;
	err = writer_output__open(w, path, flags);
	if (err) {
		writer_output__discard(w);
		writer__free(w);
		errno = -err;
		return NULL;
	}
	return w;
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

const char *perf_writer__final_path(const struct perf_writer *w)
{
	return w->path;
}

static int writer__finish_file(struct perf_writer *w)
{
	struct wbuf b;
	u64 data_size, table, payload;
	int i, nr = 0, err;

	/*
	 * perf takes data.size 0 for a writer that died ("was the 'perf
	 * record' command properly terminated?"): an empty recording gets
	 * one FINISHED_ROUND, which delivers nothing.
	 */
	if (writer__pos(w) == w->data_offset) {
		struct perf_event_header round = {
		    .type = writer__u32(w, PERF_RECORD_FINISHED_ROUND),
		    .size = writer__u16(w, sizeof(round)),
		};

		err = writer__record(w, &round, sizeof(round), PERF_RECORD_FINISHED_ROUND);
		if (err)
			return err;
	}
	data_size = writer__pos(w) - w->data_offset;
	err = writer__auto_features(w);
	if (err)
		return err;
	for (i = HEADER_FIRST_FEATURE; i < WRITER_NR_FEATS; i++)
		nr += w->feat[i].set;
	table = writer__pos(w);
	payload = table + (u64)nr * sizeof(struct perf_file_section);

	wbuf__init(&b, w->swap, FEATURE_MAX);
	for (i = HEADER_FIRST_FEATURE; i < WRITER_NR_FEATS; i++) {
		if (!w->feat[i].set)
			continue;
		wbuf__u64(&b, payload);
		wbuf__u64(&b, w->feat[i].buf.len);
		payload += w->feat[i].buf.len;
	}
	err = b.err ? b.err : writer__emit(w, b.p, b.len);
	for (i = HEADER_FIRST_FEATURE; !err && i < WRITER_NR_FEATS; i++)
		if (w->feat[i].set)
			err = writer__emit(w, w->feat[i].buf.p, w->feat[i].buf.len);
	if (!err)
		err = writer__flush(w);
	if (!err) {
		wbuf__reset(&b);
		writer__file_header(w, &b, data_size);
		err = b.err;
	}
	if (!err)
		err = pwrite_all(w->fd, b.p, b.len, 0);
	wbuf__exit(&b);
	return err;
}

int perf_writer__close(struct perf_writer *w)
{
	int err;

	if (!w)
		return -EINVAL;
	err = writer__start(w);
	if (!err && w->aux_owed)
		err = -EIO; /* an AUXTRACE record without all of its trace */
	if (!err && !w->pipe)
		err = writer__aux_index(w);
	if (!err)
		err = writer__zstd_flush(w);
	if (!err && w->pipe)
		err = writer__pipe_late_features(w);
	if (!err) {
		if (w->pipe)
			err = writer__flush(w);
		else
			err = writer__finish_file(w);
	}
	/* a device or FIFO written through has nothing to sync (EINVAL) */
	if (!err && w->own_fd && fsync(w->fd) && !(w->through && errno == EINVAL))
		err = -errno;
	if (w->own_fd) {
		if (close(w->fd) && !err)
			err = -errno;
		w->fd = -1;
	}
	if (!err)
		err = writer_output__commit(w);
	if (err)
		writer_output__discard(w);
	writer__free(w);
	return err;
}

int perf_writer__error(const struct perf_writer *w)
{
	return w ? w->err : 0;
}

void perf_writer__abort(struct perf_writer *w)
{
	if (!w)
		return;
	if (w->own_fd) {
		close(w->fd);
		w->fd = -1;
	}
	writer_output__discard(w);
	writer__free(w);
}
