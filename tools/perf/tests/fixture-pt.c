// SPDX-License-Identifier: GPL-2.0-only
/*
 * The Intel PT recordings of fixture-pt.h: simulated CPUs walk a made-up
 * kernel whose code changes under them; each of their decisions is both
 * a packet and a line of truth.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fixture.h"
#include "fixture-pt.h"
#include "fixture-pt-record.h"
#include "../util/debug.h"
#include "../util/writer.h"

#ifdef HAVE_LIBIPT
#include <intel-pt.h>

/* the offsets in the loop of its back edge and its final indirect jmp */
#define FP_LOOP_JNZ (FP_LOOP + 0x15)
#define FP_LOOP_END (FP_LOOP + 0x17)
#define FP_TRAMP_BODY 0x20
/* room one loop iteration's packets always fit in */
#define FP_ITER_ROOM 1024

enum { S_JL5, S_JL2, S_FTRACE, S__MAX };

struct fp_version {
	u64 time;
	u8 bytes[5];
};

/* a patchable site: its versions in time order, v[0] as booted at time 0 */
struct fp_site {
	u64 addr;
	u8 len;
	u32 nr, alloc;
	struct fp_version *v;
	u8 alt[5]; /* the other state */
};

struct fp_prog {
	u32 id, len;
	const char *name;
	u64 load, unload; /* live in [load, unload) */
	u8 jit[FP_BPF_A_LEN];
};

struct fp_cpu {
	int cpu;
	struct pt_encoder *enc;
	u8 *buf;
	size_t size;
	u64 aux_off;  /* where the buffer being filled starts in the AUX area */
	u64 last_psb; /* its offset in the buffer of the latest PSB */
	u64 ip;
	u64 cur_time; /* of the latest TIP-class packet consumed: the timing model's now */
	u64 last_tsc;
	u64 nr_tsc;
	u64 stack[16];
	int sp;
	u64 tnt;
	int nr_tnt;
	u64 rng;
	bool ended;
	/* a change since the latest TSC: the next TSC goes before a TIP */
	bool changed;
	/* the next instruction's address is in the trace in full (TIP, FUP) */
	bool full_ip;
	u64 nr_tnt_packets;
	size_t all_alloc;
};

struct fp_out {
	FILE *f;
	char *buf;
};

struct fp_ctx {
	const struct fixture_pt_opts *o;
	struct fixture_pt *fp;
	struct perf_writer *w;
	int pt, dummy;
	int err;
	u64 now; /* the clock of the simulation, ns = TSC */
	u64 nr_target;
	size_t chunk;
	u8 text[FP_TEXT_LEN];
	struct fp_site site[S__MAX];
	struct fp_prog prog[2];
	u64 tramp_time; /* the trampoline's code is there from then on */
	u8 tramp[FP_TRAMP_BODY];
	struct fp_cpu cpu[FP_NR_CPUS];
	struct fp_out truth, branches;
	size_t insn_alloc, branch_alloc;
	u64 nr_steps;
};

static const u8 nop5[5] = {0x0f, 0x1f, 0x44, 0x00, 0x00};
static const u8 nop2[2] = {0x66, 0x90};

static void fp__check(struct fp_ctx *c, int err)
{
	if (err && !c->err)
		c->err = err;
}

static void rel32(u8 *insn, u8 opcode, u64 from, u64 to)
{
	s32 rel = (s32)(to - (from + 5));

	insn[0] = opcode;
	memcpy(insn + 1, &rel, 4);
}

static void put(u8 *text, u64 addr, const void *bytes, size_t len)
{
	memcpy(text + (addr - FP_TEXT), bytes, len);
}

/* the kernel as booted: see the listing in fixture-pt.h */
static void fp__build_text(struct fp_ctx *c)
{
	u8 *t = c->text, call[5];

	memset(t, 0xcc, FP_TEXT_LEN);
	put(t, FP_LOOP, "\x31\xc0", 2);
	rel32(call, 0xe8, FP_LOOP + 0x02, FP_JL5_FN);
	put(t, FP_LOOP + 0x02, call, 5);
	rel32(call, 0xe8, FP_LOOP + 0x07, FP_JL2_FN);
	put(t, FP_LOOP + 0x07, call, 5);
	rel32(call, 0xe8, FP_LOOP + 0x0c, FP_TRACED_FN);
	put(t, FP_LOOP + 0x0c, call, 5);
	/* call *%rax; test %eax,%eax; jnz loop; jmp *%rax */
	put(t, FP_LOOP + 0x11, "\xff\xd0\x85\xc0\x75\xe9\xff\xe0", 8);

	/* push; mov %rsp,%rbp; test; je +2; nop2; SITE nop5; nop; pop; ret */
	put(t, FP_JL5_FN, "\x55\x48\x89\xe5\x85\xc0\x74\x02\x66\x90", 10);
	put(t, FP_JL5_SITE, nop5, 5);
	put(t, FP_JL5_SITE + 5, "\x90\x5d\xc3", 3);
	/* the jump label's target: xor; jne +2; nop2; pop; ret */
	put(t, FP_JL5_FN + 0x40, "\x31\xc0\x75\x02\x66\x90\x5d\xc3", 8);

	/* push; mov; SITE nop2; nop; pop; ret */
	put(t, FP_JL2_FN, "\x55\x48\x89\xe5", 4);
	put(t, FP_JL2_SITE, nop2, 2);
	put(t, FP_JL2_SITE + 2, "\x90\x5d\xc3", 3);
	/*
	 * target: xor; pop; ret.  Both ways take the same packets (the ret's
	 * TIP), so a decoder with the wrong bytes here follows the wrong way
	 * with no error; at the 5-byte label the jmp's way has a jne more.
	 */
	put(t, FP_JL2_FN + 0x20, "\x31\xc0\x5d\xc3", 4);

	/* SITE nop5 (fentry); push; mov; test; jne +2; nop2; pop; ret */
	put(t, FP_FTRACE_SITE, nop5, 5);
	put(t, FP_FTRACE_SITE + 5, "\x55\x48\x89\xe5\x85\xc0\x75\x02\x66\x90\x5d\xc3", 12);

	put(t, FP_IDLE_FN, "\x66\x90\xc3", 3);
	put(t, FP_TRACER_FN, "\x31\xc0\xc3", 3);
}

