/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_TESTS_FIXTURE_H
#define __PERF_TEXTPOKE_TESTS_FIXTURE_H

#include "../util/event.h"
#include "../util/types.h"

/*
 * A small synthetic recording for tests, written with the project's
 * writer into a fresh temporary directory.  What is in it (times in ns):
 *
 *   t=0       kernel MMAP2 [kernel.kallsyms]_text, COMM/MMAP2 of a 64-bit
 *             process (FIXTURE_PID64, /usr/bin/fixture64 at FIXTURE_BIN64)
 *   T0+100    FORK of the 32-bit process (FIXTURE_PID32), T0+150 COMM exec,
 *             T0+200 MMAP2 /usr/lib/fixture32 at FIXTURE_BIN32
 *   T0+1000.. samples: 64-bit user (REGS_USER abi 2), 32-bit user (abi 1),
 *             kernel (abi 0) at the jump label sites
 *   T0+2000   KSYMBOL BPF register prog A at FIXTURE_BPF_ADDR, BPF_EVENT load
 *   T0+2100   sample in prog A
 *   T0+2200   prog A unregistered + BPF_EVENT unload
 *   T0+2300   prog B registered at the same address (address reuse)
 *   T0+2400   sample in prog B
 *   T0+3000   TEXT_POKE jump label 5 bytes: nop5 -> jmp rel32 at FIXTURE_JL5_ADDR
 *   T0+3100   TEXT_POKE jump label 2 bytes: 66 90 -> jmp rel8 at FIXTURE_JL2_ADDR
 *   T0+3200   kernel samples at both sites (now jumps)
 *   T0+4000   both pokes reversed
 *   T0+4100   kernel samples at both sites (nops again)
 *   T0+5000   EXIT of both processes
 * with FINISHED_ROUND records between the phases.  In directory mode
 * perf.data/kcore_dir/{kallsyms,modules} name the kernel sites
 * (FIXTURE_JL5_SYM, FIXTURE_JL2_SYM), as perf record --kcore would, so
 * that stock perf symbolizes them without looking at this machine.  Two events: cpu-clock
 * (samples) and a dummy event carrying the side-band, as perf record
 * does for text_poke/ksymbol tracking.
 */

#define FIXTURE_T0 1000000000ULL
#define FIXTURE_PID64 4242
#define FIXTURE_PID32 4243
#define FIXTURE_BIN64 0x400000ULL
#define FIXTURE_BIN32 0x8048000ULL
#define FIXTURE_KERNEL_START 0xffffffff81000000ULL
#define FIXTURE_JL5_ADDR 0xffffffff81001000ULL
#define FIXTURE_JL2_ADDR 0xffffffff81002000ULL
#define FIXTURE_JL5_SYM "fixture_jl5_site"
#define FIXTURE_JL2_SYM "fixture_jl2_site"
#define FIXTURE_BPF_ADDR 0xffffffffc0001000ULL
#define FIXTURE_BPF_A_LEN 0x100
#define FIXTURE_BPF_B_LEN 0x80
#define FIXTURE_BPF_A_ID 11
#define FIXTURE_BPF_B_ID 12
#define FIXTURE_BPF_A_NAME "bpf_prog_aaaaaaaaaaaaaaaa_prog_a"
#define FIXTURE_BPF_B_NAME "bpf_prog_bbbbbbbbbbbbbbbb_prog_b"
/* x86 user register mask: AX..SS and R8..R15 (DS..GS are refused on x86_64) */
#define FIXTURE_REGS_MASK 0xff0fffULL

extern const u8 fixture_nop5[5];
extern const u8 fixture_jmp32[5]; /* jmp to FIXTURE_JL5_ADDR + 0x80 */
extern const u8 fixture_nop2[2];
extern const u8 fixture_jmp8[2]; /* jmp to FIXTURE_JL2_ADDR + 0x10 */

struct fixture {
	char *dir;  /* temporary directory, removed by fixture__delete() */
	char *path; /* dir/perf.data (a directory in DIRECTORY mode) */
	u64 nr_records[PERF_RECORD_HEADER_MAX]; /* kernel records written, by type */
	int nr_samples_abi[3];			/* samples by REGS_USER abi */
};

/*
 * Leave out KSYMBOL, BPF_EVENT and TEXT_POKE: stock perf 6.1 has no byte
 * swapping for them and fails on other-endian files that hold them.
 */
#define FIXTURE_NO_TEXT_EVENTS (1U << 24)
/* with PERF_WRITER_DIRECTORY: HEADER_DIR_FORMAT, version 0 (one data file) */
#define FIXTURE_DIR_FORMAT (1U << 25)

/*
 * @flags: PERF_WRITER_* (pipe, directory, zstd, swapped) and FIXTURE_*;
 * NULL + errno
 */
struct fixture *fixture__new(unsigned int flags);
void fixture__delete(struct fixture *f);

/* TEXTPOKE_TEST_KEEP=1 in the environment keeps the files (for debugging) */

/* a fresh temporary directory (mkdtemp under $TMPDIR); free() it */
char *fixture__tmpdir(void);
int fixture__rm_rf(const char *path);
/* removes a fixture's directory, or keeps it with TEXTPOKE_TEST_KEEP=1 */
void fixture__remove_dir(const char *dir, const char *what);

/*
 * Run @cmd with sh -c, its stdout and stderr captured (either may be
 * NULL); returns the exit status, or -1 when it did not exit normally.
 */
int fixture__run(const char *cmd, char **out, char **err);
/* stock perf on $PATH (the oracle) */
bool fixture__have_perf(void);
/* occurrences of @needle in @hay */
int fixture__count(const char *hay, const char *needle);

#endif /* __PERF_TEXTPOKE_TESTS_FIXTURE_H */
