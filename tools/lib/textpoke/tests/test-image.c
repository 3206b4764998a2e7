// SPDX-License-Identifier: GPL-2.0-only
/*
 * libtextpoke: bytes at a time from a start image, an end image, an image
 * copied in the middle, or no image at all; overlapping pokes; code that
 * appears and goes away.
 */
#include "tp-test.h"

/* read @len bytes at @addr, @time and compare with @expect (NULL: all unknown) */
static int tp_expect(struct textpoke_image *img, uint64_t addr, uint64_t time, const void *expect,
		     size_t len)
{
	uint8_t buf[64], known[64];
	int n;

	n = textpoke_image__read(img, addr, len, time, buf, known);
	if (n != (expect ? (int)len : 0)) {
		tp_test_log("read %#" PRIx64 "+%zu at %" PRIu64 ": %d known, expected %zu\n", addr,
			    len, time, n, expect ? len : 0);
		return -1;
	}
	if (expect && memcmp(buf, expect, len)) {
		tp_test_log("read %#" PRIx64 "+%zu at %" PRIu64 ": bytes differ:", addr, len, time);
		for (size_t i = 0; i < len; i++)
			tp_test_log(" %02x/%02x", buf[i], ((const uint8_t *)expect)[i]);
		tp_test_log("\n");
		return -1;
	}
	return 0;
}

/* nop -> jmp at 100, back at 200, jmp again at 300, at KADDR + 8 */
static int tp_add_flips(struct textpoke_image *img)
{
	TP_CHECK_EQ(textpoke_image__add_poke(img, 100, KADDR + 8, NOP5, 5, JMP5, 5), 0);
	TP_CHECK_EQ(textpoke_image__add_poke(img, 200, KADDR + 8, JMP5, 5, NOP5, 5), 0);
	TP_CHECK_EQ(textpoke_image__add_poke(img, 300, KADDR + 8, NOP5, 5, JMP5, 5), 0);
	return 0;
}

static void tp_fill_text(uint8_t *text, size_t len, const uint8_t *at8)
{
	for (size_t i = 0; i < len; i++)
		text[i] = 0x90 + i;
	memcpy(text + 8, at8, 5);
}

static int tp_check_flips(struct textpoke_image *img)
{
	static const uint64_t times[] = {0, 99, 100, 150, 199, 200, 299, 300, UINT64_MAX};
	static const int jmp[] = {0, 0, 1, 1, 1, 0, 0, 1, 1};

	for (size_t i = 0; i < sizeof(times) / sizeof(times[0]); i++)
		TP_CHECK(!tp_expect(img, KADDR + 8, times[i], jmp[i] ? JMP5 : NOP5, 5));
	return 0;
}

static int test_forward_from_start_image(void)
{
	struct textpoke_image *img = textpoke_image__new(NULL);
	uint8_t text[32], expect[32], buf[8], known[8];

	TP_CHECK(img);
	tp_fill_text(text, sizeof(text), NOP5);
	TP_CHECK_EQ(textpoke_image__add_base(img, KADDR, text, sizeof(text), NULL), 0);
	TP_CHECK(!tp_add_flips(img));
	TP_CHECK(!tp_check_flips(img));
	/* untouched bytes come from the base at every time */
	tp_fill_text(expect, sizeof(expect), JMP5);
	TP_CHECK(!tp_expect(img, KADDR, 250, text, sizeof(text)));
	TP_CHECK(!tp_expect(img, KADDR, 350, expect, sizeof(expect)));
	/* outside the base: unknown, not zero */
	TP_CHECK(!tp_expect(img, KADDR + 32, 350, NULL, 8));
	memset(buf, 0x55, sizeof(buf));
	TP_CHECK_EQ(textpoke_image__read(img, KADDR + 28, 8, 350, buf, known), 4);
	TP_CHECK(known[3] == 1 && known[4] == 0 && buf[3] == text[31]);
	TP_CHECK_EQ(textpoke_image__nr_sites(img), 1);
	TP_CHECK_EQ(textpoke_image__nr_pokes(img), 3);
	textpoke_image__delete(img);
	return 0;
}

