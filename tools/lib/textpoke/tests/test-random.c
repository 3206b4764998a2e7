// SPDX-License-Identifier: GPL-2.0-only
/*
 * libtextpoke against references, with fixed seeds:
 *
 *  - a simulated kernel: a text area whose bytes change poke by poke,
 *    snapshotted after each; the image built from a start copy, an end
 *    copy, a copy in the middle or nothing must give the true bytes back
 *    at every time, pokes added in order or shuffled;
 *  - a naive model of the documented rule, which replays every poke for
 *    every query, on pokes whose old bytes are random (inconsistent), with
 *    overlapping widths, equal times and bases of every anchor, queried
 *    in random order;
 *  - a view moving forward, which must equal read() at every step.
 */
#include "tp-test.h"

#define SIM_LEN 96    /* known from the start */
#define SIM_TRAMP 128 /* trampolines come and go at SIM_TRAMP + 0 / 32 */
#define SIM_SPAN 192
#define SIM_POKES 400

struct sim_poke {
	uint64_t time;
	uint64_t addr;
	uint16_t old_len, new_len;
	uint8_t old[32], new[32];
};

struct sim {
	struct sim_poke pokes[SIM_POKES];
	int nr;
	/* truth after poke i: val[i + 1], known[i + 1]; [0] is the start */
	uint8_t val[SIM_POKES + 1][SIM_SPAN];
	uint8_t known[SIM_POKES + 1][SIM_SPAN];
};

static const uint16_t sim_site_off[] = {0, 3, 5, 16, 17, 18, 40, 44, 60, 61, 62, 80};

static void sim_build(struct sim *sm, uint64_t seed)
{
	uint64_t rs = seed, time = 1000;
	uint8_t val[SIM_SPAN], known[SIM_SPAN];

	for (int i = 0; i < SIM_SPAN; i++) {
		val[i] = i < SIM_LEN ? (uint8_t)tp_rand(&rs) : 0;
		known[i] = i < SIM_LEN;
	}
	memcpy(sm->val[0], val, SIM_SPAN);
	memcpy(sm->known[0], known, SIM_SPAN);
	sm->nr = 0;
	while (sm->nr < SIM_POKES) {
		struct sim_poke *p = &sm->pokes[sm->nr];
		uint64_t r = tp_rand(&rs);
		unsigned int off, len;

		/* one in eight share the previous time: record order decides */
		if (r % 8)
			time += 1 + r % 50;
		p->time = time;
		r = tp_rand(&rs);
		if (r % 6 == 0) {
			/* the trampoline area: appear, patch inside, go away */
			off = SIM_TRAMP + (r & 8 ? 32 : 0);
			if (!known[off]) {
				p->old_len = 0;
				p->new_len = 24;
			} else if (r % 3 == 0) {
				p->old_len = 24;
				p->new_len = 0;
			} else {
				off += 4 + r % 8;
				p->old_len = p->new_len = 5;
			}
		} else {
			static const uint16_t widths[] = {1, 2, 5, 5, 5};

			off = sim_site_off[r % (sizeof(sim_site_off) / sizeof(sim_site_off[0]))];
			len = widths[(r >> 8) % 5];
			p->old_len = p->new_len = len;
		}
		p->addr = KADDR + off;
		for (unsigned int i = 0; i < p->old_len; i++)
			p->old[i] = val[off + i];
		for (unsigned int i = 0; i < p->new_len; i++)
			p->new[i] = (uint8_t)tp_rand(&rs);
		len = p->old_len > p->new_len ? p->old_len : p->new_len;
		for (unsigned int i = 0; i < len; i++) {
			known[off + i] = i < p->new_len;
			val[off + i] = i < p->new_len ? p->new[i] : 0;
		}
		sm->nr++;
		memcpy(sm->val[sm->nr], val, SIM_SPAN);
		memcpy(sm->known[sm->nr], known, SIM_SPAN);
	}
}

/* truth at @time: after every poke with time <= @time */
static int sim_version(const struct sim *sm, uint64_t time)
{
	int v = 0;

	while (v < sm->nr && sm->pokes[v].time <= time)
		v++;
	return v;
}

static int sim_compare(struct textpoke_image *img, const struct sim *sm, uint64_t time,
		       const uint8_t *poked, bool have_base)
{
	uint8_t buf[SIM_SPAN], known[SIM_SPAN];
	int v = sim_version(sm, time);
	int n = textpoke_image__read(img, KADDR, SIM_SPAN, time, buf, known);

	TP_CHECK(n >= 0);
	for (int i = 0; i < SIM_SPAN; i++) {
		/* without a base, bytes never poked cannot be known */
		int expect_known = sm->known[v][i] && (have_base || poked[i] || i >= SIM_LEN);

		if (known[i] != expect_known || (expect_known && buf[i] != sm->val[v][i])) {
			tp_test_log("byte +%d at %" PRIu64 " (v%d): got %02x/%d, truth %02x/%d\n",
				    i, time, v, buf[i], known[i], sm->val[v][i], sm->known[v][i]);
			return -1;
		}
	}
	return 0;
}

