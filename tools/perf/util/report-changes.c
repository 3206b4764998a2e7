// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the kernel rewrote while the recording ran: its poked sites, what
 * each is (decoded from the bytes of its versions), how long each version
 * lasted and which samples ran on it; the code regions that came and went
 * (KSYMBOLs: BPF programs, trampolines, kprobe slots); and whether the
 * recording's kernel code can be trusted.
 *
 * The text image models a BPF program's JIT image and an inject --jit
 * object's code as old_len 0 / new_len 0 pokes at its load and unload.
 * The kernel made no such poke, so they are not sites: they are the
 * bodies of regions.  A site keeps only the pokes the kernel reported.
 *
 * Samples come in time order, up to millions of them, so the lookups are
 * binary searches over arrays built once:
 *
 *   sites[]    address order, disjoint      -> the site holding the IP
 *   versions[] time order within a site     -> the version at the time
 *   by_addr[]  regions by address, then life -> the region alive at the time
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "addr-buckets.h"
#include "debug.h"
#include "disasm.h"
#include "insn-len.h"
#include "machine.h"
#include "report-changes.h"
#include "session-workers.h"
#include "symbol.h"
#include "text-image.h"
#include "text-poke-print.h"

#ifndef PERF_RECORD_MISC_KERNEL
#define PERF_RECORD_MISC_KERNEL 1
#endif
#ifndef PERF_RECORD_KSYMBOL_TYPE_BPF
#define PERF_RECORD_KSYMBOL_TYPE_BPF 1
#define PERF_RECORD_KSYMBOL_TYPE_OOL 2
#endif

#define TIME_OPEN UINT64_MAX
_Static_assert(REPORT_REGION_OBJECT == MACHINE_KSYMBOL_OBJECT, "one type for mapped objects");
/* distinct states of one site that get a description of their own */
#define RC_STATES_MAX 8
/* what a region's bytes are looked for in (a trampoline page is 4 KiB) */
#define RC_REGION_PROBE 4096
#define RC_ARENA_CHUNK 65536

/* strings that live as long as the report: descriptions, names */
struct rc_chunk {
	struct rc_chunk *next;
	size_t used, size;
	char buf[];
};

/* a modelled (JIT) poke: where and when a BPF program's image came or went */
struct rc_key {
	u64 addr;
	u64 time;
};

struct rc_state {
	size_t off; /* into the states buffer: len bytes, then len known */
	const char *desc;
	const u8 *bytes; /* in the arena, NULL: not all known */
};

/* what a sample reads of a site: one cache line for four of them */
struct rc_site_key {
	u64 addr;
	u32 len;
	u32 cursor; /* the version of the site's last sample */
};

struct rc {
	struct report_changes pub; /* first: the caller's pointer is to it */
	struct text_image *ti;
	struct thread *kthread;
	struct report_version *pool; /* every site's versions */
	size_t nr_pool, alloc_pool;
	size_t alloc_sites;
	struct rc_chunk *arena;
	size_t *by_addr; /* regions by address, then start time */
	u64 *reach;	 /* the highest end of by_addr[0..i] */
	u64 region_lo, region_hi;
	size_t *reused_pool;
	struct rc_key *loads; /* loads with JIT bytes */
	size_t nr_loads;
	/* scratch for one site */
	size_t *real;
	size_t alloc_real;
	u8 *scratch;
	size_t alloc_scratch;
	u8 *probe, *probe_known;
	/*
	 * For the samples: the sites' addresses packed, so that finding a
	 * sample's site reads a few cache lines, and per site the version
	 * its last sample fell in, where the next one (in time order)
	 * mostly falls too
	 */
	struct rc_site_key *site_keys;
	struct addr_buckets site_index;
	bool have_time;
	int err;
};

static struct rc *rc__of(const struct report_changes *pub)
{
	return (struct rc *)pub;
}

const char *report_site_kind__name(enum report_site_kind kind)
{
	static const char *const names[REPORT_KIND__MAX] = {
	    [REPORT_KIND_JUMP_LABEL] = "jump_label", [REPORT_KIND_STATIC_CALL] = "static_call",
	    [REPORT_KIND_FTRACE] = "ftrace",	     [REPORT_KIND_KPROBE] = "kprobe",
	    [REPORT_KIND_OPTPROBE] = "optprobe",     [REPORT_KIND_TRAMPOLINE] = "trampoline",
	    [REPORT_KIND_OTHER] = "other",
	};

	return (unsigned int)kind < REPORT_KIND__MAX ? names[kind] : "other";
}

static void *rc__memdup(struct rc *rc, const void *s, size_t len)
{
	struct rc_chunk *c = rc->arena;
	char *p;

	if (!c || c->size - c->used < len) {
		size_t size = len > RC_ARENA_CHUNK ? len : RC_ARENA_CHUNK;

		c = malloc(sizeof(*c) + size);
		if (!c) {
			rc->err = -ENOMEM;
			return NULL;
		}
		c->next = rc->arena;
		c->used = 0;
		c->size = size;
		rc->arena = c;
	}
	p = c->buf + c->used;
	memcpy(p, s, len);
	c->used += len;
	return p;
}