static int test_backward_from_end_image(void)
{
	struct textpoke_image *img = textpoke_image__new(NULL);
	struct textpoke_base_opts after = {.sz = sizeof(after), .anchor = TEXTPOKE_ANCHOR_AFTER};
	uint8_t text[32];

	TP_CHECK(img);
	tp_fill_text(text, sizeof(text), JMP5); /* copied at the end: the jmp is in */
	TP_CHECK_EQ(textpoke_image__add_base(img, KADDR, text, sizeof(text), &after), 0);
	TP_CHECK(!tp_add_flips(img));
	TP_CHECK(!tp_check_flips(img));
	TP_CHECK(!tp_expect(img, KADDR, 0, text, 8));
	textpoke_image__delete(img);
	return 0;
}

static int test_image_copied_midway(void)
{
	struct textpoke_image *img = textpoke_image__new(NULL);
	struct textpoke_base_opts at = {
	    .sz = sizeof(at),
	    .anchor = TEXTPOKE_ANCHOR_AT,
	    .time = 250,
	};
	uint8_t text[32];

	TP_CHECK(img);
	/* pokes first, the copy later: the sites are rebuilt */
	TP_CHECK(!tp_add_flips(img));
	tp_fill_text(text, sizeof(text), NOP5); /* at 250: flipped back at 200 */
	TP_CHECK_EQ(textpoke_image__add_base(img, KADDR, text, sizeof(text), &at), 0);
	TP_CHECK(!tp_check_flips(img));
	TP_CHECK(!tp_expect(img, KADDR, 0, text, sizeof(text)));
	textpoke_image__delete(img);
	return 0;
}

static int test_no_base_reconstructs(void)
{
	struct textpoke_image *img = textpoke_image__new(NULL);
	uint8_t buf[32], known[32];

	TP_CHECK(img);
	TP_CHECK(!tp_add_flips(img));
	TP_CHECK(!tp_check_flips(img));
	TP_CHECK_EQ(textpoke_image__read(img, KADDR, 32, 150, buf, known), 5);
	for (int i = 0; i < 32; i++)
		TP_CHECK_EQ(known[i], i >= 8 && i < 13);
	textpoke_image__delete(img);
	return 0;
}

static int test_base_priority_and_borrow(void)
{
	struct textpoke_image *img = textpoke_image__new(NULL);
	struct textpoke_base_opts borrow = {.sz = sizeof(borrow), .flags = TEXTPOKE_BASE_BORROW};
	uint8_t vmlinux[16], kcore[8], expect[16];

	TP_CHECK(img);
	memset(vmlinux, 0x11, sizeof(vmlinux));
	memset(kcore, 0x22, sizeof(kcore));
	TP_CHECK_EQ(textpoke_image__add_base(img, KADDR, vmlinux, sizeof(vmlinux), &borrow), 0);
	TP_CHECK_EQ(textpoke_image__add_base(img, KADDR + 4, kcore, sizeof(kcore), NULL), 0);
	memset(kcore, 0x33, sizeof(kcore)); /* a copy was taken */
	memset(expect, 0x11, sizeof(expect));
	memset(expect + 4, 0x22, 8);
	TP_CHECK(!tp_expect(img, KADDR, 5, expect, sizeof(expect)));
	TP_CHECK_EQ(textpoke_image__nr_bases(img), 2);
	textpoke_image__delete(img);
	return 0;
}

/*
 * text_poke_bp() patches a live 5-byte instruction in three steps: int3 on
 * the first byte, the tail, then the first byte.  Three pokes of different
 * widths at one site.
 */
static int tp_add_text_poke_bp(struct textpoke_image *img, uint64_t t)
{
	const uint8_t int3_tail[4] = {0x1f, 0x44, 0x00, 0x00};
	const uint8_t jmp_tail[4] = {0x10, 0x20, 0x00, 0x00};
	const uint8_t nop0 = 0x0f, jmp0 = 0xe9;

	TP_CHECK_EQ(textpoke_image__add_poke(img, t, KADDR, &nop0, 1, &INT3, 1), 0);
	TP_CHECK_EQ(textpoke_image__add_poke(img, t + 1, KADDR + 1, int3_tail, 4, jmp_tail, 4), 0);
	TP_CHECK_EQ(textpoke_image__add_poke(img, t + 2, KADDR, &INT3, 1, &jmp0, 1), 0);
	return 0;
}

