// SPDX-License-Identifier: GPL-2.0-only
/*
 * The recording's main loop: drain every ring into the writer, poll, and
 * stop on a signal, the workload's exit or the -p targets'; then note
 * what the closing features need from the rings' records (times, hit
 * maps, kernel ips and the branch targets of poked code), read back from
 * the output, or as they come where it cannot be read back.
 * Apart because it is the hot path: it runs per record, while the rest of
 * the recorder runs once.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "debug.h"
#include "event.h"
#include "perf-event-open.h"
#include "record-control.h"
#include "record-internal.h"
#include "record-ksyms.h"
#include "writer.h"

volatile sig_atomic_t record_done;
volatile sig_atomic_t record_child_exited;
volatile sig_atomic_t record_switch;

void record__sig(int sig)
{
	if (sig == SIGCHLD)
		record_child_exited = 1;
	else if (sig == SIGUSR2)
		record_switch = 1;
	else
		record_done = 1;
}

/* --switch-output: a SIGUSR2, the size written since the last switch, or its time */
static bool record__switch_due(struct record *rec)
{
	const struct record_opts *o = rec->opts;
	struct timespec ts;

	if (!o->switch_output)
		return false;
	/* as perf: SIGUSR2 switches in signal mode, and is ignored in the others */
	if (record_switch) {
		record_switch = 0;
		if (!o->switch_size && !o->switch_secs)
			return true;
	}
	if (o->switch_size && rec->bytes - rec->switch_bytes >= o->switch_size)
		return true;
	if (!rec->switch_at)
		return false;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec >= rec->switch_at;
}

/* the kernel part of a sample's callchain: what kallsyms must keep symbols for */
static void record__callchain_hits(struct record *rec, const u8 *p, size_t room)
{
	u64 nr, ip;
	bool kernel = false;

	memcpy(&nr, p, 8);
	if (nr > (room - 8) / 8)
		return;
	for (u64 i = 0; i < nr; i++) {
		memcpy(&ip, p + 8 + i * 8, 8);
		if (ip >= (u64)PERF_CONTEXT_MAX)
			kernel = ip == (u64)PERF_CONTEXT_KERNEL;
		else if (kernel)
			record_hits__kernel_ip(&rec->hits, ip);
	}
}

/* what the closing features need from a ring record: times, hit maps, kernel ips, poke targets */
static int record__note(void *ctx, const union perf_event *ev)
{
	struct record *rec = ctx;
	const u8 *p = (const u8 *)ev;
	u16 size = ev->header.size;

	if (ev->header.type == PERF_RECORD_SAMPLE && size >= SAMPLE_OFF_TIME + 8) {
		u64 t, ip;
		u32 pid;

		memcpy(&t, p + SAMPLE_OFF_TIME, 8);
		memcpy(&ip, p + SAMPLE_OFF_IP, 8);
		memcpy(&pid, p + SAMPLE_OFF_PID, 4);
		if (!rec->first_time || t < rec->first_time)
			rec->first_time = t;
		if (t > rec->last_time)
			rec->last_time = t;
		if (t > rec->max_time)
			rec->max_time = t;
		rec->nr_samples++;
		record_hits__sample(&rec->hits, ev->header.misc & PERF_RECORD_MISC_CPUMODE_MASK,
				    pid, ip);
		if (rec->callchain_off && size >= rec->callchain_off + 8)
			record__callchain_hits(rec, p + rec->callchain_off,
					       size - rec->callchain_off);
	} else if (size >= sizeof(ev->header) + 32) {
		u64 t;

		/* the sample_id_all trailer: pid/tid, time, cpu, identifier */
		memcpy(&t, p + size - 24, 8);
		if (t > rec->max_time)
			rec->max_time = t;
	}
	if (ev->header.type == PERF_RECORD_TEXT_POKE) {
		record_ksyms__text_poke(&rec->hits, ev);
	} else if (ev->header.type == PERF_RECORD_MMAP2 &&
		   size > sizeof(struct perf_record_mmap2) + 32) {
		const struct perf_record_mmap2 *m = (const void *)ev;
		/* the filename ends before the 32-byte id trailer */
		size_t max = size - sizeof(*m) - 32;

		if (strnlen(m->filename, max) < max)
			record_hits__mmap(&rec->hits, m, m->filename);
	}
	return 0;
}

