// SPDX-License-Identifier: GPL-2.0-only
/*
 * One recording built byte by byte twice, little- and big-endian: header,
 * a 128-byte attr with its flag bits, ids, COMM / KSYMBOL / TEXT_POKE with
 * id trailers, samples with callchains and user registers (ABI 2 and 1),
 * and features (strings, NRCPUS, EVENT_DESC, SAMPLE_TIME, BPF_PROG_INFO).
 * Both must read to the same values; the TEXT_POKE -D line must look as
 * perf 6.1 prints it.  No real big-endian file-mode file exists in the
 * corpus, so this is what proves the swapping of file headers, attrs,
 * features and records.  The little-endian dump is then compared with
 * stock perf script -D's; without stock perf the test ends as a Skip
 * naming that part.
 */
#include <fcntl.h>
#include <linux/bpf.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests.h"
#include "../util/event.h"
#include "../util/evsel.h"
#include "../util/header.h"
#include "../util/session.h"

struct bld {
	u8 buf[16384];
	size_t len;
	bool be;
};

static void b_bytes(struct bld *b, const void *p, size_t n)
{
	memcpy(b->buf + b->len, p, n);
	b->len += n;
}

static void b_int(struct bld *b, u64 v, int size)
{
	u8 out[8];
	int i;

	for (i = 0; i < size; i++)
		out[b->be ? size - 1 - i : i] = v >> (8 * i);
	b_bytes(b, out, size);
}

#define b_u8(b, v) b_int(b, v, 1)
#define b_u16(b, v) b_int(b, v, 2)
#define b_u32(b, v) b_int(b, v, 4)
#define b_u64(b, v) b_int(b, v, 8)

static void b_at64(struct bld *b, size_t at, u64 v)
{
	size_t save = b->len;

	b->len = at;
	b_u64(b, v);
	b->len = save;
}

static void b_pad8(struct bld *b)
{
	while (b->len % 8)
		b_u8(b, 0);
}

/* the attr flag word: same byte, mirrored bit on big-endian */
static void b_flags(struct bld *b, u64 flags)
{
	int i;

	for (i = 0; i < 8; i++) {
		u8 byte = flags >> (8 * i), r = 0;
		int k;

		for (k = 0; k < 8; k++)
			if (byte & (1 << k))
				r |= 1 << (b->be ? 7 - k : k);
		b_u8(b, r);
	}
}

static void b_string(struct bld *b, const char *s)
{
	u32 len = PERF_ALIGN(strlen(s) + 1, 64);
	u8 zero[64] = {0};

	b_u32(b, len);
	b_bytes(b, s, strlen(s));
	b_bytes(b, zero, len - strlen(s));
}

#define SAMPLE_TYPE                                                                     \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER)
#define ID 7

static void b_attr(struct bld *b)
{
	size_t start = b->len;

	b_u32(b, PERF_TYPE_SOFTWARE);
	b_u32(b, 128);
	b_u64(b, PERF_COUNT_SW_CPU_CLOCK);
	b_u64(b, 250000);
	b_u64(b, SAMPLE_TYPE);
	b_u64(b, 0);
	/* disabled, mmap, comm, sample_id_all, exclude_guest, ksymbol (29), text_poke (33) */
	b_flags(b, 1ULL << 0 | 1ULL << 8 | 1ULL << 9 | 1ULL << 18 | 1ULL << 20 | 1ULL << 29 |
		       1ULL << 33);
	b_u32(b, 0);   /* wakeup_events */
	b_u32(b, 0);   /* bp_type */
	b_u64(b, 0);   /* config1 */
	b_u64(b, 0);   /* config2 */
	b_u64(b, 0);   /* branch_sample_type */
	b_u64(b, 0x3); /* sample_regs_user: AX, BX */
	b_u32(b, 0);   /* sample_stack_user */
	b_u32(b, 0);   /* clockid */
	while (b->len < start + 128)
		b_u8(b, 0);
}

/* id trailer: TID, TIME, CPU, IDENTIFIER */
static void b_trailer(struct bld *b, u32 pid, u64 time)
{
	b_u32(b, pid);
	b_u32(b, pid);
	b_u64(b, time);
	b_u32(b, 1);
	b_u32(b, 0);
	b_u64(b, ID);
}

static void b_header(struct bld *b, u32 type, u16 misc, size_t *at)
{
	*at = b->len;
	b_u32(b, type);
	b_u16(b, misc);
	b_u16(b, 0);
}

