// SPDX-License-Identifier: GPL-2.0-only
/*
 * The made-up kernel of fixture-kernel.h: one description writes the
 * recording and, from a flat model of the kernel's memory that every
 * change is applied to as its record is written, the expected bytes.
 */
#include <elf.h>
#include <errno.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fixture.h"
#include "fixture-kcore.h"
#include "fixture-kernel.h"
#include "../util/debug.h"
#include "../util/text-image.h"
#include "../util/writer.h"

enum { R_TEXT, R_TRAMP, R_BPF, R_STRAY, R_KSLOT, R_LATE, R__MAX };

/* a piece of the model: bytes, and whether the code is there now */
struct fk_region {
	u64 addr;
	u32 len;
	bool live;
	u8 *bytes;
};

struct fk_ctx {
	struct fixture_kernel *fk;
	struct perf_writer *w;
	int clock, dummy;
	int err;
	struct fk_region r[R__MAX];
	u8 *kcore; /* the text as kcore_dir/kcore will hold it */
	int nr_alloc;
	int torn_read; /* FK_KCORE_TORN: ranges read so far */
};

static const u8 nop5[5] = {0x0f, 0x1f, 0x44, 0x00, 0x00};
static const u8 nop2[2] = {0x66, 0x90};

static void rel32(u8 *insn, u8 opcode, u64 from, u64 to)
{
	s32 rel = (s32)(to - (from + 5));

	insn[0] = opcode;
	memcpy(insn + 1, &rel, 4);
}

static void fk__check(struct fk_ctx *c, int err)
{
	if (err && !c->err)
		c->err = err;
}

static struct perf_sample fk_id(u64 time)
{
	struct perf_sample s = {.time = time};

	return s;
}

static struct fk_region *fk__region(struct fk_ctx *c, u64 addr, size_t len)
{
	int i;

	for (i = 0; i < R__MAX; i++) {
		if (addr >= c->r[i].addr && addr + len <= c->r[i].addr + c->r[i].len)
			return &c->r[i];
	}
	return NULL;
}

/*
 * FK_KCORE_TORN: read every range whose time has come before @time, as
 * the kernel held it then: the static call's range while the poke at
 * 2020 had its int3 over the first byte and not yet the new tail
 */
static void fk__torn_reads(struct fk_ctx *c, u64 time)
{
	for (; c->torn_read < FK_TEXT_LEN / FK_TORN_RANGE && FK_TORN_TIME(c->torn_read) < time;
	     c->torn_read++) {
		u32 off = c->torn_read * FK_TORN_RANGE;

		memcpy(c->kcore + off, c->r[R_TEXT].bytes + off, FK_TORN_RANGE);
		if (off <= FK_SCALL_SITE - FK_TEXT &&
		    FK_SCALL_SITE - FK_TEXT < off + FK_TORN_RANGE &&
		    FK_TORN_TIME(c->torn_read) > FK_T0 + 2010 &&
		    FK_TORN_TIME(c->torn_read) < FK_T0 + 2020)
			c->kcore[FK_SCALL_SITE - FK_TEXT] = 0xcc;
	}
}

/* the copy perf record --kcore takes, at the moment the flags say */
static void fk__time_passes(struct fk_ctx *c, u64 time)
{
	if (c->fk->flags & FK_KCORE_TORN)
		fk__torn_reads(c, time);
	if ((c->fk->flags & FK_KCORE_AT) && time > FK_KCORE_AT_TIME && !c->kcore) {
		c->kcore = malloc(FK_TEXT_LEN);
		if (!c->kcore)
			fk__check(c, -ENOMEM);
		else
			memcpy(c->kcore, c->r[R_TEXT].bytes, FK_TEXT_LEN);
	}
}

static void fk__poke(struct fk_ctx *c, u64 time, u64 addr, const u8 *old, u16 old_len,
		     const u8 *new, u16 new_len, bool in_file)
{
	struct perf_sample id = fk_id(time);
	struct fk_region *r = fk__region(c, addr, old_len > new_len ? old_len : new_len);

	fk__time_passes(c, time);
	if (!r) {
		fk__check(c, -EINVAL);
		return;
	}
	if (old_len && memcmp(r->bytes + (addr - r->addr), old, old_len))
		pr_debug("fixture-kernel: poke at %#llx: the description's old bytes are wrong\n",
			 (unsigned long long)addr);
	if (new_len)
		memcpy(r->bytes + (addr - r->addr), new, new_len);
	if (in_file)
		fk__check(c, perf_writer__synth_text_poke(c->w, c->dummy, addr, old, old_len, new,
							  new_len, &id));
}