static int test_simulated_kernel(void)
{
	static struct sim sm;
	uint8_t poked[SIM_SPAN] = {0};

	sim_build(&sm, 0x5eed);
	for (int i = 0; i < sm.nr; i++) {
		unsigned int len = sm.pokes[i].old_len > sm.pokes[i].new_len ? sm.pokes[i].old_len :
									       sm.pokes[i].new_len;

		memset(poked + (sm.pokes[i].addr - KADDR), 1, len);
	}
	/* base: 0 none, 1 start, 2 end, 3 middle; then in order or shuffled */
	for (int variant = 0; variant < 8; variant++) {
		struct textpoke_base_opts opts = {.sz = sizeof(opts)};
		struct textpoke_image *img = textpoke_image__new(NULL);
		size_t counts[TEXTPOKE_VERDICT__MAX];
		int order[SIM_POKES], mid = sm.nr / 2, base = variant % 4;
		uint64_t rs = 77 + variant;

		TP_CHECK(img);
		for (int i = 0; i < sm.nr; i++)
			order[i] = i;
		if (variant >= 4) {
			for (int i = sm.nr - 1; i > 0; i--) {
				int j = tp_rand(&rs) % (i + 1), t = order[i];

				order[i] = order[j];
				order[j] = t;
			}
		}
		/* equal times keep their relative order, as the kernel emitted them */
		for (int i = 0; i < sm.nr; i++) {
			for (int j = i + 1; j < sm.nr; j++) {
				if (sm.pokes[order[i]].time == sm.pokes[order[j]].time &&
				    order[i] > order[j]) {
					int t = order[i];

					order[i] = order[j];
					order[j] = t;
				}
			}
		}
		if (base == 1) {
			opts.anchor = TEXTPOKE_ANCHOR_BEFORE;
			TP_CHECK_EQ(textpoke_image__add_base(img, KADDR, sm.val[0], SIM_LEN, &opts),
				    0);
		}
		for (int i = 0; i < sm.nr; i++) {
			const struct sim_poke *p = &sm.pokes[order[i]];

			TP_CHECK_EQ(textpoke_image__add_poke(img, p->time, p->addr, p->old,
							     p->old_len, p->new, p->new_len),
				    0);
			/* queries between adds exercise the in-order fast path */
			if (i % 37 == 0)
				TP_CHECK(textpoke_image__read(img, p->addr, 8, p->time,
							      (uint8_t[8]){0}, NULL) >= 0);
		}
		if (base == 2) {
			opts.anchor = TEXTPOKE_ANCHOR_AFTER;
			TP_CHECK_EQ(
			    textpoke_image__add_base(img, KADDR, sm.val[sm.nr], SIM_LEN, &opts), 0);
		} else if (base == 3) {
			/* a copy at the time of poke mid-1: later ones with that time are in */
			opts.anchor = TEXTPOKE_ANCHOR_AT;
			opts.time = sm.pokes[mid - 1].time;
			TP_CHECK_EQ(textpoke_image__add_base(img, KADDR,
							     sm.val[sim_version(&sm, opts.time)],
							     SIM_LEN, &opts),
				    0);
		}
		for (int i = 0; i < sm.nr; i++) {
			TP_CHECK(!sim_compare(img, &sm, sm.pokes[i].time - 1, poked, base));
			TP_CHECK(!sim_compare(img, &sm, sm.pokes[i].time, poked, base));
		}
		TP_CHECK(!sim_compare(img, &sm, 0, poked, base));
		TP_CHECK(!sim_compare(img, &sm, UINT64_MAX, poked, base));
		if (base == 0) {
			/* a copy taken at some time: the pokes say when */
			struct textpoke_anchor_fit fit;
			uint64_t t = sm.pokes[mid - 1].time;

			TP_CHECK_EQ(textpoke_image__fit_anchor(
					img, KADDR, sm.val[sim_version(&sm, t)], SIM_LEN, &fit),
				    0);
			TP_CHECK(fit.sites > 0);
			TP_CHECK_EQ(fit.agree, fit.sites);
			TP_CHECK(fit.from <= t && t < fit.to);
		}
		TP_CHECK_EQ(textpoke_image__count_verdicts(img, counts), 0);
		tp_test_log("    variant %d: %zu verified, %zu pre-applied, %zu unknown\n", variant,
			    counts[TEXTPOKE_VERIFIED], counts[TEXTPOKE_PRE_APPLIED],
			    counts[TEXTPOKE_UNKNOWN]);
		/* a consistent history has no mismatch, whatever the base */
		TP_CHECK_EQ(counts[TEXTPOKE_MISMATCH], 0);
		if (base == 1)
			TP_CHECK(counts[TEXTPOKE_VERIFIED] > (size_t)sm.nr * 3 / 4);
		textpoke_image__delete(img);
	}
	return 0;
}

