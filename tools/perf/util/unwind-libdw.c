// SPDX-License-Identifier: GPL-2.0-only
/*
 * DWARF unwinding of user stacks with elfutils' libdw (see unwind.h).
 *
 * Stock perf begins a Dwfl per sample and reports every object again,
 * so each sample re-reads ELF headers and CFI.  Here a Dwfl lives per
 * process address space (struct maps) and ABI, for the whole session:
 * libdw caches each module's CFI, and the thread callbacks read the
 * sample being unwound through the walk's context.  Modules are
 * reported as the unwind reaches them.  A module no longer where the
 * maps say (the process unmapped it and mapped something else there)
 * drops the whole Dwfl, which is rebuilt for the sample.
 *
 * The ABI word decides the target, not the ELF class of the first
 * object: libdw picks its backend from the first module it is given,
 * so the module holding the sample's IP is reported first, and a
 * 64-bit object is never given to a 32-bit task's Dwfl.  For a 32-bit
 * task every address is cut to 32 bits and every memory read is 4
 * bytes, zero-extended: libdw's i386 backend evaluates CFA expressions
 * (main's, with a realigned stack) on full words otherwise.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <stdio.h>
#include <unistd.h>

#include "build-id.h"
#include "debug.h"
#include "dso-data.h"
#include "dso.h"
#include "event.h"
#include "header.h"
#include "machine.h"
#include "map.h"
#include "thread.h"
#include "unwind.h"

bool unwind__sample_has_stack(u64 sample_type, const struct perf_sample *sample)
{
	/* perf's stack size is dyn_size: a dump the kernel copied nothing into is no stack */
	return (sample_type & PERF_SAMPLE_REGS_USER) && (sample_type & PERF_SAMPLE_STACK_USER) &&
	       sample->user_regs.regs && sample->user_regs.abi && sample->user_stack.size &&
	       sample->user_stack.dyn_size;
}

#ifdef HAVE_LIBDW
#include <dwarf.h>
#include <elfutils/libdwfl.h>

/* perf's bit numbers (asm/perf_regs.h) */
enum {
	REG_AX,
	REG_BX,
	REG_CX,
	REG_DX,
	REG_SI,
	REG_DI,
	REG_BP,
	REG_SP,
	REG_IP,
	REG_R8 = 16,
};

/* DWARF register n of x86_64 is perf's bit dwarf64[n]; 16, the return address, is IP */
static const u8 dwarf64[17] = {
    REG_AX,	REG_DX,	    REG_CX,	REG_BX,	    REG_SI,	REG_DI,
    REG_BP,	REG_SP,	    REG_R8,	REG_R8 + 1, REG_R8 + 2, REG_R8 + 3,
    REG_R8 + 4, REG_R8 + 5, REG_R8 + 6, REG_R8 + 7, REG_IP,
};

/* i386: eax ecx edx ebx esp ebp esi edi, then eip (8, the return address) */
static const u8 dwarf32[9] = {
    REG_AX, REG_CX, REG_DX, REG_BX, REG_SP, REG_BP, REG_SI, REG_DI, REG_IP,
};

/* the frames a walk keeps before it gives up: perf's own limit */
#define UNWIND_MAX_FRAMES CALLCHAIN_MAX_STACK

/* one process address space and ABI: its Dwfl, kept for the session */
struct uw_rule;

struct uw_space {
	struct maps *maps; /* a reference: the key cannot be reused while cached */
	bool is32;
	Dwfl *dwfl;
	bool attached;
	struct uw_rule *rules; /* the fast path's cache, by pc */
	int has_object;	       /* a mapped object file is readable: 1, 0, -1 not known yet */
	size_t object_maps;    /* how many maps there were when it was 0: more may change it */
	struct uw_space *next;
};

/* the sample being unwound, as the callbacks see it */
struct uw_walk {
	struct unwinder *uw;
	struct uw_space *space;
	struct thread *thread;
	const struct perf_sample *sample;
	u64 regs[24]; /* by perf bit; valid[] says which were sampled */
	bool valid[24];
	u64 sp;	       /* the sampled stack pointer: the dump starts there */
	u64 stack_len; /* bytes of the dump that hold stack */
	bool is32;
	bool stale;	/* a module moved: the Dwfl must be rebuilt */
	bool bad_stack; /* a read outside the dump and every map */
	u64 frames[UNWIND_MAX_FRAMES];
	size_t nr_frames;
	unsigned int max_frames;
	u64 last_sp;
	bool have_last_sp;
	bool looped;
	bool prev_activation; /* the frame before was an exact pc, not the initial one */
};