/* the bytes the rings gave, for --max-size and --switch-output's size */
static int record__ring_bytes(void *ctx, struct perf_ring *ring __maybe_unused,
			      const union perf_event *ev)
{
	struct record *rec = ctx;

	/* written by record__span(), with the records around it */
	rec->bytes += ev->header.size;
	/* --max-size: what the rings gave so far, in perf's words */
	if (rec->opts->max_size && rec->bytes >= rec->opts->max_size && !record_done) {
		fprintf(
		    stderr,
		    "[ perf textpoke record: perf size limit reached (%llu KB), stopping session ]\n",
		    (unsigned long long)rec->bytes >> 10);
		record_done = 1;
	}
	return 0;
}

static int record__event(void *ctx, struct perf_ring *ring, const union perf_event *ev)
{
	record__note(ctx, ev);
	return record__ring_bytes(ctx, ring, ev);
}

/*
 * While the events sample, every cycle the recorder spends costs more
 * than it does after: the CPUs take a sampling interrupt every few tens
 * of microseconds, and the recorder's caches are cold after each (22 MB
 * of file writes measured at 10 ms of system time alone, 0.17-0.28 s
 * with perf record -a -F 50000 running, in a 2-CPU VM).  So,
 * as perf record finds its hit objects by reading its output at the end,
 * the rings' records are noted from the file once the events are off (or
 * the file is switched); only where the output cannot be read back (a
 * pipe, a device, zstd) are they noted as they come.
 */
void record__read_back_mark(struct record *rec)
{
	rec->read_back = !perf_writer__read_back_mark(rec->w, &rec->read_from);
	/*
	 * Read back, the rings need not be walked at all: their bytes go out
	 * as they lie, as perf record writes them.  --max-size stops at the
	 * record that crosses the limit, so it still walks them.
	 */
	rec->raw_rings = rec->read_back && !rec->opts->max_size;
}

/*
 * A record read back.  Those of the rings are the kernel's types (the
 * loop writes only FINISHED_ROUND of its own); written raw, they are
 * counted here, and the kernel's LOST and LOST_SAMPLES summed.
 */
static int record__note_read_back(void *ctx, const union perf_event *ev)
{
	struct record *rec = ctx;
	u32 type = ev->header.type;

	if (rec->raw_rings && type < PERF_RECORD_USER_TYPE_START) {
		perf_writer__count(rec->w, type);
		if (type == PERF_RECORD_LOST && ev->header.size >= sizeof(struct perf_record_lost))
			rec->raw_lost += ((const struct perf_record_lost *)ev)->lost;
		else if (type == PERF_RECORD_LOST_SAMPLES &&
			 ev->header.size >= sizeof(struct perf_record_lost_samples))
			rec->raw_lost_samples +=
			    ((const struct perf_record_lost_samples *)ev)->lost;
	}
	return record__note(ctx, ev);
}

int record__read_back(struct record *rec)
{
	int err;

	if (!rec->read_back)
		return 0;
	rec->read_back = false;
	err = perf_writer__read_back(rec->w, rec->read_from, record__note_read_back, rec);
	if (err)
		pr_err("%s: cannot read back the records written: %s\n", rec->opts->output,
		       strerror(-err));
	return err;
}

/* the records record__event() saw, as they lie in the ring: no copy of each, as perf record */
static int record__span(void *ctx, const void *bytes, size_t len)
{
	struct record *rec = ctx;

	return perf_writer__write_events(rec->w, bytes, len);
}