/* ---- the naive model: the documented rule, replayed per query ---- */

#define MODEL_POKES 300
#define MODEL_MAX 1600 /* room in the model */
#define MODEL_BASES 6
#define MODEL_SPAN 128

struct model {
	struct sim_poke pokes[MODEL_MAX];
	int nr;
	struct {
		uint64_t addr, time;
		enum textpoke_anchor anchor;
		uint16_t len;
		uint8_t bytes[64];
	} bases[MODEL_BASES];
	int nr_bases;
};

/* pokes covering @abs in (time, record) order, into @cover; returns how many */
static int model_cover(const struct model *md, uint64_t abs, int *cover)
{
	int m = 0;

	for (int i = 0; i < md->nr; i++) {
		const struct sim_poke *p = &md->pokes[i];
		int len = p->old_len > p->new_len ? p->old_len : p->new_len;

		if (p->addr <= abs && abs < p->addr + len) {
			int j = m++;

			while (j > 0 && md->pokes[cover[j - 1]].time > p->time) {
				cover[j] = cover[j - 1];
				j--;
			}
			cover[j] = i;
		}
	}
	return m;
}

static int model_byte(const struct model *md, uint64_t abs, uint64_t time, uint8_t *val)
{
	int cover[MODEL_MAX], m = model_cover(md, abs, cover), seg = 0;

	while (seg < m && md->pokes[cover[seg]].time <= time)
		seg++;
	if (seg > 0) {
		const struct sim_poke *p = &md->pokes[cover[seg - 1]];

		if (abs - p->addr < p->new_len) {
			*val = p->new[abs - p->addr];
			return 1;
		}
		/* the poke took the byte away: nothing is there */
		return 0;
	}
	/* before the poke that brought the byte: nothing was there */
	if (m > 0 && abs - md->pokes[cover[0]].addr >= md->pokes[cover[0]].old_len)
		return 0;
	for (int b = md->nr_bases - 1; b >= 0; b--) {
		int bseg = 0;

		if (abs < md->bases[b].addr || abs >= md->bases[b].addr + md->bases[b].len)
			continue;
		if (md->bases[b].anchor == TEXTPOKE_ANCHOR_AFTER)
			bseg = m;
		else if (md->bases[b].anchor == TEXTPOKE_ANCHOR_AT)
			while (bseg < m && md->pokes[cover[bseg]].time <= md->bases[b].time)
				bseg++;
		if (bseg == seg) {
			*val = md->bases[b].bytes[abs - md->bases[b].addr];
			return 1;
		}
	}
	if (seg < m) {
		const struct sim_poke *p = &md->pokes[cover[seg]];

		if (abs - p->addr < p->old_len) {
			*val = p->old[abs - p->addr];
			return 1;
		}
	}
	return 0;
}

/*
 * @uniform: each site takes pokes of one width only, as jump labels and
 * static calls do (the uniform sites of site.c and check.c); the bases
 * still start and end anywhere, inside sites too
 */
static const uint16_t uniform_off[] = {2, 9, 20, 33, 47, 60, 70, 90};
static const uint16_t uniform_len[] = {5, 5, 2, 1, 5, 5, 2, 5};

static void model_build(struct model *md, uint64_t seed, bool uniform)
{
	uint64_t rs = seed;

	md->nr_bases = 1 + tp_rand(&rs) % 3;
	for (int b = 0; b < md->nr_bases; b++) {
		md->bases[b].addr = KADDR + tp_rand(&rs) % 64;
		md->bases[b].len = 16 + tp_rand(&rs) % 48;
		md->bases[b].anchor = tp_rand(&rs) % 3;
		md->bases[b].time = 1000 + tp_rand(&rs) % 3000;
		for (int i = 0; i < md->bases[b].len; i++)
			md->bases[b].bytes[i] = tp_rand(&rs) % (uniform ? 2 : 4);
	}
	md->nr = MODEL_POKES;
	for (int i = 0; i < md->nr; i++) {
		struct sim_poke *p = &md->pokes[i];
		uint64_t r = tp_rand(&rs);

		/* few distinct times, so that ties are common */
		p->time = 1000 + (r % 400) * 10;
		p->addr = KADDR + (r >> 16) % (MODEL_SPAN - 24);
		if (uniform) {
			size_t site = (r >> 16) % (sizeof(uniform_off) / sizeof(uniform_off[0]));

			p->addr = KADDR + uniform_off[site];
			p->old_len = p->new_len = uniform_len[site];
			/* a flip between two states, all 0s and all 1s: half the pokes verify */
			memset(p->old, (r >> 56) & 1, p->old_len);
			memset(p->new, !((r >> 56) & 1), p->new_len);
			continue;
		}
		switch ((r >> 32) % 8) {
		case 0:
			p->old_len = 0;
			p->new_len = 1 + (r >> 40) % 20;
			break;
		case 1:
			p->old_len = 1 + (r >> 40) % 20;
			p->new_len = 0;
			break;
		case 2:
			p->old_len = 1 + (r >> 40) % 8;
			p->new_len = 1 + (r >> 48) % 8;
			break;
		default:
			p->old_len = p->new_len = (r >> 40) % 2 ? 5 : 1 + (r >> 41) % 2;
		}
		for (int k = 0; k < p->old_len; k++)
			p->old[k] = tp_rand(&rs) % 4; /* small alphabet: some match */
		for (int k = 0; k < p->new_len; k++)
			p->new[k] = tp_rand(&rs) % 4;
	}
}