#define UW_HASH 64

struct unwinder {
	struct uw_space *spaces[UW_HASH];
	struct dso_data *files; /* code bytes outside the stack dump */
	struct uw_walk *walk;	/* the walk under way: the Dwfl callbacks' context */
	struct unwind_stats stats;
};

/*
 * No separate debuginfo: the CFI is the object's own .eh_frame and
 * .debug_frame, and nothing may be fetched from the network
 * (debuginfod) in the middle of a listing.
 */
static int uw__find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
			      Dwarf_Addr base, const char *file_name, const char *debuglink_file,
			      GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	return -1;
}

static const Dwfl_Callbacks uw_callbacks = {
    .find_elf = NULL,
    .find_debuginfo = uw__find_debuginfo,
};

struct unwinder *unwinder__new(void)
{
	struct unwinder *uw = calloc(1, sizeof(*uw));

	if (!uw)
		return NULL;
	uw->files = dso_data__new();
	if (!uw->files) {
		free(uw);
		return NULL;
	}
	return uw;
}

static void uw_space__delete(struct uw_space *sp)
{
	free(sp->rules);
	if (sp->dwfl)
		dwfl_end(sp->dwfl);
	maps__put(sp->maps);
	free(sp);
}

void unwinder__delete(struct unwinder *uw)
{
	if (!uw)
		return;
	for (size_t i = 0; i < UW_HASH; i++) {
		while (uw->spaces[i]) {
			struct uw_space *next = uw->spaces[i]->next;

			uw_space__delete(uw->spaces[i]);
			uw->spaces[i] = next;
		}
	}
	dso_data__delete(uw->files);
	free(uw);
}

const struct unwind_stats *unwinder__stats(const struct unwinder *uw)
{
	return &uw->stats;
}

static size_t uw__hash(const struct maps *maps, bool is32)
{
	return (((uintptr_t)maps >> 4) ^ is32) & (UW_HASH - 1);
}

static struct uw_space *unwinder__space(struct unwinder *uw, struct maps *maps, bool is32)
{
	size_t h = uw__hash(maps, is32);
	struct uw_space *sp;

	for (sp = uw->spaces[h]; sp; sp = sp->next)
		if (sp->maps == maps && sp->is32 == is32)
			return sp;
	sp = calloc(1, sizeof(*sp));
	if (!sp)
		return NULL;
	sp->maps = maps__get(maps);
	sp->is32 = is32;
	sp->has_object = -1;
	sp->next = uw->spaces[h];
	uw->spaces[h] = sp;
	return sp;
}

/* forget the space's Dwfl: its modules no longer match the maps */
static void uw_space__reset(struct uw_space *sp)
{
	free(sp->rules);
	sp->rules = NULL;
	if (sp->dwfl)
		dwfl_end(sp->dwfl);
	sp->dwfl = NULL;
	sp->attached = false;
}

static u64 uw__addr(const struct uw_walk *w, u64 addr)
{
	return w->is32 ? (u32)addr : addr;
}

/* the ELF class an object file or image says, 0 when it is not ELF */
static int elf_class_of(const u8 *ident, size_t len)
{
	if (len < EI_NIDENT || memcmp(ident, ELFMAG, SELFMAG))
		return 0;
	return ident[EI_CLASS];
}

/*
 * A file descriptor on the vdso's image, which libdw can only take as a
 * file: an unlinked memory file.
 */
static int uw__image_fd(const struct dso *dso)
{
	int fd = memfd_create("perf-textpoke-vdso", MFD_CLOEXEC);
	size_t off = 0;

	if (fd < 0)
		return -errno;
	while (off < dso->image_size) {
		ssize_t n = write(fd, dso->image + off, dso->image_size - off);

		if (n <= 0) {
			close(fd);
			return n < 0 ? -errno : -EIO;
		}
		off += n;
	}
	return fd;
}

/*
 * Make the module holding @pc known to the walk's Dwfl (creating the Dwfl
 * when it has none): 0, or -ENOENT when no object file backs @pc.
 */