static int tp_check_text_poke_bp(struct textpoke_image *img, uint64_t t)
{
	const uint8_t step1[5] = {0xcc, 0x1f, 0x44, 0x00, 0x00};
	const uint8_t step2[5] = {0xcc, 0x10, 0x20, 0x00, 0x00};

	TP_CHECK(!tp_expect(img, KADDR, t - 1, NOP5, 5));
	TP_CHECK(!tp_expect(img, KADDR, t, step1, 5));
	TP_CHECK(!tp_expect(img, KADDR, t + 1, step2, 5));
	TP_CHECK(!tp_expect(img, KADDR, t + 2, JMP5, 5));
	return 0;
}

static int test_overlapping_pokes(void)
{
	const uint8_t mid_old[2] = {0x20, 0x00}, mid_new[2] = {0x66, 0x90};
	const uint8_t mixed[5] = {0xe9, 0x10, 0x66, 0x90, 0x00};
	size_t counts[TEXTPOKE_VERDICT__MAX];
	struct textpoke_image *img;

	/* with a start image, and with nothing but the pokes */
	for (int with_base = 0; with_base < 2; with_base++) {
		img = textpoke_image__new(NULL);
		TP_CHECK(img);
		if (with_base)
			TP_CHECK_EQ(textpoke_image__add_base(img, KADDR, NOP5, 5, NULL), 0);
		TP_CHECK(!tp_add_text_poke_bp(img, 10));
		/* a 2-byte poke inside the 5-byte instruction */
		TP_CHECK_EQ(textpoke_image__add_poke(img, 30, KADDR + 2, mid_old, 2, mid_new, 2),
			    0);
		TP_CHECK_EQ(textpoke_image__add_poke(img, 40, KADDR, mixed, 5, NOP5, 5), 0);
		/* equal times apply in the order added: int3, then the whole jmp */
		TP_CHECK_EQ(textpoke_image__add_poke(img, 50, KADDR, NOP5, 1, &INT3, 1), 0);
		TP_CHECK_EQ(textpoke_image__add_poke(
				img, 50, KADDR, (const uint8_t[]){0xcc, 0x1f, 0x44, 0x00, 0x00}, 5,
				JMP5, 5),
			    0);
		TP_CHECK(!tp_check_text_poke_bp(img, 10));
		TP_CHECK(!tp_expect(img, KADDR, 30, mixed, 5));
		TP_CHECK(!tp_expect(img, KADDR, 45, NOP5, 5));
		TP_CHECK(!tp_expect(img, KADDR, 50, JMP5, 5));
		TP_CHECK_EQ(textpoke_image__nr_sites(img), 1);
		TP_CHECK_EQ(textpoke_image__count_verdicts(img, counts), 0);
		TP_CHECK_EQ(counts[TEXTPOKE_VERIFIED], with_base ? 7 : 5);
		TP_CHECK_EQ(counts[TEXTPOKE_MISMATCH], 0);
		textpoke_image__delete(img);
	}
	return 0;
}

static int test_out_of_order_pokes(void)
{
	struct textpoke_image *img = textpoke_image__new(NULL);
	const uint8_t nop0 = 0x0f, jmp0 = 0xe9;
	const uint8_t int3_tail[4] = {0x1f, 0x44, 0x00, 0x00};
	const uint8_t jmp_tail[4] = {0x10, 0x20, 0x00, 0x00};

	TP_CHECK(img);
	/* the same text_poke_bp() sequence, last step first */
	TP_CHECK_EQ(textpoke_image__add_poke(img, 12, KADDR, &INT3, 1, &jmp0, 1), 0);
	TP_CHECK(!tp_expect(img, KADDR, 12, &jmp0, 1));
	TP_CHECK_EQ(textpoke_image__add_poke(img, 10, KADDR, &nop0, 1, &INT3, 1), 0);
	TP_CHECK_EQ(textpoke_image__add_poke(img, 11, KADDR + 1, int3_tail, 4, jmp_tail, 4), 0);
	TP_CHECK(!tp_check_text_poke_bp(img, 10));
	textpoke_image__delete(img);
	return 0;
}

