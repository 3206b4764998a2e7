// SPDX-License-Identifier: GPL-2.0-only
/*
 * The writer on its own: the bytes it lays down (header, attrs, ids,
 * record padding, every sample field in the kernel's order, the feature
 * table), atomic output, refusal of hostile sizes, and records read back.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests.h"
#include "fixture.h"
#include "../util/header.h"
#include "../util/writer.h"

static u8 *slurp(const char *path, size_t *size)
{
	struct stat st;
	u8 *buf = NULL;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return NULL;
	if (!fstat(fd, &st) && st.st_size > 0 && (buf = malloc(st.st_size)) &&
	    read(fd, buf, st.st_size) != st.st_size)
		zfree(&buf);
	close(fd);
	*size = buf ? st.st_size : 0;
	return buf;
}

static int nr_dir_entries(const char *dir)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	int n = 0;

	if (!d)
		return -1;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

static struct perf_event_attr plain_attr(u64 sample_type)
{
	struct perf_event_attr attr = {
	    .type = PERF_TYPE_SOFTWARE,
	    .size = sizeof(attr),
	    .config = PERF_COUNT_SW_CPU_CLOCK,
	    .sample_period = 1,
	    .sample_type = sample_type,
	};

	return attr;
}

/* first record of the data section of a file-mode file */
static const struct perf_event_header *first_record(const u8 *buf, size_t size)
{
	const struct perf_file_header *h = (const void *)buf;

	if (size < sizeof(*h) || h->data.offset + 8 > size)
		return NULL;
	return (const void *)(buf + h->data.offset);
}

static int test__writer_layout(struct test_suite *t)
{
	static const u8 old_b[1] = {0xcc}, new_b[2] = {0x66, 0x90};
	const struct perf_file_section *feat;
	const struct perf_event_header *rec;
	const struct perf_file_header *h;
	struct perf_event_attr attr = plain_attr(PERF_SAMPLE_IP);
	struct perf_writer *w;
	char *dir = fixture__tmpdir(), *path = NULL;
	const u8 *text;
	u64 ids[3] = {7, 8, 9};
	size_t size;
	u8 *buf = NULL;
	int ret = TEST_FAIL;

	TEST_ASSERT_VAL("tmpdir", dir);
	if (asprintf(&path, "%s/perf.data", dir) < 0)
		goto out;
	w = perf_writer__new(path, 0);
	if (!w)
		goto out;
	if (perf_writer__add_attr(w, &attr, ids, 3, "cpu-clock") != 0 ||
	    perf_writer__synth_text_poke(w, 0, 0xffffffff81000000ULL, old_b, 1, new_b, 2, NULL) ||
	    perf_writer__set_hostname(w, "h") || perf_writer__set_nrcpus(w, 4, 3)) {
		perf_writer__abort(w);
		goto out;
	}
	if (perf_writer__close(w))
		goto out;
	buf = slurp(path, &size);
	if (!buf)
		goto out;
	h = (const void *)buf;
	if (h->magic != PERF_MAGIC2 || h->size != 104 || h->attr_size != 144 ||
	    h->attrs.offset != 104 || h->attrs.size != 144) {
		pr_debug("bad file header\n");
		goto out;
	}
	/* the attr: IDENTIFIER added, size 128, ids section after the attrs */
	{
		const struct perf_event_attr *a = (const void *)(buf + 104);
		const struct perf_file_section *ids_sec = (const void *)(buf + 104 + 128);
		const u64 *id = (const void *)(buf + ids_sec->offset);

		if (a->size != 128 || a->sample_type != (PERF_SAMPLE_IP | PERF_SAMPLE_IDENTIFIER) ||
		    ids_sec->size != 24 || id[0] != 7 || id[2] != 9) {
			pr_debug("bad attr or ids\n");
			goto out;
		}
	}
	/*
	 * TEXT_POKE: 8 + 8 + 4 + 3 bytes padded to 24, the padding zero, then
	 * the sample_id_all trailer: the identifier
	 */
	rec = first_record(buf, size);
	if (!rec || rec->type != PERF_RECORD_TEXT_POKE || rec->size != 32 ||
	    rec->misc != PERF_RECORD_MISC_KERNEL || h->data.size != 32 ||
	    *(const u64 *)((const u8 *)rec + 24) != 7) {
		pr_debug("bad text_poke record\n");
		goto out;
	}
	text = (const u8 *)rec + 20;
	if (text[0] != 0xcc || text[1] != 0x66 || text[2] != 0x90 || text[3] != 0) {
		pr_debug("bad text_poke bytes\n");
		goto out;
	}
	/* features: HOSTNAME (3) then NRCPUS (7), table right after the data */
	if (h->adds_features[0] !=
	    ((1ULL << HEADER_HOSTNAME) | (1ULL << HEADER_NRCPUS) | (1ULL << HEADER_EVENT_DESC))) {
		pr_debug("feature bits %llx\n", (unsigned long long)h->adds_features[0]);
		goto out;
	}
	feat = (const void *)(buf + h->data.offset + h->data.size);
	if (feat[0].size != 4 + 64 || memcmp(buf + feat[0].offset + 4, "h\0", 2) ||
	    feat[1].size != 8 || *(const u32 *)(buf + feat[1].offset) != 4 ||
	    feat[2].offset + feat[2].size != size) {
		pr_debug("bad feature table\n");
		goto out;
	}
	ret = TEST_OK;
out:
	free(buf);
	free(path);
	fixture__rm_rf(dir);
	free(dir);
	return ret;
}