static int uw__report(struct uw_walk *w, u64 pc)
{
	struct uw_space *sp = w->space;
	struct addr_location al;
	Dwfl_Module *mod = NULL;
	struct dso *dso;
	u64 base;
	int fd = -1, err = -ENOENT;
	const char *path = NULL;
	u8 ident[EI_NIDENT];
	bool elf64;

	addr_location__init(&al);
	/* most frames are in a module reported already: check that first */
	if (sp->dwfl) {
		struct map *map = maps__find(w->thread->maps, pc);

		mod = map ? dwfl_addrmodule(sp->dwfl, pc) : NULL;
		if (mod) {
			Dwarf_Addr start;

			dwfl_module_info(mod, NULL, &start, NULL, NULL, NULL, NULL, NULL);
			if (start == map->start - map->pgoff)
				return 0;
		}
	}
	/* as perf does: the lookup loads the object's symbols (and a vdso's image) */
	thread__find_symbol(w->thread, PERF_RECORD_MISC_USER, pc, w->sample->time, &al);
	if (!al.map || !al.map->dso)
		goto out;
	dso = al.map->dso;
	base = al.map->start - al.map->pgoff;
	if (sp->dwfl) {
		mod = dwfl_addrmodule(sp->dwfl, pc);
		if (mod) {
			Dwarf_Addr start;

			dwfl_module_info(mod, NULL, &start, NULL, NULL, NULL, NULL, NULL);
			if (start == base) {
				err = 0;
				goto out;
			}
			/* something else is mapped there now */
			w->stale = true;
			err = -ESTALE;
			goto out;
		}
	}
	switch (dso->kind) {
	case DSO_KIND__USER:
		path = dso__runtime_path(dso);
		if (!path)
			goto out;
		if (dso_data__read(w->uw->files, dso, path, 0, ident, sizeof(ident), &elf64) !=
		    (ssize_t)sizeof(ident))
			goto out;
		break;
	case DSO_KIND__VDSO:
		/* the build-id cache's copy its symbols came from, else the image read from memory */
		if (!dso->image && dso->symsrc) {
			path = dso->symsrc;
			if (dso_data__read(w->uw->files, dso, path, 0, ident, sizeof(ident),
					   &elf64) != (ssize_t)sizeof(ident))
				goto out;
			break;
		}
		if (!dso->image || dso->image_size < EI_NIDENT)
			goto out;
		memcpy(ident, dso->image, EI_NIDENT);
		fd = uw__image_fd(dso);
		if (fd < 0)
			goto out;
		break;
	default:
		goto out;
	}
	/* the task's ABI decides: a 32-bit task's Dwfl never gets a 64-bit object, nor the reverse */
	if (elf_class_of(ident, sizeof(ident)) != (w->is32 ? ELFCLASS32 : ELFCLASS64)) {
		if (fd >= 0)
			close(fd);
		goto out;
	}
	if (!sp->dwfl) {
		sp->dwfl = dwfl_begin(&uw_callbacks);
		if (!sp->dwfl) {
			if (fd >= 0)
				close(fd);
			err = -ENOMEM;
			goto out;
		}
	}
	dwfl_report_begin_add(sp->dwfl);
	/* the fd, when given, is the library's from here on */
	mod = dwfl_report_elf(sp->dwfl, dso->short_name, path ?: dso->name, fd, base, false);
	dwfl_report_end(sp->dwfl, NULL, NULL);
	if (!mod)
		goto out;
	w->uw->stats.nr_objects_open++;
	err = 0;
out:
	if (err == -ENOENT)
		w->uw->stats.nr_no_object++;
	addr_location__exit(&al);
	return err;
}

/*
 * Would perf read a [vdso]'s ELF class: its own vdso stands in for one
 * recorded without a build-id; one with a build-id must be in the
 * build-id cache
 */
static int uw__vdso_readable(const struct dso *dso)
{
	char *dir, *path = NULL;
	int ok = 0;

	if (!dso->bid.size || dso->image || dso->symsrc)
		return 1;
	dir = build_id_cache__dir(&dso->bid);
	if (dir && asprintf(&path, "%s/elf", dir) >= 0)
		ok = !access(path, R_OK);
	free(path);
	free(dir);
	return ok;
}

