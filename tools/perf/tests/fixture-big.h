/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_TESTS_FIXTURE_BIG_H
#define __PERF_TEXTPOKE_TESTS_FIXTURE_BIG_H

#include "../util/types.h"

/*
 * A large generated recording for make bench (perf textpoke report on a
 * jump-label storm), and its small instances for the tests.
 *
 * The kernel is nr_sites functions of FB_FN_LEN bytes from FB_TEXT, each
 * with one 5-byte jump label at FB_SITE_OFF (nop5 0f 1f 44 00 00 <-> jmp
 * rel32 to FB_JMP_OFF of the same function), in kcore_dir/kcore as one
 * PT_LOAD segment and named big_fn_<n> in kcore_dir/kallsyms, as
 * perf record --kcore leaves them.  nr_pokes TEXT_POKE records toggle a
 * site chosen at random, their old bytes always those the site holds, so
 * that every poke verifies against the kcore; nr_samples cpu-clock
 * samples, kernel mode, of FB_NR_TASKS tasks on 2 CPUs, half of them in
 * the hottest 1% of the functions, one in eight exactly at a site.  Pokes
 * and samples are evenly interleaved in time, ~1 us apart, with a
 * FINISHED_ROUND every FB_ROUND records.  A fixed seed makes the same
 * file every time; memory stays a few bytes per site whatever the counts,
 * since the text and the records are streamed out.
 */

#define FB_T0 1000000000ULL
#define FB_TEXT 0xffffffff81000000ULL
#define FB_FN_LEN 0x400
#define FB_SITE_OFF 4
#define FB_JMP_OFF 0x80
#define FB_NR_TASKS 8
#define FB_PID0 2000 /* tasks are FB_PID0 + i, comm "bigpoke-<i>" */
#define FB_ROUND 4096

/* the limits of the --write-fixture command line */
#define FB_MAX_SITES (1U << 20)
#define FB_MAX_RECORDS (1ULL << 28)

struct fixture_big_opts {
	u64 nr_pokes;
	u64 nr_samples;
	u32 nr_sites;
	u64 seed; /* 0: the default seed */
};

/* what the generator wrote, from its own model, for tests to check readers against */
struct fixture_big_counts {
	u64 nr_pokes, nr_samples;
	u64 nr_comms, nr_mmaps;
	u64 nr_site_samples;	     /* samples whose IP is a site */
	u64 nr_site_samples_changed; /* ... while the site held its jmp */
	u32 nr_sites_poked;	     /* sites poked at least once */
	u32 nr_sites_jmp_at_end;     /* sites holding the jmp at the end */
	u32 hottest_fn;		     /* the function with the most samples */
	u64 hottest_nr;		     /* its samples */
	u64 first_time, last_time;
};

/*
 * Writes the recording directory @path (data and kcore_dir/, replacing
 * an earlier recording there as perf record does).  0 or -errno; @counts
 * may be NULL.
 */
int fixture_big__write(const char *path, const struct fixture_big_opts *opts,
		       struct fixture_big_counts *counts);

/*
 * perf textpoke test --write-fixture big-pokes[:POKES,SAMPLES,SITES] DIR
 * (hidden: not in -h; see perf-textpoke-test.txt).  @argv[0] is
 * "--write-fixture".  Returns the exit status.
 */
int fixture_big__main(int argc, char **argv);

#endif /* __PERF_TEXTPOKE_TESTS_FIXTURE_BIG_H */
