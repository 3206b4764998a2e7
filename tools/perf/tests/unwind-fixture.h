/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_TESTS_UNWIND_FIXTURE_H
#define __PERF_TEXTPOKE_TESTS_UNWIND_FIXTURE_H

#include <stddef.h>
#include <sys/types.h>

#include "../util/header.h"
#include "../util/types.h"

struct machine;
struct thread;
struct unwinder;

/*
 * What the unwinder tests on hostile stacks stand on (unwind-hostile.c,
 * the unwind fuzz target): a thread whose only map is the file mapping
 * that holds some of this binary's code, where this process has it, so
 * that the unwinder reads real CFI for real addresses; and a stack dump
 * buffer whose last byte is followed by a PROT_NONE page, so that a read
 * past a sample's bytes crashes, sanitizer or not.
 */
struct unwind_fixture {
	struct perf_env env; /* a kernel that is not this one: nothing resolves through it */
	struct machine *machine;
	struct thread *thread;
	struct unwinder *uw;
	u8 *page; /* two pages: the dump ends where the second, PROT_NONE, starts */
	size_t page_size;
	u64 text_start, text_len; /* the mapping that holds @code */
};

/*
 * A machine with thread @pid named @comm, mapping what maps @code here.
 * 0, -ENOENT when /proc/self/maps shows no file mapping @code, or
 * another -errno; unwind_fixture__exit() in every case.
 */
int unwind_fixture__init(struct unwind_fixture *f, pid_t pid, const char *comm, u64 code);
void unwind_fixture__exit(struct unwind_fixture *f);

/* where a dump of @bytes (at most a page) starts, so that it ends at the guard page */
static inline u8 *unwind_fixture__dump(const struct unwind_fixture *f, size_t bytes)
{
	return f->page + f->page_size - bytes;
}

#endif /* __PERF_TEXTPOKE_TESTS_UNWIND_FIXTURE_H */