/*
 * The sample's IP is in no object file (JIT code in an anonymous map):
 * perf still gives that one frame when its unwinder is set up for the
 * process (unwind__prepare_access()): at once when the recording names
 * no arch, else at the first map whose object's ELF class it can read,
 * its own vdso standing in for a [vdso] recorded without a build-id.  A process with neither (a
 * recording from elsewhere, all its objects missing) gets no frame.
 */
static bool uw_walk__ip_alone(struct uw_walk *w)
{
	const struct perf_env *env = machine__env(w->thread->machine);
	struct uw_space *sp = w->space;
	struct maps *maps = w->thread->maps;

	if (sp->has_object < 0 || (!sp->has_object && sp->object_maps != maps->nr)) {
		sp->object_maps = maps->nr;
		sp->has_object = !env || !env->arch;
		for (size_t i = 0; i < maps->nr && !sp->has_object; i++) {
			struct dso *dso = maps->entries[i]->dso;

			if (dso && dso->kind == DSO_KIND__VDSO) {
				sp->has_object = uw__vdso_readable(dso);
				continue;
			}
			if (!dso || dso->kind != DSO_KIND__USER)
				continue;
			sp->has_object = dso__runtime_path(dso) != NULL;
		}
	}
	/* an IP in no map at all (an exec under way) gets nothing from perf either */
	if (!sp->has_object || !maps__find(maps, uw__addr(w, w->regs[REG_IP])))
		return false;
	w->frames[w->nr_frames++] = uw__addr(w, w->regs[REG_IP]);
	return true;
}

/* --- the thread callbacks: one thread, the sampled one ------------------ */

static pid_t uw__next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	return 0;
}

static bool uw__get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
	struct unwinder *uw = arg;

	*thread_argp = uw->walk;
	return uw->walk != NULL;
}

/*
 * A word of the task's memory: from the stack dump when @addr is in it,
 * else from the object file mapped there (code and read-only data as
 * they are on disk).  Anything else ends the chain.
 */
static bool uw_walk__read(struct uw_walk *w, u64 addr, u64 *result);

static bool uw__memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct unwinder *uw = arg;
	u64 v;

	if (!uw->walk || !uw_walk__read(uw->walk, addr, &v))
		return false;
	*result = v;
	return true;
}

static bool uw_walk__read(struct uw_walk *w, u64 addr, u64 *result)
{
	struct unwinder *uw = w->uw;
	size_t word = w->is32 ? 4 : 8;
	struct map *map;
	u64 off;
	u8 buf[8];
	bool elf64;
	const char *path;
	ssize_t n;

	addr = uw__addr(w, addr);
	memset(buf, 0, sizeof(buf));
	if (addr >= w->sp && addr - w->sp <= w->stack_len &&
	    w->stack_len - (addr - w->sp) >= word) {
		memcpy(buf, w->sample->user_stack.data + (addr - w->sp), word);
		memcpy(result, buf, 8);
		return true;
	}
	map = maps__find(w->thread->maps, addr);
	if (!map || !map->dso || map->dso->kind != DSO_KIND__USER || map->end - addr < word)
		goto bad;
	path = dso__runtime_path(map->dso);
	if (!path)
		goto bad;
	off = addr - map->start + map->pgoff;
	n = dso_data__read(uw->files, map->dso, path, off, buf, word, &elf64);
	if (n != (ssize_t)word)
		goto bad;
	memcpy(result, buf, 8);
	return true;
bad:
	w->bad_stack = true;
	return false;
}

static bool uw__set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct uw_walk *w = arg;
	const u8 *map = w->is32 ? dwarf32 : dwarf64;
	size_t nr = w->is32 ? ARRAY_SIZE(dwarf32) : ARRAY_SIZE(dwarf64);

	for (size_t i = 0; i < nr; i++) {
		Dwarf_Word v;

		/* a register not sampled, or unknown (-1 in a kernel-mode sample), stays unset */
		if (!w->valid[map[i]])
			continue;
		v = uw__addr(w, w->regs[map[i]]);
		if (!dwfl_thread_state_registers(thread, i, 1, &v))
			return false;
	}
	dwfl_thread_state_register_pc(thread, uw__addr(w, w->regs[REG_IP]));
	return true;
}

