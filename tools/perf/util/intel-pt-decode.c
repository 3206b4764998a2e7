// SPDX-License-Identifier: GPL-2.0-only
/*
 * Intel PT decoding with libipt's instruction-flow decoder, code bytes
 * from the text image (kernel) and mapped files (user), both as of the
 * decoder's time.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug.h"
#include "intel-pt-decode.h"

#ifndef HAVE_LIBIPT

struct intel_pt *intel_pt__new(const struct intel_pt_info *info, const char *cpuid,
			       struct machine *machine, struct text_image *ti, struct auxtrace *at,
			       const struct intel_pt_opts *opts)
{
	(void)info, (void)cpuid, (void)machine, (void)ti, (void)at, (void)opts;
	pr_warning("Intel PT decoding: not built in (built without libipt): the trace is not "
		   "decoded\n");
	errno = ENOTSUP;
	return NULL;
}

void intel_pt__delete(struct intel_pt *pt)
{
	(void)pt;
}

int intel_pt__set_cpu_task(struct intel_pt *pt, int cpu, s32 pid, s32 tid, u64 time)
{
	(void)pt, (void)cpu, (void)pid, (void)tid, (void)time;
	return 0;
}

bool intel_pt__cpu_task(const struct intel_pt *pt, int cpu, u64 time, s32 *pid, s32 *tid)
{
	(void)pt, (void)cpu, (void)time, (void)pid, (void)tid;
	return false;
}

void intel_pt__maps_changed(struct intel_pt *pt)
{
	(void)pt;
}

int intel_pt__next(struct intel_pt *pt, size_t qi, struct intel_pt_item *item)
{
	(void)pt, (void)qi, (void)item;
	return 0;
}

#else

#include <intel-pt.h>

#include "dso-data.h"
#include "dso.h"
#include "insn-len.h"
#include "machine.h"
#include "map.h"
#include "text-image.h"

/* the user/kernel split of x86_64 canonical addresses */
#define KERNEL_START 0xffff800000000000ULL

#define PENDING_MAX 8

/* who ran on a CPU from when on: appended in time order as records arrive */
struct ipt_cpu_task {
	u64 time;
	s32 pid, tid;
};

struct ipt_cpu {
	struct ipt_cpu_task *tasks;
	size_t nr, alloc;
};

/* the object mapped at the last user address read, until maps change */
struct ipt_map_cache {
	u64 start, end; /* runtime addresses */
	u64 delta;	/* file offset = address - delta */
	s32 pid;
	const void *key;
	char *path;
	u64 gen;
};

struct ipt_queue {
	struct intel_pt *pt;
	struct auxtrace_queue *aq;
	size_t next_buffer;		/* the buffer to open next */
	struct auxtrace_buffer *buffer; /* non-NULL while open; moves with realloc */
	u64 buffer_file_offset;
	struct pt_insn_decoder *dec;
	int status;
	/* the previous instruction, for the branch it took */
	bool have_prev;
	u64 prev_ip;
	u8 prev_size;
	enum pt_insn_class prev_class;
	bool trace_begin; /* after a sync or an overflow: the next ip starts the trace */
	u64 fail_ip;	  /* where the image had no bytes */
	u64 nr_insns;	  /* since the last instruction item */
	u64 next_sample_time;
	u64 last_time;
	/* items of an event take its time, a branch that of its instruction */
	bool use_fixed;
	u64 fixed_time;
	u64 prev_time; /* after the previous instruction's packets were consumed */
	/* the last instruction decoded, for the insn field of its branch */
	u64 br_ip;
	u8 br_raw[15];
	u8 br_len;
	/*
	 * The version code bytes are read at: the time once the previous
	 * instruction's (or event's) packets were consumed.  libipt's own
	 * time inside the read callback can be ahead of it (it reads timing
	 * packets ahead while looking for the next event, through a PSB+)
	 */
	u64 read_time;
	u64 sync_offset; /* of the PSB last synced to */
	/*
	 * After a decode error: the rest of the buffer is walked here, on a
	 * query decoder, the way perf's own decoder recovers (see below)
	 */
	struct pt_query_decoder *qry;
	struct pt_packet_decoder *pkt; /* to look at the packet the query decoder is at */
	bool w_skipping;	       /* waiting for an IP packet */
	u64 w_ip;
	struct pt_event w_held; /* an asynchronous event, until w_ip reaches it */
	bool w_have_held;
	u64 w_ret[64]; /* return addresses, for compressed returns */
	unsigned int w_nr_ret;
	bool w_need_full_ip;	   /* as perf after an error: a compressed IP is no IP */
	u64 w_prev_off, w_cur_off; /* the query decoder at the last steps */
	u64 w_offs[4];
	/*
	 * objects whose unknown code was reported once (as perf does, but
	 * per queue: the queues are decoded a little ahead of printing, so
	 * a shared list would let a later error of one CPU hide an earlier
	 * one of another)
	 */
	const void *reported[64];
	size_t nr_reported;
	/* instructions since the trace position last moved: a loop that never ends */
	u64 nr_no_progress;
	u64 progress_off;
	unsigned int w_nr_offs;
	u64 w_sync; /* the query decoder's last PSB */
	struct intel_pt_item pending[PENDING_MAX];
	int nr_pending, pending_at;
	struct ipt_map_cache map;
};

struct intel_pt {
	struct intel_pt_info info;
	struct pt_config config;
	struct machine *machine;
	struct text_image *ti;
	struct auxtrace *at;
	struct intel_pt_opts opts;
	struct ipt_queue *queues;
	size_t nr_queues;
	struct ipt_cpu *cpus;
	int nr_cpus;
	struct dso_data *objs;
	u64 maps_gen;
	u64 nr_errors_quiet;
};

/* "GenuineIntel,6,78,3": the family, model and stepping libipt's errata need */
static void intel_pt__set_cpu(struct pt_config *config, const char *cpuid)
{
	unsigned int family, model, stepping;

	if (!cpuid || strncmp(cpuid, "GenuineIntel,", 13) ||
	    sscanf(cpuid + 13, "%u,%u,%u", &family, &model, &stepping) != 3)
		return;
	config->cpu.vendor = pcv_intel;
	config->cpu.family = family;
	config->cpu.model = model;
	config->cpu.stepping = stepping;
	if (pt_cpu_errata(&config->errata, &config->cpu) < 0)
		pr_debug("intel_pt: no errata known for cpu %s\n", cpuid);
}

