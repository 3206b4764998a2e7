// SPDX-License-Identifier: GPL-2.0-only
/*
 * libtextpoke benchmark (not a test: it asserts nothing about time).
 *
 * A jump-label storm: N 5-byte pokes (nop <-> jmp) in time order over S
 * sites spread over 32 MiB of kernel text, each site first poked in random
 * address order, over a start image of the whole text (borrowed, as a
 * mmap'd kcore would be).  Measures, on one core:
 *
 *   build        textpoke_image__add_poke() rate
 *   first query  building the versions of every site (done once, lazily)
 *   read         textpoke_image__read() of 16 bytes at random (addr, time),
 *                addr over a random poked site, or anywhere in the text
 *   batched      the same reads, 1024 at a time, textpoke_image__read_batch()
 *   view         textpoke_view__read() of 16 bytes, time moving forward
 *   memory       bytes allocated per poke (the image's own accounting)
 *
 * Times are the thread's CPU time, so that other load on the machine
 * costs less (it still shares the caches); each case runs -r times (3)
 * and the median is shown, with the range.  The last lines compare the
 * full-size case with the targets of issue 3.
 *
 * Usage: bench-textpoke [-n pokes] [-s sites] [-q queries] [-r repeats]
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <textpoke/textpoke.h>

#define KTEXT 0xffffffff81000000ULL
#define KTEXT_LEN (32UL << 20)

static const uint8_t nop5[5] = {0x0f, 0x1f, 0x44, 0x00, 0x00};
static const uint8_t jmp5[5] = {0xe9, 0x10, 0x20, 0x00, 0x00};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t rnd(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*s = x;
	return x;
}

/* What one run measures: CPU seconds, then bytes */
enum {
	M_BUILD,
	M_VERSIONS,
	M_READ,
	M_READ_BATCH,
	M_READ_ANY,
	M_READ_ANY_BATCH,
	M_VIEW,
	M_MEM_BUILT,
	M_MEM_FINAL,
	M__MAX,
};

#define MAX_REPEATS 15

struct bench {
	size_t nr_pokes, nr_sites, nr_queries, repeats;
	uint64_t *site_addr;
	uint8_t *text; /* NULL: no start image, the pokes alone */
	double m[M__MAX];
	double runs[M__MAX][MAX_REPEATS];
	uint64_t sum;
};

#define BATCH 1024

/*
 * The same random reads as above, BATCH at a time through
 * textpoke_image__read_batch(); @any: anywhere in the text.  Returns the
 * CPU time, or -1.
 */
static double bench_batch(struct bench *b, struct textpoke_image *img, uint64_t time, uint64_t *rs,
			  bool any)
{
	struct textpoke_query *q = calloc(BATCH, sizeof(*q));
	uint8_t *bufs = malloc(BATCH * 32);
	double t0, t = -1;

	if (!q || !bufs)
		goto out;
	for (size_t k = 0; k < BATCH; k++) {
		q[k].len = 16;
		q[k].buf = bufs + 32 * k;
		q[k].known = bufs + 32 * k + 16;
	}
	t0 = now();
	for (size_t i = 0; i < b->nr_queries; i += BATCH) {
		size_t m = b->nr_queries - i < BATCH ? b->nr_queries - i : BATCH;

		for (size_t k = 0; k < m; k++) {
			uint64_t r = rnd(rs);

			q[k].addr = any ? KTEXT + r % (KTEXT_LEN - 16) :
					  b->site_addr[r % b->nr_sites] - (r >> 32) % 12;
			q[k].time = 1000 + (r >> 20) % (time - 999);
		}
		if (textpoke_image__read_batch(img, q, m))
			goto out;
		for (size_t k = 0; k < m; k++)
			b->sum += q[k].ret + bufs[32 * k];
	}
	t = now() - t0;
out:
	free(q);
	free(bufs);
	return t;
}