/* a ring's bytes as they lie (raw_rings): noted and counted when read back */
static int record__span_raw(void *ctx, const void *bytes, size_t len)
{
	struct record *rec = ctx;
	int err = perf_writer__write_unchecked(rec->w, bytes, len);

	if (!err)
		rec->bytes += len;
	return err;
}

/* one pass over every ring; a FINISHED_ROUND after a pass that wrote anything */
static int record__mmap_read_all(struct record *rec)
{
	int total = 0;

	for (int c = 0; c < rec->nr_rings; c++) {
		int n = rec->raw_rings ?
			    perf_ring__drain_raw(&rec->rings[c], record__span_raw, rec) :
			    perf_ring__drain_spans(
				&rec->rings[c], rec->read_back ? record__ring_bytes : record__event,
				record__span, rec);

		if (n == -EBADMSG) {
			pr_warning(
			    "cpu %d: corrupt record in the ring buffer, dropped what was left\n",
			    rec->rings[c].cpu);
			continue;
		}
		if (n < 0)
			return n;
		total += n;
	}
	if (total)
		return perf_writer__synth_finished_round(rec->w);
	return 0;
}

/* running, sleeping, stopped: anything but gone or a zombie nobody reaped yet */
static bool task__alive(pid_t tid)
{
	char path[64], buf[256], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	/* "pid (comm) S ...": comm may hold spaces and parentheses */
	p = strrchr(buf, ')');
	return p && p[1] == ' ' && p[2] != 'Z' && p[2] != 'X';
}

/* -p: as perf, stop once every thread we attached to is gone */
static bool record__targets_alive(struct record *rec)
{
	for (int t = 0; t < rec->nr_tids; t++) {
		if (task__alive(rec->tids[t]))
			return true;
	}
	return false;
}

int record__loop(struct record *rec)
{
	/* one per ring, then --control's (fd -1, which poll skips, without it) */
	struct pollfd *pfd = calloc(rec->nr_rings + 1, sizeof(*pfd));
	struct pollfd *ctl = pfd ? &pfd[rec->nr_rings] : NULL;
	int err = 0, status, ready;

	if (!pfd)
		return -ENOMEM;
	for (int c = 0; c < rec->nr_rings; c++) {
		/* a thread gone before its events opened has no ring: poll skips -1 */
		pfd[c].fd = rec->rings[c].base ? rec->rings[c].fd : -1;
		pfd[c].events = POLLIN;
	}
	ctl->fd = rec->opts->ctl_fd;
	ctl->events = POLLIN;
	while (!record_done) {
		err = record__mmap_read_all(rec);
		if (!err && record__switch_due(rec))
			err = record__switch_output(rec);
		if (err)
			break;
		if (record_child_exited && rec->child > 0 &&
		    waitpid(rec->child, &status, WNOHANG) == rec->child) {
			rec->child = -1;
			break;
		}
		if (rec->task_mode && rec->child <= 0 && !record__targets_alive(rec))
			break;
		/* a signal between the checks and poll is caught by the timeout */
		ready = poll(pfd, rec->nr_rings + 1, record_control__timeout(rec, 100));
		if (ready < 0 && errno != EINTR) {
			err = -errno;
			break;
		}
		if (ready > 0 && ctl->revents) {
			int r = record_control__read(rec);

			/* at its end (fd: only) or on an error, no more commands */
			if (r) {
				if (r < 0)
					pr_warning("--control: cannot read: %s\n", strerror(-r));
				ctl->fd = -1;
			}
			ready -= 1;
		}
		/* perf's "Woken up" counts the waits that ended with data */
		if (ready > 0)
			rec->lost.wakeups++;
	}
	free(pfd);
	record__disable(rec);
	if (!err)
		err = record__mmap_read_all(rec);
	/* LOST_SAMPLES go after the last record's time */
	if (!err)
		err = record__read_back(rec);
	if (!err)
		err = record__write_lost_samples(rec);
	return err;
}
