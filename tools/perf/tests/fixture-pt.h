/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_TESTS_FIXTURE_PT_H
#define __PERF_TEXTPOKE_TESTS_FIXTURE_PT_H

#include "../util/types.h"

/*
 * Intel PT recordings of a made-up kernel whose code changes under the
 * trace, as `perf record -e intel_pt// --kcore -a` writes them, with the
 * ground truth of the executed instructions.  As in libipt's test
 * generator, one description produces both: FP_NR_CPUS simulated CPUs
 * walk the kernel's code, reading each instruction from a time-versioned
 * model of its memory at the instruction's time, and every decision they
 * take (a conditional branch, an indirect target) becomes both a packet
 * (libipt's encoder) and a line of truth.
 *
 * The kernel: a loop at FP_LOOP calls three functions and one indirect
 * target, over and over:
 *
 *   FP_JL5_SITE    jump label in fp_jl5_fn, nop5 <-> jmp rel32
 *   FP_JL2_SITE    jump label in fp_jl2_fn, 66 90 <-> jmp rel8
 *   FP_FTRACE_SITE fentry of fp_traced_fn, nop5 <-> call FP_TRAMP, an OOL
 *                  ftrace trampoline (KSYMBOL, then filled by an old_len 0
 *                  TEXT_POKE) that calls fp_tracer_fn
 *   call *%rax     fp_idle_fn, or the BPF program at FP_BPF: A, then after
 *                  its unload B at the same address (JIT bytes in
 *                  HEADER_BPF_PROG_INFO)
 *
 * Every FP_STEP_ITERS loop iterations one change happens (fixture-pt.c's
 * fp_steps[]: the sites flip, the trampoline comes, A loads, A goes and B
 * comes, ...), at a time between two TSC packets of every CPU; before the
 * last iteration every site takes its changed state, so that the code at
 * the end differs from the code at the start at every site.
 *
 * The timing model, which the truth follows: TSC = perf time in ns
 * (time_mult 1, time_shift 0, time_zero 0); a TSC packet precedes every
 * TIP-class packet (TIP, TIP.PGE, TIP.PGD) and every other TNT packet, so
 * an instruction's time is that of the packet consumed by the latest
 * TNT/TIP-consuming branch at or before it, and it executes the bytes live
 * at that time.  The time passes a change only at a TIP: stock perf
 * applies a change when its decoder stops at a sample, which with
 * --itrace=b is a taken branch, so after a not-taken branch whose TNT has
 * a newer TSC it still decodes with the old bytes (with --itrace=i1i it
 * does not; checked by hand: a TSC before the first TNT after a change
 * makes perf's branches differ from the truth, its instructions not).
 * TNT packets carry up to 6 branches.  AUXTRACE buffers (4 KiB, or 1 MiB
 * above 100000 instructions; one AUX record each, offsets consecutive per
 * CPU) end at the loop's head, zero (PAD) padded to 8 bytes.  A PSB+
 * (PSB, TSC of the current time, CBR, MODE.exec, FUP, PSBEND, PAD) begins
 * every buffer but the first (PSB, TSC, CBR, PSBEND, then MODE.exec and
 * TIP.PGE) and comes every FP_PSB_PERIOD bytes, at the loop's head; MTC
 * packets (without TMA, so no decoder takes time from them) come before
 * some TSCs.  The trace starts with TIP.PGE at FP_LOOP (branches.txt:
 * from 0) and ends with TSC, TIP.PGD at the loop's final indirect jmp to
 * FP_USER_IP (user space, not traced).
 *
 * Decoders and this model: perf 6.1 gives every instruction the truth's
 * time, but dates its branch sample of the trace's end (TIP.PGD) with an
 * estimate a little past the TSC; libipt's pt_insn_time() is the truth's
 * but for the instructions between the latest TIP and the TIP.PGD, which
 * get the TSC before the TIP.PGD (libipt reads ahead for events).
 *
 * truth.txt: "<cpu> <time ns> 0x<ip> <len> <bytes>", bytes as one hex
 * string ("e8f9000000"); branches.txt: "<cpu> <time ns> 0x<from> 0x<to>".
 * Each CPU's lines are in its execution order; the CPUs take turns by
 * loop iteration, so the files are not sorted by time across CPUs.
 */

#define FP_T0 1000000000ULL
#define FP_TEXT 0xffffffff81000000ULL
#define FP_TEXT_LEN 0x4000
#define FP_LOOP (FP_TEXT + 0x100)
#define FP_JL5_FN (FP_TEXT + 0x200)
#define FP_JL5_SITE (FP_TEXT + 0x20a)
#define FP_JL2_FN (FP_TEXT + 0x300)
#define FP_JL2_SITE (FP_TEXT + 0x304)
#define FP_TRACED_FN (FP_TEXT + 0x400)
#define FP_FTRACE_SITE FP_TRACED_FN
#define FP_IDLE_FN (FP_TEXT + 0x500)
#define FP_TRACER_FN (FP_TEXT + 0x1200)
#define FP_TRAMP 0xffffffffa0001000ULL
#define FP_TRAMP_LEN 0x1000
#define FP_BPF 0xffffffffc0002000ULL
#define FP_BPF_A_ID 31
#define FP_BPF_B_ID 32
#define FP_BPF_A_NAME "bpf_prog_a3a3a3a3a3a3a3a3_fp_a"
#define FP_BPF_B_NAME "bpf_prog_b4b4b4b4b4b4b4b4_fp_b"
#define FP_BPF_A_LEN 0x40
#define FP_BPF_B_LEN 0x30
#define FP_USER_IP 0x401000ULL

