/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_TEXT_IMAGE_H
#define __PERF_TEXTPOKE_TEXT_IMAGE_H

#include <textpoke/textpoke.h>

#include "event.h"
#include "types.h"

/*
 * The recorded machine's kernel code over time: a libtextpoke image fed
 * with
 *  - a starting image: the recording's kcore_dir/kcore, a --kcore DIR
 *    taken at another time, or a --vmlinux (or nothing: then the pokes
 *    alone tell the bytes they touched),
 *  - TEXT_POKE records, in time order, as the kernel made them; ftrace
 *    trampolines and kprobe slots (KSYMBOL OOL) appear with old_len 0
 *    pokes and go with new_len 0 pokes,
 *  - BPF programs' JIT bytes from HEADER_BPF_PROG_INFO, which no record
 *    carries: modelled as an old_len 0 poke when the program loads
 *    (BPF_EVENT PROG_LOAD after its KSYMBOL) and a new_len 0 poke when its
 *    KSYMBOL is unregistered, so that a reused address holds the right
 *    program at each moment,
 *  - the code sections of ELF objects that kernel MMAP/MMAP2 records map
 *    (perf textpoke inject --jit writes one per BPF program or OOL region
 *    version, in place of its KSYMBOL), the same way: old_len 0 pokes at
 *    the MMAP, new_len 0 pokes at a KSYMBOL unregister or another kernel
 *    mapping over them; a file that cannot be read leaves them unknown.
 * Pokes that no kernel map, KSYMBOL or starting image covers at their time
 * are kept (the code may be announced later, or never) and reported.
 *
 * Use: text_image__new(), then for every side-band record in time order
 * text_image__process_event(), then text_image__finish() once the
 * last record is in; reads are valid from then on in any time order.
 * text_image__load() does all of that for a recording.
 */
struct text_image;
struct perf_env;
struct machine;

enum text_image_anchor {
	/* choose the time at which the copy agrees with the most poked sites */
	TEXT_IMAGE_ANCHOR_FIT,
	TEXT_IMAGE_ANCHOR_START, /* a copy taken before the recording */
	TEXT_IMAGE_ANCHOR_END,	 /* a copy taken after it */
	TEXT_IMAGE_ANCHOR_TIME,	 /* a copy taken at .anchor_time */
};

struct text_image_opts {
	/*
	 * Where the starting image comes from.  kcore_dir NULL: the
	 * recording's own (perf.data/kcore_dir) when there is one.
	 */
	const char *kcore_dir;
	bool no_kcore;	      /* ignore every kcore */
	const char *vmlinux;  /* code sections, anchored at the start; and the kernel symbols */
	const char *kallsyms; /* the kernel symbols (over vmlinux's) */
	enum text_image_anchor anchor;
	u64 anchor_time;
	size_t max_bytes; /* the image's memory cap, 0: none */
	/*
	 * Without a kcore or --vmlinux, a vmlinux whose build-id is the
	 * recorded kernel's is looked for where distributions install it
	 * (text_image__find_vmlinux()), below this root ("" or NULL: /).
	 */
	const char *symfs;
	/* text_image__load(): the machine keeps every TEXT_POKE (machine__text_poke()) */
	bool keep_text_pokes;
};

/*
 * The installed vmlinux of the recorded kernel: the BUILD_ID entry of
 * [kernel.kallsyms] matched against /usr/lib/debug/.build-id/, then
 * /usr/lib/debug/boot/vmlinux-<release>, /boot/vmlinux-<release>,
 * /usr/lib/debug/lib/modules/<release>/vmlinux and
 * /lib/modules/<release>/build/vmlinux, each below @symfs.  A malloc'ed
 * path, or NULL when the recording has no kernel build-id or none fits.
 */
char *text_image__find_vmlinux(const struct perf_env *env, const char *symfs);

/* "start", "end", "fit" or a time in ns (or seconds with a '.') into @opts */
int text_image_opts__parse_anchor(struct text_image_opts *opts, const char *str);

/*
 * @env: the recording's features (BPF JIT images), kept by the caller for
 * the image's life; @recording_kcore_dir: the recording's kcore_dir or
 * NULL.  NULL + errno, with an error printed, when a starting image cannot
 * be read.
 */
struct text_image *text_image__new(const struct perf_env *env, const char *recording_kcore_dir,
				   const struct text_image_opts *opts);
void text_image__delete(struct text_image *ti);

