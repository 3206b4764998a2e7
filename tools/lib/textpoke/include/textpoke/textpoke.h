/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libtextpoke: the time-versioned kernel code image.
 *
 * For any address and any moment of a recording: the bytes that were
 * there, whether they are known, and how they are known.
 *
 * An image is built from base images (address ranges with bytes, each
 * anchored before the recording, at a time, or after it) and pokes
 * (time, address, old bytes, new bytes) as PERF_RECORD_TEXT_POKE reports
 * them.  It answers read(addr, len, time) in any order of time, checks
 * every poke's old bytes against what the image held at that moment, and
 * exports the history of every poked site.
 *
 * The library has no dependencies, never prints and never exits: errors
 * are negative errno values (pointer returns: NULL with errno set) and
 * diagnostics go to an optional print callback.  An image and its views
 * are not thread safe: use one thread at a time.
 *
 * The whole API is listed in tools/lib/textpoke/Documentation/libtextpoke.txt.
 */
#ifndef __TEXTPOKE_TEXTPOKE_H
#define __TEXTPOKE_TEXTPOKE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef LIBTEXTPOKE_API
#define LIBTEXTPOKE_API __attribute__((visibility("default")))
#endif

#define LIBTEXTPOKE_MAJOR_VERSION 0
#define LIBTEXTPOKE_MINOR_VERSION 2

struct textpoke_image;
struct textpoke_view;
struct textpoke_site;

enum textpoke_print_level {
	TEXTPOKE_WARN,
	TEXTPOKE_INFO,
	TEXTPOKE_DEBUG,
};

/* Returns what vfprintf() would; @arg is the opts' print_arg */
typedef int (*textpoke_print_fn_t)(enum textpoke_print_level level, const char *fmt, va_list ap,
				   void *arg);

/*
 * Options for textpoke_image__new().  Set .sz = sizeof(opts) so that a
 * caller built against an older header keeps working.  NULL opts: no
 * memory cap, no diagnostics.
 */
struct textpoke_image_opts {
	size_t sz;
	/*
	 * Upper bound on the bytes the image allocates (pokes, versions,
	 * owned base copies, indexes); 0 means no cap.  An operation that
	 * would exceed it fails with -ENOMEM and leaves the image as it was.
	 */
	size_t max_bytes;
	textpoke_print_fn_t print;
	void *print_arg;
	/*
	 * A site whose versions would take more than this (0: 64 MiB) keeps
	 * none, and reads compute its bytes from its pokes instead: slower,
	 * but bounded memory for pathological or hostile histories (long
	 * chains of overlapping 64 KiB pokes).
	 */
	size_t max_site_bytes;
};

LIBTEXTPOKE_API struct textpoke_image *textpoke_image__new(const struct textpoke_image_opts *opts);
LIBTEXTPOKE_API void textpoke_image__delete(struct textpoke_image *img);

/*
 * When a base image's bytes were true:
 *  BEFORE: before every poke of the recording (a kcore copied before
 *          recording started, a vmlinux or module file)
 *  AT:     at .time, i.e. after every poke with time <= .time (a kcore
 *          copied while recording)
 *  AFTER:  after every poke (a kcore copied at the end)
 */
enum textpoke_anchor {
	TEXTPOKE_ANCHOR_BEFORE,
	TEXTPOKE_ANCHOR_AT,
	TEXTPOKE_ANCHOR_AFTER,
};

/* The caller keeps the bytes alive and unchanged until the image is deleted */
#define TEXTPOKE_BASE_BORROW (1U << 0)

struct textpoke_base_opts {
	size_t sz;
	enum textpoke_anchor anchor;
	uint64_t time;	    /* for TEXTPOKE_ANCHOR_AT */
	unsigned int flags; /* TEXTPOKE_BASE_* */
};

/*
 * Add @len bytes of code that were at @addr.  NULL opts: anchored BEFORE,
 * bytes copied.  Where base images overlap, the one added last wins among
 * those anchored in the same interval between pokes.  Bytes outside every
 * base image and every poke are unknown, never zero.
 */
LIBTEXTPOKE_API int textpoke_image__add_base(struct textpoke_image *img, uint64_t addr,
					     const void *bytes, size_t len,
					     const struct textpoke_base_opts *opts);

/*
 * Record that at @time the @old_len bytes @old_bytes at @addr became the
 * @new_len bytes @new_bytes.  old_len 0: code appears (an ftrace trampoline
 * body, a kprobe instruction slot); new_len 0: code goes away.  Before the
 * one and after the other (until the next poke there) the bytes are
 * unknown, whatever a base image holds: nothing was there.  Pokes in
 * time order append in O(1); out of order ones are placed at their time.
 * Pokes with equal times apply in the order they were added.  At most
 * 65535 bytes each way, as in PERF_RECORD_TEXT_POKE.
 */