/* the base anchored in segment @seg of the byte at @abs (last added wins), or -1 */
static int model_segment_base(const struct model *md, uint64_t abs, const int *cover, int m,
			      int seg)
{
	for (int b = md->nr_bases - 1; b >= 0; b--) {
		int bseg = 0;

		if (abs < md->bases[b].addr || abs >= md->bases[b].addr + md->bases[b].len)
			continue;
		if (md->bases[b].anchor == TEXTPOKE_ANCHOR_AFTER)
			bseg = m;
		else if (md->bases[b].anchor == TEXTPOKE_ANCHOR_AT)
			while (bseg < m && md->pokes[cover[bseg]].time <= md->bases[b].time)
				bseg++;
		if (bseg == seg)
			return b;
	}
	return -1;
}

/* the documented verdict of poke @i, byte by byte */
static enum textpoke_verdict model_verdict(const struct model *md, int i)
{
	const struct sim_poke *p = &md->pokes[i];
	int cover[MODEL_MAX], all_old = 1, all_new = p->new_len > 0;

	for (int k = 0; k < (p->old_len > p->new_len ? p->old_len : p->new_len); k++) {
		uint64_t abs = p->addr + k;
		int m = model_cover(md, abs, cover), s = 0, b;

		while (cover[s] != i)
			s++;
		if (k < p->old_len) {
			const struct sim_poke *prev = s ? &md->pokes[cover[s - 1]] : NULL;
			int known = 1;
			uint8_t v = 0;

			if (prev && abs - prev->addr < prev->new_len)
				v = prev->new[abs - prev->addr];
			else if (prev)
				known = 0;
			else if ((b = model_segment_base(md, abs, cover, m, s)) >= 0)
				v = md->bases[b].bytes[abs - md->bases[b].addr];
			else
				known = 0;
			if (known && v != p->old[k])
				return TEXTPOKE_MISMATCH;
			all_old &= known;
		}
		if (k < p->new_len) {
			b = model_segment_base(md, abs, cover, m, s + 1);
			if (b >= 0 && md->bases[b].bytes[abs - md->bases[b].addr] != p->new[k])
				return TEXTPOKE_MISMATCH;
			all_new &= b >= 0;
		}
	}
	if (!p->old_len)
		return TEXTPOKE_UNKNOWN;
	if (all_old)
		return TEXTPOKE_VERIFIED;
	return all_new ? TEXTPOKE_PRE_APPLIED : TEXTPOKE_UNKNOWN;
}

/* a poke's identity and verdict, to compare the image's checks with the model's */
struct model_check {
	uint64_t addr, time;
	uint16_t old_len, new_len;
	uint8_t bytes[64];
	int verdict;
};

static int model_check_cmp(const void *a, const void *b)
{
	const struct model_check *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	if (x->old_len != y->old_len)
		return x->old_len - y->old_len;
	if (x->new_len != y->new_len)
		return x->new_len - y->new_len;
	if (memcmp(x->bytes, y->bytes, sizeof(x->bytes)))
		return memcmp(x->bytes, y->bytes, sizeof(x->bytes));
	return x->verdict - y->verdict;
}

struct model_checks {
	struct model_check c[MODEL_MAX];
	int nr;
};

static void model_check_fill(struct model_check *c, const struct textpoke_poke *p, int verdict)
{
	memset(c, 0, sizeof(*c));
	c->addr = p->addr;
	c->time = p->time;
	c->old_len = p->old_len;
	c->new_len = p->new_len;
	memcpy(c->bytes, p->old_bytes, p->old_len);
	memcpy(c->bytes + 32, p->new_bytes, p->new_len);
	c->verdict = verdict;
}

static int model_collect(const struct textpoke_check *check, void *arg)
{
	struct model_checks *mc = arg;

	if (mc->nr == MODEL_MAX)
		return -1;
	model_check_fill(&mc->c[mc->nr++], &check->poke, check->verdict);
	return 0;
}

