// SPDX-License-Identifier: GPL-2.0-only
/*
 * libtextpoke: textpoke_image__read_batch() answers exactly as single
 * reads do.  Random histories (with fixed seeds) of many sites over a few
 * pages: pokes of every width, overlapping ones that join sites, old_len 0
 * and new_len 0, equal times, pokes out of time and address order, bases
 * anchored before, at a time and after, with gaps (unknown bytes).  Then
 * batches of random reads (short and long, within and across pages and
 * sites, at poke times, outside the history, invalid ones) whose every
 * answer is compared with textpoke_image__read() of the same query:
 * before the page index exists and after, with sites left dirty by late
 * pokes and bases, with sites too large to keep versions, under a
 * memory cap.
 */
#include <errno.h>

#include "tp-test.h"

#define BATCH_SPAN (16 * 4096) /* the text the histories poke */
#define BATCH_QUERIES 3000
#define BATCH_MAXLEN 200

static const uint8_t batch_pattern[8] = {0xa5, 0x5a, 0xc3, 0x3c, 0x96, 0x69, 0xf0, 0x0f};

struct batch_hist {
	uint64_t site[1024]; /* offsets of the sites' first pokes */
	int nr_sites;
	uint64_t time;
	uint64_t rs;
};

/* One poke at a random site: mostly 5-byte flips, sometimes odd widths and overlaps */
static int batch_poke(struct textpoke_image *img, struct batch_hist *h, bool out_of_order)
{
	uint8_t old[24], new[24];
	uint64_t r = tp_rand(&h->rs), off = h->site[r % h->nr_sites], time;
	size_t old_len = 5, new_len = 5;

	switch ((r >> 16) % 16) {
	case 0:
		old_len = 0;
		new_len = 1 + (r >> 24) % 20;
		break;
	case 1:
		old_len = 1 + (r >> 24) % 20;
		new_len = 0;
		break;
	case 2:
		old_len = 1 + (r >> 24) % 6;
		new_len = 1 + (r >> 32) % 6;
		break;
	case 3:
		/* into the middle of the site or past its end: joins */
		off += 1 + (r >> 24) % 6;
		old_len = new_len = 1 + (r >> 32) % 2;
		break;
	default:
		break;
	}
	for (size_t i = 0; i < sizeof(old); i++) {
		old[i] = (uint8_t)tp_rand(&h->rs);
		new[i] = (uint8_t)tp_rand(&h->rs) | 0x80;
	}
	/* one in eight at the previous time: record order decides */
	if ((r >> 40) % 8)
		h->time += 1 + (r >> 44) % 5;
	time = h->time;
	if (out_of_order)
		time = 1000 + (r >> 44) % (h->time - 999);
	return textpoke_image__add_poke(img, time, KADDR + off, old, old_len, new, new_len);
}

static void batch_base(struct textpoke_image *img, struct batch_hist *h, uint8_t *bytes, size_t len)
{
	struct textpoke_base_opts opts = {.sz = sizeof(opts)};
	uint64_t r = tp_rand(&h->rs);
	uint64_t off = r % (BATCH_SPAN - len);

	opts.anchor = (r >> 32) % 3;
	opts.time = 1000 + (r >> 36) % (h->time - 999);
	for (size_t i = 0; i < len; i++)
		bytes[i] = (uint8_t)tp_rand(&h->rs) & 0x7f;
	textpoke_image__add_base(img, KADDR + off, bytes, len, &opts);
}

static void batch_hist_init(struct batch_hist *h, uint64_t seed, int nr_sites)
{
	h->rs = seed;
	h->time = 1000;
	h->nr_sites = nr_sites;
	/* in scrambled address order, some on the same page, a few 1 byte apart */
	for (int i = 0; i < nr_sites; i++) {
		uint64_t r = tp_rand(&h->rs);

		h->site[i] = r % (BATCH_SPAN - 64);
		if (i && r % 13 == 0)
			h->site[i] = h->site[i - 1] + 6;
	}
}

