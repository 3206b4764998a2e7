// SPDX-License-Identifier: GPL-2.0-only
/*
 * The jump-label storm of fixture-big.h: a recording large enough that
 * perf textpoke report's cost per record shows (make bench), written in
 * one streaming pass with the project's writer.
 */
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fixture-big.h"
#include "fixture-kcore.h"
#include "fixture-kernel.h"
#include "fixture-pt.h"
#include "../util/debug.h"
#include "../util/writer.h"

#define FB_DEFAULT_SEED 0x9e3779b97f4a7c15ULL

static const u8 nop5[5] = {0x0f, 0x1f, 0x44, 0x00, 0x00};
/* jmp rel32 from the site to FB_JMP_OFF: the same bytes at every site */
static const u8 jmp5[5] = {0xe9, FB_JMP_OFF - FB_SITE_OFF - 5, 0x00, 0x00, 0x00};

enum { SITE_JMP = 1 << 0, SITE_POKED = 1 << 1 };

struct fb_ctx {
	const struct fixture_big_opts *o;
	struct fixture_big_counts *n;
	struct perf_writer *w;
	int clock, dummy;
	u64 rs;
	u8 *site;	 /* SITE_* per site */
	u32 *fn_samples; /* per function, for the hottest one */
};

/* xorshift64: the same sequence for the same seed on every machine */
static u64 fb__rnd(struct fb_ctx *c)
{
	c->rs ^= c->rs << 13;
	c->rs ^= c->rs >> 7;
	c->rs ^= c->rs << 17;
	return c->rs;
}

static u64 fb__text_len(const struct fixture_big_opts *o)
{
	return (u64)o->nr_sites * FB_FN_LEN;
}

/* one function as booted: push %rbp; mov %rsp,%rbp; the site; nops; pop %rbp; ret; int3s */
static void fb__build_fn(u8 *fn)
{
	memset(fn, 0xcc, FB_FN_LEN);
	memcpy(fn, "\x55\x48\x89\xe5", 4);
	memcpy(fn + FB_SITE_OFF, nop5, 5);
	memset(fn + FB_SITE_OFF + 5, 0x90, FB_JMP_OFF - FB_SITE_OFF - 5);
	memcpy(fn + FB_JMP_OFF, "\x5d\xc3", 2);
}

static int fb__features(struct fb_ctx *c)
{
	static const char *const argv[] = {"/usr/bin/perf", "record", "--kcore", "-e",
					   "cpu-clock",	    "-a"};
	struct perf_writer *w = c->w;
	int err = 0;

	err = err ?: perf_writer__set_hostname(w, "fixture-big");
	err = err ?: perf_writer__set_osrelease(w, "6.1.0-fixture");
	err = err ?: perf_writer__set_version(w, "6.1.fixture");
	err = err ?: perf_writer__set_arch(w, "x86_64");
	err = err ?: perf_writer__set_nrcpus(w, 2, 2);
	err = err ?: perf_writer__set_cpudesc(w, "Fixture CPU");
	err = err ?: perf_writer__set_cpuid(w, "GenuineIntel,6,85,4");
	err = err ?: perf_writer__set_total_mem(w, 1024 * 1024);
	err = err ?: perf_writer__set_cmdline(w, ARRAY_SIZE(argv), argv);
	return err;
}

static int fb__side_band(struct fb_ctx *c)
{
	struct perf_record_mmap2 m = {
	    .header.misc = PERF_RECORD_MISC_KERNEL,
	    .pid = -1,
	    .tid = 0,
	    .start = FB_TEXT,
	    .len = fb__text_len(c->o),
	    .pgoff = FB_TEXT,
	};
	struct perf_sample id = {0};
	char comm[16];
	int i, err;

	err = perf_writer__synth_mmap2(c->w, c->dummy, &m, "[kernel.kallsyms]_text", &id);
	c->n->nr_mmaps++;
	for (i = 0; !err && i < FB_NR_TASKS; i++) {
		snprintf(comm, sizeof(comm), "bigpoke-%d", i);
		err = perf_writer__synth_comm(c->w, c->dummy, FB_PID0 + i, FB_PID0 + i, comm, false,
					      &id);
		c->n->nr_comms++;
	}
	return err ?: perf_writer__synth_finished_round(c->w);
}

/* a random site flips: nop5 -> jmp or back, the old bytes what it holds */
static int fb__poke(struct fb_ctx *c, u64 time)
{
	u32 s = fb__rnd(c) % c->o->nr_sites;
	struct perf_sample id = {.time = time};
	bool jmp = c->site[s] & SITE_JMP;

	if (!(c->site[s] & SITE_POKED))
		c->n->nr_sites_poked++;
	c->site[s] = (jmp ? 0 : SITE_JMP) | SITE_POKED;
	c->n->nr_pokes++;
	return perf_writer__synth_text_poke(c->w, c->dummy,
					    FB_TEXT + (u64)s * FB_FN_LEN + FB_SITE_OFF,
					    jmp ? jmp5 : nop5, 5, jmp ? nop5 : jmp5, 5, &id);
}