static void fk__sample(struct fk_ctx *c, u64 time, u64 ip, u8 len, u8 site_len)
{
	struct perf_sample s = {
	    .ip = ip,
	    .time = time,
	    .cpu = 0,
	    .period = 10000,
	    .cpumode = PERF_RECORD_MISC_KERNEL,
	};
	struct fixture_kernel *fk = c->fk;
	struct fixture_kernel_sample *e;
	struct fk_region *r = fk__region(c, ip, len);

	fk__time_passes(c, time);
	if (!r || !r->live || len > sizeof(e->bytes)) {
		fk__check(c, -EINVAL);
		return;
	}
	if (fk->nr_samples == c->nr_alloc) {
		int n = c->nr_alloc ? 2 * c->nr_alloc : 32;
		void *p = realloc(fk->samples, n * sizeof(*fk->samples));

		if (!p) {
			fk__check(c, -ENOMEM);
			return;
		}
		fk->samples = p;
		c->nr_alloc = n;
	}
	e = &fk->samples[fk->nr_samples++];
	memset(e, 0, sizeof(*e));
	e->time = time;
	e->ip = ip;
	e->len = len;
	e->site_len = site_len;
	memcpy(e->bytes, r->bytes + (ip - r->addr), len);
	fk__check(c, perf_writer__synth_sample(c->w, c->clock, &s));
}

static void fk__ksymbol(struct fk_ctx *c, u64 time, u64 addr, u32 len, u16 type, bool reg,
			const char *name)
{
	struct perf_sample id = fk_id(time);

	fk__time_passes(c, time);
	fk__check(c, perf_writer__synth_ksymbol(c->w, c->dummy, addr, len, type,
						reg ? 0 : PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER,
						name, &id));
}

static void fk__bpf(struct fk_ctx *c, u64 time, bool load, u32 id, u32 len, const char *name,
		    const u8 *jit)
{
	u8 tag[8] = {0xf0, 0x0d, 0, 0, 0, 0, 0, (u8)id};
	struct perf_sample sid = fk_id(time);
	struct fk_region *r = &c->r[R_BPF];

	fk__ksymbol(c, time, FK_BPF, len, PERF_RECORD_KSYMBOL_TYPE_BPF, load, name);
	fk__check(c, perf_writer__synth_bpf_event(c->w, c->dummy,
						  load ? PERF_BPF_EVENT_PROG_LOAD :
							 PERF_BPF_EVENT_PROG_UNLOAD,
						  0, id, tag, &sid));
	r->live = load;
	memset(r->bytes, 0, r->len);
	if (load)
		memcpy(r->bytes, jit, len);
}

static void fk__round(struct fk_ctx *c)
{
	fk__check(c, perf_writer__synth_finished_round(c->w));
}

/* the fake kernel's code before anything ran */
static void fk__build_text(u8 *t)
{
	static const u8 prologue[4] = {0x55, 0x48, 0x89, 0xe5}; /* push %rbp; mov %rsp,%rbp */
	static const u8 epilogue[2] = {0x5d, 0xc3};		/* pop %rbp; ret */
	u64 fns[] = {0x100, 0x200, 0x300, 0x500, 0x1000, 0x1100, 0x1200};
	size_t i;

	memset(t, 0xcc, FK_TEXT_LEN);
	for (i = 0; i < ARRAY_SIZE(fns); i++) {
		memcpy(t + fns[i], prologue, 4);
		memset(t + fns[i] + 4, 0x90, 0x3a);
		memcpy(t + fns[i] + 0x3e, epilogue, 2);
	}
	memcpy(t + (FK_JL5_SITE - FK_TEXT), nop5, 5);
	memcpy(t + (FK_JL2_SITE - FK_TEXT), nop2, 2);
	rel32(t + (FK_SCALL_SITE - FK_TEXT), 0xe8, FK_SCALL_SITE, FK_TARGET_A);
	/* the traced function: the fentry nop5 first, then its prologue */
	memcpy(t + 0x400, nop5, 5);
	memcpy(t + 0x405, prologue, 4);
	memset(t + 0x409, 0x90, 0x35);
	memcpy(t + 0x43e, epilogue, 2);
	t[FK_KPROBE_SITE - FK_TEXT + 0] = 0x48;
	t[FK_KPROBE_SITE - FK_TEXT + 1] = 0x89;
	t[FK_KPROBE_SITE - FK_TEXT + 2] = 0xe5;
}

