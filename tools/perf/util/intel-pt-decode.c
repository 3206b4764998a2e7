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
#include "intel-pt-decode-queue.h"
#include "intel-pt-recover.h"
#include "machine.h"
#include "map.h"
#include "text-image.h"

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
		free(pt->queues[i].psbs);
		free(pt->queues[i].tk_blk);
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
	q->last_tsc = tsc;
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
		/* the build-id cache's copy first, as perf reads an object's bytes */
		const char *path = al.map->dso->kind == DSO_KIND__USER ?
				       dso__data_path(al.map->dso) :
				       map__dso_name(al.map);

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
int ipt_read_memory(uint8_t *buf, size_t size, const struct pt_asid *asid, uint64_t ip,
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

/*
 * PSBs come every few kilobytes of a real trace: a buffer of nothing but
 * PSBs is hostile, and its PSBs past this many give no event
 */
#define IPT_PSBS_MAX (1U << 22)

static struct ipt_psb *ipt_queue__add_psb(struct ipt_queue *q, size_t *alloc)
{
	struct ipt_psb *e;

	if (q->nr_psbs >= IPT_PSBS_MAX)
		return NULL;
	if (q->nr_psbs == *alloc) {
		size_t n = *alloc ? *alloc * 2 : 16;

		e = realloc(q->psbs, n * sizeof(*e));
		if (!e)
			return NULL;
		q->psbs = e;
		*alloc = n;
	}
	e = &q->psbs[q->nr_psbs++];
	memset(e, 0, sizeof(*e));
	e->cbr = -1;
	return e;
}

/* an IP packet's address: perf's last-IP compression, reset at each PSB */
static u64 ipt_packet_ip(const struct pt_packet_ip *pk, u64 last)
{
	switch (pk->ipc) {
	case pt_ipc_update_16:
		return (last & ~0xffffULL) | (pk->ip & 0xffff);
	case pt_ipc_update_32:
		return (last & ~0xffffffffULL) | (pk->ip & 0xffffffff);
	case pt_ipc_update_48:
		return (last & ~0xffffffffffffULL) | (pk->ip & 0xffffffffffffULL);
	case pt_ipc_sext_48:
		return (u64)((s64)(pk->ip << 16) >> 16);
	default:
		return pk->ip;
	}
}

/*
 * The buffer's PSB+s and lone CBR packets, for the power events (perf's
 * 'p'): a packet walk of its own, on at the next PSB after a bad packet,
 * as perf's decoder goes on.  A PSB's time is that of the TSC in its
 * PSB+, else of the last TSC before it, as perf dates its PSB event.
 */
static int ipt_queue__scan_psbs(struct ipt_queue *q, const struct auxtrace_buffer *b)
{
	struct pt_config config = q->pt->config;
	struct pt_packet_decoder *pkt;
	struct ipt_psb *cur = NULL;
	u64 time = 0, last_ip = 0;
	size_t alloc = q->nr_psbs = q->psb_next = 0;
	/* a CBR outside a PSB+ matters when it changes the ratio */
	int cbr = q->cbr;
	int err;

	free(q->psbs);
	q->psbs = NULL;
	/* a time period needs the PSBs too: their TSCs restart perf's count */
	if (!q->pt->opts.want_pwr && !q->pt->opts.period_ns)
		return 0;
	config.begin = b->data;
	config.end = b->data + b->size;
	pkt = pt_pkt_alloc_decoder(&config);
	if (!pkt)
		return -ENOMEM;
	for (err = pt_pkt_sync_forward(pkt); err >= 0;) {
		struct pt_packet pk;
		uint64_t off = 0;

		pt_pkt_get_offset(pkt, &off);
		err = pt_pkt_next(pkt, &pk, sizeof(pk));
		if (err < 0) {
			if (err == -pte_eos)
				break;
			cur = NULL;
			err = pt_pkt_sync_forward(pkt);
			continue;
		}
		switch (pk.type) {
		case ppt_psb:
			cur = ipt_queue__add_psb(q, &alloc);
			if (!cur)
				goto out_full;
			cur->off = off;
			cur->time = time;
			cur->psb = true;
			last_ip = 0;
			break;
		case ppt_psbend:
			cur = NULL;
			break;
		case ppt_tsc:
			time = perf_tsc_conv__to_time(&q->pt->info.tc, pk.payload.tsc.tsc);
			if (cur)
				cur->time = time;
			break;
		case ppt_cbr:
			if (!cur && pk.payload.cbr.ratio != cbr) {
				struct ipt_psb *e = ipt_queue__add_psb(q, &alloc);

				if (!e)
					goto out_full;
				e->off = off;
				e->time = time;
				e->cbr = pk.payload.cbr.ratio;
			} else if (cur) {
				cur->cbr = pk.payload.cbr.ratio;
			}
			cbr = pk.payload.cbr.ratio;
			break;
		case ppt_fup:
			if (pk.payload.ip.ipc == pt_ipc_suppressed)
				break;
			last_ip = ipt_packet_ip(&pk.payload.ip, last_ip);
			if (cur)
				cur->fup = last_ip;
			break;
		case ppt_tip:
		case ppt_tip_pge:
		case ppt_tip_pgd:
			if (pk.payload.ip.ipc != pt_ipc_suppressed)
				last_ip = ipt_packet_ip(&pk.payload.ip, last_ip);
			break;
		default:
			break;
		}
	}
	pt_pkt_free_decoder(pkt);
	return 0;

out_full:
	pt_pkt_free_decoder(pkt);
	if (q->nr_psbs < IPT_PSBS_MAX)
		return -ENOMEM;
	pr_debug("intel_pt: more than %u PSBs in the AUXTRACE at %#" PRIx64
		 ": the rest give no psb event\n",
		 IPT_PSBS_MAX, b->file_offset);
	return 0;
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
		/* perf's decoder counts trace bytes across a queue's buffers */
		q->psb_base = 0;
		for (size_t i = 0; i + 1 < q->next_buffer; i++)
			q->psb_base += aq->buffers[i].size;
		if (ipt_queue__scan_psbs(q, b))
			return -ENOMEM;
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
		/* the PSB synced to is reached, with a FUP or without (perf's first sync) */
		if (q->status >= 0)
			ipt_queue__psb_reached(q, q->sync_offset + 1, false);
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

static struct intel_pt_item *__ipt_queue__push(struct ipt_queue *q, enum intel_pt_item_type type,
					       u64 time)
{
	struct intel_pt_item *it;

	/* an error ends a time-period block: perf syncs again after it */
	if (type == IPT_ITEM_ERROR)
		ipt_ticks__reset(q);
	if (q->nr_pending >= PENDING_MAX)
		return NULL;
	if (q->tk_nr)
		q->nr_held++;
	it = &q->pending[(q->pending_at + q->nr_pending++) % PENDING_MAX];
	memset(it, 0, sizeof(*it));
	it->type = type;
	it->time = time;
	it->cpu = q->aq->cpu;
	ipt_queue__task(q, &it->pid, &it->tid);
	return it;
}

void ipt_queue__psb_reached(struct ipt_queue *q, u64 off, bool ip0)
{
	size_t i;

	for (i = q->psb_next; i < q->nr_psbs && q->psbs[i].off < off; i++) {
		if (q->psbs[i].reached)
			continue;
		q->psbs[i].reached = true;
		/* its TSC restarts perf's count even when its value is the same */
		if (q->psbs[i].psb)
			q->tk_psbs++;
		q->psbs[i].ip0 = ip0;
	}
}

/*
 * perf's PSB and CBR events, in trace order, ahead of an item of time
 * @time: those the walk has reached, and those dated at or before it
 * (a PSB+ without FUP gives libipt no event to tell it by).  A PSB has
 * the ip of its FUP, but none when the walk was looking for an ip there
 * (perf's sync at that PSB gives the FUP as the next ip, not the PSB's).
 * The ratio is reported when it changes, with the PSB or on its own.
 */
static void ipt_queue__psb_flush(struct ipt_queue *q, u64 time, bool all)
{
	bool looking = q->qry && q->w_skipping;

	while (q->psb_next < q->nr_psbs && q->nr_pending + 4 < PENDING_MAX) {
		struct ipt_psb *e = &q->psbs[q->psb_next];
		struct intel_pt_item *it;
		u64 t = e->time, ip;

		/*
		 * Items before a PSB can have its time (its TSC comes
		 * first): one not reached goes out before a later item only
		 */
		if (!all && !e->reached && e->time >= time)
			return;
		q->psb_next++;
		if (!e->reached)
			e->ip0 = looking;
		ip = e->ip0 ? 0 : e->fup;
		if (!t || !e->psb)
			t = time;
		if (e->psb) {
			it = __ipt_queue__push(q, IPT_ITEM_PSB, t);
			/* perf's sync at the PSB gives its FUP as the next ip: the addr */
			if (it) {
				it->ip = ip;
				it->addr = e->ip0 ? e->fup : 0;
				it->cpumode_user = ip && ip < KERNEL_START;
				it->psb_offset = q->psb_base + e->off;
			}
		}
		if (e->cbr < 0)
			continue;
		q->cbr = e->cbr;
		if (q->cbr == q->cbr_seen)
			continue;
		q->cbr_seen = q->cbr;
		it = __ipt_queue__push(q, IPT_ITEM_CBR, t);
		if (it) {
			it->ip = e->psb ? ip : 0;
			it->addr = e->psb && e->ip0 ? e->fup : 0;
			it->cpumode_user = it->ip && it->ip < KERNEL_START;
			it->cbr_payload = e->cbr;
		}
	}
}

void ipt_queue__psb_before(struct ipt_queue *q, u64 time)
{
	if (!q->psb_hold)
		ipt_queue__psb_flush(q, time, false);
}

struct intel_pt_item *ipt_queue__push(struct ipt_queue *q, enum intel_pt_item_type type)
{
	u64 time = q->use_fixed ? q->fixed_time : ipt_queue__time(q);

	if (!q->psb_hold)
		ipt_queue__psb_flush(q, time, false);
	return __ipt_queue__push(q, type, time);
}

void ipt_queue__branch(struct ipt_queue *q, u64 from, u64 to, u32 flags)
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

void ipt_queue__error(struct ipt_queue *q, int errcode, u64 ip)
{
	struct intel_pt_item *it;

	/* when the code was looked for */
	q->use_fixed = true;
	q->fixed_time = q->read_time;
	it = ipt_queue__push(q, IPT_ITEM_ERROR);
	q->use_fixed = false;
	u64 off = 0;

	if (!it)
		return;
	it->ip = ip;
	it->cpumode_user = ip < KERNEL_START;
	if (q->dec)
		pt_insn_get_offset(q->dec, &off);
	switch (errcode) {
	case pte_nomap:
		it->err_code = IPT_ERR_NOINSN;
		it->once = true;
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

/*
 * A PSB+'s status events (libipt's MODE.exec at its FUP): the PSB is
 * reached.  perf walks the code up to the FUP before its PSB event, so
 * a branch into the FUP's ip, which ours gives at the next instruction,
 * goes out now.
 */
static void ipt_queue__psb_event(struct ipt_queue *q, const struct pt_event *ev)
{
	u64 ip = ev->type == ptev_exec_mode ? ev->variant.exec_mode.ip :
		 ev->type == ptev_tsx	    ? ev->variant.tsx.ip :
					      0;
	uint64_t off = 0;

	if (ip && !ev->ip_suppressed && q->have_prev && ipt_class_branches(q->prev_class) &&
	    (q->prev_class != ptic_cond_jump || ip != q->prev_ip + q->prev_size)) {
		q->use_fixed = true;
		q->fixed_time = q->prev_time;
		q->psb_hold = true;
		ipt_queue__branch(q, q->prev_ip, ip, ipt_class_flags(q->prev_class));
		q->psb_hold = false;
		q->use_fixed = false;
		q->have_prev = false;
	}
	pt_insn_get_offset(q->dec, &off);
	ipt_queue__psb_reached(q, off, false);
}

/* the events libipt has pending before the next instruction */
static int ipt_queue__events(struct ipt_queue *q)
{
	while (q->status & pts_event_pending) {
		struct pt_event ev;

		q->status = pt_insn_event(q->dec, &ev, sizeof(ev));
		if (q->status < 0)
			return q->status;
		if (ev.status_update && q->psbs)
			ipt_queue__psb_event(q, &ev);
		/* an event's own time: the decoder's may be past it already */
		q->use_fixed = true;
		q->fixed_time =
		    ev.has_tsc ? perf_tsc_conv__to_time(&q->pt->info.tc, ev.tsc) : q->read_time;
		q->read_time = q->prev_time = q->fixed_time;
		switch (ev.type) {
		case ptev_enabled:
			/* a PSB+ while tracing was off has no status event: it is behind */
			if (q->psbs) {
				uint64_t off = 0;

				pt_insn_get_offset(q->dec, &off);
				ipt_queue__psb_reached(q, off, false);
			}
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

/*
 * perf's "never-ending loop" check: code that branches without packets
 * (jmp to itself) would hold the walk for ever; after this many
 * instructions at one trace position it is an error.  perf's own limit
 * (intel-pt.max-loops' default): a hostile trace can re-enter such a loop
 * at every PSB, and after each error the recovery walk meets it once more,
 * so the bound is paid twice per PSB
 */
#define IPT_NO_PROGRESS_MAX 100000

bool ipt_queue__stuck(struct ipt_queue *q, u64 off)
{
	if (off != q->progress_off) {
		q->progress_off = off;
		q->nr_no_progress = 0;
		return false;
	}
	return ++q->nr_no_progress > IPT_NO_PROGRESS_MAX;
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
	if (pt->opts.want_insns && pt->opts.period_ns) {
		ipt_queue__psb_before(q, now);
		ipt_ticks__insn(q, insn.ip, insn.size, insn.raw, now,
				ipt_class_branches(insn.iclass),
				ipt_ticks__consumes(insn.raw, insn.size, insn.iclass));
	} else if (pt->opts.want_insns) {
		q->nr_insns++;
		if (q->nr_insns >= pt->opts.insn_period) {
			struct intel_pt_item *it = ipt_queue__push(q, IPT_ITEM_INSN);

			if (it) {
				it->ip = insn.ip;
				it->period = q->nr_insns;
				it->insn_len = insn.size;
				memcpy(it->insn, insn.raw, insn.size);
				it->cpumode_user = insn.ip < KERNEL_START;
			}
			q->nr_insns = 0;
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
	/* the items of an undecided time-period block wait for it */
	while (q->nr_pending <= q->nr_held) {
		/* a buffer done: the PSBs the walk did not reach go out before the next's */
		if (!q->dec && q->psb_next < q->nr_psbs) {
			ipt_queue__psb_flush(q, q->last_time, true);
			continue;
		}
		if (!q->dec) {
			err = ipt_queue__open(q);
			if (err < 0)
				return err;
			/*
			 * a time-period block goes on in the next buffer (its
			 * PSB+ has the TSC perf counts it on); with none yet,
			 * it is decided on what is known
			 */
			if (!err && !q->dec && q->nr_held) {
				ipt_ticks__close(q);
				continue;
			}
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
