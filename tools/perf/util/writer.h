/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_WRITER_H
#define __PERF_TEXTPOKE_WRITER_H

#include <linux/perf_event.h>

#include "event.h"
#include "types.h"

/*
 * perf.data writer: what `record`, `inject` and the test fixtures use to
 * produce files that stock perf (6.1 and later) reads without warnings.
 *
 * Life of a writer:
 *
 *	w = perf_writer__new("perf.data", 0);
 *	idx = perf_writer__add_attr(w, &attr, ids, nr_ids, "cpu-clock");
 *	perf_writer__set_hostname(w, ...);      (features: any time in file
 *						 mode, before the first record
 *						 in pipe mode but for BUILD_ID,
 *						 SAMPLE_TIME and BPF_*, which go
 *						 after the last record)
 *	perf_writer__synth_comm(w, idx, ...);   (records)
 *	perf_writer__close(w);                  (or perf_writer__abort(w))
 *
 * All attrs come before the first record.  Every attr gets
 * PERF_SAMPLE_IDENTIFIER, so the id sits at the same place in every
 * record whatever the attr, which perf insists on when there is more than
 * one, and sample_id_all, without which perf warns and gives up time
 * ordering: every non-sample record carries the id trailer.  Attrs are
 * stored with attr.size = 128: perf 6.1 refuses larger ones.
 *
 * Output to a regular file or directory is atomic: records go to a
 * temporary name in the destination's directory, renamed into place by
 * close, removed by abort or a failed close.  An existing destination is
 * kept as "<path>.old", as perf record does; a directory that holds more
 * than a recording is not replaced (-ENOTEMPTY).  A device or FIFO is
 * written through, never renamed: a FIFO without a reader is -ENXIO, not
 * a wait, and the file format (not PIPE) needs one that seeks (-ESPIPE);
 * a DIRECTORY writer needs a directory (-ENOTDIR).  Symlinks are followed.
 *
 * Functions return 0 (or an index) on success and a negative errno on
 * failure; after a failed write the writer is unusable except for abort.
 */

enum perf_writer_flags {
	/* the streaming format: 16-byte header, attrs/features as records */
	PERF_WRITER_PIPE = 1 << 0,
	/* path is a directory: <path>/data, room for <path>/kcore_dir */
	PERF_WRITER_DIRECTORY = 1 << 1,
	/* kernel records in COMPRESSED records, one zstd stream */
	PERF_WRITER_ZSTD = 1 << 2,
	/* opposite byte order to this machine (a big-endian file on x86) */
	PERF_WRITER_SWAPPED = 1 << 3,
	/*
	 * attrs as the caller gives them, without the IDENTIFIER and
	 * sample_id_all the writer otherwise adds: inject copies records
	 * whose layout their original attrs decide.
	 */
	PERF_WRITER_KEEP_ATTRS = 1 << 4,
	/*
	 * AUXTRACE records without the HEADER_AUXTRACE index of them: what a
	 * writer that keeps none leaves, for tests of readers that must find
	 * the trace in the records (perf's auxtrace_queue_data())
	 */
	PERF_WRITER_NO_AUXTRACE_INDEX = 1 << 5,
};

struct perf_writer;

/* path "-" with PERF_WRITER_PIPE writes to stdout; NULL + errno on error */
struct perf_writer *perf_writer__new(const char *path, unsigned int flags);
/* pipe format to an open fd, which stays open after close */
struct perf_writer *perf_writer__new_fd(int fd, unsigned int flags);

/* finish the file and move it into place; frees @w whatever happens */
int perf_writer__close(struct perf_writer *w);
/* discard everything written; frees @w */
void perf_writer__abort(struct perf_writer *w);
/* the error that made the writer unusable (ENOSPC, EFBIG, ...), or 0 */
int perf_writer__error(const struct perf_writer *w);

/*
 * The temporary directory of a PERF_WRITER_DIRECTORY writer, where the
 * caller may add kcore_dir/ before close; NULL for other modes.
 */
const char *perf_writer__dir_path(const struct perf_writer *w);
/*
 * Where close puts the output (symlinks followed), as given: relative
 * when the caller's path was; NULL for a caller's fd or stdout.
 */
const char *perf_writer__final_path(const struct perf_writer *w);

/*
 * Add an event.  @nr_ids 0 makes the writer assign one unique id.  @name
 * (may be NULL) goes into EVENT_DESC.  Returns the attr index used by the
 * synthesis helpers, or -errno: -EBUSY after the first record.
 */
int perf_writer__add_attr(struct perf_writer *w, const struct perf_event_attr *attr, const u64 *ids,
			  u32 nr_ids, const char *name);
/* the attr as it will be written (IDENTIFIER added, size 128) */
const struct perf_event_attr *perf_writer__attr(const struct perf_writer *w, int idx);
/* its first id, what trailers carry when the caller gives id 0 */
u64 perf_writer__attr_id(const struct perf_writer *w, int idx);