static void b_end(struct bld *b, size_t at)
{
	u16 size = b->len - at;
	size_t save = b->len;

	b->len = at + 6;
	b_u16(b, size);
	b->len = save;
}

static void b_sample(struct bld *b, u64 ip, u64 time, u64 abi)
{
	size_t at;

	b_header(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, &at);
	b_u64(b, ID);
	b_u64(b, ip);
	b_u32(b, 100);
	b_u32(b, 101);
	b_u64(b, time);
	b_u32(b, 1);
	b_u32(b, 0);
	b_u64(b, 250000);
	b_u64(b, 2); /* callchain */
	b_u64(b, PERF_CONTEXT_USER);
	b_u64(b, ip);
	b_u64(b, abi);
	b_u64(b, 0x1111);
	b_u64(b, 0x2222);
	b_end(b, at);
}

static const u8 old_code[5] = {0x0f, 0x1f, 0x44, 0x00, 0x00};
static const u8 new_code[5] = {0xe9, 0x10, 0x20, 0x00, 0x00};

static void b_records(struct bld *b)
{
	size_t at;

	b_header(b, PERF_RECORD_COMM, 0, &at);
	b_u32(b, 100);
	b_u32(b, 101);
	b_bytes(b, "synth\0\0\0", 8);
	b_trailer(b, 100, 1000);
	b_end(b, at);

	b_header(b, PERF_RECORD_KSYMBOL, 0, &at);
	b_u64(b, 0xffffffffc0001000ULL);
	b_u32(b, 64);
	b_u16(b, PERF_RECORD_KSYMBOL_TYPE_BPF);
	b_u16(b, 0);
	b_bytes(b, "bpf_prog_synth\0\0", 16);
	b_trailer(b, 0, 2000);
	b_end(b, at);

	b_header(b, PERF_RECORD_TEXT_POKE, PERF_RECORD_MISC_KERNEL, &at);
	b_u64(b, 0xffffffff81000010ULL);
	b_u16(b, 5);
	b_u16(b, 5);
	b_bytes(b, old_code, 5);
	b_bytes(b, new_code, 5);
	b_pad8(b);
	b_trailer(b, 0, 3000);
	b_end(b, at);

	b_sample(b, 0x401000, 4000, 2);
	b_header(b, PERF_RECORD_FINISHED_ROUND, 0, &at);
	b_end(b, at);
	b_sample(b, 0x8049000, 5000, 1);
}

static void b_bpf_prog_info(struct bld *b)
{
	struct bpf_prog_info info;
	size_t start;
	u32 i;

	b_u32(b, 1);		/* one program */
	b_u32(b, sizeof(info)); /* info_len */
	b_u32(b, 24);		/* data_len */
	b_u64(b, 0);		/* arrays */
	start = b->len;
	memset(b->buf + start, 0, sizeof(info));
	b->len = start + offsetof(struct bpf_prog_info, id);
	b_u32(b, 42);
	b->len = start + offsetof(struct bpf_prog_info, jited_prog_len);
	b_u32(b, 4);
	b->len = start + offsetof(struct bpf_prog_info, jited_prog_insns);
	b_u64(b, 0); /* data offset 0 */
	b->len = start + offsetof(struct bpf_prog_info, nr_jited_ksyms);
	b_u32(b, 1);
	b_u32(b, 1);  /* nr_jited_func_lens */
	b_u64(b, 8);  /* jited_ksyms at data + 8 */
	b_u64(b, 16); /* jited_func_lens at data + 16 */
	b->len = start + sizeof(info);
	for (i = 0; i < 4; i++)
		b_u8(b, 0xc0 + i); /* JIT bytes */
	b_u32(b, 0);
	b_u64(b, 0xffffffffc0001000ULL);
	b_u32(b, 64);
	b_u32(b, 0);
}