struct intel_pt *intel_pt__new(const struct intel_pt_info *info, const char *cpuid,
			       struct machine *machine, struct text_image *ti, struct auxtrace *at,
			       const struct intel_pt_opts *opts)
{
	struct intel_pt *pt = calloc(1, sizeof(*pt));

	if (!pt)
		return NULL;
	pt->info = *info;
	pt->info.filter = NULL;
	pt->machine = machine;
	pt->ti = ti;
	pt->at = at;
	pt->opts = *opts;
	pt->objs = dso_data__new();
	if (!pt->objs) {
		free(pt);
		return NULL;
	}
	pt_config_init(&pt->config);
	intel_pt__set_cpu(&pt->config, cpuid);
	pt->config.cpuid_0x15_eax = info->tsc_ctc_d;
	pt->config.cpuid_0x15_ebx = info->tsc_ctc_n;
	pt->config.mtc_freq = info->mtc_freq_bits;
	pt->config.nom_freq = info->max_nonturbo_ratio;
	return pt;
}

static void ipt_queue__close(struct ipt_queue *q)
{
	if (q->dec)
		pt_insn_free_decoder(q->dec);
	if (q->qry)
		pt_qry_free_decoder(q->qry);
	if (q->pkt)
		pt_pkt_free_decoder(q->pkt);
	q->pkt = NULL;
	q->qry = NULL;
	q->dec = NULL;
	q->buffer = NULL;
}

void intel_pt__delete(struct intel_pt *pt)
{
	size_t i;

	if (!pt)
		return;
	for (i = 0; i < pt->nr_queues; i++) {
		ipt_queue__close(&pt->queues[i]);
		free(pt->queues[i].map.path);
	}
	free(pt->queues);
	for (i = 0; i < (size_t)pt->nr_cpus; i++)
		free(pt->cpus[i].tasks);
	free(pt->cpus);
	dso_data__delete(pt->objs);
	free(pt);
}

int intel_pt__set_cpu_task(struct intel_pt *pt, int cpu, s32 pid, s32 tid, u64 time)
{
	struct ipt_cpu *c;

	if (cpu < 0 || cpu >= 1 << 16)
		return 0;
	if (cpu >= pt->nr_cpus) {
		int n = cpu + 1;
		struct ipt_cpu *nc = realloc(pt->cpus, n * sizeof(*nc));

		if (!nc)
			return -ENOMEM;
		memset(nc + pt->nr_cpus, 0, (n - pt->nr_cpus) * sizeof(*nc));
		pt->cpus = nc;
		pt->nr_cpus = n;
	}
	c = &pt->cpus[cpu];
	if (c->nr && c->tasks[c->nr - 1].time > time)
		time = c->tasks[c->nr - 1].time; /* out of order: keep the list sorted */
	if (c->nr == c->alloc) {
		size_t n = c->alloc ? c->alloc * 2 : 64;
		struct ipt_cpu_task *t = realloc(c->tasks, n * sizeof(*t));

		if (!t)
			return -ENOMEM;
		c->tasks = t;
		c->alloc = n;
	}
	c->tasks[c->nr].time = time;
	c->tasks[c->nr].pid = pid;
	c->tasks[c->nr].tid = tid;
	c->nr++;
	return 0;
}

bool intel_pt__cpu_task(const struct intel_pt *pt, int cpu, u64 time, s32 *pid, s32 *tid)
{
	const struct ipt_cpu *c;
	size_t lo = 0, hi;

	if (cpu < 0 || cpu >= pt->nr_cpus)
		return false;
	c = &pt->cpus[cpu];
	hi = c->nr;
	/* the last switch at or before @time */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (c->tasks[mid].time <= time)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return false;
	*pid = c->tasks[lo - 1].pid;
	*tid = c->tasks[lo - 1].tid;
	return true;
}

void intel_pt__maps_changed(struct intel_pt *pt)
{
	pt->maps_gen++;
}

static u64 ipt_queue__time(struct ipt_queue *q)
{
	u64 tsc = 0;
	u32 lost_mtc, lost_cyc;

	if (!q->dec || pt_insn_time(q->dec, &tsc, &lost_mtc, &lost_cyc) < 0 || !tsc)
		return q->last_time;
	q->last_time = perf_tsc_conv__to_time(&q->pt->info.tc, tsc);
	return q->last_time;
}

static void ipt_queue__task(const struct ipt_queue *q, s32 *pid, s32 *tid)
{
	const struct intel_pt *pt = q->pt;
	int cpu = q->aq->cpu;

	*pid = q->aq->pid;
	*tid = q->aq->tid;
	if (cpu >= 0)
		intel_pt__cpu_task(pt, cpu, q->last_time, pid, tid);
}

/* the object mapped at @ip in the queue's process at @time, into q->map */
static bool ipt_queue__find_map(struct ipt_queue *q, u64 ip, u64 time)
{
	struct ipt_map_cache *mc = &q->map;
	struct addr_location al;
	struct thread *thread;
	s32 pid, tid;
	bool found = false;

	ipt_queue__task(q, &pid, &tid);
	if (mc->path && mc->gen == q->pt->maps_gen && mc->pid == pid && ip >= mc->start &&
	    ip < mc->end)
		return true;
	if (tid == -1 || !q->pt->machine)
		return false;
	thread = machine__find_thread(q->pt->machine, pid, tid);
	if (!thread)
		return false;
	addr_location__init(&al);
	thread__find_symbol(thread, PERF_RECORD_MISC_USER, ip, time, &al);
	if (al.map && al.map->dso && !al.map->identity) {
		const char *path = map__dso_name(al.map);

		if (path && path[0] == '/') {
			free(mc->path);
			mc->path = strdup(path);
			mc->start = map__start(al.map);
			mc->end = map__end(al.map);
			mc->delta = ip - al.addr;
			mc->key = al.map->dso;
			mc->pid = pid;
			mc->gen = q->pt->maps_gen;
			found = mc->path != NULL;
		}
	}
	addr_location__exit(&al);
	thread__put(thread);
	return found;
}

/*
 * libipt asks for code bytes at @ip on every fetch, without a time: the
 * decoder's time (its last timing packet) picks the version.  Only the
 * bytes known at that time are returned, so a read never mixes versions
 * or unknown bytes.
 */
