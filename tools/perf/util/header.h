/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_HEADER_H
#define __PERF_TEXTPOKE_HEADER_H

#include "types.h"

/* Feature section ids, as in ../shared/FORMAT.md */
enum {
	HEADER_RESERVED = 0,
	HEADER_FIRST_FEATURE = 1,
	HEADER_TRACING_DATA = 1,
	HEADER_BUILD_ID,
	HEADER_HOSTNAME,
	HEADER_OSRELEASE,
	HEADER_VERSION,
	HEADER_ARCH,
	HEADER_NRCPUS,
	HEADER_CPUDESC,
	HEADER_CPUID,
	HEADER_TOTAL_MEM,
	HEADER_CMDLINE,
	HEADER_EVENT_DESC,
	HEADER_CPU_TOPOLOGY,
	HEADER_NUMA_TOPOLOGY,
	HEADER_BRANCH_STACK,
	HEADER_PMU_MAPPINGS,
	HEADER_GROUP_DESC,
	HEADER_AUXTRACE,
	HEADER_STAT,
	HEADER_CACHE,
	HEADER_SAMPLE_TIME,
	HEADER_MEM_TOPOLOGY,
	HEADER_CLOCKID,
	HEADER_DIR_FORMAT,
	HEADER_BPF_PROG_INFO,
	HEADER_BPF_BTF,
	HEADER_COMPRESSED,
	HEADER_CPU_PMU_CAPS,
	HEADER_CLOCK_DATA,
	HEADER_HYBRID_TOPOLOGY,
	HEADER_PMU_CAPS,
	HEADER_LAST_FEATURE,
	HEADER_FEAT_BITS = 256,
	/*
	 * Ours: the kcore_dir of a recording written as a plain file (its
	 * kallsyms, modules and the code of modules loaded while recording),
	 * packed by kcore-dir-pack.c.  The last bit, far above any of perf's:
	 * perf reads the sections of the features it knows only, and skips
	 * the rest of the table.
	 */
	HEADER_TEXTPOKE_KCORE_DIR = HEADER_FEAT_BITS - 1,
};

#define PERF_MAGIC2 0x32454c4946524550ULL /* "PERFILE2" */

struct perf_file_section {
	u64 offset;
	u64 size;
};

struct perf_file_header {
	u64 magic;
	u64 size;
	u64 attr_size;
	struct perf_file_section attrs;
	struct perf_file_section data;
	struct perf_file_section event_types;
	u64 adds_features[HEADER_FEAT_BITS / 64];
};

struct perf_pipe_file_header {
	u64 magic;
	u64 size;
};

struct build_id_entry {
	u16 misc; /* cpumode of the object */
	s32 pid;
	u8 build_id[20];
	u8 size; /* 0 in old files: then 20 */
	char *filename;
};

/*
 * A BPF program as recorded in HEADER_BPF_PROG_INFO: the JIT image and
 * its sub-program symbols (addresses and lengths), as far as present.
 */
struct bpf_prog_info_entry {
	u32 id;
	u32 type;
	u8 tag[8];
	char name[16];
	u32 nr_jited_ksyms;
	u64 *jited_ksyms;
	u32 *jited_func_lens;
	u32 jited_prog_len;
	u8 *jited_prog_insns; /* NULL when the bytes were not captured */
};

struct event_desc_entry {
	char *name;
	u32 nr_ids;
	u64 *ids;
};

/* What the feature sections say about the recording machine */
struct perf_env {
	char *hostname;
	char *os_release;
	char *version;
	char *arch;
	char *cpu_desc;
	char *cpuid;
	u32 nr_cpus_avail;
	u32 nr_cpus_online;
	u64 total_mem; /* kB */
	int nr_cmdline;
	char **cmdline_argv;
	u64 first_sample_time;
	u64 last_sample_time;
	u64 clockid;
	bool has_clockid;
	u64 dir_format_version;
	struct {
		u32 version;
		u32 type; /* 1 = zstd */
		u32 level;
		u32 ratio;
		u32 mmap_len;
	} comp;
	int nr_build_ids;
	struct build_id_entry *build_ids;
	int nr_bpf_progs;
	struct bpf_prog_info_entry *bpf_progs;
	int nr_event_desc;
	struct event_desc_entry *event_desc;
	/* TRACING_DATA payload as recorded (owned copy) */
	void *tracing_data;
	u64 tracing_data_size;
	u64 tracing_data_offset; /* in the file or stream, for messages */
};

void perf_env__exit(struct perf_env *env);
const char *perf_feature__name(int feat);

struct perf_session;

/*
 * File mode: the header, the attrs and their ids into session->evlist,
 * every feature section into session->env.  0 or -errno with an error
 * naming the file and offset printed.
 */
int perf_header__read(struct perf_session *session);

/*
 * One feature payload, from a file section, a pipe HEADER_FEATURE record
 * or a legacy pipe record.  @swap: the payload is of the other endianness.
 * Unknown features are accepted and ignored.
 */
int perf_header__process_feature(struct perf_session *session, int feat, const void *buf, u64 size,
				 bool swap);

/* names evsels from HEADER_EVENT_DESC (matched by id, else by position) */
void perf_header__apply_event_desc(struct perf_session *session);

#endif /* __PERF_TEXTPOKE_HEADER_H */