static const Dwfl_Thread_Callbacks uw_thread_callbacks = {
    .next_thread = uw__next_thread,
    .get_thread = uw__get_thread,
    .memory_read = uw__memory_read,
    .set_initial_registers = uw__set_initial_registers,
};

/*
 * Keep frame @ip, whose stack pointer is @sp when @sp_known; false when
 * the walk ends here: the chain is full, or the frame did not move the
 * stack up (one that does not would repeat forever), which drops it.
 */
static bool uw_walk__push(struct uw_walk *w, u64 ip, u64 sp, bool sp_known)
{
	if (sp_known) {
		if (w->have_last_sp && (sp < w->last_sp || (sp == w->last_sp && w->nr_frames &&
							    w->frames[w->nr_frames - 1] == ip))) {
			w->looped = true;
			return false;
		}
		w->last_sp = sp;
		w->have_last_sp = true;
	}
	w->frames[w->nr_frames++] = ip;
	return w->nr_frames < w->max_frames;
}

static int uw__frame(Dwfl_Frame *state, void *arg)
{
	struct uw_walk *w = arg;
	unsigned int sp_reg = w->is32 ? 4 : 7;
	Dwarf_Addr pc;
	Dwarf_Word sp = 0;
	bool activation, known;
	int err;

	if (!dwfl_frame_pc(state, &pc, NULL))
		return DWARF_CB_ABORT;
	pc = uw__addr(w, pc);
	if (!pc)
		return DWARF_CB_ABORT;
	/*
	 * The next step reads the CFI of the module holding pc: report it
	 * first.  Without the object of the sample's own IP stock perf
	 * gives no user frame at all: nor do we.
	 */
	err = uw__report(w, pc);
	if (err == -ESTALE)
		return DWARF_CB_ABORT;
	if (err && !w->nr_frames) {
		uw_walk__ip_alone(w);
		return DWARF_CB_ABORT;
	}
	if (!dwfl_frame_pc(state, &pc, &activation))
		return DWARF_CB_ABORT;
	pc = uw__addr(w, pc);
	/*
	 * libdwfl calls both a signal trampoline and the frame it
	 * interrupted exact pcs; perf prints the trampoline as a caller
	 * (one byte back), the interrupted frame exact
	 */
	if (w->nr_frames) {
		bool trampoline = activation && !w->prev_activation;

		w->prev_activation = activation;
		if (trampoline)
			activation = false;
	}
	known = dwfl_frame_reg(state, sp_reg, &sp) == 0;
	return uw_walk__push(w, activation ? pc : pc - 1, uw__addr(w, sp), known) ? DWARF_CB_OK :
										    DWARF_CB_ABORT;
}

/* the sampled registers by perf bit; false when IP or SP is missing */
static bool uw_walk__regs(struct uw_walk *w)
{
	const struct regs_dump *r = &w->sample->user_regs;
	size_t idx = 0;

	for (unsigned int bit = 0; bit < 64; bit++) {
		if (!(r->mask & (1ULL << bit)))
			continue;
		if (bit < ARRAY_SIZE(w->regs)) {
			w->regs[bit] = r->regs[idx];
			w->valid[bit] = r->regs[idx] != (u64)-1;
		}
		idx++;
	}
	return w->valid[REG_IP] && w->valid[REG_SP];
}

/* --- the fast path: simple CFI rules, kept per pc ----------------------- */

/*
 * libdwfl allocates a state per frame and evaluates the CFI's DWARF
 * expressions at every frame: most of the unwinding time.  The CFI of
 * compiled code is a handful of rules -- the CFA is a register plus an
 * offset, each saved register is at (or is) the CFA plus an offset --
 * the same at every visit of a pc.  They are taken from libdw once per
 * pc and kept.  A pc whose rules are anything else (an expression, a
 * signal frame, no CFI, where libdwfl falls back to the frame pointer)
 * sends the whole sample down libdwfl's way, so that both ways give
 * the same chains.
 */
enum { UW_UNDEF, UW_SAME, UW_AT_CFA, UW_VAL_CFA };

#define UW_NREGS 17 /* x86_64's, the return address (16) included; i386 has 9 */
#define UW_RULES 1024