LIBTEXTPOKE_API int textpoke_image__add_poke(struct textpoke_image *img, uint64_t time,
					     uint64_t addr, const void *old_bytes, size_t old_len,
					     const void *new_bytes, size_t new_len);

/*
 * The @len bytes at @addr as they were at @time, i.e. after every poke
 * with time <= @time.  @buf gets the bytes (0 where unknown), @known one
 * byte per byte: 1 known, 0 unknown (may be NULL).  Returns the number of
 * known bytes, or a negative errno.  Queries may come in any time order.
 */
LIBTEXTPOKE_API int textpoke_image__read(struct textpoke_image *img, uint64_t addr, size_t len,
					 uint64_t time, void *buf, uint8_t *known);

/*
 * One read of a batch: as textpoke_image__read(img, addr, len, time, buf,
 * known), whose return value goes to .ret.
 */
struct textpoke_query {
	uint64_t addr;
	uint64_t time;
	size_t len;
	void *buf;
	uint8_t *known; /* may be NULL */
	int ret;	/* out */
};

/*
 * @n reads at once, in any order of address and time: each @q[i] gets
 * exactly what textpoke_image__read() would give it.  Random reads over a
 * large image wait for a chain of cache misses each (site index, site,
 * times, versions, base bytes); a batch overlaps the misses of many
 * reads, several times the rate of single reads.  Reads of more than 64
 * bytes or over several sites are done one by one, at the single rate.
 * Returns 0, or -EINVAL if @img or @q is NULL (then no .ret is set).
 */
LIBTEXTPOKE_API int textpoke_image__read_batch(struct textpoke_image *img, struct textpoke_query *q,
					       size_t n);

LIBTEXTPOKE_API size_t textpoke_image__nr_pokes(const struct textpoke_image *img);
LIBTEXTPOKE_API size_t textpoke_image__nr_sites(const struct textpoke_image *img);
LIBTEXTPOKE_API size_t textpoke_image__nr_bases(const struct textpoke_image *img);
/* bytes currently allocated, as counted against max_bytes */
LIBTEXTPOKE_API size_t textpoke_image__mem_bytes(const struct textpoke_image *img);

/*
 * A poked site is a maximal address range covered by overlapping pokes.
 * Version 0 is the code before the site's first poke, version k the code
 * after its k-th poke (in time order).
 */
struct textpoke_poke {
	uint64_t time;
	uint64_t addr;
	const uint8_t *old_bytes;
	const uint8_t *new_bytes;
	uint16_t old_len;
	uint16_t new_len;
};

/* Calls @fn for each site in address order; stops at and returns @fn's first non-zero value */
LIBTEXTPOKE_API int textpoke_image__for_each_site(struct textpoke_image *img,
						  int (*fn)(struct textpoke_site *site, void *arg),
						  void *arg);

/*
 * The site holding @addr, or NULL (errno ENOENT when none, ENOMEM when its
 * versions could not be built).  Valid until the image changes.
 */
LIBTEXTPOKE_API struct textpoke_site *textpoke_image__site_at(struct textpoke_image *img,
							      uint64_t addr);

LIBTEXTPOKE_API uint64_t textpoke_site__addr(const struct textpoke_site *site);
LIBTEXTPOKE_API size_t textpoke_site__len(const struct textpoke_site *site);
LIBTEXTPOKE_API size_t textpoke_site__nr_pokes(const struct textpoke_site *site);
/* The @idx-th poke (0-based, time order); pointers valid until the image changes */
LIBTEXTPOKE_API int textpoke_site__poke(const struct textpoke_site *site, size_t idx,
					struct textpoke_poke *poke);
/*
 * Version @idx (0 .. nr_pokes) of the whole site into @buf and @known
 * (textpoke_site__len() bytes each, @known may be NULL); @time gets the
 * time it took effect (0 for version 0).  Returns the number of known bytes.
 */
LIBTEXTPOKE_API int textpoke_site__version(const struct textpoke_site *site, size_t idx,
					   uint64_t *time, void *buf, uint8_t *known);

/*
 * Every known byte of the image at @time, in address order, as runs of
 * contiguous known bytes: @fn gets each run's address, bytes (valid during
 * the call) and length.  A long run may come in several calls, the next
 * starting where the previous ended.  Stops at, and returns, @fn's first
 * non-zero value.  For writing a snapshot (an ELF image, a kcore_dir) of
 * the code as it was at @time.
 */
