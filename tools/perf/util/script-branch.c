// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf script's brstack, brstacksym and brstackoff fields: a sample's
 * branch stack (PERF_SAMPLE_BRANCH_STACK, LBR), one "from/to/flags"
 * entry per branch, the addresses as recorded, as symbols, or as
 * offsets into their objects, as perf 6.1 prints them
 * (perf_sample__fprintf_brstack*() and print_bstack_flags()).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dso.h"
#include "event.h"
#include "machine.h"
#include "map.h"
#include "script-branch.h"
#include "script-fields.h"
#include "symbol.h"

static int sbuf__printf(struct script_branch_buf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		size_t room = sb->alloc - sb->len;

		va_start(ap, fmt);
		n = vsnprintf(sb->buf ? sb->buf + sb->len : NULL, sb->buf ? room : 0, fmt, ap);
		va_end(ap);
		if (n < 0)
			return -1;
		if (sb->buf && (size_t)n < room) {
			sb->len += n;
			return 0;
		}
		{
			size_t alloc = sb->alloc ? sb->alloc * 2 : 1024;
			char *p;

			while (alloc - sb->len <= (size_t)n)
				alloc *= 2;
			p = realloc(sb->buf, alloc);
			if (!p)
				return -1;
			sb->buf = p;
			sb->alloc = alloc;
		}
	}
}

void script_branch_buf__exit(struct script_branch_buf *sb)
{
	free(sb->buf);
	memset(sb, 0, sizeof(*sb));
}

/* perf's names of PERF_BR_* (util/branch.c) */
static const char *branch_type_name(unsigned int type)
{
	static const char *const names[] = {
	    "",	      "COND",	   "UNCOND",   "IND",  "CALL", "IND_CALL", "RET",   "SYSCALL",
	    "SYSRET", "COND_CALL", "COND_RET", "ERET", "IRQ",  "SERROR",   "NO_TX", "",
	};

	return type < sizeof(names) / sizeof(names[0]) ? names[type] : "";
}

/* the flags after each entry: predicted or mispredicted, in a transaction, aborted, cycles, type */
static int bstack_flags(struct script_branch_buf *sb, const struct branch_entry *e)
{
	char mispred = !(e->flags.mispred || e->flags.predicted) ? '-' :
		       e->flags.predicted			 ? 'P' :
								   'M';

	return sbuf__printf(sb, "/%c/%c/%c/%u/%s ", mispred, e->flags.in_tx ? 'X' : '-',
			    e->flags.abort ? 'A' : '-', (unsigned int)e->flags.cycles,
			    branch_type_name(e->flags.type));
}

/* x86_64: where kernel addresses start, for perf's thread__find_map_fb() */
#define KERNEL_START 0xffff800000000000ULL

/*
 * @addr resolved as perf's thread__find_*_fb() does: in the sample's
 * cpumode, else in the one its address belongs to (a branch from user
 * code into the kernel)
 */
static void branch_resolve(struct thread *thread, u8 cpumode, u64 addr, u64 time,
			   struct addr_location *al)
{
	u8 other = addr >= KERNEL_START ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;

	thread__find_symbol(thread, cpumode, addr, time, al);
	if (!al->map && other != cpumode)
		thread__find_symbol(thread, other, addr, time, al);
}

static int print_dso(struct script_branch_buf *sb, const struct addr_location *al)
{
	return sbuf__printf(sb, "(%s)", al->map ? map__dso_name(al->map) : "[unknown]");
}

static int print_symoff(struct script_branch_buf *sb, const struct addr_location *al)
{
	if (!al->sym)
		return sbuf__printf(sb, "[unknown]");
	return sbuf__printf(sb, "%s+0x%" PRIx64, symbol__name(al->sym), al->addr - al->sym->start);
}

/*
 * An address as brstackoff prints it: perf's map__map_ip(), the offset
 * into the file for a user object, and for the kernel the offset from
 * the kernel map's start (perf's kernel map has pgoff 0); perf leaves a
 * [vdso] address as it is (its vdso object counts as adjusted)
 */
static u64 branch_offset(const struct addr_location *al, u64 addr)
{
	if (!al->map || (al->map->dso && al->map->dso->kind == DSO_KIND__VDSO))
		return addr;
	if (al->map->dso && al->map->dso->kind == DSO_KIND__KERNEL)
		return addr - al->map->start;
	return addr - al->map->start + al->map->pgoff;
}

int script_branch__format(struct script_branch_buf *sb, u64 fields, struct thread *thread,
			  const struct perf_sample *sample)
{
	bool dso = fields & SF_DSO;
	int err = 0;

	sb->len = 0;
	if (!sample->branch_entries || !sample->branch_nr)
		return 0;
	for (u64 i = 0; i < sample->branch_nr && !err; i++) {
		struct branch_entry e;
		struct addr_location from, to;

		/* the entries sit in the record: no alignment to count on */
		memcpy(&e, &sample->branch_entries[i], sizeof(e));
		addr_location__init(&from);
		addr_location__init(&to);
		if (fields & (SF_BRSTACKSYM | SF_BRSTACKOFF) || dso) {
			branch_resolve(thread, sample->cpumode, e.from, sample->time, &from);
			branch_resolve(thread, sample->cpumode, e.to, sample->time, &to);
		}
		if (fields & SF_BRSTACK) {
			err = sbuf__printf(sb, " 0x%" PRIx64, e.from);
			if (!err && dso)
				err = print_dso(sb, &from);
			if (!err)
				err = sbuf__printf(sb, "/0x%" PRIx64, e.to);
			if (!err && dso)
				err = print_dso(sb, &to);
		} else if (fields & SF_BRSTACKSYM) {
			err = print_symoff(sb, &from);
			if (!err && dso)
				err = print_dso(sb, &from);
			if (!err)
				err = sbuf__printf(sb, "/");
			if (!err)
				err = print_symoff(sb, &to);
			if (!err && dso)
				err = print_dso(sb, &to);
		} else {
			err = sbuf__printf(sb, " 0x%" PRIx64, branch_offset(&from, e.from));
			if (!err && dso)
				err = print_dso(sb, &from);
			if (!err)
				err = sbuf__printf(sb, "/0x%" PRIx64, branch_offset(&to, e.to));
			if (!err && dso)
				err = print_dso(sb, &to);
		}
		if (!err)
			err = bstack_flags(sb, &e);
		addr_location__exit(&from);
		addr_location__exit(&to);
	}
	return err ? -1 : 0;
}