struct uw_rule {
	u64 pc; /* the address looked up, 0: an empty slot */
	bool simple;
	u8 cfa_reg;
	s64 cfa_off;
	u8 how[UW_NREGS];
	s64 off[UW_NREGS];
};

/* the CFA as "register + offset" (one of the ABI's @nregs), the only form kept */
static bool uw_rule__cfa(struct uw_rule *r, Dwarf_Frame *frame, unsigned int nregs)
{
	Dwarf_Op *ops;
	size_t nops;

	if (dwarf_frame_cfa(frame, &ops, &nops) || nops != 1)
		return false;
	if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31) {
		r->cfa_reg = ops[0].atom - DW_OP_breg0;
		r->cfa_off = (s64)ops[0].number;
	} else if (ops[0].atom == DW_OP_bregx) {
		r->cfa_reg = ops[0].number;
		r->cfa_off = (s64)ops[0].number2;
	} else {
		return false;
	}
	return r->cfa_reg < nregs;
}

/* one register's rule: undefined, same value, or at / equal to CFA + offset */
static bool uw_rule__reg(struct uw_rule *r, Dwarf_Frame *frame, unsigned int regno)
{
	Dwarf_Op mem[3], *ops;
	size_t nops, i = 1;

	if (dwarf_frame_register(frame, regno, mem, &ops, &nops)) {
		r->how[regno] = UW_UNDEF; /* libdwfl leaves it unset */
		return true;
	}
	if (!nops) {
		if (ops && ops != mem)
			return false;
		r->how[regno] = ops ? UW_UNDEF : UW_SAME;
		return true;
	}
	if (ops[0].atom != DW_OP_call_frame_cfa)
		return false;
	r->off[regno] = 0;
	if (i < nops && ops[i].atom == DW_OP_plus_uconst) {
		r->off[regno] = (s64)ops[i].number;
		i++;
	} else if (i + 1 < nops && (ops[i].atom == DW_OP_consts || ops[i].atom == DW_OP_constu) &&
		   (ops[i + 1].atom == DW_OP_plus || ops[i + 1].atom == DW_OP_minus)) {
		r->off[regno] =
		    ops[i + 1].atom == DW_OP_plus ? (s64)ops[i].number : -(s64)ops[i].number;
		i += 2;
	}
	r->how[regno] = UW_AT_CFA;
	if (i < nops && ops[i].atom == DW_OP_stack_value) {
		r->how[regno] = UW_VAL_CFA;
		i++;
	}
	return i == nops;
}

/*
 * A callee-saved register the CFI gives no rule keeps its value (the
 * psABIs; libunwind, stock perf's unwinder, starts every register so).
 * libdw cannot tell "no rule" from DW_CFA_undefined, and elfutils 0.188's
 * x86-64 defaults mark DWARF register 0 same-value where they mean rbx
 * (3), so rbx comes back undefined wherever a function has not saved it
 * yet: a caller whose CFA is rbx + N (glibc's _dl_runtime_resolve_xsavec,
 * which realigns the stack, under _dl_fixup's first instructions) ended
 * the chain.  The return address is no callee-saved register: undefined
 * there still ends the chain, as _start's CFI asks.  libdwfl's own walk
 * (signal frames, CFI expressions) keeps libdw's defaults.
 */
static void uw_rule__callee_saved(struct uw_rule *r, bool is32)
{
	static const u8 saved64[] = {3, 6, 12, 13, 14, 15}; /* rbx rbp r12-r15 */
	static const u8 saved32[] = {3, 5, 6, 7};	    /* ebx ebp esi edi */
	const u8 *saved = is32 ? saved32 : saved64;
	size_t n = is32 ? ARRAY_SIZE(saved32) : ARRAY_SIZE(saved64);

	for (size_t i = 0; i < n; i++)
		if (r->how[saved[i]] == UW_UNDEF)
			r->how[saved[i]] = UW_SAME;
}