static void b_file(struct bld *b)
{
	static const int feats[] = {
	    HEADER_HOSTNAME,   HEADER_ARCH,	   HEADER_NRCPUS,
	    HEADER_EVENT_DESC, HEADER_SAMPLE_TIME, HEADER_BPF_PROG_INFO,
	};
	size_t attrs, ids, data, table, i;
	u64 bits = 0;

	for (i = 0; i < ARRAY_SIZE(feats); i++)
		bits |= 1ULL << feats[i];
	b->len = 0;
	b_u64(b, PERF_MAGIC2);
	b_u64(b, 104);
	b_u64(b, 128 + 16);
	b_u64(b, 0);
	b_u64(b, 0); /* attrs: patched */
	b_u64(b, 0);
	b_u64(b, 0); /* data: patched */
	b_u64(b, 0);
	b_u64(b, 0); /* event_types */
	b_u64(b, bits);
	b_u64(b, 0);
	b_u64(b, 0);
	b_u64(b, 0);

	ids = b->len;
	b_u64(b, ID);
	attrs = b->len;
	b_attr(b);
	b_u64(b, ids);
	b_u64(b, 8);
	b_at64(b, 24, attrs);
	b_at64(b, 32, b->len - attrs);

	data = b->len;
	b_records(b);
	b_at64(b, 40, data);
	b_at64(b, 48, b->len - data);

	table = b->len;
	b->len += 16 * ARRAY_SIZE(feats);
	for (i = 0; i < ARRAY_SIZE(feats); i++) {
		size_t start = b->len;

		switch (feats[i]) {
		case HEADER_HOSTNAME:
			b_string(b, "synthhost");
			break;
		case HEADER_ARCH:
			b_string(b, "x86_64");
			break;
		case HEADER_NRCPUS:
			b_u32(b, 2);
			b_u32(b, 2);
			break;
		case HEADER_EVENT_DESC:
			b_u32(b, 1);
			b_u32(b, 128);
			b_attr(b);
			b_u32(b, 1);
			b_string(b, "cpu-clock:synth");
			b_u64(b, ID);
			break;
		case HEADER_SAMPLE_TIME:
			b_u64(b, 4000);
			b_u64(b, 5000);
			break;
		case HEADER_BPF_PROG_INFO:
			b_bpf_prog_info(b);
			break;
		}
		b_at64(b, table + 16 * i, start);
		b_at64(b, table + 16 * i + 8, b->len - start);
	}
}

struct synth_tool {
	struct perf_tool tool;
	int samples, comms, ksyms, pokes;
	u64 ip[2], time[2], abi[2], reg1[2], chain1[2];
	u32 pid, tid, cpu;
	char comm[16], ksym[32];
	u64 ksym_addr, poke_addr, poke_time;
	u8 poke_bytes[10];
};

static int synth_sample(struct perf_tool *tool, union perf_event *event, struct perf_sample *s,
			struct evsel *evsel, struct machine *machine)
{
	struct synth_tool *st = (struct synth_tool *)tool;
	int i = st->samples++;

	if (i < 2) {
		st->ip[i] = s->ip;
		st->time[i] = s->time;
		st->abi[i] = s->user_regs.abi;
		st->reg1[i] = s->user_regs.regs ? s->user_regs.regs[1] : 0;
		st->chain1[i] = s->callchain && s->callchain->nr == 2 ? s->callchain->ips[1] : 0;
	}
	st->pid = s->pid;
	st->tid = s->tid;
	st->cpu = s->cpu;
	return 0;
}

static int synth_side(struct perf_tool *tool, union perf_event *event, struct perf_sample *s,
		      struct evsel *evsel, struct machine *machine)
{
	struct synth_tool *st = (struct synth_tool *)tool;

	switch (event->header.type) {
	case PERF_RECORD_COMM:
		st->comms++;
		snprintf(st->comm, sizeof(st->comm), "%s", event->comm.comm);
		break;
	case PERF_RECORD_KSYMBOL:
		st->ksyms++;
		snprintf(st->ksym, sizeof(st->ksym), "%s", event->ksymbol.name);
		st->ksym_addr = event->ksymbol.addr;
		break;
	case PERF_RECORD_TEXT_POKE:
		st->pokes++;
		st->poke_addr = event->text_poke.addr;
		st->poke_time = s->time;
		memcpy(st->poke_bytes, event->text_poke.bytes, 10);
		break;
	}
	return 0;
}