static void fp__build_sites(struct fp_ctx *c)
{
	static const u64 addr[S__MAX] = {FP_JL5_SITE, FP_JL2_SITE, FP_FTRACE_SITE};
	int i;

	for (i = 0; i < S__MAX; i++) {
		struct fp_site *s = &c->site[i];

		s->addr = addr[i];
		s->len = i == S_JL2 ? 2 : 5;
		s->alloc = 16;
		s->v = calloc(s->alloc, sizeof(*s->v));
		if (!s->v) {
			fp__check(c, -ENOMEM);
			return;
		}
		s->nr = 1;
		memcpy(s->v[0].bytes, c->text + (s->addr - FP_TEXT), s->len);
	}
	rel32(c->site[S_JL5].alt, 0xe9, FP_JL5_SITE, FP_JL5_FN + 0x40);
	c->site[S_JL2].alt[0] = 0xeb;
	c->site[S_JL2].alt[1] = (u8)(FP_JL2_FN + 0x20 - (FP_JL2_SITE + 2));
	rel32(c->site[S_FTRACE].alt, 0xe8, FP_FTRACE_SITE, FP_TRAMP);

	/* push; mov; call fp_tracer_fn; pop; ret; int3 padding */
	memset(c->tramp, 0xcc, sizeof(c->tramp));
	memcpy(c->tramp, "\x55\x48\x89\xe5", 4);
	rel32(c->tramp + 4, 0xe8, FP_TRAMP + 4, FP_TRACER_FN);
	memcpy(c->tramp + 9, "\x5d\xc3", 2);
	c->tramp_time = ~0ULL;

	/* both start with the nop5 a BPF trampoline would attach to */
	c->prog[0] = (struct fp_prog){FP_BPF_A_ID, FP_BPF_A_LEN, FP_BPF_A_NAME, ~0ULL, ~0ULL, {0}};
	c->prog[1] = (struct fp_prog){FP_BPF_B_ID, FP_BPF_B_LEN, FP_BPF_B_NAME, ~0ULL, ~0ULL, {0}};
	memset(c->prog[0].jit, 0xcc, sizeof(c->prog[0].jit));
	memset(c->prog[1].jit, 0xcc, sizeof(c->prog[1].jit));
	/* nop5; push; mov; xor; test; je +2; nop2; leave; ret */
	memcpy(c->prog[0].jit,
	       "\x0f\x1f\x44\x00\x00\x55\x48\x89\xe5\x31\xc0\x85\xc0\x74\x02\x66\x90"
	       "\xc9\xc3",
	       19);
	/* nop5; push; mov; nop2; test; jne +2; nop2; xor; leave; ret */
	memcpy(c->prog[1].jit,
	       "\x0f\x1f\x44\x00\x00\x55\x48\x89\xe5\x66\x90\x85\xc0\x75\x02\x66\x90"
	       "\x31\xc0\xc9\xc3",
	       21);
}

static const struct fp_version *fp__version_at(const struct fp_site *s, u64 time)
{
	u32 i = s->nr;

	/* the CPUs ask about the recent past: scan back from the newest */
	while (i > 1 && s->v[i - 1].time > time)
		i--;
	return &s->v[i - 1];
}

/*
 * The model's bytes at [addr, addr + len) at @time, clipped to the region
 * holding @addr; the number of bytes, 0 where no code is.
 */
static size_t fp__read(const struct fp_ctx *c, u64 addr, u64 time, u8 *buf, size_t len)
{
	int i;

	if (addr >= FP_TEXT && addr < FP_TEXT + FP_TEXT_LEN) {
		if (len > FP_TEXT + FP_TEXT_LEN - addr)
			len = FP_TEXT + FP_TEXT_LEN - addr;
		memcpy(buf, c->text + (addr - FP_TEXT), len);
		for (i = 0; i < S__MAX; i++) {
			const struct fp_site *s = &c->site[i];
			const struct fp_version *v = fp__version_at(s, time);
			u64 lo = s->addr > addr ? s->addr : addr;
			u64 hi = s->addr + s->len < addr + len ? s->addr + s->len : addr + len;

			if (lo < hi)
				memcpy(buf + (lo - addr), v->bytes + (lo - s->addr), hi - lo);
		}
		return len;
	}
	if (addr >= FP_TRAMP && addr < FP_TRAMP + FP_TRAMP_BODY && time >= c->tramp_time) {
		if (len > FP_TRAMP + FP_TRAMP_BODY - addr)
			len = FP_TRAMP + FP_TRAMP_BODY - addr;
		memcpy(buf, c->tramp + (addr - FP_TRAMP), len);
		return len;
	}
	for (i = 0; i < 2; i++) {
		const struct fp_prog *p = &c->prog[i];

		if (addr < FP_BPF || addr >= FP_BPF + p->len || time < p->load || time >= p->unload)
			continue;
		if (len > FP_BPF + p->len - addr)
			len = FP_BPF + p->len - addr;
		memcpy(buf, p->jit + (addr - FP_BPF), len);
		return len;
	}
	return 0;
}

enum fp_kind { K_PLAIN, K_JCC, K_JMP, K_CALL, K_CALL_IND, K_JMP_IND, K_RET };