/* stock perf parses every field of it; without stock perf, a Skip naming that part */
static int perf_parses_sample(struct test_suite *t, const char *path)
{
	static const char *const expect[] = {
	    "PERF_RECORD_SAMPLE(IP, 0x2): 5/6: 0x1111 period: 21845 addr: 0x3333\n",
	    "... FP chain: nr:2\n",
	    ".....  1: 0000000000400000\n",
	    "... branch stack: nr:1\n",
	    ".....  0: 000000000000000a -> 000000000000000b",
	    "... user regs: mask 0x3 ABI 64-bit\n",
	    ".... AX    0x0000000000000077\n",
	    ".... BX    0x0000000000000088\n",
	    "... ustack: size 8, offset 0xc8\n",
	    /* x86 perf reads ins_lat from WEIGHT_STRUCT, p_stage_cyc only on powerpc */
	    "... weight: 1,0x2,",
	    " . data_src: 0xdada\n",
	    "... transaction: 7a7a\n",
	    " .. phys_addr: 0xbeef\n",
	    " .. data page size: 4K\n",
	    " .. code page size: 8K\n",
	    "...... time enabled 000000000000000a\n",
	    "...... time running 0000000000000014\n",
	    "..... id 000000000000004d, value 0000000000006666\n",
	};
	char *cmd = NULL, *out = NULL, *err = NULL;
	int ret = TEST_FAIL, status;
	size_t i;

	if (fixture__run("perf version", NULL, NULL)) {
		test_skip_part(t, "perf report -D parse: stock perf is not installed");
		return test_result(t);
	}
	if (asprintf(&cmd, "perf report -D -i %s", path) < 0)
		return TEST_FAIL;
	status = fixture__run(cmd, &out, &err);
	pr_debug("$ %s -> %d\n%s%s", cmd, status, out ? out : "", err ? err : "");
	if (status || !out || !err || err[0])
		goto out;
	for (i = 0; i < ARRAY_SIZE(expect); i++) {
		if (!strstr(out, expect[i])) {
			pr_debug("perf report -D lacks \"%s\"\n", expect[i]);
			goto out;
		}
	}
	ret = TEST_OK;
out:
	free(cmd);
	free(out);
	free(err);
	return ret;
}

/*
 * Every sample field, in the order of FORMAT.md, against the u64 words
 * the kernel would have written (hand-derived), then parsed by stock perf
 * report -D.  Mutation caught: PERF_SAMPLE_WEIGHT_STRUCT written before
 * DATA_SRC.
 */
