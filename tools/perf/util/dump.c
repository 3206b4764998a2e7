// SPDX-License-Identifier: GPL-2.0-only
/*
 * The -D raw dump, in the shape of perf report -D / perf script -D of
 * perf 6.1: per record "\n<offset>@<file> [<size>]: event: <type>", the
 * bytes in hex, then "<time> <offset> [<size>]: PERF_RECORD_<NAME>..."
 * with the decoded fields.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "debug.h"
#include "dump.h"
#include "event.h"
#include "evsel.h"
#include "session.h"

#ifndef PERF_RECORD_MISC_MMAP_DATA
#define PERF_RECORD_MISC_MMAP_DATA (1 << 13)
#endif

void perf_event__dump_raw(const union perf_event *event, u64 offset, const char *path)
{
	const u8 *raw = (const u8 *)event;
	u32 size = event->header.size, i, j;

	printf("\n%#" PRIx64 "@%s [%#x]: event: %u\n", offset, path, size, event->header.type);
	printf(".\n. ... raw event: size %u bytes\n", size);
	for (i = 0; i < size; i += 16) {
		u32 n = size - i < 16 ? size - i : 16;

		printf(".  %04x: ", i);
		for (j = 0; j < 16; j++) {
			if (j < n)
				printf(" %02x", raw[i + j]);
			else
				printf("   ");
		}
		printf("  ");
		for (j = 0; j < 16; j++) {
			if (j < n)
				putchar(isprint(raw[i + j]) ? raw[i + j] : '.');
			else
				putchar(' ');
		}
		putchar('\n');
	}
	putchar('\n');
}

static const char *const x86_regs[] = {
	"AX", "BX", "CX", "DX", "SI", "DI", "BP", "SP", "IP", "FLAGS", "CS", "SS",
	"DS", "ES", "FS", "GS", "R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15",
};

static void dump_regs(const char *what, const struct regs_dump *r)
{
	u64 mask = r->mask;
	int bit, i = 0;

	printf("... %s regs: mask %#" PRIx64 " ABI %s\n", what, mask,
	       r->abi == 2 ? "64-bit" : r->abi == 1 ? "32-bit" : r->abi ? "unknown" : "none");
	if (!r->regs)
		return;
	for (bit = 0; bit < 64; bit++) {
		char name[16];
		u64 v;

		if (!(mask & (1ULL << bit)))
			continue;
		if (bit < (int)ARRAY_SIZE(x86_regs))
			snprintf(name, sizeof(name), "%s", x86_regs[bit]);
		else if (bit >= 32)
			snprintf(name, sizeof(name), "XMM%d", (bit - 32) / 2);
		else
			snprintf(name, sizeof(name), "unknown");
		memcpy(&v, &r->regs[i++], 8);
		printf(".... %-5s 0x%016" PRIx64 "\n", name, v);
	}
}

static void dump_sample(const struct evsel *evsel, const union perf_event *event,
			const struct perf_sample *s)
{
	u64 st = evsel->attr.sample_type, i;

	printf("(IP, 0x%x): %d/%d: %#" PRIx64 " period: %" PRIu64 " addr: %#" PRIx64 "\n",
	       event->header.misc, (s32)s->pid, (s32)s->tid, s->ip, s->period, s->addr);
	if (st & PERF_SAMPLE_CALLCHAIN) {
		u64 nr, ip;

		memcpy(&nr, &s->callchain->nr, 8);
		printf("... FP chain: nr:%" PRIu64 "\n", nr);
		for (i = 0; i < nr; i++) {
			memcpy(&ip, &s->callchain->ips[i], 8);
			printf(".....  %2" PRIu64 ": %016" PRIx64 "\n", i, ip);
		}
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		printf("... branch stack: nr:%" PRIu64 "\n", s->branch_nr);
		for (i = 0; i < s->branch_nr; i++) {
			struct branch_entry e;

			memcpy(&e, &s->branch_entries[i], sizeof(e));
			printf("..... %2" PRIu64 ": %016" PRIx64 " -> %016" PRIx64 " %hu cycles %s%s%s%s %x\n",
			       i, e.from, e.to, (u16)e.flags.cycles, e.flags.mispred ? "M" : " ",
			       e.flags.predicted ? "P" : " ", e.flags.abort ? "A" : " ",
			       e.flags.in_tx ? "T" : " ", (unsigned)e.flags.reserved);
		}
	}
	if (st & PERF_SAMPLE_REGS_USER)
		dump_regs("user", &s->user_regs);
	if (st & PERF_SAMPLE_REGS_INTR)
		dump_regs("intr", &s->intr_regs);
	if (st & PERF_SAMPLE_STACK_USER)
		printf("... ustack: size %" PRIu64 ", offset 0x%x\n", s->user_stack.size,
		       s->user_stack.data ? (unsigned)((const u8 *)s->user_stack.data -
						       (const u8 *)event) : 0);
	if (st & PERF_SAMPLE_WEIGHT_TYPE) {
		printf("... weight: %" PRIu64 "", s->weight);
		if (st & PERF_SAMPLE_WEIGHT_STRUCT)
			printf(",0x%" PRIx16 ",0x%" PRIx16, s->ins_lat, s->p_stage_cyc);
		printf("\n");
	}
	if (st & PERF_SAMPLE_DATA_SRC)
		printf(" . data_src: 0x%" PRIx64 "\n", s->data_src);
	if (st & PERF_SAMPLE_PHYS_ADDR)
		printf(" .. phys_addr: 0x%" PRIx64 "\n", s->phys_addr);
	if (st & PERF_SAMPLE_DATA_PAGE_SIZE)
		printf(" .. data page size: %" PRIu64 "\n", s->data_page_size);
	if (st & PERF_SAMPLE_CODE_PAGE_SIZE)
		printf(" .. code page size: %" PRIu64 "\n", s->code_page_size);
	if (st & PERF_SAMPLE_TRANSACTION)
		printf("... transaction: %" PRIx64 "\n", s->transaction);
	if (st & PERF_SAMPLE_READ) {
		printf("... sample_read:\n");
		if (evsel->attr.read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
			printf("...... time enabled %016" PRIx64 "\n", s->read.time_enabled);
		if (evsel->attr.read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
			printf("...... time running %016" PRIx64 "\n", s->read.time_running);
		printf(".... id %016" PRIx64 ", value %016" PRIx64 "\n", s->read.one_id,
		       s->read.one_value);
	}
	if (st & PERF_SAMPLE_AUX)
		printf("... aux: size %" PRIu64 "\n", s->aux_size);
}

static void dump_mmap2(const union perf_event *event)
{
	const struct perf_record_mmap2 *m = &event->mmap2;
	char ids[64];

	if (event->header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID_BIT) {
		int i, n = m->build_id_size <= 20 ? m->build_id_size : 20;

		for (i = 0; i < n; i++)
			sprintf(ids + 2 * i, "%02x", m->build_id[i]);
		ids[2 * n] = '\0';
		printf(" %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64 " <%s>]: %c%c%c%c %.*s\n",
		       m->pid, m->tid, m->start, m->len, m->pgoff, ids,
		       m->prot & PROT_READ ? 'r' : '-', m->prot & PROT_WRITE ? 'w' : '-',
		       m->prot & PROT_EXEC ? 'x' : '-', m->flags & MAP_SHARED ? 's' : 'p',
		       (int)(event->header.size - sizeof(*m)), m->filename);
		return;
	}
	printf(" %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64 " %02x:%02x %" PRIu64 " %" PRIu64
	       "]: %c%c%c%c %.*s\n", m->pid, m->tid, m->start, m->len, m->pgoff, m->maj, m->min,
	       m->ino, m->ino_generation, m->prot & PROT_READ ? 'r' : '-',
	       m->prot & PROT_WRITE ? 'w' : '-', m->prot & PROT_EXEC ? 'x' : '-',
	       m->flags & MAP_SHARED ? 's' : 'p', (int)(event->header.size - sizeof(*m)),
	       m->filename);
}

/* the decoded part after "PERF_RECORD_<NAME>"; each checks its own size */
static void dump_body(const union perf_event *event, const struct perf_sample *sample,
		      const struct evsel *evsel)
{
	u32 size = event->header.size;
	u32 type = event->header.type;

#define HAS(sz) (size >= (sz))
	switch (type) {
	case PERF_RECORD_SAMPLE:
		dump_sample(evsel, event, sample);
		return;
	case PERF_RECORD_MMAP:
		if (!HAS(sizeof(event->mmap)))
			break;
		printf(" %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64 "]: %c %.*s\n",
		       event->mmap.pid, event->mmap.tid, event->mmap.start, event->mmap.len,
		       event->mmap.pgoff,
		       event->header.misc & PERF_RECORD_MISC_MMAP_DATA ? 'r' : 'x',
		       (int)(size - sizeof(event->mmap)), event->mmap.filename);
		return;
	case PERF_RECORD_MMAP2:
		if (!HAS(sizeof(event->mmap2)))
			break;
		dump_mmap2(event);
		return;
	case PERF_RECORD_COMM:
		if (!HAS(sizeof(event->comm)))
			break;
		printf("%s: %.*s:%d/%d\n",
		       event->header.misc & PERF_RECORD_MISC_COMM_EXEC ? " exec" : "",
		       (int)(size - sizeof(event->comm)), event->comm.comm, event->comm.pid,
		       event->comm.tid);
		return;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		if (!HAS(sizeof(event->fork)))
			break;
		printf("(%d:%d):(%d:%d)\n", event->fork.pid, event->fork.tid, event->fork.ppid,
		       event->fork.ptid);
		return;
	case PERF_RECORD_LOST:
		if (!HAS(sizeof(event->lost)))
			break;
		printf(": id:%" PRIu64 ": lost:%" PRIu64 "\n", event->lost.id, event->lost.lost);
		return;
	case PERF_RECORD_LOST_SAMPLES:
		if (!HAS(sizeof(event->lost_samples)))
			break;
		printf(": id:%" PRIu64 ": lost samples :%" PRIu64 "\n", sample->id,
		       event->lost_samples.lost);
		return;
	case PERF_RECORD_KSYMBOL:
		if (!HAS(sizeof(event->ksymbol)))
			break;
		printf(" addr %" PRIx64 " len %u type %u flags 0x%x name %.*s\n",
		       event->ksymbol.addr, event->ksymbol.len, event->ksymbol.ksym_type,
		       event->ksymbol.flags, (int)(size - sizeof(event->ksymbol)),
		       event->ksymbol.name);
		return;
	case PERF_RECORD_BPF_EVENT:
		if (!HAS(sizeof(event->bpf)))
			break;
		printf(" type %u, flags %u, id %u\n", event->bpf.type, event->bpf.flags,
		       event->bpf.id);
		return;
	case PERF_RECORD_TEXT_POKE: {
		u32 i, n;

		if (!HAS(sizeof(event->text_poke)))
			break;
		n = event->text_poke.old_len + event->text_poke.new_len;
		printf(" addr %#" PRIx64 " old len %u new len %u\n", event->text_poke.addr,
		       event->text_poke.old_len, event->text_poke.new_len);
		if (n > size - sizeof(event->text_poke))
			return;
		for (i = 0; i < n; i++) {
			if (i == 0 || i == event->text_poke.old_len)
				printf("%s", i ? "\n new:" : " old:");
			printf(" %02x", event->text_poke.bytes[i]);
		}
		if (n)
			printf("\n");
		return;
	}
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE: {
		bool out = event->header.misc & PERF_RECORD_MISC_SWITCH_OUT;
		bool preempt = event->header.misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT;
		const char *in_out = !out ? "IN         " : !preempt ? "OUT        " : "OUT preempt";

		if (type == PERF_RECORD_SWITCH || !HAS(sizeof(event->context_switch))) {
			printf(" %s\n", in_out);
			return;
		}
		printf(" %s  %s pid/tid:%5d/%-5d\n", in_out, out ? "next" : "prev",
		       event->context_switch.next_prev_pid, event->context_switch.next_prev_tid);
		return;
	}
	case PERF_RECORD_ITRACE_START:
		if (!HAS(sizeof(event->itrace_start)))
			break;
		printf(" pid: %u tid: %u\n", event->itrace_start.pid, event->itrace_start.tid);
		return;
	case PERF_RECORD_AUX:
		if (!HAS(sizeof(event->aux)))
			break;
		printf(" offset: %#" PRIx64 " size: %#" PRIx64 " flags: %#" PRIx64 " [%s%s%s]\n",
		       event->aux.aux_offset, event->aux.aux_size, event->aux.flags,
		       event->aux.flags & PERF_AUX_FLAG_TRUNCATED ? "T" : "",
		       event->aux.flags & PERF_AUX_FLAG_OVERWRITE ? "O" : "",
		       event->aux.flags & PERF_AUX_FLAG_PARTIAL ? "P" : "");
		return;
	case PERF_RECORD_CGROUP:
		if (!HAS(sizeof(event->cgroup)))
			break;
		printf(" cgroup: %" PRIu64 " %.*s\n", event->cgroup.id,
		       (int)(size - sizeof(event->cgroup)), event->cgroup.path);
		return;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		if (!HAS(sizeof(event->throttle)))
			break;
		printf(": time %" PRIu64 " id %" PRIu64 " stream_id %" PRIu64 "\n",
		       event->throttle.time, event->throttle.id, event->throttle.stream_id);
		return;
	default:
		break;
	}
