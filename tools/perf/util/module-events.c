// SPDX-License-Identifier: GPL-2.0-only
/*
 * kcore_dir/module_events: the modules that came and went while a
 * recording ran, read and written (the format is in module-events.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "debug.h"
#include "kcore.h"
#include "module-events.h"
#include "write-all.h"

/* an index line longer than this is not one */
#define MODULE_EVENTS_LINE 1024

void module_events__init(struct module_events *me)
{
	memset(me, 0, sizeof(*me));
}

void module_events__exit(struct module_events *me)
{
	for (size_t i = 0; i < me->nr_loads; i++) {
		kcore__delete(me->loads[i].code);
		free(me->loads[i].kallsyms);
	}
	free(me->loads);
	free(me->frees);
	module_events__init(me);
}

int module_events__add_load(struct module_events *me, const struct module_load *ml)
{
	if (me->nr_loads == me->alloc_loads) {
		size_t n = me->alloc_loads ? 2 * me->alloc_loads : 8;
		struct module_load *tmp = realloc(me->loads, n * sizeof(*tmp));

		if (!tmp)
			return -ENOMEM;
		me->loads = tmp;
		me->alloc_loads = n;
	}
	me->loads[me->nr_loads++] = *ml;
	return 0;
}

int module_events__add_free(struct module_events *me, const char *name, u64 time)
{
	struct module_free *f;

	if (me->nr_frees == me->alloc_frees) {
		size_t n = me->alloc_frees ? 2 * me->alloc_frees : 8;
		struct module_free *tmp = realloc(me->frees, n * sizeof(*tmp));

		if (!tmp)
			return -ENOMEM;
		me->frees = tmp;
		me->alloc_frees = n;
	}
	f = &me->frees[me->nr_frees++];
	snprintf(f->name, sizeof(f->name), "%s", name);
	f->time = time;
	return 0;
}

bool module_load__code_ok(const struct module_load *ml, bool init)
{
	if (ml->read_to == MODULE_TIME_NONE || ml->read_from > ml->read_to)
		return false;
	/* module_free comes first thing in free_module(), before any of it goes */
	if (ml->free_time != MODULE_TIME_NONE && ml->free_time <= ml->read_to)
		return false;
	/* past the initial reference's drop, do_free_init() may run at any time */
	return !init || ml->init_end == MODULE_TIME_NONE || ml->init_end > ml->read_to;
}

u64 module_load__end(const struct module_load *ml, u64 addr)
{
	if (module_range__has(&ml->init, addr) && ml->init_end < ml->free_time)
		return ml->init_end;
	return ml->free_time;
}

/* a name as the kernel allows one (module names are C identifiers, '-' read as '_') */
static bool module_name__valid(const char *name)
{
	size_t n = strlen(name);

	if (!n || n >= MODULE_NAME_MAX)
		return false;
	return strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") ==
	       n;
}

static int parse_u64(const char *s, char **end, u64 *v)
{
	unsigned long long x;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	x = strtoull(s, end, 0);
	if (errno)
		return -EINVAL;
	*v = x;
	return 0;
}

/* "<addr>+<len>", the range wrapping nothing */
static int parse_range(const char *s, struct module_range *r)
{
	char *end;

	if (parse_u64(s, &end, &r->addr) || *end != '+' || parse_u64(end + 1, &end, &r->len) ||
	    *end || r->addr + r->len < r->addr)
		return -EINVAL;
	return 0;
}

static int parse_time(const char *s, u64 *t)
{
	char *end;

	return parse_u64(s, &end, t) || *end || *t == MODULE_TIME_NONE ? -EINVAL : 0;
}

static int module_load__parse_key(struct module_load *ml, const char *key, const char *val)
{
	char *end;

	if (!strcmp(key, "core"))
		return parse_range(val, &ml->core);
	if (!strcmp(key, "text"))
		return parse_range(val, &ml->text);
	if (!strcmp(key, "init"))
		return parse_range(val, &ml->init);
	if (!strcmp(key, "init_text"))
		return parse_range(val, &ml->init_text);
	if (!strcmp(key, "init_end"))
		return parse_time(val, &ml->init_end);
	if (!strcmp(key, "free"))
		return parse_time(val, &ml->free_time);
	if (!strcmp(key, "read")) {
		if (parse_u64(val, &end, &ml->read_from) || *end != '-' ||
		    parse_time(end + 1, &ml->read_to) || ml->read_from > ml->read_to)
			return -EINVAL;
		return 0;
	}
	/* a later version's key */
	return 0;
}