struct fp_insn {
	enum fp_kind kind;
	u8 len;
	u64 target;
};

/* the few encodings the made-up kernel uses; anything else is a bug of the description */
static int fp__decode(const u8 *b, size_t n, u64 ip, struct fp_insn *d)
{
	s32 rel;

	if (!n)
		return -EFAULT;
	d->kind = K_PLAIN;
	d->target = 0;
	switch (b[0]) {
	case 0x55: /* push %rbp */
	case 0x5d: /* pop %rbp */
	case 0x90: /* nop */
	case 0xc9: /* leave */
		d->len = 1;
		break;
	case 0xc3:
		d->kind = K_RET;
		d->len = 1;
		break;
	case 0x31: /* xor %eax,%eax */
	case 0x85: /* test %eax,%eax */
		d->len = 2;
		if (n < 2 || b[1] != 0xc0)
			return -EINVAL;
		break;
	case 0x66:
		d->len = 2;
		if (n < 2 || b[1] != 0x90)
			return -EINVAL;
		break;
	case 0x0f:
		d->len = 5;
		if (n < 5 || memcmp(b, nop5, 5))
			return -EINVAL;
		break;
	case 0x48: /* mov %rsp,%rbp */
		d->len = 3;
		if (n < 3 || b[1] != 0x89 || b[2] != 0xe5)
			return -EINVAL;
		break;
	case 0xe8:
	case 0xe9:
		d->kind = b[0] == 0xe8 ? K_CALL : K_JMP;
		d->len = 5;
		if (n < 5)
			return -EINVAL;
		memcpy(&rel, b + 1, 4);
		d->target = ip + 5 + rel;
		break;
	case 0xeb:
	case 0x74:
	case 0x75:
		d->kind = b[0] == 0xeb ? K_JMP : K_JCC;
		d->len = 2;
		if (n < 2)
			return -EINVAL;
		d->target = ip + 2 + (s8)b[1];
		break;
	case 0xff:
		d->len = 2;
		if (n < 2 || (b[1] != 0xd0 && b[1] != 0xe0))
			return -EINVAL;
		d->kind = b[1] == 0xd0 ? K_CALL_IND : K_JMP_IND;
		break;
	default:
		return -EINVAL;
	}
	return d->len <= n ? 0 : -EINVAL;
}

/* ---- packets ---- */

static void fp__emit(struct fp_ctx *c, struct fp_cpu *p, struct pt_packet *pkt)
{
	int n = pt_enc_next(p->enc, pkt);

	if (n < 0) {
		pr_debug("fixture-pt: cpu %d: libipt encoder: %s\n", p->cpu,
			 pt_errstr(pt_errcode(n)));
		fp__check(c, -EIO);
	}
}

static u64 fp__offset(struct fp_cpu *p)
{
	u64 off = 0;

	pt_enc_get_offset(p->enc, &off);
	return off;
}

static void fp__flush_tnt(struct fp_ctx *c, struct fp_cpu *p)
{
	struct pt_packet pkt = {.type = ppt_tnt_8};

	if (!p->nr_tnt)
		return;
	pkt.payload.tnt.bit_size = p->nr_tnt;
	pkt.payload.tnt.payload = p->tnt;
	fp__emit(c, p, &pkt);
	p->nr_tnt = 0;
	p->tnt = 0;
}

static void fp__tsc(struct fp_ctx *c, struct fp_cpu *p);

static void fp__tnt(struct fp_ctx *c, struct fp_cpu *p, bool taken)
{
	/*
	 * Every other TNT packet has a TSC before it too, but never the first
	 * after a change: perf applies a change when its decoder stops at a
	 * branch it reports, and a not-taken branch is not one with
	 * --itrace=b, so the time must pass the change at a TIP.
	 */
	if (!p->nr_tnt && !p->changed && p->nr_tnt_packets++ % 2)
		fp__tsc(c, p);
	/* the first branch is the payload's most significant bit */
	p->tnt = (p->tnt << 1) | taken;
	if (++p->nr_tnt == 6)
		fp__flush_tnt(c, p);
}

/* the time of the TIP-class packet that follows */
static void fp__tsc(struct fp_ctx *c, struct fp_cpu *p)
{
	struct pt_packet pkt = {.type = ppt_tsc};

	if (c->now != p->last_tsc) {
		/* an MTC now and then: without TMA, no decoder takes time from it */
		if (p->nr_tsc % 4 == 3) {
			struct pt_packet mtc = {.type = ppt_mtc};

			mtc.payload.mtc.ctc = (u8)p->nr_tsc;
			fp__emit(c, p, &mtc);
		}
		pkt.payload.tsc.tsc = c->now;
		fp__emit(c, p, &pkt);
		p->last_tsc = c->now;
		p->nr_tsc++;
	}
	p->cur_time = p->last_tsc;
}

/* the TSC of a TIP-class packet, which may pass a change */
static void fp__tip_tsc(struct fp_ctx *c, struct fp_cpu *p)
{
	fp__tsc(c, p);
	p->changed = false;
}

static void fp__ip_packet(struct fp_ctx *c, struct fp_cpu *p, enum pt_packet_type type, u64 ip,
			  enum pt_ip_compression ipc)
{
	struct pt_packet pkt = {.type = type};

	pkt.payload.ip.ipc = ipc;
	pkt.payload.ip.ip = ip;
	fp__emit(c, p, &pkt);
}

static void fp__tip(struct fp_ctx *c, struct fp_cpu *p, enum pt_packet_type type, u64 ip,
		    enum pt_ip_compression ipc)
{
	fp__flush_tnt(c, p);
	fp__tip_tsc(c, p);
	fp__ip_packet(c, p, type, ip, ipc);
}