static int bench_run(struct bench *b)
{
	struct textpoke_base_opts borrow = {
	    .sz = sizeof(borrow),
	    .anchor = TEXTPOKE_ANCHOR_BEFORE,
	    .flags = TEXTPOKE_BASE_BORROW,
	};
	uint64_t rs = 0x9e3779b97f4a7c15ULL, time = 1000;
	struct textpoke_image *img = textpoke_image__new(NULL);
	struct textpoke_view *view = NULL;
	uint8_t *state = calloc(b->nr_sites, 1), buf[16], known[16];
	size_t mem_empty;
	double t0, *m = b->m;
	int err = -1;

	if (!img || !state)
		goto out;
	if (b->text && textpoke_image__add_base(img, KTEXT, b->text, KTEXT_LEN, &borrow))
		goto out;
	mem_empty = textpoke_image__mem_bytes(img);

	t0 = now();
	for (size_t i = 0; i < b->nr_pokes; i++) {
		size_t s = rnd(&rs) % b->nr_sites;

		time += 1 + (i & 7);
		if (textpoke_image__add_poke(img, time, b->site_addr[s], state[s] ? jmp5 : nop5, 5,
					     state[s] ? nop5 : jmp5, 5))
			goto out;
		state[s] ^= 1;
	}
	m[M_BUILD] = now() - t0;
	m[M_MEM_BUILT] = textpoke_image__mem_bytes(img) - mem_empty;

	t0 = now();
	for (size_t i = 0; i < b->nr_sites; i++)
		b->sum += textpoke_image__read(img, b->site_addr[i], 5, time, buf, known);
	m[M_VERSIONS] = now() - t0;
	m[M_MEM_FINAL] = textpoke_image__mem_bytes(img) - mem_empty;

	t0 = now();
	for (size_t i = 0; i < b->nr_queries; i++) {
		uint64_t r = rnd(&rs);
		uint64_t addr = b->site_addr[r % b->nr_sites] - (r >> 32) % 12;

		b->sum += textpoke_image__read(img, addr, 16, 1000 + (r >> 20) % (time - 999), buf,
					       known);
		b->sum += buf[0];
	}
	m[M_READ] = now() - t0;

	t0 = now();
	for (size_t i = 0; i < b->nr_queries; i++) {
		uint64_t r = rnd(&rs);

		b->sum += textpoke_image__read(img, KTEXT + r % (KTEXT_LEN - 16), 16,
					       1000 + (r >> 20) % (time - 999), buf, known);
		b->sum += buf[0];
	}
	m[M_READ_ANY] = now() - t0;

	m[M_READ_BATCH] = bench_batch(b, img, time, &rs, false);
	m[M_READ_ANY_BATCH] = bench_batch(b, img, time, &rs, true);
	if (m[M_READ_BATCH] < 0 || m[M_READ_ANY_BATCH] < 0)
		goto out;

	view = textpoke_view__new(img, 0);
	if (!view)
		goto out;
	t0 = now();
	for (size_t i = 0; i < b->nr_queries; i++) {
		uint64_t r = rnd(&rs);
		uint64_t addr = b->site_addr[r % b->nr_sites] - (r >> 32) % 12;

		textpoke_view__advance(view, 1000 + (time - 1000) * i / b->nr_queries);
		b->sum += textpoke_view__read(view, addr, 16, buf, known);
		b->sum += buf[0];
	}
	m[M_VIEW] = now() - t0;
	err = 0;
out:
	textpoke_view__delete(view);
	textpoke_image__delete(img);
	free(state);
	return err;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* @count / (the runs of metric @k): median, min and max; @count 0: the bytes themselves */
static double stat(const struct bench *b, int k, double count, double *lo, double *hi)
{
	double v[MAX_REPEATS];
	size_t n = b->repeats;

	for (size_t i = 0; i < n; i++)
		v[i] = count ? count / b->runs[k][i] : b->runs[k][i];
	qsort(v, n, sizeof(v[0]), cmp_double);
	*lo = v[0];
	*hi = v[n - 1];
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static double row(const struct bench *b, const char *what, int k, double count, const char *unit,
		  const char *note)
{
	double lo, hi, med = stat(b, k, count, &lo, &hi);
	char range[64] = "";

	if (b->repeats > 1 && count)
		snprintf(range, sizeof(range), "%.1f-%.1fM", lo / 1e6, hi / 1e6);
	printf("  %-36s %12.0f %-10s %-13s %s\n", what, med, unit, range, note);
	return med;
}

static void bench_print(const struct bench *b, const char *title, double *build, double *batch)
{
	double q = b->nr_queries, p = b->nr_pokes;

	printf("\n%s, %zu pokes over %zu sites (median of %zu):\n", title, b->nr_pokes, b->nr_sites,
	       b->repeats);
	*build = row(b, "build (add_poke)", M_BUILD, p, "pokes/s", "target >= 5M");
	row(b, "first query (build versions)", M_VERSIONS, p, "pokes/s", "once, lazily");
	row(b, "read 16 B at a random site and time", M_READ, q, "queries/s", "one at a time");
	*batch = row(b, "  the same, batched", M_READ_BATCH, q, "queries/s", "target >= 10M");
	row(b, "read 16 B anywhere, at random time", M_READ_ANY, q, "queries/s",
	    "mostly unpoked text");
	row(b, "  the same, batched", M_READ_ANY_BATCH, q, "queries/s", "");
	row(b, "view read 16 B, time forward", M_VIEW, q, "queries/s", "");
	printf("  %-36s %12.1f %-10s %-13s %s\n", "memory after build",
	       stat(b, M_MEM_BUILT, 0, &q, &q) / p, "bytes/poke", "", "");
	printf("  %-36s %12.1f %-10s %-13s %s\n", "memory with versions",
	       stat(b, M_MEM_FINAL, 0, &q, &q) / p, "bytes/poke", "", "pokes + versions + index");
}

static int bench_one(struct bench *b, uint8_t *text, const char *title, double *build,
		     double *batch)
{
	b->text = text;
	for (size_t r = 0; r < b->repeats; r++) {
		if (bench_run(b)) {
			fprintf(stderr, "bench-textpoke: out of memory\n");
			return 1;
		}
		for (int k = 0; k < M__MAX; k++)
			b->runs[k][r] = b->m[k];
	}
	bench_print(b, title, build, batch);
	return 0;
}

int main(int argc, char **argv)
{
	struct bench b = {
	    .nr_pokes = 1000000, .nr_sites = 10000, .nr_queries = 4000000, .repeats = 3};
	uint64_t rs = 0x2545f4914f6cdd1dULL;
	double build, batch, unused;
	size_t full_pokes, full_sites;
	int opt;

	while ((opt = getopt(argc, argv, "n:s:q:r:h")) != -1) {
		switch (opt) {
		case 'n':
			b.nr_pokes = strtoul(optarg, NULL, 0);
			break;
		case 's':
			b.nr_sites = strtoul(optarg, NULL, 0);
			break;
		case 'q':
			b.nr_queries = strtoul(optarg, NULL, 0);
			break;
		case 'r':
			b.repeats = strtoul(optarg, NULL, 0);
			break;
		default:
			fprintf(stderr,
				"usage: %s [-n pokes] [-s sites] [-q queries] [-r repeats]\n",
				argv[0]);
			return opt == 'h' ? 0 : 1;
		}
	}
	if (!b.nr_sites || b.nr_sites > KTEXT_LEN / 16 || !b.nr_pokes || !b.nr_queries ||
	    !b.repeats || b.repeats > MAX_REPEATS) {
		fprintf(stderr,
			"bench-textpoke: need 1 .. %lu sites, some pokes and queries, 1 .. %d "
			"repeats\n",
			KTEXT_LEN / 16, MAX_REPEATS);
		return 1;
	}
	b.site_addr = malloc(b.nr_sites * sizeof(*b.site_addr));
	b.text = malloc(KTEXT_LEN);
	if (!b.site_addr || !b.text) {
		fprintf(stderr, "bench-textpoke: out of memory\n");
		return 1;
	}
	memset(b.text, 0x90, KTEXT_LEN);
	for (size_t i = 0; i < b.nr_sites; i++) {
		uint64_t slot = KTEXT_LEN / b.nr_sites;

		b.site_addr[i] = KTEXT + i * slot + rnd(&rs) % (slot - 8);
		memcpy(b.text + (b.site_addr[i] - KTEXT), nop5, 5);
	}
	printf("libtextpoke bench: 5-byte pokes (nop <-> jmp) in time order, each at a site\n"
	       "picked at random among sites spread over %lu MiB of text; %zu queries;\n"
	       "CPU time of one thread\n",
	       KTEXT_LEN >> 20, b.nr_queries);
	if (bench_one(&b, b.text, "with a start image of the whole text (borrowed, like kcore)",
		      &build, &batch) ||
	    bench_one(&b, NULL, "with no base image, the pokes alone", &unused, &unused))
		return 1;
	full_pokes = b.nr_pokes;
	full_sites = b.nr_sites;
	/* the same with a tenth of it, which fits in the caches: the code's own cost */
	if (b.nr_sites >= 10 && b.nr_pokes >= 10) {
		b.nr_sites /= 10;
		b.nr_pokes /= 10;
		for (size_t i = 0; i < b.nr_sites; i++)
			b.site_addr[i] = b.site_addr[i * 10];
		if (bench_one(&b, b.text, "cache-resident: start image", &unused, &unused))
			return 1;
	}
	printf("\ntargets (issue 3), %zu pokes over %zu sites with a start image, medians:\n"
	       "  build >= 5M pokes/s:                 %5.1fM  %s\n"
	       "  batched random reads >= 10M/s:       %5.1fM  %s\n",
	       full_pokes, full_sites, build / 1e6, build >= 5e6 ? "met" : "MISSED", batch / 1e6,
	       batch >= 10e6 ? "met" : "MISSED");
	printf("  (checksum %" PRIu64 ")\n", b.sum);
	free(b.text);
	free(b.site_addr);
	return 0;
}
