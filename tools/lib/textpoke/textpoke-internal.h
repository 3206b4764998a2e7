/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __TEXTPOKE_INTERNAL_H
#define __TEXTPOKE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <textpoke/textpoke.h>

typedef uint64_t u64;
typedef uint32_t u32;
typedef uint16_t u16;
typedef uint8_t u8;

#define __tp_printf(a, b) __attribute__((format(printf, a, b)))

/*
 * A poke as stored in its site: 12 bytes here, its time in the site's
 * times[] (kept apart so that the search by time stays in few cache
 * lines), and its old and new bytes in the site's arena (old at .data,
 * new right after).  Equal times keep the order the pokes were added in:
 * a poke goes after every poke of its time already there.
 */
struct tp_poke {
	u32 off; /* from the site's start */
	u32 data;
	u16 old_len;
	u16 new_len;
};

static inline u32 tp_poke__span(const struct tp_poke *p)
{
	return p->old_len > p->new_len ? p->old_len : p->new_len;
}

/*
 * A site: the union of overlapping pokes' ranges, with its pokes in time
 * order and the materialised versions of the whole range:
 *
 *	times:  [ t1 ][ t2 ] ... [ t_nr ]        one block with .pokes and .arena
 *	pokes:  [ p1 ][ p2 ] ... [ p_nr ]
 *	vbytes: [ version 0: len bytes ][ version 1 ] ... [ version nr ]
 *	vknown: [ version 0: (len+7)/8 bits ] ...   one block with .vbytes
 *
 * Version k is the range after the first k pokes.  .all_known (valid
 * when the site is clean) spares reads the vknown miss in the common case
 * of a site inside a base image.  A site is "dirty" when
 * its versions no longer match its pokes and bases (an out of order poke,
 * a merge, a base added later); the next query rebuilds them.  .gen
 * changes whenever poke indexes shift, so that views re-find their cursor.
 */
struct textpoke_site {
	/* what a read needs, in the first cache line (sites are 64-aligned) */
	u64 start;
	u64 end;
	u64 t_first; /* times[0] and times[nr - 1], to spare a miss */
	u64 t_last;
	u64 *times;
	u8 *vbytes; /* one allocation holds both version arrays */
	u8 *vknown;
	u32 nr;
	bool dirty;
	bool huge;	/* no versions kept: computed per read */
	bool all_known; /* every byte of every version known: vknown need not be read */
	bool mixed;	/* a poke that does not rewrite the whole site: not uniform */
	/* the rest */
	struct textpoke_image *img;
	u32 id;
	u32 gen;
	u32 alloc;
	struct tp_poke *pokes;
	u8 *arena;
	size_t arena_len;
	size_t arena_alloc;
	size_t valloc; /* versions the arrays have room for */
} __attribute__((aligned(64)));

static inline size_t tp_site__len(const struct textpoke_site *s)
{
	return s->end - s->start;
}

static inline size_t tp_site__kbytes(const struct textpoke_site *s)
{
	return (tp_site__len(s) + 7) / 8;
}

struct tp_base {
	u64 start;
	u64 end;
	const u8 *bytes;
	bool owned;
	enum textpoke_anchor anchor;
	u64 time;
};

/*
 * The bases flattened into disjoint fragments; each lists the bases that
 * cover it, the most recently added first (cand[first .. first + nr)).
 */
struct tp_frag {
	u64 start;
	u64 end;
	u32 first;
	u32 nr;
};

/* Entry of the sorted site index: start/end cached for the binary search */
struct tp_slot {
	u64 start;
	u64 end;
	struct textpoke_site *site;
};

/*
 * Sites are kept in two sorted arrays: .sites, large, and .pending, at most
 * TP_PENDING_MAX new sites, merged into .sites when full.  A new site costs
 * O(pending) instead of O(sites), and lookups binary-search both.
 */
#define TP_PENDING_MAX 256

/*
 * The page index: page number -> the first slot of .sites that overlaps
 * the page.  Built when the sites have stayed unchanged for as many reads
 * as there are sites (so its O(sites) cost is amortised), dropped at the
 * next change; reads within one page then skip the binary search.
 */
struct tp_pidx {
	u64 page; /* TP_PIDX_EMPTY: free */
	u64 idx;
};

#define TP_PIDX_EMPTY UINT64_MAX

static inline size_t tp_pidx__hash(u64 page, size_t size)
{
	return (size_t)((page * 0x9e3779b97f4a7c15ULL) >> 32) & (size - 1);
}

#define TP_MAX_SITE_BYTES_DEFAULT (64UL << 20)

struct textpoke_image {
	size_t max_bytes;
	size_t max_site_bytes;
	size_t mem;
	textpoke_print_fn_t print;
	void *print_arg;

	struct tp_slot *sites;
	size_t nr_sites;
	size_t alloc_sites;
	struct tp_slot *pending;
	size_t nr_pending;
	struct textpoke_site *last; /* where the previous poke went */
	struct tp_pidx *pidx;
	size_t pidx_size; /* a power of 2; 0: no index */
	u64 reads_unchanged;

