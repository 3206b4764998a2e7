// SPDX-License-Identifier: GPL-2.0-only
/*
 * --show-task-events, --show-mmap-events, --show-bpf-events and
 * --show-text-poke-events lines against what stock perf 6.1 printed for
 * the same records (a perf record -a run on the development machine while
 * a BPF socket filter was loaded and unloaded), and perf's TEXT_POKE
 * layout (perf_event__fprintf_text_poke()).
 */
#include <stdlib.h>
#include <string.h>

#include "tests.h"
#include "../util/evsel.h"
#include "../util/script-print.h"

static char *print_one(struct script_printer *p, const void *rec, const struct perf_sample *s,
		       const struct evsel *evsel, const char *comm, const struct script_loc *sym)
{
	char *text = NULL;
	size_t size;
	FILE *fp = open_memstream(&text, &size);

	if (!fp)
		return NULL;
	p->out.fp = fp;
	script_print__side_band(p, rec, s, evsel, comm, sym);
	script_buf__flush(&p->out);
	fclose(fp);
	return text;
}

#define CHECK_LINE(rec, comm, sym, expected)                                                   \
	do {                                                                                   \
		char *__t = print_one(&p, rec, &sample, &evsel, comm, sym);                    \
		bool __ok = __t && !strcmp(__t, expected);                                     \
		if (!__ok)                                                                     \
			pr_debug("got:\n%s\nexpected:\n%s\n", __t ? __t : "(null)", expected); \
		free(__t);                                                                     \
		if (!__ok) {                                                                   \
			ret = TEST_FAIL;                                                       \
			goto out;                                                              \
		}                                                                              \
	} while (0)