static void batch_query(struct batch_hist *h, struct textpoke_query *q, uint64_t max_time,
			uint8_t *mem)
{
	uint64_t r = tp_rand(&h->rs), r2 = tp_rand(&h->rs);
	static const size_t lens[] = {1, 2, 5, 8, 16, 16, 16, 16, 64, 65, 100, BATCH_MAXLEN};

	q->len = lens[r % (sizeof(lens) / sizeof(lens[0]))];
	/* near a site, anywhere in the span, or around a page boundary */
	switch ((r >> 8) % 4) {
	case 0:
	case 1:
		q->addr = KADDR + h->site[(r >> 16) % h->nr_sites] - (r >> 40) % 12;
		break;
	case 2:
		q->addr = KADDR + (r >> 16) % (BATCH_SPAN + 4096) - 2048;
		break;
	default:
		q->addr = KADDR + 4096 * ((r >> 16) % 17) - (r >> 40) % 24;
	}
	switch ((r2 >> 8) % 8) {
	case 0:
		q->time = 0;
		break;
	case 1:
		q->time = UINT64_MAX;
		break;
	default:
		q->time = 990 + (r2 >> 16) % (max_time - 980);
	}
	q->buf = mem;
	q->known = (r2 >> 4) % 5 ? mem + BATCH_MAXLEN : NULL;
	/* rarely: nothing to read, nowhere to put it, past the end of the address space */
	switch ((r2 >> 48) % 64) {
	case 0:
		q->len = 0;
		break;
	case 1:
		q->buf = NULL;
		break;
	case 2:
		q->addr = UINT64_MAX - 3;
		break;
	default:
		break;
	}
	memcpy(mem, batch_pattern, sizeof(batch_pattern));
	memcpy(mem + BATCH_MAXLEN, batch_pattern, sizeof(batch_pattern));
}

/* @n random queries as one batch (in pieces of random size), each compared with a single read */
static int batch_compare(struct textpoke_image *img, struct batch_hist *h, int n)
{
	static struct textpoke_query q[BATCH_QUERIES];
	static uint8_t mem[BATCH_QUERIES][2 * BATCH_MAXLEN];
	uint8_t buf[BATCH_MAXLEN], known[BATCH_MAXLEN];
	int fast = 0;

	TP_CHECK(n <= BATCH_QUERIES);
	for (int i = 0; i < n; i++)
		batch_query(h, &q[i], h->time + 10, mem[i]);
	for (int i = 0; i < n;) {
		int m = 1 + tp_rand(&h->rs) % 300;

		if (m > n - i)
			m = n - i;
		TP_CHECK_EQ(textpoke_image__read_batch(img, q + i, m), 0);
		i += m;
	}
	for (int i = 0; i < n; i++) {
		const struct textpoke_query *qi = &q[i];
		void *b = qi->buf ? buf : NULL;
		uint8_t *k = qi->known ? known : NULL;
		int ret = textpoke_image__read(img, qi->addr, qi->len, qi->time, b, k);

		if (ret != qi->ret) {
			tp_test_log("query %d %#" PRIx64 "+%zu at %" PRIu64
				    ": batch %d, single %d\n",
				    i, qi->addr, qi->len, qi->time, qi->ret, ret);
			return -1;
		}
		if (ret < 0 || !qi->buf)
			continue;
		fast += qi->len <= 64;
		if (memcmp(buf, qi->buf, qi->len) || (k && memcmp(known, qi->known, qi->len))) {
			tp_test_log("query %d %#" PRIx64 "+%zu at %" PRIu64 ": bytes differ\n", i,
				    qi->addr, qi->len, qi->time);
			return -1;
		}
	}
	TP_CHECK(fast > n / 2);
	return 0;
}

