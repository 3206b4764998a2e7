// SPDX-License-Identifier: GPL-2.0-only
/*
 * Intel PT: the recovery walk after a decode error, perf's way.
 *
 * libipt's instruction decoder can only start at a PSB.  perf's decoder
 * (6.1, intel-pt-decoder.c), after an instruction it cannot get, forgets the
 * last IP and scans for one: TNTs are skipped (they belong to the unknown
 * code), and a TIP, TIP.PGE, FUP (an interrupt's, or MODE.TSX's) with a full
 * address is a trace start; a PSB's FUP is an IP without a trace start.
 * The packet that needed the unknown code was read before the walk failed,
 * so it goes with the error.  With PSBs kilobytes apart that is where the
 * known code of a recording with holes (no kcore: only poked sites,
 * trampolines and BPF programs are known) gets decoded, and there we go
 * one step beyond perf: a lost TIP into known code is decoded from.
 * So after an error the buffer's rest is walked here: a query decoder
 * brought to where the instruction decoder stopped, and an instruction
 * walk of its own (lengths from insn-len.c, the branch kind from the
 * opcode) that asks it for each branch.
 */
#ifdef HAVE_LIBIPT

#include <string.h>

#include <intel-pt.h>

#include "insn-len.h"
#include "intel-pt-decode-queue.h"
#include "intel-pt-recover.h"

static const u8 ipt_psb[16] = {0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82,
			       0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82};

