/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_MACHINE_H
#define __PERF_TEXTPOKE_MACHINE_H

#include "event.h"
#include "types.h"

struct perf_env;
struct thread;
struct map;
struct dso;
struct symbol;

/*
 * The recorded machine as the records describe it: threads with their
 * user maps, the kernel and its modules, and kernel symbols that come and
 * go over time (KSYMBOL, and ELF objects a kernel MMAP maps, as perf
 * textpoke inject --jit writes them).  Lookups take the time of the
 * sample because an address may hold different objects at different
 * moments.
 */
struct machine;

struct machine *machine__new(struct perf_env *env, const char *kcore_dir);
/* the recording's header, as given to machine__new() (may be NULL) */
const struct perf_env *machine__env(const struct machine *machine);
void machine__delete(struct machine *machine);

/*
 * Kernel symbols from @kallsyms (perf's --kallsyms) or else from @vmlinux
 * (-k): that file only, moved to where the recorded kernel sat, instead of
 * the recording's kallsyms or the running kernel's.  NULL: not given.
 * Before the first lookup; 0 or -ENOMEM.
 */
int machine__set_kernel_symbols(struct machine *machine, const char *kallsyms, const char *vmlinux);

/*
 * Updates the model with one side-band record (MMAP, MMAP2, COMM, FORK,
 * EXIT, KSYMBOL, BPF_EVENT, TEXT_POKE; others are counted and ignored) at
 * @sample->time, the record's id trailer.  0, -EINVAL for a record too
 * short for its type, -ENOMEM.
 */
int machine__process_event(struct machine *machine, union perf_event *event,
			   struct perf_sample *sample);

/* A reference the caller puts with thread__put() */
struct thread *machine__findnew_thread(struct machine *machine, s32 pid, s32 tid);
struct thread *machine__find_thread(struct machine *machine, s32 pid, s32 tid);
/* @fn on every thread the machine holds (the dead ones too), in no order; stops at an error */
int machine__for_each_thread(struct machine *machine, int (*fn)(struct thread *thread, void *arg),
			     void *arg);

struct thread *thread__get(struct thread *thread);
void thread__put(struct thread *thread);
const char *thread__comm_str(const struct thread *thread);
s32 thread__pid(const struct thread *thread);
s32 thread__tid(const struct thread *thread);

/* read the name with symbol__name() (symbol.h): C++ names are demangled on first use */
struct symbol {
	u64 start;  /* object-relative: same space as addr_location.addr */
	u64 end;    /* exclusive */
	u8 binding; /* STB_* */
	u8 type;    /* STT_* */
	/* strlen(name), SYMBOL_NAMELEN_LONG from 0xffff on (see symbol__name_len()) */
	u16 namelen;
	char name[];
};

#define SYMBOL_NAMELEN_LONG 0xffff

/*
 * Where an address is: in which map of which object, at what
 * object-relative address, under which symbol.  References are dropped by
 * addr_location__exit().
 */
struct addr_location {
	struct thread *thread;
	struct map *map;
	struct symbol *sym;
	u64 addr; /* relative to the object (what perf prints for dsos) */
	u8 cpumode;
	u8 filtered;
	s32 cpu;
};

void addr_location__init(struct addr_location *al);
void addr_location__exit(struct addr_location *al);

/*
 * Resolve a sample's IP, its thread (created when unknown, named ":tid")
 * and map, at the sample's time.  al->thread is always set; al->map and
 * al->sym when found.  0, or -ENOMEM.
 */
int machine__resolve(struct machine *machine, struct addr_location *al, struct perf_sample *sample);

/*
 * Resolve one address of @thread as seen in @cpumode at @time (time 0: as
 * of the records processed so far).  Drops what @al held before.  Kernel
 * cpumode looks at KSYMBOL objects and kernel-mapped ELF objects (inject
 * --jit's) alive at @time, then the kernel and its modules; user cpumode
 * at the process's maps; other cpumodes resolve to nothing.  True when a symbol was found; al->map is set whenever a map
 * holds the address.
 */
bool thread__find_symbol(struct thread *thread, u8 cpumode, u64 addr, u64 time,
			 struct addr_location *al);

/*
 * The map that holds @addr for @thread in @cpumode at @time, as
 * thread__find_symbol() finds it but without loading any symbols
 * (inject -b only asks which object was hit).  Borrowed, or NULL.
 */
struct map *thread__find_map(struct thread *thread, u8 cpumode, u64 addr, u64 time);

/*
 * perf's marking of the objects samples hit (for build-ids: inject -b,
 * buildid-list -H): the map of the sample's ip, its dso marked hit.
 * *@newly: that map when its dso was not hit before, else NULL.
 * 0, or -ENOMEM.
 */
int machine__mark_hit(struct machine *machine, const struct perf_sample *sample,
		      struct map **newly);

/*
 * Whether thread__find_symbol() may answer otherwise for the same kernel
 * address at another time: KSYMBOL objects (BPF programs, trampolines)
 * come and go, and a module gone is no answer after it went.  @map is what
 * it found.  The kernel maps' generation: see maps__gen().
 */
