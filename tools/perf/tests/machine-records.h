/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_TESTS_MACHINE_RECORDS_H
#define __PERF_TEXTPOKE_TESTS_MACHINE_RECORDS_H
/*
 * Side-band records built in memory for the machine tests, laid out as the
 * kernel writes them (variable parts NUL terminated, padded to 8).
 */
#include <stdio.h>
#include <string.h>

#include "../util/event.h"
#include "../util/machine.h"
#include "../util/symbol.h"

union record_buf {
	union perf_event event;
	u64 align;
	char bytes[4096];
};

static inline u16 record__pad(size_t size)
{
	return (u16)PERF_ALIGN(size, 8);
}

static inline union perf_event *record__mmap2(union record_buf *buf, u16 misc, u32 pid, u32 tid,
					      u64 start, u64 len, u64 pgoff, const char *name,
					      const u8 *build_id)
{
	struct perf_record_mmap2 *e = &buf->event.mmap2;
	size_t n = strlen(name) + 1;

	memset(buf, 0, sizeof(*buf));
	e->header.type = PERF_RECORD_MMAP2;
	e->header.misc = misc;
	e->header.size = record__pad(sizeof(*e) + n);
	e->pid = pid;
	e->tid = tid;
	e->start = start;
	e->len = len;
	e->pgoff = pgoff;
	if (build_id) {
		e->header.misc |= PERF_RECORD_MISC_MMAP_BUILD_ID_BIT;
		e->build_id_size = 20;
		memcpy(e->build_id, build_id, 20);
	}
	e->prot = 5; /* r-x */
	e->flags = 2;
	memcpy(e->filename, name, n);
	return &buf->event;
}

static inline union perf_event *record__mmap(union record_buf *buf, u16 misc, u32 pid, u32 tid,
					     u64 start, u64 len, u64 pgoff, const char *name)
{
	struct perf_record_mmap *e = &buf->event.mmap;
	size_t n = strlen(name) + 1;

	memset(buf, 0, sizeof(*buf));
	e->header.type = PERF_RECORD_MMAP;
	e->header.misc = misc;
	e->header.size = record__pad(sizeof(*e) + n);
	e->pid = pid;
	e->tid = tid;
	e->start = start;
	e->len = len;
	e->pgoff = pgoff;
	memcpy(e->filename, name, n);
	return &buf->event;
}

static inline union perf_event *record__comm(union record_buf *buf, u32 pid, u32 tid,
					     const char *comm, bool exec)
{
	struct perf_record_comm *e = &buf->event.comm;
	size_t n = strlen(comm) + 1;

	memset(buf, 0, sizeof(*buf));
	e->header.type = PERF_RECORD_COMM;
	e->header.misc = exec ? (1 << 13) : 0;
	e->header.size = record__pad(sizeof(*e) + n);
	e->pid = pid;
	e->tid = tid;
	memcpy(e->comm, comm, n);
	return &buf->event;
}

static inline union perf_event *record__task(union record_buf *buf, u32 type, u32 pid, u32 ppid,
					     u32 tid, u32 ptid, u64 time)
{
	struct perf_record_fork *e = &buf->event.fork;

	memset(buf, 0, sizeof(*buf));
	e->header.type = type;
	e->header.size = sizeof(*e);
	e->pid = pid;
	e->ppid = ppid;
	e->tid = tid;
	e->ptid = ptid;
	e->time = time;
	return &buf->event;
}

static inline union perf_event *record__ksymbol(union record_buf *buf, u64 addr, u32 len, u16 type,
						bool unregister, const char *name)
{
	struct perf_record_ksymbol *e = &buf->event.ksymbol;
	size_t n = strlen(name) + 1;

	memset(buf, 0, sizeof(*buf));
	e->header.type = PERF_RECORD_KSYMBOL;
	e->header.misc = PERF_RECORD_MISC_KERNEL;
	e->header.size = record__pad(sizeof(*e) + n);
	e->addr = addr;
	e->len = len;
	e->ksym_type = type;
	e->flags = unregister ? 1 : 0;
	memcpy(e->name, name, n);
	return &buf->event;
}

/* the id trailer as the session hands it over: only the time matters here */
static inline struct perf_sample *sample__at(struct perf_sample *sample, u64 time)
{
	memset(sample, 0, sizeof(*sample));
	sample->time = time;
	return sample;
}

/* what a kernel address resolved to, as text to compare */
struct found {
	char sym[64];
	char dso[64];
	u64 addr, start, end;
	/* what the symbol and the dso say their names' lengths are (-1: none) */
	long sym_len, dso_len;
};

static inline void resolve_kernel(struct machine *m, u64 ip, u64 time, struct found *f)
{
	struct thread *t = machine__findnew_thread(m, 0, 0);
	struct addr_location al;

	addr_location__init(&al);
	thread__find_symbol(t, PERF_RECORD_MISC_KERNEL, ip, time, &al);
	snprintf(f->sym, sizeof(f->sym), "%s", al.sym ? symbol__name(al.sym) : "[unknown]");
	snprintf(f->dso, sizeof(f->dso), "%s", al.map ? map__dso_name(al.map) : "[unknown]");
	f->sym_len = al.sym ? (long)symbol__name_len(al.sym) : -1;
	if (al.map) {
		size_t len;

		map__dso_name_len(al.map, &len);
		f->dso_len = len;
	} else {
		f->dso_len = -1;
	}
	f->addr = al.addr;
	f->start = al.sym ? al.sym->start : 0;
	f->end = al.sym ? al.sym->end : 0;
	addr_location__exit(&al);
	thread__put(t);
}

#endif /* __PERF_TEXTPOKE_TESTS_MACHINE_RECORDS_H */
