// SPDX-License-Identifier: GPL-2.0-only
/*
 * Header features parsed into perf_env against what stock perf 6.1 prints
 * with perf report --header-only: strings, NRCPUS, TOTAL_MEM, CMDLINE,
 * EVENT_DESC names, SAMPLE_TIME, COMPRESSED and every BPF_PROG_INFO
 * program with its JIT symbols (address and length).  Then the legacy
 * big-endian ChromeOS pipe: features from record types 69..80, and
 * byte-swapped samples with sane pids, times in order.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests.h"
#include "../util/evsel.h"
#include "../util/header.h"
#include "../util/session.h"

static int check_str(const char *file, const char *line, const char *key, const char *ours)
{
	size_t n = strlen(key);

	if (strncmp(line, key, n))
		return 0;
	line += n;
	if (!ours || strncmp(line, ours, strlen(ours)) || line[strlen(ours)] != '\n') {
		pr_debug("%s: perf says %s%s", file, key, line);
		pr_debug("%s:      ours %s%s\n", file, key, ours ?: "(none)");
		return 1;
	}
	return 0;
}

static int check_u64(const char *file, const char *line, const char *key, u64 ours)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64, ours);
	return check_str(file, line, key, buf);
}

/* "# bpf_prog_info 5: name addr 0x... size 72" or a header then sub_prog lines */
static int check_bpf(const char *file, const char *line, struct perf_env *env, int *seen)
{
	static struct bpf_prog_info_entry *cur;
	unsigned int id, sub, size;
	unsigned long long addr;
	char name[256];
	int i;

	if (sscanf(line, "# bpf_prog_info %u:", &id) == 1) {
		cur = NULL;
		for (i = 0; i < env->nr_bpf_progs; i++)
			if (env->bpf_progs[i].id == id)
				cur = &env->bpf_progs[i];
		(*seen)++;
		if (!cur) {
			pr_debug("%s: bpf prog %u missing\n", file, id);
			return 1;
		}
		if (sscanf(line, "# bpf_prog_info %u: %255s addr %llx size %u", &id, name, &addr,
			   &size) == 4) {
			if (cur->nr_jited_ksyms != 1 || cur->jited_ksyms[0] != addr ||
			    !cur->jited_func_lens || cur->jited_func_lens[0] != size) {
				pr_debug("%s: bpf prog %u: %s", file, id, line);
				return 1;
			}
		}
		return 0;
	}
	if (sscanf(line, "# \tsub_prog %u: %255s addr %llx size %u", &sub, name, &addr, &size) ==
	    4) {
		if (!cur || sub >= cur->nr_jited_ksyms || cur->jited_ksyms[sub] != addr ||
		    !cur->jited_func_lens || cur->jited_func_lens[sub] != size) {
			pr_debug("%s: sub prog: %s", file, line);
			return 1;
		}
	}
	return 0;
}