	struct tp_base *bases;
	size_t nr_bases;
	size_t alloc_bases;
	struct tp_frag *frags;
	size_t nr_frags;
	u32 *cand;
	size_t nr_cand;
	bool frags_dirty;

	u64 nr_pokes;
	u32 next_site_id;
};

/* memory accounting against opts.max_bytes; all return NULL past the cap */
void *tp_alloc(struct textpoke_image *img, size_t size);
void *tp_zalloc(struct textpoke_image *img, size_t size);
void *tp_zalloc_aligned(struct textpoke_image *img, size_t size, size_t align);
void *tp_realloc(struct textpoke_image *img, void *ptr, size_t old_size, size_t new_size);
void tp_free(struct textpoke_image *img, void *ptr, size_t size);

void tp_print(struct textpoke_image *img, enum textpoke_print_level level, const char *fmt, ...)
    __tp_printf(3, 4);

/* base.c */
int tp_image__frags_update(struct textpoke_image *img);
size_t tp_image__frag_find(const struct textpoke_image *img, u64 addr);
void tp_image__read_bases(const struct textpoke_image *img, u64 addr, u64 end, u8 *buf, u8 *known);

/* index.c */
size_t tp_slots__first_end_after(const struct tp_slot *slots, size_t nr, u64 addr);
size_t tp_image__sites_find(struct textpoke_image *img, u64 addr, u64 end);
int tp_image__sites_prepare(struct textpoke_image *img, size_t n);
size_t tp_image__overlaps(struct textpoke_image *img, u64 start, u64 end,
			  struct textpoke_site **out, size_t max);
int tp_image__reserve_insert(struct textpoke_image *img, u64 start, bool merging);
int tp_image__compact(struct textpoke_image *img);
/* what a walk over all sites and bases needs first: compacted sites, current fragments */
int tp_image__settle(struct textpoke_image *img);
void tp_image__insert_site(struct textpoke_image *img, struct textpoke_site *s);
void tp_image__remove_site(struct textpoke_image *img, struct textpoke_site *s);

/* read.c */
int tp_image__read(struct textpoke_image *img, u64 addr, size_t len, void *buf, u8 *known,
		   int (*version)(void *ctx, const struct textpoke_site *s, size_t *v), void *ctx);

/* site.c */
struct textpoke_site *tp_site__new(struct textpoke_image *img, u64 start, u64 end);
void tp_site__delete(struct textpoke_image *img, struct textpoke_site *s);
int tp_site__append(struct textpoke_image *img, struct textpoke_site *s, u64 time, u64 addr,
		    const void *old, size_t old_len, const void *new, size_t new_len);
int tp_site__reserve(struct textpoke_image *img, struct textpoke_site *s, size_t pokes,
		     size_t bytes);
void tp_site__grow(struct textpoke_image *img, struct textpoke_site *s, u64 start, u64 end);
int tp_site__absorb(struct textpoke_image *img, struct textpoke_site *dst,
		    struct textpoke_site *src);
int tp_site__materialize(struct textpoke_image *img, struct textpoke_site *s);
size_t tp_site__version_at(const struct textpoke_site *s, u64 time);
size_t tp_site__time_guess(const struct textpoke_site *s, u64 time);
size_t tp_site__version_search(const struct textpoke_site *s, u64 time, size_t guess);
size_t tp_site__cover(const struct textpoke_site *s, u64 abs, u32 *cover);
/* every poke rewrites the whole site, as many bytes as it found (jump labels, calls) */
static inline bool tp_site__uniform(const struct textpoke_site *s)
{
	return s->nr && !s->mixed;
}
const struct tp_frag *tp_image__frag_at(const struct textpoke_image *img, size_t *fi, u64 abs);
const struct tp_base *tp_frag__base_between(const struct textpoke_image *img,
					    const struct tp_frag *f, bool has_prev, u64 t_prev,
					    bool has_next, u64 t_next);
const struct tp_base *tp_site__segment_base(const struct textpoke_image *img,
					    const struct tp_frag *f, const struct textpoke_site *s,
					    const u32 *cover, size_t m, size_t seg);
void tp_site__poke_info(const struct textpoke_site *s, size_t idx, struct textpoke_poke *out);
int tp_site__copy_version(struct textpoke_image *img, const struct textpoke_site *s, size_t v,
			  u64 addr, size_t len, u8 *buf, u8 *known);

/* anchor.c */
#define TP_INT3 0xcc
/* how far from its record a poke's int3 phase may be seen: 1 ms */
#define TP_INT3_SLACK 1000000ULL
bool tp_site__int3_phase(const struct textpoke_site *s, size_t k, u64 addr, const u8 *bytes,
			 size_t len);
bool tp_site__int3_phase_known(const struct textpoke_site *s, size_t k, const u8 *held,
			       const u8 *known);

/* check.c */
int tp_site__checks(struct textpoke_image *img, struct textpoke_site *s,
		    int (*fn)(const struct textpoke_check *check, void *arg), void *arg);

#endif /* __TEXTPOKE_INTERNAL_H */