static void fk__bpf_jit(u8 *a, u8 *b)
{
	/* both start with the nop5 a BPF trampoline attaches to */
	memset(a, 0x90, FK_BPF_A_LEN);
	memcpy(a, nop5, 5);
	memcpy(a + 5, "\x55\x48\x89\xe5", 4);
	memcpy(a + FK_BPF_A_LEN - 2, "\xc9\xc3", 2);
	memset(b, 0x90, FK_BPF_B_LEN);
	memcpy(b, nop5, 5);
	memcpy(b + 5, "\x66\x90\x55\x48\x89\xe5\x31\xc0", 8);
	memcpy(b + FK_BPF_B_LEN - 2, "\xc9\xc3", 2);
}

static void fk__records(struct fk_ctx *c, const u8 *jit_a, const u8 *jit_b)
{
	const u64 t0 = FK_T0;
	bool drop = c->fk->flags & FK_DROP_POKE;
	u8 jmp32[5], jmp8[2] = {0xeb, 0x10}, call_a[5], call_b[5], call_ftrace[5];
	u8 kp_old = 0x48, kp_new = 0xcc, tramp[FK_TRAMP_BODY];
	const u8 kp_slot[4] = {0x48, 0x89, 0xe5, 0xcc}; /* mov %rsp,%rbp; int3 */
	const u8 kp_int3[5] = {0xcc, 0x89, 0xe5, 0x90, 0x90};
	u8 kp_jmp[5], kp_detour[26];
	struct perf_record_mmap2 m = {
	    .header.misc = PERF_RECORD_MISC_KERNEL,
	    .pid = -1,
	    .tid = 0,
	    .start = FK_TEXT,
	    .len = 0x1000000,
	    .pgoff = FK_TEXT,
	};
	struct perf_sample id = fk_id(0);

	rel32(jmp32, 0xe9, FK_JL5_SITE, FK_JL5_SITE + 0x40);
	rel32(call_a, 0xe8, FK_SCALL_SITE, FK_TARGET_A);
	rel32(call_b, 0xe8, FK_SCALL_SITE, FK_TARGET_B);
	rel32(call_ftrace, 0xe8, FK_FTRACE_SITE, FK_FTRACE_CALLER);
	/* push %rbp; mov %rsp,%rbp; call fk_target_a; pop %rbp; ret; int3 padding */
	memset(tramp, 0xcc, sizeof(tramp));
	memcpy(tramp, "\x55\x48\x89\xe5", 4);
	rel32(tramp + 4, 0xe8, FK_TRAMP + 4, FK_TARGET_A);
	memcpy(tramp + 9, "\x5d\xc3", 2);

	fk__check(c, perf_writer__synth_mmap2(c->w, c->dummy, &m, "[kernel.kallsyms]_text", &id));
	fk__check(c, perf_writer__synth_comm(c->w, c->dummy, 0, 0, "swapper", false, &id));
	fk__round(c);

	/* every site as booted; stock perf's copy is done before the first sample */
	if (!(c->fk->flags & FK_KCORE_UNTIMED)) {
		fk__sample(c, t0 + 1000, FK_JL5_SITE, 5, 5);
		fk__sample(c, t0 + 1001, FK_JL2_SITE, 2, 2);
		fk__sample(c, t0 + 1002, FK_SCALL_SITE, 5, 5);
		fk__sample(c, t0 + 1003, FK_FTRACE_SITE, 5, 5);
		fk__sample(c, t0 + 1004, FK_KPROBE_SITE, 3, 1);
	}
	fk__round(c);

	fk__poke(c, t0 + 2000, FK_JL5_SITE, nop5, 5, jmp32, 5, true);
	fk__poke(c, t0 + 2010, FK_JL2_SITE, nop2, 2, jmp8, 2, true);
	fk__poke(c, t0 + 2020, FK_SCALL_SITE, call_a, 5, call_b, 5, true);
	fk__poke(c, t0 + 2030, FK_FTRACE_SITE, nop5, 5, call_ftrace, 5, true);
	if (c->fk->flags & FK_KPROBE_SLOT) {
		c->r[R_KSLOT].live = true;
		fk__ksymbol(c, t0 + 2033, FK_KSLOT, 0x1000, PERF_RECORD_KSYMBOL_TYPE_OOL, true,
			    "kprobe_insn_page");
		fk__poke(c, t0 + 2035, FK_KSLOT + 0x20, NULL, 0, (const u8 *)"\x55\xcc", 2, true);
		fk__poke(c, t0 + 2036, FK_KSLOT_INSN, NULL, 0, kp_slot, sizeof(kp_slot), true);
		fk__poke(c, t0 + 2037, FK_KSLOT + 0x60, NULL, 0, (const u8 *)"\x48\x8b\x45\xf8\xcc",
			 5, true);
		/* the optprobe detour: template (nops here), the copy, jmp back */
		memset(kp_detour, 0x90, sizeof(kp_detour));
		memcpy(kp_detour + 16, "\x48\x89\xe5\x90\x90", 5);
		rel32(kp_detour + 21, 0xe9, FK_KSLOT_DETOUR + 21, FK_KPROBE_SITE + 5);
		fk__poke(c, t0 + 2038, FK_KSLOT_DETOUR, NULL, 0, kp_detour, sizeof(kp_detour),
			 true);
	}
	fk__poke(c, t0 + 2040, FK_KPROBE_SITE, &kp_old, 1, &kp_new, 1, true);
	fk__sample(c, t0 + 2100, FK_JL5_SITE, 5, 5);
	fk__sample(c, t0 + 2101, FK_JL2_SITE, 2, 2);
	fk__sample(c, t0 + 2102, FK_SCALL_SITE, 5, 5);
	fk__sample(c, t0 + 2103, FK_FTRACE_SITE, 5, 5);
	fk__sample(c, t0 + 2104, FK_KPROBE_SITE, 1, 1);
	if (c->fk->flags & FK_KPROBE_SLOT) {
		/* optimized: the jmp covers mov %rsp,%rbp and two nops */
		rel32(kp_jmp, 0xe9, FK_KPROBE_SITE, FK_KSLOT_DETOUR);
		fk__poke(c, t0 + 2150, FK_KPROBE_SITE, kp_int3, 5, kp_jmp, 5, true);
		if (c->fk->flags & FK_KPROBE_OPT_SAMPLE)
			fk__sample(c, t0 + 2200, FK_KPROBE_SITE, 1, 1);
		fk__poke(c, t0 + 2250, FK_KPROBE_SITE, kp_jmp, 5, kp_int3, 5, true);
	}
	fk__round(c);

	if (c->fk->flags & FK_STRAY_POKE) {
		c->r[R_STRAY].live = true;
		fk__poke(c, FK_STRAY_TIME, FK_STRAY, nop2, 2, jmp8, 2, true);
		fk__sample(c, FK_STRAY_TIME + 10, FK_STRAY, 2, 2);
		if (!(c->fk->flags & FK_STRAY_UNANNOUNCED))
			fk__ksymbol(c, FK_STRAY_TIME + 300, FK_STRAY, 0x1000,
				    PERF_RECORD_KSYMBOL_TYPE_OOL, true, "kprobe_insn_page");
	}
	if (c->fk->flags & FK_MODULE_AREA) {
		c->r[R_LATE].live = true;
		fk__ksymbol(c, FK_LATE_TIME, FK_LATE, 0x1000, PERF_RECORD_KSYMBOL_TYPE_OOL, true,
			    "fk_late");
		rel32(jmp32, 0xe9, FK_LATE_SITE, FK_LATE_SITE + 0x40);
		fk__poke(c, FK_LATE_TIME + 10, FK_LATE_SITE, nop5, 5, jmp32, 5, true);
		rel32(jmp32, 0xe9, FK_JL5_SITE, FK_JL5_SITE + 0x40);
	}
	fk__round(c);

	c->r[R_TRAMP].live = true;
	fk__ksymbol(c, t0 + 3000, FK_TRAMP, FK_TRAMP_LEN, PERF_RECORD_KSYMBOL_TYPE_OOL, true,
		    "ftrace_trampoline");
	fk__poke(c, t0 + 3001, FK_TRAMP, NULL, 0, tramp, sizeof(tramp), true);
	fk__sample(c, t0 + 3100, FK_TRAMP + 4, 5, 5);
	fk__poke(c, t0 + 3200, FK_TRAMP, tramp, sizeof(tramp), NULL, 0, true);
	fk__ksymbol(c, t0 + 3201, FK_TRAMP, FK_TRAMP_LEN, PERF_RECORD_KSYMBOL_TYPE_OOL, false,
		    "ftrace_trampoline");
	c->r[R_TRAMP].live = false;
	fk__round(c);

	fk__bpf(c, t0 + 4000, true, FK_BPF_A_ID, FK_BPF_A_LEN, FK_BPF_A_NAME, jit_a);
	fk__sample(c, t0 + 4100, FK_BPF + 5, 1, 1);
	fk__bpf(c, t0 + 4200, false, FK_BPF_A_ID, FK_BPF_A_LEN, FK_BPF_A_NAME, NULL);
	fk__bpf(c, t0 + 4300, true, FK_BPF_B_ID, FK_BPF_B_LEN, FK_BPF_B_NAME, jit_b);
	fk__sample(c, t0 + 4400, FK_BPF + 5, 2, 2);
	fk__round(c);

	fk__poke(c, t0 + 5000, FK_JL5_SITE, jmp32, 5, nop5, 5, true);
	fk__poke(c, FK_DROPPED_TIME, FK_JL2_SITE, jmp8, 2, nop2, 2, !drop);
	fk__poke(c, t0 + 5020, FK_SCALL_SITE, call_b, 5, call_a, 5, true);
	fk__poke(c, t0 + 5030, FK_FTRACE_SITE, call_ftrace, 5, nop5, 5, true);
	fk__poke(c, t0 + 5040, FK_KPROBE_SITE, &kp_new, 1, &kp_old, 1, true);
	if (c->fk->flags & FK_KPROBE_SLOT)
		fk__poke(c, t0 + 5045, FK_KSLOT_INSN, kp_slot, sizeof(kp_slot), NULL, 0, true);
	fk__sample(c, t0 + 5100, FK_JL5_SITE, 5, 5);
	fk__sample(c, t0 + 5101, FK_JL2_SITE, 2, 2);
	fk__sample(c, t0 + 5102, FK_SCALL_SITE, 5, 5);
	fk__sample(c, t0 + 5103, FK_FTRACE_SITE, 5, 5);
	fk__sample(c, t0 + 5104, FK_KPROBE_SITE, 3, 1);
	fk__round(c);

	fk__poke(c, t0 + 6000, FK_JL5_SITE, nop5, 5, jmp32, 5, true);
	fk__poke(c, t0 + 6010, FK_JL2_SITE, nop2, 2, jmp8, 2, true);
	fk__sample(c, t0 + 6100, FK_JL5_SITE, 5, 5);
	fk__sample(c, t0 + 6101, FK_JL2_SITE, 2, 2);
	fk__round(c);
}