static int compare_header(const char *rel, int *nr_checked)
{
	struct perf_tool tool = {.ordered_events = true};
	char cmd[PATH_MAX * 2], line[65536], cmdline[4096] = "", buf[128];
	struct perf_session *session;
	struct perf_env *env;
	int bad = 0, ev = 0, bpf_seen = 0, i;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "%s/%s", test_corpus_dir(), rel);
	session = perf_session__new(cmd, &tool);
	if (!session)
		return 1;
	env = &session->env;
	for (i = 0; i < env->nr_cmdline; i++) {
		strncat(cmdline, env->cmdline_argv[i], sizeof(cmdline) - strlen(cmdline) - 2);
		strcat(cmdline, " ");
	}
	snprintf(cmd, sizeof(cmd), "perf report --header-only -i %s/%s 2>/dev/null",
		 test_corpus_dir(), rel);
	p = popen(cmd, "r");
	if (!p) {
		perf_session__delete(session);
		return 1;
	}
	while (fgets(line, sizeof(line), p)) {
		bad += check_str(rel, line, "# hostname : ", env->hostname);
		bad += check_str(rel, line, "# os release : ", env->os_release);
		bad += check_str(rel, line, "# perf version : ", env->version);
		bad += check_str(rel, line, "# arch : ", env->arch);
		bad += check_str(rel, line, "# cpudesc : ", env->cpu_desc);
		bad += check_str(rel, line, "# cpuid : ", env->cpuid);
		bad += check_u64(rel, line, "# nrcpus online : ", env->nr_cpus_online);
		bad += check_u64(rel, line, "# nrcpus avail : ", env->nr_cpus_avail);
		snprintf(buf, sizeof(buf), "%" PRIu64 " kB", env->total_mem);
		bad += check_str(rel, line, "# total memory : ", buf);
		bad += check_str(rel, line, "# cmdline : ", cmdline);
		snprintf(buf, sizeof(buf), "%" PRIu64 ".%06" PRIu64,
			 (u64)(env->first_sample_time / 1000000000),
			 (u64)(env->first_sample_time % 1000000000 / 1000));
		bad += check_str(rel, line, "# time of first sample : ", buf);
		snprintf(buf, sizeof(buf), "%" PRIu64 ".%06" PRIu64,
			 (u64)(env->last_sample_time / 1000000000),
			 (u64)(env->last_sample_time % 1000000000 / 1000));
		bad += check_str(rel, line, "# time of last sample : ", buf);
		snprintf(buf, sizeof(buf), "Zstd, level = %u, ratio = %u", env->comp.level,
			 env->comp.ratio);
		bad += check_str(rel, line, "# compressed : ", buf);
		if (!strncmp(line, "# event : name = ", 17)) {
			const char *name = line + 17;
			size_t n = strcspn(name, ",");

			if (ev >= session->evlist->nr_entries ||
			    strlen(evsel__name(session->evlist->entries[ev])) != n ||
			    strncmp(evsel__name(session->evlist->entries[ev]), name, n)) {
				pr_debug("%s: event %d: perf %.*s, ours %s\n", rel, ev, (int)n,
					 name,
					 ev < session->evlist->nr_entries ?
					     evsel__name(session->evlist->entries[ev]) :
					     "(none)");
				bad++;
			}
			ev++;
		}
		bad += check_bpf(rel, line, env, &bpf_seen);
		(*nr_checked)++;
	}
	if (pclose(p)) {
		pr_debug("%s: perf report --header-only failed\n", rel);
		bad++;
	}
	if (ev != session->evlist->nr_entries) {
		pr_debug("%s: perf shows %d events, we have %d\n", rel, ev,
			 session->evlist->nr_entries);
		bad++;
	}
	if (bpf_seen != env->nr_bpf_progs) {
		pr_debug("%s: perf shows %d bpf progs, we have %d\n", rel, bpf_seen,
			 env->nr_bpf_progs);
		bad++;
	}
	perf_session__delete(session);
	return bad;
}

struct be_tool {
	struct perf_tool tool;
	u64 samples, bad_pid, backwards, last;
};

static int be_sample(struct perf_tool *tool, union perf_event *event, struct perf_sample *sample,
		     struct evsel *evsel, struct machine *machine)
{
	struct be_tool *bt = (struct be_tool *)tool;

	bt->samples++;
	if (sample->pid > 4194304 || sample->tid > 4194304)
		bt->bad_pid++;
	if (sample->time < bt->last)
		bt->backwards++;
	bt->last = sample->time;
	return 0;
}

static int check_big_endian(void)
{
	struct be_tool bt = {.tool = {.sample = be_sample, .ordered_events = true}};
	char path[PATH_MAX];
	struct perf_session *s;
	int err;

	snprintf(path, sizeof(path), "%s/platform2-sommelier/perf.data.piped.powerpc",
		 test_corpus_dir());
	s = perf_session__new(path, &bt.tool);
	TEST_ASSERT_VAL("powerpc session", s);
	err = perf_session__process_events(s);
	TEST_ASSERT_EQUAL("powerpc processed", err, 0);
	TEST_ASSERT_VAL("swapped", s->needs_swap);
	TEST_ASSERT_VAL("legacy pipe detected", s->legacy_pipe);
	TEST_ASSERT_VAL("arch from legacy record 72", s->env.arch && !strcmp(s->env.arch, "ppc64"));
	TEST_ASSERT_VAL("os release",
			s->env.os_release && !strcmp(s->env.os_release, "3.3.8-power7-600.25"));
	TEST_ASSERT_VAL("perf version",
			s->env.version && !strcmp(s->env.version, "3.3.0-4-GOOGLE"));
	TEST_ASSERT_EQUAL("nr cpus", s->env.nr_cpus_online, 64);
	TEST_ASSERT_EQUAL("samples", bt.samples, 9997);
	TEST_ASSERT_EQUAL("sane pids", bt.bad_pid, 0);
	TEST_ASSERT_EQUAL("time order", bt.backwards, 0);
	TEST_ASSERT_VAL("times are nanoseconds of a real uptime",
			bt.last > 1000000000ULL && bt.last < (1ULL << 60));
	TEST_ASSERT_EQUAL("event name", strcmp(evsel__name(s->evlist->entries[0]), "cycles"), 0);
	perf_session__delete(s);
	return TEST_OK;
}