static int ipt_read_memory(uint8_t *buf, size_t size, const struct pt_asid *asid, uint64_t ip,
			   void *context)
{
	struct ipt_queue *q = context;
	u64 time = q->read_time;
	u8 known[pt_max_insn_size];
	size_t n = 0;

	(void)asid;
	if (size > sizeof(known))
		size = sizeof(known);
	if (ip >= KERNEL_START) {
		if (q->pt->ti && text_image__read(q->pt->ti, ip, size, time, buf, known) > 0) {
			while (n < size && known[n])
				n++;
		}
	} else if (ipt_queue__find_map(q, ip, time)) {
		struct ipt_map_cache *mc = &q->map;
		bool elf64;
		ssize_t r;

		if (size > mc->end - ip)
			size = mc->end - ip;
		r = dso_data__read(q->pt->objs, mc->key, mc->path, ip - mc->delta, buf, size,
				   &elf64);
		n = r > 0 ? (size_t)r : 0;
	}
	if (!n) {
		q->fail_ip = ip;
		return -pte_nomap;
	}
	return n;
}

static struct intel_pt_item *ipt_queue__push(struct ipt_queue *q, enum intel_pt_item_type type);

static void ipt_queue__no_psb(struct ipt_queue *q, const struct auxtrace_buffer *b)
{
	struct intel_pt_item *it;

	q->use_fixed = true;
	q->fixed_time = q->last_time;
	it = ipt_queue__push(q, IPT_ITEM_ERROR);
	q->use_fixed = false;
	if (!it)
		return;
	it->err_code = IPT_ERR_NODATA;
	snprintf(it->msg, sizeof(it->msg),
		 "no PSB in the %" PRIu64 " bytes of the AUXTRACE at %#" PRIx64 ": nothing decoded",
		 b->size, b->file_offset);
}

static int ipt_queue__open(struct ipt_queue *q)
{
	struct intel_pt *pt = q->pt;
	struct auxtrace_queue *aq = q->aq;
	struct pt_config config = pt->config;
	struct pt_image *image;

	while (q->next_buffer < aq->nr_buffers) {
		struct auxtrace_buffer *b = &aq->buffers[q->next_buffer];

		/* a buffer still arriving (a pipe) waits */
		if (b->got < b->size)
			return 0;
		q->next_buffer++;
		if (!b->size)
			continue;
		config.begin = b->data;
		config.end = b->data + b->size;
		q->dec = pt_insn_alloc_decoder(&config);
		if (!q->dec)
			return -ENOMEM;
		image = pt_insn_get_image(q->dec);
		if (!image || pt_image_set_callback(image, ipt_read_memory, q) < 0) {
			ipt_queue__close(q);
			return -ENOMEM;
		}
		q->buffer = b;
		q->buffer_file_offset = b->file_offset;
		q->status = pt_insn_sync_forward(q->dec);
		q->sync_offset = 0;
		pt_insn_get_sync_offset(q->dec, &q->sync_offset);
		q->have_prev = false;
		q->trace_begin = true;
		q->read_time = q->prev_time = ipt_queue__time(q);
		if (q->status >= 0)
			return 1;
		/* no PSB in the whole buffer: nothing can be decoded, say so */
		ipt_queue__no_psb(q, b);
		ipt_queue__close(q);
		return 0;
	}
	return 0;
}

static struct intel_pt_item *ipt_queue__push(struct ipt_queue *q, enum intel_pt_item_type type)
{
	struct intel_pt_item *it;

	if (q->nr_pending >= PENDING_MAX)
		return NULL;
	it = &q->pending[(q->pending_at + q->nr_pending++) % PENDING_MAX];
	memset(it, 0, sizeof(*it));
	it->type = type;
	it->time = q->use_fixed ? q->fixed_time : ipt_queue__time(q);
	it->cpu = q->aq->cpu;
	ipt_queue__task(q, &it->pid, &it->tid);
	return it;
}

static void ipt_queue__branch(struct ipt_queue *q, u64 from, u64 to, u32 flags)
{
	struct intel_pt_item *it = ipt_queue__push(q, IPT_ITEM_BRANCH);

	if (!it)
		return;
	it->ip = from;
	it->addr = to;
	it->flags = flags | IPT_FLAG_BRANCH;
	it->cpumode_user = from < KERNEL_START;
	/* -F insn: the branch instruction's bytes, when it is the one at hand */
	if (from && from == q->br_ip && q->br_len) {
		it->insn_len = q->br_len;
		memcpy(it->insn, q->br_raw, q->br_len);
	}
}

static u32 ipt_class_flags(enum pt_insn_class c)
{
	switch (c) {
	case ptic_call:
		return IPT_FLAG_CALL;
	case ptic_return:
		return IPT_FLAG_RETURN;
	case ptic_cond_jump:
		return IPT_FLAG_CONDITIONAL;
	case ptic_far_call:
		return IPT_FLAG_CALL | IPT_FLAG_SYSCALLRET;
	case ptic_far_return:
		return IPT_FLAG_RETURN | IPT_FLAG_SYSCALLRET;
	default:
		return 0;
	}
}

static bool ipt_class_branches(enum pt_insn_class c)
{
	return c != ptic_other && c != ptic_ptwrite && c != ptic_error;
}

/*
 * The object mapped at @ip, if any: perf reports an object whose bytes it
 * cannot read once, and an address outside every map each time
 */
static const void *ipt_queue__object(struct ipt_queue *q, u64 ip)
{
	struct addr_location al;
	struct thread *thread;
	const void *key = NULL;
	s32 pid, tid;

	if (ip < KERNEL_START)
		return ipt_queue__find_map(q, ip, q->read_time) ? q->map.key : NULL;
	ipt_queue__task(q, &pid, &tid);
	if (!q->pt->machine || tid == -1)
		return NULL;
	thread = machine__find_thread(q->pt->machine, pid, tid);
	if (!thread)
		return NULL;
	addr_location__init(&al);
	thread__find_symbol(thread, PERF_RECORD_MISC_KERNEL, ip, q->read_time, &al);
	key = al.map ? al.map->dso : NULL;
	addr_location__exit(&al);
	thread__put(thread);
	return key;
}

/* whether an error about @ip's object was reported already (and note it) */
static bool ipt_queue__reported(struct ipt_queue *q, u64 ip)
{
	const void *key = ipt_queue__object(q, ip);
	size_t i;

	if (!key)
		return false;
	for (i = 0; i < q->nr_reported; i++)
		if (q->reported[i] == key)
			return true;
	if (q->nr_reported < sizeof(q->reported) / sizeof(q->reported[0]))
		q->reported[q->nr_reported++] = key;
	return false;
}