int fixture__kcore_attrs(struct perf_writer *w, int *clock, int *dummy)
{
	struct perf_event_attr attr = {
	    .type = PERF_TYPE_SOFTWARE,
	    .size = sizeof(attr),
	    .config = PERF_COUNT_SW_CPU_CLOCK,
	    .sample_period = 10000,
	    .sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
			   PERF_SAMPLE_PERIOD,
	    .disabled = 1,
	    .sample_id_all = 1,
	    .exclude_guest = 1,
	};

	*clock = perf_writer__add_attr(w, &attr, NULL, 0, "cpu-clock");
	if (*clock < 0)
		return *clock;
	/* the side-band on a dummy event, as perf record --kcore -a puts it */
	attr.config = PERF_COUNT_SW_DUMMY;
	attr.sample_period = 1;
	attr.mmap = attr.mmap2 = attr.comm = attr.task = 1;
	attr.ksymbol = attr.bpf_event = attr.text_poke = 1;
	*dummy = perf_writer__add_attr(w, &attr, NULL, 0, "dummy:HG");
	return *dummy < 0 ? *dummy : 0;
}

/* HEADER_BPF_PROG_INFO as perf lays it out: arrays as offsets into the data */
static int fk__bpf_prog_info(struct fk_ctx *c, const u8 *jit_a, const u8 *jit_b)
{
	const u8 *jits[2] = {jit_a, jit_b};
	const u32 ids[2] = {FK_BPF_A_ID, FK_BPF_B_ID}, lens[2] = {FK_BPF_A_LEN, FK_BPF_B_LEN};
	const char *names[2] = {"fk_a", "fk_b"};
	/* perf's bpil_array_types: JITED_INSNS 0, JITED_KSYMS 3, JITED_FUNC_LENS 4 */
	const u64 arrays = (1 << 0) | (1 << 3) | (1 << 4);
	size_t data_len = 0x40 + 16, per = 16 + sizeof(struct bpf_prog_info) + data_len;
	u8 *buf = calloc(1, 4 + 2 * per), *p;
	int i, err;

	if (!buf)
		return -ENOMEM;
	*(u32 *)buf = 2;
	p = buf + 4;
	for (i = 0; i < 2; i++) {
		struct bpf_prog_info info = {0};
		u64 ksym = FK_BPF;
		u8 *data;

		info.id = ids[i];
		info.type = BPF_PROG_TYPE_KPROBE;
		info.tag[7] = (u8)ids[i];
		strcpy((char *)info.name, names[i]);
		info.jited_prog_len = lens[i];
		info.jited_prog_insns = 0;
		info.nr_jited_ksyms = 1;
		info.jited_ksyms = 0x40;
		info.nr_jited_func_lens = 1;
		info.jited_func_lens = 0x48;
		*(u32 *)p = sizeof(info);
		*(u32 *)(p + 4) = data_len;
		memcpy(p + 8, &arrays, 8);
		memcpy(p + 16, &info, sizeof(info));
		data = p + 16 + sizeof(info);
		memcpy(data, jits[i], lens[i]);
		memcpy(data + 0x40, &ksym, 8);
		memcpy(data + 0x48, &lens[i], 4);
		p += per;
	}
	err = perf_writer__set_bpf_prog_info(c->w, buf, p - buf);
	free(buf);
	return err;
}

