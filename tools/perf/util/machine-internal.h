/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_MACHINE_INTERNAL_H
#define __PERF_TEXTPOKE_MACHINE_INTERNAL_H

/*
 * What machine.c (threads, maps, KSYMBOL spans, lookups) and
 * machine-ksyms.c (the kernel's symbol tables) share: the machine itself.
 * Nothing else includes this; the rest of the tree sees machine.h.
 */
#include "machine.h"
#include "module-events.h"
#include "types.h"

#define THREADS_HASH_SIZE 1024
#define KERNEL_MMAP_NAME "[kernel.kallsyms]"
#define TIME_OPEN (~0ULL)

#ifndef PERF_RECORD_MISC_COMM_EXEC
#define PERF_RECORD_MISC_COMM_EXEC (1 << 13)
#endif
#ifndef PERF_RECORD_MISC_MMAP_DATA
#define PERF_RECORD_MISC_MMAP_DATA (1 << 13)
#endif
#define KSYMBOL_FLAG_UNREGISTER 1
/* the ksym_type of a span that is a mapped ELF object, no KSYMBOL */
#define KSYM_TYPE_OBJECT MACHINE_KSYMBOL_OBJECT
/* and of an allocation of a module loaded while recording */
#define KSYM_TYPE_MODULE 0xfffe

/* A KSYMBOL object (or a mapped ELF object) over [start, end) alive during [t_start, t_end) */
struct ksym_span {
	u64 start;
	u64 end;
	u64 t_start;
	u64 t_end;
	u16 ksym_type;
	struct map *map;
};

struct machine {
	struct perf_env *env;
	char *kcore_dir;
	struct thread *threads[THREADS_HASH_SIZE];
	size_t nr_threads;
	struct dsos dsos;
	struct maps *kmaps;	/* the kernel and its modules */
	struct map *kernel_map; /* in kmaps once the kernel MMAP is seen */
	/* that MMAP's range: a load of the kernel's symbols stretches the map */
	u64 kernel_mmap_start, kernel_mmap_end;
	struct dso *kernel_dso;
	struct ksym_span *ksyms;
	size_t nr_ksyms;
	size_t alloc_ksyms;
	/*
	 * machine__dso_ksym_index()'s answers by dso serial, -1: none; made
	 * when first asked, again when spans came since (span_by_serial_nr)
	 */
	long *span_by_serial;
	size_t nr_span_by_serial, span_by_serial_nr;
	u64 ksym_lo, ksym_hi; /* bounds of all spans: most IPs miss them */
	bool kernel_loaded;
	bool running_kernel; /* recorded on the kernel we run on */
	bool env_checked;    /* running_kernel and the kernel build-id are set */
	/* the user's choice of kernel symbols, the only source when set */
	char *kallsyms_name;
	char *vmlinux_name;
	/*
	 * The kernel MMAP's pgoff is the address this symbol had (perf's
	 * ref_reloc_sym, named after "[kernel.kallsyms]"): it ties any
	 * symbol table to where the recorded kernel sat.
	 */
	char kernel_ref[64];
	struct machine_text_poke *pokes;
	size_t nr_pokes, alloc_pokes;
	/* only inject --snapshot reads them: a million pokes cost a copy each */
	bool keep_text_pokes;
	struct machine_stats stats;
	/* modules loaded or freed while recording, and their spans (2 per load, SIZE_MAX: none) */
	struct module_events mods;
	size_t *mod_spans;
	/* thread__find_symbol()'s answers, by the maps' generation and the address */
	struct find_slot *find_cache;
};

/* the recording was made on the kernel this runs on */
bool env__is_running_kernel(const struct perf_env *env);
/* machine-ksyms.c: the kernel's and its modules' symbols, read once */
void machine__load_kernel_symbols(struct machine *machine);
/* @dso's symbols: the kernel's and modules' from kallsyms or a vmlinux, the others' from their files */
void machine__load_dso(struct machine *machine, struct dso *dso);
/* machine.c: the KSYMBOL object at @addr at @time (a BPF program, a trampoline), or NULL */
struct map *machine__find_ksym_map(struct machine *machine, u64 addr, u64 time);

#endif /* __PERF_TEXTPOKE_MACHINE_INTERNAL_H */