static void ipt_queue__error(struct ipt_queue *q, int errcode, u64 ip)
{
	struct intel_pt_item *it;

	if (errcode == pte_nomap && ipt_queue__reported(q, ip)) {
		q->pt->nr_errors_quiet++;
		return;
	}
	/* when the code was looked for */
	q->use_fixed = true;
	q->fixed_time = q->read_time;
	it = ipt_queue__push(q, IPT_ITEM_ERROR);
	q->use_fixed = false;
	u64 off = 0;

	if (!it)
		return;
	it->ip = ip;
	if (q->dec)
		pt_insn_get_offset(q->dec, &off);
	switch (errcode) {
	case pte_nomap:
		it->err_code = IPT_ERR_NOINSN;
		snprintf(it->msg, sizeof(it->msg),
			 "code bytes unknown at %#" PRIx64 " at %" PRIu64 ".%09" PRIu64
			 " (trace offset %#" PRIx64 " of the AUXTRACE at %#" PRIx64 ")",
			 ip, it->time / 1000000000, it->time % 1000000000, off,
			 q->buffer_file_offset);
		return;
	case pte_bad_opc:
	case pte_bad_packet:
		it->err_code = IPT_ERR_BADPKT;
		break;
	case pte_bad_insn:
		it->err_code = IPT_ERR_NOINSN;
		break;
	case pte_nomem:
		it->err_code = IPT_ERR_NOMEM;
		break;
	case pte_internal:
		it->err_code = IPT_ERR_INTERN;
		break;
	default:
		it->err_code = IPT_ERR_UNK;
		break;
	}
	snprintf(it->msg, sizeof(it->msg),
		 "%s at %#" PRIx64 " (trace offset %#" PRIx64 " of the AUXTRACE at %#" PRIx64 ")",
		 pt_errstr(errcode), ip, off, q->buffer_file_offset);
}

/* the events libipt has pending before the next instruction */
static int ipt_queue__events(struct ipt_queue *q)
{
	while (q->status & pts_event_pending) {
		struct pt_event ev;

		q->status = pt_insn_event(q->dec, &ev, sizeof(ev));
		if (q->status < 0)
			return q->status;
		/* an event's own time: the decoder's may be past it already */
		q->use_fixed = true;
		q->fixed_time =
		    ev.has_tsc ? perf_tsc_conv__to_time(&q->pt->info.tc, ev.tsc) : q->read_time;
		q->read_time = q->prev_time = q->fixed_time;
		switch (ev.type) {
		case ptev_enabled:
			ipt_queue__branch(q, 0, ev.variant.enabled.ip, IPT_FLAG_TRACE_BEGIN);
			q->trace_begin = false;
			q->have_prev = false;
			break;
		case ptev_disabled:
		case ptev_async_disabled:
			/* perf shows where the branch went, when the packet says */
			if (q->have_prev)
				ipt_queue__branch(q, q->prev_ip,
						  ev.type == ptev_disabled && !ev.ip_suppressed ?
						      ev.variant.disabled.ip :
						      0,
						  IPT_FLAG_TRACE_END |
						      ipt_class_flags(q->prev_class));
			q->have_prev = false;
			q->trace_begin = true;
			break;
		case ptev_async_branch:
			if (q->have_prev && ipt_class_branches(q->prev_class) &&
			    ev.variant.async_branch.from != q->prev_ip + q->prev_size)
				ipt_queue__branch(q, q->prev_ip, ev.variant.async_branch.from,
						  ipt_class_flags(q->prev_class));
			ipt_queue__branch(q, ev.variant.async_branch.from,
					  ev.variant.async_branch.to,
					  IPT_FLAG_CALL | IPT_FLAG_ASYNC | IPT_FLAG_INTERRUPT);
			q->trace_begin = false;
			q->have_prev = false;
			break;
		case ptev_overflow:
			ipt_queue__error(q, pte_overflow, q->have_prev ? q->prev_ip : 0);
			q->pending[(q->pending_at + q->nr_pending - 1) % PENDING_MAX].err_code =
			    IPT_ERR_OVR;
			q->have_prev = false;
			q->trace_begin = true;
			break;
		default:
			break;
		}
		q->use_fixed = false;
		if (q->nr_pending >= PENDING_MAX / 2)
			break;
	}
	return 0;
}

static const u8 ipt_psb[16] = {0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82,
			       0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82};

/*
 * perf's "never-ending loop" check: code that branches without packets
 * (jmp to itself) would hold the walk for ever; after this many
 * instructions at one trace position it is an error
 */
#define IPT_NO_PROGRESS_MAX (1U << 20)

static bool ipt_queue__stuck(struct ipt_queue *q, u64 off)
{
	if (off != q->progress_off) {
		q->progress_off = off;
		q->nr_no_progress = 0;
		return false;
	}
	return ++q->nr_no_progress > IPT_NO_PROGRESS_MAX;
}

/* --- recovery: perf's way, on libipt's query decoder ---------------------
 *
 * libipt's instruction decoder can only start at a PSB.  perf's decoder,
 * after an instruction it cannot get, skips TNT packets (they belong to the
 * unknown code) to the next packet that gives an IP (TIP, TIP.PGE, FUP
 * with TIP), reports a trace start there and decodes on if it has that
 * code.  With PSBs kilobytes apart that is where the known code of a
 * recording with holes (no kcore: only poked sites, trampolines and BPF
 * programs are known) gets decoded.  So after an error the buffer's rest
 * is walked here: a query decoder brought to where the instruction decoder
 * stopped, and an instruction walk of its own (lengths from insn-len.c,
 * the branch kind from the opcode) that asks it for each branch.
 */

static u64 ipt_qry_now(struct ipt_queue *q)
{
	u64 tsc = 0;
	u32 lost_mtc, lost_cyc;

	if (pt_qry_time(q->qry, &tsc, &lost_mtc, &lost_cyc) >= 0 && tsc)
		q->last_time = perf_tsc_conv__to_time(&q->pt->info.tc, tsc);
	return q->last_time;
}

/* a branch or error of the walk, at the time its packets were consumed */
static void ipt_walk__branch(struct ipt_queue *q, u64 from, u64 to, u32 flags)
{
	q->use_fixed = true;
	q->fixed_time = ipt_qry_now(q);
	ipt_queue__branch(q, from, to, flags);
	q->use_fixed = false;
}

