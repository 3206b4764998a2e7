// SPDX-License-Identifier: GPL-2.0-only
/*
 * libtextpoke: the memory cap fails cleanly with -ENOMEM and leaves the
 * image usable; bad arguments are refused; diagnostics go to the callback.
 */
#include <errno.h>

#include "tp-test.h"

static int test_memory_cap(void)
{
	struct textpoke_image_opts opts = {.sz = sizeof(opts), .max_bytes = 16384};
	struct textpoke_image *img = textpoke_image__new(&opts);
	uint8_t big[4096] = {0}, buf[8];
	size_t before, nr;
	int err = 0, i;

	TP_CHECK(img);
	TP_CHECK(textpoke_image__mem_bytes(img) <= opts.max_bytes);
	/* a base larger than the cap */
	TP_CHECK_EQ(textpoke_image__add_base(img, KADDR, big, 4096, NULL), 0);
	TP_CHECK_EQ(textpoke_image__add_base(img, KADDR, (uint8_t[16384]){0}, 16384, NULL),
		    -ENOMEM);
	TP_CHECK_EQ(textpoke_image__nr_bases(img), 1);
	/* pokes at new sites until the cap says no */
	for (i = 0; i < 100000; i++) {
		before = textpoke_image__mem_bytes(img);
		nr = textpoke_image__nr_pokes(img);
		err = textpoke_image__add_poke(img, i, KADDR + 0x10000 + 16 * i, NOP5, 5, JMP5, 5);
		if (err)
			break;
	}
	TP_CHECK_EQ(err, -ENOMEM);
	TP_CHECK(i > 10);
	tp_test_log("    cap 16384: %d pokes, %zu bytes in use\n", i,
		    textpoke_image__mem_bytes(img));
	/* the failed poke left nothing behind */
	TP_CHECK_EQ(textpoke_image__nr_pokes(img), nr);
	TP_CHECK(textpoke_image__mem_bytes(img) <= before);
	TP_CHECK(textpoke_image__mem_bytes(img) <= opts.max_bytes);
	/* reads still answer, or say -ENOMEM, never crash */
	err = textpoke_image__read(img, KADDR + 0x10000, 8, 5, buf, NULL);
	TP_CHECK(err == 5 || err == -ENOMEM);
	err = textpoke_image__read(img, KADDR, 8, 5, buf, NULL);
	TP_CHECK(err == 8 || err == -ENOMEM);
	textpoke_image__delete(img);

	/* one site poked until full: the versions hit the cap, not the pokes */
	opts.max_bytes = 8192;
	img = textpoke_image__new(&opts);
	TP_CHECK(img);
	for (i = 0; i < 100000; i++) {
		err = textpoke_image__add_poke(img, i, KADDR, i & 1 ? JMP5 : NOP5, 5,
					       i & 1 ? NOP5 : JMP5, 5);
		if (err)
			break;
		if (i % 16 == 0) {
			err = textpoke_image__read(img, KADDR, 5, i, buf, NULL);
			if (err < 0)
				break;
		}
	}
	TP_CHECK_EQ(err, -ENOMEM);
	TP_CHECK(textpoke_image__mem_bytes(img) <= opts.max_bytes);
	textpoke_image__delete(img);
	return 0;
}

/*
 * Every cap from tiny to ample on the same mixed history (merges, out of
 * order pokes, bases added late, reads in between): failures are -ENOMEM
 * and nothing else, the count of memory never passes the cap, a failed
 * poke is not counted, and nothing leaks (ASan).
 */
static int test_memory_cap_sweep(void)
{
	static const uint8_t base[64] = {0};

	for (size_t cap = 1024; cap <= 65536; cap += cap / 4) {
		struct textpoke_image_opts opts = {.sz = sizeof(opts), .max_bytes = cap};
		struct textpoke_image *img = textpoke_image__new(&opts);
		uint64_t rs = cap;
		int failed = 0;

		if (!img) {
			TP_CHECK(cap < 4096);
			continue;
		}
		for (int i = 0; i < 400; i++) {
			uint64_t r = tp_rand(&rs), addr = KADDR + r % 96;
			size_t len = 1 + (r >> 8) % 12, nr = textpoke_image__nr_pokes(img);
			uint8_t buf[16];
			int err;

			if (i % 97 == 0)
				err = textpoke_image__add_base(img, KADDR + r % 32, base,
							       32 + r % 32, NULL);
			else
				err = textpoke_image__add_poke(img, (r >> 16) % 5000, addr, base,
							       len, base + 8, len);
			TP_CHECK(err == 0 || err == -ENOMEM);
			if (err)
				TP_CHECK_EQ(textpoke_image__nr_pokes(img), nr);
			failed += !!err;
			err = textpoke_image__read(img, addr, 16, r % 5000, buf, NULL);
			TP_CHECK(err >= 0 || err == -ENOMEM);
			TP_CHECK(textpoke_image__mem_bytes(img) <= cap);
		}
		tp_test_log("    cap %zu: %d of 400 refused\n", cap, failed);
		textpoke_image__delete(img);
	}
	return 0;
}

/*
 * A hostile history: 200 pokes of 8 KiB, each overlapping the next, make
 * one 1.6 MiB site whose versions would take 360 MiB.  The image keeps
 * none and answers from the pokes, within a few MiB.
 */
