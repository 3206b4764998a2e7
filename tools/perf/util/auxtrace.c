// SPDX-License-Identifier: GPL-2.0-only
/*
 * AUXTRACE_INFO, TIME_CONV, AUXTRACE and AUX records: the hardware trace
 * buffers of a recording, queued for a decoder.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "auxtrace.h"
#include "data.h"

/* AUXTRACE_INFO: header, u32 type, u32 reserved, then u64 priv[] */
#define AUXTRACE_INFO_PRIV 16

/* TIME_CONV: time_shift, time_mult, time_zero; then time_cycles, time_mask, the caps */
#define TIME_CONV_BASE 32
#define TIME_CONV_CYCLES 48
#define TIME_CONV_CAPS 49

static u64 rd64(const void *p)
{
	u64 v;

	memcpy(&v, p, 8);
	return v;
}

int intel_pt_info__parse(struct intel_pt_info *info, const union perf_event *event,
			 const char **why)
{
	const u8 *p = (const u8 *)event;
	u32 size = event->header.size, type;
	u64 priv[INTEL_PT_PRIV_MAX] = {0};
	int nr, i;

	memset(info, 0, sizeof(*info));
	if (size < AUXTRACE_INFO_PRIV) {
		*why = "is too short";
		return -EINVAL;
	}
	memcpy(&type, p + 8, 4);
	if (type != PERF_AUXTRACE_INTEL_PT) {
		*why = "is not of type intel_pt (1): its trace cannot be decoded";
		return -EINVAL;
	}
	nr = (size - AUXTRACE_INFO_PRIV) / 8;
	if (nr < INTEL_PT_PRIV_MIN) {
		*why = "has fewer than the 10 intel_pt entries perf writes";
		return -EINVAL;
	}
	for (i = 0; i < nr && i < INTEL_PT_PRIV_MAX; i++)
		priv[i] = rd64(p + AUXTRACE_INFO_PRIV + 8 * i);
	info->nr_priv = nr;
	info->pmu_type = priv[INTEL_PT_PMU_TYPE];
	info->tc.time_shift = priv[INTEL_PT_TIME_SHIFT];
	info->tc.time_mult = priv[INTEL_PT_TIME_MULT];
	info->tc.time_zero = priv[INTEL_PT_TIME_ZERO];
	info->tc.cap_user_time_zero = priv[INTEL_PT_CAP_USER_TIME_ZERO] == 1;
	info->tsc_bit = priv[INTEL_PT_TSC_BIT];
	info->noretcomp_bit = priv[INTEL_PT_NORETCOMP_BIT];
	info->have_sched_switch = priv[INTEL_PT_HAVE_SCHED_SWITCH];
	info->snapshot_mode = priv[INTEL_PT_SNAPSHOT_MODE];
	info->per_cpu_mmaps = priv[INTEL_PT_PER_CPU_MMAPS];
	if (nr > INTEL_PT_MAX_NONTURBO_RATIO) {
		info->mtc_bit = priv[INTEL_PT_MTC_BIT];
		info->mtc_freq_bits = priv[INTEL_PT_MTC_FREQ_BITS];
		info->tsc_ctc_n = priv[INTEL_PT_TSC_CTC_N];
		info->tsc_ctc_d = priv[INTEL_PT_TSC_CTC_D];
		info->cyc_bit = priv[INTEL_PT_CYC_BIT];
		info->max_nonturbo_ratio = priv[INTEL_PT_MAX_NONTURBO_RATIO];
	}
	if (nr > INTEL_PT_FILTER_STR_LEN && priv[INTEL_PT_FILTER_STR_LEN]) {
		u64 len = priv[INTEL_PT_FILTER_STR_LEN];
		u64 at = AUXTRACE_INFO_PRIV + 8 * INTEL_PT_PRIV_MAX;

		/* the string, NUL padded to 8, after the last entry */
		if (at > size || len >= size - at) {
			*why = "has a filter string longer than itself";
			return -EINVAL;
		}
		info->filter = strndup((const char *)p + at, len);
		if (!info->filter)
			return -ENOMEM;
	}
	/* a shift past 63 would make the conversion undefined */
	if (info->tc.time_shift > 63) {
		*why = "has a time_shift above 63";
		return -EINVAL;
	}
	return 0;
}

void intel_pt_info__exit(struct intel_pt_info *info)
{
	free(info->filter);
	info->filter = NULL;
}

void perf_tsc_conv__time_conv(struct perf_tsc_conv *tc, const union perf_event *event)
{
	const u8 *p = (const u8 *)event;
	u32 size = event->header.size;

	if (size < TIME_CONV_BASE)
		return;
	if (rd64(p + 8) <= 63)
		tc->time_shift = rd64(p + 8);
	tc->time_mult = rd64(p + 16);
	tc->time_zero = rd64(p + 24);
	if (size >= TIME_CONV_CYCLES) {
		tc->time_cycles = rd64(p + 32);
		tc->time_mask = rd64(p + 40);
	}
	if (size >= TIME_CONV_CAPS + 1) {
		tc->cap_user_time_zero = p[48];
		tc->cap_user_time_short = p[49];
	}
}