/* the text and init_text ranges lie inside their allocations */
static bool module_load__consistent(const struct module_load *ml)
{
	const struct module_range *in[2][2] = {{&ml->text, &ml->core}, {&ml->init_text, &ml->init}};

	for (int i = 0; i < 2; i++) {
		const struct module_range *t = in[i][0], *a = in[i][1];

		if (t->len && (t->addr < a->addr || t->addr + t->len > a->addr + a->len))
			return false;
	}
	if (ml->time > ml->free_time || ml->time > ml->init_end)
		return false;
	return true;
}

static int module_events__parse_load(struct module_load *ml, char *line)
{
	char *save, *tok, *eq;
	u64 seq;

	memset(ml, 0, sizeof(*ml));
	ml->read_from = ml->read_to = ml->init_end = ml->free_time = MODULE_TIME_NONE;
	tok = strtok_r(line, " \t\n", &save);
	if (!tok || parse_time(tok, &seq) || !seq || seq > 1000000)
		return -EINVAL;
	ml->seq = seq;
	tok = strtok_r(NULL, " \t\n", &save);
	if (!tok || !module_name__valid(tok))
		return -EINVAL;
	snprintf(ml->name, sizeof(ml->name), "%s", tok);
	tok = strtok_r(NULL, " \t\n", &save);
	if (!tok || parse_time(tok, &ml->time))
		return -EINVAL;
	while ((tok = strtok_r(NULL, " \t\n", &save))) {
		eq = strchr(tok, '=');
		if (!eq)
			return -EINVAL;
		*eq = '\0';
		if (module_load__parse_key(ml, tok, eq + 1))
			return -EINVAL;
	}
	return module_load__consistent(ml) ? 0 : -EINVAL;
}

static int module_events__parse_free(struct module_events *me, char *line)
{
	char name[MODULE_NAME_MAX + 1], *end;
	u64 time;

	if (sscanf(line, "%64s", name) != 1 || !module_name__valid(name))
		return -EINVAL;
	line = strstr(line, name) + strlen(name);
	line += strspn(line, " \t");
	if (parse_u64(line, &end, &time) || (*end && *end != '\n') || time == MODULE_TIME_NONE)
		return -EINVAL;
	return module_events__add_free(me, name, time);
}

/* load @ml's code and kallsyms files, when they are there */
static int module_load__open_files(struct module_load *ml, const char *kcore_dir)
{
	char *path;

	if (asprintf(&path, "%s/module.%u.kallsyms", kcore_dir, ml->seq) < 0)
		return -ENOMEM;
	if (!access(path, R_OK))
		ml->kallsyms = path;
	else
		free(path);
	if (ml->read_to == MODULE_TIME_NONE)
		return 0;
	if (asprintf(&path, "%s/module.%u.kcore", kcore_dir, ml->seq) < 0)
		return -ENOMEM;
	/* what is wrong with it is said, and its bytes stay unknown */
	ml->code = kcore__open(path);
	if (!ml->code && errno == ENOMEM) {
		free(path);
		return -ENOMEM;
	}
	if (!ml->code)
		pr_warning("%s: the code of module %s loaded at %" PRIu64 " is unknown\n", path,
			   ml->name, ml->time);
	free(path);
	return 0;
}

static bool range__overlaps(const struct module_range *r, u64 addr, u64 len)
{
	return r->len && addr < r->addr + r->len && addr + len > r->addr;
}

static bool module_load__overlaps(const struct module_load *ml, u64 addr, u64 len)
{
	return range__overlaps(&ml->core, addr, len) || range__overlaps(&ml->init, addr, len);
}

/* what ended over @ml's ranges before it loaded: earlier loads' frees, other modules' */
static void module_events__set_floors(struct module_events *me)
{
	for (size_t i = 0; i < me->nr_loads; i++) {
		struct module_load *ml = &me->loads[i];

		ml->birth = ml->time;
		ml->floor = 0;
		for (size_t j = 0; j < i; j++) {
			const struct module_load *prev = &me->loads[j];
			const struct module_range *r[2] = {&ml->core, &ml->init};

			for (int k = 0; k < 2; k++) {
				u64 end = module_load__end(prev, r[k]->addr);

				if (module_load__overlaps(prev, r[k]->addr, r[k]->len) &&
				    end <= ml->time && end > ml->floor)
					ml->floor = end;
			}
		}
	}
}

bool module_events__note_poke(struct module_events *me, u64 addr, u16 old_len, u16 new_len,
			      u64 time)
{
	u64 len = old_len > new_len ? old_len : new_len;
	bool moved = false;

	for (size_t i = 0; i < me->nr_loads; i++) {
		struct module_load *ml = &me->loads[i];

		if (time > ml->time || time < ml->floor ||
		    !module_load__overlaps(ml, addr, len ?: 1))
			continue;
		if (!old_len || !new_len) {
			/* code of something else came or went there: not the module yet */
			ml->floor = time;
			moved |= ml->birth != ml->time;
			ml->birth = ml->time;
		} else if (ml->birth == ml->time && time < ml->time) {
			ml->birth = time;
			moved = true;
		}
	}
	return moved;
}