static int read_synth(const char *path, struct synth_tool *st)
{
	struct perf_session *s;
	struct perf_env *env;
	int err;

	memset(st, 0, sizeof(*st));
	st->tool.sample = synth_sample;
	st->tool.side_band = synth_side;
	st->tool.ordered_events = true;
	s = perf_session__new(path, &st->tool);
	TEST_ASSERT_VAL("session", s);
	err = perf_session__process_events(s);
	env = &s->env;
	if (err || strcmp(env->hostname ?: "", "synthhost") || strcmp(env->arch ?: "", "x86_64") ||
	    env->nr_cpus_online != 2 || env->first_sample_time != 4000 ||
	    env->last_sample_time != 5000 || s->evlist->nr_entries != 1 ||
	    strcmp(evsel__name(s->evlist->entries[0]), "cpu-clock:synth") ||
	    !s->evlist->entries[0]->attr.sample_id_all || !s->evlist->entries[0]->attr.ksymbol ||
	    !s->evlist->entries[0]->attr.text_poke || s->evlist->entries[0]->attr.mmap2 ||
	    s->evlist->entries[0]->attr.sample_regs_user != 3 || env->nr_bpf_progs != 1 ||
	    env->bpf_progs[0].id != 42 || env->bpf_progs[0].nr_jited_ksyms != 1 ||
	    env->bpf_progs[0].jited_ksyms[0] != 0xffffffffc0001000ULL ||
	    !env->bpf_progs[0].jited_func_lens || env->bpf_progs[0].jited_func_lens[0] != 64 ||
	    env->bpf_progs[0].jited_prog_len != 4 || !env->bpf_progs[0].jited_prog_insns ||
	    env->bpf_progs[0].jited_prog_insns[3] != 0xc3) {
		pr_debug("%s: header, attr or features read wrong (err %d)\n", path, err);
		perf_session__delete(s);
		return TEST_FAIL;
	}
	perf_session__delete(s);
	TEST_ASSERT_EQUAL("samples", st->samples, 2);
	TEST_ASSERT_EQUAL("ip 0", st->ip[0], 0x401000);
	TEST_ASSERT_EQUAL("ip 1", st->ip[1], 0x8049000);
	TEST_ASSERT_EQUAL("time", st->time[1], 5000);
	TEST_ASSERT_EQUAL("abi 64", st->abi[0], 2);
	TEST_ASSERT_EQUAL("abi 32", st->abi[1], 1);
	TEST_ASSERT_EQUAL("reg BX", st->reg1[0], 0x2222);
	TEST_ASSERT_EQUAL("callchain", st->chain1[1], 0x8049000);
	TEST_ASSERT_EQUAL("pid", st->pid, 100);
	TEST_ASSERT_EQUAL("tid", st->tid, 101);
	TEST_ASSERT_EQUAL("cpu", st->cpu, 1);
	TEST_ASSERT_EQUAL("comms", st->comms, 1);
	TEST_ASSERT_VAL("comm", !strcmp(st->comm, "synth"));
	TEST_ASSERT_VAL("ksym", st->ksyms == 1 && !strcmp(st->ksym, "bpf_prog_synth"));
	TEST_ASSERT_EQUAL("ksym addr", st->ksym_addr, 0xffffffffc0001000ULL);
	TEST_ASSERT_EQUAL("pokes", st->pokes, 1);
	TEST_ASSERT_EQUAL("poke addr", st->poke_addr, 0xffffffff81000010ULL);
	TEST_ASSERT_EQUAL("poke time from trailer", st->poke_time, 3000);
	TEST_ASSERT_VAL("poke old bytes", !memcmp(st->poke_bytes, old_code, 5));
	TEST_ASSERT_VAL("poke new bytes", !memcmp(st->poke_bytes + 5, new_code, 5));
	return TEST_OK;
}

static int write_synth(const char *path, struct bld *b)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, b->buf, b->len);
	close(fd);
	return n == (ssize_t)b->len ? 0 : -1;
}

/* the dump's own lines (see reader-dump.c), without the hex of the records */
static bool dump_line(const char *line)
{
	const char *p = line;

	if (strstr(line, " bytes:") || !strncmp(line, "...", 3))
		return true;
	while (strncmp(p, "0x", 2) && (*p == ' ' || (*p >= '0' && *p <= '9')))
		p++;
	return !strncmp(p, "0x", 2) && strstr(p, "]: PERF_RECORD_");
}

static char *filter_file(const char *path)
{
	char line[4096], *out = calloc(1, 65536);
	FILE *f = fopen(path, "r");
	size_t n = 0;

	if (!f || !out) {
		if (f)
			fclose(f);
		free(out);
		return NULL;
	}
	while (fgets(line, sizeof(line), f))
		if (dump_line(line) && n + strlen(line) < 65535) {
			strcpy(out + n, line);
			n += strlen(line);
		}
	fclose(f);
	return out;
}