bool machine__kernel_by_time(const struct machine *machine, u64 addr, const struct map *map);

/*
 * What thread__find_symbol()'s answer for (@cpumode, @addr) depends on
 * besides them, in two numbers that no other state of the maps has
 * (maps__gen()); false where it depends on the time (a KSYMBOL span, a
 * module freed while recording) or on symbols not loaded yet: an answer
 * kept by these numbers and the address is the lookup's
 */
bool thread__find_gen(const struct thread *thread, u8 cpumode, u64 addr, u64 *gen, u64 *spans);
u64 machine__kmaps_gen(const struct machine *machine);

/*
 * Whether a kernel or module symbol may be named one of @names: false
 * only when the kallsyms text the kernel's symbols would be read from
 * holds none of them as a name, so that a tool that wants those names
 * alone can leave such kernel samples unresolved and the table unread
 * (annotate -s).  A vmlinux (-k) is not searched: true.
 */
bool machine__kallsyms_may_name(struct machine *machine, const char **names, size_t nr);
/*
 * Whether the symbol of kernel address @addr at @time would be one of
 * that kallsyms table's (the kernel's or a module's), not a KSYMBOL
 * object's or a module's loaded while recording
 */
bool machine__kallsyms_names(struct machine *machine, u64 addr, u64 time);
/*
 * Whether kernel address @addr lies in the kernel image's own map (from
 * the kernel MMAP record), where the kernel puts no KSYMBOL object (BPF
 * programs, trampolines and other out-of-line code are allocated in the
 * module or vmalloc area) and no module, and no KSYMBOL object held it at
 * @time (a kernel MMAP written over the module area): so that its symbol
 * is the kernel's table's (machine__kallsyms_names()).  The MMAP's range,
 * whether or not the table is loaded (a load stretches the map over it).
 */
bool machine__kernel_image_has(struct machine *machine, u64 addr, u64 time);

/*
 * The workers of a parallel run read the same side-band, so an object
 * one of them holds, the others hold too: by its name, or, for an object
 * a kernel span made (a KSYMBOL's, whose name two loads of one program
 * share, a module loaded while recording), by its place among the spans.
 * machine__dso_ksym_index(): that place, -1 for an object known by name.
 * machine__lookup_dso(): the object, NULL when there is none such;
 * machine__find_dso(): the same, its symbols loaded.
 */
long machine__dso_ksym_index(struct machine *machine, const struct dso *dso);
/* when a kernel span's object came (its KSYMBOL's time): false for one known by name */
bool machine__dso_ksym_birth(struct machine *machine, const struct dso *dso, u64 *time);
struct dso *machine__lookup_dso(struct machine *machine, const char *name, long ksym_index);
struct dso *machine__find_dso(struct machine *machine, const char *name, long ksym_index);

/*
 * The kernel's symbols read now rather than at the first kernel address
 * resolved, once its map is known: a parallel run's parent reads them
 * once for all its workers.
 */
void machine__preload_kernel(struct machine *machine);

const char *map__dso_name(const struct map *map); /* long name, as perf's dso */
/* map__dso_name() and its length */
const char *map__dso_name_len(const struct map *map, size_t *len);
const char *map__dso_short(const struct map *map); /* basename */
u64 map__start(const struct map *map);
u64 map__end(const struct map *map);
/* object address -> runtime address, for printing symoff and callchains */
u64 map__unmap_ip(const struct map *map, u64 rip);
u64 map__map_ip(const struct map *map, u64 ip);

/*
 * One frame of a sample's callchain, resolved at the sample's time.
 * PERF_CONTEXT_* markers are consumed (they switch cpumode), not reported.
 */
struct callchain_frame {
	u64 ip; /* as recorded */
	u8 cpumode;
	struct addr_location al; /* borrowed: valid during the callback */
	bool unwound;		 /* a user frame unwound from the stack dump */
	/*
	 * thread__walk_sample_chain() only: a function DWARF has inlined
	 * at an unwound frame (perf shows one frame per function there),
	 * NULL for the frame itself; inlined: not the symbol's own name
	 */
	const char *inline_name;
	const char *inline_srcline; /* its line there: "file.c:12", NULL: none */
	bool inlined;
};

/*
 * The address perf script prints for a callchain frame: the object-relative
 * address (al.addr) for user-space objects, the IP as recorded for the
 * kernel, its modules and KSYMBOL objects (BPF, trampolines), and for
 * frames outside every map.
 */
u64 callchain_frame__addr(const struct callchain_frame *frame);

/*
 * Walk @sample's callchain (PERF_SAMPLE_CALLCHAIN) for @thread, calling
 * @cb for each frame, outermost last, in the order perf script prints
 * them.  Stops early and returns @cb's value when it is non-zero.
 */
int thread__walk_callchain(struct thread *thread, struct perf_sample *sample,
			   int (*cb)(struct callchain_frame *frame, void *arg), void *arg);

struct unwinder;

/* perf's default --max-stack: the kernel's default sysctl perf_event_max_stack */
#define CALLCHAIN_MAX_STACK 127

