// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf script's sample filters.  perf keeps them in symbol_conf and marks
 * a resolved sample as filtered; here they live in one struct the script
 * tool consults only when some filter was given, so the sample path costs
 * one branch when there is none.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "debug.h"
#include "dso.h"
#include "event.h"
#include "machine.h"
#include "map.h"
#include "script-filter.h"
#include "symbol.h"
#include "thread.h"

bool script_filter__active(const struct script_filter *f)
{
	return f->time_str || f->cpu_str || f->pid_str || f->tid_str || f->comm_str || f->dso_str ||
	       f->sym_str;
}

/* perf's strlist: the value split at commas, empty names included */
static int name_list__parse(struct script_name_list *l, const char *str)
{
	char *p;
	size_t n = 1;

	for (p = (char *)str; *p; p++)
		n += *p == ',';
	l->buf = strdup(str);
	l->names = calloc(n, sizeof(*l->names));
	if (!l->buf || !l->names)
		return -ENOMEM;
	for (p = l->buf; p; l->nr++) {
		l->names[l->nr] = p;
		p = strchr(p, ',');
		if (p)
			*p++ = 0;
	}
	return 0;
}

static bool name_list__has(const struct script_name_list *l, const char *name)
{
	size_t i;

	for (i = 0; name && i < l->nr; i++)
		if (!strcmp(l->names[i], name))
			return true;
	return false;
}

/* perf's intlist: strtol() base 0 of each entry, trailing junk ignored */
static int int_list__parse(struct script_int_list *l, const char *str)
{
	const char *p = str;
	size_t n = 1;

	for (; *p; p++)
		n += *p == ',';
	l->v = calloc(n, sizeof(*l->v));
	if (!l->v)
		return -ENOMEM;
	for (p = str;; p++) {
		char *end;

		l->v[l->nr] = strtol(p, &end, 0);
		if (end == p)
			return -EINVAL;
		l->nr++;
		p = strchr(end, ',');
		if (!p)
			return 0;
	}
}

static bool int_list__has(const struct script_int_list *l, long v)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		if (l->v[i] == v)
			return true;
	return false;
}

/*
 * -S: perf takes the entries that read wholly as hex (blanks may trail) as
 * sample addresses, the rest as symbol names.  "add" is an address too.
 */
static int sym_list__split(struct script_filter *f)
{
	size_t i, kept = 0;

	f->addrs.v = calloc(f->syms.nr, sizeof(*f->addrs.v));
	if (!f->addrs.v)
		return -ENOMEM;
	for (i = 0; i < f->syms.nr; i++) {
		const char *s = f->syms.names[i];
		char *end;
		unsigned long v;

		errno = 0;
		v = strtoul(s, &end, 16);
		while (end != s && isspace((unsigned char)*end))
			end++;
		if (!errno && end != s && !*end)
			f->addrs.v[f->addrs.nr++] = v;
		else
			f->syms.names[kept++] = f->syms.names[i];
	}
	f->syms.nr = kept;
	return 0;
}

/* perf's cpu map syntax: "0-3,8", ascending ranges */
static int cpu_bitmap__parse(struct script_filter *f)
{
	const char *p = f->cpu_str;

	f->cpus = calloc(SCRIPT_FILTER_MAX_CPUS / 8, 1);
	if (!f->cpus)
		return -ENOMEM;
	while (*p) {
		unsigned long a, b;
		char *end;

		if (!isdigit((unsigned char)*p))
			goto bad;
		a = b = strtoul(p, &end, 10);
		if (*end == '-') {
			p = end + 1;
			if (!isdigit((unsigned char)*p))
				goto bad;
			b = strtoul(p, &end, 10);
			if (b < a)
				goto bad;
		}
		if (*end && *end != ',')
			goto bad;
		if (b >= SCRIPT_FILTER_MAX_CPUS) {
			pr_err("Perf can support %d CPUs. Consider raising MAX_NR_CPUS\n"
			       "Requested CPU %lu too large. Consider raising MAX_NR_CPUS\n",
			       SCRIPT_FILTER_MAX_CPUS, b);
			return -EINVAL;
		}
		for (; a <= b; a++)
			f->cpus[a / 8] |= 1 << (a % 8);
		p = *end ? end + 1 : end;
	}
	return 0;
bad:
	pr_err("Invalid cpu_list\n");
	return -EINVAL;
}