/* the query decoder at the instruction decoder's position: 0 or -errno */
static int ipt_walk__start(struct ipt_queue *q)
{
	const struct auxtrace_buffer *b = q->buffer;
	struct pt_config config = q->pt->config;
	uint64_t off = 0, psb = 0, at, fup = 0;
	const u8 *p;
	int status, guard;
	bool fresh;

	if (pt_insn_get_offset(q->dec, &off) < 0 || off >= b->size)
		return -pte_eos;
	/* the last PSB at or before it */
	for (at = q->sync_offset; at < off; at = p - b->data + 1) {
		p = memmem(b->data + at, off - at, ipt_psb, sizeof(ipt_psb));
		if (!p)
			break;
		psb = p - b->data;
	}
	config.begin = b->data;
	config.end = b->data + b->size;
	q->qry = pt_qry_alloc_decoder(&config);
	q->pkt = pt_pkt_alloc_decoder(&config);
	if (!q->qry || !q->pkt)
		return -pte_nomem;
	status = pt_qry_sync_set(q->qry, &fup, psb);
	q->w_ip = fup;
	fresh = status >= 0 && !(status & pts_ip_suppressed);
	/* consume what the instruction decoder had consumed */
	for (guard = 0; status >= 0 && guard < 1 << 20; guard++) {
		uint64_t now = 0;
		int taken;

		if (pt_qry_get_offset(q->qry, &now) < 0 || now >= off)
			break;
		if (status & pts_event_pending) {
			struct pt_event ev;

			status = pt_qry_event(q->qry, &ev, sizeof(ev));
			continue;
		}
		/* the PSB+'s own events (its MODE.exec) leave it fresh, a branch not */
		fresh = false;
		status = pt_qry_cond_branch(q->qry, &taken);
		if (status == -pte_bad_query) {
			uint64_t ip;

			status = pt_qry_indirect_branch(q->qry, &ip);
		}
	}
	q->status = status;
	q->w_sync = 0;
	pt_qry_get_sync_offset(q->qry, &q->w_sync);
	/*
	 * Nothing to consume: the instruction decoder had read ahead into
	 * the next segment's PSB+, and the code runs on at its FUP (as for
	 * perf, no trace start there); else skip to the next IP
	 */
	q->w_skipping = !fresh;
	q->w_need_full_ip = true;
	pt_qry_get_offset(q->qry, &q->w_cur_off);
	q->w_prev_off = q->w_cur_off;
	q->w_nr_offs = 0;
	q->w_have_held = false;
	q->w_nr_ret = 0;
	q->have_prev = false;
	return status < 0 ? status : 0;
}

/* what an instruction does to the flow, from its opcode */
enum ipt_walk_kind {
	IW_OTHER,
	IW_COND, /* jcc, loop, jrcxz: target in walk->target */
	IW_JMP,	 /* direct */
	IW_CALL, /* direct */
	IW_JMP_IND,
	IW_CALL_IND,
	IW_RET,
	IW_FAR_CALL, /* syscall, sysenter, int: TIP or TIP.PGD */
	IW_FAR_RET,  /* sysret, sysexit, iret, far ret */
};

static enum ipt_walk_kind ipt_walk__kind(const u8 *b, int len, u64 ip, u64 *target)
{
	int i = 0;
	u8 op;

	/* legacy prefixes, then REX */
	while (i < len && (b[i] == 0x66 || b[i] == 0x67 || b[i] == 0xf2 || b[i] == 0xf3 ||
			   b[i] == 0x2e || b[i] == 0x3e || b[i] == 0x26 || b[i] == 0x36 ||
			   b[i] == 0x64 || b[i] == 0x65 || b[i] == 0xf0))
		i++;
	if (i < len && (b[i] & 0xf0) == 0x40)
		i++;
	if (i >= len)
		return IW_OTHER;
	op = b[i];
	if ((op >= 0x70 && op <= 0x7f) || (op >= 0xe0 && op <= 0xe3)) {
		*target = ip + len + (s8)b[len - 1];
		return IW_COND;
	}
	if (op == 0xeb || op == 0xe9 || op == 0xe8) {
		s32 rel = op == 0xeb ? (s8)b[len - 1] : 0;

		if (op != 0xeb)
			memcpy(&rel, b + len - 4, 4);
		*target = ip + len + (s64)rel;
		return op == 0xe8 ? IW_CALL : IW_JMP;
	}
	if (op == 0xff && i + 1 < len) {
		switch ((b[i + 1] >> 3) & 7) {
		case 2:
		case 3:
			return IW_CALL_IND;
		case 4:
		case 5:
			return IW_JMP_IND;
		default:
			return IW_OTHER;
		}
	}
	if (op == 0xc3 || op == 0xc2)
		return IW_RET;
	if (op == 0xcb || op == 0xca || op == 0xcf)
		return IW_FAR_RET;
	if (op == 0xcc || op == 0xcd || op == 0xce || op == 0xf1)
		return IW_FAR_CALL;
	if (op == 0x0f && i + 1 < len) {
		u8 op2 = b[i + 1];

		if (op2 >= 0x80 && op2 <= 0x8f) {
			s32 rel;

			memcpy(&rel, b + len - 4, 4);
			*target = ip + len + (s64)rel;
			return IW_COND;
		}
		if (op2 == 0x05 || op2 == 0x34)
			return IW_FAR_CALL;
		if (op2 == 0x07 || op2 == 0x35)
			return IW_FAR_RET;
	}
	return IW_OTHER;
}

static u32 ipt_walk__flags(enum ipt_walk_kind k)
{
	switch (k) {
	case IW_COND:
		return IPT_FLAG_CONDITIONAL;
	case IW_CALL:
	case IW_CALL_IND:
		return IPT_FLAG_CALL;
	case IW_RET:
		return IPT_FLAG_RETURN;
	case IW_FAR_CALL:
		return IPT_FLAG_CALL | IPT_FLAG_SYSCALLRET;
	case IW_FAR_RET:
		return IPT_FLAG_RETURN | IPT_FLAG_SYSCALLRET;
	default:
		return 0;
	}
}

