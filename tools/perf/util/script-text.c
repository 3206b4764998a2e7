// SPDX-License-Identifier: GPL-2.0-only
/*
 * insn, disasm and poked for perf textpoke script.  Kernel bytes are read
 * from the text image at the sample's time, so a sample on a jump label
 * shows the nop or the jmp it really ran; user bytes are read from the
 * object file, the way perf 6.1 reads them for -F insn.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "debug.h"
#include "dso.h"
#include "disasm.h"
#include "machine.h"
#include "map.h"
#include "symbol.h"
#include "script-fields.h"
#include "script-text.h"
#include "session.h"
#include "text-poke-print.h"

/* longest x86 instruction */
#define INSN_MAX 15

/* the object files user samples were read from, kept open */
#define OBJ_FDS 8

struct script_text {
	struct text_image *ti;
	bool one_pass; /* a pipe: the image grows with the records */
	struct {
		char *path;
		int fd; /* -errno when it could not be opened: not tried again */
	} objs[OBJ_FDS];
	unsigned int next_obj;
};

struct script_text *script_text__new(const char *input, struct perf_session *session,
				     const struct text_image_opts *opts)
{
	struct script_text *st = calloc(1, sizeof(*st));

	if (!st)
		return NULL;
	st->one_pass = session->is_pipe;
	if (st->one_pass)
		st->ti = text_image__new(&session->env, perf_session__kcore_dir(session), opts);
	else
		st->ti = text_image__load(input, opts);
	if (!st->ti) {
		free(st);
		return NULL;
	}
	return st;
}

void script_text__delete(struct script_text *st)
{
	int i;

	if (!st)
		return;
	for (i = 0; i < OBJ_FDS; i++) {
		if (st->objs[i].path && st->objs[i].fd >= 0)
			close(st->objs[i].fd);
		free(st->objs[i].path);
	}
	text_image__delete(st->ti);
	free(st);
}

int script_text__side_band(struct script_text *st, struct machine *machine, union perf_event *event,
			   struct perf_sample *sample)
{
	if (!st || !st->one_pass)
		return 0;
	return text_image__process_event(st->ti, machine, event, sample);
}

/* an open fd of @path, or -errno; samples come from few objects, so few opens */
static int script_text__obj_fd(struct script_text *st, const char *path)
{
	unsigned int i = st->next_obj;
	int k;

	for (k = 0; k < OBJ_FDS; k++) {
		if (st->objs[k].path && !strcmp(st->objs[k].path, path))
			return st->objs[k].fd;
	}
	st->next_obj = (i + 1) % OBJ_FDS;
	if (st->objs[i].path && st->objs[i].fd >= 0)
		close(st->objs[i].fd);
	free(st->objs[i].path);
	st->objs[i].path = strdup(path);
	st->objs[i].fd = open(path, O_RDONLY | O_CLOEXEC);
	if (st->objs[i].fd < 0)
		st->objs[i].fd = -errno;
	if (!st->objs[i].path) {
		if (st->objs[i].fd >= 0)
			close(st->objs[i].fd);
		return -ENOMEM;
	}
	return st->objs[i].fd;
}

/* the bytes of a user object at a sample, from its file */
static int user_bytes(struct script_text *st, const struct addr_location *al, u8 *buf, size_t len)
{
	const char *path = al->map ? map__dso_name(al->map) : NULL;
	ssize_t n;
	int fd;

	/* the vdso has no file of its own: the copy its symbols came from */
	if (al->map && al->map->dso->kind == DSO_KIND__VDSO)
		path = al->map->dso->symsrc;
	if (!path || path[0] != '/')
		return -ENOENT;
	fd = script_text__obj_fd(st, path);
	if (fd < 0)
		return fd;
	/* for user objects al->addr is the file offset (map_ip with pgoff) */
	n = pread(fd, buf, len, (off_t)al->addr);
	return n < 0 ? -errno : (int)n;
}

/* snprintf at @pos that never moves past the end of @buf */
static size_t append(char *buf, size_t size, size_t pos, const char *fmt, ...) __printf(4, 5);

static size_t append(char *buf, size_t size, size_t pos, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (pos + 1 >= size)
		return pos;
	va_start(ap, fmt);
	n = vsnprintf(buf + pos, size - pos, fmt, ap);
	va_end(ap);
	if (n < 0)
		return pos;
	return pos + n < size ? pos + n : size - 1;
}

static size_t user_sample(struct script_text *st, char *buf, size_t size, u64 fields,
			  const struct perf_sample *sample, const struct addr_location *al)
{
	struct text_poke_sym us = {al->thread, sample->time, PERF_RECORD_MISC_USER};
	struct disasm_insn insn;
	u8 bytes[INSN_MAX];
	size_t pos = 0;
	int n, len, i;

	n = user_bytes(st, al, bytes, sizeof(bytes));
	if (n <= 0)
		return 0;
	len = disasm__one(bytes, n, sample->ip, &insn, text_poke__sym, &us);
	if (len <= 0)
		return 0;
	if (fields & SF_INSN) {
		pos = append(buf, size, pos, " insn:");
		for (i = 0; i < len; i++)
			pos = append(buf, size, pos, " %02x", bytes[i]);
	}
	if (fields & SF_DISASM)
		pos = append(buf, size, pos, " %s", insn.text);
	return pos;
}

size_t script_text__sample(struct script_text *st, char *buf, size_t size, u64 fields,
			   const struct perf_sample *sample, const struct addr_location *al)
{
	struct text_poke_sym ks = {al->thread, sample->time};
	size_t pos = 0;

	if (!st || !size)
		return 0;
	buf[0] = '\0';
	if (sample->cpumode == PERF_RECORD_MISC_USER) {
		/* no TEXT_POKE covers user code (uprobes are not evented): the file it is */
		return al->thread && al->map ? user_sample(st, buf, size, fields, sample, al) : 0;
	}
	if (sample->cpumode != PERF_RECORD_MISC_KERNEL)
		return 0;
	/* the scnprintf-style printers never return more than they wrote */
	if (fields & SF_INSN)
		pos += text_poke__scnprintf_insn(buf + pos, size - pos, st->ti, sample->ip,
						 sample->time);
	if (fields & SF_DISASM)
		pos += text_poke__scnprintf_disasm(buf + pos, size - pos, st->ti, sample->ip,
						   sample->time, text_poke__sym, &ks);
	if (fields & SF_POKED)
		pos += text_poke__scnprintf_marker(buf + pos, size - pos, st->ti, sample->ip,
						   sample->time);
	return pos;
}

size_t script_text__poke_event(struct script_text *st, char *buf, size_t size,
			       const union perf_event *event, const struct perf_sample *sample,
			       struct thread *thread)
{
	struct text_poke_sym ks = {thread, sample->time};

	if (!st || !size)
		return 0;
	return text_poke__scnprintf_event(buf, size, st->ti, &event->text_poke, sample->time,
					  text_poke__sym, &ks);
}