static void uw_rule__build(struct uw_walk *w, Dwfl_Module *mod, u64 lookup, struct uw_rule *r)
{
	unsigned int nregs = w->is32 ? ARRAY_SIZE(dwarf32) : ARRAY_SIZE(dwarf64);
	Dwarf_Frame *frame = NULL;
	Dwarf_CFI *cfi;
	Dwarf_Addr bias;
	bool signal;

	memset(r, 0, sizeof(*r));
	r->pc = lookup;
	/* libdwfl's order: .eh_frame, then .debug_frame */
	cfi = dwfl_module_eh_cfi(mod, &bias);
	if (!cfi || dwarf_cfi_addrframe(cfi, lookup - bias, &frame)) {
		frame = NULL;
		cfi = dwfl_module_dwarf_cfi(mod, &bias);
		if (!cfi || dwarf_cfi_addrframe(cfi, lookup - bias, &frame))
			return;
	}
	if (dwarf_frame_info(frame, NULL, NULL, &signal) != (int)nregs - 1 || signal ||
	    !uw_rule__cfa(r, frame, nregs))
		goto out;
	for (unsigned int regno = 0; regno < nregs; regno++)
		if (!uw_rule__reg(r, frame, regno))
			goto out;
	uw_rule__callee_saved(r, w->is32);
	r->simple = true;
out:
	free(frame);
}

static struct uw_rule *uw_walk__rule(struct uw_walk *w, Dwfl_Module *mod, u64 lookup)
{
	struct uw_space *sp = w->space;
	struct uw_rule *r;

	if (!sp->rules) {
		sp->rules = calloc(UW_RULES, sizeof(*sp->rules));
		if (!sp->rules)
			return NULL;
	}
	r = &sp->rules[((lookup * 0x9e3779b97f4a7c15ULL) >> 32) & (UW_RULES - 1)];
	if (r->pc != lookup || !lookup)
		uw_rule__build(w, mod, lookup, r);
	return r;
}

/*
 * The chain from the sampled registers by the kept rules: 0, -ESTALE as
 * uw__report() says, or -EAGAIN when libdwfl must take the sample.
 */
static int uw_walk__fast(struct uw_walk *w)
{
	unsigned int nregs = w->is32 ? ARRAY_SIZE(dwarf32) : ARRAY_SIZE(dwarf64);
	unsigned int ra = nregs - 1, spr = w->is32 ? 4 : 7;
	const u8 *map = w->is32 ? dwarf32 : dwarf64;
	u64 val[UW_NREGS] = {0}, next[UW_NREGS] = {0}, pc;
	bool known[UW_NREGS] = {false}, next_known[UW_NREGS] = {false};
	int err;

	for (unsigned int i = 0; i < nregs; i++) {
		known[i] = w->valid[map[i]];
		val[i] = uw__addr(w, w->regs[map[i]]);
	}
	pc = uw__addr(w, w->regs[REG_IP]);
	for (bool first = true;; first = false) {
		u64 fip = first ? pc : pc - 1, cfa;
		struct uw_rule *r;
		Dwfl_Module *mod;

		if (!pc)
			return 0;
		err = uw__report(w, pc);
		if (err == -ESTALE)
			return err;
		if (err && !w->nr_frames) {
			uw_walk__ip_alone(w);
			return 0;
		}
		if (err)
			return -EAGAIN;
		if (!uw_walk__push(w, fip, val[spr], known[spr]))
			return 0;
		mod = dwfl_addrmodule(w->space->dwfl, fip);
		r = mod ? uw_walk__rule(w, mod, fip) : NULL;
		if (!r || !r->simple)
			return -EAGAIN;
		/* the CFA cannot be found: libdwfl would end the chain with an error here */
		if (!known[r->cfa_reg])
			return 0;
		cfa = uw__addr(w, val[r->cfa_reg] + r->cfa_off);
		for (unsigned int i = 0; i < nregs; i++) {
			next_known[i] = true;
			switch (r->how[i]) {
			case UW_UNDEF:
				next_known[i] = false;
				break;
			case UW_SAME:
				next[i] = val[i];
				next_known[i] = known[i];
				break;
			case UW_AT_CFA:
				next_known[i] = uw_walk__read(w, cfa + r->off[i], &next[i]);
				break;
			case UW_VAL_CFA:
				next[i] = uw__addr(w, cfa + r->off[i]);
				break;
			}
		}
		/* an undefined return address ends the chain (_start's CFI says so) */
		if (!next_known[ra])
			return 0;
		memcpy(val, next, sizeof(val));
		memcpy(known, next_known, sizeof(known));
		pc = uw__addr(w, val[ra]);
	}
}