/*
 * A sample's whole chain as perf resolves it, callee first (script's
 * order): an LBR call-stack sample's as thread__walk_lbr_callchain()
 * gives it; else the recorded callchain,
 * then, for a --call-graph dwarf sample (@attr's sample_type has REGS_USER and
 * STACK_USER), the user frames @uw unwinds from the stack dump, each
 * split, with @inlines, into one frame per function DWARF has inlined
 * there (perf's --inline, its default; the recorded chain's frames are
 * whole either way, as perf 6.1 leaves them).  At most
 * @max_stack frames of each part (perf counts them apart; 0: none).
 * @cb's non-zero value stops the walk and is returned.
 */
int thread__walk_sample_chain(struct thread *thread, struct perf_sample *sample,
			      const struct perf_event_attr *attr, struct unwinder *uw,
			      unsigned int max_stack, bool inlines,
			      int (*cb)(struct callchain_frame *frame, void *arg), void *arg);
/*
 * The same, @peek first shown each frame of the recorded chain before it
 * is resolved: 1 when it took the frame whole (a line it printed before
 * for that address in the same maps: thread__find_gen()), which then
 * counts as given; 0 to have it resolved and given to @cb.
 */
typedef int (*callchain_peek_t)(struct thread *thread, u8 cpumode, u64 ip, void *arg);
int thread__walk_sample_chain_peek(struct thread *thread, struct perf_sample *sample,
				   const struct perf_event_attr *attr, struct unwinder *uw,
				   unsigned int max_stack, bool inlines, callchain_peek_t peek,
				   int (*cb)(struct callchain_frame *frame, void *arg), void *arg);

/*
 * What every frame of a recorded @chain resolves by (thread__find_gen()):
 * the user maps' generation, the kernel's and its spans; false where a
 * frame depends on the time, or the chain has a context perf drops it for
 */
struct chain_gen {
	u64 user, kernel, spans;
};
bool thread__chain_gen(const struct thread *thread, const struct ip_callchain *chain,
		       struct chain_gen *g);

/*
 * A --call-graph lbr sample's chain as perf 6.1 builds it: the kernel's
 * frames of the recorded chain, then the user part from the LBR call
 * stack (callchain.c says how, and what @caller changes).  *@handled
 * false: not such a chain, nothing was walked.  @cb's non-zero value
 * stops the walk and is returned.
 */
int thread__walk_lbr_callchain(struct thread *thread, struct perf_sample *sample,
			       const struct perf_event_attr *attr, unsigned int max_stack,
			       bool caller, bool *handled,
			       int (*cb)(struct callchain_frame *frame, void *arg), void *arg);

/* What the side-band records said, counted by machine__process_event() */
struct machine_stats {
	u64 nr_mmap; /* MMAP and MMAP2 */
	u64 nr_comm;
	u64 nr_fork;
	u64 nr_exit;
	u64 nr_ksymbol; /* registrations */
	u64 nr_ksymbol_unregister;
	u64 nr_bpf_event;
	u64 nr_text_poke;
	u64 nr_text_poke_dropped; /* malformed, or past MACHINE_TEXT_POKES_MAX */
	u64 nr_ignored;		  /* record types the model has no use for */
};

const struct machine_stats *machine__stats(const struct machine *machine);

/*
 * The TEXT_POKE records as they came (valid ones), for whoever builds the
 * code image over time.  Kept up to a cap (MACHINE_TEXT_POKES_MAX); past
 * it they are only counted (machine_stats.nr_text_poke_dropped).
 */
struct machine_text_poke {
	u64 time;
	u64 addr;
	u16 old_len;
	u16 new_len;
	const u8 *bytes; /* old_len old bytes, then new_len new bytes */
};

#define MACHINE_TEXT_POKES_MAX (1U << 20)

/*
 * TEXT_POKE records are counted, and kept only when asked for before the
 * first one (inject --snapshot tells the kernel's own pokes from the
 * image's by them)
 */
void machine__set_keep_text_pokes(struct machine *machine, bool keep);
size_t machine__nr_text_pokes(const struct machine *machine);
const struct machine_text_poke *machine__text_poke(const struct machine *machine, size_t idx);

/*
 * A KSYMBOL object, or an ELF object a kernel MMAP mapped, and its life:
 * what the code-change report lists as regions.
 */
#define MACHINE_KSYMBOL_OBJECT 0xffff /* ksym_type of a mapped ELF object */

struct machine_ksymbol {
	u64 start, end;	    /* [start, end) */
	u64 t_start, t_end; /* [t_start, t_end); t_end UINT64_MAX: alive at the end */
	u16 ksym_type;	    /* PERF_RECORD_KSYMBOL_TYPE_*, or MACHINE_KSYMBOL_OBJECT */
	const char *name;   /* valid while the machine lives */
};

/* Calls @fn for each one in registration order; stops at and returns @fn's first non-zero value */
int machine__for_each_ksymbol(const struct machine *machine,
			      int (*fn)(const struct machine_ksymbol *ksym, void *arg), void *arg);

/* The name @thread had at @time (its current one for time 0) */
const char *thread__comm_at(const struct thread *thread, u64 time);

#endif /* __PERF_TEXTPOKE_MACHINE_H */
