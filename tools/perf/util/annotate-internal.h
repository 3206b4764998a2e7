/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_ANNOTATE_INTERNAL_H
#define __PERF_TEXTPOKE_ANNOTATE_INTERNAL_H

#include <stdio.h>

#include "annotate-itrace.h"
#include "annotate.h"
#include "report-filters.h"
#include "types.h"

struct dso;
struct evsel;
struct perf_session;
struct perf_time_interval;
struct annotate_kernel;
struct annotate_ksym;
struct dso_data;
struct symbol;

/* the samples at one byte of a symbol's code */
struct annotate_hits {
	u64 nr;
	u64 period;
};

/*
 * One symbol of one event: the samples whose ip fell in it, by offset
 * into it (perf's sym_hist), as perf annotate counts them.  The symbol
 * belongs to @dso's table, which lives as long as the reference held here.
 */
struct annotate_sym {
	int evsel_idx;
	const char *evsel_name; /* the session's */
	struct dso *dso;	/* a reference */
	struct symbol *sym;
	struct annotate_hits *hits; /* [sym->end - sym->start] */
	u64 nr_samples, period;
	/* kernel code: each sample's time too, for its version (annotate-kernel.c) */
	struct annotate_ksym *ksym;
	/*
	 * a kernel span's object (a KSYMBOL's): its place among them, else
	 * -1, and when it came; set for the sort, where loads of one
	 * program at one address differ by them alone, and for the warning
	 * about one whose code is not known
	 */
	long ksym_index;
	bool has_birth;
	u64 birth;
};

/* what the global percentages are of: the event's samples the filters kept */
struct annotate_totals {
	u64 nr_samples, period;
};

/* one run of perf textpoke annotate: its pass's state (annotate.c) */
struct annotate {
	struct annotate_tool tool; /* first: the callbacks get its address */
	const struct annotate_opts *opts;
	struct perf_session *session;
	struct annotate_sym *syms;
	size_t nr_syms, alloc_syms;
	size_t *slots; /* SIZE_MAX: free */
	size_t nr_slots;
	struct annotate_totals *totals; /* per event */
	size_t nr_totals;
	struct report_filters filter;	   /* --comm, --pid, --tid, -d, -C */
	struct annotate_kernel *kernel;	   /* kernel code per version */
	struct perf_time_interval *ranges; /* --time */
	int nr_ranges;
	/*
	 * -s: whether a kernel symbol may be one asked for (0: not known
	 * yet, 1: may, -1: none), known from the first sample in the kernel
	 * delivered; the answer itself, found before that by a parallel
	 * run's reading of the kernel's symbols (the same: 0, 1, -1)
	 */
	int kernel_wanted;
	int kernel_may_name;
};

/* @sym's histogram for @evsel, made on its first sample; NULL on ENOMEM */
struct annotate_sym *annotate__findnew(struct annotate *a, struct evsel *evsel, struct dso *dso,
				       struct symbol *sym);
/* the totals of the event of index @idx; NULL on ENOMEM */
struct annotate_totals *annotate__totals(struct annotate *a, int idx);

/*
 * A parallel run (session_window__gather()): a worker's state to @fp, and
 * another's read from @fp into @arg's (a struct annotate).  Symbols are
 * named by their object's name and their address, which every worker
 * knows alike.  0 or a negative errno; -ENODATA: the state ends early.
 */
int annotate__send(void *arg, FILE *fp);
int annotate__merge(void *arg, FILE *fp);

/*
 * The code of a user symbol as its object's file holds it, and where the
 * object's PT_LOAD segments put it: perf annotate prints link-time
 * addresses (objdump's), while the symbol tables and samples are kept in
 * file offsets.
 */
#define ANNOTATE_CODE_MAX_LOADS 16

struct kprobe_site;

struct annotate_code {
	u8 *bytes;
	size_t len;
	u64 vaddr; /* of bytes[0] */
	bool elf64;
	size_t nr_loads;
	struct {
		u64 offset, vaddr, size;
	} loads[ANNOTATE_CODE_MAX_LOADS];
	/*
	 * Kernel code (annotate-kernel.c): the kprobe whose instructions
	 * cover @addr in these bytes, *@site its address; false, or NULL,
	 * when none.  Such an instruction is shown as it was (the int3 or
	 * the optimizer's jmp replaced it), tagged, as perf textpoke code
	 * shows it; the bytes stay memory's.
	 */
	bool (*kprobe_at)(void *arg, u64 addr, struct kprobe_site *kp, u64 *site);
	void *kprobe_arg;
};