/*
 * TEXT_POKE, KSYMBOL and BPF_EVENT records update the image; kernel MMAP
 * and MMAP2 records, KSYMBOLs and the starting image say which addresses
 * are mapped when; the others are ignored.  @machine may be NULL (it is
 * not consulted yet).  0 or -errno (-ENOMEM past the memory cap).
 */
int text_image__process_event(struct text_image *ti, struct machine *machine,
			      union perf_event *event, struct perf_sample *sample);
/* after the last record: anchors a kcore copied during the recording */
int text_image__finish(struct text_image *ti);

/*
 * Reads @path's side-band and returns the finished image; the session's
 * machine stays available through text_image__machine() for symbols.
 */
struct text_image *text_image__load(const char *path, const struct text_image_opts *opts);
/* the machine of a text_image__load()ed recording, NULL otherwise */
struct machine *text_image__machine(struct text_image *ti);
/* the features the image was built with (BPF JIT images) */
const struct perf_env *text_image__env(const struct text_image *ti);

/* As textpoke_image__read(): @len bytes at @addr at @time, @known per byte */
int text_image__read(struct text_image *ti, u64 addr, size_t len, u64 time, u8 *buf, u8 *known);

/*
 * Whether the poke made at @addr at @time is one the image made up, not a
 * TEXT_POKE the kernel reported: a BPF program's JIT image coming or
 * going, an inject --jit object's code mapped or unmapped.
 */
bool text_image__is_model_poke(struct text_image *ti, u64 addr, u64 time);

/*
 * The last poke at or before @time that wrote any of [@addr, @addr + @len)
 * (JIT images of BPF programs are not pokes): true with @poke filled.
 */
bool text_image__poked_before(struct text_image *ti, u64 addr, size_t len, u64 time,
			      struct textpoke_poke *poke);

/*
 * The verdict of the poke made at @addr at @time (TEXTPOKE_UNKNOWN if
 * none).  Before text_image__finish(), reading a pipe in one pass, only
 * the poke just added has one: judged against what the image knew just
 * before it (pre-applied needs the whole recording).
 */
enum textpoke_verdict text_image__verdict(struct text_image *ti, u64 addr, u64 time);
bool text_image__finished(const struct text_image *ti);

struct textpoke_image *text_image__image(struct text_image *ti);

/* A poke no map covered when it was made */
struct text_image_unmapped {
	u64 time;
	u64 addr;
	u16 old_len;
	u16 new_len;
	/*
	 * In x86-64's module space, on a recording whose recorder did not
	 * watch module loads, and no map came there later: most likely a
	 * module loaded while recording (the kernel pokes its jump labels
	 * and static calls as it loads), whose code nobody read
	 */
	bool module_space;
};

struct text_image_stats {
	u64 nr_pokes;	     /* TEXT_POKE records applied */
	u64 nr_pokes_failed; /* refused by the image (memory cap) */
	u64 nr_bpf_loaded;   /* BPF programs whose JIT bytes were known */
	u64 nr_bpf_no_bytes; /* loaded, but HEADER_BPF_PROG_INFO lacks their bytes */
	u64 nr_ool;	     /* KSYMBOL OOL registrations */
	u64 nr_obj_unread;   /* kernel MMAPs of objects whose code could not be read */
	size_t nr_unmapped;
	size_t nr_unmapped_module_space; /* of them, module_space ones */
	const struct text_image_unmapped *unmapped;
	/* the starting image: its file, anchor, and the fit when anchored by fit */
	const char *base_path;
	int nr_base_segments;
	enum textpoke_anchor base_anchor;
	u64 base_time;
	struct textpoke_anchor_fit fit;
	bool fitted;
	/*
	 * A copy anchored range by range: how many pieces, each at a moment
	 * of its own within [pieces_from, pieces_to]
	 */
	size_t nr_pieces;
	u64 pieces_from, pieces_to;
	bool pieces_timed; /* within the read times of kcore_times, not the pass's order */
};

const struct text_image_stats *text_image__stats(const struct text_image *ti);

/* A BPF (sub-)program's life, from its BPF_EVENT load to its KSYMBOL unregister */
struct text_image_bpf_load {
	u32 id;
	u64 addr;
	u32 len; /* 0 when bpf_prog_info lacks its JIT bytes */
	u64 load_time;
	u64 unload_time; /* UINT64_MAX: still loaded at the end */
};

/* every load in time order; valid until the image is deleted */
const struct text_image_bpf_load *text_image__bpf_loads(const struct text_image *ti, size_t *nr);

#endif /* __PERF_TEXTPOKE_TEXT_IMAGE_H */