/* an event the walk has reached: 1 when it gave the walk a new ip */
static int ipt_walk__event(struct ipt_queue *q, const struct pt_event *ev)
{
	switch (ev->type) {
	case ptev_enabled:
		ipt_walk__branch(q, 0, ev->variant.enabled.ip, IPT_FLAG_TRACE_BEGIN);
		q->w_ip = ev->variant.enabled.ip;
		q->w_skipping = false;
		return 1;
	case ptev_async_branch:
		ipt_walk__branch(q, ev->variant.async_branch.from, ev->variant.async_branch.to,
				 IPT_FLAG_CALL | IPT_FLAG_ASYNC | IPT_FLAG_INTERRUPT);
		q->w_ip = ev->variant.async_branch.to;
		q->w_skipping = false;
		return 1;
	case ptev_async_disabled:
		ipt_walk__branch(q, ev->variant.async_disabled.at, 0,
				 IPT_FLAG_TRACE_END | IPT_FLAG_ASYNC);
		q->w_skipping = true;
		return 0;
	case ptev_disabled:
		q->w_skipping = true;
		return 0;
	case ptev_overflow:
		ipt_queue__error(q, pte_overflow, q->w_ip);
		q->pending[(q->pending_at + q->nr_pending - 1) % PENDING_MAX].err_code =
		    IPT_ERR_OVR;
		q->w_skipping = true;
		return 0;
	default:
		return 0;
	}
}

/*
 * Whether the IP packet the query decoder is at gives the whole address.
 * perf forgets the last IP when it loses the code, so a compressed IP (the
 * low 16 or 32 bits) after that means nothing to it, and it skips on to
 * the next packet with a full one; from there the last IP is known again.
 */
static bool ipt_walk__full_ip(struct ipt_queue *q)
{
	struct pt_packet pk;
	uint64_t off = 0;

	if (!q->w_need_full_ip)
		return true;
	if (pt_qry_get_offset(q->qry, &off) < 0 || pt_pkt_sync_set(q->pkt, off) < 0 ||
	    pt_pkt_next(q->pkt, &pk, sizeof(pk)) < 0)
		return true;
	switch (pk.type) {
	case ppt_tip:
	case ppt_tip_pge:
	case ppt_tip_pgd:
	case ppt_fup:
		if (pk.payload.ip.ipc != pt_ipc_sext_48 && pk.payload.ip.ipc != pt_ipc_full)
			return false;
		break;
	default:
		break;
	}
	q->w_need_full_ip = false;
	return true;
}

/* the compression of the last @type packet in [@from, @to), or -1 */
static int ipt_walk__last_ipc(struct ipt_queue *q, u64 from, u64 to, enum pt_packet_type type)
{
	struct pt_packet pk;
	uint64_t off = from;
	int ipc = -1, i;

	if (pt_pkt_sync_set(q->pkt, from) < 0)
		return -1;
	for (i = 0; i < 256 && off < to; i++) {
		if (pt_pkt_next(q->pkt, &pk, sizeof(pk)) < 0)
			break;
		if (pk.type == type)
			ipc = pk.payload.ip.ipc;
		if (pt_pkt_get_offset(q->pkt, &off) < 0)
			break;
	}
	return ipc;
}

static bool ipt_ipc_full(int ipc)
{
	return ipc == pt_ipc_sext_48 || ipc == pt_ipc_full;
}

/* whether the walk has the code at @ip now */
static bool ipt_walk__has_code(struct ipt_queue *q, u64 ip)
{
	u8 b[INSN_LEN_MAX];

	q->read_time = ipt_qry_now(q);
	return ipt_read_memory(b, sizeof(b), NULL, ip, q) > 0;
}

/*
 * An interrupt (FUP + TIP) met while skipping.  perf takes the FUP as an
 * IP (a trace start) and walks on from there to the TIP: without the code
 * there the walk fails before it, the TIP is lost with it, and perf
 * forgets the IP again.  With the code, the interrupt is taken there.
 */
static void ipt_walk__skip_async(struct ipt_queue *q, const struct pt_event *ev)
{
	bool branch = ev->type == ptev_async_branch;
	u64 from = branch ? ev->variant.async_branch.from : ev->variant.async_disabled.at;
	bool fup_full =
	    !q->w_need_full_ip ||
	    ipt_ipc_full(ipt_walk__last_ipc(q, q->w_prev_off, q->w_cur_off + 1, ppt_fup));

	if (!branch)
		q->w_skipping = true;
	if (!fup_full)
		return;
	ipt_walk__branch(q, 0, from, IPT_FLAG_TRACE_BEGIN);
	q->w_need_full_ip = false;
	if (ipt_walk__has_code(q, from)) {
		if (branch) {
			ipt_walk__branch(q, from, ev->variant.async_branch.to,
					 IPT_FLAG_CALL | IPT_FLAG_ASYNC | IPT_FLAG_INTERRUPT);
			q->w_ip = ev->variant.async_branch.to;
			q->w_skipping = false;
		} else {
			ipt_walk__branch(q, from, 0, IPT_FLAG_TRACE_END | IPT_FLAG_ASYNC);
		}
		return;
	}
	ipt_queue__error(q, pte_nomap, from);
	q->w_need_full_ip = true;
}

/* skipping: the next packet that gives an IP */
static int ipt_walk__skip(struct ipt_queue *q)
{
	uint64_t ip;
	int taken;
	bool full;

	if (q->status & pts_event_pending) {
		struct pt_event ev;

		full = q->w_need_full_ip;
		q->status = pt_qry_event(q->qry, &ev, sizeof(ev));
		if (q->status < 0)
			return q->status;
		if (ev.type == ptev_async_branch || ev.type == ptev_async_disabled) {
			ipt_walk__skip_async(q, &ev);
		} else if (ev.type == ptev_enabled) {
			/* a TIP.PGE: an IP if a full one */
			full = !full || ipt_ipc_full(ipt_walk__last_ipc(
					    q, q->w_prev_off, q->w_cur_off + 1, ppt_tip_pge));
			if (full) {
				q->w_need_full_ip = false;
				ipt_walk__event(q, &ev);
			}
		} else {
			ipt_walk__event(q, &ev);
		}
		return q->status;
	}
	q->status = pt_qry_cond_branch(q->qry, &taken);
	if (q->status >= 0) {
		uint64_t sync = 0, fup = 0;
		int status;

		/*
		 * A PSB passed on the way to the next packet: perf syncs
		 * there, at its FUP, without a trace start of its own
		 */
		if (pt_qry_get_sync_offset(q->qry, &sync) >= 0 && sync > q->w_sync) {
			q->w_sync = sync;
			status = pt_qry_sync_set(q->qry, &fup, sync);
			if (status >= 0) {
				q->status = status;
				if (!(status & pts_ip_suppressed)) {
					q->w_ip = fup;
					q->w_skipping = false;
				}
			}
		}
	}
	if (q->status != -pte_bad_query)
		return q->status;
	full = ipt_walk__full_ip(q);
	q->status = pt_qry_indirect_branch(q->qry, &ip);
	if (q->status >= 0 && !(q->status & pts_ip_suppressed) && full) {
		ipt_walk__branch(q, 0, ip, IPT_FLAG_TRACE_BEGIN);
		q->w_ip = ip;
		q->w_skipping = false;
	}
	return q->status;
}

