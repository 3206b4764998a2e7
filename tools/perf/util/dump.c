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
#include "dso.h"
#include "dump.h"
#include "event.h"
#include "evsel.h"
#include "header.h"
#include "machine.h"
#include "map.h"
#include "session.h"
#include "thread.h"

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
    "AX", "BX", "CX", "DX", "SI", "DI", "BP",  "SP",  "IP",  "FLAGS", "CS",  "SS",
    "DS", "ES", "FS", "GS", "R8", "R9", "R10", "R11", "R12", "R13",   "R14", "R15",
};

static const char *const arm64_regs[] = {
    "x0",  "x1",  "x2",	 "x3",	"x4",  "x5",  "x6",  "x7",  "x8",  "x9",  "x10",
    "x11", "x12", "x13", "x14", "x15", "x16", "x17", "x18", "x19", "x20", "x21",
    "x22", "x23", "x24", "x25", "x26", "x27", "x28", "x29", "lr",  "sp",  "pc",
};

static void dump_regs(const char *what, const struct regs_dump *r, const char *arch)
{
	bool arm64 = arch && !strcmp(arch, "aarch64");
	u64 mask = r->mask;
	int bit, i = 0;

	if (!r->regs)
		return; /* ABI none (a kernel thread): perf prints nothing */

	printf("... %s regs: mask %#" PRIx64 " ABI %s\n", what, mask,
	       r->abi == 2 ? "64-bit" :
	       r->abi == 1 ? "32-bit" :
	       r->abi	   ? "unknown" :
			     "none");
	for (bit = 0; bit < 64; bit++) {
		char name[16];
		u64 v;

		if (!(mask & (1ULL << bit)))
			continue;
		if (arm64 && bit < (int)ARRAY_SIZE(arm64_regs))
			snprintf(name, sizeof(name), "%s", arm64_regs[bit]);
		else if (arm64)
			snprintf(name, sizeof(name), "unknown");
		else if (bit < (int)ARRAY_SIZE(x86_regs))
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
			const struct perf_sample *s, const char *arch)
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
			printf("..... %2" PRIu64 ": %016" PRIx64 "\n", i, ip);
		}
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		printf("... branch stack: nr:%" PRIu64 "\n", s->branch_nr);
		for (i = 0; i < s->branch_nr; i++) {
			struct branch_entry e;

			memcpy(&e, &s->branch_entries[i], sizeof(e));
			printf("..... %2" PRIu64 ": %016" PRIx64 " -> %016" PRIx64
			       " %hu cycles %s%s%s%s %x %s\n",
			       i, e.from, e.to, (u16)e.flags.cycles, e.flags.mispred ? "M" : " ",
			       e.flags.predicted ? "P" : " ", e.flags.abort ? "A" : " ",
			       e.flags.in_tx ? "T" : " ", (unsigned)e.flags.reserved, "");
		}
	}
	if (st & PERF_SAMPLE_REGS_USER)
		dump_regs("user", &s->user_regs, arch);
	if (st & PERF_SAMPLE_REGS_INTR)
		dump_regs("intr", &s->intr_regs, arch);
	/* like perf: the valid (dynamic) size, and where the size word sits */
	if (st & PERF_SAMPLE_STACK_USER)
		printf("... ustack: size %" PRIu64 ", offset 0x%x\n",
		       s->user_stack.size ? s->user_stack.dyn_size : 0, s->user_stack.offset);
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
	       "]: %c%c%c%c %.*s\n",
	       m->pid, m->tid, m->start, m->len, m->pgoff, m->maj, m->min, m->ino,
	       m->ino_generation, m->prot & PROT_READ ? 'r' : '-', m->prot & PROT_WRITE ? 'w' : '-',
	       m->prot & PROT_EXEC ? 'x' : '-', m->flags & MAP_SHARED ? 's' : 'p',
	       (int)(event->header.size - sizeof(*m)), m->filename);
}

