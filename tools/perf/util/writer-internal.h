/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_WRITER_INTERNAL_H
#define __PERF_TEXTPOKE_WRITER_INTERNAL_H

/* Shared by writer.c, writer-buf.c, writer-event.c and writer-feature.c only */

#ifdef HAVE_ZSTD
#include <zstd.h>
#endif

#include "header.h"
#include "writer.h"

#define ATTR_FILE_SIZE 128	 /* PERF_ATTR_SIZE_VER7: perf 6.1 refuses more */
#define NAME_ALIGN 64		 /* strings in feature sections */
#define RECORD_MAX 65528	 /* largest header.size that is a multiple of 8 */
#define FEATURE_MAX (1ULL << 30) /* sanity cap on one feature payload */
/* perf's features and ours (HEADER_TEXTPOKE_KCORE_DIR, file mode only) */
#define WRITER_NR_FEATS (HEADER_TEXTPOKE_KCORE_DIR + 1)
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
	bool sent; /* pipe mode: already a HEADER_FEATURE record, final */
};

struct wbuf;
/* pipe mode: BPF_PROG_INFO in pieces that fit a record (writer-feature.c) */
int writer__bpf_prog_info_split(struct perf_writer *w, const struct wbuf *b,
				int (*emit)(struct perf_writer *w, const u8 *p, size_t len));

struct perf_writer {
	unsigned int flags;
	bool swap;
	bool pipe;
	bool started;
	bool event_desc;
	bool own_fd;
	bool through; /* a device or FIFO: written in place, never renamed */
	int err;
	int fd;
	char *path;	 /* destination, symlinks followed; NULL for a caller's fd */
	char *tmp_path;	 /* temporary file or DIRECTORY mode directory; NULL when through */
	char *data_path; /* the file written */
	u8 *obuf;
	size_t olen;
	u64 off; /* file offset of obuf[0] */
	u64 data_offset;
	struct writer_attr *attrs;
	int nr_attrs;
	u64 next_id;
	struct writer_feat feat[WRITER_NR_FEATS];
	struct wbuf build_ids; /* BUILD_ID entries */
	size_t build_ids_sent; /* pipe mode: the bytes of them written as records */
	struct wbuf rec;       /* record being assembled */
	u64 aux_owed;	       /* AUXTRACE trace bytes still to come */
	/* file mode: where each AUXTRACE went, for the HEADER_AUXTRACE index */
	struct wbuf aux_index;
	u64 nr_aux;
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

/* writer-output.c: the destination, atomic or written through */
int writer_output__open(struct perf_writer *w, const char *path, unsigned int flags);
int writer_output__commit(struct perf_writer *w);
void writer_output__discard(struct perf_writer *w);

void wbuf__init(struct wbuf *b, bool swap, size_t limit);
void wbuf__exit(struct wbuf *b);
void wbuf__reset(struct wbuf *b);
u8 *wbuf__reserve(struct wbuf *b, size_t n);
void wbuf__put(struct wbuf *b, const void *data, size_t n);
void wbuf__zero(struct wbuf *b, size_t n);
void wbuf__pad(struct wbuf *b, size_t align);
void wbuf__u16(struct wbuf *b, u16 v);
void wbuf__u32(struct wbuf *b, u32 v);
void wbuf__u64(struct wbuf *b, u64 v);
void wbuf__u64_array(struct wbuf *b, const u64 *v, u64 nr);
void wbuf__string(struct wbuf *b, const char *s);
void wbuf__record_string(struct wbuf *b, const char *s);
void wbuf__attr(struct wbuf *b, const struct perf_event_attr *attr);
void wbuf__header(struct wbuf *b, u32 type, u16 misc);

/* a complete record of the data section, in file byte order */
int writer__record(struct perf_writer *w, const void *rec, size_t len, u32 type);
/*
 * @len bytes of complete records, checked, in file byte order; @counts
 * how many of each type they hold (found by the check, which read every
 * header already)
 */
int writer__records(struct perf_writer *w, const u8 *p, size_t len, const u32 *counts);

static inline u16 writer__u16(struct perf_writer *w, u16 v)
{
	return w->swap ? __builtin_bswap16(v) : v;
}

static inline u32 writer__u32(struct perf_writer *w, u32 v)
{
	return w->swap ? __builtin_bswap32(v) : v;
}

#endif /* __PERF_TEXTPOKE_WRITER_INTERNAL_H */