/*
 * The bytes of @sym of the user object @dso, read with @dd from the file
 * that dso__data_path() names.  0, or -errno: -ENOENT no file, -ENOEXEC
 * not an ELF object that maps the symbol, -ENODATA fewer bytes than the
 * symbol's size, -EFBIG a symbol too large to annotate, -ENOMEM.
 */
int annotate_code__read(struct annotate_code *code, struct dso_data *dd, struct dso *dso,
			struct symbol *sym);
void annotate_code__exit(struct annotate_code *code);
/* a file offset of the object -> its link-time address; false outside the PT_LOADs */
bool annotate_code__vaddr(const struct annotate_code *code, u64 offset, u64 *vaddr);
/* and back */
bool annotate_code__offset(const struct annotate_code *code, u64 vaddr, u64 *offset);

/* an annotated symbol's largest size: perf's histograms are as large */
#define ANNOTATE_SYM_MAX_SIZE (16U << 20)

/* one instruction of an annotated symbol, as every output shows it */
struct annotate_insn {
	u64 offset; /* into the symbol's code */
	u64 addr;   /* its link-time address, objdump's */
	int len;
	u64 nr, period; /* the samples on any of its bytes */
	char text[160]; /* capstone's, branch targets named as objdump names them */
};

/*
 * The instruction at @off of @code (read for @as): capstone's text, or
 * ".byte ..." of the length perf's decoder gives, or a one-byte "(bad)".
 * 0, or -EOPNOTSUPP without capstone.
 */
int annotate_code__insn(const struct annotate_code *code, const struct annotate_sym *as, u64 off,
			struct annotate_insn *insn);
/*
 * Where @code's lines end: perf annotate drops the nops that end a
 * symbol's disassembly (its delete_last_nop()), the padding a kallsyms
 * symbol runs into up to the next one.  0 or -EOPNOTSUPP.
 */
int annotate_code__lines_end(const struct annotate_code *code, const struct annotate_sym *as,
			     u64 *end);
/* the share of @nr samples of @period in @as that --percent-type @type prints */
double annotate_sym__percent(const struct annotate_sym *as, const struct annotate_totals *totals,
			     enum annotate_percent type, u64 nr, u64 period);

/*
 * Print @as as perf annotate --stdio 6.1 does: the header line, its
 * dashes, then each instruction with its share (or count) and address.
 * 0, or -errno when its code cannot be had (nothing printed then).
 */
int annotate_sym__fprintf(const struct annotate_sym *as, const struct annotate_totals *totals,
			  const struct annotate_opts *opts, struct dso_data *dd, FILE *fp);
/* the same with @code given: its bytes, and where they were */
int annotate_code__fprintf(const struct annotate_sym *as, const struct annotate_code *code,
			   const struct annotate_totals *totals, const struct annotate_opts *opts,
			   FILE *fp);

/*
 * Which code a kernel symbol's block shows (annotate-kernel.c works it
 * out once; every output presents it): a version between the pokes that
 * changed the symbol, or a BPF program's load.
 */
struct annotate_version {
	bool bpf;	     /* a BPF program's load, not a version between pokes */
	size_t index, count; /* version index (0: the code the recording started with) of count */
	u64 start, end;	     /* its span in ns: 0 from the start, UINT64_MAX to the end */
	/* the poke that made it (index > 0); the first one when several were at that time */
	struct {
		bool model; /* a JIT image or object coming, not a TEXT_POKE */
		u64 time, addr;
		const u8 *old_bytes, *new_bytes;
		u16 old_len, new_len;
		char old_text[96], new_text[96]; /* what it changed (a TEXT_POKE's) */
		const char *verdict;		 /* the checker's, a TEXT_POKE's */
		size_t nr_more;			 /* other pokes at the same time */
	} poke;
	/* a BPF load: bpf, start and end are its load and unload times */
	u32 bpf_id;
};