static int fk__features(struct fk_ctx *c, const u8 *jit_a, const u8 *jit_b)
{
	static const char *const argv[] = {"/usr/bin/perf", "record", "--kcore", "-e",
					   "cpu-clock",	    "-a"};
	struct perf_writer *w = c->w;
	int err = 0;

	err = err ?: perf_writer__set_hostname(w, "fixture-kernel");
	err = err ?: perf_writer__set_osrelease(w, "6.1.0-fixture");
	err = err ?: perf_writer__set_version(w, "6.1.fixture");
	err = err ?: perf_writer__set_arch(w, "x86_64");
	err = err ?: perf_writer__set_nrcpus(w, 1, 1);
	err = err ?: perf_writer__set_cpudesc(w, "Fixture CPU");
	err = err ?: perf_writer__set_cpuid(w, "GenuineIntel,6,85,4");
	err = err ?: perf_writer__set_total_mem(w, 1024 * 1024);
	err = err ?: perf_writer__set_cmdline(w, ARRAY_SIZE(argv), argv);
	err = err ?: perf_writer__set_sample_time(w, FK_T0 + 1000, FK_T0 + 6101);
	if (!err && !(c->fk->flags & FK_NO_BPF_INFO))
		err = fk__bpf_prog_info(c, jit_a, jit_b);
	return err;
}

