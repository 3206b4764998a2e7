// SPDX-License-Identifier: GPL-2.0-only
/*
 * The end of a recording: the LOST_SAMPLES records once the rings are
 * drained, the counts taken from the writer before it closes, and the
 * closing lines perf record prints.  Apart from the loop because it runs
 * once, after it, and says what the loop could not keep.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <linux/perf_event.h>

#include "bpf-capture.h"
#include "module-capture.h"
#include "debug.h"
#include "event.h"
#include "perf-event-open.h"
#include "record-internal.h"
#include "writer.h"

/*
 * After the events are disabled and the rings drained: what each event fd
 * could not write, one LOST_SAMPLES record each, as perf 6.1 writes them.
 * The time is the newest seen, so readers that order by time keep them
 * last, where they belong.
 */
int record__write_lost_samples(struct record *rec)
{
	struct {
		struct perf_record_lost_samples ls;
		u32 pid, tid;
		u64 time;
		u32 cpu, res;
		u64 id;
	} r = {.ls.header = {.type = PERF_RECORD_LOST_SAMPLES, .size = sizeof(r)}};

	if (!rec->lost_format)
		return 0;
	for (int i = 0; i < rec->nr_evsels; i++) {
		struct record_evsel *e = &rec->evsels[i];
		int nr_tids = e->system_wide ? 1 : rec->nr_tids, f = 0;

		/* fds[] holds the opened slots in slot order */
		for (int slot = 0; slot < rec->nr_cpus * nr_tids && f < e->nr_fds; slot++) {
			u64 lost;
			int err;

			if (e->slot_fd[slot] < 0)
				continue;
			err = record_lost__read(e->fds[f], e->ev.attr.read_format, &lost);
			r.id = e->ids[f++];
			if (err) {
				pr_debug("%s: cannot read its lost count: %s\n", e->ev.name,
					 strerror(-err));
				continue;
			}
			if (!lost)
				continue;
			r.ls.lost = lost;
			r.time = rec->max_time;
			r.cpu = rec->cpus[slot / nr_tids];
			err = perf_writer__write_event(rec->w, (const union perf_event *)&r);
			if (err)
				return err;
			rec->lost.lost_samples += lost;
		}
	}
	return 0;
}

/* what the closing lines need from the writer, before it is closed */
void record__count(struct record *rec)
{
	struct record_lost *l = &rec->lost;

	l->nr_records = 0;
	for (u32 type = 0; type < PERF_RECORD_HEADER_MAX; type++)
		l->nr_records += perf_writer__nr_records(rec->w, type);
	l->nr_chunks = perf_writer__nr_records(rec->w, PERF_RECORD_LOST);
	l->nr_samples = perf_writer__nr_records(rec->w, PERF_RECORD_SAMPLE);
	/* the kernel's own LOST_SAMPLES (hardware samples it discarded) count as well */
	for (int c = 0; c < rec->nr_rings; c++)
		l->lost_samples += rec->rings[c].lost_samples;
	l->lost_samples += rec->raw_lost_samples;
}

void record__report(struct record *rec)
{
	u64 lost = rec->raw_lost;

	for (int c = 0; c < rec->nr_rings; c++)
		lost += rec->rings[c].lost;
	record_lost__print(&rec->lost, rec->opts->quiet, stderr);
	if (rec->dump_name[0] && !rec->opts->quiet)
		fprintf(stderr, "[ perf textpoke record: Dump %s ]\n", rec->dump_name);
	if (lost)
		pr_debug("lost %" PRIu64 " events in %" PRIu64 " LOST records (try a larger -m)\n",
			 lost, rec->lost.nr_chunks);
	if (rec->bpf) {
		struct bpf_capture_stats st;

		bpf_capture__stats(rec->bpf, &st);
		if (st.missed || st.lost)
			fprintf(stderr,
				"perf textpoke record: BPF programs: %" PRIu64 " loaded, %" PRIu64
				" captured, %" PRIu64 " gone before capture, %" PRIu64
				" events lost\n",
				st.loads, st.captured, st.missed, st.lost);
		else
			pr_debug("BPF programs: %" PRIu64 " loaded, %" PRIu64 " captured\n",
				 st.loads, st.captured);
	}
	if (rec->modules) {
		struct module_capture_stats st;

		module_capture__stats(rec->modules, &st);
		if (st.gone || st.unread || st.lost)
			fprintf(stderr,
				"perf textpoke record: modules: %" PRIu64
				" loaded, code of %" PRIu64 " captured, %" PRIu64
				" gone before capture, %" PRIu64 " not read, %" PRIu64
				" events lost\n",
				st.loads, st.captured, st.gone, st.unread, st.lost);
		else
			pr_debug("modules: %" PRIu64 " loaded, %" PRIu64 " captured, %" PRIu64
				 " freed\n",
				 st.loads, st.captured, st.frees);
	}
	if (!rec->opts->quiet) {
		u64 zin = rec->zbytes_in, zout = rec->zbytes_out;
		/* --switch-output: the last file, as renamed */
		const char *name = rec->dump_name[0] ? rec->dump_name : rec->opts->output;

		if (!strcmp(name, "-"))
			name = "<stdout>";

		/* -z: what went to the file, then perf's "original" size and ratio */
		fprintf(stderr,
			"[ perf textpoke record: Captured and wrote %.3f MB %s (%" PRIu64
			" samples)",
			(zout ? zout : rec->bytes - rec->switch_bytes) / 1024.0 / 1024.0, name,
			rec->nr_samples);
		if (zout)
			fprintf(stderr, ", compressed (original %.3f MB, ratio is %.3f)",
				zin / 1024.0 / 1024.0, (double)zin / zout);
		/* the starting image apart: it is not records, and perf's file has none */
		if (rec->kcore_dir_bytes)
			fprintf(stderr, ", with %.3f MB of kernel symbols and code",
				rec->kcore_dir_bytes / 1024.0 / 1024.0);
		fprintf(stderr, " ]\n");
	}
}