void module_events__note_end(struct module_events *me, u64 addr, u64 len, u64 time)
{
	for (size_t i = 0; i < me->nr_loads; i++) {
		struct module_load *ml = &me->loads[i];

		if (time > ml->time || time < ml->floor ||
		    !module_load__overlaps(ml, addr, len ?: 1))
			continue;
		ml->floor = time;
		ml->birth = ml->time;
	}
}

const struct module_load *module_events__find(const struct module_events *me, u64 addr, u64 time)
{
	const struct module_load *best = NULL;

	for (size_t i = 0; i < me->nr_loads; i++) {
		const struct module_load *ml = &me->loads[i];

		if (!module_range__has(&ml->core, addr) && !module_range__has(&ml->init, addr))
			continue;
		if (time < ml->birth || time >= module_load__end(ml, addr))
			continue;
		if (!best || ml->birth > best->birth)
			best = ml;
	}
	return best;
}

bool module_events__dynamic(const struct module_events *me, u64 addr)
{
	if (addr < me->lo || addr >= me->hi)
		return false;
	for (size_t i = 0; i < me->nr_loads; i++) {
		const struct module_load *ml = &me->loads[i];

		if (module_range__has(&ml->core, addr) || module_range__has(&ml->init, addr))
			return true;
	}
	for (size_t i = 0; i < me->nr_frees; i++) {
		if (module_range__has(&me->frees[i].range, addr))
			return true;
	}
	return false;
}

bool module_events__live(const struct module_events *me, u64 addr, u64 time)
{
	if (module_events__find(me, addr, time))
		return true;
	for (size_t i = 0; i < me->nr_frees; i++) {
		if (module_range__has(&me->frees[i].range, addr) && time < me->frees[i].time)
			return true;
	}
	return false;
}

size_t module_events__mask(const struct module_events *me, u64 addr, size_t len, u64 time,
			   u8 *known)
{
	size_t cleared = 0;

	/* most reads are of the kernel's own text: nowhere near a module */
	if (addr >= me->hi || addr + len <= me->lo)
		return 0;
	for (size_t i = 0; i < len; i++) {
		if (!known[i] || !module_events__dynamic(me, addr + i) ||
		    module_events__live(me, addr + i, time))
			continue;
		known[i] = 0;
		cleared++;
	}
	return cleared;
}

int modules_file__read(const char *path, struct module_line **lines)
{
	struct module_line *out = NULL, *tmp;
	int nr = 0, alloc = 0;
	char line[1024];
	FILE *f = fopen(path, "r");

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char name[MODULE_NAME_MAX + 1], *at = strstr(line, " 0x");
		unsigned long long size, addr;

		if (sscanf(line, "%64s %llu", name, &size) != 2 || !at ||
		    sscanf(at + 1, "%llx", &addr) != 1 || !module_name__valid(name))
			continue;
		if (nr == alloc) {
			alloc = alloc ? 2 * alloc : 64;
			tmp = realloc(out, alloc * sizeof(*out));
			if (!tmp) {
				free(out);
				fclose(f);
				return -ENOMEM;
			}
			out = tmp;
		}
		snprintf(out[nr].name, sizeof(out[nr].name), "%s", name);
		out[nr].core = (struct module_range){addr, addr + size < addr ? 0 : size};
		nr++;
	}
	fclose(f);
	*lines = out;
	return nr;
}

/* where the modules freed during the recording were, from the copy made at its start */
static int module_events__place_frees(struct module_events *me, const char *kcore_dir)
{
	struct module_line *lines = NULL;
	char *path;
	int nr;

	if (!me->nr_frees)
		return 0;
	if (asprintf(&path, "%s/modules", kcore_dir) < 0)
		return -ENOMEM;
	nr = modules_file__read(path, &lines);
	free(path);
	if (nr == -ENOMEM)
		return nr;
	for (size_t i = 0; i < me->nr_frees; i++) {
		for (int j = 0; j < nr; j++) {
			if (!strcmp(lines[j].name, me->frees[i].name))
				me->frees[i].range = lines[j].core;
		}
	}
	free(lines);
	return 0;
}

/* the bounds of every range, which most addresses are outside of */
static void module_events__bounds(struct module_events *me)
{
	const struct module_range *r;

	me->lo = ~0ULL;
	me->hi = 0;
	for (size_t i = 0; i < 2 * me->nr_loads + me->nr_frees; i++) {
		if (i < 2 * me->nr_loads)
			r = i % 2 ? &me->loads[i / 2].init : &me->loads[i / 2].core;
		else
			r = &me->frees[i - 2 * me->nr_loads].range;
		if (!r->len)
			continue;
		if (r->addr < me->lo)
			me->lo = r->addr;
		if (r->addr + r->len > me->hi)
			me->hi = r->addr + r->len;
	}
}