/* kcore_dir/kcore_times as our recorder writes it: one line a range read */
static int fk__kcore_times(const char *dir)
{
	char *path;
	FILE *f;

	if (asprintf(&path, "%s/kcore_dir/kcore_times", dir) < 0)
		return -ENOMEM;
	f = fopen(path, "w");
	free(path);
	if (!f)
		return -errno;
	fprintf(f, "# fixture-kernel: <addr> <len> <first ns> <last ns> per range read\n");
	for (u32 i = 0; i < FK_TEXT_LEN / FK_TORN_RANGE; i++)
		fprintf(f, "%llx %x %llu %llu\n", FK_TEXT + i * FK_TORN_RANGE, FK_TORN_RANGE,
			FK_TORN_TIME(i), FK_TORN_TIME(i));
	return fclose(f) ? -EIO : 0;
}

static int fk__kcore_dir(struct fk_ctx *c, const char *dir)
{
	static const char kallsyms[] = "ffffffff81000000 T _text\n"
				       "ffffffff81000000 T _stext\n"
				       "ffffffff81000100 T fk_jl5_fn\n"
				       "ffffffff81000200 T fk_jl2_fn\n"
				       "ffffffff81000300 T fk_static_call_fn\n"
				       "ffffffff81000400 T fk_traced_fn\n"
				       "ffffffff81000500 T fk_kprobed_fn\n"
				       "ffffffff81001000 T fk_target_a\n"
				       "ffffffff81001100 T fk_target_b\n"
				       "ffffffff81001200 T ftrace_caller\n"
				       "ffffffff81004000 T _etext\n";
	static const char mod_kallsyms[] = "ffffffffa0000000 t fk_mod_fn\t[fk_mod]\n";
	struct fixture_segment segs[2] = {
	    {FK_TEXT, c->kcore ? c->kcore : c->r[R_TEXT].bytes, FK_TEXT_LEN},
	};
	bool mods = c->fk->flags & FK_MODULE_AREA;
	char *all = NULL;
	u8 *area = NULL;
	int err = 0;

	if (mods) {
		/* fk_mod's function in the first page, zeros where nothing is mapped */
		area = calloc(1, FK_MODS_LEN);
		if (!area || asprintf(&all, "%s%s", kallsyms, mod_kallsyms) < 0) {
			free(area);
			return -ENOMEM;
		}
		memset(area, 0xcc, 0x1000);
		memcpy(area, "\x55\x48\x89\xe5\x5d\xc3", 6);
		segs[1] = (struct fixture_segment){FK_MODS, area, FK_MODS_LEN};
	}
	err = err ?:
		    fixture__write_kcore_dir(dir, mods ? all : kallsyms,
					     mods ? "fk_mod 4096 0 - Live 0xffffffffa0000000\n" : "",
					     segs,
					     c->fk->flags & FK_NO_KCORE ? 0 :
					     mods			? 2 :
									  1);
	if (!err && (c->fk->flags & FK_KCORE_TORN) && !(c->fk->flags & FK_KCORE_UNTIMED))
		err = fk__kcore_times(dir);
	free(all);
	free(area);
	return err;
}