static int test_chained_pokes(void)
{
	static uint8_t old[8192], new[8192];
	struct textpoke_image *img = textpoke_image__new(NULL);
	uint8_t buf[16], known[16];

	TP_CHECK(img);
	for (int i = 0; i < 200; i++) {
		memset(old, i, sizeof(old));
		memset(new, i + 1, sizeof(new));
		TP_CHECK_EQ(textpoke_image__add_poke(img, 100 + i, KADDR + i * 8000ULL, old,
						     sizeof(old), new, sizeof(new)),
			    0);
	}
	TP_CHECK_EQ(textpoke_image__nr_sites(img), 1);
	/* byte 400100 is poked at 149 (49 -> 50) and at 150 (50 -> 51) */
	TP_CHECK_EQ(textpoke_image__read(img, KADDR + 400100, 16, 148, buf, known), 16);
	TP_CHECK_EQ(buf[0], 49);
	TP_CHECK_EQ(textpoke_image__read(img, KADDR + 400100, 16, 149, buf, known), 16);
	TP_CHECK_EQ(buf[0], 50);
	TP_CHECK_EQ(textpoke_image__read(img, KADDR + 400100, 16, 1000, buf, known), 16);
	TP_CHECK_EQ(buf[0], 51);
	tp_test_log("    %zu bytes in use\n", textpoke_image__mem_bytes(img));
	TP_CHECK(textpoke_image__mem_bytes(img) < (8u << 20));
	/* the site's history is there all the same */
	{
		struct textpoke_site *site = textpoke_image__site_at(img, KADDR + 400100);
		size_t len = site ? textpoke_site__len(site) : 0;
		uint8_t *ver = malloc(len), *kn = malloc(len);
		uint64_t time;

		TP_CHECK(site && ver && kn);
		TP_CHECK_EQ(len, 199 * 8000 + 8192);
		TP_CHECK_EQ(textpoke_site__version(site, 50, &time, ver, kn), (int)len);
		TP_CHECK_EQ(time, 149);
		TP_CHECK(ver[400100] == 50 && ver[400200] == 50 && ver[0] == 1);
		free(ver);
		free(kn);
	}
	textpoke_image__delete(img);
	return 0;
}

static int test_bad_arguments(void)
{
	struct textpoke_base_opts bad_anchor = {.sz = sizeof(bad_anchor), .anchor = 7};
	struct textpoke_image *img = textpoke_image__new(NULL);
	static uint8_t big[70000];
	uint8_t buf[8];

	TP_CHECK(img);
	TP_CHECK_EQ(textpoke_image__add_poke(img, 1, KADDR, NULL, 0, NULL, 0), -EINVAL);
	TP_CHECK_EQ(textpoke_image__add_poke(img, 1, KADDR, NULL, 5, JMP5, 5), -EINVAL);
	TP_CHECK_EQ(textpoke_image__add_poke(img, 1, KADDR, big, 65536, NULL, 0), -EINVAL);
	TP_CHECK_EQ(textpoke_image__add_poke(img, 1, UINT64_MAX - 2, NOP5, 5, JMP5, 5), -EINVAL);
	TP_CHECK_EQ(textpoke_image__add_poke(img, 1, KADDR, big, 65535, NULL, 0), 0);
	TP_CHECK_EQ(textpoke_image__add_base(img, KADDR, NULL, 5, NULL), -EINVAL);
	TP_CHECK_EQ(textpoke_image__add_base(img, KADDR, NOP5, 5, &bad_anchor), -EINVAL);
	TP_CHECK_EQ(textpoke_image__add_base(img, UINT64_MAX - 2, NOP5, 5, NULL), -EINVAL);
	TP_CHECK_EQ(textpoke_image__read(img, UINT64_MAX - 2, 8, 0, buf, NULL), -EINVAL);
	TP_CHECK_EQ(textpoke_image__read(img, KADDR, 8, 0, NULL, NULL), -EINVAL);
	TP_CHECK_EQ(textpoke_image__read(NULL, KADDR, 8, 0, buf, NULL), -EINVAL);
	TP_CHECK_EQ(textpoke_image__read(img, KADDR, 0, 0, buf, NULL), 0);
	TP_CHECK(!textpoke_view__new(NULL, 0) && errno == EINVAL);
	textpoke_image__delete(img);
	textpoke_image__delete(NULL);
	textpoke_view__delete(NULL);
	return 0;
}

static int tp_count_print(enum textpoke_print_level level, const char *fmt, va_list ap, void *arg)
{
	(*(int *)arg)++;
	return tp_print_to_log(level, fmt, ap, NULL);
}

static int test_print_callback(void)
{
	int printed = 0;
	struct textpoke_image_opts opts = {
	    .sz = sizeof(opts),
	    .print = tp_count_print,
	    .print_arg = &printed,
	};
	struct textpoke_image *img = textpoke_image__new(&opts);

	TP_CHECK(img);
	TP_CHECK_EQ(textpoke_image__add_poke(img, 1, KADDR, NOP5, 5, JMP5, 5), 0);
	TP_CHECK_EQ(textpoke_image__add_poke(img, 1, KADDR + 8, NOP5, 5, JMP5, 5), 0);
	TP_CHECK_EQ(printed, 0);
	/* joining two sites is worth a debug line */
	TP_CHECK_EQ(
	    textpoke_image__add_poke(img, 2, KADDR + 3, (uint8_t[8]){0}, 8, (uint8_t[8]){0}, 8), 0);
	TP_CHECK_EQ(printed, 1);
	textpoke_image__delete(img);
	return 0;
}

static int tp_tests__limits(void)
{
	TP_RUN(test_memory_cap);
	TP_RUN(test_memory_cap_sweep);
	TP_RUN(test_chained_pokes);
	TP_RUN(test_bad_arguments);
	TP_RUN(test_print_callback);
	return 0;
}
