// SPDX-License-Identifier: GPL-2.0-only
/*
 * The recording around fixture-pt.c's Intel PT traces, as perf record -e
 * intel_pt// --kcore -a writes it, each field as perf 6.1 reads it: the
 * attrs, the header features, TIME_CONV and AUXTRACE_INFO, the kernel's
 * map, and kcore_dir.
 */
#include <elf.h>
#include <errno.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fixture-kcore.h"
#include "fixture-pt.h"
#include "fixture-pt-record.h"
#include "../util/writer.h"

/* perf's enum of AUXTRACE_INFO priv[] for intel_pt (perf 6.1 util/intel-pt.h) */
enum {
	PT_PMU_TYPE,
	PT_TIME_SHIFT,
	PT_TIME_MULT,
	PT_TIME_ZERO,
	PT_CAP_USER_TIME_ZERO,
	PT_TSC_BIT,
	PT_NORETCOMP_BIT,
	PT_HAVE_SCHED_SWITCH,
	PT_SNAPSHOT_MODE,
	PT_PER_CPU_MMAPS,
	PT_MTC_BIT,
	PT_MTC_FREQ_BITS,
	PT_TSC_CTC_N,
	PT_TSC_CTC_D,
	PT_CYC_BIT,
	PT_MAX_NONTURBO_RATIO,
	PT_FILTER_STR_LEN,
	PT_PRIV_MAX,
};

#define AUXTRACE_INFO_INTEL_PT 1
/* attr.config bits of the intel_pt PMU: pt, tsc, noretcomp, branch */
#define PT_CFG_PT (1ULL << 0)
#define PT_CFG_TSC (1ULL << 10)
#define PT_CFG_NORETCOMP (1ULL << 11)
#define PT_CFG_BRANCH (1ULL << 13)
#define PT_CFG_MTC (1ULL << 9)
#define PT_CFG_CYC (1ULL << 1)

int fixture_pt_record__attrs(struct perf_writer *w, unsigned int q, int *pt, int *dummy)
{
	struct perf_event_attr attr = {
	    .type = FP_PMU_TYPE,
	    .size = sizeof(attr),
	    .config = PT_CFG_PT | PT_CFG_TSC | PT_CFG_NORETCOMP | PT_CFG_BRANCH,
	    .sample_period = 1,
	    .sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU,
	    .disabled = 1,
	    .sample_id_all = 1,
	    .exclude_guest = 1,
	};
	u64 ids[FP_NR_CPUS];
	int i;

	if (q & FP_QUIRK_NO_TSC_CONFIG)
		attr.config &= ~PT_CFG_TSC;
	/* one id per CPU, as perf record -a opens the event once per CPU */
	for (i = 0; i < FP_NR_CPUS; i++)
		ids[i] = 100 + i;
	*pt = perf_writer__add_attr(w, &attr, ids, FP_NR_CPUS, "intel_pt//");
	if (*pt < 0)
		return *pt;
	/* the side-band on a dummy event, as perf record --kcore -a adds it */
	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_SOFTWARE;
	attr.size = sizeof(attr);
	attr.config = PERF_COUNT_SW_DUMMY;
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU;
	if (q & FP_QUIRK_DUMMY_NO_TIME)
		attr.sample_type &= ~PERF_SAMPLE_TIME;
	attr.sample_id_all = 1;
	attr.exclude_guest = 1;
	attr.mmap = attr.mmap2 = attr.comm = attr.task = 1;
	attr.ksymbol = attr.bpf_event = attr.text_poke = 1;
	*dummy = perf_writer__add_attr(w, &attr, NULL, 0, "dummy:u");
	return *dummy < 0 ? *dummy : 0;
}

static int fp__auxtrace_info(struct perf_writer *w, unsigned int q)
{
	struct {
		struct perf_event_header header;
		u32 type;
		u32 reserved;
		u64 priv[PT_PRIV_MAX];
	} ev = {
	    .header = {.type = PERF_RECORD_AUXTRACE_INFO, .size = sizeof(ev)},
	    .type = AUXTRACE_INFO_INTEL_PT,
	};
	struct {
		struct perf_event_header header;
		u64 time_shift, time_mult, time_zero, time_cycles, time_mask;
		u8 cap_user_time_zero, cap_user_time_short, reserved[6];
	} tc = {
	    .header = {.type = PERF_RECORD_TIME_CONV, .size = sizeof(tc)},
	    .time_mult = 1,
	    .cap_user_time_zero = 1,
	};
	int err;

	ev.priv[PT_PMU_TYPE] = q & FP_QUIRK_WRONG_PMU_TYPE ? FP_PMU_TYPE + 1 : FP_PMU_TYPE;
	/* perf time = time_zero + (tsc * time_mult) >> time_shift: ns = TSC here */
	ev.priv[PT_TIME_SHIFT] = 0;
	ev.priv[PT_TIME_MULT] = 1;
	ev.priv[PT_TIME_ZERO] = 0;
	ev.priv[PT_CAP_USER_TIME_ZERO] = !(q & FP_QUIRK_NO_TIME_ZERO);
	ev.priv[PT_TSC_BIT] = PT_CFG_TSC;
	ev.priv[PT_NORETCOMP_BIT] = PT_CFG_NORETCOMP;
	ev.priv[PT_HAVE_SCHED_SWITCH] = 0;
	ev.priv[PT_SNAPSHOT_MODE] = 0;
	ev.priv[PT_PER_CPU_MMAPS] = 1;
	ev.priv[PT_MTC_BIT] = PT_CFG_MTC;
	ev.priv[PT_MTC_FREQ_BITS] = 0x3c000;
	ev.priv[PT_TSC_CTC_N] = 100;
	ev.priv[PT_TSC_CTC_D] = 2;
	ev.priv[PT_CYC_BIT] = PT_CFG_CYC;
	ev.priv[PT_MAX_NONTURBO_RATIO] = FP_CBR;
	ev.priv[PT_FILTER_STR_LEN] = 0;
	err = perf_writer__write_event(w, (union perf_event *)&tc);
	return err ?: perf_writer__write_event(w, (union perf_event *)&ev);
}