static int test__writer_sample_fields(struct test_suite *t)
{
	static const u64 expect[] = {
	    77,			   /* IDENTIFIER */
	    0x1111,		   /* IP */
	    0x0000000600000005ULL, /* TID: pid 5, tid 6 */
	    0x2222,		   /* TIME */
	    0x3333,		   /* ADDR */
	    77,			   /* ID */
	    0x4444,		   /* STREAM_ID */
	    1,			   /* CPU 1, res 0 */
	    0x5555,		   /* PERIOD */
	    0x6666,
	    10,
	    20,
	    77, /* READ: value, enabled, running, id */
	    2,
	    (u64)PERF_CONTEXT_USER,
	    0x400000,		   /* CALLCHAIN */
	    0x0000cdab00000004ULL, /* RAW: size 4, abcd + pad */
	    1,
	    0xa,
	    0xb,
	    0, /* BRANCH_STACK: nr, from, to, flags */
	    2,
	    0x77,
	    0x88, /* REGS_USER abi 2, two regs */
	    8,
	    0x9999,
	    8,			   /* STACK_USER size, data, dyn_size */
	    0x0003000200000001ULL, /* WEIGHT_STRUCT 1, ins_lat 2, p_stage 3 */
	    0xdada,		   /* DATA_SRC */
	    0x7a7a,		   /* TRANSACTION */
	    0,			   /* REGS_INTR abi 0 */
	    0xbeef,		   /* PHYS_ADDR */
	    0xc6,		   /* CGROUP */
	    4096,
	    8192, /* DATA_PAGE_SIZE, CODE_PAGE_SIZE */
	    8,
	    0x0102030405060708ULL, /* AUX size, data */
	};
	u64 sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |
			  PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |
			  PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN |
			  PERF_SAMPLE_RAW | PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER |
			  PERF_SAMPLE_STACK_USER | PERF_SAMPLE_WEIGHT_STRUCT |
			  PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_REGS_INTR |
			  PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_CGROUP | PERF_SAMPLE_DATA_PAGE_SIZE |
			  PERF_SAMPLE_CODE_PAGE_SIZE | PERF_SAMPLE_AUX;
	struct perf_event_attr attr = plain_attr(sample_type);
	u64 chain[3] = {2, (u64)PERF_CONTEXT_USER, 0x400000};
	struct branch_entry br = {.from = 0xa, .to = 0xb};
	u64 uregs[2] = {0x77, 0x88}, stack = 0x9999, aux = 0x0102030405060708ULL;
	u64 id = 77;
	struct perf_sample s = {
	    .ip = 0x1111,
	    .pid = 5,
	    .tid = 6,
	    .time = 0x2222,
	    .addr = 0x3333,
	    .stream_id = 0x4444,
	    .cpu = 1,
	    .period = 0x5555,
	    .weight = 1,
	    .ins_lat = 2,
	    .p_stage_cyc = 3,
	    .data_src = 0xdada,
	    .transaction = 0x7a7a,
	    .phys_addr = 0xbeef,
	    .cgroup = 0xc6,
	    .data_page_size = 4096,
	    .code_page_size = 8192,
	    .raw_size = 2,
	    .raw_data = "\xab\xcd",
	    .branch_nr = 1,
	    .branch_entries = &br,
	    .callchain = (const struct ip_callchain *)chain,
	    .user_regs = {.abi = 2, .regs = uregs},
	    .intr_regs = {.abi = 0},
	    .user_stack = {.size = 8, .dyn_size = 8, .data = (const char *)&stack},
	    .read = {.time_enabled = 10, .time_running = 20, .one_value = 0x6666, .one_id = 77},
	    .aux_size = 8,
	    .aux_data = &aux,
	    .cpumode = PERF_RECORD_MISC_USER,
	};
	const struct perf_event_header *rec;
	struct perf_writer *w;
	char *dir = fixture__tmpdir(), *path = NULL;
	size_t size, i;
	u8 *buf = NULL;
	int ret = TEST_FAIL;

	TEST_ASSERT_VAL("tmpdir", dir);
	attr.read_format =
	    PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID;
	attr.sample_regs_user = 0x3;
	attr.sample_regs_intr = 0xff;
	attr.sample_stack_user = 8;
	/* user samples only: no kernel map, so no kptr_restrict warning from report */
	attr.exclude_kernel = 1;
	if (asprintf(&path, "%s/perf.data", dir) < 0)
		goto out;
	w = perf_writer__new(path, 0);
	if (!w)
		goto out;
	if (perf_writer__add_attr(w, &attr, &id, 1, NULL) || perf_writer__synth_sample(w, 0, &s)) {
		perf_writer__abort(w);
		goto out;
	}
	if (perf_writer__close(w))
		goto out;
	buf = slurp(path, &size);
	rec = buf ? first_record(buf, size) : NULL;
	if (!rec || rec->type != PERF_RECORD_SAMPLE || rec->misc != PERF_RECORD_MISC_USER ||
	    rec->size != 8 + sizeof(expect)) {
		pr_debug("sample record: size %u, expected %zu\n", rec ? rec->size : 0,
			 8 + sizeof(expect));
		goto out;
	}
	for (i = 0; i < ARRAY_SIZE(expect); i++) {
		u64 got;

		memcpy(&got, (const u8 *)(rec + 1) + i * 8, 8);
		if (got != expect[i]) {
			pr_debug("sample word %zu: %#llx, expected %#llx\n", i,
				 (unsigned long long)got, (unsigned long long)expect[i]);
			goto out;
		}
	}
	ret = perf_parses_sample(t, path);
out:
	free(buf);
	free(path);
	fixture__rm_rf(dir);
	free(dir);
	return ret;
}