static int test_sites_merge(void)
{
	struct textpoke_image *img = textpoke_image__new(NULL);
	uint8_t old[13], new[13], expect[13];

	TP_CHECK(img);
	TP_CHECK_EQ(textpoke_image__add_poke(img, 10, KADDR + 8, NOP5, 5, JMP5, 5), 0);
	TP_CHECK_EQ(textpoke_image__add_poke(img, 11, KADDR, NOP5, 5, JMP5, 5), 0);
	TP_CHECK_EQ(textpoke_image__nr_sites(img), 2);
	/* bytes 3..10 at once: joins both */
	memcpy(old, JMP5 + 3, 2);
	memset(old + 2, 0xaa, 3);
	memcpy(old + 5, JMP5, 3);
	memset(new, 0x77, 8);
	TP_CHECK_EQ(textpoke_image__add_poke(img, 20, KADDR + 3, old, 8, new, 8), 0);
	TP_CHECK_EQ(textpoke_image__nr_sites(img), 1);
	memcpy(expect, JMP5, 3);
	memset(expect + 3, 0x77, 8);
	memcpy(expect + 11, JMP5 + 3, 2);
	TP_CHECK(!tp_expect(img, KADDR, 20, expect, 5));
	TP_CHECK(!tp_expect(img, KADDR + 8, 20, expect + 8, 5));
	/* bytes 5..7: only the joining poke knows them */
	TP_CHECK(!tp_expect(img, KADDR + 5, 15, old + 2, 3));
	TP_CHECK(!tp_expect(img, KADDR, 9, NOP5, 5));
	TP_CHECK(!tp_expect(img, KADDR + 8, 10, JMP5, 5));

	/*
	 * A 2-byte site widened by a 5-byte poke at its address: the site is
	 * no longer uniform (its first poke covers part of it), so version 1
	 * is that poke's 2 bytes and the wide poke's old bytes after them.
	 */
	{
		static const uint8_t j2_old[2] = {0x66, 0x90}, j2_new[2] = {0xeb, 0x03};
		static const uint8_t w_old[5] = {0xeb, 0x03, 0xcc, 0xcc, 0xcc};
		static const uint8_t at_5[5] = {0x66, 0x90, 0xcc, 0xcc, 0xcc};
		uint64_t x = KADDR + 0x100;

		TP_CHECK_EQ(textpoke_image__add_poke(img, 10, x, j2_old, 2, j2_new, 2), 0);
		TP_CHECK_EQ(textpoke_image__add_poke(img, 20, x, w_old, 5, NOP5, 5), 0);
		TP_CHECK(!tp_expect(img, x, 5, at_5, 5));
		TP_CHECK(!tp_expect(img, x, 15, w_old, 5));
		TP_CHECK(!tp_expect(img, x, 25, NOP5, 5));
	}
	textpoke_image__delete(img);
	return 0;
}

/*
 * An ftrace trampoline: its body appears (old_len 0), a call inside it is
 * patched, then it is freed (new_len 0).  Before and after: unknown, even
 * with a start image (variant 1) or an end image (variant 2) that held
 * something at that address: a copy of memory read at another moment
 * holds free space or other code there.
 * Mutation caught: site.c's segment value without its "the poke before
 * took the byte away, or the one after brought it" branch.
 */