/*
 * PSB+: the TSC repeats the current time, so that whatever a decoder does
 * with it, the timing model does not change; @fup when tracing is on.
 */
static void fp__psb(struct fp_ctx *c, struct fp_cpu *p, bool fup)
{
	struct pt_packet pkt = {.type = ppt_psb};

	fp__flush_tnt(c, p);
	p->last_psb = fp__offset(p);
	fp__emit(c, p, &pkt);
	pkt.type = ppt_tsc;
	pkt.payload.tsc.tsc = p->last_tsc;
	fp__emit(c, p, &pkt);
	pkt.type = ppt_cbr;
	pkt.payload.cbr.ratio = FP_CBR;
	fp__emit(c, p, &pkt);
	if (fup) {
		pkt.type = ppt_mode;
		pkt.payload.mode.leaf = pt_mol_exec;
		pkt.payload.mode.bits.exec = pt_set_exec_mode(ptem_64bit);
		fp__emit(c, p, &pkt);
		fp__ip_packet(c, p, ppt_fup, p->ip, pt_ipc_sext_48);
		p->full_ip = true;
	}
	pkt.type = ppt_psbend;
	fp__emit(c, p, &pkt);
	pkt.type = ppt_pad;
	fp__emit(c, p, &pkt);
}

static int fp__encoder_reset(struct fp_cpu *p)
{
	struct pt_config conf;

	pt_free_encoder(p->enc);
	pt_config_init(&conf);
	conf.begin = p->buf;
	conf.end = p->buf + p->size;
	p->enc = pt_alloc_encoder(&conf);
	p->last_psb = 0;
	return p->enc ? 0 : -ENOMEM;
}

/* ---- truth ---- */

static char *fp__hex(char *s, u64 v)
{
	static const char digits[] = "0123456789abcdef";
	char tmp[16];
	int n = 0;

	do {
		tmp[n++] = digits[v & 15];
		v >>= 4;
	} while (v);
	while (n)
		*s++ = tmp[--n];
	return s;
}

static char *fp__dec(char *s, u64 v)
{
	char tmp[20];
	int n = 0;

	do {
		tmp[n++] = '0' + v % 10;
		v /= 10;
	} while (v);
	while (n)
		*s++ = tmp[--n];
	return s;
}

static void *fp__grow(void *arr, size_t *alloc, u64 nr, size_t size)
{
	size_t n;
	void *p;

	if (nr < *alloc)
		return arr;
	n = *alloc ? 2 * *alloc : 4096;
	p = realloc(arr, n * size);
	if (p)
		*alloc = n;
	return p;
}

/*
 * Whether a recording without a kcore knows the bytes of the instruction
 * at [@ip, @ip + @len) at @time: the pokes give a site's bytes, the
 * trampoline's fill poke its code from then on, HEADER_BPF_PROG_INFO a
 * loaded program's; the rest of the text is known only from a kcore.
 */
static bool fp__known_without_kcore(const struct fp_ctx *c, u64 ip, u8 len, u64 time)
{
	int i;

	for (i = 0; i < S__MAX; i++)
		if (ip >= c->site[i].addr && ip + len <= c->site[i].addr + c->site[i].len)
			return true;
	if (ip >= FP_TRAMP && ip + len <= FP_TRAMP + FP_TRAMP_BODY)
		return time >= c->tramp_time;
	for (i = 0; i < 2; i++)
		if (ip >= FP_BPF && ip + len <= FP_BPF + c->prog[i].len &&
		    time >= c->prog[i].load && time < c->prog[i].unload)
			return true;
	return false;
}

static void fp__truth_insn(struct fp_ctx *c, struct fp_cpu *p, u64 ip, const u8 *b, u8 len)
{
	static const char digits[] = "0123456789abcdef";
	struct fixture_pt *fp = c->fp;
	char line[128], *s = line;
	int i;

	s = fp__dec(s, p->cpu);
	*s++ = ' ';
	s = fp__dec(s, p->cur_time);
	*s++ = ' ';
	*s++ = '0';
	*s++ = 'x';
	s = fp__hex(s, ip);
	*s++ = ' ';
	s = fp__dec(s, len);
	*s++ = ' ';
	for (i = 0; i < len; i++) {
		*s++ = digits[b[i] >> 4];
		*s++ = digits[b[i] & 15];
	}
	*s++ = '\n';
	if (fwrite(line, s - line, 1, c->truth.f) != 1)
		fp__check(c, -EIO);
	if (c->o->keep_truth) {
		struct fixture_pt_insn *e;

		fp->insns = fp__grow(fp->insns, &c->insn_alloc, fp->nr_insns, sizeof(*fp->insns));
		if (!fp->insns) {
			fp__check(c, -ENOMEM);
			return;
		}
		e = &fp->insns[fp->nr_insns];
		memset(e, 0, sizeof(*e));
		e->time = p->cur_time;
		e->ip = ip;
		e->cpu = p->cpu;
		e->len = len;
		memcpy(e->bytes, b, len);
		if (fp__known_without_kcore(c, ip, len, p->cur_time))
			e->flags |= FP_INSN_NO_KCORE;
		if (p->full_ip)
			e->flags |= FP_INSN_FULL_IP;
	}
	p->full_ip = false;
	fp->nr_insns++;
}