static int model_compare_checks(struct textpoke_image *img, const struct model *md)
{
	static struct model_checks got, want;
	int counts[TEXTPOKE_VERDICT__MAX] = {0};

	got.nr = 0;
	TP_CHECK_EQ(textpoke_image__for_each_check(img, model_collect, &got), 0);
	TP_CHECK_EQ(got.nr, md->nr);
	for (int i = 0; i < md->nr; i++) {
		const struct sim_poke *p = &md->pokes[i];
		struct textpoke_poke tp = {
		    .time = p->time,
		    .addr = p->addr,
		    .old_bytes = p->old,
		    .new_bytes = p->new,
		    .old_len = p->old_len,
		    .new_len = p->new_len,
		};

		model_check_fill(&want.c[i], &tp, model_verdict(md, i));
	}
	qsort(got.c, got.nr, sizeof(got.c[0]), model_check_cmp);
	qsort(want.c, md->nr, sizeof(want.c[0]), model_check_cmp);
	for (int i = 0; i < md->nr; i++) {
		counts[want.c[i].verdict]++;
		/* sorted with the verdict last, so identical pokes pair up too */
		if (model_check_cmp(&got.c[i], &want.c[i])) {
			tp_test_log("poke at %#" PRIx64 ", %" PRIu64 ": %s, model says %s\n",
				    got.c[i].addr, got.c[i].time,
				    textpoke_verdict__str(got.c[i].verdict),
				    textpoke_verdict__str(want.c[i].verdict));
			return -1;
		}
	}
	tp_test_log("    verdicts: %d verified, %d pre-applied, %d mismatch, %d unknown\n",
		    counts[TEXTPOKE_VERIFIED], counts[TEXTPOKE_PRE_APPLIED],
		    counts[TEXTPOKE_MISMATCH], counts[TEXTPOKE_UNKNOWN]);
	return 0;
}

static int test_random_against_model(void)
{
	static struct model md;

	/* seeds 7 to 12: uniform sites */
	for (uint64_t seed = 1; seed <= 12; seed++) {
		struct textpoke_image *img = textpoke_image__new(NULL);
		uint64_t rs = seed * 7919;
		int bases_at = tp_rand(&rs) % (MODEL_POKES + 1);

		TP_CHECK(img);
		model_build(&md, seed, seed > 6);
		/* adds in random time order, the bases somewhere in between */
		for (int i = 0; i <= md.nr; i++) {
			if (i == bases_at) {
				for (int b = 0; b < md.nr_bases; b++) {
					struct textpoke_base_opts o = {
					    .sz = sizeof(o),
					    .anchor = md.bases[b].anchor,
					    .time = md.bases[b].time,
					};

					TP_CHECK_EQ(textpoke_image__add_base(img, md.bases[b].addr,
									     md.bases[b].bytes,
									     md.bases[b].len, &o),
						    0);
				}
			}
			if (i == md.nr)
				break;
			TP_CHECK_EQ(textpoke_image__add_poke(
					img, md.pokes[i].time, md.pokes[i].addr, md.pokes[i].old,
					md.pokes[i].old_len, md.pokes[i].new, md.pokes[i].new_len),
				    0);
		}
		/* queries in random order of time and address */
		for (int q = 0; q < 3000; q++) {
			uint64_t r = tp_rand(&rs), addr = KADDR - 4 + r % (MODEL_SPAN + 8);
			uint64_t time = 990 + (r >> 16) % 4030;
			size_t len = 1 + (r >> 32) % 16;
			uint8_t buf[16], known[16], val;

			TP_CHECK(textpoke_image__read(img, addr, len, time, buf, known) >= 0);
			for (size_t i = 0; i < len; i++) {
				int k = model_byte(&md, addr + i, time, &val);

				if (known[i] != k || (k && buf[i] != val)) {
					tp_test_log("seed %" PRIu64 ": byte %#" PRIx64
						    " at %" PRIu64 ": got %02x/%d, model %02x/%d\n",
						    seed, addr + i, time, buf[i], known[i], val, k);
					return -1;
				}
			}
		}
		TP_CHECK(!model_compare_checks(img, &md));
		textpoke_image__delete(img);
	}
	return 0;
}

/*
 * Everything interleaved, as a consumer would: pokes in and out of order,
 * many flips of the same sites (the fast path), sites enough for the page
 * index, bases added late, reads, a view, exports and verdicts, each
 * checked against the model as it stands at that step.
 */
#define IL_SITES 400
#define IL_STRIDE 64

static int il_read_check(struct textpoke_image *img, const struct model *md, uint64_t addr,
			 size_t len, uint64_t time, struct textpoke_view *view)
{
	uint8_t buf[16], known[16], val = 0;
	int n = view ? textpoke_view__read(view, addr, len, buf, known) :
		       textpoke_image__read(img, addr, len, time, buf, known);

	TP_CHECK(n >= 0);
	for (size_t i = 0; i < len; i++) {
		int k = model_byte(md, addr + i, time, &val);

		if (known[i] != k || (k && buf[i] != val)) {
			tp_test_log("%s: byte %#" PRIx64 " at %" PRIu64 ": got %02x/%d, model "
				    "%02x/%d (%d pokes)\n",
				    view ? "view" : "read", addr + i, time, buf[i], known[i], val,
				    k, md->nr);
			return -1;
		}
	}
	return 0;
}