/* one instruction at w_ip */
static int ipt_walk__insn(struct ipt_queue *q)
{
	struct intel_pt *pt = q->pt;
	u8 bytes[INSN_LEN_MAX], known[INSN_LEN_MAX];
	enum ipt_walk_kind kind;
	u64 ip = q->w_ip, target = 0, next;
	uint64_t to;
	int n, len, taken;

	/* an asynchronous event (FUP + TIP) belongs to its own ip */
	if (!q->w_have_held && (q->status & pts_event_pending)) {
		q->status = pt_qry_event(q->qry, &q->w_held, sizeof(q->w_held));
		if (q->status < 0)
			return q->status;
		if (q->w_held.type == ptev_async_branch || q->w_held.type == ptev_async_disabled)
			q->w_have_held = true;
		else if (q->w_held.type != ptev_disabled)
			return ipt_walk__event(q, &q->w_held), 0;
		else
			q->w_have_held = true;
	}
	if (q->w_have_held) {
		u64 at = q->w_held.type == ptev_async_branch ? q->w_held.variant.async_branch.from :
			 q->w_held.type == ptev_async_disabled ?
							       q->w_held.variant.async_disabled.at :
							       0;

		if (q->w_held.type != ptev_disabled && (at == ip || q->w_held.ip_suppressed)) {
			q->w_have_held = false;
			ipt_walk__event(q, &q->w_held);
			return 0;
		}
	}
	q->read_time = ipt_qry_now(q);
	q->fail_ip = 0;
	n = ipt_read_memory(bytes, sizeof(bytes), NULL, ip, q);
	len = n > 0 ? insn_len(bytes, NULL, n, INSN_LEN_64, NULL) : -1;
	if (len <= 0) {
		ipt_queue__error(q, n > 0 ? pte_bad_insn : pte_nomap, ip);
		q->w_skipping = true;
		q->w_need_full_ip = true;
		q->w_have_held = false;
		return 0;
	}
	memset(known, 1, sizeof(known));
	if (ipt_queue__stuck(q, q->w_cur_off)) {
		ipt_queue__error(q, pte_internal, ip);
		q->pending[(q->pending_at + q->nr_pending - 1) % PENDING_MAX].err_code =
		    IPT_ERR_NELOOP;
		q->nr_no_progress = 0;
		q->w_skipping = true;
		q->w_need_full_ip = true;
		return 0;
	}
	kind = ipt_walk__kind(bytes, len, ip, &target);
	next = ip + len;
	/* the disabling branch: TIP.PGD in place of its TIP */
	if (q->w_have_held && q->w_held.type == ptev_disabled && kind != IW_OTHER &&
	    kind != IW_JMP && kind != IW_CALL) {
		q->w_have_held = false;
		ipt_walk__branch(q, ip, q->w_held.ip_suppressed ? 0 : q->w_held.variant.disabled.ip,
				 IPT_FLAG_TRACE_END | ipt_walk__flags(kind));
		q->w_skipping = true;
		return 0;
	}
	switch (kind) {
	case IW_COND:
		q->status = pt_qry_cond_branch(q->qry, &taken);
		if (q->status < 0)
			goto mismatch;
		if (taken)
			next = target;
		break;
	case IW_CALL:
		q->w_ret[q->w_nr_ret++ % 64] = next;
		next = target;
		break;
	case IW_JMP:
		next = target;
		break;
	case IW_RET:
		q->status = pt_qry_cond_branch(q->qry, &taken);
		if (q->status >= 0) {
			/* compressed: the address it was called from */
			if (!taken || !q->w_nr_ret)
				goto mismatch;
			next = q->w_ret[--q->w_nr_ret % 64];
			break;
		}
		if (q->status != -pte_bad_query)
			goto mismatch;
		/* fall through */
	case IW_CALL_IND:
	case IW_JMP_IND:
	case IW_FAR_CALL:
	case IW_FAR_RET:
		if (kind == IW_CALL_IND)
			q->w_ret[q->w_nr_ret++ % 64] = next;
		q->status = pt_qry_indirect_branch(q->qry, &to);
		if (q->status < 0)
			goto mismatch;
		if (q->status & pts_ip_suppressed) {
			q->w_skipping = true;
			return 0;
		}
		next = to;
		break;
	default:
		break;
	}
	if (pt->opts.want_insns) {
		struct intel_pt_item *it;
		/* a branch that took a packet has that packet's time */
		u64 t = kind == IW_OTHER || kind == IW_JMP || kind == IW_CALL ? q->read_time :
										ipt_qry_now(q);

		q->nr_insns++;
		if (pt->opts.period_ns ? t >= q->next_sample_time :
					 q->nr_insns >= pt->opts.insn_period) {
			q->use_fixed = true;
			q->fixed_time = t;
			it = ipt_queue__push(q, IPT_ITEM_INSN);
			q->use_fixed = false;
			if (it) {
				it->ip = ip;
				it->period = q->nr_insns;
				it->insn_len = len;
				memcpy(it->insn, bytes, len);
				it->cpumode_user = ip < KERNEL_START;
			}
			q->nr_insns = 0;
			if (pt->opts.period_ns)
				q->next_sample_time =
				    (t / pt->opts.period_ns + 1) * pt->opts.period_ns;
		}
	}
	if (kind != IW_OTHER && (kind != IW_COND || next != ip + len)) {
		q->br_ip = ip;
		q->br_len = len;
		memcpy(q->br_raw, bytes, len);
		ipt_walk__branch(q, ip, next, ipt_walk__flags(kind));
	}
	q->w_ip = next;
	return 0;

mismatch:
	if (q->status == -pte_eos)
		return q->status;
	ipt_queue__error(q, pt_errcode(q->status), ip);
	q->w_skipping = true;
	q->w_need_full_ip = true;
	q->status = 0;
	return 0;
}