static void fp__truth_branch(struct fp_ctx *c, struct fp_cpu *p, u64 from, u64 to)
{
	struct fixture_pt *fp = c->fp;
	char line[96], *s = line;

	s = fp__dec(s, p->cpu);
	*s++ = ' ';
	s = fp__dec(s, p->cur_time);
	*s++ = ' ';
	*s++ = '0';
	*s++ = 'x';
	s = fp__hex(s, from);
	*s++ = ' ';
	*s++ = '0';
	*s++ = 'x';
	s = fp__hex(s, to);
	*s++ = '\n';
	if (fwrite(line, s - line, 1, c->branches.f) != 1)
		fp__check(c, -EIO);
	if (c->o->keep_truth) {
		fp->branch =
		    fp__grow(fp->branch, &c->branch_alloc, fp->nr_branches, sizeof(*fp->branch));
		if (!fp->branch) {
			fp__check(c, -ENOMEM);
			return;
		}
		fp->branch[fp->nr_branches] = (struct fixture_pt_branch){
		    .time = p->cur_time, .from = from, .to = to, .cpu = p->cpu};
	}
	fp->nr_branches++;
}

/* ---- the CPUs ---- */

static bool fp__rand_bit(struct fp_cpu *p)
{
	/* xorshift64: the same file every time */
	p->rng ^= p->rng << 13;
	p->rng ^= p->rng >> 7;
	p->rng ^= p->rng << 17;
	return p->rng & 1;
}

/* what call *%rax reaches: the BPF program live at @time, else fp_idle_fn */
static u64 fp__indirect_target(const struct fp_ctx *c, u64 time)
{
	int i;

	for (i = 0; i < 2; i++) {
		if (time >= c->prog[i].load && time < c->prog[i].unload)
			return FP_BPF;
	}
	return FP_IDLE_FN;
}

static void fp__step(struct fp_ctx *c, struct fp_cpu *p, bool last)
{
	u64 ip = p->ip, to;
	struct fp_insn d;
	bool taken = true;
	size_t n;
	u8 b[15];

	n = fp__read(c, ip, p->cur_time, b, sizeof(b));
	if (fp__decode(b, n, ip, &d)) {
		pr_debug("fixture-pt: cpu %d executes no known instruction at %#llx at %llu\n",
			 p->cpu, (unsigned long long)ip, (unsigned long long)p->cur_time);
		fp__check(c, -EINVAL);
		p->ended = true;
		return;
	}
	to = ip + d.len;
	switch (d.kind) {
	case K_PLAIN:
		taken = false;
		break;
	case K_JCC:
		taken = ip == FP_LOOP_JNZ ? !last : fp__rand_bit(p);
		fp__tnt(c, p, taken);
		if (taken)
			to = d.target;
		break;
	case K_JMP:
		to = d.target;
		break;
	case K_CALL:
		if (p->sp == (int)ARRAY_SIZE(p->stack)) {
			fp__check(c, -EOVERFLOW);
			p->ended = true;
			return;
		}
		p->stack[p->sp++] = to;
		to = d.target;
		break;
	case K_CALL_IND:
		if (p->sp == (int)ARRAY_SIZE(p->stack)) {
			fp__check(c, -EOVERFLOW);
			p->ended = true;
			return;
		}
		p->stack[p->sp++] = to;
		to = fp__indirect_target(c, c->now);
		fp__tip(c, p, ppt_tip, to, pt_ipc_sext_48);
		break;
	case K_RET:
		if (!p->sp) {
			fp__check(c, -EINVAL);
			p->ended = true;
			return;
		}
		to = p->stack[--p->sp];
		fp__tip(c, p, ppt_tip, to, pt_ipc_sext_48);
		break;
	case K_JMP_IND:
		/*
		 * The end of the trace: the jmp leaves for user space, which is not
		 * traced.  TIP.PGD with its target binds to the jmp in libipt (with
		 * the IP suppressed, libipt ends the trace before the jmp, perf
		 * after it).  Its TSC is the jmp's time in the truth and in perf's
		 * instruction samples; perf's branch sample has a time it estimates
		 * from there.  libipt, looking ahead for events, takes that TSC
		 * early, for the instructions since the latest TIP.
		 */
		to = FP_USER_IP;
		fp__tip(c, p, ppt_tip_pgd, to, pt_ipc_sext_48);
		p->ended = true;
		break;
	}
	fp__truth_insn(c, p, ip, b, d.len);
	if (taken)
		fp__truth_branch(c, p, ip, to);
	/* a TIP gave the target in full */
	p->full_ip = d.kind == K_CALL_IND || d.kind == K_RET;
	p->ip = to;
	c->now++;
}

static void fp__keep_trace(struct fp_ctx *c, struct fp_cpu *p, size_t len)
{
	struct fixture_pt *fp = c->fp;
	int i = p->cpu;

	if (!c->o->keep_truth)
		return;
	if (fp->trace_len[i] + len > p->all_alloc) {
		size_t n = p->all_alloc ? 2 * p->all_alloc : 65536;
		u8 *t;

		while (n < fp->trace_len[i] + len)
			n *= 2;
		t = realloc(fp->trace[i], n);
		if (!t) {
			fp__check(c, -ENOMEM);
			return;
		}
		fp->trace[i] = t;
		p->all_alloc = n;
	}
	memcpy(fp->trace[i] + fp->trace_len[i], p->buf, len);
	fp->trace_len[i] += len;
}

/*
 * The buffer so far as the AUX record and the AUXTRACE record that carries
 * it, zero (PAD) padded to 8 bytes as perf record pads it.
 */