static u64 ipt_qry_now(struct ipt_queue *q)
{
	u64 tsc = 0;
	u32 lost_mtc, lost_cyc;

	if (pt_qry_time(q->qry, &tsc, &lost_mtc, &lost_cyc) >= 0 && tsc) {
		q->last_time = perf_tsc_conv__to_time(&q->pt->info.tc, tsc);
		q->last_tsc = tsc;
	}
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

/*
 * When an event's packet was read: libipt's own time is past the timing
 * packets between an interrupt's FUP and its TIP by then, perf's is not
 */
static u64 ipt_walk__event_time(struct ipt_queue *q, const struct pt_event *ev)
{
	if (ev->has_tsc)
		return perf_tsc_conv__to_time(&q->pt->info.tc, ev->tsc);
	return ipt_qry_now(q);
}

/* the query decoder at the instruction decoder's position: 0 or -errno */
int ipt_walk__start(struct ipt_queue *q)
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
	/*
	 * The PSB the walk starts from, if not reached yet: the instruction
	 * decoder failed before its FUP, so perf looks for an ip there
	 */
	ipt_queue__psb_reached(q, psb + 1, true);
	/*
	 * Nothing to consume: the instruction decoder had read ahead into
	 * the next segment's PSB+, and the code runs on at its FUP (as for
	 * perf, no trace start there); else skip to the next IP
	 */
	q->w_skipping = !fresh;
	q->w_need_full_ip = true;
	pt_qry_get_offset(q->qry, &q->w_cur_off);
	q->w_have_held = false;
	q->w_fup_taken = false;
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

/* the PSBs before where the query decoder is are reached */
static void ipt_walk__psb_reached(struct ipt_queue *q, bool ip0)
{
	uint64_t off = 0;

	if (pt_qry_get_offset(q->qry, &off) >= 0)
		ipt_queue__psb_reached(q, off, ip0);
}

/* an event the walk has reached: 1 when it gave the walk a new ip */
static int ipt_walk__event(struct ipt_queue *q, const struct pt_event *ev)
{
	/* a PSB+ met while walking the code: perf's PSB event has its FUP */
	if (ev->status_update)
		ipt_walk__psb_reached(q, false);
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

/*
 * The compression of the last @type packet that starts before the query
 * decoder's position, or -1.  The query decoder is past an event's packets
 * when it reports it (and has read ahead), so they are looked for from its
 * last PSB on, a packet boundary.
 */
static int ipt_walk__last_ipc(struct ipt_queue *q, enum pt_packet_type type)
{
	struct pt_packet pk;
	uint64_t from = 0, to = 0, off;
	int ipc = -1, i;

	if (pt_qry_get_offset(q->qry, &to) < 0)
		return -1;
	if (pt_qry_get_sync_offset(q->qry, &from) < 0 || from > to)
		from = q->sync_offset;
	if (pt_pkt_sync_set(q->pkt, from) < 0)
		return -1;
	off = from;
	/* PSBs are a few kilobytes apart: a bound for hostile input only */
	for (i = 0; i < 1 << 16 && off < to; i++) {
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
	bool fup_full = !q->w_need_full_ip || ipt_ipc_full(ipt_walk__last_ipc(q, ppt_fup));

	if (!branch)
		q->w_skipping = true;
	if (!fup_full)
		return;
	q->w_need_full_ip = false;
	q->use_fixed = true;
	q->fixed_time = ipt_walk__event_time(q, ev);
	ipt_queue__branch(q, 0, from, IPT_FLAG_TRACE_BEGIN);
	q->use_fixed = false;
	if (ipt_walk__has_code(q, from)) {
		if (!branch) {
			ipt_walk__branch(q, from, 0, IPT_FLAG_TRACE_END | IPT_FLAG_ASYNC);
			return;
		}
		ipt_walk__branch(q, from, ev->variant.async_branch.to,
				 IPT_FLAG_CALL | IPT_FLAG_ASYNC | IPT_FLAG_INTERRUPT);
		q->w_ip = ev->variant.async_branch.to;
		q->w_skipping = false;
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
		if (ev.status_update) {
			/*
			 * A PSB+ (libipt reports its MODE packets as status
			 * events at its FUP): perf syncs at the FUP, without
			 * a trace start of its own, and its PSB event has no ip
			 */
			ipt_walk__psb_reached(q, true);
			u64 at = ev.type == ptev_exec_mode ? ev.variant.exec_mode.ip :
				 ev.type == ptev_tsx	   ? ev.variant.tsx.ip :
							     0;

			if (at && !ev.ip_suppressed) {
				q->w_ip = at;
				q->w_skipping = false;
				q->w_need_full_ip = false;
			}
		} else if (ev.type == ptev_async_branch || ev.type == ptev_async_disabled) {
			ipt_walk__skip_async(q, &ev);
		} else if (ev.type == ptev_enabled) {
			/* a TIP.PGE: an IP if a full one */
			full = !full || ipt_ipc_full(ipt_walk__last_ipc(q, ppt_tip_pge));
			if (full) {
				q->w_need_full_ip = false;
				ipt_walk__event(q, &ev);
			}
		} else if (ev.type == ptev_tsx && !ev.ip_suppressed &&
			   (!full || ipt_ipc_full(ipt_walk__last_ipc(q, ppt_fup)))) {
			/* MODE.TSX and its FUP (no TIP): an IP for perf */
			q->use_fixed = true;
			q->fixed_time = ipt_walk__event_time(q, &ev);
			ipt_queue__branch(q, 0, ev.variant.tsx.ip, IPT_FLAG_TRACE_BEGIN);
			q->use_fixed = false;
			q->w_need_full_ip = false;
			q->w_ip = ev.variant.tsx.ip;
			q->w_skipping = false;
			/* an abort's FUP has a TIP: libipt's interrupt, a plain TIP to perf */
			q->w_fup_taken = ev.variant.tsx.aborted;
		} else {
			ipt_walk__event(q, &ev);
		}
		return q->status;
	}
	q->status = pt_qry_cond_branch(q->qry, &taken);
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

/*
 * The code at @ip is unknown.  perf reads the packet that needs it (a TNT,
 * a TIP or TIP.PGD, an interrupt's FUP) before it walks there, so that packet
 * is lost with the walk: a TIP's target starts nothing, and the error has the
 * time after the packet.  Of an interrupt only the FUP goes: its TIP is the
 * first packet of the scan for an IP that follows, a trace start if it has a
 * full address.
 */
static int ipt_walk__lose(struct ipt_queue *q, int errcode, u64 ip)
{
	struct pt_event ev;
	bool have_ev = false, start = false, tip = false;
	uint64_t to = 0;
	int taken;

	if (q->w_have_held) {
		ev = q->w_held;
		have_ev = true;
		q->w_have_held = false;
	} else if (q->status & pts_event_pending) {
		q->status = pt_qry_event(q->qry, &ev, sizeof(ev));
		have_ev = q->status >= 0;
	} else {
		q->status = pt_qry_cond_branch(q->qry, &taken);
		if (q->status == -pte_bad_query) {
			q->status = pt_qry_indirect_branch(q->qry, &to);
			tip = q->status >= 0 && !(q->status & pts_ip_suppressed);
		}
	}
	if (have_ev && ev.type == ptev_async_branch && !ev.ip_suppressed) {
		start = ipt_ipc_full(ipt_walk__last_ipc(q, ppt_tip));
		to = ev.variant.async_branch.to;
		tip = true;
	}
	q->read_time = ipt_qry_now(q);
	ipt_queue__error(q, errcode, ip);
	/*
	 * Beyond perf: a TIP into code the image has (a poked site, a BPF
	 * program or trampoline of a recording without kcore) is decoded
	 * from.  Where the image has nothing, as in perf, it starts nothing.
	 */
	if (tip && !start)
		start = ipt_walk__has_code(q, to);
	q->w_skipping = true;
	q->w_need_full_ip = true;
	if (start) {
		ipt_walk__branch(q, 0, to, IPT_FLAG_TRACE_BEGIN);
		q->w_ip = to;
		q->w_skipping = false;
		q->w_need_full_ip = false;
	}
	if (q->status == -pte_eos)
		return q->status;
	if (q->status < 0)
		q->status = 0;
	return 0;
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
	if (q->w_have_held && q->w_fup_taken && q->w_held.type == ptev_async_branch &&
	    q->w_held.variant.async_branch.from == ip) {
		u8 b[INSN_LEN_MAX];

		q->w_fup_taken = false;
		q->read_time = ipt_qry_now(q);
		if (ipt_read_memory(b, sizeof(b), NULL, ip, q) <= 0) {
			/* the walk to the TIP fails: the TIP is gone with it */
			q->w_have_held = false;
			ipt_queue__error(q, pte_nomap, ip);
			q->w_skipping = true;
			q->w_need_full_ip = true;
			return 0;
		}
	}
	q->w_fup_taken = false;
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
	if (len <= 0)
		return ipt_walk__lose(q, n > 0 ? pte_bad_insn : pte_nomap, ip);
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
			if (!taken || !q->w_nr_ret) {
				/* libipt's name for it: the status itself says nothing went wrong */
				q->status = -pte_bad_retcomp;
				goto mismatch;
			}
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

		if (pt->opts.period_ns) {
			ipt_queue__psb_before(q, t);
			ipt_ticks__insn(q, ip, len, bytes, t, kind != IW_OTHER,
					kind != IW_OTHER && kind != IW_JMP && kind != IW_CALL);
		} else if (++q->nr_insns >= pt->opts.insn_period) {
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
int ipt_walk__step(struct ipt_queue *q)
{
	uint64_t off = 0;
	int err;

	pt_qry_get_offset(q->qry, &off);
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

#endif /* HAVE_LIBIPT */
