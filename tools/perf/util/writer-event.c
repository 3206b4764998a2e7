// SPDX-License-Identifier: GPL-2.0-only
/*
 * Record synthesis for the writer: each record is built in w->rec in the
 * file's byte order, the sample_id_all trailer of its attr appended, and
 * handed to writer__record().
 */
#include <errno.h>
#include <string.h>

#include "writer-internal.h"

static struct writer_attr *writer__get_attr(struct perf_writer *w, int idx)
{
	if (idx < 0 || idx >= w->nr_attrs)
		return NULL;
	return &w->attrs[idx];
}

static void writer__put_id_trailer(struct perf_writer *w, struct wbuf *b,
				   const struct writer_attr *a, const struct perf_sample *id)
{
	static const struct perf_sample none;
	u64 type = a->attr.sample_type;
	u64 ident;

	if (!id)
		id = &none;
	ident = id->id ? id->id : (a->nr_ids ? a->ids[0] : 0);
	if (type & PERF_SAMPLE_TID) {
		wbuf__u32(b, id->pid);
		wbuf__u32(b, id->tid);
	}
	if (type & PERF_SAMPLE_TIME)
		wbuf__u64(b, id->time);
	if (type & PERF_SAMPLE_ID)
		wbuf__u64(b, ident);
	if (type & PERF_SAMPLE_STREAM_ID)
		wbuf__u64(b, id->stream_id);
	if (type & PERF_SAMPLE_CPU) {
		wbuf__u32(b, id->cpu);
		wbuf__u32(b, 0);
	}
	if (type & PERF_SAMPLE_IDENTIFIER)
		wbuf__u64(b, ident);
}

/* start a record for attr @idx in w->rec */
static struct writer_attr *writer__begin(struct perf_writer *w, int idx, u32 type, u16 misc)
{
	struct writer_attr *a = writer__get_attr(w, idx);

	if (!a)
		return NULL;
	wbuf__reset(&w->rec);
	wbuf__header(&w->rec, type, misc);
	return a;
}

static int writer__finish(struct perf_writer *w, const struct writer_attr *a,
			  const struct perf_sample *id, u32 type)
{
	struct wbuf *b = &w->rec;
	u16 size;

	if (a)
		writer__put_id_trailer(w, b, a, id);
	if (b->err)
		return b->err;
	if (b->len % 8)
		return -EINVAL;
	size = writer__u16(w, b->len);
	memcpy(b->p + 6, &size, sizeof(size));
	return writer__record(w, b->p, b->len, type);
}

int perf_writer__synth_comm(struct perf_writer *w, int idx, u32 pid, u32 tid, const char *comm,
			    bool exec, const struct perf_sample *id)
{
	struct writer_attr *a;

	if (!comm)
		return -EINVAL;
	a = writer__begin(w, idx, PERF_RECORD_COMM, exec ? PERF_RECORD_MISC_COMM_EXEC : 0);
	if (!a)
		return -EINVAL;
	wbuf__u32(&w->rec, pid);
	wbuf__u32(&w->rec, tid);
	wbuf__record_string(&w->rec, comm);
	return writer__finish(w, a, id, PERF_RECORD_COMM);
}

int perf_writer__synth_cgroup(struct perf_writer *w, int idx, u64 id, const char *path)
{
	struct writer_attr *a = writer__begin(w, idx, PERF_RECORD_CGROUP, 0);

	if (!a || !path)
		return -EINVAL;
	wbuf__u64(&w->rec, id);
	wbuf__record_string(&w->rec, path);
	return writer__finish(w, a, NULL, PERF_RECORD_CGROUP);
}

int perf_writer__synth_namespaces(struct perf_writer *w, int idx, u32 pid, u32 tid, u64 nr,
				  const u64 *dev_ino)
{
	struct writer_attr *a = writer__begin(w, idx, PERF_RECORD_NAMESPACES, 0);

	if (!a || nr > 64)
		return -EINVAL;
	wbuf__u32(&w->rec, pid);
	wbuf__u32(&w->rec, tid);
	wbuf__u64(&w->rec, nr);
	for (u64 i = 0; i < 2 * nr; i++)
		wbuf__u64(&w->rec, dev_ino[i]);
	return writer__finish(w, a, NULL, PERF_RECORD_NAMESPACES);
}