LIBTEXTPOKE_API int textpoke_image__export(struct textpoke_image *img, uint64_t time,
					   int (*fn)(uint64_t addr, const uint8_t *bytes,
						     size_t len, void *arg),
					   void *arg);

/*
 * When was a copy taken?  perf record copies kcore after enabling text
 * poke events, at a moment it does not record.  Given the copy's @len
 * bytes at @addr (before adding it as a base), textpoke_image__fit_anchor()
 * finds the first interval of time [from, to) in which the most poked
 * sites inside the copy hold what the copy holds.  Then add the copy
 * with TEXTPOKE_ANCHOR_AT and .time = from.  agree < sites means some
 * sites disagree at every time (a lost event, boot-time patching);
 * sites 0 means the pokes say nothing about the copy.
 */
struct textpoke_anchor_fit {
	uint64_t from;
	uint64_t to;  /* UINT64_MAX: up to the end */
	size_t sites; /* poked sites the copy covers with known bytes */
	size_t agree; /* of which agree with the copy over [from, to) */
};

LIBTEXTPOKE_API int textpoke_image__fit_anchor(struct textpoke_image *img, uint64_t addr,
					       const void *bytes, size_t len,
					       struct textpoke_anchor_fit *fit);
/*
 * The same within the times [@lo, @hi] only, for a copy known to be read
 * then (each range of a copy that wrote its read times down; a copy
 * taken before the events that are enabled after it).  A copy that holds
 * a poke's int3 phase (cc, then per byte the old or the new bytes, as
 * text_poke_bp() leaves them before its record) agrees at that poke's
 * time, give or take a millisecond.
 */
LIBTEXTPOKE_API int textpoke_image__fit_anchor_in(struct textpoke_image *img, uint64_t addr,
						  const void *bytes, size_t len, uint64_t lo,
						  uint64_t hi, struct textpoke_anchor_fit *fit);

/* Outcome of comparing a poke's old bytes with the image at that moment */
enum textpoke_verdict {
	TEXTPOKE_VERIFIED,    /* the image held the old bytes */
	TEXTPOKE_PRE_APPLIED, /* no earlier bytes, but a later copy holds the new bytes */
	TEXTPOKE_MISMATCH,    /* the image disagrees: lost event, wrong base, boot-time patch */
	TEXTPOKE_UNKNOWN,     /* nothing to compare with */
	TEXTPOKE_VERDICT__MAX,
};

LIBTEXTPOKE_API const char *textpoke_verdict__str(enum textpoke_verdict verdict);

/*
 * One poke's check.  @before: what the image held at @addr just before
 * the poke, from earlier pokes or a base anchored before it (old_len
 * bytes, @before_known 1 where known).  @after: what a base anchored after
 * the poke (and before the next one at those bytes) holds (new_len bytes).
 * Pointers are valid during the callback only.
 */
struct textpoke_check {
	enum textpoke_verdict verdict;
	struct textpoke_poke poke;
	const uint8_t *before;
	const uint8_t *before_known;
	const uint8_t *after;
	const uint8_t *after_known;
};

/* Calls @fn for every poke in address order, then time order */
LIBTEXTPOKE_API int
textpoke_image__for_each_check(struct textpoke_image *img,
			       int (*fn)(const struct textpoke_check *check, void *arg), void *arg);

/* Number of pokes with each verdict into counts[TEXTPOKE_VERDICT__MAX] */
LIBTEXTPOKE_API int textpoke_image__count_verdicts(struct textpoke_image *img,
						   size_t counts[TEXTPOKE_VERDICT__MAX]);

/*
 * A forward-only view for streaming consumers: the view stands at a time
 * that only moves forward, and reads cost O(1) in the number of versions
 * (amortised), plus the address lookup.  Pokes may still be added to the
 * image while views exist.
 */
LIBTEXTPOKE_API struct textpoke_view *textpoke_view__new(struct textpoke_image *img, uint64_t time);
LIBTEXTPOKE_API void textpoke_view__delete(struct textpoke_view *view);
/* -EINVAL if @time is before the view's time */
LIBTEXTPOKE_API int textpoke_view__advance(struct textpoke_view *view, uint64_t time);
LIBTEXTPOKE_API uint64_t textpoke_view__time(const struct textpoke_view *view);
/* As textpoke_image__read() at the view's time */
LIBTEXTPOKE_API int textpoke_view__read(struct textpoke_view *view, uint64_t addr, size_t len,
					void *buf, uint8_t *known);

#ifdef __cplusplus
}
#endif

#endif /* __TEXTPOKE_TEXTPOKE_H */