#undef HAS
	printf("\n");
}

void perf_event__dump_decoded(struct perf_session *session, const union perf_event *event,
			      const struct perf_sample *sample, struct evsel *evsel,
			      u64 offset)
{
	struct evlist *evlist = session->evlist;
	u64 st = evsel ? evsel->attr.sample_type : 0;

	perf_event__dump_raw(event, offset, session->path);
	if (event->header.type < PERF_RECORD_USER_TYPE_START) {
		if (event->header.type != PERF_RECORD_SAMPLE && !evlist->sample_id_all) {
			printf("-1 -1 ");
		} else {
			if (st & PERF_SAMPLE_CPU)
				printf("%u ", sample->cpu);
			if (st & PERF_SAMPLE_TIME)
				printf("%" PRIu64 " ", sample->time);
		}
	} else if (st & PERF_SAMPLE_TIME) {
		printf("0 ");
	}
	printf("%#" PRIx64 " [%#x]: PERF_RECORD_%s", offset, event->header.size,
	       perf_event__name(event->header.type));
	if (event->header.type < PERF_RECORD_USER_TYPE_START && sample)
		dump_body(event, sample, evsel);
	else
		printf("\n");
}

void perf_session__dump_stats(const struct perf_session *session)
{
	const struct events_stats *s = &session->stats;
	u64 total = 0;
	int i;

	for (i = 0; i < PERF_RECORD_HEADER_MAX; i++)
		total += s->nr_events[i];
	printf("\nAggregated stats:\n");
	printf("%16s events: %10" PRIu64 "\n", "TOTAL", total);
	for (i = 1; i < PERF_RECORD_HEADER_MAX; i++) {
		if (!s->nr_events[i])
			continue;
		printf("%16s events: %10" PRIu64 "  (%4.1f%%)\n", perf_event__name(i),
		       s->nr_events[i], total ? 100.0 * s->nr_events[i] / total : 0.0);
	}
}