static const char *rc__strdup(struct rc *rc, const char *s)
{
	return rc__memdup(rc, s, strlen(s) + 1);
}

static int grow(void **p, size_t nr, size_t *alloc, size_t need, size_t size)
{
	size_t n = *alloc;
	void *q;

	if (nr + need <= n)
		return 0;
	while (n < nr + need)
		n = n ? 2 * n : 16;
	q = realloc(*p, n * size);
	if (!q)
		return -ENOMEM;
	*p = q;
	*alloc = n;
	return 0;
}

/* ---- regions ---- */

static int rc__add_region(const struct machine_ksymbol *ks, void *arg)
{
	struct rc *rc = arg;
	struct report_changes *pub = &rc->pub;
	struct report_region *r;
	size_t alloc = pub->nr_regions;

	/* nr_regions doubles as the allocation: grow by powers of two */
	if (!pub->nr_regions || !(pub->nr_regions & (pub->nr_regions - 1))) {
		alloc = pub->nr_regions ? 2 * pub->nr_regions : 16;
		r = realloc(pub->regions, alloc * sizeof(*r));
		if (!r)
			return -ENOMEM;
		pub->regions = r;
	}
	r = &pub->regions[pub->nr_regions++];
	memset(r, 0, sizeof(*r));
	r->name = (char *)rc__strdup(rc, ks->name ? ks->name : "[unknown]");
	r->addr = ks->start;
	r->len = ks->end - ks->start;
	r->ksym_type = ks->ksym_type;
	r->start = ks->t_start;
	r->end = ks->t_end;
	return rc->err;
}

static int cmp_region_time(const void *a, const void *b)
{
	const struct report_region *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return 0;
}