static int test_code_appears_and_goes_away(void)
{
	struct textpoke_base_opts after = {.sz = sizeof(after), .anchor = TEXTPOKE_ANCHOR_AFTER};
	uint64_t tramp = KADDR + 0x1000;
	uint8_t body[16], body2[16], junk[16];
	size_t counts[TEXTPOKE_VERDICT__MAX];

	for (int i = 0; i < 16; i++)
		body[i] = 0x40 + i;
	memcpy(body2, body, 16);
	memcpy(body2 + 4, JMP5, 5);
	memset(junk, 0xee, sizeof(junk));
	for (int variant = 0; variant < 3; variant++) {
		struct textpoke_image *img = textpoke_image__new(NULL);

		TP_CHECK(img);
		if (variant == 1)
			TP_CHECK_EQ(textpoke_image__add_base(img, tramp, junk, 16, NULL), 0);
		TP_CHECK_EQ(textpoke_image__add_poke(img, 100, tramp, NULL, 0, body, 16), 0);
		TP_CHECK_EQ(textpoke_image__add_poke(img, 150, tramp + 4, body + 4, 5, JMP5, 5), 0);
		TP_CHECK_EQ(textpoke_image__add_poke(img, 200, tramp, body2, 16, NULL, 0), 0);
		if (variant == 2)
			TP_CHECK_EQ(textpoke_image__add_base(img, tramp, junk, 16, &after), 0);
		TP_CHECK(!tp_expect(img, tramp, 99, NULL, 16));
		TP_CHECK(!tp_expect(img, tramp, 100, body, 16));
		TP_CHECK(!tp_expect(img, tramp, 150, body2, 16));
		TP_CHECK(!tp_expect(img, tramp, 199, body2, 16));
		TP_CHECK(!tp_expect(img, tramp, 200, NULL, 16));
		TP_CHECK(!tp_expect(img, tramp, UINT64_MAX, NULL, 16));
		TP_CHECK_EQ(textpoke_image__count_verdicts(img, counts), 0);
		TP_CHECK_EQ(counts[TEXTPOKE_VERIFIED], 2);
		TP_CHECK_EQ(counts[TEXTPOKE_UNKNOWN], 1);
		textpoke_image__delete(img);
	}
	return 0;
}

struct tp_site_walk {
	int sites;
	int bad;
};

static int tp_walk_site(struct textpoke_site *site, void *arg)
{
	struct tp_site_walk *w = arg;
	struct textpoke_poke poke;
	uint8_t buf[5], known[5];
	uint64_t time;

	w->sites++;
	if (textpoke_site__addr(site) != KADDR + 8 || textpoke_site__len(site) != 5 ||
	    textpoke_site__nr_pokes(site) != 3)
		w->bad++;
	if (textpoke_site__version(site, 0, &time, buf, known) != 5 || time || memcmp(buf, NOP5, 5))
		w->bad++;
	if (textpoke_site__version(site, 1, &time, buf, known) != 5 || time != 100 ||
	    memcmp(buf, JMP5, 5))
		w->bad++;
	if (textpoke_site__version(site, 4, &time, buf, known) != -22)
		w->bad++;
	if (textpoke_site__poke(site, 1, &poke) || poke.time != 200 || poke.addr != KADDR + 8 ||
	    poke.old_len != 5 || memcmp(poke.old_bytes, JMP5, 5) || memcmp(poke.new_bytes, NOP5, 5))
		w->bad++;
	return 0;
}

static int test_site_history(void)
{
	struct textpoke_image *img = textpoke_image__new(NULL);
	struct tp_site_walk w = {0, 0};

	TP_CHECK(img);
	TP_CHECK(!tp_add_flips(img));
	TP_CHECK_EQ(textpoke_image__for_each_site(img, tp_walk_site, &w), 0);
	TP_CHECK_EQ(w.sites, 1);
	TP_CHECK_EQ(w.bad, 0);
	textpoke_image__delete(img);
	return 0;
}

struct tp_export {
	uint64_t next; /* where the next run may start */
	int runs;
	int bad;
	uint8_t bytes[0x3000]; /* KADDR .. KADDR + 0x3000 */
	uint8_t known[0x3000];
	size_t big; /* bytes beyond 0x3000 */
};