static void fp__flush_buffer(struct fp_ctx *c, struct fp_cpu *p)
{
	u64 len = fp__offset(p), padded = (len + 7) & ~7ULL;
	union perf_event ev;
	struct perf_sample id = {.time = c->now, .cpu = p->cpu};

	if (!len || c->err)
		return;
	memset(p->buf + len, 0, padded - len);
	id.id = perf_writer__attr_id(c->w, c->pt) + p->cpu;
	fp__check(c, perf_writer__synth_aux(c->w, c->pt, p->aux_off, len, 0, &id));
	memset(&ev, 0, sizeof(ev.auxtrace));
	ev.auxtrace.header.type = PERF_RECORD_AUXTRACE;
	ev.auxtrace.header.size = sizeof(ev.auxtrace);
	ev.auxtrace.size = padded;
	ev.auxtrace.offset = p->aux_off;
	ev.auxtrace.reference = c->now;
	ev.auxtrace.idx = p->cpu;
	ev.auxtrace.tid = -1;
	ev.auxtrace.cpu = p->cpu;
	if (!c->err)
		fp__check(c, perf_writer__write_auxtrace(c->w, &ev));
	if (!c->err)
		fp__check(c, perf_writer__write_auxtrace_data(c->w, p->buf, padded));
	fp__keep_trace(c, p, padded);
	p->aux_off += padded;
	fp__check(c, fp__encoder_reset(p));
}

/* one pass of the loop, from its head back to it (or to the end) */
static void fp__iteration(struct fp_ctx *c, struct fp_cpu *p, bool last)
{
	if (p->ended)
		return;
	if (fp__offset(p) + FP_ITER_ROOM > p->size) {
		fp__flush_buffer(c, p);
		fp__psb(c, p, true);
	} else if (fp__offset(p) - p->last_psb >= FP_PSB_PERIOD) {
		fp__psb(c, p, true);
	}
	do
		fp__step(c, p, last);
	while (!p->ended && p->ip != FP_LOOP && !c->err);
}

static void fp__start(struct fp_ctx *c, struct fp_cpu *p)
{
	struct pt_packet pkt = {.type = ppt_mode};
	struct perf_sample id = {.time = c->now, .cpu = p->cpu};

	id.id = perf_writer__attr_id(c->w, c->pt) + p->cpu;
	fp__check(c, perf_writer__synth_itrace_start(c->w, c->pt, 0, 0, &id));
	p->ip = FP_LOOP;
	p->last_tsc = c->now;
	fp__psb(c, p, false);
	p->cur_time = c->now;
	pkt.payload.mode.leaf = pt_mol_exec;
	pkt.payload.mode.bits.exec = pt_set_exec_mode(ptem_64bit);
	fp__emit(c, p, &pkt);
	fp__ip_packet(c, p, ppt_tip_pge, FP_LOOP, pt_ipc_sext_48);
	p->full_ip = true;
	fp__truth_branch(c, p, 0, FP_LOOP);
}

/* ---- the changes ---- */

static struct perf_sample fp__id(u64 time)
{
	struct perf_sample s = {.time = time};

	return s;
}

static void fp__flip(struct fp_ctx *c, int i, u64 time)
{
	struct fp_site *s = &c->site[i];
	struct fp_version *cur, *v;
	struct perf_sample id = fp__id(time);

	if (s->nr == s->alloc) {
		v = realloc(s->v, 2 * s->alloc * sizeof(*v));
		if (!v) {
			fp__check(c, -ENOMEM);
			return;
		}
		s->v = v;
		s->alloc *= 2;
	}
	cur = &s->v[s->nr - 1];
	v = &s->v[s->nr++];
	v->time = time;
	memcpy(v->bytes, memcmp(cur->bytes, s->alt, s->len) ? s->alt : s->v[0].bytes, s->len);
	fp__check(c, perf_writer__synth_text_poke(c->w, c->dummy, s->addr, cur->bytes, s->len,
						  v->bytes, s->len, &id));
	c->fp->nr_pokes++;
}

static void fp__bpf(struct fp_ctx *c, int i, bool load, u64 time)
{
	struct fp_prog *p = &c->prog[i];
	u8 tag[8] = {0xf0, 0x0e, 0, 0, 0, 0, 0, (u8)p->id};
	struct perf_sample id = fp__id(time);

	fp__check(c, perf_writer__synth_ksymbol(
			 c->w, c->dummy, FP_BPF, p->len, PERF_RECORD_KSYMBOL_TYPE_BPF,
			 load ? 0 : PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER, p->name, &id));
	fp__check(c, perf_writer__synth_bpf_event(c->w, c->dummy,
						  load ? PERF_BPF_EVENT_PROG_LOAD :
							 PERF_BPF_EVENT_PROG_UNLOAD,
						  0, p->id, tag, &id));
	if (load)
		p->load = time;
	else
		p->unload = time;
}

static void fp__tramp(struct fp_ctx *c, u64 time)
{
	struct perf_sample id = fp__id(time);

	fp__check(c, perf_writer__synth_ksymbol(c->w, c->dummy, FP_TRAMP, FP_TRAMP_LEN,
						PERF_RECORD_KSYMBOL_TYPE_OOL, 0,
						"ftrace_trampoline", &id));
	id.time = time + 1;
	/* the kernel announces new trampoline code as a poke with no old bytes */
	fp__check(c, perf_writer__synth_text_poke(c->w, c->dummy, FP_TRAMP, NULL, 0, c->tramp,
						  sizeof(c->tramp), &id));
	c->fp->nr_pokes++;
	c->tramp_time = time + 1;
}

/*
 * One change, between two loop iterations of every CPU: each CPU's latest
 * TSC is older, its next one newer.  The first eight go through every
 * kind once; then the three sites flip in turn.
 */
static void fp__change(struct fp_ctx *c)
{
	u64 t = c->now + 1, k = c->nr_steps++;

	switch (k) {
	case 0:
		fp__flip(c, S_JL5, t);
		break;
	case 1:
		fp__flip(c, S_JL2, t);
		break;
	case 2:
		fp__tramp(c, t);
		fp__flip(c, S_FTRACE, t + 2);
		break;
	case 3:
		fp__bpf(c, 0, true, t);
		break;
	case 4:
		fp__flip(c, S_JL5, t);
		fp__flip(c, S_JL2, t + 1);
		break;
	case 5:
		fp__bpf(c, 0, false, t);
		fp__bpf(c, 1, true, t + 1);
		break;
	case 6:
		fp__flip(c, S_FTRACE, t);
		break;
	default:
		fp__flip(c, (k - 7) % S__MAX, t);
		break;
	}
	c->now += 4;
	fp__check(c, perf_writer__synth_finished_round(c->w));
}