/*
 * Write a complete record as is; kernel records must end with the id
 * trailer of their attr (see above).  In PERF_WRITER_SWAPPED mode its
 * bytes must already be in the file's byte order.  header.size is checked
 * (>= 8, a multiple of 8 for kernel records).  The header records (attrs,
 * features, tracing data, build-ids) are refused, since the writer makes
 * them itself, and so are COMPRESSED records and AUXTRACE, whose trace
 * lies outside header.size (perf_writer__write_auxtrace() below).
 */
int perf_writer__write_event(struct perf_writer *w, const union perf_event *ev);
/*
 * @len bytes of complete records one after the other, each as
 * perf_writer__write_event() takes it; none is written unless all are.
 * Many at once are written where they lie (a ring buffer's span), without
 * a copy.
 */
int perf_writer__write_events(struct perf_writer *w, const void *bytes, size_t len);

/*
 * A PERF_RECORD_AUXTRACE record as it is, followed by its @ev->auxtrace.size
 * bytes of trace, which the caller then hands over in one or more
 * perf_writer__write_auxtrace_data() calls before the next record (-EBUSY
 * otherwise; close with trace still owed is -EIO).  Not in
 * PERF_WRITER_SWAPPED mode.
 */
int perf_writer__write_auxtrace(struct perf_writer *w, const union perf_event *ev);
int perf_writer__write_auxtrace_data(struct perf_writer *w, const void *buf, size_t len);

/*
 * Synthesis: each builds the record in the file's byte order, appends the
 * sample_id_all trailer of attr @idx and writes it.  @id gives the trailer's values (pid, tid, time, id,
 * stream_id, cpu); NULL means zeros; id 0 means perf_writer__attr_id().
 * Strings are NUL terminated and padded to 8 bytes; -E2BIG when the
 * record would pass the 64 KiB record limit.
 */
/* PERF_RECORD_CGROUP: a cgroup's id and its path from the hierarchy's root */
int perf_writer__synth_cgroup(struct perf_writer *w, int idx, u64 id, const char *path);
/* PERF_RECORD_NAMESPACES: @nr (dev, inode) pairs in the kernel's order (net, uts, ...) */
int perf_writer__synth_namespaces(struct perf_writer *w, int idx, u32 pid, u32 tid, u64 nr,
				  const u64 *dev_ino);
int perf_writer__synth_comm(struct perf_writer *w, int idx, u32 pid, u32 tid, const char *comm,
			    bool exec, const struct perf_sample *id);
/*
 * @m gives header.misc (cpumode, PERF_RECORD_MISC_MMAP_BUILD_ID_BIT) and
 * the fixed fields; type and size are the writer's.
 */
int perf_writer__synth_mmap2(struct perf_writer *w, int idx, const struct perf_record_mmap2 *m,
			     const char *filename, const struct perf_sample *id);
int perf_writer__synth_fork(struct perf_writer *w, int idx, u32 pid, u32 ppid, u32 tid, u32 ptid,
			    u64 time, const struct perf_sample *id);
int perf_writer__synth_exit(struct perf_writer *w, int idx, u32 pid, u32 ppid, u32 tid, u32 ptid,
			    u64 time, const struct perf_sample *id);
int perf_writer__synth_ksymbol(struct perf_writer *w, int idx, u64 addr, u32 len, u16 ksym_type,
			       u16 flags, const char *name, const struct perf_sample *id);
int perf_writer__synth_bpf_event(struct perf_writer *w, int idx, u16 type, u16 flags, u32 prog_id,
				 const u8 tag[8], const struct perf_sample *id);
/* kernel text: header.misc is PERF_RECORD_MISC_KERNEL, as the kernel writes it */
int perf_writer__synth_text_poke(struct perf_writer *w, int idx, u64 addr, const u8 *old_bytes,
				 u16 old_len, const u8 *new_bytes, u16 new_len,
				 const struct perf_sample *id);
int perf_writer__synth_lost(struct perf_writer *w, int idx, u64 lost, const struct perf_sample *id);
int perf_writer__synth_finished_round(struct perf_writer *w);
/* AUX (@flags PERF_AUX_FLAG_*) and ITRACE_START, on the AUX area event @idx */
int perf_writer__synth_aux(struct perf_writer *w, int idx, u64 aux_offset, u64 aux_size, u64 flags,
			   const struct perf_sample *id);
int perf_writer__synth_itrace_start(struct perf_writer *w, int idx, u32 pid, u32 tid,
				    const struct perf_sample *id);
/*
 * A PERF_RECORD_SAMPLE with every field attr @idx's sample_type selects,
 * in the kernel's order.  misc is @s->misc, or @s->cpumode when misc is 0.
 * The identifier is @s->id (0: the attr's id); REGS_* regs are written
 * only when abi != 0 (popcount(mask) of them, mask from the attr); RAW
 * data is zero padded so the u32 size + data end on 8 bytes, as the
 * kernel does; STACK_USER size must be a multiple of 8.
 */
int perf_writer__synth_sample(struct perf_writer *w, int idx, const struct perf_sample *s);