static int cmp_region_addr(const void *a, const void *b, void *arg)
{
	const struct report_region *regions = arg;
	const struct report_region *x = &regions[*(const size_t *)a];
	const struct report_region *y = &regions[*(const size_t *)b];

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

/* the region alive at @time holding @addr, the latest to start if several */
static struct report_region *rc__region_at(const struct rc *rc, u64 addr, u64 time)
{
	const struct report_changes *pub = &rc->pub;
	struct report_region *best = NULL;
	size_t lo = 0, hi = pub->nr_regions;

	if (addr < rc->region_lo || addr >= rc->region_hi)
		return NULL;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (pub->regions[rc->by_addr[mid]].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* back until no region at or below reaches @addr */
	while (lo-- > 0 && rc->reach[lo] > addr) {
		struct report_region *r = &pub->regions[rc->by_addr[lo]];

		if (addr >= r->addr + r->len || time < r->start || time >= r->end)
			continue;
		if (!best || r->start > best->start)
			best = r;
	}
	return best;
}

/* which regions held each other's addresses, as index lists from one pool */
static int rc__region_reuse(struct rc *rc)
{
	struct report_changes *pub = &rc->pub;
	size_t i, j, nr = 0, *fill;
	struct report_region *r = pub->regions;

	for (i = 0; i < pub->nr_regions; i++) {
		const struct report_region *a = &r[rc->by_addr[i]];

		for (j = i + 1; j < pub->nr_regions; j++) {
			const struct report_region *b = &r[rc->by_addr[j]];

			if (b->addr >= a->addr + a->len)
				break;
			r[rc->by_addr[i]].nr_reused++;
			r[rc->by_addr[j]].nr_reused++;
			nr += 2;
		}
	}
	if (!nr)
		return 0;
	rc->reused_pool = malloc(nr * sizeof(*rc->reused_pool));
	fill = calloc(pub->nr_regions, sizeof(*fill));
	if (!rc->reused_pool || !fill) {
		free(fill);
		return -ENOMEM;
	}
	nr = 0;
	for (i = 0; i < pub->nr_regions; i++) {
		r[i].reused = rc->reused_pool + nr;
		nr += r[i].nr_reused;
	}
	for (i = 0; i < pub->nr_regions; i++) {
		size_t a = rc->by_addr[i];

		for (j = i + 1; j < pub->nr_regions; j++) {
			size_t b = rc->by_addr[j];

			if (r[b].addr >= r[a].addr + r[a].len)
				break;
			r[a].reused[fill[a]++] = b;
			r[b].reused[fill[b]++] = a;
		}
	}
	free(fill);
	/* each list in region (start time) order */
	for (i = 0; i < pub->nr_regions; i++) {
		size_t n = r[i].nr_reused, k, m;

		for (k = 1; k < n; k++) {
			size_t v = r[i].reused[k];

			for (m = k; m > 0 && r[i].reused[m - 1] > v; m--)
				r[i].reused[m] = r[i].reused[m - 1];
			r[i].reused[m] = v;
		}
	}
	return 0;
}

static int cmp_key(const void *a, const void *b)
{
	const struct rc_key *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return 0;
}

static int rc__regions(struct rc *rc, struct machine *machine)
{
	struct report_changes *pub = &rc->pub;
	const struct text_image_bpf_load *loads;
	size_t i, nr_loads;
	int err;

	if (machine) {
		err = machine__for_each_ksymbol(machine, rc__add_region, rc);
		if (err)
			return err;
	}
	if (pub->nr_regions)
		qsort(pub->regions, pub->nr_regions, sizeof(*pub->regions), cmp_region_time);
	rc->by_addr = malloc((pub->nr_regions ?: 1) * sizeof(*rc->by_addr));
	if (!rc->by_addr)
		return -ENOMEM;
	rc->region_lo = TIME_OPEN;
	for (i = 0; i < pub->nr_regions; i++) {
		struct report_region *r = &pub->regions[i];

		rc->by_addr[i] = i;
		if (r->addr < rc->region_lo)
			rc->region_lo = r->addr;
		if (r->addr + r->len > rc->region_hi)
			rc->region_hi = r->addr + r->len;
	}
	if (pub->nr_regions)
		qsort_r(rc->by_addr, pub->nr_regions, sizeof(*rc->by_addr), cmp_region_addr,
			pub->regions);
	rc->reach = malloc((pub->nr_regions ?: 1) * sizeof(*rc->reach));
	if (!rc->reach)
		return -ENOMEM;
	for (i = 0; i < pub->nr_regions; i++) {
		const struct report_region *r = &pub->regions[rc->by_addr[i]];
		u64 end = r->addr + r->len;

		rc->reach[i] = i && rc->reach[i - 1] > end ? rc->reach[i - 1] : end;
	}
	err = rc__region_reuse(rc);
	if (err)
		return err;

	loads = text_image__bpf_loads(rc->ti, &nr_loads);
	rc->loads = malloc((nr_loads ?: 1) * sizeof(*rc->loads));
	if (!rc->loads)
		return -ENOMEM;
	for (i = 0; i < nr_loads; i++) {
		if (loads[i].len)
			rc->loads[rc->nr_loads++] =
			    (struct rc_key){loads[i].addr, loads[i].load_time};
	}
	if (rc->nr_loads)
		qsort(rc->loads, rc->nr_loads, sizeof(*rc->loads), cmp_key);
	return 0;
}

/* the first site at or after @addr */
static size_t rc__site_from(const struct report_changes *pub, u64 addr)
{
	size_t lo = 0, hi = pub->nr_sites;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (pub->sites[mid].addr + pub->sites[mid].len <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Were a region's bytes known while it lived?  A BPF program's when a
 * load with JIT bytes at its address fell in its life; a trampoline's or
 * kprobe slot's when a poke filled it then; any when the image holds some
 * of them at the start of its life (a base image, an object's code).
 */
static void rc__region_bytes(struct rc *rc, struct report_region *r)
{
	const struct report_changes *pub = &rc->pub;
	size_t len = r->len < RC_REGION_PROBE ? r->len : RC_REGION_PROBE, i;

	r->bytes_known = false;
	if (r->ksym_type == PERF_RECORD_KSYMBOL_TYPE_BPF) {
		struct rc_key key = {r->addr, r->start};
		size_t lo = 0, hi = rc->nr_loads;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (cmp_key(&rc->loads[mid], &key) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < rc->nr_loads && rc->loads[lo].addr == r->addr &&
		    rc->loads[lo].time < r->end) {
			r->bytes_known = true;
			return;
		}
	}
	for (i = rc__site_from(pub, r->addr);
	     i < pub->nr_sites && pub->sites[i].addr < r->addr + r->len; i++) {
		const struct report_site *s = &pub->sites[i];

		if (s->first_change <= r->end && s->last_change >= r->start) {
			r->bytes_known = true;
			return;
		}
	}
	r->bytes_known =
	    len && text_image__read(rc->ti, r->addr, len, r->start, rc->probe, rc->probe_known) > 0;
}

/* ---- sites ---- */

enum rc_class { CL_NONE, CL_NOP, CL_JMP, CL_CALL, CL_INT3, CL_OTHER };

/* what a state of a site is, and where its call or jmp goes */
static enum rc_class rc__class(const u8 *b, const u8 *k, size_t len, u64 addr, u64 *target)
{
	size_t i = 0;

	if (!len || !k[0])
		return CL_NONE;
	if (b[0] == 0xcc)
		return CL_INT3;
	if ((b[0] == 0xe8 || b[0] == 0xe9) && len >= 5 && k[1] && k[2] && k[3] && k[4]) {
		s32 rel;

		memcpy(&rel, b + 1, 4);
		*target = addr + 5 + (s64)rel;
		return b[0] == 0xe8 ? CL_CALL : CL_JMP;
	}
	if (b[0] == 0xeb && len >= 2 && k[1]) {
		*target = addr + 2 + (s8)b[1];
		return CL_JMP;
	}
	/* 90, 66 90, 0f 1f /0 with any prefixes: the kernel's nops */
	while (i < len && k[i] && (b[i] == 0x66 || b[i] == 0x2e))
		i++;
	if (i < len && k[i] && b[i] == 0x90)
		return CL_NOP;
	if (i + 1 < len && k[i] && k[i + 1] && b[i] == 0x0f && b[i + 1] == 0x1f)
		return CL_NOP;
	return CL_OTHER;
}

/* "fn+0x12" (or "fn") at @addr as of @time into @buf; the offset, or -1 when unknown */
static s64 rc__sym(struct rc *rc, u64 addr, u64 time, char *buf, size_t size)
{
	struct addr_location al;
	s64 off = -1;

	buf[0] = '\0';
	if (!rc->kthread)
		return -1;
	addr_location__init(&al);
	if (thread__find_symbol(rc->kthread, PERF_RECORD_MISC_KERNEL, addr, time, &al) && al.sym) {
		off = al.addr - al.sym->start;
		if (off)
			snprintf(buf, size, "%s+%#llx", symbol__name(al.sym),
				 (unsigned long long)off);
		else
			snprintf(buf, size, "%s", symbol__name(al.sym));
	}
	addr_location__exit(&al);
	return off;
}

static bool is_ftrace_name(const char *name)
{
	return strstr(name, "ftrace") || strstr(name, "fentry") || strstr(name, "trampoline");
}

struct rc_site_ctx {
	struct rc *rc;
	struct textpoke_site *site;
	u64 addr;
	size_t len;
	size_t nr_states;
	struct rc_state states[RC_STATES_MAX];
	u8 *states_buf;
};

/* a state's bytes, for the instruction that starts at the site even if it is longer */
static const char *rc__describe(struct rc_site_ctx *sc, const u8 *b, const u8 *k, u64 time,
				bool gone)
{
	struct rc *rc = sc->rc;
	struct text_poke_sym ks = {.thread = rc->kthread, .time = time};
	u8 ext[INSN_LEN_MAX], ext_known[INSN_LEN_MAX];
	size_t n, len = sc->len;
	char buf[192];

	for (n = 0; n < len && k[n]; n++)
		;
	if (gone || !n)
		return gone || !len ? "(none)" : "(unknown)";
	if (n == len && len < INSN_LEN_MAX &&
	    text_image__read(rc->ti, sc->addr, INSN_LEN_MAX, time, ext, ext_known) >= 0) {
		size_t m, end = 0;
		int l = 0;

		/*
		 * The site's own bytes, then what followed them then: whole
		 * instructions over the site (a kprobe's int3 is the first
		 * byte of a mov, an optimized kprobe's jmp covers more than one)
		 */
		memcpy(ext, b, len);
		memset(ext_known, 1, len);
		for (m = len; m < INSN_LEN_MAX && ext_known[m]; m++)
			;
		while (end < len &&
		       (l = insn_len(ext + end, ext_known + end, m - end, INSN_LEN_64, NULL)) > 0)
			end += l;
		if (end > len) {
			disasm__describe(ext, end, sc->addr, buf, sizeof(buf), text_poke__sym, &ks);
			return rc__strdup(rc, buf);
		}
	}
	disasm__describe(b, n, sc->addr, buf, sizeof(buf), text_poke__sym, &ks);
	return rc__strdup(rc, buf);
}

/*
 * A version's description and bytes: one of each per distinct state of
 * the site, shared by the versions in that state (a jump label flipped
 * 10^3 times has two).
 */
static void rc__version_state(struct rc_site_ctx *sc, struct report_version *v, const u8 *b,
			      const u8 *k, u64 time, bool gone)
{
	size_t i, len = sc->len;
	struct rc_state *s, one;

	if (gone) {
		v->desc = (char *)"(none)";
		v->bytes = NULL;
		return;
	}
	for (i = 0; i < sc->nr_states; i++) {
		s = &sc->states[i];
		if (!memcmp(sc->states_buf + s->off, b, len) &&
		    !memcmp(sc->states_buf + s->off + len, k, len))
			goto out;
	}
	s = sc->nr_states < RC_STATES_MAX ? &sc->states[sc->nr_states++] : &one;
	if (s != &one) {
		s->off = (sc->nr_states - 1) * 2 * len;
		memcpy(sc->states_buf + s->off, b, len);
		memcpy(sc->states_buf + s->off + len, k, len);
	}
	s->desc = rc__describe(sc, b, k, time, false);
	s->bytes = len && !memchr(k, 0, len) ? rc__memdup(sc->rc, b, len) : NULL;
out:
	v->desc = (char *)s->desc;
	v->bytes = (u8 *)s->bytes;
}

static enum report_site_kind rc__kind(struct rc_site_ctx *sc, bool appears, s64 sym_off, u64 t0)
{
	struct rc *rc = sc->rc;
	unsigned int seen = 0, nr_targets = 0;
	u64 targets[RC_STATES_MAX];
	bool ftrace_target = false, opt_target = false;
	size_t i, j;

	if (appears)
		return REPORT_KIND_TRAMPOLINE;
	for (i = 0; i < sc->nr_states; i++) {
		const u8 *b = sc->states_buf + sc->states[i].off;
		u64 target = 0;
		enum rc_class cl = rc__class(b, b + sc->len, sc->len, sc->addr, &target);
		char name[160];

		seen |= 1U << cl;
		if (cl != CL_CALL && cl != CL_JMP)
			continue;
		for (j = 0; j < nr_targets && targets[j] != target; j++)
			;
		if (j == nr_targets)
			targets[nr_targets++] = target;
		{
			const struct report_region *r = rc__region_at(rc, target, t0);

			if (r && r->ksym_type == PERF_RECORD_KSYMBOL_TYPE_OOL) {
				if (strstr(r->name, "optinsn") && cl == CL_JMP)
					opt_target = true;
				if (is_ftrace_name(r->name))
					ftrace_target = true;
			}
		}
		if (rc__sym(rc, target, t0, name, sizeof(name)) >= 0 && is_ftrace_name(name))
			ftrace_target = true;
	}
	if (opt_target)
		return REPORT_KIND_OPTPROBE;
	if (seen & (1U << CL_INT3))
		return REPORT_KIND_KPROBE;
	if (seen == ((1U << CL_NOP) | (1U << CL_JMP)))
		return REPORT_KIND_JUMP_LABEL;
	if ((seen & (1U << CL_CALL)) && !(seen & ~((1U << CL_CALL) | (1U << CL_NOP)))) {
		bool entry = sym_off == 0;

		/* with IBT the fentry call follows the function's endbr64 */
		if (sym_off == 4) {
			u8 e[4], ek[4];

			entry = text_image__read(rc->ti, sc->addr - 4, 4, t0, e, ek) == 4 &&
				!memcmp(e, "\xf3\x0f\x1e\xfa", 4);
		}
		if (entry || ftrace_target)
			return REPORT_KIND_FTRACE;
		return REPORT_KIND_STATIC_CALL;
	}
	if ((seen & ((1U << CL_CALL) | (1U << CL_JMP))) &&
	    nr_targets + !!(seen & ~((1U << CL_CALL) | (1U << CL_JMP))) >= 2)
		return REPORT_KIND_STATIC_CALL;
	return REPORT_KIND_OTHER;
}

/*
 * A site of the text image, less its modelled pokes: versions from the
 * kernel's pokes only, over the bytes they wrote (a trampoline attached at
 * a BPF program's entry is a site of 5 bytes, not of the program's size).
 */
static int rc__add_site(struct textpoke_site *site, void *arg)
{
	struct rc *rc = arg;
	struct report_changes *pub = &rc->pub;
	size_t n = textpoke_site__nr_pokes(site), full = textpoke_site__len(site);
	u64 base = textpoke_site__addr(site), lo = UINT64_MAX, hi = 0;
	struct rc_site_ctx sc = {.rc = rc, .site = site};
	u8 *v0, *v0_known, *cur, *cur_known;
	struct report_site *s;
	struct report_version *v;
	bool appears = false;
	size_t i, off, len, nr_real = 0;
	char name[160];
	s64 sym_off;
	u64 t;

	if (grow((void **)&rc->real, 0, &rc->alloc_real, n, sizeof(*rc->real)))
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct textpoke_poke p;
		u64 end;

		if (textpoke_site__poke(site, i, &p))
			return -EINVAL;
		if (text_image__is_model_poke(rc->ti, p.addr, p.time))
			continue;
		rc->real[nr_real++] = i;
		if (!p.old_len || !p.new_len)
			appears = true;
		end = p.addr + (p.old_len > p.new_len ? p.old_len : p.new_len);
		if (p.addr < lo)
			lo = p.addr;
		if (end > hi)
			hi = end;
	}
	if (!nr_real)
		return 0;
	off = lo - base;
	len = hi - lo;
	if (grow((void **)&rc->scratch, 0, &rc->alloc_scratch, 4 * full + 2 * RC_STATES_MAX * len,
		 1) ||
	    grow((void **)&pub->sites, pub->nr_sites, &rc->alloc_sites, 1, sizeof(*pub->sites)) ||
	    grow((void **)&rc->pool, rc->nr_pool, &rc->alloc_pool, nr_real + 1, sizeof(*rc->pool)))
		return -ENOMEM;
	v0 = rc->scratch;
	v0_known = v0 + full;
	cur = v0_known + full;
	cur_known = cur + full;
	sc.states_buf = cur_known + full;
	sc.addr = lo;
	sc.len = len;

	s = &pub->sites[pub->nr_sites];
	memset(s, 0, sizeof(*s));
	s->addr = sc.addr;
	s->len = len;
	s->nr_versions = nr_real + 1;
	/* an index until the pool stops moving: fixed up in report_changes__new() */
	s->versions = (struct report_version *)(uintptr_t)rc->nr_pool;
	v = rc->pool + rc->nr_pool;
	memset(v, 0, (nr_real + 1) * sizeof(*v));

	/* version 0: the site just before its first reported poke */
	textpoke_site__version(site, rc->real[0], NULL, v0, v0_known);
	textpoke_site__version(site, rc->real[0] + 1, &t, cur, cur_known);
	s->first_change = t;
	sym_off = rc__sym(rc, sc.addr, t, name, sizeof(name));
	s->sym = sym_off >= 0 ? (char *)rc__strdup(rc, name) : NULL;
	v[0].verdict = TEXTPOKE_UNKNOWN;
	for (i = 0; i < nr_real; i++) {
		struct textpoke_poke p;

		textpoke_site__poke(site, rc->real[i], &p);
		if (!i) {
			bool none = !p.old_len;

			rc__version_state(&sc, &v[0], v0 + off, v0_known + off, t ? t - 1 : 0,
					  none);
		}
		textpoke_site__version(site, rc->real[i] + 1, &t, cur, cur_known);
		v[i + 1].time = t;
		rc__version_state(&sc, &v[i + 1], cur + off, cur_known + off, t, !p.new_len);
		v[i + 1].verdict = text_image__verdict(rc->ti, p.addr, p.time);
		v[i + 1].changed = memcmp(cur + off, v0 + off, len) ||
				   memcmp(cur_known + off, v0_known + off, len);
		if ((unsigned int)v[i + 1].verdict < TEXTPOKE_VERDICT__MAX)
			pub->consistency.verdicts[v[i + 1].verdict]++;
		s->last_change = t;
	}
	s->kind = rc__kind(&sc, appears, sym_off, s->first_change);
	rc->nr_pool += nr_real + 1;
	pub->nr_sites++;
	return rc->err;
}

/* the recording's span as the pokes tell it; samples widen it */
static void rc__span(struct rc *rc, u64 time)
{
	if (!time)
		return;
	if (!rc->have_time || time < rc->pub.first_time)
		rc->pub.first_time = time;
	if (!rc->have_time || time > rc->pub.last_time)
		rc->pub.last_time = time;
	rc->have_time = true;
}

struct report_changes *report_changes__new(struct text_image *ti, struct machine *machine)
{
	struct rc *rc;
	size_t i;
	int err;

	if (!ti || !text_image__finished(ti)) {
		pr_err("code-change report: the text image is not finished\n");
		errno = EINVAL;
		return NULL;
	}
	rc = calloc(1, sizeof(*rc));
	if (!rc)
		goto out_nomem;
	rc->ti = ti;
	rc->probe = malloc(RC_REGION_PROBE);
	rc->probe_known = malloc(RC_REGION_PROBE);
	if (!rc->probe || !rc->probe_known)
		goto out_nomem;
	if (machine) {
		rc->kthread = machine__findnew_thread(machine, 0, 0);
		if (!rc->kthread)
			goto out_nomem;
	}
	err = rc__regions(rc, machine);
	if (err)
		goto out_err;
	err = textpoke_image__for_each_site(text_image__image(ti), rc__add_site, rc);
	if (err)
		goto out_err;
	rc->site_keys = calloc(rc->pub.nr_sites ?: 1, sizeof(*rc->site_keys));
	if (!rc->site_keys)
		goto out_nomem;
	for (i = 0; i < rc->pub.nr_sites; i++) {
		struct report_site *s = &rc->pub.sites[i];

		rc->site_keys[i].addr = s->addr;
		rc->site_keys[i].len = s->len;
		s->versions = rc->pool + (uintptr_t)s->versions;
		rc__span(rc, s->first_change);
		rc__span(rc, s->last_change);
	}
	err = addr_buckets__build(&rc->site_index, rc->site_keys, rc->pub.nr_sites,
				  sizeof(*rc->site_keys));
	if (err)
		goto out_err;
	for (i = 0; i < rc->pub.nr_regions; i++) {
		struct report_region *r = &rc->pub.regions[i];

		rc__span(rc, r->start);
		if (r->end != TIME_OPEN)
			rc__span(rc, r->end);
	}
	rc->pub.consistency.nr_unmapped = text_image__stats(ti)->nr_unmapped;
	rc->pub.consistency.nr_unmapped_module_space =
	    text_image__stats(ti)->nr_unmapped_module_space;
	return &rc->pub;

out_nomem:
	err = -ENOMEM;
out_err:
	pr_err("code-change report: %s\n", strerror(-err));
	report_changes__delete(rc ? &rc->pub : NULL);
	errno = -err;
	return NULL;
}

/* the index of the site holding @ip, or -1 */
static ssize_t rc__site_at(const struct rc *rc, u64 ip)
{
	const struct rc_site_key *k = rc->site_keys;
	size_t lo, hi, n, base;

	addr_buckets__range(&rc->site_index, ip, rc->pub.nr_sites, &lo, &hi);
	/* the keys at or below @ip are [0, lo + n) for some n in [0, hi - lo] */
	if (!hi)
		return -1;
	base = lo ? lo - 1 : 0;
	n = hi - base;
	/* the last key at or below @ip, without a branch to mispredict per step */
	while (n > 1) {
		size_t half = n / 2;

		base = k[base + half].addr <= ip ? base + half : base;
		n -= half;
	}
	if (k[base].addr > ip)
		return -1;
	return ip - k[base].addr < k[base].len ? (ssize_t)base : -1;
}

/*
 * The version in effect at @time: the last one that took effect at or
 * before it.  @cursor: where to look first, the last answer.
 */
static struct report_version *site__version_at(const struct report_site *s, u32 *cursor, u64 time)
{
	const struct report_version *v = s->versions;
	size_t c = *cursor, lo = 1, hi = s->nr_versions;

	/* in effect at @time: the last of the site's versions, or its successor came later */
	if (v[c].time <= time && (c + 1 == hi || v[c + 1].time > time))
		return &s->versions[c];
	if (c + 2 <= hi && v[c + 1].time <= time && (c + 2 == hi || v[c + 2].time > time)) {
		*cursor = c + 1;
		return &s->versions[c + 1];
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].time <= time)
			lo = mid + 1;
		else
			hi = mid;
	}
	*cursor = lo - 1;
	return &s->versions[lo - 1];
}

void report_changes__sample(struct report_changes *pub, u64 ip, u8 cpumode, u64 time)
{
	struct rc *rc = rc__of(pub);
	struct report_region *r;
	ssize_t i;

	rc__span(rc, time);
	if (cpumode != PERF_RECORD_MISC_KERNEL)
		return;
	pub->nr_kernel_samples++;
	i = rc__site_at(rc, ip);
	if (i >= 0) {
		struct report_site *s = &pub->sites[i];
		struct report_version *v = site__version_at(s, &rc->site_keys[i].cursor, time);

		v->nr_samples++;
		if (v->changed)
			s->nr_samples_changed++;
	}
	r = rc__region_at(rc, ip, time);
	if (r)
		r->nr_samples++;
}

/*
 * A parallel run: every worker made the same sites and regions, in the
 * same order, from the text image read before the workers began, so the
 * counts go by place.  What the samples count: the span of their times,
 * the kernel's, each site version's and each region's.
 */
struct rc_state_head {
	u64 first_time, last_time, nr_kernel_samples;
	u64 nr_sites, nr_regions;
	u32 have_time, pad;
};

int report_changes__send(struct report_changes *pub, FILE *fp)
{
	struct rc *rc = rc__of(pub);
	struct rc_state_head h = {
	    .first_time = pub->first_time,
	    .last_time = pub->last_time,
	    .nr_kernel_samples = pub->nr_kernel_samples,
	    .nr_sites = pub->nr_sites,
	    .nr_regions = pub->nr_regions,
	    .have_time = rc->have_time,
	};

	int err = worker_state__write(fp, &h, sizeof(h));

	for (size_t i = 0; i < pub->nr_sites && !err; i++) {
		const struct report_site *s = &pub->sites[i];

		err = worker_state__write(fp, &s->nr_samples_changed, sizeof(u64));
		for (size_t v = 0; v < s->nr_versions && !err; v++)
			err = worker_state__write(fp, &s->versions[v].nr_samples, sizeof(u64));
	}
	for (size_t i = 0; i < pub->nr_regions && !err; i++)
		err = worker_state__write(fp, &pub->regions[i].nr_samples, sizeof(u64));
	return err;
}

int report_changes__merge(struct report_changes *pub, FILE *fp)
{
	struct rc *rc = rc__of(pub);
	struct rc_state_head h;
	u64 n;

	if (worker_state__read(fp, &h, sizeof(h)))
		return -ENODATA;
	/* the same image, the same places: else the state is no state of this run */
	if (h.nr_sites != pub->nr_sites || h.nr_regions != pub->nr_regions)
		return -ENODATA;
	if (h.have_time) {
		rc__span(rc, h.first_time);
		rc__span(rc, h.last_time);
	}
	pub->nr_kernel_samples += h.nr_kernel_samples;
	for (size_t i = 0; i < pub->nr_sites; i++) {
		struct report_site *s = &pub->sites[i];

		if (worker_state__read(fp, &n, sizeof(n)))
			return -ENODATA;
		s->nr_samples_changed += n;
		for (size_t v = 0; v < s->nr_versions; v++) {
			if (worker_state__read(fp, &n, sizeof(n)))
				return -ENODATA;
			s->versions[v].nr_samples += n;
		}
	}
	for (size_t i = 0; i < pub->nr_regions; i++) {
		if (worker_state__read(fp, &n, sizeof(n)))
			return -ENODATA;
		pub->regions[i].nr_samples += n;
	}
	return 0;
}

static u64 overlap(u64 from, u64 to, u64 lo, u64 hi)
{
	if (from < lo)
		from = lo;
	if (to > hi)
		to = hi;
	return to > from ? to - from : 0;
}

static void rc__verdict(struct rc *rc)
{
	const struct text_image_stats *st = text_image__stats(rc->ti);
	struct report_consistency *c = &rc->pub.consistency;
	char line[512];
	size_t n = 0;

#define WHY(...)                                                                        \
	do {                                                                            \
		if (n < sizeof(line))                                                   \
			n += snprintf(line + n, sizeof(line) - n, "%s", n ? "; " : ""); \
		if (n < sizeof(line))                                                   \
			n += snprintf(line + n, sizeof(line) - n, __VA_ARGS__);         \
	} while (0)

	if (!st->base_path && !st->nr_base_segments)
		WHY("no kcore and no vmlinux: only poked bytes are known");
	if (c->verdicts[TEXTPOKE_MISMATCH])
		WHY("%zu poke%s mismatch: lost events or a wrong kcore",
		    c->verdicts[TEXTPOKE_MISMATCH], c->verdicts[TEXTPOKE_MISMATCH] == 1 ? "" : "s");
	if (c->nr_lost)
		WHY("%llu records lost", (unsigned long long)c->nr_lost);
	if (c->nr_unordered)
		WHY("%llu records out of time order", (unsigned long long)c->nr_unordered);
	if (c->truncated)
		WHY("the recording is cut off: what the kernel changed later is unknown");
	if (st->nr_pokes_failed)
		WHY("%llu pokes past the memory cap", (unsigned long long)st->nr_pokes_failed);
	if (st->nr_bpf_no_bytes)
		WHY("%llu BPF program%s without JIT bytes", (unsigned long long)st->nr_bpf_no_bytes,
		    st->nr_bpf_no_bytes == 1 ? "" : "s");
	if (st->nr_obj_unread)
		WHY("%llu kernel objects unreadable", (unsigned long long)st->nr_obj_unread);
	if (c->nr_unmapped > c->nr_unmapped_module_space) {
		size_t nr = c->nr_unmapped - c->nr_unmapped_module_space;

		WHY("%zu poke%s outside every map", nr, nr == 1 ? "" : "s");
	}
#undef WHY
	c->trusted = !n;
	if (c->trusted) {
		size_t total = 0, i;

		for (i = 0; i < TEXTPOKE_VERDICT__MAX; i++)
			total += c->verdicts[i];
		snprintf(line, sizeof(line), "trusted: %zu of %zu pokes verified, %zu pre-applied",
			 c->verdicts[TEXTPOKE_VERIFIED], total, c->verdicts[TEXTPOKE_PRE_APPLIED]);
		if (c->nr_lost_samples)
			snprintf(line + strlen(line), sizeof(line) - strlen(line),
				 " (%llu samples lost)", (unsigned long long)c->nr_lost_samples);
	}
	/*
	 * not a fault of the recording, but its code there is unknown: said
	 * whether trusted or not
	 */
	if (c->nr_unmapped_module_space) {
		size_t len = strlen(line);

		snprintf(line + len, sizeof(line) - len,
			 "; %zu poke%s in a module loaded while recording, whose code is unknown "
			 "(the recorder did not capture module loads)",
			 c->nr_unmapped_module_space, c->nr_unmapped_module_space == 1 ? "" : "s");
	}
	if (!c->trusted) {
		memmove(line + 13, line,
			strlen(line) + 1 < sizeof(line) - 13 ? strlen(line) + 1 :
							       sizeof(line) - 13);
		memcpy(line + 0, "not trusted: ", 13);
		line[sizeof(line) - 1] = '\0';
	}
	c->verdict = (char *)rc__strdup(rc, line);
}

int report_changes__finish(struct report_changes *pub, u64 nr_lost, u64 nr_lost_samples,
			   u64 nr_unordered)
{
	struct rc *rc = rc__of(pub);
	size_t i, j;

	pub->consistency.nr_lost = nr_lost;
	pub->consistency.nr_lost_samples = nr_lost_samples;
	pub->consistency.nr_unordered = nr_unordered;
	for (i = 0; i < pub->nr_sites; i++) {
		struct report_site *s = &pub->sites[i];

		for (j = 0; j < s->nr_versions; j++) {
			u64 from = j ? s->versions[j].time : 0;
			u64 to = j + 1 < s->nr_versions ? s->versions[j + 1].time : TIME_OPEN;

			s->versions[j].duration =
			    overlap(from, to, pub->first_time, pub->last_time);
		}
	}
	for (i = 0; i < pub->nr_regions; i++)
		rc__region_bytes(rc, &pub->regions[i]);
	rc__verdict(rc);
	return rc->err;
}

void report_changes__delete(struct report_changes *pub)
{
	struct rc *rc = rc__of(pub);

	if (!pub)
		return;
	while (rc->arena) {
		struct rc_chunk *next = rc->arena->next;

		free(rc->arena);
		rc->arena = next;
	}
	thread__put(rc->kthread);
	free(pub->sites);
	free(pub->regions);
	free(rc->pool);
	free(rc->by_addr);
	free(rc->reach);
	free(rc->reused_pool);
	free(rc->loads);
	free(rc->real);
	free(rc->scratch);
	free(rc->probe);
	free(rc->probe_known);
	free(rc->site_keys);
	addr_buckets__exit(&rc->site_index);
	free(rc);
}