struct il_export {
	const struct model *md;
	uint64_t time;
	int bad;
	size_t bytes;
};

static int il_export_check(uint64_t addr, const uint8_t *bytes, size_t len, void *arg)
{
	struct il_export *x = arg;
	uint8_t val;

	for (size_t i = 0; i < len; i++) {
		if (!model_byte(x->md, addr + i, x->time, &val) || val != bytes[i])
			x->bad++;
	}
	x->bytes += len;
	return 0;
}

static int test_interleaved_against_model(void)
{
	static struct model md;

	/* the last seed keeps no versions: every read computes its bytes */
	for (uint64_t seed = 11; seed <= 14; seed++) {
		struct textpoke_image_opts opts = {.sz = sizeof(opts),
						   .max_site_bytes = seed == 14 ? 1 : 0};
		struct textpoke_image *img = textpoke_image__new(&opts);
		struct textpoke_view *view = textpoke_view__new(img, 0);
		uint64_t rs = seed, clock = 1000, span = IL_SITES * IL_STRIDE;

		TP_CHECK(img && view);
		md.nr = md.nr_bases = 0;
		for (int op = 0; op < 4000; op++) {
			uint64_t r = tp_rand(&rs), what = r % 100;

			if (what < 45 && md.nr < MODEL_MAX) {
				struct sim_poke *p = &md.pokes[md.nr];
				uint64_t r2 = tp_rand(&rs);

				/* mostly forward in time, sometimes late, often the same time */
				if (r2 % 10 == 0)
					p->time = clock - r2 % 500;
				else
					p->time = clock += (r2 >> 8) % 3;
				if ((r2 >> 16) % 4) {
					/* a 5-byte flip at a grid site */
					p->addr = KADDR + (r2 >> 20) % IL_SITES * IL_STRIDE;
					p->old_len = p->new_len = 5;
				} else {
					p->addr = KADDR + (r2 >> 20) % span;
					p->old_len = (r2 >> 40) % 9;
					p->new_len = (r2 >> 44) % 9;
					if (!p->old_len && !p->new_len)
						p->new_len = 1;
				}
				for (int k = 0; k < p->old_len; k++)
					p->old[k] = tp_rand(&rs) % 3;
				for (int k = 0; k < p->new_len; k++)
					p->new[k] = tp_rand(&rs) % 3;
				TP_CHECK_EQ(textpoke_image__add_poke(img, p->time, p->addr, p->old,
								     p->old_len, p->new,
								     p->new_len),
					    0);
				md.nr++;
			} else if (what < 47 && md.nr_bases < MODEL_BASES) {
				int b = md.nr_bases++;
				struct textpoke_base_opts o = {.sz = sizeof(o)};

				md.bases[b].addr = KADDR + tp_rand(&rs) % span;
				md.bases[b].len = 1 + tp_rand(&rs) % 64;
				md.bases[b].anchor = o.anchor = tp_rand(&rs) % 3;
				md.bases[b].time = o.time = clock - tp_rand(&rs) % 300;
				for (int i = 0; i < md.bases[b].len; i++)
					md.bases[b].bytes[i] = tp_rand(&rs) % 3;
				TP_CHECK_EQ(textpoke_image__add_base(img, md.bases[b].addr,
								     md.bases[b].bytes,
								     md.bases[b].len, &o),
					    0);
			} else if (what < 85) {
				uint64_t addr = KADDR - 8 + (r >> 8) % (span + 16);

				TP_CHECK(!il_read_check(img, &md, addr, 1 + (r >> 40) % 16,
							clock - (r >> 48) % 600, NULL));
			} else if (what < 97) {
				uint64_t addr = KADDR + (r >> 8) % span;

				if (textpoke_view__time(view) < clock - 100)
					TP_CHECK_EQ(textpoke_view__advance(view, clock - 100), 0);
				TP_CHECK(!il_read_check(img, &md, addr, 1 + (r >> 40) % 16,
							textpoke_view__time(view), view));
			} else if (what < 99) {
				struct il_export x = {.md = &md, .time = clock - (r >> 8) % 600};

				static uint8_t buf[IL_SITES * IL_STRIDE + 256];
				int known;

				TP_CHECK_EQ(
				    textpoke_image__export(img, x.time, il_export_check, &x), 0);
				TP_CHECK_EQ(x.bad, 0);
				/* and nothing left out: as many bytes as a read of it all knows */
				known = textpoke_image__read(img, KADDR - 64, sizeof(buf), x.time,
							     buf, NULL);
				TP_CHECK_EQ(x.bytes, known);
			} else if (md.nr) {
				TP_CHECK(!model_compare_checks(img, &md));
			}
		}
		tp_test_log("    seed %" PRIu64 ": %d pokes, %zu sites, %d bases\n", seed, md.nr,
			    textpoke_image__nr_sites(img), md.nr_bases);
		TP_CHECK(!model_compare_checks(img, &md));
		textpoke_view__delete(view);
		textpoke_image__delete(img);
	}
	return 0;
}