/* HEADER_BPF_PROG_INFO as perf lays it out: arrays as offsets into each entry's data */
static int fp__bpf_prog_info(struct perf_writer *w, const struct fp_bpf_prog *progs, int nr)
{
	/* perf's bpil_array_types: JITED_INSNS 0, JITED_KSYMS 3, JITED_FUNC_LENS 4 */
	const u64 arrays = (1 << 0) | (1 << 3) | (1 << 4);
	const size_t data_len = FP_BPF_MAX_LEN + 16;
	const size_t per = 16 + sizeof(struct bpf_prog_info) + data_len;
	u8 *buf = calloc(1, 4 + nr * per), *e;
	int i, err;

	if (!buf)
		return -ENOMEM;
	*(u32 *)buf = nr;
	for (i = 0, e = buf + 4; i < nr; i++, e += per) {
		const struct fp_bpf_prog *p = &progs[i];
		struct bpf_prog_info info;
		u64 ksym = FP_BPF;
		u8 *data = e + 16 + sizeof(info);

		memset(&info, 0, sizeof(info));
		info.id = p->id;
		info.type = BPF_PROG_TYPE_KPROBE;
		info.tag[0] = 0xf0;
		info.tag[1] = 0x0e;
		info.tag[7] = (u8)p->id;
		snprintf((char *)info.name, sizeof(info.name), "%s", strrchr(p->name, '_') + 1);
		info.jited_prog_len = p->len;
		info.jited_prog_insns = 0;
		info.nr_jited_ksyms = 1;
		info.jited_ksyms = FP_BPF_MAX_LEN;
		info.nr_jited_func_lens = 1;
		info.jited_func_lens = FP_BPF_MAX_LEN + 8;
		*(u32 *)e = sizeof(info);
		*(u32 *)(e + 4) = data_len;
		memcpy(e + 8, &arrays, 8);
		memcpy(e + 16, &info, sizeof(info));
		memcpy(data, p->jit, p->len);
		memcpy(data + FP_BPF_MAX_LEN, &ksym, 8);
		memcpy(data + FP_BPF_MAX_LEN + 8, &p->len, 4);
	}
	err = perf_writer__set_bpf_prog_info(w, buf, 4 + nr * per);
	free(buf);
	return err;
}

static int fp__features(struct perf_writer *w, const struct fp_bpf_prog *progs, int nr)
{
	static const char *const argv[] = {"/usr/bin/perf", "record",  "-e",
					   "intel_pt//",    "--kcore", "-a"};
	int err = 0;

	err = err ?: perf_writer__set_hostname(w, "fixture-pt");
	err = err ?: perf_writer__set_osrelease(w, "6.1.0-fixture");
	err = err ?: perf_writer__set_version(w, "6.1.fixture");
	err = err ?: perf_writer__set_arch(w, "x86_64");
	err = err ?: perf_writer__set_nrcpus(w, FP_NR_CPUS, FP_NR_CPUS);
	err = err ?: perf_writer__set_cpudesc(w, "Intel(R) Fixture CPU");
	/* libipt takes the CPU (and its errata) from this */
	err = err ?: perf_writer__set_cpuid(w, "GenuineIntel,6,85,4");
	err = err ?: perf_writer__set_total_mem(w, 1024 * 1024);
	err = err ?: perf_writer__set_cmdline(w, ARRAY_SIZE(argv), argv);
	return err ?: fp__bpf_prog_info(w, progs, nr);
}

int fixture_pt_record__begin(struct perf_writer *w, unsigned int quirks, int dummy,
			     const struct fp_bpf_prog *progs, int nr_progs)
{
	struct perf_record_mmap2 m = {
	    .header.misc = PERF_RECORD_MISC_KERNEL,
	    .pid = -1,
	    .tid = 0,
	    .start = FP_TEXT,
	    .len = 0x1000000,
	    /* perf checks the kernel map against _text in kallsyms */
	    .pgoff = quirks & FP_QUIRK_PGOFF_ZERO ? 0 : FP_TEXT,
	};
	struct perf_sample id = {0};
	int err;

	err = fp__features(w, progs, nr_progs);
	err = err ?: fp__auxtrace_info(w, quirks);
	err = err ?: perf_writer__synth_mmap2(w, dummy, &m, "[kernel.kallsyms]_text", &id);
	err = err ?: perf_writer__synth_comm(w, dummy, 0, 0, "swapper", false, &id);
	return err ?: perf_writer__synth_finished_round(w);
}

int fixture_pt_record__kcore_dir(const char *dir, const u8 *text)
{
	static const char kallsyms[] = "ffffffff81000000 T _text\n"
				       "ffffffff81000000 T _stext\n"
				       "ffffffff81000100 T fp_loop\n"
				       "ffffffff81000200 T fp_jl5_fn\n"
				       "ffffffff81000300 T fp_jl2_fn\n"
				       "ffffffff81000400 T fp_traced_fn\n"
				       "ffffffff81000500 T fp_idle_fn\n"
				       "ffffffff81001200 T fp_tracer_fn\n"
				       "ffffffff81004000 T _etext\n";
	struct fixture_segment seg = {FP_TEXT, text, FP_TEXT_LEN};

	return fixture__write_kcore_dir(dir, kallsyms, "", &seg, text ? 1 : 0);
}
