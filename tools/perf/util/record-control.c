// SPDX-License-Identifier: GPL-2.0-only
/*
 * What switches the events on and off while recording, besides the
 * workload's exec: the -D delay and the --control commands (perf's
 * protocol: "enable", "disable", each optionally with an event name,
 * "ping", "stop"; every command understood is answered "ack\n" on the
 * ack descriptor, as perf does, so a script can wait for it to act).
 * Apart from record-loop.c, which only asks when to wake up and calls
 * in here when the control descriptor is readable.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "debug.h"
#include "record-control.h"
#include "record-internal.h"

static u64 monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* perf's lines, on stderr, so that scripts waiting for them still work */
static void say(const struct record *rec, const char *msg)
{
	if (!rec->opts->quiet)
		fprintf(stderr, "%s\n", msg);
}

void record_control__start(struct record *rec)
{
	int delay = rec->opts->delay_ms;

	if (!delay)
		return;
	say(rec, "Events disabled");
	/* -1: only a --control "enable" starts them */
	if (delay > 0)
		rec->enable_at = monotonic_ns() + delay * 1000000ULL;
}

int record_control__timeout(struct record *rec, int max_ms)
{
	u64 now;

	if (!rec->enable_at)
		return max_ms;
	now = monotonic_ns();
	if (now >= rec->enable_at) {
		rec->enable_at = 0;
		record__toggle(rec, NULL, true);
		say(rec, "Events enabled");
		return max_ms;
	}
	/* rounded up: waking a little late is fine, waking early only spins */
	if (rec->enable_at - now < (u64)max_ms * 1000000ULL)
		return (rec->enable_at - now + 999999) / 1000000;
	return max_ms;
}

static void ack(struct record *rec)
{
	int fd = rec->opts->ack_fd;

	if (fd >= 0 && write(fd, "ack\n", 4) != 4)
		pr_debug("--control: cannot write the ack: %s\n", strerror(errno));
}

static void command(struct record *rec, char *cmd)
{
	char *arg = strchr(cmd, ' ');
	bool on;

	if (arg) {
		*arg++ = '\0';
		while (*arg == ' ')
			arg++;
		if (!*arg)
			arg = NULL;
	}
	pr_debug("--control: '%s%s%s'\n", cmd, arg ? " " : "", arg ? arg : "");
	if (!strcmp(cmd, "ping")) {
		ack(rec);
		return;
	}
	if (!strcmp(cmd, "stop")) {
		record_done = 1;
		ack(rec);
		return;
	}
	if (strcmp(cmd, "enable") && strcmp(cmd, "disable")) {
		/* perf answers nothing it does not know: no ack, but we say it */
		pr_warning("--control: unknown command '%s' (enable, disable, ping, stop)\n", cmd);
		return;
	}
	on = cmd[0] == 'e';
	/* a command overrides a delay still running */
	rec->enable_at = 0;
	/* perf's words, and its ack all the same */
	if (!record__toggle(rec, arg, on))
		fprintf(stderr, "failed: can't find '%s' event\n", arg);
	else if (!arg)
		say(rec, on ? "Events enabled" : "Events disabled");
	else if (!rec->opts->quiet)
		fprintf(stderr, "Event %s %s\n", arg, on ? "enabled" : "disabled");
	ack(rec);
}

int record_control__read(struct record *rec)
{
	int fd = rec->opts->ctl_fd;

	for (;;) {
		ssize_t n =
		    read(fd, rec->ctl_buf + rec->ctl_len, sizeof(rec->ctl_buf) - 1 - rec->ctl_len);
		char *start, *p;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return 0;
		if (n < 0)
			return -errno;
		/* the writer closed a plain fd: nothing more will come */
		if (!n)
			return 1;
		rec->ctl_len += n;
		/* perf ends a command at a newline or a NUL */
		start = rec->ctl_buf;
		for (p = rec->ctl_buf; p < rec->ctl_buf + rec->ctl_len; p++) {
			if (*p != '\n' && *p)
				continue;
			*p = '\0';
			if (*start)
				command(rec, start);
			start = p + 1;
		}
		rec->ctl_len -= start - rec->ctl_buf;
		memmove(rec->ctl_buf, start, rec->ctl_len);
		if (rec->ctl_len == sizeof(rec->ctl_buf) - 1) {
			pr_warning("--control: a command longer than %zu bytes: dropped\n",
				   sizeof(rec->ctl_buf) - 1);
			rec->ctl_len = 0;
		}
	}
}