/* one step of the walk; -pte_eos at the buffer's end */
static int ipt_walk__step(struct ipt_queue *q)
{
	uint64_t off = 0;
	int err;

	pt_qry_get_offset(q->qry, &off);
	q->w_offs[q->w_nr_offs++ % 4] = off;
	/* the oldest of the last four: the FUP read ahead may lie before the last step */
	q->w_prev_off = q->w_nr_offs >= 4 ? q->w_offs[q->w_nr_offs % 4] : q->w_offs[0];
	q->w_cur_off = off;
	err = q->w_skipping ? ipt_walk__skip(q) : ipt_walk__insn(q);

	if (err == -pte_eos)
		return err;
	if (err < 0) {
		/* the packets themselves are bad: the next PSB */
		ipt_queue__error(q, pt_errcode(err), q->w_ip);
		q->status = pt_qry_sync_forward(q->qry, &(uint64_t){0});
		q->w_skipping = true;
		if (q->status < 0)
			return q->status;
	}
	return 0;
}

/* one step of the walk: an instruction, its events, or an error and a resync */
static int ipt_queue__step(struct ipt_queue *q)
{
	struct intel_pt *pt = q->pt;
	struct pt_insn insn;
	u64 now;
	int err;

	if (q->qry) {
		err = ipt_walk__step(q);
		if (err < 0)
			ipt_queue__close(q);
		return 0;
	}
	err = ipt_queue__events(q);
	if (err < 0)
		goto decode_error;
	if (q->status & pts_event_pending)
		return 0; /* the pending items go out first */
	q->fail_ip = 0;
	q->status = pt_insn_next(q->dec, &insn, sizeof(insn));
	if (q->status < 0) {
		err = q->status;
		goto decode_error;
	}
	{
		uint64_t off = 0;

		pt_insn_get_offset(q->dec, &off);
		if (ipt_queue__stuck(q, off)) {
			q->nr_no_progress = 0;
			err = -pte_internal;
			q->fail_ip = 0;
			q->prev_ip = insn.ip;
			goto decode_error;
		}
	}
	now = ipt_queue__time(q);
	if (q->trace_begin) {
		ipt_queue__branch(q, 0, insn.ip, IPT_FLAG_TRACE_BEGIN);
		q->trace_begin = false;
	} else if (q->have_prev && ipt_class_branches(q->prev_class) &&
		   (q->prev_class != ptic_cond_jump || insn.ip != q->prev_ip + q->prev_size)) {
		/*
		 * the time libipt had when the branch's own TNT or TIP was
		 * consumed, not what it read ahead since
		 */
		q->use_fixed = true;
		q->fixed_time = q->prev_time;
		ipt_queue__branch(q, q->prev_ip, insn.ip, ipt_class_flags(q->prev_class));
		q->use_fixed = false;
	}
	q->read_time = q->prev_time = now;
	q->have_prev = true;
	q->prev_ip = insn.ip;
	q->prev_size = insn.size;
	q->prev_class = insn.iclass;
	q->br_ip = insn.ip;
	q->br_len = insn.size;
	memcpy(q->br_raw, insn.raw, insn.size);
	if (pt->opts.want_insns) {
		bool take;

		q->nr_insns++;
		if (pt->opts.period_ns) {
			take = now >= q->next_sample_time;
		} else {
			take = q->nr_insns >= pt->opts.insn_period;
		}
		if (take) {
			struct intel_pt_item *it = ipt_queue__push(q, IPT_ITEM_INSN);

			if (it) {
				it->ip = insn.ip;
				it->period = q->nr_insns;
				it->insn_len = insn.size;
				memcpy(it->insn, insn.raw, insn.size);
				it->cpumode_user = insn.ip < KERNEL_START;
			}
			q->nr_insns = 0;
			if (pt->opts.period_ns)
				q->next_sample_time =
				    (now / pt->opts.period_ns + 1) * pt->opts.period_ns;
		}
	}
	return 0;

decode_error:
	if (err == -pte_eos) {
		ipt_queue__close(q);
		return 0;
	}
	if (q->trace_begin && q->fail_ip) {
		ipt_queue__branch(q, 0, q->fail_ip, IPT_FLAG_TRACE_BEGIN);
		q->trace_begin = false;
	}
	ipt_queue__error(q, pt_errcode(err), q->fail_ip ? q->fail_ip : q->prev_ip);
	/* libipt cannot go on mid-segment: the walk takes the buffer's rest */
	q->have_prev = false;
	q->trace_begin = false;
	if (ipt_walk__start(q) < 0)
		ipt_queue__close(q);
	return 0;
}

static int intel_pt__queues(struct intel_pt *pt)
{
	size_t n = pt->at->nr_queues, i;
	struct ipt_queue *nq;

	if (n <= pt->nr_queues)
		return 0;
	nq = realloc(pt->queues, n * sizeof(*nq));
	if (!nq)
		return -ENOMEM;
	memset(nq + pt->nr_queues, 0, (n - pt->nr_queues) * sizeof(*nq));
	pt->queues = nq;
	for (i = pt->nr_queues; i < n; i++)
		nq[i].pt = pt;
	pt->nr_queues = n;
	/* realloc moved them: the decoders' callback contexts follow */
	for (i = 0; i < n; i++) {
		nq[i].aq = &pt->at->queues[i];
		if (nq[i].dec)
			pt_image_set_callback(pt_insn_get_image(nq[i].dec), ipt_read_memory,
					      &nq[i]);
	}
	return 0;
}

int intel_pt__next(struct intel_pt *pt, size_t qi, struct intel_pt_item *item)
{
	struct ipt_queue *q;
	int err;

	err = intel_pt__queues(pt);
	if (err)
		return err;
	if (qi >= pt->nr_queues)
		return 0;
	q = &pt->queues[qi];
	q->aq = &pt->at->queues[qi];
	while (!q->nr_pending) {
		if (!q->dec) {
			err = ipt_queue__open(q);
			if (err < 0)
				return err;
			if (!err && !q->nr_pending)
				return 0;
			if (!q->dec)
				continue;
		}
		err = ipt_queue__step(q);
		if (err)
			return err;
	}
	*item = q->pending[q->pending_at];
	q->pending_at = (q->pending_at + 1) % PENDING_MAX;
	q->nr_pending--;
	return 1;
}

#endif /* HAVE_LIBIPT */