/*
 * Feature sections.  Setting one twice replaces it, except in pipe mode
 * once it went out as a record (-EBUSY).  In pipe mode BUILD_ID entries,
 * SAMPLE_TIME, BPF_PROG_INFO and BPF_BTF set after the first record are
 * written as HEADER_BUILD_ID / HEADER_FEATURE records at close, after the
 * data, where perf reads them; any other feature is -EBUSY then.
 */
int perf_writer__set_hostname(struct perf_writer *w, const char *s);
int perf_writer__set_osrelease(struct perf_writer *w, const char *s);
int perf_writer__set_version(struct perf_writer *w, const char *s);
int perf_writer__set_arch(struct perf_writer *w, const char *s);
int perf_writer__set_cpudesc(struct perf_writer *w, const char *s);
int perf_writer__set_cpuid(struct perf_writer *w, const char *s);
int perf_writer__set_nrcpus(struct perf_writer *w, u32 nr_avail, u32 nr_online);
int perf_writer__set_total_mem(struct perf_writer *w, u64 kb);
int perf_writer__set_cmdline(struct perf_writer *w, int argc, const char *const *argv);
int perf_writer__set_sample_time(struct perf_writer *w, u64 first, u64 last);
/* HEADER_CLOCKID holds the clock's resolution in ns, not the clock id */
int perf_writer__set_clockid(struct perf_writer *w, u64 res_ns);
/*
 * DIRECTORY writers only, version 0 (single data file) only: version 1
 * means data.N files, which this writer does not write (-EOPNOTSUPP).
 */
int perf_writer__set_dir_format(struct perf_writer *w, u64 version);
/*
 * BUILD_ID: one entry per object; @misc is the cpumode of the object.
 * Entries accumulate.
 */
int perf_writer__add_build_id(struct perf_writer *w, u16 misc, s32 pid, const u8 *build_id, u8 size,
			      const char *filename);
/*
 * Pipe mode, once records have been written: the entries added since
 * go out now, as HEADER_BUILD_ID records before the next record (perf
 * inject -b puts each before the first sample in its object), instead
 * of after the last record.  Nothing to do for a file (its feature
 * takes them) or a stream not started yet.
 */
int perf_writer__flush_build_ids(struct perf_writer *w);
/*
 * Raw payloads, in the file's byte order: BPF_PROG_INFO as perf lays it
 * out, TRACING_DATA as perf's tracing data (pipe mode: the
 * HEADER_TRACING_DATA record).
 */
int perf_writer__set_bpf_prog_info(struct perf_writer *w, const void *buf, size_t size);
int perf_writer__set_tracing_data(struct perf_writer *w, const void *buf, size_t size);
/*
 * Any feature as raw payload bytes (file byte order), for what the
 * setters above do not cover (inject copies sections this way).
 */
int perf_writer__set_feature(struct perf_writer *w, int feat, const void *buf, size_t size);
/*
 * EVENT_DESC is built from the attrs' names at close unless this turns it
 * off; COMPRESSED is written by ZSTD writers (level 1 unless set here).
 */
void perf_writer__set_event_desc(struct perf_writer *w, bool on);
int perf_writer__set_zstd_level(struct perf_writer *w, int level);

/*
 * File mode, not zstd nor swapped (-EOPNOTSUPP otherwise): @len bytes of
 * kernel records written as they are, neither checked nor counted, and
 * maybe cut anywhere so long as the pieces follow each other: a ring's
 * bytes as they lie in it.  The caller reads them back
 * (perf_writer__read_back()) and counts each there (perf_writer__count()).
 */
int perf_writer__write_unchecked(struct perf_writer *w, const void *bytes, size_t len);
/* a record of @type written by perf_writer__write_unchecked(), counted */
void perf_writer__count(struct perf_writer *w, u32 type);

/*
 * Records read back from the output after they were written: *@pos the
 * output's position now, for perf_writer__read_back() to start from.
 * -EOPNOTSUPP where the output cannot be read back as written: a pipe, a
 * device, a file opened write-only, zstd, the other byte order.
 */
int perf_writer__read_back_mark(struct perf_writer *w, u64 *pos);
/*
 * @fn on each record written from @from (a perf_writer__read_back_mark()
 * position) to now, in order, until it returns non-zero, which is
 * returned; -errno for a read that fails, -EINVAL for a record that is
 * none.  The recorder notes what the closing features need this way
 * once its events are off, as perf record finds the hit objects by
 * reading its output at the end.
 */
int perf_writer__read_back(struct perf_writer *w, u64 from,
			   int (*fn)(void *arg, const union perf_event *ev), void *arg);

/* records written so far, per type (decompressed view), for tests */
u64 perf_writer__nr_records(const struct perf_writer *w, u32 type);
/*
 * A ZSTD writer's bytes so far: records handed to zstd and the compressed
 * bytes it made of them (perf record's "original" size and ratio); 0 and
 * 0 otherwise.  The pending batch is compressed first, so that called
 * after the last record the counts are final; an error is the writer's.
 */
int perf_writer__zstd_bytes(struct perf_writer *w, u64 *in, u64 *out);

#endif /* __PERF_TEXTPOKE_WRITER_H */
