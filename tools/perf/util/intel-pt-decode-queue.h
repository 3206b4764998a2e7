/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_INTEL_PT_DECODE_QUEUE_H
#define __PERF_TEXTPOKE_INTEL_PT_DECODE_QUEUE_H

/*
 * The state of the libipt decoding of one trace queue, shared by the
 * instruction decoder's side (intel-pt-decode.c) and the recovery walk
 * after an error (intel-pt-recover.c).  Only with libipt.
 */
#ifdef HAVE_LIBIPT

#include <intel-pt.h>

#include "intel-pt-decode.h"
#include "types.h"

/* the user/kernel split of x86_64 canonical addresses */
#define KERNEL_START 0xffff800000000000ULL

/*
 * Items a step leaves: a few events' and an instruction's, and the PSBs
 * and ratio changes reached before them; with a period of time, a held
 * block's items and samples (intel-pt-ticks.c), which a longer block
 * would not fit
 */
#define PENDING_MAX 256

/*
 * An instruction of the block perf's time-period sampling has not decided
 * yet (intel-pt-ticks.c): @at is the number of held items pushed before it
 */
struct ipt_tk_insn {
	u64 ip, time;
	int at;
	bool branch; /* it ends perf's walk */
	u8 len;
	u8 raw[15];
};

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

/*
 * What the power events need of a trace buffer, found by a packet walk
 * when it is opened (libipt's decoders say nothing of PSBs or of the
 * ratio): each PSB+ with its TSC, CBR and FUP, and each CBR packet outside
 * a PSB+, in trace order
 */
struct ipt_psb {
	u64 off;      /* in the buffer */
	u64 time;     /* perf time of the TSC in its PSB+, else of the last one before */
	u64 fup;      /* the PSB+'s FUP ip, 0 when it has none */
	int cbr;      /* the CBR payload in it (or of a lone CBR packet), -1 for none */
	bool psb;     /* false: a CBR packet outside any PSB+ */
	bool reached; /* the walk is past it */
	bool ip0;     /* it was reached while the walk looked for an ip: no ip */
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
	u64 last_time;
	u64 last_tsc; /* the TSC last_time came from */
	/*
	 * --itrace=i<time>: perf's sampling on its TSC estimate (timestamp
	 * plus one per instruction), and the block since the last branch
	 * that took a packet, whose items are held until the block's TSC is
	 * known (intel-pt-ticks.c)
	 */
	u64 tk_ts, tk_cnt, tk_last;
	u64 tk_budget; /* instructions left in perf's walk to its next sample; 0: a new walk */
	u64 tk_psbs, tk_psbs_seen; /* PSBs the walk reached, and as last counted */
	bool tk_cont;
	struct ipt_tk_insn *tk_blk;
	int tk_nr, tk_alloc;
	int nr_held; /* the ring's last items, pushed while the block is open */
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
	bool w_need_full_ip; /* as perf after an error: a compressed IP is no IP */
	u64 w_cur_off;	     /* the query decoder at this step */
	/* instructions since the trace position last moved: a loop that never ends */
	u64 nr_no_progress;
	u64 progress_off;
	/* the scan took a FUP as the IP: libipt's interrupt there is perf's TIP */
	bool w_fup_taken;
	/* the open buffer's PSBs and lone CBRs, emitted in order from psb_next */
	struct ipt_psb *psbs;
	size_t nr_psbs, psb_next;
	u64 psb_base;	   /* the bytes of the queue's earlier buffers: perf counts on */
	bool psb_hold;	   /* the branch that precedes a reached PSB goes out first */
	int cbr, cbr_seen; /* the ratio as of the walk, and as last reported */
	struct intel_pt_item pending[PENDING_MAX];
	int nr_pending, pending_at;
	struct ipt_map_cache map;
};

/* the period of --itrace=i<time> in TSC ticks, a power of two; 0: none */
u64 ipt_ticks__period(const struct intel_pt *pt);
/*
 * An instruction walked with --itrace=i<time>, of time @time (perf's),
 * @consuming when it is a branch that took a packet (jcc, indirect, ret)
 */
void ipt_ticks__insn(struct ipt_queue *q, u64 ip, u8 len, const u8 *raw, u64 time, bool branch,
		     bool consuming);
/* a branch that takes a packet: jcc, ret, indirect and far branches */
bool ipt_ticks__consumes(const u8 *raw, u8 len, enum pt_insn_class c);
/* decide the open block with the TSC known now, its items released */
void ipt_ticks__close(struct ipt_queue *q);
/* the queue starts again (sync, error): perf's period starts again too */
void ipt_ticks__reset(struct ipt_queue *q);

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
};

/*
 * The PSBs (and lone CBR packets) of the open buffer before trace offset
 * @off are reached; @ip0: by a walk looking for an ip, so without one.
 */
void ipt_queue__psb_reached(struct ipt_queue *q, u64 off, bool ip0);

int ipt_read_memory(uint8_t *buf, size_t size, const struct pt_asid *asid, uint64_t ip,
		    void *context);
struct intel_pt_item *ipt_queue__push(struct ipt_queue *q, enum intel_pt_item_type type);
/* the PSB and CBR items due before an item of @time */
void ipt_queue__psb_before(struct ipt_queue *q, u64 time);
void ipt_queue__branch(struct ipt_queue *q, u64 from, u64 to, u32 flags);
/* a decode error at @ip (libipt's @errcode), reported as perf reports it */
void ipt_queue__error(struct ipt_queue *q, int errcode, u64 ip);
/* whether the walk has been at trace offset @off for too long (a loop) */
bool ipt_queue__stuck(struct ipt_queue *q, u64 off);

#endif /* HAVE_LIBIPT */
#endif /* __PERF_TEXTPOKE_INTEL_PT_DECODE_QUEUE_H */