static int write_one(const char *path, const char *host, bool abort_it)
{
	struct perf_event_attr attr = plain_attr(PERF_SAMPLE_IP);
	struct perf_writer *w = perf_writer__new(path, 0);
	int err;

	if (!w)
		return -errno;
	err = perf_writer__add_attr(w, &attr, NULL, 0, NULL);
	if (err >= 0)
		err = perf_writer__set_hostname(w, host);
	if (!err)
		err = perf_writer__synth_comm(w, 0, 1, 1, "init", false, NULL);
	if (err || abort_it) {
		perf_writer__abort(w);
		return err;
	}
	return perf_writer__close(w);
}

static int test__writer_atomic(struct test_suite *t)
{
	struct perf_event_attr attr = plain_attr(PERF_SAMPLE_IP);
	char *dir = fixture__tmpdir(), *path = NULL, *old = NULL;
	struct perf_writer *w;
	struct stat st;
	size_t size;
	u8 *buf;
	int ret = TEST_FAIL;

	TEST_ASSERT_VAL("tmpdir", dir);
	if (asprintf(&path, "%s/perf.data", dir) < 0 || asprintf(&old, "%s.old", path) < 0)
		goto out;

	/* nothing under the destination's name until close */
	w = perf_writer__new(path, 0);
	if (!w || perf_writer__add_attr(w, &attr, NULL, 0, NULL) < 0 ||
	    perf_writer__synth_comm(w, 0, 1, 1, "init", false, NULL)) {
		perf_writer__abort(w);
		goto out;
	}
	if (!stat(path, &st) || nr_dir_entries(dir) != 1) {
		pr_debug("destination visible before close\n");
		perf_writer__abort(w);
		goto out;
	}
	perf_writer__abort(w);
	if (nr_dir_entries(dir) != 0) {
		pr_debug("abort left a file\n");
		goto out;
	}

	/* a second write keeps the first as perf.data.old */
	if (write_one(path, "first", false) || write_one(path, "second", false))
		goto out;
	buf = slurp(old, &size);
	if (!buf || !memmem(buf, size, "first", 6)) {
		pr_debug("perf.data.old does not hold the first file\n");
		free(buf);
		goto out;
	}
	free(buf);
	/* an aborted third write leaves both alone */
	if (write_one(path, "third", true) || nr_dir_entries(dir) != 2)
		goto out;
	buf = slurp(path, &size);
	if (!buf || !memmem(buf, size, "second", 7)) {
		free(buf);
		goto out;
	}
	free(buf);

	/* a directory: perf.data/data, the old one kept as perf.data.old/ */
	w = perf_writer__new(path, PERF_WRITER_DIRECTORY);
	if (!w)
		goto out;
	if (perf_writer__add_attr(w, &attr, NULL, 0, NULL) < 0 || !perf_writer__dir_path(w) ||
	    perf_writer__set_dir_format(w, 1) != -EOPNOTSUPP) {
		perf_writer__abort(w);
		goto out;
	}
	if (perf_writer__close(w) || stat(path, &st) || !S_ISDIR(st.st_mode) || stat(old, &st) ||
	    !S_ISREG(st.st_mode))
		goto out;
	ret = TEST_OK;
out:
	free(path);
	free(old);
	fixture__rm_rf(dir);
	free(dir);
	return ret;
}