int script_filter__init(struct script_filter *f, u64 first, u64 last, bool has_cpu)
{
	int err = 0;

	if (f->time_str) {
		f->nr_ranges =
		    perf_time__parse_ranges(f->time_str, first, last, f->reltime, &f->ranges);
		if (f->nr_ranges == -ENODATA) {
			pr_err("HINT: no first/last sample time found in perf data.\n"
			       "Please use latest perf binary to execute 'perf record'\n"
			       "(if '--buildid-all' is enabled, please set "
			       "'--timestamp-boundary').\n");
			return -EINVAL;
		}
		if (f->nr_ranges < 0) {
			pr_err("Invalid time string\n");
			return -EINVAL;
		}
	}
	if (f->cpu_str) {
		if (!has_cpu) {
			pr_err("File does not contain CPU events. Remove -C option to proceed.\n");
			return -EINVAL;
		}
		err = cpu_bitmap__parse(f);
		if (err)
			return err;
	}
	if (f->pid_str && int_list__parse(&f->pids, f->pid_str)) {
		pr_err("problems parsing pid list\n");
		return -EINVAL;
	}
	if (f->tid_str && int_list__parse(&f->tids, f->tid_str)) {
		pr_err("problems parsing tid list\n");
		return -EINVAL;
	}
	if (f->comm_str)
		err = name_list__parse(&f->comms, f->comm_str);
	if (!err && f->dso_str)
		err = name_list__parse(&f->dsos, f->dso_str);
	if (!err && f->sym_str)
		err = name_list__parse(&f->syms, f->sym_str) ?: sym_list__split(f);
	if (err) {
		pr_err("no memory for the filters\n");
		return err;
	}
	f->by_time_cpu = f->time_str || f->cpu_str;
	f->by_location = f->pid_str || f->tid_str || f->comm_str || f->dso_str || f->sym_str;
	return 0;
}

void script_filter__exit(struct script_filter *f)
{
	zfree(&f->ranges);
	zfree(&f->cpus);
	zfree(&f->pids.v);
	zfree(&f->tids.v);
	zfree(&f->addrs.v);
	zfree(&f->comms.buf);
	zfree(&f->comms.names);
	zfree(&f->dsos.buf);
	zfree(&f->dsos.names);
	zfree(&f->syms.buf);
	zfree(&f->syms.names);
}

bool script_filter__skip_cpu(const struct script_filter *f, u32 cpu)
{
	/* a record without a cpu (-1) is never left out */
	if (!f->cpus || cpu == (u32)-1)
		return false;
	return cpu >= SCRIPT_FILTER_MAX_CPUS || !(f->cpus[cpu / 8] & (1 << (cpu % 8)));
}

bool script_filter__skip_time_cpu(const struct script_filter *f, u64 time, u32 cpu)
{
	return perf_time__ranges_skip(f->ranges, f->nr_ranges, time) ||
	       script_filter__skip_cpu(f, cpu);
}

bool script_filter__skip_early(const struct script_filter *f, const struct perf_sample *sample)
{
	return script_filter__skip_time_cpu(f, sample->time, sample->cpu);
}

static bool dso__listed(const struct script_name_list *l, const struct dso *dso)
{
	return name_list__has(l, dso->short_name) || name_list__has(l, dso->name) ||
	       name_list__has(l, dso->long_name);
}

bool script_filter__skip_resolved(const struct script_filter *f, const struct perf_sample *sample,
				  const struct addr_location *al)
{
	const struct thread *t = al->thread;

	if (f->comms.nr && !name_list__has(&f->comms, t ? thread__comm_str(t) : NULL))
		return true;
	if (f->pid_str && (!t || !int_list__has(&f->pids, t->pid)))
		return true;
	if (f->tid_str && (!t || !int_list__has(&f->tids, t->tid)))
		return true;
	if (f->dso_str && (!al->map || !dso__listed(&f->dsos, al->map->dso)))
		return true;
	if (f->sym_str) {
		const char *name = al->sym ? symbol__name(al->sym) : NULL;

		/*
		 * perf also compares "0x<symbol start>" with the names, but
		 * every such entry reads as hex and went to the addresses
		 */
		if (name_list__has(&f->syms, name))
			return false;
		return !(al->map && int_list__has(&f->addrs, (long)sample->ip));
	}
	return false;
}