static int batch_history(uint64_t seed, int nr_sites, size_t max_site_bytes)
{
	struct textpoke_image_opts opts = {.sz = sizeof(opts), .max_site_bytes = max_site_bytes};
	static uint8_t bases[4][8192];
	struct textpoke_image *img = textpoke_image__new(&opts);
	struct batch_hist h;
	int err;

	TP_CHECK(img);
	batch_hist_init(&h, seed, nr_sites);
	for (int i = 0; i < 20 * nr_sites; i++) {
		err = batch_poke(img, &h, false);
		/* a poke joining more than 64 sites is refused: not the point here */
		TP_CHECK(!err || err == -E2BIG);
	}
	batch_base(img, &h, bases[0], sizeof(bases[0]));
	batch_base(img, &h, bases[1], 512);
	tp_test_log("    seed %" PRIu64 ": %zu sites, %zu pokes\n", seed,
		    textpoke_image__nr_sites(img), textpoke_image__nr_pokes(img));
	/* every site dirty, no page index yet */
	TP_CHECK(!batch_compare(img, &h, 500));
	/* enough reads for the page index */
	TP_CHECK(!batch_compare(img, &h, BATCH_QUERIES));
	TP_CHECK(!batch_compare(img, &h, BATCH_QUERIES));
	/* late pokes, out of time order, and a late base: dirty sites again */
	for (int i = 0; i < nr_sites; i++) {
		err = batch_poke(img, &h, i % 3 == 0);
		TP_CHECK(!err || err == -E2BIG);
	}
	batch_base(img, &h, bases[2], 4096);
	TP_CHECK(!batch_compare(img, &h, BATCH_QUERIES));
	/* new sites out of address order: the pending sites */
	for (int i = 0; i < 40; i++) {
		const uint64_t off = BATCH_SPAN - 64 - 16 * i;

		TP_CHECK_EQ(
		    textpoke_image__add_poke(img, h.time + i, KADDR + off, NOP5, 5, JMP5, 5), 0);
	}
	batch_base(img, &h, bases[3], 64);
	TP_CHECK(!batch_compare(img, &h, BATCH_QUERIES));
	textpoke_image__delete(img);
	return 0;
}

static int test_batch_equals_read(void)
{
	/* few sites: binary search; many: the page index; tiny max_site_bytes: huge sites */
	TP_CHECK(!batch_history(1, 40, 0));
	TP_CHECK(!batch_history(2, 600, 0));
	TP_CHECK(!batch_history(3, 1000, 0));
	TP_CHECK(!batch_history(4, 600, 64));
	return 0;
}

/* A known answer: the batch gives the truth, not merely what read() says */
static int test_batch_known_answer(void)
{
	struct textpoke_image *img = textpoke_image__new(NULL);
	uint8_t text[64], out[4][16], known[4][16];
	struct textpoke_query q[4];

	TP_CHECK(img);
	memset(text, 0x90, sizeof(text));
	memcpy(text + 16, NOP5, 5);
	TP_CHECK_EQ(textpoke_image__add_base(img, KADDR, text, sizeof(text), NULL), 0);
	TP_CHECK_EQ(textpoke_image__add_poke(img, 100, KADDR + 16, NOP5, 5, JMP5, 5), 0);
	TP_CHECK_EQ(textpoke_image__add_poke(img, 200, KADDR + 16, JMP5, 5, NOP5, 5), 0);
	for (int i = 0; i < 4; i++) {
		q[i].addr = KADDR + 14;
		q[i].len = 16;
		q[i].time = 50 + 75 * i; /* 50, 125, 200, 275 */
		q[i].buf = out[i];
		q[i].known = known[i];
	}
	q[3].addr = KADDR + 56; /* 8 bytes of text, 8 unknown */
	TP_CHECK_EQ(textpoke_image__read_batch(img, q, 4), 0);
	TP_CHECK_EQ(q[0].ret, 16);
	TP_CHECK(!memcmp(out[0] + 2, NOP5, 5));
	TP_CHECK(!memcmp(out[1] + 2, JMP5, 5));
	TP_CHECK(!memcmp(out[2] + 2, NOP5, 5));
	TP_CHECK_EQ(out[1][0], 0x90);
	TP_CHECK_EQ(q[3].ret, 8);
	TP_CHECK(known[3][7] == 1 && known[3][8] == 0 && out[3][8] == 0);
	/* bad arguments */
	TP_CHECK_EQ(textpoke_image__read_batch(NULL, q, 1), -EINVAL);
	TP_CHECK_EQ(textpoke_image__read_batch(img, NULL, 1), -EINVAL);
	TP_CHECK_EQ(textpoke_image__read_batch(img, NULL, 0), 0);
	q[0].buf = NULL;
	q[1].addr = UINT64_MAX - 1;
	TP_CHECK_EQ(textpoke_image__read_batch(img, q, 2), 0);
	TP_CHECK_EQ(q[0].ret, -EINVAL);
	TP_CHECK_EQ(q[1].ret, -EINVAL);
	textpoke_image__delete(img);
	return 0;
}

/*
 * 600 sites, 64 bytes apart over ten pages, each a nop5 flipped to a jmp at
 * time 100 + i: at time 400 sites 0..300 hold the jmp.  Four batches of
 * one read per site; from the second on the page index answers.
 */