/* the live view, pokes arriving as it moves like in perf script */
static int test_view_equals_read(void)
{
	static struct sim sm;
	struct textpoke_image *img = textpoke_image__new(NULL);
	struct textpoke_view *view;
	uint64_t rs = 4242;
	int next = 0;

	TP_CHECK(img);
	sim_build(&sm, 0xfeed);
	TP_CHECK_EQ(textpoke_image__add_base(img, KADDR, sm.val[0], SIM_LEN, NULL), 0);
	view = textpoke_view__new(img, 0);
	TP_CHECK(view);
	/* add half up front; the rest arrive just before the view reaches them */
	for (; next < sm.nr / 2; next++)
		TP_CHECK_EQ(textpoke_image__add_poke(img, sm.pokes[next].time, sm.pokes[next].addr,
						     sm.pokes[next].old, sm.pokes[next].old_len,
						     sm.pokes[next].new, sm.pokes[next].new_len),
			    0);
	for (uint64_t t = 900; t < sm.pokes[sm.nr - 1].time + 20; t += 1 + tp_rand(&rs) % 7) {
		TP_CHECK_EQ(textpoke_view__advance(view, t), 0);
		while (next < sm.nr && sm.pokes[next].time <= t + 5) {
			TP_CHECK_EQ(
			    textpoke_image__add_poke(img, sm.pokes[next].time, sm.pokes[next].addr,
						     sm.pokes[next].old, sm.pokes[next].old_len,
						     sm.pokes[next].new, sm.pokes[next].new_len),
			    0);
			next++;
		}
		for (int q = 0; q < 4; q++) {
			uint64_t addr = KADDR + tp_rand(&rs) % SIM_SPAN;
			uint8_t b1[16], k1[16], b2[16], k2[16];
			int n1 = textpoke_view__read(view, addr, 16, b1, k1);
			int n2 = textpoke_image__read(img, addr, 16, t, b2, k2);

			TP_CHECK(n1 >= 0);
			TP_CHECK_EQ(n1, n2);
			TP_CHECK(!memcmp(b1, b2, 16) && !memcmp(k1, k2, 16));
		}
		TP_CHECK(!sim_compare(img, &sm, t, (uint8_t[SIM_SPAN]){0}, true));
	}
	TP_CHECK_EQ(textpoke_view__time(view) >= sm.pokes[sm.nr - 1].time, 1);
	TP_CHECK_EQ(textpoke_view__advance(view, 10), -22);
	textpoke_view__delete(view);
	textpoke_image__delete(img);
	return 0;
}

static int view_matches(struct textpoke_view *view, struct textpoke_image *img, uint64_t addr,
			size_t len)
{
	uint8_t b1[32], k1[32], b2[32], k2[32];
	int n1 = textpoke_view__read(view, addr, len, b1, k1);
	int n2 = textpoke_image__read(img, addr, len, textpoke_view__time(view), b2, k2);

	TP_CHECK(n1 >= 0);
	TP_CHECK_EQ(n1, n2);
	TP_CHECK(!memcmp(b1, b2, len) && !memcmp(k1, k2, len));
	return 0;
}

/* pokes that arrive after the view passed their time: in site order, out of it, merging */
static int test_view_late_pokes(void)
{
	struct textpoke_image *img = textpoke_image__new(NULL);
	struct textpoke_view *view;
	const uint8_t a[8] = {1, 2, 3, 4, 5, 6, 7, 8}, b[8] = {9, 9, 9, 9, 9, 9, 9, 9};

	TP_CHECK(img);
	TP_CHECK_EQ(textpoke_image__add_poke(img, 100, KADDR, NOP5, 5, JMP5, 5), 0);
	TP_CHECK_EQ(textpoke_image__add_poke(img, 200, KADDR, JMP5, 5, NOP5, 5), 0);
	view = textpoke_view__new(img, 1000);
	TP_CHECK(view);
	TP_CHECK(!view_matches(view, img, KADDR - 4, 16));
	/* newest of its site, but behind the view */
	TP_CHECK_EQ(textpoke_image__add_poke(img, 500, KADDR, NOP5, 5, a, 5), 0);
	TP_CHECK(!view_matches(view, img, KADDR - 4, 16));
	/* out of order within the site */
	TP_CHECK_EQ(textpoke_image__add_poke(img, 300, KADDR + 1, NOP5 + 1, 2, b, 2), 0);
	TP_CHECK(!view_matches(view, img, KADDR - 4, 16));
	/* a poke joining it with a new neighbour, behind the view, then ahead of it */
	TP_CHECK_EQ(textpoke_image__add_poke(img, 50, KADDR + 8, NOP5, 5, JMP5, 5), 0);
	TP_CHECK_EQ(textpoke_image__add_poke(img, 600, KADDR + 3, a, 8, b, 8), 0);
	TP_CHECK(!view_matches(view, img, KADDR - 4, 20));
	TP_CHECK_EQ(textpoke_image__add_poke(img, 2000, KADDR + 3, b, 8, a, 8), 0);
	TP_CHECK(!view_matches(view, img, KADDR - 4, 20));
	TP_CHECK_EQ(textpoke_view__advance(view, 2000), 0);
	TP_CHECK(!view_matches(view, img, KADDR - 4, 20));
	textpoke_view__delete(view);
	textpoke_image__delete(img);
	return 0;
}