/* what /sys/bus/event_source/devices/intel_pt/type says on most machines */
#define FP_PMU_TYPE 8
#define FP_NR_CPUS 2
#define FP_STEP_ITERS 4
#define FP_PSB_PERIOD 2048
/* the default and the largest trace length (instructions, all CPUs) */
#define FP_DEFAULT_INSNS 4000ULL
#define FP_MAX_INSNS 100000000ULL

enum fixture_pt_kcore {
	FP_KCORE_START, /* kcore_dir/kcore: the text before the first change */
	FP_KCORE_END,	/* ... the text as it was at the end */
	FP_KCORE_NONE,	/* kcore_dir with kallsyms and modules only */
};

/*
 * Deliberate departures from what perf record writes, to check what stock
 * perf insists on (the "facts"); 0 for a normal recording.
 */
enum fixture_pt_quirks {
	FP_QUIRK_WRONG_PMU_TYPE = 1 << 0,    /* priv[PMU_TYPE] != the intel_pt attr's type */
	FP_QUIRK_NO_TIME_ZERO = 1 << 1,	     /* priv[CAP_USER_TIME_ZERO] 0 */
	FP_QUIRK_NO_TSC_CONFIG = 1 << 2,     /* attr.config without the priv[TSC_BIT] mask */
	FP_QUIRK_DUMMY_NO_TIME = 1 << 3,     /* the side-band event without PERF_SAMPLE_TIME */
	FP_QUIRK_PGOFF_ZERO = 1 << 4,	     /* kernel MMAP2 pgoff 0, not _text */
	FP_QUIRK_NO_AUXTRACE_INDEX = 1 << 5, /* no HEADER_AUXTRACE: the trace only in the records */
};

struct fixture_pt_opts {
	enum fixture_pt_kcore kcore;
	u64 nr_insns; /* 0: FP_DEFAULT_INSNS */
	unsigned int quirks;
	/*
	 * keep the truth in memory (fixture_pt.insns/branch, ~40 bytes an
	 * instruction) and the traces, as well as in the files
	 */
	bool keep_truth;
};

/*
 * What the model knows of an executed instruction beyond truth.txt, for
 * tests that need to know what a decoder can reach without a kcore:
 *  FP_INSN_NO_KCORE  its bytes are known to a recording without a kcore:
 *                    a poked site (the pokes' bytes), the trampoline once
 *                    filled, a BPF program while it is loaded (its JIT
 *                    bytes in HEADER_BPF_PROG_INFO); not the plain text
 *  FP_INSN_FULL_IP   the trace gives its address in full: the target of a
 *                    TIP or TIP.PGE, or a PSB+'s FUP, where a decoder that
 *                    lost its way can start again
 */
enum fixture_pt_insn_flags {
	FP_INSN_NO_KCORE = 1 << 0,
	FP_INSN_FULL_IP = 1 << 1,
};

/* one executed instruction, as truth.txt has it, and the model's flags */
struct fixture_pt_insn {
	u64 time;
	u64 ip;
	u8 cpu;
	u8 len;
	u8 flags;
	u8 bytes[15];
};

/* one taken branch, as branches.txt has it (from 0: the trace starts) */
struct fixture_pt_branch {
	u64 time;
	u64 from, to;
	u8 cpu;
};

struct fixture_pt {
	char *dir;	 /* where the files are */
	char *path;	 /* dir/perf.data, a directory holding data and kcore_dir/ */
	char *truth;	 /* dir/truth.txt */
	char *branches;	 /* dir/branches.txt */
	bool own_dir;	 /* a temporary directory that __delete() removes */
	u64 nr_insns;	 /* executed, all CPUs */
	u64 nr_branches; /* taken */
	u64 nr_pokes;	 /* TEXT_POKE records */
	u64 first_time, last_time;
	/* with keep_truth: in the files' order */
	struct fixture_pt_insn *insns;
	struct fixture_pt_branch *branch;
	/* with keep_truth: each CPU's whole trace, the AUXTRACE buffers joined */
	u8 *trace[FP_NR_CPUS];
	size_t trace_len[FP_NR_CPUS];
};

/*
 * Writes DIR/perf.data (replacing a recording there), DIR/truth.txt and
 * DIR/branches.txt; @dir must exist.  0 or -errno; @out (may be NULL) gets
 * the counts, and the truth with @o->keep_truth (fixture_pt__exit() frees).
 */
int fixture_pt__write(const char *dir, const struct fixture_pt_opts *o, struct fixture_pt *out);
void fixture_pt__exit(struct fixture_pt *fp);

/* in a fresh temporary directory, truth kept; NULL + errno */
struct fixture_pt *fixture_pt__new(const struct fixture_pt_opts *o);
void fixture_pt__delete(struct fixture_pt *fp);

/*
 * perf textpoke test --write-fixture pt-{start,end,none}[:NINSN][,noindex] DIR.
 * @argv[0] is "--write-fixture".  Returns the exit status; -ENOENT when
 * @argv[1] names no PT fixture (another generator's, then).
 */
int fixture_pt__main(int argc, char **argv);

#endif /* __PERF_TEXTPOKE_TESTS_FIXTURE_PT_H */
