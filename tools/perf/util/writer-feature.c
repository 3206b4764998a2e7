// SPDX-License-Identifier: GPL-2.0-only
/*
 * Feature sections for the writer.  Payloads are kept in file byte order
 * until written: at close in file mode; in pipe mode as HEADER_FEATURE
 * records before the first data record, and those set later (build-ids,
 * sample times, BPF JIT images: known once the workload ran) as records
 * after the last data record.  perf reads a pipe's HEADER_FEATURE and
 * HEADER_BUILD_ID records wherever they come.  A feature sent once is
 * final.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "writer-internal.h"

/*
 * What a recording learns only at its end may come late in pipe mode;
 * what describes the machine and the events comes first, where a reader
 * printing the header at the first data record expects it.
 */
static bool writer__feat_may_be_late(int feat)
{
	return feat == HEADER_SAMPLE_TIME || feat == HEADER_BPF_PROG_INFO || feat == HEADER_BPF_BTF;
}

/* pipe mode sends features at the first record and the late ones at close, file mode at close */
static struct wbuf *writer__feat_begin(struct perf_writer *w, int feat)
{
	struct writer_feat *f;

	/* ours has a file section only: a pipe has no HEADER_FEATURE record perf skips */
	if (feat == HEADER_TEXTPOKE_KCORE_DIR && w->pipe)
		return NULL;
	if (feat < HEADER_FIRST_FEATURE ||
	    (feat >= HEADER_LAST_FEATURE && feat != HEADER_TEXTPOKE_KCORE_DIR))
		return NULL;
	f = &w->feat[feat];
	if (w->pipe && w->started && (f->sent || !writer__feat_may_be_late(feat)))
		return NULL;
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
	if (w->pipe && feat != HEADER_TRACING_DATA && f->buf.len > RECORD_MAX - 16 &&
	    (feat != HEADER_BPF_PROG_INFO || writer__bpf_prog_info_split(w, &f->buf, NULL)))
		return -E2BIG;
	f->set = true;
	return 0;
}

/*
 * BPF_PROG_INFO is a count and that many entries (u32 info_len, u32
 * data_len, u64 arrays, then info_len + data_len bytes), which perf adds
 * to what it knows one by one: in a pipe, a late payload past one record
 * goes as several records, each a count and the entries that fit; an
 * early one too (a machine with many programs loaded has more than 64
 * KiB of them), though stock perf, printing the header as it streams by,
 * then lists the programs of the first records again with each.  With @emit
 * NULL, only says whether it can (0) or an entry alone is too large
 * (-E2BIG); otherwise calls @emit on each piece, count in place.
 */
int writer__bpf_prog_info_split(struct perf_writer *w, const struct wbuf *b,
				int (*emit)(struct perf_writer *w, const u8 *p, size_t len))
{
	const size_t room = RECORD_MAX - 16;
	size_t off = 4, start = 4;
	u8 piece[RECORD_MAX];
	u32 count, n = 0;
	int err;

	if (b->len < 4)
		return -EINVAL;
	memcpy(&count, b->p, 4);
	count = writer__u32(w, count);
	for (u32 i = 0; i <= count; i++) {
		size_t size = 0;

		if (i < count) {
			u32 info_len, data_len;

			if (off + 16 > b->len)
				return -E2BIG;
			memcpy(&info_len, b->p + off, 4);
			memcpy(&data_len, b->p + off + 4, 4);
			size = 16 + (size_t)writer__u32(w, info_len) + writer__u32(w, data_len);
			if (size > room - 4 || size > b->len - off)
				return -E2BIG;
		}
		/* the piece so far is full, or the last */
		if (emit && n && (i == count || 4 + (off - start) + size > room)) {
			u32 c = writer__u32(w, n);

			memcpy(piece, &c, 4);
			memcpy(piece + 4, b->p + start, off - start);
			err = emit(w, piece, 4 + off - start);
			if (err)
				return err;
			start = off;
			n = 0;
		}
		off += size;
		n++;
	}
	return off == b->len ? 0 : -E2BIG;
}

static int writer__feat_error(struct perf_writer *w, int feat)
{
	if (feat < HEADER_FIRST_FEATURE || feat >= WRITER_NR_FEATS ||
	    (feat >= HEADER_LAST_FEATURE && feat != HEADER_TEXTPOKE_KCORE_DIR) ||
	    (feat == HEADER_TEXTPOKE_KCORE_DIR && w->pipe))
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
	u64 v[2] = {first, last};

	return writer__set_u64s(w, HEADER_SAMPLE_TIME, v, 2);
}

int perf_writer__set_clockid(struct perf_writer *w, u64 res_ns)
{
	return writer__set_u64s(w, HEADER_CLOCKID, &res_ns, 1);
}

/*
 * Version 1 tells perf to read data.N files (perf record --threads); stock
 * perf 6.1 fails on a version 1 directory that has none, and this writer
 * writes only perf.data/data.
 */
int perf_writer__set_dir_format(struct perf_writer *w, u64 version)
{
	if (!(w->flags & PERF_WRITER_DIRECTORY))
		return -EINVAL;
	if (version != 0)
		return -EOPNOTSUPP;
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

int perf_writer__add_build_id(struct perf_writer *w, u16 misc, s32 pid, const u8 *build_id, u8 size,
			      const char *filename)
{
	struct wbuf *b = &w->build_ids;
	size_t start = b->len, n;
	u16 rec_size;

	if (!build_id || !filename || size > 20)
		return -EINVAL;
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