/* the formula of perf_event_mmap_page's time_zero documentation */
u64 perf_tsc_conv__to_time(const struct perf_tsc_conv *tc, u64 cyc)
{
	u64 quot, rem;

	if (tc->cap_user_time_short)
		cyc = tc->time_cycles + ((cyc - tc->time_cycles) & tc->time_mask);
	quot = cyc >> tc->time_shift;
	rem = cyc & (((u64)1 << tc->time_shift) - 1);
	return tc->time_zero + quot * tc->time_mult + ((rem * tc->time_mult) >> tc->time_shift);
}

u64 perf_tsc_conv__from_time(const struct perf_tsc_conv *tc, u64 ns)
{
	u64 t, quot, rem;

	if (!tc->time_mult || ns < tc->time_zero)
		return 0;
	t = ns - tc->time_zero;
	quot = t / tc->time_mult;
	rem = t % tc->time_mult;
	return (quot << tc->time_shift) + (rem << tc->time_shift) / tc->time_mult;
}

void auxtrace__init(struct auxtrace *at)
{
	memset(at, 0, sizeof(*at));
}

void auxtrace__exit(struct auxtrace *at)
{
	size_t i, j;

	for (i = 0; i < at->nr_queues; i++) {
		for (j = 0; j < at->queues[i].nr_buffers; j++)
			free(at->queues[i].buffers[j].data);
		free(at->queues[i].buffers);
	}
	free(at->queues);
	memset(at, 0, sizeof(*at));
}

static struct auxtrace_queue *auxtrace__queue(struct auxtrace *at, int cpu, s32 tid, u32 idx)
{
	struct auxtrace_queue *q;
	size_t i;

	for (i = 0; i < at->nr_queues; i++) {
		q = &at->queues[i];
		if (q->cpu == cpu && q->tid == tid && q->idx == idx)
			return q;
	}
	/* one per mmap: a machine has no more than a few thousand CPUs */
	if (at->nr_queues >= 65536)
		return NULL;
	q = realloc(at->queues, (at->nr_queues + 1) * sizeof(*q));
	if (!q)
		return NULL;
	at->queues = q;
	q = &at->queues[at->nr_queues++];
	memset(q, 0, sizeof(*q));
	q->cpu = cpu;
	q->tid = tid;
	q->pid = -1;
	q->idx = idx;
	return q;
}

int auxtrace__add_buffer(struct auxtrace *at, const union perf_event *event, u64 file_offset,
			 bool per_cpu, const char **why)
{
	const struct perf_record_auxtrace *r = &event->auxtrace;
	struct auxtrace_queue *q;
	struct auxtrace_buffer *b;

	at->filling = NULL;
	if (r->size > AUXTRACE_MAX_BYTES - at->nr_bytes) {
		*why = "has more trace than the decoder holds at once (2 GiB)";
		return -ENOMEM;
	}
	q = auxtrace__queue(at, per_cpu ? (int)r->cpu : -1, per_cpu ? -1 : (s32)r->tid, r->idx);
	if (!q) {
		*why = "needs a queue that cannot be allocated";
		return -ENOMEM;
	}
	if (q->nr_buffers == q->alloc) {
		size_t n = q->alloc ? q->alloc * 2 : 8;
		struct auxtrace_buffer *nb = realloc(q->buffers, n * sizeof(*nb));

		if (!nb)
			return -ENOMEM;
		q->buffers = nb;
		q->alloc = n;
	}
	b = &q->buffers[q->nr_buffers];
	memset(b, 0, sizeof(*b));
	b->aux_offset = r->offset;
	b->size = r->size;
	b->reference = r->reference;
	b->file_offset = file_offset;
	/*
	 * The bytes arrive next, and memory grows with them: a size past
	 * the end of the file or stream is refused by the session before
	 * any arrive, and must not have been allocated first
	 */
	b->data = NULL;
	q->nr_buffers++;
	if (!per_cpu && q->pid < 0)
		q->pid = -1;
	at->nr_bytes += r->size;
	at->filling = b;
	at->filling_queue = q;
	return 0;
}

int auxtrace__data(struct auxtrace *at, const void *buf, u64 len)
{
	struct auxtrace_buffer *b = at->filling;

	if (!b)
		return 0;
	if (len > b->size - b->got)
		return -EINVAL;
	if (b->got + len > b->alloc) {
		u64 n = b->alloc ? b->alloc : 1 << 16;
		u8 *d;

		while (n < b->got + len)
			n *= 2;
		if (n > b->size)
			n = b->size;
		d = realloc(b->data, n);
		if (!d)
			return -ENOMEM;
		b->data = d;
		b->alloc = n;
	}
	memcpy(b->data + b->got, buf, len);
	b->got += len;
	if (b->got == b->size)
		at->filling = NULL;
	return 0;
}

void auxtrace__aux(struct auxtrace *at, const union perf_event *event)
{
	u64 flags = event->aux.flags;

	at->nr_aux++;
	if (flags & AUXTRACE_FLAG_TRUNCATED)
		at->nr_truncated++;
	if (flags & AUXTRACE_FLAG_PARTIAL)
		at->nr_partial++;
	if (flags & AUXTRACE_FLAG_COLLISION)
		at->nr_collision++;
}

