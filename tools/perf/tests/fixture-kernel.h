/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_TESTS_FIXTURE_KERNEL_H
#define __PERF_TEXTPOKE_TESTS_FIXTURE_KERNEL_H

#include "../util/types.h"

/*
 * Recordings of a made-up kernel whose code changes while it runs, for
 * the text image tests.  As in libipt's test generator, one description
 * (the event table in fixture-kernel.c) produces both the input and the
 * expected output: the generator keeps its own flat model of the kernel's
 * memory, applies every change to it as it writes the change's record,
 * and writes the model's bytes at each sample's IP to expected.txt.
 *
 * The kernel (FK_TEXT, FK_TEXT_LEN bytes, in kcore_dir/kcore as one
 * PT_LOAD segment and named in kcore_dir/kallsyms):
 *
 *   FK_JL5_SITE    jump label, nop5 0f 1f 44 00 00 <-> jmp rel32 e9
 *   FK_JL2_SITE    jump label, 66 90 <-> jmp rel8 eb
 *   FK_SCALL_SITE  static call, call rel32 fk_target_a <-> fk_target_b
 *   FK_FTRACE_SITE ftrace call site, nop5 <-> call ftrace_caller
 *   FK_KPROBE_SITE kprobe, 48 89 e5 (mov %rsp,%rbp): first byte <-> int3
 *   FK_TRAMP       KSYMBOL OOL ftrace_trampoline, filled by an old_len 0
 *                  poke, emptied by a new_len 0 poke, then unregistered
 *   FK_BPF         BPF program A, unloaded, then B at the same address;
 *                  JIT bytes in HEADER_BPF_PROG_INFO
 *
 * Time line (ns after FK_T0): samples at every site at 1000; the five
 * sites poked at 2000..2040; samples at 2100; the trampoline 3000..3201
 * with a sample inside at 3100; BPF A 4000..4200, B from 4300, samples
 * at 4100 and 4400; the five pokes reversed at 5000..5040, samples at
 * 5100; the two jump labels poked again at 6000 and 6010 (the final
 * state differs from the first), samples at 6100.
 */

#define FK_T0 1000000000ULL
#define FK_TEXT 0xffffffff81000000ULL
#define FK_TEXT_LEN 0x4000
#define FK_JL5_SITE (FK_TEXT + 0x104)
#define FK_JL2_SITE (FK_TEXT + 0x204)
#define FK_SCALL_SITE (FK_TEXT + 0x304)
#define FK_FTRACE_SITE (FK_TEXT + 0x400)
#define FK_KPROBE_SITE (FK_TEXT + 0x504)
#define FK_TARGET_A (FK_TEXT + 0x1000)
#define FK_TARGET_B (FK_TEXT + 0x1100)
#define FK_FTRACE_CALLER (FK_TEXT + 0x1200)
#define FK_TRAMP 0xffffffffa0001000ULL
#define FK_TRAMP_LEN 0x1000
#define FK_TRAMP_BODY 0x20
#define FK_BPF 0xffffffffc0002000ULL
#define FK_BPF_A_ID 21
#define FK_BPF_B_ID 22
#define FK_BPF_A_NAME "bpf_prog_a1a1a1a1a1a1a1a1_fk_a"
#define FK_BPF_B_NAME "bpf_prog_b2b2b2b2b2b2b2b2_fk_b"
#define FK_BPF_A_LEN 0x40
#define FK_BPF_B_LEN 0x30
/* the jump label 2 poke that FK_DROP_POKE leaves out of the file */
#define FK_DROPPED_TIME (FK_T0 + 5010)
/* when FK_KCORE_AT copies kcore: after the first five pokes */
#define FK_KCORE_AT_TIME (FK_T0 + 2500)

enum fixture_kernel_flags {
	FK_NO_KCORE = 1 << 0,	 /* kcore_dir with kallsyms and modules only */
	FK_KCORE_END = 1 << 1,	 /* kcore holds the code as it was at the end */
	FK_KCORE_AT = 1 << 2,	 /* kcore copied at FK_KCORE_AT_TIME */
	FK_DROP_POKE = 1 << 3,	 /* the kernel made a poke the file lacks */
	FK_NO_BPF_INFO = 1 << 4, /* no HEADER_BPF_PROG_INFO */
	/*
	 * a poke at FK_STRAY at FK_STRAY_TIME where nothing is mapped; a
	 * KSYMBOL OOL announces code there later, at FK_STRAY_TIME + 300
	 */
	FK_STRAY_POKE = 1 << 5,
	/*
	 * with FK_STRAY_POKE: no KSYMBOL ever maps FK_STRAY, as for a module
	 * that loads while stock perf records (FK_STRAY lies in x86-64's
	 * module space)
	 */
	FK_STRAY_UNANNOUNCED = 1 << 10,
	/*
	 * the kprobe's slot: a KSYMBOL OOL kprobe_insn_page at FK_KSLOT at
	 * FK_T0 + 2033, filled before the arming poke (2040) with the
	 * probed "48 89 e5 cc" at FK_KSLOT_INSN (2036), between two other
	 * probes' slots: "55 cc" (2035) and "48 8b 45 f8 cc" (2037, the
	 * same first byte, another length); an optprobe detour at
	 * FK_KSLOT_DETOUR (2038: 16 bytes of template, the copied
	 * "48 89 e5 90 90", jmp back); the probe optimized at 2150 (its 5
	 * bytes -> jmp to the detour) and back to int3 at 2250; the slot
	 * emptied at 5045
	 */
	FK_KPROBE_SLOT = 1 << 6,
	/* with FK_KPROBE_SLOT: a sample at the site while it is optimized (FK_T0 + 2200) */
	FK_KPROBE_OPT_SAMPLE = 1 << 11,
};