/*
 * Before the last loop iteration every site holds its other state (and the
 * trampoline is there), so that a kcore copied at the end is wrong at all
 * of them for the trace's beginning.
 */
static void fp__end_state(struct fp_ctx *c)
{
	u64 t = c->now + 1;
	int i;

	if (c->tramp_time == ~0ULL)
		fp__tramp(c, t);
	for (i = 0; i < S__MAX; i++) {
		const struct fp_site *s = &c->site[i];

		if (memcmp(s->v[s->nr - 1].bytes, s->alt, s->len))
			fp__flip(c, i, t + 2 + i);
	}
	c->now += 8;
	fp__check(c, perf_writer__synth_finished_round(c->w));
}

static void fp__changed(struct fp_ctx *c)
{
	int i;

	for (i = 0; i < FP_NR_CPUS; i++)
		c->cpu[i].changed = true;
}

static void fp__run(struct fp_ctx *c)
{
	u64 iter = 0;
	bool last = false;
	int i;

	for (i = 0; i < FP_NR_CPUS; i++)
		fp__start(c, &c->cpu[i]);
	while (!last && !c->err) {
		last = c->fp->nr_insns >= c->nr_target;
		if (last) {
			fp__end_state(c);
			fp__changed(c);
		}
		for (i = 0; i < FP_NR_CPUS; i++)
			fp__iteration(c, &c->cpu[i], last);
		if (!last && ++iter % FP_STEP_ITERS == 0) {
			fp__change(c);
			fp__changed(c);
		}
	}
	for (i = 0; i < FP_NR_CPUS; i++)
		fp__flush_buffer(c, &c->cpu[i]);
	c->fp->last_time = c->now;
}

/* kcore_dir with the text as the model has it at @time */
static int fp__kcore_dir(struct fp_ctx *c, const char *dir, u64 time)
{
	u8 *text = NULL;
	int err;

	if (c->o->kcore != FP_KCORE_NONE) {
		text = malloc(FP_TEXT_LEN);
		if (!text)
			return -ENOMEM;
		if (fp__read(c, FP_TEXT, time, text, FP_TEXT_LEN) != FP_TEXT_LEN) {
			free(text);
			return -EINVAL;
		}
	}
	err = fixture_pt_record__kcore_dir(dir, text);
	free(text);
	return err;
}

static int fp__out_open(struct fp_out *o, const char *path)
{
	o->f = fopen(path, "w");
	if (!o->f)
		return -errno;
	o->buf = malloc(1 << 20);
	if (o->buf)
		setvbuf(o->f, o->buf, _IOFBF, 1 << 20);
	return 0;
}

static int fp__out_close(struct fp_out *o)
{
	int err = 0;

	if (o->f && fclose(o->f))
		err = -EIO;
	o->f = NULL;
	free(o->buf);
	o->buf = NULL;
	return err;
}

static int fp__generate(struct fp_ctx *c, const char *dir)
{
	struct fp_bpf_prog progs[2];
	int i, err;

	c->w = perf_writer__new(
	    c->fp->path,
	    PERF_WRITER_DIRECTORY |
		(c->o->quirks & FP_QUIRK_NO_AUXTRACE_INDEX ? PERF_WRITER_NO_AUXTRACE_INDEX : 0));
	if (!c->w)
		return -errno;
	for (i = 0; i < 2; i++)
		progs[i] = (struct fp_bpf_prog){c->prog[i].id, c->prog[i].len, c->prog[i].name,
						c->prog[i].jit};
	err = fixture_pt_record__attrs(c->w, c->o->quirks, &c->pt, &c->dummy);
	err = err ?: fixture_pt_record__begin(c->w, c->o->quirks, c->dummy, progs, 2);
	if (!err) {
		fp__run(c);
		err = c->err;
	}
	err = err ?: perf_writer__set_sample_time(c->w, c->fp->first_time, c->fp->last_time);
	err = err ?:
		    fp__kcore_dir(c, perf_writer__dir_path(c->w),
				  c->o->kcore == FP_KCORE_END ? ~0ULL : 0);
	if (err) {
		perf_writer__abort(c->w);
		return err;
	}
	return perf_writer__close(c->w);
}