int perf_writer__synth_mmap2(struct perf_writer *w, int idx, const struct perf_record_mmap2 *m,
			     const char *filename, const struct perf_sample *id)
{
	struct writer_attr *a;
	struct wbuf *b = &w->rec;

	if (!m || !filename)
		return -EINVAL;
	a = writer__begin(w, idx, PERF_RECORD_MMAP2, m->header.misc);
	if (!a)
		return -EINVAL;
	wbuf__u32(b, m->pid);
	wbuf__u32(b, m->tid);
	wbuf__u64(b, m->start);
	wbuf__u64(b, m->len);
	wbuf__u64(b, m->pgoff);
	if (m->header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID_BIT) {
		if (m->build_id_size > sizeof(m->build_id))
			return -EINVAL;
		wbuf__put(b, &m->build_id_size, 1);
		wbuf__zero(b, 3);
		wbuf__put(b, m->build_id, sizeof(m->build_id));
	} else {
		wbuf__u32(b, m->maj);
		wbuf__u32(b, m->min);
		wbuf__u64(b, m->ino);
		wbuf__u64(b, m->ino_generation);
	}
	wbuf__u32(b, m->prot);
	wbuf__u32(b, m->flags);
	wbuf__record_string(b, filename);
	return writer__finish(w, a, id, PERF_RECORD_MMAP2);
}

static int writer__synth_task(struct perf_writer *w, int idx, u32 type, u32 pid, u32 ppid, u32 tid,
			      u32 ptid, u64 time, const struct perf_sample *id)
{
	struct writer_attr *a = writer__begin(w, idx, type, 0);

	if (!a)
		return -EINVAL;
	wbuf__u32(&w->rec, pid);
	wbuf__u32(&w->rec, ppid);
	wbuf__u32(&w->rec, tid);
	wbuf__u32(&w->rec, ptid);
	wbuf__u64(&w->rec, time);
	return writer__finish(w, a, id, type);
}

int perf_writer__synth_fork(struct perf_writer *w, int idx, u32 pid, u32 ppid, u32 tid, u32 ptid,
			    u64 time, const struct perf_sample *id)
{
	return writer__synth_task(w, idx, PERF_RECORD_FORK, pid, ppid, tid, ptid, time, id);
}

int perf_writer__synth_exit(struct perf_writer *w, int idx, u32 pid, u32 ppid, u32 tid, u32 ptid,
			    u64 time, const struct perf_sample *id)
{
	return writer__synth_task(w, idx, PERF_RECORD_EXIT, pid, ppid, tid, ptid, time, id);
}

int perf_writer__synth_ksymbol(struct perf_writer *w, int idx, u64 addr, u32 len, u16 ksym_type,
			       u16 flags, const char *name, const struct perf_sample *id)
{
	struct writer_attr *a;

	if (!name)
		return -EINVAL;
	/* the kernel marks ksymbols as kernel code */
	a = writer__begin(w, idx, PERF_RECORD_KSYMBOL, PERF_RECORD_MISC_KERNEL);
	if (!a)
		return -EINVAL;
	wbuf__u64(&w->rec, addr);
	wbuf__u32(&w->rec, len);
	wbuf__u16(&w->rec, ksym_type);
	wbuf__u16(&w->rec, flags);
	wbuf__record_string(&w->rec, name);
	return writer__finish(w, a, id, PERF_RECORD_KSYMBOL);
}

int perf_writer__synth_bpf_event(struct perf_writer *w, int idx, u16 type, u16 flags, u32 prog_id,
				 const u8 tag[8], const struct perf_sample *id)
{
	static const u8 no_tag[8];
	struct writer_attr *a = writer__begin(w, idx, PERF_RECORD_BPF_EVENT, 0);

	if (!a)
		return -EINVAL;
	wbuf__u16(&w->rec, type);
	wbuf__u16(&w->rec, flags);
	wbuf__u32(&w->rec, prog_id);
	wbuf__put(&w->rec, tag ? tag : no_tag, 8);
	return writer__finish(w, a, id, PERF_RECORD_BPF_EVENT);
}