#define KNOWN_SITES 600
static int test_batch_known_many(void)
{
	static uint8_t text[16 * 4096], out[KNOWN_SITES][9], known[KNOWN_SITES][9];
	static struct textpoke_query q[KNOWN_SITES];
	struct textpoke_image *img = textpoke_image__new(NULL);

	TP_CHECK(img);
	memset(text, 0x90, sizeof(text));
	for (int i = 0; i < KNOWN_SITES; i++)
		memcpy(text + 64 * i, NOP5, 5);
	TP_CHECK_EQ(textpoke_image__add_base(img, KADDR, text, sizeof(text), NULL), 0);
	for (int i = 0; i < KNOWN_SITES; i++)
		TP_CHECK_EQ(
		    textpoke_image__add_poke(img, 100 + i, KADDR + 64 * i, NOP5, 5, JMP5, 5), 0);
	for (int round = 0; round < 4; round++) {
		for (int i = 0; i < KNOWN_SITES; i++) {
			/* from 2 bytes before the site to 2 after it; site 0 starts the text */
			q[i].addr = KADDR + 64 * i - (i ? 2 : 0);
			q[i].len = 9;
			q[i].time = 400;
			q[i].buf = out[i];
			q[i].known = known[i];
		}
		TP_CHECK_EQ(textpoke_image__read_batch(img, q, KNOWN_SITES), 0);
		for (int i = 0; i < KNOWN_SITES; i++) {
			const uint8_t *site = out[i] + (i ? 2 : 0);

			TP_CHECK_EQ(q[i].ret, 9);
			if (memcmp(site, i <= 300 ? JMP5 : NOP5, 5) || out[i][i ? 0 : 5] != 0x90 ||
			    out[i][8] != 0x90 || memchr(known[i], 0, 9)) {
				tp_test_log("round %d site %d: %02x %02x %02x %02x %02x\n", round,
					    i, site[0], site[1], site[2], site[3], site[4]);
				return -1;
			}
		}
	}
	textpoke_image__delete(img);
	return 0;
}

/*
 * Under a memory cap the batch may fail where a later single read does not
 * (or the reverse: versions built in between): each answer is -ENOMEM or
 * the single read's.
 */
static int test_batch_memory_cap(void)
{
	static struct textpoke_query q[BATCH_QUERIES];
	static uint8_t mem[BATCH_QUERIES][2 * BATCH_MAXLEN];
	uint8_t buf[BATCH_MAXLEN], known[BATCH_MAXLEN];

	for (size_t cap = 40000; cap <= 640000; cap *= 2) {
		struct textpoke_image_opts opts = {.sz = sizeof(opts), .max_bytes = cap};
		struct textpoke_image *img = textpoke_image__new(&opts);
		struct batch_hist h;
		int nomem = 0;

		TP_CHECK(img);
		batch_hist_init(&h, cap, 400);
		for (int i = 0; i < 8000; i++)
			batch_poke(img, &h, i % 50 == 0);
		for (int i = 0; i < BATCH_QUERIES; i++)
			batch_query(&h, &q[i], h.time + 10, mem[i]);
		TP_CHECK_EQ(textpoke_image__read_batch(img, q, BATCH_QUERIES), 0);
		TP_CHECK(textpoke_image__mem_bytes(img) <= cap);
		for (int i = 0; i < BATCH_QUERIES; i++) {
			const struct textpoke_query *qi = &q[i];
			int ret = textpoke_image__read(img, qi->addr, qi->len, qi->time,
						       qi->buf ? buf : NULL, known);

			if (qi->ret == -ENOMEM || ret == -ENOMEM) {
				nomem++;
				continue;
			}
			TP_CHECK_EQ(qi->ret, ret);
			if (ret > 0)
				TP_CHECK(!memcmp(buf, qi->buf, qi->len));
		}
		tp_test_log("    cap %zu: %zu pokes, %d of %d reads -ENOMEM\n", cap,
			    textpoke_image__nr_pokes(img), nomem, BATCH_QUERIES);
		textpoke_image__delete(img);
	}
	return 0;
}

static int tp_tests__batch(void)
{
	TP_RUN(test_batch_known_answer);
	TP_RUN(test_batch_known_many);
	TP_RUN(test_batch_equals_read);
	TP_RUN(test_batch_memory_cap);
	return 0;
}