static int tp_collect_run(uint64_t addr, const uint8_t *bytes, size_t len, void *arg)
{
	struct tp_export *x = arg;

	if (addr < x->next || !len)
		x->bad++;
	x->next = addr + len;
	x->runs++;
	for (size_t i = 0; i < len; i++) {
		if (addr + i >= KADDR && addr + i < KADDR + 0x3000) {
			x->bytes[addr + i - KADDR] = bytes[i];
			x->known[addr + i - KADDR] = 1;
		} else {
			x->big++;
		}
	}
	return 0;
}

/* export at a time gives exactly the known bytes that read() gives */
static int test_export_and_site_at(void)
{
	static uint8_t text[32], body[16], huge[200000], buf[0x3000], known[0x3000];
	static struct tp_export x;
	struct textpoke_base_opts borrow = {.sz = sizeof(borrow), .flags = TEXTPOKE_BASE_BORROW};
	struct textpoke_image *img = textpoke_image__new(NULL);
	struct textpoke_site *site;
	uint8_t vbuf[5];

	TP_CHECK(img);
	tp_fill_text(text, sizeof(text), NOP5);
	memset(body, 0x41, sizeof(body));
	memset(huge, 0x90, sizeof(huge));
	TP_CHECK_EQ(textpoke_image__add_base(img, KADDR, text, sizeof(text), NULL), 0);
	TP_CHECK_EQ(textpoke_image__add_base(img, KADDR + 0x100000, huge, sizeof(huge), &borrow),
		    0);
	TP_CHECK(!tp_add_flips(img));
	TP_CHECK_EQ(textpoke_image__add_poke(img, 100, KADDR + 0x1000, NULL, 0, body, 16), 0);
	TP_CHECK_EQ(textpoke_image__add_poke(img, 200, KADDR + 0x1000, body, 16, NULL, 0), 0);
	/* touching the base: one run */
	TP_CHECK_EQ(textpoke_image__add_poke(img, 50, KADDR + 32, NOP5, 2, JMP5, 2), 0);
	TP_CHECK_EQ(textpoke_image__add_poke(img, 50, KADDR + 0x2000, NOP5, 5, JMP5, 5), 0);
	for (uint64_t time = 0; time < 400; time += 50) {
		memset(&x, 0, sizeof(x));
		TP_CHECK_EQ(textpoke_image__export(img, time, tp_collect_run, &x), 0);
		TP_CHECK_EQ(x.bad, 0);
		TP_CHECK_EQ(x.big, sizeof(huge));
		TP_CHECK(textpoke_image__read(img, KADDR, 0x3000, time, buf, known) >= 0);
		TP_CHECK(!memcmp(known, x.known, sizeof(known)));
		for (size_t i = 0; i < sizeof(buf); i++)
			TP_CHECK(!known[i] || buf[i] == x.bytes[i]);
		/* base + 2-byte site, trampoline while alive, 5-byte site, the huge base */
		TP_CHECK(x.runs >= (time >= 100 && time < 200 ? 5 : 4));
	}
	site = textpoke_image__site_at(img, KADDR + 10);
	TP_CHECK(site);
	TP_CHECK_EQ(textpoke_site__addr(site), KADDR + 8);
	TP_CHECK_EQ(textpoke_site__version(site, 3, NULL, vbuf, NULL), 5);
	TP_CHECK(!memcmp(vbuf, JMP5, 5));
	TP_CHECK(!textpoke_image__site_at(img, KADDR + 13));
	TP_CHECK(!textpoke_image__site_at(img, UINT64_MAX));
	textpoke_image__delete(img);
	return 0;
}

static int tp_tests__image(void)
{
	TP_RUN(test_forward_from_start_image);
	TP_RUN(test_backward_from_end_image);
	TP_RUN(test_image_copied_midway);
	TP_RUN(test_no_base_reconstructs);
	TP_RUN(test_base_priority_and_borrow);
	TP_RUN(test_overlapping_pokes);
	TP_RUN(test_out_of_order_pokes);
	TP_RUN(test_sites_merge);
	TP_RUN(test_code_appears_and_goes_away);
	TP_RUN(test_site_history);
	TP_RUN(test_export_and_site_at);
	return 0;
}