int perf_writer__synth_text_poke(struct perf_writer *w, int idx, u64 addr, const u8 *old_bytes,
				 u16 old_len, const u8 *new_bytes, u16 new_len,
				 const struct perf_sample *id)
{
	struct writer_attr *a;

	if ((old_len && !old_bytes) || (new_len && !new_bytes))
		return -EINVAL;
	a = writer__begin(w, idx, PERF_RECORD_TEXT_POKE, PERF_RECORD_MISC_KERNEL);
	if (!a)
		return -EINVAL;
	wbuf__u64(&w->rec, addr);
	wbuf__u16(&w->rec, old_len);
	wbuf__u16(&w->rec, new_len);
	wbuf__put(&w->rec, old_bytes, old_len);
	wbuf__put(&w->rec, new_bytes, new_len);
	/* header 8 + addr 8 + lens 4 + bytes: zero pad to 8, as the kernel does */
	wbuf__pad(&w->rec, 8);
	return writer__finish(w, a, id, PERF_RECORD_TEXT_POKE);
}

int perf_writer__synth_lost(struct perf_writer *w, int idx, u64 lost, const struct perf_sample *id)
{
	struct writer_attr *a = writer__begin(w, idx, PERF_RECORD_LOST, 0);

	if (!a)
		return -EINVAL;
	wbuf__u64(&w->rec, id && id->id ? id->id : perf_writer__attr_id(w, idx));
	wbuf__u64(&w->rec, lost);
	return writer__finish(w, a, id, PERF_RECORD_LOST);
}

/* the kernel writes both on the AUX event of the CPU (or task) the buffer belongs to */
int perf_writer__synth_aux(struct perf_writer *w, int idx, u64 aux_offset, u64 aux_size, u64 flags,
			   const struct perf_sample *id)
{
	struct writer_attr *a = writer__begin(w, idx, PERF_RECORD_AUX, 0);

	if (!a)
		return -EINVAL;
	wbuf__u64(&w->rec, aux_offset);
	wbuf__u64(&w->rec, aux_size);
	wbuf__u64(&w->rec, flags);
	return writer__finish(w, a, id, PERF_RECORD_AUX);
}

int perf_writer__synth_itrace_start(struct perf_writer *w, int idx, u32 pid, u32 tid,
				    const struct perf_sample *id)
{
	struct writer_attr *a = writer__begin(w, idx, PERF_RECORD_ITRACE_START, 0);

	if (!a)
		return -EINVAL;
	wbuf__u32(&w->rec, pid);
	wbuf__u32(&w->rec, tid);
	return writer__finish(w, a, id, PERF_RECORD_ITRACE_START);
}

int perf_writer__synth_finished_round(struct perf_writer *w)
{
	wbuf__reset(&w->rec);
	wbuf__header(&w->rec, PERF_RECORD_FINISHED_ROUND, 0);
	return writer__finish(w, NULL, NULL, PERF_RECORD_FINISHED_ROUND);
}

static void wbuf__regs(struct wbuf *b, const struct regs_dump *r, u64 mask)
{
	wbuf__u64(b, r->abi);
	if (!r->abi)
		return;
	if (!r->regs) {
		b->err = -EINVAL;
		return;
	}
	wbuf__u64_array(b, r->regs, __builtin_popcountll(mask));
}

static void wbuf__read(struct wbuf *b, const struct perf_event_attr *attr,
		       const struct sample_read *r)
{
	u64 fmt = attr->read_format;
	u64 per_value = 1 + !!(fmt & PERF_FORMAT_ID) + !!(fmt & PERF_FORMAT_LOST);

	if (fmt & PERF_FORMAT_GROUP) {
		wbuf__u64(b, r->nr);
		if (fmt & PERF_FORMAT_TOTAL_TIME_ENABLED)
			wbuf__u64(b, r->time_enabled);
		if (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING)
			wbuf__u64(b, r->time_running);
		if (r->nr && !r->values) {
			b->err = -EINVAL;
			return;
		}
		if (r->nr > RECORD_MAX / 8 / per_value) {
			b->err = -E2BIG;
			return;
		}
		wbuf__u64_array(b, r->values, r->nr * per_value);
		return;
	}
	wbuf__u64(b, r->one_value);
	if (fmt & PERF_FORMAT_TOTAL_TIME_ENABLED)
		wbuf__u64(b, r->time_enabled);
	if (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING)
		wbuf__u64(b, r->time_running);
	if (fmt & PERF_FORMAT_ID)
		wbuf__u64(b, r->one_id);
	if (fmt & PERF_FORMAT_LOST)
		wbuf__u64(b, 0);
}