/* append the @len bytes at @off of the file to @b */
static int auxtrace_buffer__read(struct auxtrace_buffer *b, struct perf_data *data, u64 off,
				 u64 len)
{
	u8 *d = realloc(b->data, b->got + len ? b->got + len : 1);

	if (!d)
		return -ENOMEM;
	b->data = d;
	b->alloc = b->got + len;
	if (len && perf_data__pread(data, b->data + b->got, len, off))
		return -EIO;
	b->got += len;
	b->size = b->got;
	return 0;
}

/*
 * The AUXTRACE record at file offset @off (its trace after it, in the
 * data section ending at @data_end) into its queue: joined to the
 * queue's last buffer when its AUX area offset follows that one's
 */
static int auxtrace__queue_at(struct auxtrace *at, struct perf_data *data, u64 off, u64 data_end,
			      bool per_cpu, const char **why)
{
	union perf_event ev;
	struct auxtrace_queue *q;
	struct auxtrace_buffer *last;
	const char *w = NULL;
	int err;

	if (off > data_end || data_end - off < sizeof(ev.auxtrace) ||
	    perf_data__pread(data, &ev.auxtrace, sizeof(ev.auxtrace), off)) {
		*why = "HEADER_AUXTRACE points past the data section";
		return -EINVAL;
	}
	if (ev.header.type != PERF_RECORD_AUXTRACE || ev.header.size < sizeof(ev.auxtrace)) {
		*why = "HEADER_AUXTRACE points to a record that is not an AUXTRACE";
		return -EINVAL;
	}
	if (ev.auxtrace.size > data_end - off - ev.header.size) {
		*why = "has a payload that runs past the end of the data";
		return -EINVAL;
	}
	if (ev.auxtrace.size > AUXTRACE_MAX_BYTES - at->nr_bytes) {
		*why = "has more trace than the decoder holds at once (2 GiB)";
		return -ENOMEM;
	}
	q = auxtrace__queue(at, per_cpu ? (int)ev.auxtrace.cpu : -1,
			    per_cpu ? -1 : (s32)ev.auxtrace.tid, ev.auxtrace.idx);
	if (!q)
		return -ENOMEM;
	last = q->nr_buffers ? &q->buffers[q->nr_buffers - 1] : NULL;
	if (!last || last->aux_offset + last->size != ev.auxtrace.offset) {
		err = auxtrace__add_buffer(at, &ev, off, per_cpu, &w);
		if (err) {
			*why = w;
			return err;
		}
		at->filling = NULL;
		last = &q->buffers[q->nr_buffers - 1];
		last->size = 0;
	} else {
		at->nr_bytes += ev.auxtrace.size;
	}
	err = auxtrace_buffer__read(last, data, off + ev.header.size, ev.auxtrace.size);
	if (err) {
		*why = "cannot be read";
		return err;
	}
	return 0;
}

int auxtrace__read_index(struct auxtrace *at, struct perf_data *data, const void *index,
			 u64 index_size, u64 data_end, bool per_cpu, const char **why,
			 u64 *bad_offset)
{
	const u8 *p = index;
	u64 nr, i;
	int err;

	*bad_offset = 0;
	if (index_size < 8) {
		*why = "HEADER_AUXTRACE is too short";
		return -EINVAL;
	}
	nr = rd64(p);
	if (nr > (index_size - 8) / 16) {
		*why = "HEADER_AUXTRACE has more entries than it holds";
		return -EINVAL;
	}
	for (i = 0; i < nr; i++) {
		*bad_offset = rd64(p + 8 + 16 * i);
		err = auxtrace__queue_at(at, data, *bad_offset, data_end, per_cpu, why);
		if (err)
			return err;
	}
	at->indexed = true;
	return 0;
}

int auxtrace__read_records(struct auxtrace *at, struct perf_data *data, u64 data_offset,
			   u64 data_end, bool per_cpu, const char **why, u64 *bad_offset)
{
	struct perf_data_window win = {0};
	u64 off = data_offset;
	int err = 0;

	*bad_offset = 0;
	if (data_end > data->size)
		data_end = data->size;
	while (data_end - off >= sizeof(struct perf_event_header)) {
		const struct perf_event_header *h;
		u64 size;

		h = perf_data__window_get(data, &win, off, sizeof(*h));
		if (!h)
			break;
		size = h->size;
		/* a record cut or broken: the session says so when it gets there */
		if (size < sizeof(*h) || size > data_end - off)
			break;
		if (h->type == PERF_RECORD_AUXTRACE) {
			const struct perf_record_auxtrace *r;

			if (size < sizeof(*r))
				break;
			r = perf_data__window_get(data, &win, off, sizeof(*r));
			if (!r || r->size > data_end - off - size)
				break;
			*bad_offset = off;
			err = auxtrace__queue_at(at, data, off, data_end, per_cpu, why);
			if (err)
				break;
			size += r->size;
		}
		off += size;
	}
	perf_data__window_put(&win);
	if (!err)
		at->indexed = true;
	return err;
}