static int module_load__cmp(const void *a, const void *b)
{
	const struct module_load *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

int module_events__read(struct module_events *me, const char *kcore_dir)
{
	char *path, line[MODULE_EVENTS_LINE];
	unsigned int nr = 0;
	int err = 0;
	FILE *f;

	if (asprintf(&path, "%s/" MODULE_EVENTS_FILE, kcore_dir) < 0)
		return -ENOMEM;
	f = fopen(path, "r");
	if (!f) {
		err = errno == ENOENT ? 0 : -errno;
		if (err)
			pr_warning("%s: %s: modules loaded while recording are unknown\n", path,
				   strerror(-err));
		free(path);
		return err == -ENOMEM ? err : 0;
	}
	me->captured = true;
	while (!err && fgets(line, sizeof(line), f)) {
		struct module_load ml;
		int bad = 0;

		nr++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (!strchr(line, '\n') && !feof(f)) {
			int c;

			/* the rest of an overlong line goes with it */
			while ((c = fgetc(f)) != EOF && c != '\n')
				;
			bad = -EINVAL;
		} else if (!strncmp(line, "load ", 5)) {
			bad = module_events__parse_load(&ml, line + 5);
			if (!bad) {
				err = module_load__open_files(&ml, kcore_dir);
				if (!err)
					err = module_events__add_load(me, &ml);
				if (err) {
					kcore__delete(ml.code);
					free(ml.kallsyms);
				}
			}
		} else if (!strncmp(line, "free ", 5)) {
			bad = module_events__parse_free(me, line + 5);
			if (bad == -ENOMEM)
				err = bad;
		} else {
			bad = -EINVAL;
		}
		if (bad && !err)
			pr_warning("%s:%u: not a module event: skipped\n", path, nr);
	}
	fclose(f);
	free(path);
	if (!err) {
		if (me->nr_loads) /* loads is NULL then, which qsort() may not take */
			qsort(me->loads, me->nr_loads, sizeof(*me->loads), module_load__cmp);
		module_events__set_floors(me);
		err = module_events__place_frees(me, kcore_dir);
		module_events__bounds(me);
	}
	return err;
}

static int put_range(char *buf, size_t size, const char *key, const struct module_range *r)
{
	if (!r->len)
		return 0;
	return snprintf(buf, size, " %s=%#" PRIx64 "+%#" PRIx64, key, r->addr, r->len);
}

static int put_time(char *buf, size_t size, const char *key, u64 t)
{
	if (t == MODULE_TIME_NONE)
		return 0;
	return snprintf(buf, size, " %s=%" PRIu64, key, t);
}

int module_events__write(const struct module_events *me, const char *kcore_dir)
{
	char *path, *tmp, line[MODULE_EVENTS_LINE];
	FILE *f;
	int err = 0;

	if (asprintf(&path, "%s/" MODULE_EVENTS_FILE, kcore_dir) < 0)
		return -ENOMEM;
	if (asprintf(&tmp, "%s.tmp", path) < 0) {
		free(path);
		return -ENOMEM;
	}
	f = fopen(tmp, "w");
	if (!f) {
		err = -errno;
		goto out_free;
	}
	fprintf(f, "# perf textpoke: kernel modules loaded or freed while recording, "
		   "see perf-textpoke-record(1)\n");
	for (size_t i = 0; i < me->nr_loads; i++) {
		const struct module_load *ml = &me->loads[i];
		size_t n = snprintf(line, sizeof(line), "load %u %s %" PRIu64, ml->seq, ml->name,
				    ml->time);

		n += put_range(line + n, sizeof(line) - n, "core", &ml->core);
		n += put_range(line + n, sizeof(line) - n, "text", &ml->text);
		n += put_range(line + n, sizeof(line) - n, "init", &ml->init);
		n += put_range(line + n, sizeof(line) - n, "init_text", &ml->init_text);
		if (ml->read_to != MODULE_TIME_NONE)
			n += snprintf(line + n, sizeof(line) - n, " read=%" PRIu64 "-%" PRIu64,
				      ml->read_from, ml->read_to);
		n += put_time(line + n, sizeof(line) - n, "init_end", ml->init_end);
		put_time(line + n, sizeof(line) - n, "free", ml->free_time);
		fprintf(f, "%s\n", line);
	}
	for (size_t i = 0; i < me->nr_frees; i++)
		fprintf(f, "free %s %" PRIu64 "\n", me->frees[i].name, me->frees[i].time);
	if (ferror(f))
		err = -EIO;
	if (fclose(f) && !err)
		err = -errno;
	if (!err && rename(tmp, path))
		err = -errno;
	if (err)
		unlink(tmp);
out_free:
	free(tmp);
	free(path);
	return err;
}
