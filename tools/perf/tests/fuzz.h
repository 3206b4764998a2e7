/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_TESTS_FUZZ_H
#define __PERF_TEXTPOKE_TESTS_FUZZ_H

#include <stddef.h>

#include "../util/types.h"

/*
 * Fuzz targets: each takes one input of any content and size and drives
 * one reader with it.  They are compiled into the normal binary, so that
 * the "fuzz corpus: ..." tests replay the checked-in corpus through them
 * (tests/fuzz-corpus.c), and into the libFuzzer programs of make fuzz
 * (tests/fuzz/, whose wrappers abort() on a non-zero return so that
 * libFuzzer keeps the input).
 *
 * Each returns 0, or FUZZ_BUG after printing why when a check of its own
 * failed (a reference model disagreed, a pointer left its record): bad
 * input is never a bug, a crash, leak, hang or huge allocation is.  They
 * write no file (inputs go through memfds and pipes), never exit and free
 * what they allocate, but for state built once per process and dropped by
 * fuzz__cleanup().
 */
#define FUZZ_BUG 1

int fuzz__session(const u8 *data, size_t size);
int fuzz__sample(const u8 *data, size_t size);
int fuzz__textpoke(const u8 *data, size_t size);
int fuzz__kcore(const u8 *data, size_t size);
int fuzz__kallsyms(const u8 *data, size_t size);
int fuzz__unwind(const u8 *data, size_t size);
/* the Intel PT decoder over a text image, on one CPU's hostile AUX data */
int fuzz__intel_pt(const u8 *data, size_t size);

struct fuzz_target {
	const char *name; /* its corpus: tools/perf/tests/fuzz/corpus/<name>/ */
	int (*fn)(const u8 *data, size_t size);
};

extern const struct fuzz_target fuzz_targets[];
extern const size_t nr_fuzz_targets;

/* frees what the targets keep between inputs (the unwinder's machine) */
void fuzz__cleanup(void);

/*
 * An anonymous in-memory file holding @data, and a path that opens it
 * ("/proc/self/fd/N", in @path of @path_size bytes); -errno when memfds
 * are not there.  The caller closes the fd.
 */
int fuzz__memfd(const u8 *data, size_t size, char *path, size_t path_size);

/*
 * Input bytes taken from the front: a harness reads its parameters with
 * these and leaves the rest as the payload.  Past the end they give 0.
 */
struct fuzz_input {
	const u8 *p;
	size_t left;
};

u64 fuzz_input__u64(struct fuzz_input *in, unsigned int bytes);

#endif /* __PERF_TEXTPOKE_TESTS_FUZZ_H */