/*
 * Half the samples in the hottest 1% of the functions, as profiles
 * concentrate; one in eight at the function's site, the rest in its body
 * after the site.
 */
static int fb__sample(struct fb_ctx *c, u64 time)
{
	u64 r = fb__rnd(c);
	u32 nr_sites = c->o->nr_sites, nr_hot = nr_sites / 100 ? nr_sites / 100 : 1;
	u32 task = r % FB_NR_TASKS, fn, off;
	struct perf_sample s = {
	    .pid = FB_PID0 + task,
	    .tid = FB_PID0 + task,
	    .time = time,
	    .cpu = (r >> 3) & 1,
	    .period = 10000,
	    .cpumode = PERF_RECORD_MISC_KERNEL,
	};

	if ((r >> 4) & 1)
		fn = ((r >> 8) % nr_hot) * (nr_sites / nr_hot);
	else
		fn = (r >> 8) % nr_sites;
	if (!((r >> 40) & 7)) {
		off = FB_SITE_OFF;
		c->n->nr_site_samples++;
		if (c->site[fn] & SITE_JMP)
			c->n->nr_site_samples_changed++;
	} else {
		off = FB_SITE_OFF + 5 + (r >> 43) % (FB_JMP_OFF - FB_SITE_OFF - 5);
	}
	s.ip = FB_TEXT + (u64)fn * FB_FN_LEN + off;
	c->fn_samples[fn]++;
	c->n->nr_samples++;
	return perf_writer__synth_sample(c->w, c->clock, &s);
}

/* pokes and samples evenly interleaved, as a storm during a profile */
static int fb__records(struct fb_ctx *c)
{
	const u64 np = c->o->nr_pokes, ns = c->o->nr_samples;
	struct fixture_big_counts *n = c->n;
	u64 time = FB_T0, nr = 0;
	int err = 0;

	while (!err && (n->nr_pokes < np || n->nr_samples < ns)) {
		time += 500 + fb__rnd(c) % 1000;
		if (!n->first_time)
			n->first_time = time;
		n->last_time = time;
		if (n->nr_samples == ns ||
		    (n->nr_pokes < np && n->nr_pokes * ns <= n->nr_samples * np))
			err = fb__poke(c, time);
		else
			err = fb__sample(c, time);
		if (!err && ++nr % FB_ROUND == 0)
			err = perf_writer__synth_finished_round(c->w);
	}
	return err ?: perf_writer__synth_finished_round(c->w);
}

static FILE *fb__fopen(const char *dir, const char *name)
{
	char *path;
	FILE *f;

	if (asprintf(&path, "%s/%s", dir, name) < 0)
		return NULL;
	f = fopen(path, "w");
	free(path);
	return f;
}

static int fb__fclose(FILE *f, int err)
{
	if (ferror(f))
		err = err ?: -EIO;
	if (fclose(f))
		err = err ?: -EIO;
	return err;
}

/* an ELF core file with one PT_LOAD segment of the text as booted, as kcore_copy() writes */
static int fb__write_kcore(struct fb_ctx *c, const char *dir)
{
	struct fixture_segment text = {FB_TEXT, NULL, fb__text_len(c->o)};
	u8 head[FIXTURE_KCORE_DATA], fn[FB_FN_LEN];
	FILE *f = fb__fopen(dir, "kcore");
	u32 i;

	if (!f)
		return -errno;
	fixture__kcore_head(head, &text, 1);
	fwrite(head, sizeof(head), 1, f);
	fb__build_fn(fn);
	for (i = 0; i < c->o->nr_sites; i++)
		fwrite(fn, sizeof(fn), 1, f);
	return fb__fclose(f, 0);
}

static int fb__kcore_dir(struct fb_ctx *c, const char *data_dir)
{
	u64 end = FB_TEXT + fb__text_len(c->o);
	char *dir;
	FILE *f;
	int err;
	u32 i;

	if (asprintf(&dir, "%s/kcore_dir", data_dir) < 0)
		return -ENOMEM;
	err = mkdir(dir, 0700) ? -errno : 0;
	f = err ? NULL : fb__fopen(dir, "kallsyms");
	if (!err && !f)
		err = -errno;
	if (f) {
		fprintf(f, "%016llx T _text\n%016llx T _stext\n", FB_TEXT, FB_TEXT);
		for (i = 0; i < c->o->nr_sites; i++)
			fprintf(f, "%016llx T big_fn_%u\n", FB_TEXT + (u64)i * FB_FN_LEN, i);
		fprintf(f, "%016llx T _etext\n", (unsigned long long)end);
		err = fb__fclose(f, err);
	}
	f = err ? NULL : fb__fopen(dir, "modules");
	if (!err && !f)
		err = -errno;
	if (f)
		err = fb__fclose(f, err);
	err = err ?: fb__write_kcore(c, dir);
	free(dir);
	return err;
}