static int test__writer_hostile(struct test_suite *t)
{
	static u8 big[40000];
	struct perf_event_attr attr = plain_attr(PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN);
	u64 chain[2] = {1ULL << 62, 0};
	union perf_event ev;
	struct perf_sample s = {.callchain = (const struct ip_callchain *)chain};
	char *dir = fixture__tmpdir(), *path = NULL, *name;
	struct perf_writer *w;
	int ret = TEST_FAIL;

	TEST_ASSERT_VAL("tmpdir", dir);
	if (asprintf(&path, "%s/perf.data", dir) < 0)
		goto out_free;
	w = perf_writer__new(path, PERF_WRITER_PIPE);
	if (!w)
		goto out_free;
	TEST_ASSERT_EQUAL("too many ids",
			  perf_writer__add_attr(w, &attr, (const u64 *)big, 1U << 30, NULL),
			  -EINVAL);
	TEST_ASSERT_EQUAL("ids without array", perf_writer__add_attr(w, &attr, NULL, 3, NULL),
			  -EINVAL);
	TEST_ASSERT_EQUAL("attr", perf_writer__add_attr(w, &attr, NULL, 0, "x"), 0);
	TEST_ASSERT_EQUAL("bad attr index", perf_writer__synth_comm(w, 5, 1, 1, "x", 0, NULL),
			  -EINVAL);
	TEST_ASSERT_EQUAL("callchain nr 2^62", perf_writer__synth_sample(w, 0, &s), -E2BIG);
	TEST_ASSERT_EQUAL("text_poke past 64 KiB",
			  perf_writer__synth_text_poke(w, 0, 0, big, 40000, big, 40000, NULL),
			  -E2BIG);
	name = calloc(1, 70000);
	TEST_ASSERT_VAL("alloc", name);
	memset(name, 'a', 69999);
	TEST_ASSERT_EQUAL("comm past 64 KiB", perf_writer__synth_comm(w, 0, 1, 1, name, 0, NULL),
			  -E2BIG);
	TEST_ASSERT_EQUAL("ksymbol past 64 KiB",
			  perf_writer__synth_ksymbol(w, 0, 0, 1, 1, 0, name, NULL), -E2BIG);
	TEST_ASSERT_EQUAL("pipe feature past a record",
			  perf_writer__set_bpf_prog_info(w, name, 70000), -E2BIG);
	free(name);
	TEST_ASSERT_EQUAL("null text",
			  perf_writer__synth_text_poke(w, 0, 0, NULL, 3, NULL, 0, NULL), -EINVAL);
	memset(&ev, 0, sizeof(ev));
	ev.header.type = PERF_RECORD_COMM;
	TEST_ASSERT_EQUAL("record size 0", perf_writer__write_event(w, &ev), -EINVAL);
	ev.header.size = 12;
	TEST_ASSERT_EQUAL("record size 12", perf_writer__write_event(w, &ev), -EINVAL);
	ev.header.size = 16;
	ev.header.type = PERF_RECORD_HEADER_ATTR;
	TEST_ASSERT_EQUAL("header records are the writer's", perf_writer__write_event(w, &ev),
			  -EINVAL);
	/* the failures left nothing half written: a good record still goes */
	TEST_ASSERT_EQUAL("good record", perf_writer__synth_comm(w, 0, 1, 1, "ok", 0, NULL), 0);
	TEST_ASSERT_EQUAL("attr after data", perf_writer__add_attr(w, &attr, NULL, 0, NULL),
			  -EBUSY);
	TEST_ASSERT_EQUAL("pipe feature after data", perf_writer__set_hostname(w, "late"), -EBUSY);
	TEST_ASSERT_EQUAL("unknown feature", perf_writer__set_feature(w, 300, "", 0), -EINVAL);
	TEST_ASSERT_EQUAL("close", perf_writer__close(w), 0);
	ret = TEST_OK;
out_free:
	free(path);
	fixture__rm_rf(dir);
	free(dir);
	return ret;
}