/*
 * The -D dump: the TEXT_POKE lines as perf 6.1 prints them (no symbols),
 * and, when stock perf is there, every decoded line equal to its perf
 * script -D of the little-endian file.  (perf 6.1 does not byte-swap
 * KSYMBOL records: on the big-endian file it prints a garbage address and
 * time, so there we only require the same lines as for little-endian.)
 */
static int check_dump(const char *path, const char *dir, char **lines)
{
	static const char *const want =
	    "1 3000 0x180 [0x40]: PERF_RECORD_TEXT_POKE ffffffff81000010  old len 5 new len 5\n"
	    "            Old bytes: 0f 1f 44 00 00\n"
	    "            New bytes: e9 10 20 00 00\n";
	struct perf_tool tool = {.ordered_events = true};
	char out[128];
	struct perf_session *s;
	int fd, saved;

	snprintf(out, sizeof(out), "%s/ours.txt", dir);
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return TEST_FAIL;
	fflush(stdout);
	saved = dup(1);
	dup2(fd, 1);
	close(fd);
	dump_trace = true;
	s = perf_session__new(path, &tool);
	if (s)
		perf_session__process_events(s);
	perf_session__delete(s);
	dump_trace = false;
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	*lines = filter_file(out);
	unlink(out);
	if (!*lines || !strstr(*lines, want)) {
		pr_debug("%s: dump lacks:\n%sin:\n%s", path, want, *lines ?: "");
		return TEST_FAIL;
	}
	return TEST_OK;
}

static int compare_with_perf(struct test_suite *t, const char *path, const char *dir,
			     const char *ours)
{
	char out[128], cmd[256], *theirs;
	int ret;

	if (system("perf --version >/dev/null 2>&1")) {
		test_skip_part(t, "stock perf script -D comparison: stock perf is not installed");
		return test_result(t);
	}
	snprintf(out, sizeof(out), "%s/theirs.txt", dir);
	snprintf(cmd, sizeof(cmd), "perf script -D -i %s >%s 2>/dev/null", path, out);
	if (system(cmd)) {
		unlink(out);
		pr_debug("perf script -D cannot read %s\n", path);
		return TEST_FAIL;
	}
	theirs = filter_file(out);
	unlink(out);
	ret = theirs && !strcmp(theirs, ours) ? TEST_OK : TEST_FAIL;
	if (ret)
		pr_debug("perf script -D:\n%s\nours:\n%s", theirs ?: "", ours);
	free(theirs);
	return ret;
}

static int test__reader_synth(struct test_suite *t)
{
	char dir[] = "/tmp/reader-synth-XXXXXX", le[64], be[64];
	char *dump_le = NULL, *dump_be = NULL;
	struct synth_tool a, b;
	struct bld *bl;
	int ret = TEST_FAIL;

	if (!mkdtemp(dir))
		return TEST_FAIL;
	snprintf(le, sizeof(le), "%s/le.data", dir);
	snprintf(be, sizeof(be), "%s/be.data", dir);
	bl = calloc(1, sizeof(*bl));
	if (!bl)
		goto out;
	b_file(bl);
	if (write_synth(le, bl))
		goto out;
	bl->be = true;
	b_file(bl);
	if (write_synth(be, bl))
		goto out;
	if (read_synth(le, &a) || read_synth(be, &b)) {
		pr_debug("little-endian and/or big-endian file read wrong\n");
		goto out;
	}
	ret = check_dump(le, dir, &dump_le);
	if (ret == TEST_OK)
		ret = check_dump(be, dir, &dump_be);
	if (ret == TEST_OK && strcmp(dump_le, dump_be)) {
		pr_debug("the dumps of the two files differ\n");
		ret = TEST_FAIL;
	}
	if (ret == TEST_OK)
		ret = compare_with_perf(t, le, dir, dump_le);
	if (getenv("READER_SYNTH_KEEP"))
		goto out_keep;
out:
	free(dump_le);
	free(dump_be);
	free(bl);
	unlink(le);
	unlink(be);
	rmdir(dir);
	return ret;
out_keep:
	pr_debug("kept %s\n", dir);
	free(dump_le);
	free(dump_be);
	free(bl);
	return ret;
}

struct test_suite suite__reader_synth = {
    .desc = "reader: a built recording reads the same little- and big-endian",
    .func = test__reader_synth,
};