int perf_writer__synth_sample(struct perf_writer *w, int idx, const struct perf_sample *s)
{
	struct writer_attr *a;
	struct wbuf *b = &w->rec;
	u64 type, ident;
	u16 misc;

	if (!s)
		return -EINVAL;
	misc = s->misc ? s->misc : s->cpumode;
	a = writer__begin(w, idx, PERF_RECORD_SAMPLE, misc);
	if (!a)
		return -EINVAL;
	type = a->attr.sample_type;
	ident = s->id ? s->id : (a->nr_ids ? a->ids[0] : 0);

	if (type & PERF_SAMPLE_IDENTIFIER)
		wbuf__u64(b, ident);
	if (type & PERF_SAMPLE_IP)
		wbuf__u64(b, s->ip);
	if (type & PERF_SAMPLE_TID) {
		wbuf__u32(b, s->pid);
		wbuf__u32(b, s->tid);
	}
	if (type & PERF_SAMPLE_TIME)
		wbuf__u64(b, s->time);
	if (type & PERF_SAMPLE_ADDR)
		wbuf__u64(b, s->addr);
	if (type & PERF_SAMPLE_ID)
		wbuf__u64(b, ident);
	if (type & PERF_SAMPLE_STREAM_ID)
		wbuf__u64(b, s->stream_id);
	if (type & PERF_SAMPLE_CPU) {
		wbuf__u32(b, s->cpu);
		wbuf__u32(b, 0);
	}
	if (type & PERF_SAMPLE_PERIOD)
		wbuf__u64(b, s->period);
	if (type & PERF_SAMPLE_READ)
		wbuf__read(b, &a->attr, &s->read);
	if (type & PERF_SAMPLE_CALLCHAIN) {
		if (s->callchain) {
			wbuf__u64(b, s->callchain->nr);
			wbuf__u64_array(b, s->callchain->ips, s->callchain->nr);
		} else {
			wbuf__u64(b, 0);
		}
	}
	if (type & PERF_SAMPLE_RAW) {
		/* the kernel pads the data so that u32 size + data end on 8 bytes */
		u64 padded = PERF_ALIGN((u64)s->raw_size + 4, 8) - 4;

		if (s->raw_size && !s->raw_data)
			return -EINVAL;
		if (padded > RECORD_MAX)
			return -E2BIG;
		wbuf__u32(b, padded);
		wbuf__put(b, s->raw_data, s->raw_size);
		wbuf__zero(b, padded - s->raw_size);
	}
	if (type & PERF_SAMPLE_BRANCH_STACK) {
		wbuf__u64(b, s->branch_nr);
		if (a->attr.branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
			wbuf__u64(b, s->branch_hw_idx);
		if (s->branch_nr && !s->branch_entries)
			return -EINVAL;
		if (s->branch_nr > RECORD_MAX / sizeof(struct branch_entry))
			return -E2BIG;
		wbuf__u64_array(b, (const u64 *)s->branch_entries, s->branch_nr * 3);
	}
	if (type & PERF_SAMPLE_REGS_USER)
		wbuf__regs(b, &s->user_regs, a->attr.sample_regs_user);
	if (type & PERF_SAMPLE_STACK_USER) {
		if (s->user_stack.size % 8 || (s->user_stack.size && !s->user_stack.data))
			return -EINVAL;
		if (s->user_stack.size > RECORD_MAX)
			return -E2BIG;
		wbuf__u64(b, s->user_stack.size);
		wbuf__put(b, s->user_stack.data, s->user_stack.size);
		if (s->user_stack.size)
			wbuf__u64(b, s->user_stack.dyn_size);
	}
	if (type & PERF_SAMPLE_WEIGHT_STRUCT) {
		wbuf__u32(b, s->weight);
		wbuf__u16(b, s->ins_lat);
		wbuf__u16(b, s->p_stage_cyc);
	} else if (type & PERF_SAMPLE_WEIGHT) {
		wbuf__u64(b, s->weight);
	}
	if (type & PERF_SAMPLE_DATA_SRC)
		wbuf__u64(b, s->data_src);
	if (type & PERF_SAMPLE_TRANSACTION)
		wbuf__u64(b, s->transaction);
	if (type & PERF_SAMPLE_REGS_INTR)
		wbuf__regs(b, &s->intr_regs, a->attr.sample_regs_intr);
	if (type & PERF_SAMPLE_PHYS_ADDR)
		wbuf__u64(b, s->phys_addr);
	if (type & PERF_SAMPLE_CGROUP)
		wbuf__u64(b, s->cgroup);
	if (type & PERF_SAMPLE_DATA_PAGE_SIZE)
		wbuf__u64(b, s->data_page_size);
	if (type & PERF_SAMPLE_CODE_PAGE_SIZE)
		wbuf__u64(b, s->code_page_size);
	if (type & PERF_SAMPLE_AUX) {
		if (s->aux_size && !s->aux_data)
			return -EINVAL;
		if (s->aux_size > RECORD_MAX)
			return -E2BIG;
		wbuf__u64(b, s->aux_size);
		wbuf__put(b, s->aux_data, s->aux_size);
		wbuf__pad(b, 8);
	}
	return writer__finish(w, NULL, NULL, PERF_RECORD_SAMPLE);
}

/* what perf_writer__write_event() takes: header.size if it does, else -EINVAL */
static int writer__event_size(struct perf_writer *w, const struct perf_event_header *h)
{
	u32 type = writer__u32(w, h->type);
	u16 size = writer__u16(w, h->size);

	/* perf itself writes some user records (CPU_MAP) of sizes not 8-aligned */
	if (size < sizeof(struct perf_event_header) ||
	    (size % 8 && type < PERF_RECORD_USER_TYPE_START))
		return -EINVAL;
	switch (type) {
	case PERF_RECORD_HEADER_ATTR:
	case PERF_RECORD_HEADER_EVENT_TYPE:
	case PERF_RECORD_HEADER_TRACING_DATA:
	case PERF_RECORD_HEADER_BUILD_ID:
	case PERF_RECORD_AUXTRACE: /* payload outside header.size */
	case PERF_RECORD_HEADER_FEATURE:
	case PERF_RECORD_COMPRESSED:
	case PERF_RECORD_COMPRESSED2:
		return -EINVAL;
	default:
		if (type >= PERF_RECORD_HEADER_MAX)
			return -EINVAL;
	}
	return size;
}

int perf_writer__write_event(struct perf_writer *w, const union perf_event *ev)
{
	int size;

	if (!ev)
		return -EINVAL;
	size = writer__event_size(w, &ev->header);
	if (size < 0)
		return size;
	return writer__record(w, ev, size, writer__u32(w, ev->header.type));
}

int perf_writer__write_events(struct perf_writer *w, const void *bytes, size_t len)
{
	const u8 *p = bytes;
	struct perf_event_header h;
	u32 counts[PERF_RECORD_HEADER_MAX] = {0};

	/* all checked before any is written; counted on the way, for the writer's tally */
	for (size_t off = 0; off < len;) {
		int size;

		if (len - off < sizeof(h))
			return -EINVAL;
		memcpy(&h, p + off, sizeof(h));
		size = writer__event_size(w, &h);
		if (size < 0 || (size_t)size > len - off)
			return -EINVAL;
		/* writer__event_size() refused any type past PERF_RECORD_HEADER_MAX */
		counts[writer__u32(w, h.type)]++;
		off += size;
	}
	return len ? writer__records(w, p, len, counts) : 0;
}