static int fk__expected(struct fixture_kernel *fk)
{
	FILE *f = fopen(fk->expected, "w");
	int i, j, err = 0;

	if (!f)
		return -errno;
	for (i = 0; i < fk->nr_samples; i++) {
		fprintf(f, "%llu %llx", (unsigned long long)fk->samples[i].time,
			(unsigned long long)fk->samples[i].ip);
		for (j = 0; j < fk->samples[i].len; j++)
			fprintf(f, " %02x", fk->samples[i].bytes[j]);
		fputc('\n', f);
	}
	if (fclose(f))
		err = -EIO;
	return err;
}

struct fixture_kernel *fixture_kernel__new(unsigned int flags)
{
	struct fixture_kernel *fk = calloc(1, sizeof(*fk));
	u8 jit_a[FK_BPF_A_LEN], jit_b[FK_BPF_B_LEN];
	struct fk_ctx c = {.fk = fk};
	int i, err = -ENOMEM;

	if (!fk)
		goto out_err;
	fk->flags = flags;
	fk->dir = fixture__tmpdir();
	if (!fk->dir)
		goto out_err;
	if (asprintf(&fk->path, "%s/perf.data", fk->dir) < 0 ||
	    asprintf(&fk->kcore_dir, "%s/kcore_dir", fk->path) < 0 ||
	    asprintf(&fk->expected, "%s/expected.txt", fk->dir) < 0)
		goto out_err;
	c.r[R_TEXT] = (struct fk_region){FK_TEXT, FK_TEXT_LEN, true, calloc(1, FK_TEXT_LEN)};
	c.r[R_TRAMP] = (struct fk_region){FK_TRAMP, FK_TRAMP_LEN, false, calloc(1, FK_TRAMP_LEN)};
	c.r[R_BPF] = (struct fk_region){FK_BPF, FK_BPF_A_LEN, false, calloc(1, FK_BPF_A_LEN)};
	c.r[R_STRAY] = (struct fk_region){FK_STRAY, 2, false, malloc(2)};
	c.r[R_KSLOT] = (struct fk_region){FK_KSLOT, 0x1000, false, calloc(1, 0x1000)};
	c.r[R_LATE] = (struct fk_region){FK_LATE, 0x1000, false, calloc(1, 0x1000)};
	if (!c.r[R_TEXT].bytes || !c.r[R_TRAMP].bytes || !c.r[R_BPF].bytes || !c.r[R_STRAY].bytes ||
	    !c.r[R_KSLOT].bytes || !c.r[R_LATE].bytes)
		goto out_free;
	memcpy(c.r[R_STRAY].bytes, nop2, 2);
	memcpy(c.r[R_LATE].bytes + (FK_LATE_SITE - FK_LATE), nop5, 5);
	fk__build_text(c.r[R_TEXT].bytes);
	fk__bpf_jit(jit_a, jit_b);
	if (!(flags & (FK_KCORE_AT | FK_KCORE_END)) || (flags & FK_KCORE_TORN)) {
		c.kcore = malloc(FK_TEXT_LEN);
		if (!c.kcore)
			goto out_free;
		memcpy(c.kcore, c.r[R_TEXT].bytes, FK_TEXT_LEN);
	}
	c.w = perf_writer__new(fk->path, PERF_WRITER_DIRECTORY);
	if (!c.w) {
		err = -errno;
		goto out_free;
	}
	err = fixture__kcore_attrs(c.w, &c.clock, &c.dummy);
	err = err ?: fk__features(&c, jit_a, jit_b);
	if (!err) {
		fk__records(&c, jit_a, jit_b);
		err = c.err;
	}
	/* FK_KCORE_END: the copy is taken now; FK_KCORE_AT took its own */
	err = err ?: fk__kcore_dir(&c, perf_writer__dir_path(c.w));
	if (err) {
		pr_debug("fixture-kernel: building the recording failed: %s\n", strerror(-err));
		perf_writer__abort(c.w);
		goto out_free;
	}
	err = perf_writer__close(c.w);
	err = err ?: fk__expected(fk);
out_free:
	for (i = 0; i < R__MAX; i++)
		free(c.r[i].bytes);
	free(c.kcore);
	if (!err)
		return fk;
out_err:
	fixture_kernel__delete(fk);
	errno = -err;
	return NULL;
}