/* the text's line above a version's block ("# sym, version 2 of 3: ..."), no newline */
void annotate_version__title(const struct annotate_version *v, const char *name, char *buf,
			     size_t size);

/* what heads a trace's block (annotate-itrace.c) */
struct annotate_trace_head {
	u64 base;   /* where the symbol's first byte is shown */
	int width;  /* of the address column: the symbol's last address */
	bool insns; /* the trace's instructions, else its branches */
	bool exact; /* --itrace=i1: an instruction's period is its executions */
	u64 count;  /* executions (exact), else samples or taken branches */
};

/* one code that ran at one address of a trace's block */
struct annotate_trace_insn {
	const struct annotate_trace_head *head;
	u64 addr, offset;
	const u8 *bytes;
	int len;      /* 0: the decoder did not keep its bytes */
	bool decoded; /* text is capstone's, not "(bad)" or "(bytes not known)" */
	char text[160];
	u64 nr, period;
	double percent;	       /* by --percent-type, as annotate_sym__percent() */
	s64 taken;	       /* times taken, -1: not a branch the trace saw */
	size_t code, nr_codes; /* code k (from 1) of the nr_codes run at addr */
};

/*
 * Where the symbols' blocks go: --stdio's text, --json (annotate-json.c)
 * or --html (annotate-html.c).  The same walk (annotate.c, hottest
 * symbol first, event by event) feeds each; a user symbol's code is
 * read by the writer (sym), a kernel symbol's versions come from
 * annotate-kernel.c's walk (code, once per version) and a trace's lines
 * from annotate-itrace.c's (trace_head, then trace_insn per line).  Each
 * writer walks a block's instructions with annotate_code__insn() and
 * annotate_sym__percent(), as the text does, so no figure is computed
 * twice.
 */
struct annotate_output {
	/* @as's block; 0, or -errno when its code cannot be had (nothing written then) */
	int (*sym)(struct annotate_output *out, const struct annotate_sym *as,
		   const struct annotate_totals *totals, struct dso_data *dd);
	/* a block of @code, @as's samples on it; @ver NULL: the symbol's only code */
	int (*code)(struct annotate_output *out, const struct annotate_sym *as,
		    const struct annotate_code *code, const struct annotate_totals *totals,
		    const struct annotate_version *ver);
	/* a trace's block of @as: its head, each line, its end (NULL: nothing to end) */
	int (*trace_head)(struct annotate_output *out, const struct annotate_sym *as,
			  const struct annotate_totals *totals,
			  const struct annotate_trace_head *h);
	int (*trace_insn)(struct annotate_output *out, const struct annotate_sym *as,
			  const struct annotate_trace_insn *ti);
	int (*trace_end)(struct annotate_output *out, const struct annotate_sym *as);
	/* after the last symbol (NULL: nothing to end) and before any free: 0 or -errno */
	int (*end)(struct annotate_output *out);
	void (*free)(struct annotate_output *out);
	const struct annotate_opts *opts;
	FILE *fp;
	void *priv;
	const char *what; /* "--json": for messages */
	bool quiet;	  /* not the run's first output: what it could not show is said */
};

/* --stdio's blocks: a version's title line, then the code as perf prints it */
int annotate_output__text_code(struct annotate_output *out, const struct annotate_sym *as,
			       const struct annotate_code *code,
			       const struct annotate_totals *totals,
			       const struct annotate_version *ver);
int annotate_output__text_trace_head(struct annotate_output *out, const struct annotate_sym *as,
				     const struct annotate_totals *totals,
				     const struct annotate_trace_head *h);
int annotate_output__text_trace_insn(struct annotate_output *out, const struct annotate_sym *as,
				     const struct annotate_trace_insn *ti);

/* the document's start written to @fp: 0 or -ENOMEM */
int annotate_output__json(struct annotate_output *out, const struct annotate_opts *opts, FILE *fp);
int annotate_output__html(struct annotate_output *out, const struct annotate_opts *opts, FILE *fp);

#endif /* __PERF_TEXTPOKE_ANNOTATE_INTERNAL_H */