/* without EVENT_DESC the names come from the attrs, as perf 6.1 (perf evlist) makes them */
static int check_default_names(void)
{
	static const char *const want[] = {
	    "cycles:ppH",
	    "instructions:ppH",
	    "branches:ppH",
	};
	struct perf_tool tool = {.ordered_events = true};
	char path[PATH_MAX];
	struct perf_session *s;
	int i, ok = 1;

	snprintf(path, sizeof(path), "%s/perf_data_converter/perf.data.piped.lost_samples-4.4",
		 test_corpus_dir());
	s = perf_session__new(path, &tool);
	TEST_ASSERT_VAL("session", s);
	ok = !perf_session__process_events(s) && s->evlist->nr_entries == 3;
	for (i = 0; ok && i < 3; i++) {
		ok = !strcmp(evsel__name(s->evlist->entries[i]), want[i]);
		if (!ok)
			pr_debug("event %d: %s, perf script says %s\n", i,
				 evsel__name(s->evlist->entries[i]), want[i]);
	}
	perf_session__delete(s);
	return ok ? TEST_OK : TEST_FAIL;
}

/* attrs of perf >= 6.3 (136 bytes, config3): perf 6.1 refuses these files, we read them */
static int check_attr_136(void)
{
	static const char *const files[] = {
	    "frankentui/perf.data",
	    "khronos/perf.data.old",
	    "hotspot/perf.data.PerfFormatLost",
	    "perfparser/cpp-inlining.perf.data",
	    "linux-perf-data/sleep.data",
	    "linux-perf-data/sleep.compressed.data",
	    "linux-perf-data/sleep.compressed2.data",
	};
	struct perf_tool tool = {.ordered_events = true};
	char path[PATH_MAX];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		struct perf_session *s;
		bool ok;

		snprintf(path, sizeof(path), "%s/%s", test_corpus_dir(), files[i]);
		s = perf_session__new(path, &tool);
		ok = s && s->file_header.attr_size == 136 + 16 && s->evlist->nr_entries &&
		     s->evlist->entries[0]->attr_size == 136 && !perf_session__process_events(s) &&
		     s->stats.nr_events[PERF_RECORD_SAMPLE] > 0;
		if (!ok)
			pr_debug("%s: 136-byte attrs not read\n", files[i]);
		perf_session__delete(s);
		if (!ok)
			return TEST_FAIL;
	}
	return TEST_OK;
}

static int test__reader_header(struct test_suite *t)
{
	static const char *const files[] = {
	    "perf_data_converter/perf.data.branch_stack_spec",
	    "perf_data_converter/perf.data.lost_samples-4.4",
	    "perf_data_converter/perf.data.weight_struct",
	    "perf_data_converter/perf.data.hybrid_topology",
	    "perfparser/vector_static_gcc__perf.data.zstd",
	    "perfparser/parallel_static_gcc__perf.data.zstd",
	    "linux-perf-file-reader/perf.data",
	    "autofdo/test.lbr",
	};
	char path[PATH_MAX];
	int bad = 0, checked = 0;
	size_t i;

	snprintf(path, sizeof(path), "%s/INDEX.md", test_corpus_dir());
	if (access(path, R_OK)) {
		test_skip(t, "no corpus at %s", test_corpus_dir());
		return TEST_SKIP;
	}
	if (check_big_endian() || check_default_names() || check_attr_136())
		return TEST_FAIL;
	if (system("perf --version >/dev/null 2>&1")) {
		test_skip(t, "stock perf not found (big-endian pipe checked)");
		return TEST_SKIP;
	}
	for (i = 0; i < ARRAY_SIZE(files); i++)
		bad += compare_header(files[i], &checked);
	pr_debug("%d header lines checked, %d differ\n", checked, bad);
	TEST_ASSERT_EQUAL("header lines that differ from perf --header-only", bad, 0);
	return TEST_OK;
}

struct test_suite suite__reader_header = {
    .desc = "reader: header features as perf report --header-only shows them",
    .func = test__reader_header,
};