static int test__script_side_band(struct test_suite *t)
{
	struct evsel evsel = {.name = (char *)"cpu-clock"};
	struct perf_sample sample = {.pid = 6547, .tid = 6547, .time = 364037553000ULL};
	struct script_fields fields;
	struct script_printer p = {.fields = &fields, .name_width = 9};
	u64 rec[32];
	int ret = TEST_OK;

	script_fields__init(&fields);
	evsel.attr.type = PERF_TYPE_SOFTWARE;
	evsel.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	evsel.attr.sample_id_all = 1;
	TEST_ASSERT_VAL("buf", !script_buf__init(&p.out, stdout));

	{
		struct perf_record_ksymbol *k = (void *)rec;

		memset(rec, 0, sizeof(rec));
		k->header.type = PERF_RECORD_KSYMBOL;
		k->header.size = sizeof(*k) + 40;
		k->addr = 0xffffffffc002208cULL;
		k->len = 25;
		k->ksym_type = 1;
		strcpy(k->name, "bpf_prog_7c85c77581178cdb_tp_sockfilt");
		CHECK_LINE(rec, "bpfload", NULL,
			   "         bpfload  6547 [000]   364.037553: PERF_RECORD_KSYMBOL addr "
			   "ffffffffc002208c len 25 type 1 flags 0x0 name "
			   "bpf_prog_7c85c77581178cdb_tp_sockfilt\n");
	}
	{
		struct perf_record_bpf_event *b = (void *)rec;

		memset(rec, 0, sizeof(rec));
		b->header.type = PERF_RECORD_BPF_EVENT;
		b->header.size = sizeof(*b);
		b->type = 1;
		b->id = 104;
		sample.time = 364037570000ULL;
		CHECK_LINE(
		    rec, "bpfload", NULL,
		    "         bpfload  6547 [000]   364.037570: PERF_RECORD_BPF_EVENT type 1, "
		    "flags 0, id 104\n");
	}
	{
		struct perf_record_fork *f = (void *)rec;

		memset(rec, 0, sizeof(rec));
		f->header.type = PERF_RECORD_EXIT;
		f->header.size = sizeof(*f);
		f->pid = f->tid = 6547;
		f->ppid = f->ptid = 6546;
		sample.time = 364139911000ULL;
		CHECK_LINE(rec, "bpfload", NULL,
			   "         bpfload  6547 [000]   364.139911: PERF_RECORD_EXIT(6547:6547):"
			   "(6546:6546)\n");
	}
	{
		struct perf_record_comm *cm = (void *)rec;

		memset(rec, 0, sizeof(rec));
		cm->header.type = PERF_RECORD_COMM;
		cm->header.misc = PERF_RECORD_MISC_COMM_EXEC;
		cm->header.size = sizeof(*cm) + 8;
		cm->pid = cm->tid = 6551;
		strcpy(cm->comm, "sleep");
		sample.pid = sample.tid = 6551;
		sample.time = 364071591000ULL;
		CHECK_LINE(rec, "sleep", NULL,
			   "           sleep  6551 [000]   364.071591: PERF_RECORD_COMM exec: "
			   "sleep:6551/6551\n");
	}
	{
		struct perf_record_mmap2 *m = (void *)rec;

		memset(rec, 0, sizeof(rec));
		m->header.type = PERF_RECORD_MMAP2;
		m->header.size = sizeof(*m) + 16;
		m->pid = m->tid = 6551;
		m->start = 0x5627386ba000ULL;
		m->len = 0x5000;
		m->pgoff = 0x2000;
		m->maj = 0xfe;
		m->ino = 248056;
		m->prot = 5;
		m->flags = 2; /* MAP_PRIVATE */
		strcpy(m->filename, "/usr/bin/sleep");
		sample.time = 364071625000ULL;
		CHECK_LINE(
		    rec, "sleep", NULL,
		    "           sleep  6551 [000]   364.071625: PERF_RECORD_MMAP2 6551/6551: "
		    "[0x5627386ba000(0x5000) @ 0x2000 fe:00 248056 0]: r-xp /usr/bin/sleep\n");
		m->pgoff = 0;
		m->maj = 0;
		m->ino = 0;
		m->start = 0x7fe86f604000ULL;
		m->len = 0x2000;
		strcpy(m->filename, "[vdso]");
		sample.time = 364071659000ULL;
		CHECK_LINE(
		    rec, "sleep", NULL,
		    "           sleep  6551 [000]   364.071659: PERF_RECORD_MMAP2 6551/6551: "
		    "[0x7fe86f604000(0x2000) @ 0 00:00 0 0]: r-xp [vdso]\n");
	}
	{
		struct perf_record_mmap *m = (void *)rec;

		memset(rec, 0, sizeof(rec));
		m->header.type = PERF_RECORD_MMAP;
		m->header.misc = PERF_RECORD_MISC_KERNEL;
		m->header.size = sizeof(*m) + 24;
		m->pid = -1;
		m->start = 0xffffffff81000000ULL;
		m->len = 0x1277288;
		m->pgoff = 0xffffffff81000000ULL;
		strcpy(m->filename, "[kernel.kallsyms]_text");
		sample.pid = sample.tid = 0;
		sample.time = 0;
		CHECK_LINE(rec, "swapper", NULL,
			   "         swapper     0 [000]     0.000000: PERF_RECORD_MMAP -1/0: "
			   "[0xffffffff81000000(0x1277288) @ 0xffffffff81000000]: x "
			   "[kernel.kallsyms]_text\n");
	}
	{
		/* a jump label flip, and an ftrace trampoline body (old_len 0, 19 bytes) */
		static const u8 nop5[] = {0x0f, 0x1f, 0x44, 0x00, 0x00};
		static const u8 jmp5[] = {0xe9, 0x10, 0x20, 0x00, 0x00};
		struct perf_record_text_poke *tp = (void *)rec;
		struct script_loc sym = {
		    .ip = 0xffffffff81234574ULL,
		    .addr = 0xffffffff81234574ULL,
		    .relative = true,
		    .sym = "schedule",
		    .sym_start = 0xffffffff81234560ULL,
		    .dso = "[kernel.kallsyms]",
		};
		unsigned int i;

		memset(rec, 0, sizeof(rec));
		tp->header.type = PERF_RECORD_TEXT_POKE;
		tp->header.size = 32;
		tp->addr = 0xffffffff81234574ULL;
		tp->old_len = 5;
		tp->new_len = 5;
		memcpy(tp->bytes, nop5, 5);
		memcpy(tp->bytes + 5, jmp5, 5);
		sample.time = 364000001000ULL;
		CHECK_LINE(rec, "swapper", &sym,
			   "         swapper     0 [000]   364.000001: PERF_RECORD_TEXT_POKE "
			   "ffffffff81234574 schedule+0x14 old len 5 new len 5\n"
			   "            Old bytes: 0f 1f 44 00 00\n"
			   "            New bytes: e9 10 20 00 00\n");
		tp->old_len = 0;
		tp->new_len = 19;
		for (i = 0; i < 19; i++)
			tp->bytes[i] = i;
		tp->header.size = 48;
		CHECK_LINE(
		    rec, "swapper", NULL,
		    "         swapper     0 [000]   364.000001: PERF_RECORD_TEXT_POKE "
		    "ffffffff81234574  old len 0 new len 19\n"
		    "            New bytes: 00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f\n"
		    "            New bytes: 10 11 12\n");
		/* lengths beyond the record are clipped to what it holds */
		tp->new_len = 400;
		tp->header.size = 24;
		CHECK_LINE(rec, "swapper", NULL,
			   "         swapper     0 [000]   364.000001: PERF_RECORD_TEXT_POKE "
			   "ffffffff81234574  old len 0 new len 400\n"
			   "            New bytes: 00 01 02 03\n");
	}
out:
	p.out.fp = stdout;
	script_buf__exit(&p.out);
	return ret;
}

struct test_suite suite__script_side_band = {
    .desc = "script: side-band lines as perf 6.1 prints them",
    .func = test__script_side_band,
};
