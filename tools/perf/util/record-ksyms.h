/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_RECORD_KSYMS_H
#define __PERF_TEXTPOKE_RECORD_KSYMS_H

#include "event.h"
#include "record-features.h"
#include "types.h"

/*
 * The kernel addresses, beyond the samples' and callchains', whose
 * symbols the trimmed kallsyms copy keeps (record_hits__kernel_ip()):
 * branch targets of poked and trampoline code, trampolines, static call
 * trampolines.
 */

struct bpf_capture;
struct kallsyms_copy;

/* the targets of the direct branches in @len bytes of x86-64 code at @addr */
void record_ksyms__code(struct record_hits *h, const u8 *code, size_t len, u64 addr);
/* a TEXT_POKE record: its site and the targets in its old and new bytes */
void record_ksyms__text_poke(struct record_hits *h, const union perf_event *ev);
/* the targets in every captured BPF JIT image */
void record_ksyms__bpf(struct record_hits *h, struct bpf_capture *cap);
/*
 * From @kcore_dir's kallsyms and kcore: the trampolines (kprobe slot
 * pages, ftrace trampolines, BPF programs and trampolines), the static
 * call trampolines and ftrace's and optprobes' entry code by name, and
 * the targets in the kcore copy's bytes of every trampoline and static
 * call trampoline.  0 or -errno
 * (-ENOENT without a kallsyms copy).
 */
int record_ksyms__kcore_dir(struct record_hits *h, const char *kcore_dir);
/* the same from @kc, @kcore_dir's kallsyms copy already parsed (its kcore is read from there) */
int record_ksyms__kallsyms(struct record_hits *h, const struct kallsyms_copy *kc,
			   const char *kcore_dir);

#endif /* __PERF_TEXTPOKE_RECORD_KSYMS_H */