/* what perf_writer__read_back() hands over must be what was written after the mark */
struct read_back_check {
	const u8 *want;
	size_t len, off;
	int nr;
};

static int read_back__cmp(void *arg, const union perf_event *ev)
{
	struct read_back_check *c = arg;
	size_t n = ev->header.size;

	if (c->off + n > c->len || memcmp(c->want + c->off, ev, n)) {
		pr_debug("record %d (%zu bytes) at %zu is not the one written\n", c->nr, n, c->off);
		return -EBADMSG;
	}
	c->off += n;
	c->nr++;
	return 0;
}

/*
 * Records of every size from 8 bytes to RECORD_MAX, some written through
 * the buffer and some directly, a few MB so that records straddle the
 * read-back's 1 MiB pieces, an AUXTRACE record whose trace must be
 * skipped, not read as records: read back from the mark, each record
 * comes whole, once, in order, and the comm written before the mark does
 * not; the same for records written unchecked in pieces cut inside them
 * (a ring's bytes), which are not counted.  Outputs that cannot be read
 * back say so.
 * Mutation caught: the read-back walking into an AUXTRACE record's trace.
 * Mutation caught: a record cut at a piece's end handed over (or dropped)
 * instead of carried into the next piece.
 */
static int test__writer_read_back(struct test_suite *t)
{
	struct perf_event_attr attr = plain_attr(PERF_SAMPLE_IP);
	struct perf_record_auxtrace aux = {
	    .header = {.type = PERF_RECORD_AUXTRACE, .size = sizeof(aux)},
	    .size = 100000,
	};
	const size_t cap = 4U << 20;
	struct read_back_check c = {0};
	char *dir = fixture__tmpdir(), *path = NULL;
	u8 *want = malloc(cap), *trace = calloc(1, aux.size);
	struct perf_writer *w = NULL;
	size_t len = 0, batch = 0;
	int ret = TEST_FAIL, nr = 0;
	u64 pos, counted;

	TEST_ASSERT_VAL("tmpdir", dir);
	if (!want || !trace || asprintf(&path, "%s/perf.data", dir) < 0)
		goto out;
	w = perf_writer__new(path, 0);
	if (!w || perf_writer__add_attr(w, &attr, NULL, 0, NULL) < 0 ||
	    perf_writer__synth_comm(w, 0, 1, 1, "before", false, NULL) ||
	    perf_writer__read_back_mark(w, &pos))
		goto out;
	/* sizes 8, 16, ... up to RECORD_MAX, then again, until some 3 MB */
	for (u32 size = 8;
	     len + 65536 < cap - sizeof(aux) && len<(3U << 20); size = size + 1016> 65528 ?
		 8 :
		 size + 1016,
		 nr++) {
		struct perf_event_header *h = (void *)(want + len);

		for (u32 i = 0; i < size; i++)
			want[len + i] = (u8)(nr * 7 + i);
		h->type = PERF_RECORD_SAMPLE;
		h->misc = 0;
		h->size = size;
		len += size;
		/* now and then a batch: small ones go through the buffer, large ones directly */
		if (nr % 5 == 4) {
			if (perf_writer__write_events(w, want + batch, len - batch))
				goto out;
			batch = len;
		}
		if (nr == 40) {
			if (perf_writer__write_events(w, want + batch, len - batch) ||
			    perf_writer__write_auxtrace(w, (const void *)&aux) ||
			    perf_writer__write_auxtrace_data(w, trace, aux.size))
				goto out;
			memcpy(want + len, &aux, sizeof(aux));
			len += sizeof(aux);
			batch = len;
			nr++;
		}
	}
	if (perf_writer__write_events(w, want + batch, len - batch))
		goto out;
	counted = perf_writer__nr_records(w, PERF_RECORD_SAMPLE);
	/* written unchecked, in pieces cut inside records, as a ring's bytes: not counted */
	batch = len;
	for (int i = 0; i < 300; i++, nr++) {
		struct perf_event_header h = {.type = PERF_RECORD_SAMPLE,
					      .size = 8 + 8 * (i % 500)};

		memset(want + len, 0x5a ^ i, h.size);
		memcpy(want + len, &h, sizeof(h));
		len += h.size;
	}
	if (perf_writer__write_unchecked(w, want + batch, 1001) ||
	    perf_writer__write_unchecked(w, want + batch + 1001, 70001) ||
	    perf_writer__write_unchecked(w, want + batch + 71002, len - batch - 71002))
		goto out;
	TEST_ASSERT_EQUAL("unchecked: not counted", perf_writer__nr_records(w, PERF_RECORD_SAMPLE),
			  counted);
	c.want = want;
	c.len = len;
	TEST_ASSERT_EQUAL("read back", perf_writer__read_back(w, pos, read_back__cmp, &c), 0);
	TEST_ASSERT_EQUAL("every record", c.nr, nr);
	TEST_ASSERT_EQUAL("every byte", c.off, len);
	TEST_ASSERT_EQUAL("close", perf_writer__close(w), 0);
	w = NULL;

	/* a pipe (written to a file here) and the other byte order are not read back */
	w = perf_writer__new(path, PERF_WRITER_PIPE);
	TEST_ASSERT_VAL("pipe writer", w);
	TEST_ASSERT_EQUAL("pipe", perf_writer__read_back_mark(w, &pos), -EOPNOTSUPP);
	TEST_ASSERT_EQUAL("pipe: unchecked", perf_writer__write_unchecked(w, want, 8), -EOPNOTSUPP);
	perf_writer__abort(w);
	w = perf_writer__new(path, PERF_WRITER_SWAPPED);
	TEST_ASSERT_VAL("swapped writer", w);
	TEST_ASSERT_EQUAL("swapped", perf_writer__read_back_mark(w, &pos), -EOPNOTSUPP);
	perf_writer__abort(w);
	w = NULL;
	ret = TEST_OK;
out:
	if (w)
		perf_writer__abort(w);
	free(want);
	free(trace);
	free(path);
	fixture__rm_rf(dir);
	free(dir);
	return ret;
}

struct test_suite suite__writer_layout = {
    .desc = "writer: file layout, padding, feature table",
    .func = test__writer_layout,
};
struct test_suite suite__writer_sample_fields = {
    .desc = "writer: every sample field in kernel order",
    .func = test__writer_sample_fields,
};
struct test_suite suite__writer_atomic = {
    .desc = "writer: atomic output, .old, abort",
    .func = test__writer_atomic,
};
struct test_suite suite__writer_hostile = {
    .desc = "writer: hostile sizes refused",
    .func = test__writer_hostile,
};
struct test_suite suite__writer_read_back = {
    .desc = "writer: records read back from the output as written, AUXTRACE trace skipped",
    .func = test__writer_read_back,
};