/* 16 bytes a line, as perf's binary__fprintf with its text_poke printer */
static void dump_code_bytes(const char *what, const u8 *p, u32 len)
{
	u32 i;

	for (i = 0; i < len; i++) {
		if (i % 16 == 0)
			printf("            %s bytes:", what);
		printf(" %02x", p[i]);
		if (i % 16 == 15 || i + 1 == len)
			printf("\n");
	}
}

/* the decoded part after "PERF_RECORD_<NAME>"; each checks its own size */
static void dump_body(const union perf_event *event, const struct perf_sample *sample,
		      const struct evsel *evsel, const char *arch)
{
	u32 size = event->header.size;
	u32 type = event->header.type;

#define HAS(sz) (size >= (sz))
	switch (type) {
	case PERF_RECORD_SAMPLE:
		dump_sample(evsel, event, sample, arch);
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
		const struct perf_record_text_poke *tp = &event->text_poke;

		if (!HAS(sizeof(*tp)) || (u32)tp->old_len + tp->new_len > size - sizeof(*tp))
			break;
		/* perf 6.1 puts the symbol between the spaces; the dump has no symbols */
		printf(" %" PRIx64 "  old len %u new len %u\n", tp->addr, tp->old_len, tp->new_len);
		dump_code_bytes("Old", tp->bytes, tp->old_len);
		dump_code_bytes("New", tp->bytes + tp->old_len, tp->new_len);
		return;
	}
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE: {
		bool out = event->header.misc & PERF_RECORD_MISC_SWITCH_OUT;
		bool preempt = event->header.misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT;
		const char *in_out = !out     ? "IN         " :
				     !preempt ? "OUT        " :
						"OUT preempt";

		if (type == PERF_RECORD_SWITCH || !HAS(sizeof(event->context_switch))) {
			printf(" %s\n", in_out);
			return;
		}
		printf(" %s  %s pid/tid: %5d/%-5d\n", in_out, out ? "next" : "prev",
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
	case PERF_RECORD_NAMESPACES: {
		static const char *const ns[] = {
		    "net", "uts", "ipc", "pid", "user", "mnt", "cgroup",
		};
		u64 i, nr = event->namespaces.nr_namespaces;

		printf(" %d/%d - nr_namespaces: %" PRIu64 "\n\t\t[", event->namespaces.pid,
		       event->namespaces.tid, nr);
		for (i = 0; i < nr; i++) {
			if (i && i % 4 == 0)
				printf("\n\t\t ");
			printf("%" PRIu64 "/%s: %" PRIu64 "/%#" PRIx64 "%s", i,
			       i < ARRAY_SIZE(ns) ? ns[i] : "unknown",
			       event->namespaces.link_info[i].dev,
			       event->namespaces.link_info[i].ino, i + 1 != nr ? ", " : "]\n");
		}
		if (!nr)
			printf("]\n");
		return;
	}
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		return; /* perf script -D: the next record's newline ends the line */
	default:
		break;
	}
#undef HAS
	printf("\n");
}

/* "0-3,8,10-11" as perf's cpu_map__snprint */
static void print_cpus(const u8 *bits, u32 max)
{
	u32 i = 0;
	bool first = true;

	while (i < max) {
		u32 j;

		if (!(bits[i / 8] & (1 << (i % 8)))) {
			i++;
			continue;
		}
		for (j = i; j + 1 < max && (bits[(j + 1) / 8] & (1 << ((j + 1) % 8))); j++)
			;
		if (j == i)
			printf("%s%u", first ? "" : ",", i);
		else
			printf("%s%u-%u", first ? "" : ",", i, j);
		first = false;
		i = j + 1;
	}
}

#define MAX_DUMP_CPUS 8192

/* the CPU map data of CPU_MAP and EVENT_UPDATE(CPUS): a list, a mask or a range */
static void print_cpu_map_data(const u8 *d, u32 len)
{
	static u8 bits[MAX_DUMP_CPUS / 8];
	u16 type, nr, lsize, a, b;
	u32 i, k;

	memset(bits, 0, sizeof(bits));
	if (len < 8)
		return;
	memcpy(&type, d, 2);
	if (type == 0) { /* u16 nr, u16 cpu[] */
		memcpy(&nr, d + 2, 2);
		for (i = 0; i < nr && 4 + 2 * i + 2 <= len; i++) {
			memcpy(&a, d + 4 + 2 * i, 2);
			if (a < MAX_DUMP_CPUS)
				bits[a / 8] |= 1 << (a % 8);
		}
	} else if (type == 1) { /* u16 nr, u16 long_size, masks (packed) */
		memcpy(&nr, d + 2, 2);
		memcpy(&lsize, d + 4, 2);
		if (lsize != 4 && lsize != 8)
			return;
		for (i = 0; i < nr; i++) {
			u32 off = (lsize == 4 ? 6 : 10) + i * lsize;
			u64 m = 0;

			if (off + lsize > len)
				break;
			memcpy(&m, d + off, lsize);
			for (k = 0; k < lsize * 8u; k++)
				if ((m >> k) & 1 && i * lsize * 8 + k < MAX_DUMP_CPUS)
					bits[(i * lsize * 8 + k) / 8] |=
					    1 << ((i * lsize * 8 + k) % 8);
		}
	} else if (type == 2) { /* u8 any_cpu, pad, u16 start, end */
		memcpy(&a, d + 4, 2);
		memcpy(&b, d + 6, 2);
		for (i = a; i <= b && i < MAX_DUMP_CPUS; i++)
			bits[i / 8] |= 1 << (i % 8);
	}
	print_cpus(bits, MAX_DUMP_CPUS);
}

static void dump_user_body(const union perf_event *event)
{
	const u8 *p = (const u8 *)event + 8;
	u32 len = event->header.size - 8, i;
	u64 v[5];

	switch (event->header.type) {
	case PERF_RECORD_TIME_CONV:
		if (len < 24)
			break;
		memcpy(v, p, len < 40 ? 24 : 40);
		printf("\n... Time Shift      %" PRIu64 "\n", v[0]);
		printf("... Time Muliplier  %" PRIu64 "\n", v[1]);
		printf("... Time Zero       %" PRIu64 "\n", v[2]);
		if (len >= 40) {
			printf("... Time Cycles     %" PRIu64 "\n", v[3]);
			printf("... Time Mask       %#" PRIx64 "\n", v[4]);
		}
		if (len >= 42) {
			printf("... Cap Time Zero   %d\n", p[40]);
			printf("... Cap Time Short  %d\n", p[41]);
		}
		printf(": unhandled!\n"); /* perf 6.1's tools have no handler either */
		return;
	case PERF_RECORD_ID_INDEX: {
		u64 nr, e[4];

		if (len < 8)
			break;
		memcpy(&nr, p, 8);
		printf(" nr: %" PRIu64 "\n", nr);
		for (i = 0; i < nr && 8 + 32 * (u64)i + 32 <= len; i++) {
			memcpy(e, p + 8 + 32 * i, 32);
			printf(" ... id: %" PRIu64 "  idx: %" PRIu64 "  cpu: %" PRId64
			       "  tid: %" PRId64 "\n",
			       e[0], e[1], (s64)e[2], (s64)e[3]);
		}
		return;
	}
	case PERF_RECORD_THREAD_MAP: {
		u64 nr, pid;

		if (len < 8)
			break;
		memcpy(&nr, p, 8);
		printf(" nr: %" PRIu64 " thread%s: ", nr, nr > 1 ? "s" : "");
		for (i = 0; i < nr && 8 + 24 * (u64)i + 24 <= len; i++) {
			memcpy(&pid, p + 8 + 24 * i, 8);
			printf("%s%d", i ? ", " : "", (int)pid);
		}
		printf("\n");
		return;
	}
	case PERF_RECORD_CPU_MAP:
		printf(": ");
		print_cpu_map_data(p, len);
		printf("\n");
		return;
	case PERF_RECORD_EVENT_UPDATE: {
		u64 type, id;

		if (len < 16)
			break;
		memcpy(&type, p, 8);
		memcpy(&id, p + 8, 8);
		printf("\n... id:    %" PRIu64 "\n", id);
		if (type == 0)
			printf("... unit:  %.*s\n", (int)(len - 16), p + 16);
		else if (type == 1 && len >= 24) {
			double scale;

			memcpy(&scale, p + 16, 8);
			printf("... scale: %f\n", scale);
		} else if (type == 2)
			printf("... name:  %.*s\n", (int)(len - 16), p + 16);
		else if (type == 3) {
			printf("... ");
			print_cpu_map_data(p + 16, len - 16);
			printf("\n");
		}
		return;
	}
	case PERF_RECORD_AUXTRACE_INFO: {
		u32 type;

		if (len < 4)
			break;
		memcpy(&type, p, 4);
		printf(" type: %u\n", type);
		return;
	}
	case PERF_RECORD_AUXTRACE:
		if (len < sizeof(struct perf_record_auxtrace) - 8)
			break;
		printf(" size: %#" PRIx64 "  offset: %#" PRIx64 "  ref: %#" PRIx64
		       "  idx: %u  tid: %d  cpu: %d\n",
		       event->auxtrace.size, event->auxtrace.offset, event->auxtrace.reference,
		       event->auxtrace.idx, (s32)event->auxtrace.tid, (s32)event->auxtrace.cpu);
		return;
	case PERF_RECORD_FINISHED_INIT:
		printf(": unhandled!\n");
		return;
	case PERF_RECORD_HEADER_ATTR:
	case PERF_RECORD_HEADER_FEATURE:
		/* perf ends these lines with the next record's leading newline */
		return;
	default:
		break;
	}
	printf("\n");
}

void perf_event__dump_decoded(struct perf_session *session, const union perf_event *event,
			      const struct perf_sample *sample, struct evsel *evsel, u64 offset)
{
	struct evlist *evlist = session->evlist;
	u64 st = evsel ? evsel->attr.sample_type : 0;

	/* perf counts pipe offsets from the end of the 16-byte pipe header */
	if (session->is_pipe) {
		offset -= sizeof(struct perf_pipe_file_header);
		perf_event__dump_raw(event, offset, "pipe");
	} else {
		perf_event__dump_raw(event, offset, session->path);
	}
	if (event->header.type != PERF_RECORD_SAMPLE && !evlist->sample_id_all) {
		printf("-1 -1 ");
	} else {
		/* perf shows user records with an all-zero sample */
		if (st & PERF_SAMPLE_CPU)
			printf("%u ", sample ? sample->cpu : 0);
		if (st & PERF_SAMPLE_TIME)
			printf("%" PRIu64 " ", sample ? sample->time : 0);
	}
	if (session->legacy_pipe && event->header.type >= 69 && event->header.type <= 80) {
		/* 2012 ChromeOS: a header feature as a record (perf 6.1 stops here) */
		printf("%#" PRIx64 " [%#x]: PERF_RECORD_HEADER_%s (legacy)\n", offset,
		       event->header.size, perf_feature__name(event->header.type - 66));
		return;
	}
	printf("%#" PRIx64 " [%#x]: PERF_RECORD_%s", offset, event->header.size,
	       perf_event__name(event->header.type));
	if (event->header.type < PERF_RECORD_USER_TYPE_START && sample)
		dump_body(event, sample, evsel, session->env.arch);
	else
		dump_user_body(event);
}

void perf_sample__dump_resolved(const struct addr_location *al, const struct perf_sample *sample)
{
	const char *dso = "<not found>";

	if (!dump_trace || !al->thread)
		return;
	/* perf names the object by its long name: a module's path, not [name] */
	if (al->map && al->map->dso)
		dso = al->map->dso->long_name;
	else if (sample->cpumode == PERF_RECORD_MISC_HYPERVISOR)
		dso = "[hypervisor]";
	printf(" ... thread: %s:%d\n", thread__comm_str(al->thread), thread__tid(al->thread));
	printf(" ...... dso: %s\n", dso);
}