static int fb__check_opts(const struct fixture_big_opts *o)
{
	if (!o->nr_sites || o->nr_sites > FB_MAX_SITES || o->nr_pokes > FB_MAX_RECORDS ||
	    o->nr_samples > FB_MAX_RECORDS)
		return -EINVAL;
	return 0;
}

int fixture_big__write(const char *path, const struct fixture_big_opts *opts,
		       struct fixture_big_counts *counts)
{
	struct fixture_big_counts local;
	struct fb_ctx c = {.o = opts, .n = counts ? counts : &local};
	int err = fb__check_opts(opts);
	u32 i;

	memset(c.n, 0, sizeof(*c.n));
	if (err)
		return err;
	c.rs = opts->seed ? opts->seed : FB_DEFAULT_SEED;
	c.site = calloc(opts->nr_sites, sizeof(*c.site));
	c.fn_samples = calloc(opts->nr_sites, sizeof(*c.fn_samples));
	if (!c.site || !c.fn_samples) {
		err = -ENOMEM;
		goto out_free;
	}
	c.w = perf_writer__new(path, PERF_WRITER_DIRECTORY);
	if (!c.w) {
		err = -errno;
		goto out_free;
	}
	err = fixture__kcore_attrs(c.w, &c.clock, &c.dummy);
	err = err ?: fb__features(&c);
	err = err ?: fb__side_band(&c);
	err = err ?: fb__records(&c);
	err = err ?: perf_writer__set_sample_time(c.w, c.n->first_time, c.n->last_time);
	err = err ?: fb__kcore_dir(&c, perf_writer__dir_path(c.w));
	if (err) {
		perf_writer__abort(c.w);
		goto out_free;
	}
	err = perf_writer__close(c.w);
	for (i = 0; i < opts->nr_sites; i++) {
		if (c.site[i] & SITE_JMP)
			c.n->nr_sites_jmp_at_end++;
		if (c.fn_samples[i] > c.n->hottest_nr) {
			c.n->hottest_nr = c.fn_samples[i];
			c.n->hottest_fn = i;
		}
	}
out_free:
	free(c.site);
	free(c.fn_samples);
	return err;
}

static int fb__parse_u64(const char *s, char **end, u64 max, u64 *v)
{
	unsigned long long x;

	errno = 0;
	x = strtoull(s, end, 0);
	if (errno || *end == s || *s == '-' || x > max)
		return -EINVAL;
	*v = x;
	return 0;
}

/* "big-pokes" or "big-pokes:POKES,SAMPLES,SITES" */
static int fb__parse_name(const char *name, struct fixture_big_opts *o)
{
	const char *base = "big-pokes";
	size_t len = strlen(base);
	u64 sites = o->nr_sites;
	char *end;

	if (strncmp(name, base, len) || (name[len] && name[len] != ':'))
		return -ENOENT;
	if (!name[len])
		return 0;
	if (fb__parse_u64(name + len + 1, &end, FB_MAX_RECORDS, &o->nr_pokes) || *end != ',' ||
	    fb__parse_u64(end + 1, &end, FB_MAX_RECORDS, &o->nr_samples) || *end != ',' ||
	    fb__parse_u64(end + 1, &end, FB_MAX_SITES, &sites) || *end || !sites)
		return -EINVAL;
	o->nr_sites = sites;
	return 0;
}

int fixture_big__main(int argc, char **argv)
{
	struct fixture_big_opts o = {.nr_pokes = 1000000, .nr_samples = 1000000, .nr_sites = 10000};
	struct fixture_big_counts n;
	int err;

	/* the Intel PT fixtures: pt-start, pt-end, pt-none */
	err = fixture_pt__main(argc, argv);
	if (err != -ENOENT)
		return err;
	if (argc != 3) {
		fprintf(stderr, "usage: perf textpoke test --write-fixture "
				"big-pokes[:<pokes>,<samples>,<sites>] <dir>\n"
				"       perf textpoke test --write-fixture "
				"pt-{start,end,none}[:<instructions>] <dir>\n");
		return 129;
	}
	err = fb__parse_name(argv[1], &o);
	if (err) {
		fprintf(stderr, "perf textpoke test: bad value '%s' for --write-fixture: %s\n",
			argv[1],
			err == -ENOENT ? "the fixture is big-pokes or pt-{start,end,none}" :
					 "big-pokes:<pokes>,<samples>,<sites>, at most 268435456 "
					 "pokes and samples and 1..1048576 sites");
		return 129;
	}
	err = fixture_big__write(argv[2], &o, &n);
	if (err) {
		fprintf(stderr, "perf textpoke test: writing %s: %s\n", argv[2], strerror(-err));
		return 1;
	}
	printf("%s: %llu text pokes over %u sites (%u poked), %llu samples (%llu at a site, "
	       "%llu of them on its jmp)\n",
	       argv[2], (unsigned long long)n.nr_pokes, o.nr_sites, n.nr_sites_poked,
	       (unsigned long long)n.nr_samples, (unsigned long long)n.nr_site_samples,
	       (unsigned long long)n.nr_site_samples_changed);
	return 0;
}