void fixture_kernel__delete(struct fixture_kernel *fk)
{
	if (!fk)
		return;
	fixture__remove_dir(fk->dir, "fixture-kernel");
	free(fk->dir);
	free(fk->path);
	free(fk->kcore_dir);
	free(fk->expected);
	free(fk->samples);
	free(fk);
}

int fixture_kernel__check(const struct fixture_kernel *fk, struct text_image *ti, bool poked_only)
{
	int i, j, bad = 0;

	for (i = 0; i < fk->nr_samples; i++) {
		const struct fixture_kernel_sample *e = &fk->samples[i];
		int n = poked_only ? e->site_len : e->len;
		u8 buf[16], known[16];
		bool ok = true;

		if (text_image__read(ti, e->ip, n, e->time, buf, known) < 0)
			return -EINVAL;
		for (j = 0; j < n; j++)
			ok &= known[j] && buf[j] == e->bytes[j];
		if (ok)
			continue;
		bad++;
		pr_debug("sample at %#llx time %llu:", (unsigned long long)e->ip,
			 (unsigned long long)e->time);
		for (j = 0; j < n; j++)
			pr_debug(" %02x", e->bytes[j]);
		pr_debug(" expected, read");
		for (j = 0; j < n; j++) {
			if (known[j])
				pr_debug(" %02x", buf[j]);
			else
				pr_debug(" ??");
		}
		pr_debug("\n");
	}
	return bad;
}
