// SPDX-License-Identifier: GPL-2.0-only
/*
 * insn, disasm and poked for perf textpoke script.  Kernel bytes are read
 * from the text image at the sample's time, so a sample on a jump label
 * shows the nop or the jmp it really ran; user bytes are read from the
 * object file, the way perf 6.1 reads them for -F insn.
 */
#include <elf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug.h"
#include "dso.h"
#include "dso-data.h"
#include "disasm.h"
#include "insn-len.h"
#include "machine.h"
#include "map.h"
#include "symbol.h"
#include "script-fields.h"
#include "script-text.h"
#include "session.h"
#include "text-poke-print.h"

struct script_text {
	struct text_image *ti;
	bool one_pass;	       /* a pipe: the image grows with the records */
	struct dso_data *objs; /* the user objects samples were read from */
};

struct script_text *script_text__new(const char *input, struct perf_session *session,
				     const struct text_image_opts *opts)
{
	struct script_text *st = calloc(1, sizeof(*st));

	if (!st)
		return NULL;
	st->objs = dso_data__new();
	if (!st->objs) {
		free(st);
		return NULL;
	}
	st->one_pass = session->is_pipe;
	if (st->one_pass)
		st->ti = text_image__new(&session->env, perf_session__kcore_dir(session), opts);
	else
		st->ti = text_image__load(input, opts);
	if (!st->ti) {
		dso_data__delete(st->objs);
		free(st);
		return NULL;
	}
	return st;
}

void script_text__delete(struct script_text *st)
{
	if (!st)
		return;
	dso_data__delete(st->objs);
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

/*
 * The bytes of a user object at a sample, from its file, and whether it
 * is a 64-bit object: perf decodes a task's code in the mode of the
 * object's ELF class (dso->is_64_bit), not of the task.
 */
static int user_bytes(struct script_text *st, const struct addr_location *al, u8 *buf, size_t len,
		      bool *elf64)
{
	const char *path = NULL;

	/*
	 * The vdso has no file of its own: the copy its symbols came from,
	 * or its image when they came from memory (this kernel's vdso, or
	 * the compat one perf's helper writes out)
	 */
	if (al->map && al->map->dso->kind == DSO_KIND__VDSO) {
		const struct dso *dso = al->map->dso;

		if (dso->image) {
			if (al->addr >= dso->image_size)
				return 0;
			if (len > dso->image_size - al->addr)
				len = dso->image_size - al->addr;
			memcpy(buf, dso->image + al->addr, len);
			*elf64 = dso->image_size < EI_NIDENT || dso->image[EI_CLASS] != ELFCLASS32;
			return len;
		}
		path = dso->symsrc;
	} else if (al->map && al->map->dso->kind == DSO_KIND__USER) {
		/* the build-id cache's copy first, as perf reads an object's bytes */
		path = dso__data_path(al->map->dso);
	}
	if (!path || path[0] != '/')
		return -ENOENT;
	/* for user objects al->addr is the file offset (map_ip with pgoff) */
	return dso_data__read(st->objs, al->map->dso, path, al->addr, buf, len, elf64);
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
	u8 bytes[INSN_LEN_MAX];
	bool elf64 = true;
	size_t pos = 0;
	int n, len;

	n = user_bytes(st, al, bytes, sizeof(bytes), &elf64);
	if (n <= 0)
		return fields & SF_INSNLEN ? append(buf, size, 0, " ilen: 0") : 0;
	if (fields & SF_INSNLEN) {
		len = insn_len(bytes, NULL, n, elf64 ? INSN_LEN_64 : 0, NULL);
		pos = append(buf, size, pos, " ilen: %d", len > 0 ? len : 0);
	}
	if (fields & SF_INSN)
		pos += insn_len__scnprintf_field(buf + pos, size - pos, bytes, NULL, n,
						 elf64 ? INSN_LEN_64 : 0);
	/* capstone only for what it is needed for: the text, in the object's mode */
	if (fields & SF_DISASM) {
		if (elf64)
			len = disasm__one(bytes, n, sample->ip, &insn, text_poke__sym, &us);
		else
			len = disasm__one_32(bytes, n, sample->ip, &insn, text_poke__sym, &us);
		if (len > 0)
			pos = append(buf, size, pos, " %s", insn.text);
	}
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
		if (al->thread && al->map)
			return user_sample(st, buf, size, fields, sample, al);
		return fields & SF_INSNLEN ? append(buf, size, 0, " ilen: 0") : 0;
	}
	if (sample->cpumode != PERF_RECORD_MISC_KERNEL)
		return fields & SF_INSNLEN ? append(buf, size, 0, " ilen: 0") : 0;
	/* perf's ilen: of the instruction the insn field prints */
	if (fields & SF_INSNLEN)
		pos = append(buf, size, 0, " ilen: %d",
			     text_poke__insn_len(st->ti, sample->ip, sample->time));
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