#define FK_KSLOT 0xffffffffa0010000ULL
#define FK_KSLOT_INSN (FK_KSLOT + 0x40)
#define FK_KSLOT_DETOUR (FK_KSLOT + 0x200)

/*
 * FK_MODULE_AREA: the copy also holds the module area as /proc/kcore
 * reads it, FK_MODS_LEN bytes: module fk_mod's code in its first page,
 * then zeros where nothing is mapped (free module space, where the
 * trampoline comes later).  At FK_LATE_TIME a KSYMBOL OOL maps code at
 * FK_LATE in that free space and its jump label at FK_LATE_SITE is
 * poked, nop5 -> jmp: the copy's zeros there are no bytes of it.
 */
#define FK_MODULE_AREA (1 << 9)
#define FK_MODS 0xffffffffa0000000ULL
#define FK_MODS_LEN 0x4000
#define FK_LATE (FK_MODS + 0x2000)
#define FK_LATE_SITE (FK_LATE + 4)
#define FK_LATE_TIME (FK_T0 + 2700)

/*
 * FK_KCORE_TORN: the copy is read as our recorder reads it, in ranges of
 * FK_TORN_RANGE bytes in ascending order, each at a time of its own
 * (kcore_dir/kcore_times), while the first five pokes are made: range i
 * at FK_T0 + 1990 + i below FK_TORN_JUMP, at FK_T0 + 2003 + i from it
 * on, up to range 24, then four ranges a nanosecond up to 2084.  So the
 * range of jump label 5 (poked at 2000) is read before its poke (old
 * bytes), the one of jump label 2 (poked at 2010) after its poke (new
 * bytes), and the static call's (poked at 2020) at 2015, while
 * text_poke_bp() had its int3 over the call: cc and the old tail.  With
 * FK_KCORE_UNTIMED too, no kcore_times (stock perf's copy) and no
 * samples before the copy ends (perf enables the sampling events after
 * it): the first sample is at 2100.
 */
#define FK_KCORE_TORN (1 << 7)
#define FK_KCORE_UNTIMED (1 << 8)
#define FK_TORN_RANGE 0x40
#define FK_TORN_JUMP 8
#define FK_TORN_TIME(i) \
	(FK_T0 + ((i) < FK_TORN_JUMP ? 1990 + (i) : (i) < 24 ? 2003 + (i) : 2027 + ((i)-24) / 4))

#define FK_STRAY 0xffffffffb0001000ULL
#define FK_STRAY_TIME (FK_T0 + 2600)

/* What the model says a sample's IP held at its time */
struct fixture_kernel_sample {
	u64 time;
	u64 ip;
	u8 len; /* the instruction's length */
	u8 bytes[16];
	u8 site_len; /* leading bytes that pokes or a JIT image alone tell (0: none) */
};

struct fixture_kernel {
	char *dir;	 /* temporary directory, removed by fixture_kernel__delete() */
	char *path;	 /* dir/perf.data, a directory */
	char *kcore_dir; /* dir/perf.data/kcore_dir */
	char *expected;	 /* dir/expected.txt: "<time> <ip> <hex bytes>" per sample */
	unsigned int flags;
	int nr_samples;
	struct fixture_kernel_sample *samples;
};

/* NULL + errno */
struct perf_writer;

/*
 * The two events of a perf record --kcore -a recording: cpu-clock every
 * 10000 ns with ip, tid, time, cpu and period, and the side-band
 * (mmap, comm, task, ksymbol, bpf_event, text_poke) on a dummy
 */
int fixture__kcore_attrs(struct perf_writer *w, int *clock, int *dummy);

struct fixture_kernel *fixture_kernel__new(unsigned int flags);
void fixture_kernel__delete(struct fixture_kernel *fk);

struct text_image;

/*
 * Compares what @ti reads at each sample's IP and time with the model:
 * all of the instruction's bytes, or with @poked_only the site's bytes
 * only (what pokes alone can tell).  Returns the number of samples that
 * differ (each shown with pr_debug), or -errno.
 */
int fixture_kernel__check(const struct fixture_kernel *fk, struct text_image *ti, bool poked_only);

#endif /* __PERF_TEXTPOKE_TESTS_FIXTURE_KERNEL_H */