/*
 * Many sites, so that reads go through the page index once the sites
 * stop changing: every site flips nop/jmp, some straddle a page; then
 * new sites arrive between the old ones and the index must follow.
 */
#define MANY_SITES 1500
#define MANY_STRIDE 100 /* 4096 % 100 != 0: some sites cross a page */

static int many_expect(uint64_t off, uint64_t time, uint64_t new_from, uint8_t *val)
{
	uint64_t site = off / MANY_STRIDE, in = off % MANY_STRIDE;
	const uint8_t *code;
	uint64_t flips;

	if (site >= MANY_SITES)
		return 0;
	if (in < 5) {
		/* site k is poked at 1000 + k, then every 1000 + k + 2000 * j */
		if (time < 1000 + site)
			flips = 0;
		else
			flips = 1 + (time - 1000 - site) / 2000;
		if (flips > 3)
			flips = 3;
		code = flips % 2 ? JMP5 : NOP5;
		*val = code[in];
		return 1;
	}
	/* the new sites, from site new_from on */
	if (site >= new_from && in >= 50 && in < 52) {
		*val = time < 9000 ? 0xcc : in == 50 ? 0x66 : 0x90;
		return 1;
	}
	return 0;
}

static int many_reads(struct textpoke_image *img, uint64_t *rs, uint64_t new_from, int nr)
{
	for (int q = 0; q < nr; q++) {
		uint64_t r = tp_rand(rs), off = r % (MANY_SITES * MANY_STRIDE + 64);
		uint64_t time = 990 + (r >> 24) % 9000;
		size_t len = 1 + (r >> 48) % 16;
		uint8_t buf[16], known[16], val = 0;

		TP_CHECK(textpoke_image__read(img, KADDR + off, len, time, buf, known) >= 0);
		for (size_t i = 0; i < len; i++) {
			int k = many_expect(off + i, time, new_from, &val);

			if (known[i] != k || (k && buf[i] != val)) {
				tp_test_log("+%#" PRIx64 " at %" PRIu64 ": got %02x/%d, expected "
					    "%02x/%d\n",
					    off + i, time, buf[i], known[i], val, k);
				return -1;
			}
		}
	}
	return 0;
}

static int test_many_sites(void)
{
	struct textpoke_image *img = textpoke_image__new(NULL);
	uint64_t rs = 31337;

	TP_CHECK(img);
	for (int j = 0; j < 3; j++) {
		for (int k = 0; k < MANY_SITES; k++) {
			/* first round in a scrambled address order: the pending sites */
			int site = j ? k : (k * 7919) % MANY_SITES;

			TP_CHECK_EQ(textpoke_image__add_poke(img, 1000 + site + 2000 * j,
							     KADDR + (uint64_t)site * MANY_STRIDE,
							     j % 2 ? JMP5 : NOP5, 5,
							     j % 2 ? NOP5 : JMP5, 5),
				    0);
		}
	}
	TP_CHECK_EQ(textpoke_image__nr_sites(img), MANY_SITES);
	TP_CHECK(!many_reads(img, &rs, MANY_SITES, 3 * MANY_SITES));
	/* new sites between the old ones: an int3 that became a 2-byte nop */
	for (int k = MANY_SITES - 1; k >= 0; k--) {
		const uint8_t old[2] = {0xcc, 0xcc}, new[2] = {0x66, 0x90};

		TP_CHECK_EQ(textpoke_image__add_poke(
				img, 9000, KADDR + (uint64_t)k * MANY_STRIDE + 50, old, 2, new, 2),
			    0);
		if (k % 100 == 0)
			TP_CHECK(!many_reads(img, &rs, k, 50));
	}
	TP_CHECK(!many_reads(img, &rs, 0, 3 * MANY_SITES));
	textpoke_image__delete(img);
	return 0;
}

static int tp_tests__random(void)
{
	TP_RUN(test_simulated_kernel);
	TP_RUN(test_random_against_model);
	TP_RUN(test_interleaved_against_model);
	TP_RUN(test_view_equals_read);
	TP_RUN(test_view_late_pokes);
	TP_RUN(test_many_sites);
	return 0;
}