int fixture_pt__write(const char *dir, const struct fixture_pt_opts *o, struct fixture_pt *out)
{
	struct fixture_pt local = {0}, *fp = out ? out : &local;
	struct fp_ctx *c = calloc(1, sizeof(*c));
	struct fixture_pt_opts opts = *o;
	int i, err = -ENOMEM;

	if (!c)
		return -ENOMEM;
	if (!out)
		opts.keep_truth = false;
	memset(fp, 0, sizeof(*fp));
	if (!opts.nr_insns)
		opts.nr_insns = FP_DEFAULT_INSNS;
	if (opts.nr_insns > FP_MAX_INSNS) {
		free(c);
		return -E2BIG;
	}
	c->o = &opts;
	c->fp = fp;
	c->nr_target = opts.nr_insns;
	/* small traces still span a few AUXTRACE buffers per CPU */
	c->chunk = opts.nr_insns <= 100000 ? 4096 : 1 << 20;
	c->now = FP_T0;
	fp->first_time = FP_T0;
	if (!(fp->dir = strdup(dir)) || asprintf(&fp->path, "%s/perf.data", dir) < 0 ||
	    asprintf(&fp->truth, "%s/truth.txt", dir) < 0 ||
	    asprintf(&fp->branches, "%s/branches.txt", dir) < 0)
		goto out;
	fp__build_text(c);
	fp__build_sites(c);
	for (i = 0; i < FP_NR_CPUS; i++) {
		struct fp_cpu *p = &c->cpu[i];

		p->cpu = i;
		p->rng = 0x9e3779b97f4a7c15ULL + i;
		p->size = c->chunk;
		p->buf = malloc(p->size + 8);
		if (!p->buf || fp__encoder_reset(p))
			goto out;
	}
	err = c->err;
	err = err ?: fp__out_open(&c->truth, fp->truth);
	err = err ?: fp__out_open(&c->branches, fp->branches);
	err = err ?: fp__generate(c, dir);
	i = fp__out_close(&c->truth);
	err = err ?: i;
	i = fp__out_close(&c->branches);
	err = err ?: i;
	if (err) {
		unlink(fp->truth);
		unlink(fp->branches);
	}
out:
	for (i = 0; i < FP_NR_CPUS; i++) {
		pt_free_encoder(c->cpu[i].enc);
		free(c->cpu[i].buf);
	}
	for (i = 0; i < S__MAX; i++)
		free(c->site[i].v);
	free(c);
	if (err || !out)
		fixture_pt__exit(fp);
	return err;
}

#else /* !HAVE_LIBIPT */

int fixture_pt__write(const char *dir, const struct fixture_pt_opts *o, struct fixture_pt *out)
{
	return -EOPNOTSUPP;
}

#endif

void fixture_pt__exit(struct fixture_pt *fp)
{
	int i;

	if (!fp)
		return;
	free(fp->dir);
	free(fp->path);
	free(fp->truth);
	free(fp->branches);
	free(fp->insns);
	free(fp->branch);
	for (i = 0; i < FP_NR_CPUS; i++)
		free(fp->trace[i]);
	memset(fp, 0, sizeof(*fp));
}

struct fixture_pt *fixture_pt__new(const struct fixture_pt_opts *o)
{
	struct fixture_pt *fp = calloc(1, sizeof(*fp));
	struct fixture_pt_opts opts = *o;
	char *dir = fixture__tmpdir();
	int err = -ENOMEM;

	if (!fp || !dir)
		goto out_err;
	opts.keep_truth = true;
	err = fixture_pt__write(dir, &opts, fp);
	if (err)
		goto out_err;
	fp->own_dir = true;
	free(dir);
	return fp;
out_err:
	if (dir)
		fixture__remove_dir(dir, "fixture-pt");
	free(dir);
	free(fp);
	errno = -err;
	return NULL;
}

void fixture_pt__delete(struct fixture_pt *fp)
{
	if (!fp)
		return;
	if (fp->own_dir)
		fixture__remove_dir(fp->dir, "fixture-pt");
	fixture_pt__exit(fp);
	free(fp);
}

/* "pt-start", "pt-end" or "pt-none", optionally ":NINSN", then optionally ",noindex" */
static int fp__parse_name(const char *arg, struct fixture_pt_opts *o)
{
	char name[128];
	size_t n = strlen(arg);
	static const struct {
		const char *name;
		enum fixture_pt_kcore kcore;
	} kinds[] = {
	    {"pt-start", FP_KCORE_START},
	    {"pt-end", FP_KCORE_END},
	    {"pt-none", FP_KCORE_NONE},
	};
	size_t i, len;
	char *end;

	if (n >= sizeof(name))
		return strncmp(arg, "pt-", 3) ? -ENOENT : -EINVAL;
	memcpy(name, arg, n + 1);
	if (n > 8 && !strcmp(name + n - 8, ",noindex")) {
		name[n - 8] = '\0';
		o->quirks |= FP_QUIRK_NO_AUXTRACE_INDEX;
	}
	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		len = strlen(kinds[i].name);
		if (!strncmp(name, kinds[i].name, len) && (!name[len] || name[len] == ':'))
			break;
	}
	if (i == ARRAY_SIZE(kinds))
		return -ENOENT;
	o->kcore = kinds[i].kcore;
	if (!name[len])
		return 0;
	errno = 0;
	o->nr_insns = strtoull(name + len + 1, &end, 0);
	if (errno || end == name + len + 1 || *end || name[len + 1] == '-' || !o->nr_insns ||
	    o->nr_insns > FP_MAX_INSNS)
		return -EINVAL;
	return 0;
}

int fixture_pt__main(int argc, char **argv)
{
	struct fixture_pt_opts o = {0};
	struct fixture_pt fp;
	int err;

	if (argc != 3)
		return -ENOENT;
	err = fp__parse_name(argv[1], &o);
	if (err == -ENOENT)
		return err;
	if (err) {
		fprintf(stderr,
			"perf textpoke test: bad value '%s' for --write-fixture: "
			"pt-{start,end,none}[:<instructions>][,noindex], 1..%llu instructions\n",
			argv[1], FP_MAX_INSNS);
		return 129;
	}
	if (mkdir(argv[2], 0755) && errno != EEXIST) {
		fprintf(stderr, "perf textpoke test: creating %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	err = fixture_pt__write(argv[2], &o, &fp);
	if (err) {
		fprintf(stderr, "perf textpoke test: writing %s: %s\n", argv[2],
			err == -EOPNOTSUPP ? "built without libipt" : strerror(-err));
		return 1;
	}
	printf("%s: %llu instructions, %llu taken branches, %llu text pokes on %d CPUs\n", argv[2],
	       (unsigned long long)fp.nr_insns, (unsigned long long)fp.nr_branches,
	       (unsigned long long)fp.nr_pokes, FP_NR_CPUS);
	fixture_pt__exit(&fp);
	return 0;
}