static int unwinder__attempt(struct unwinder *uw, struct uw_walk *w)
{
	struct uw_space *sp = w->space;
	int err;

	if (!sp->dwfl || !sp->attached) {
		/* the IP's module first: it tells libdw which backend to use */
		err = uw__report(w, uw__addr(w, w->regs[REG_IP]));
		if (err == -ENOENT)
			uw_walk__ip_alone(w);
		if (err)
			return err;
		if (!dwfl_attach_state(sp->dwfl, NULL, thread__pid(w->thread) ?: 1,
				       &uw_thread_callbacks, uw)) {
			pr_debug("unwind: %s\n", dwfl_errmsg(-1));
			uw_space__reset(sp);
			return -EINVAL;
		}
		sp->attached = true;
	}
	err = uw_walk__fast(w);
	if (err != -EAGAIN)
		return err;
	/* libdwfl's way, from the start */
	uw->stats.nr_slow_walks++;
	w->nr_frames = 0;
	w->have_last_sp = false;
	w->looped = false;
	w->bad_stack = false;
	w->prev_activation = false;
	uw->walk = w;
	dwfl_getthread_frames(sp->dwfl, thread__tid(w->thread) ?: 1, uw__frame, w);
	uw->walk = NULL;
	return 0;
}

int unwinder__walk(struct unwinder *uw, struct thread *thread, const struct perf_sample *sample,
		   unsigned int max_stack, int (*cb)(const struct unwind_frame *frame, void *arg),
		   void *arg)
{
	const struct stack_dump *st = &sample->user_stack;
	struct uw_walk *w;
	int err = 0;

	if (!thread || !thread->maps || !sample->user_regs.regs || !st->size || !st->data)
		return -EINVAL;
	if (sample->user_regs.abi != PERF_SAMPLE_REGS_ABI_32 &&
	    sample->user_regs.abi != PERF_SAMPLE_REGS_ABI_64)
		return -EINVAL;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->uw = uw;
	w->thread = thread;
	w->sample = sample;
	w->is32 = sample->user_regs.abi == PERF_SAMPLE_REGS_ABI_32;
	w->max_frames = max_stack && max_stack < UNWIND_MAX_FRAMES ? max_stack : UNWIND_MAX_FRAMES;
	if (!uw_walk__regs(w)) {
		err = -EINVAL;
		goto out;
	}
	w->sp = uw__addr(w, w->regs[REG_SP]);
	/* what the kernel could copy (dyn_size), never more than the dump holds */
	w->stack_len = st->dyn_size && st->dyn_size < st->size ? st->dyn_size : st->size;
	uw->stats.nr_walks++;
	w->space = unwinder__space(uw, thread->maps, w->is32);
	if (!w->space) {
		err = -ENOMEM;
		goto out;
	}
	err = unwinder__attempt(uw, w);
	if (w->stale) {
		/* the process remapped: a new Dwfl, and the sample once more */
		uw_space__reset(w->space);
		w->stale = false;
		w->nr_frames = 0;
		w->have_last_sp = false;
		w->looped = false;
		w->bad_stack = false;
		err = unwinder__attempt(uw, w);
	}
	err = 0;
	if (w->bad_stack || w->looped)
		uw->stats.nr_bad_stack++;
	if (w->nr_frames >= w->max_frames && max_stack)
		uw->stats.nr_max_stack++;
	for (size_t i = 0; i < w->nr_frames && !err; i++) {
		struct unwind_frame f = {.ip = w->frames[i]};

		uw->stats.nr_frames++;
		err = cb(&f, arg);
	}
out:
	free(w);
	return err;
}

#else /* !HAVE_LIBDW */

struct unwinder {
	struct unwind_stats stats;
};

struct unwinder *unwinder__new(void)
{
	return calloc(1, sizeof(struct unwinder));
}

void unwinder__delete(struct unwinder *uw)
{
	free(uw);
}

const struct unwind_stats *unwinder__stats(const struct unwinder *uw)
{
	return &uw->stats;
}

int unwinder__walk(struct unwinder *uw, struct thread *thread, const struct perf_sample *sample,
		   unsigned int max_stack, int (*cb)(const struct unwind_frame *frame, void *arg),
		   void *arg)
{
	return -ENOSYS;
}

#endif /* HAVE_LIBDW */
