// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf's event syntax for record -e, resolved the way perf resolves it:
 *
 *   list   := item { ',' item }
 *   item   := '{' event { ',' event } '}' [ ':' mods ] | event
 *   event  := name [ '/' terms '/' ] [ [':'] mods ]     symbolic or PMU
 *           | 'r' HEX [ ':' mods ]                      raw
 *           | 'mem:' ADDR [ '/' LEN ] [ ':' [rwx]* mods ] breakpoint
 *           | SYS ':' NAME [ ':' mods ]                 tracepoint, globs too
 *   terms  := term { ',' term };  term := key [ '=' value ]
 *
 * A PMU is a directory of /sys/bus/event_source/devices: its type file
 * gives attr.type, format/KEY places a term's value in config, config1
 * or config2 ("config:0-7,32-35"), events/NAME is a named event whose
 * text is more terms.  Nothing here knows a PMU by name, so whatever the
 * machine has works as it does in perf.  Tracepoints come from tracefs.
 */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug.h"
#include <linux/hw_breakpoint.h>

#include "record-events.h"

#define PMU_DIR "/sys/bus/event_source/devices"

/* the events one item of the list gave: several for a group or a glob */
struct ev_vec {
	struct record_event *ev;
	int nr;
};

static void ev_vec__exit(struct ev_vec *v)
{
	for (int i = 0; i < v->nr; i++)
		record_event__exit(&v->ev[i]);
	zfree(&v->ev);
	v->nr = 0;
}

/* a new zeroed event at the end of @v, with perf's starting attr */
static struct record_event *ev_vec__add(struct ev_vec *v, const char *name, size_t len)
{
	struct record_event *tmp = realloc(v->ev, (v->nr + 1) * sizeof(*tmp)), *ev;

	if (!tmp)
		return NULL;
	v->ev = tmp;
	ev = &tmp[v->nr];
	memset(ev, 0, sizeof(*ev));
	ev->name = strndup(name, len);
	if (!ev->name)
		return NULL;
	v->nr++;
	ev->inherit = -1;
	ev->call_graph = -1;
	ev->attr.size = sizeof(ev->attr);
	ev->attr.exclude_guest = 1;
	return ev;
}

/* the first line of a sysfs file, without its newline; 0 or -errno */
static int read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	int err = 0;

	if (!f)
		return -errno;
	if (!fgets(buf, size, f))
		err = -EINVAL;
	else
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
	return err;
}

static int parse_u64(const char *s, size_t len, u64 *v)
{
	char tmp[32], *end;

	if (!len || len >= sizeof(tmp))
		return -EINVAL;
	memcpy(tmp, s, len);
	tmp[len] = '\0';
	errno = 0;
	*v = strtoull(tmp, &end, 0);
	return errno || *end ? -EINVAL : 0;
}

/*
 * A format file's "config1:0-7,32-35": the value's bits, lowest first,
 * go to those bit ranges in order; a value wider than them is an error,
 * as in perf.
 */
int record_event__format_place(struct perf_event_attr *attr, const char *fmt, u64 value)
{
	const char *p = strchr(fmt, ':');
	__u64 *field;
	int used = 0;

	if (!p)
		return -EINVAL;
	if (!strncmp(fmt, "config:", 7))
		field = &attr->config;
	else if (!strncmp(fmt, "config1:", 8))
		field = &attr->config1;
	else if (!strncmp(fmt, "config2:", 8))
		field = &attr->config2;
	else
		return -EINVAL;
	for (p++; *p;) {
		char *end;
		unsigned long lo = strtoul(p, &end, 10), hi = lo;

		if (end == p)
			return -EINVAL;
		if (*end == '-')
			hi = strtoul(end + 1, &end, 10);
		if (hi < lo || hi > 63)
			return -EINVAL;
		for (unsigned long b = lo; b <= hi; b++, used++) {
			*field &= ~(1ULL << b);
			if (used < 64 && (value >> used) & 1)
				*field |= 1ULL << b;
		}
		p = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			return -EINVAL;
	}
	if (used < 64 && value >> used)
		return -ERANGE;
	return 0;
}

static int apply_terms(struct record_event *ev, const char *pmu, const char *terms, size_t len,
		       int depth);

/* one term of a PMU's list: a built-in, a format term of @pmu, or one of its named events */
static int apply_term(struct record_event *ev, const char *pmu, const char *t, size_t len,
		      int depth)
{
	const char *eq = memchr(t, '=', len);
	size_t klen = eq ? (size_t)(eq - t) : len;
	const char *val = eq ? eq + 1 : NULL;
	size_t vlen = eq ? len - klen - 1 : 0;
	char key[64], path[512], buf[256];
	u64 v = 1;
	bool numeric = !val || !parse_u64(val, vlen, &v);

#define IS(k) (klen == strlen(k) && !strncmp(t, k, klen))
	if (klen >= sizeof(key))
		goto unknown;
	if (IS("name") && val) {
		free(ev->name);
		ev->name = strndup(val, vlen);
		return ev->name ? 0 : -ENOMEM;
	}
	if (IS("call-graph") && val) {
		if (vlen == 2 && !strncmp(val, "fp", 2))
			ev->call_graph = RECORD_EV_CG_FP;
		else if (vlen == 5 && !strncmp(val, "dwarf", 5))
			ev->call_graph = RECORD_EV_CG_DWARF;
		else if (vlen == 2 && !strncmp(val, "no", 2))
			ev->call_graph = RECORD_EV_CG_NONE;
		else
			goto bad_value;
		return 0;
	}
	if (IS("no-inherit") && !val) {
		ev->inherit = 0;
		return 0;
	}
	if (!numeric)
		goto bad_value;
	if (IS("config") && val) {
		ev->attr.config = v;
	} else if (IS("config1") && val) {
		ev->attr.config1 = v;
	} else if (IS("config2") && val) {
		ev->attr.config2 = v;
	} else if (IS("period") && val) {
		ev->attr.sample_period = v;
		ev->attr.freq = 0;
		ev->has_period = true;
		ev->has_freq = false;
	} else if (IS("freq") && val) {
		ev->attr.sample_freq = v;
		ev->attr.freq = 1;
		ev->has_freq = true;
		ev->has_period = false;
	} else if (IS("stack-size") && val) {
		ev->stack_size = v;
	} else if (IS("inherit")) {
		ev->inherit = !!v;
	} else if (pmu) {
		memcpy(key, t, klen);
		key[klen] = '\0';
		snprintf(path, sizeof(path), "%s/%s/format/%s", PMU_DIR, pmu, key);
		if (!read_line(path, buf, sizeof(buf))) {
			int err = record_event__format_place(&ev->attr, buf, v);

			if (err == -ERANGE) {
				pr_err("event '%s': value too big for format %s (%s)\n", ev->name,
				       key, buf);
				return -EINVAL;
			}
			if (err) {
				pr_err("%s: cannot read the format '%s'\n", path, buf);
				return -EINVAL;
			}
			return 0;
		}
		snprintf(path, sizeof(path), "%s/%s/events/%s", PMU_DIR, pmu, key);
		/* a named event is terms itself; it names no other, but a bad sysfs might */
		if (!val && depth < 4 && !read_line(path, buf, sizeof(buf)))
			return apply_terms(ev, pmu, buf, strlen(buf), depth + 1);
		goto unknown;
	} else {
		goto unknown;
	}
	return 0;
#undef IS
bad_value:
	pr_err("event '%s': bad value in the term '%.*s'\n", ev->name, (int)len, t);
	return -EINVAL;
unknown:
	pr_err("event '%s': unknown term '%.*s'%s%s; valid terms: config,config1,config2,name,"
	       "period,freq,call-graph,stack-size,no-inherit,inherit%s\n",
	       ev->name, (int)klen, t, pmu ? " for pmu " : "", pmu ? pmu : "",
	       pmu ? " and the files of " PMU_DIR "/PMU/format and events" : "");
	return -EINVAL;
}

static int apply_terms(struct record_event *ev, const char *pmu, const char *terms, size_t len,
		       int depth)
{
	const char *p = terms, *end = terms + len;

	while (p < end) {
		const char *c = memchr(p, ',', end - p);
		const char *e = c ? c : end;
		int err;

		if (e == p) {
			pr_err("event '%s': an empty term\n", ev->name);
			return -EINVAL;
		}
		err = apply_term(ev, pmu, p, e - p, depth);
		if (err)
			return err;
		p = c ? c + 1 : end;
	}
	return 0;
}

static int tracepoint_id(const char *sys, const char *name, u64 *id);
static int dir_filter(const struct dirent *d);

/*
 * tracepoint/config=N/: perf samples it as any PMU event, but a reader
 * needs its format in TRACING_DATA all the same, so find which one it is.
 */
static int tracepoint_by_id(struct record_event *ev)
{
	struct dirent **systems;
	char path[512];
	int nr, found = 0;

	snprintf(path, sizeof(path), "%s/events", tracefs__path());
	nr = scandir(path, &systems, dir_filter, NULL);
	for (int i = 0; i < nr; i++) {
		struct dirent **names;
		char dir[768];
		int n;

		snprintf(dir, sizeof(dir), "%s/%s", path, systems[i]->d_name);
		n = scandir(dir, &names, dir_filter, NULL);
		for (int j = 0; j < n; j++) {
			u64 id;

			if (!found && !tracepoint_id(systems[i]->d_name, names[j]->d_name, &id) &&
			    id == ev->attr.config) {
				ev->tp_system = strdup(systems[i]->d_name);
				ev->tp_name = strdup(names[j]->d_name);
				found = ev->tp_system && ev->tp_name ? 1 : -ENOMEM;
			}
			free(names[j]);
		}
		if (n > 0)
			free(names);
		free(systems[i]);
	}
	if (nr > 0)
		free(systems);
	if (found < 0)
		return found;
	if (!found) {
		pr_err("event '%s': no tracepoint has id %llu in %s\n", ev->name,
		       (unsigned long long)ev->attr.config, path);
		return -ENOENT;
	}
	ev->tp_by_config = true;
	return 0;
}

/* "pmu/terms/mods": a symbolic event with terms, or a PMU of sysfs */
static int parse_pmu_event(struct ev_vec *v, const char *s, size_t len)
{
	const char *slash = memchr(s, '/', len), *close;
	const char *mods;
	size_t nlen = slash - s;
	struct record_event *ev;
	char pmu[128], path[512], buf[64];
	u32 type;
	__u64 config;
	bool symbol;
	int err;

	close = memchr(slash + 1, '/', len - nlen - 1);
	if (!close) {
		pr_err("event '%.*s': expected '/' after the terms\n", (int)len, s);
		return -EINVAL;
	}
	mods = close + 1;
	if (*mods == ':')
		mods++;
	/* perf names such an event as typed, modifiers and all */
	ev = ev_vec__add(v, s, len);
	if (!ev)
		return -ENOMEM;
	symbol = !record_event__lookup_symbol(s, nlen, &type, &config);
	if (!symbol) {
		unsigned long long t;
		char *end;

		if (!nlen || nlen >= sizeof(pmu)) {
			pr_err("event '%.*s': expected a PMU name before '/'\n", (int)len, s);
			return -EINVAL;
		}
		memcpy(pmu, s, nlen);
		pmu[nlen] = '\0';
		snprintf(path, sizeof(path), "%s/%s/type", PMU_DIR, pmu);
		if (strchr(pmu, '.') || read_line(path, buf, sizeof(buf))) {
			/* perf's words */
			pr_err("event syntax error: '%.*s'\n  Cannot find PMU `%s'. Missing kernel "
			       "support?\n",
			       (int)len, s, pmu);
			return -ENOENT;
		}
		t = strtoull(buf, &end, 10);
		if (*end) {
			pr_err("%s: not a PMU type: '%s'\n", path, buf);
			return -EINVAL;
		}
		type = t;
		config = 0;
	}
	ev->attr.type = type;
	ev->attr.config = config;
	err = apply_terms(ev, symbol ? NULL : pmu, slash + 1, close - slash - 1, 0);
	if (err)
		return err;
	if (ev->attr.type == PERF_TYPE_TRACEPOINT) {
		err = tracepoint_by_id(ev);
		if (err)
			return err;
	}
	if (mods < s + len || close[1] == ':')
		return record_event__apply_modifiers(ev, mods, s + len - mods, false, true);
	return 0;
}

/* "mem:ADDR[/LEN][:rwx][mods]": a hardware breakpoint */
static int parse_breakpoint(struct ev_vec *v, const char *s, size_t len)
{
	const char *p = s + 4, *end = s + len, *slash = memchr(s, '/', len);
	const char *colon = memchr(p, ':', len - 4);
	const char *num_end = slash ? slash : colon ? colon : end;
	struct record_event *ev;
	u64 addr, blen = 0;
	u32 bp_type = 0;

	/* perf's name stops at a length */
	ev = ev_vec__add(v, s, slash ? (size_t)(slash - s) : len);
	if (!ev)
		return -ENOMEM;
	if (parse_u64(p, num_end - p, &addr) ||
	    (slash && parse_u64(slash + 1, (colon ? colon : end) - slash - 1, &blen))) {
		pr_err("event '%.*s': expected mem:ADDR[/LEN][:rwx]\n", (int)len, s);
		return -EINVAL;
	}
	if (colon) {
		p = colon + 1;
		for (; p < end && (*p == 'r' || *p == 'w' || *p == 'x'); p++)
			bp_type |= *p == 'r' ? HW_BREAKPOINT_R :
				   *p == 'w' ? HW_BREAKPOINT_W :
					       HW_BREAKPOINT_X;
	}
	if (!bp_type)
		bp_type = HW_BREAKPOINT_R | HW_BREAKPOINT_W;
	if (!blen)
		blen = bp_type == HW_BREAKPOINT_X ? sizeof(long) : HW_BREAKPOINT_LEN_4;
	ev->attr.type = PERF_TYPE_BREAKPOINT;
	ev->attr.bp_type = bp_type;
	ev->attr.bp_addr = addr;
	ev->attr.bp_len = blen;
	/* as perf: every hit is a sample */
	ev->attr.sample_period = 1;
	ev->has_period = true;
	if (colon && p < end)
		return record_event__apply_modifiers(ev, p, end - p, false, true);
	return 0;
}

static int tracepoint_id(const char *sys, const char *name, u64 *id)
{
	char path[768], buf[32];
	int err;

	snprintf(path, sizeof(path), "%s/events/%s/%s/id", tracefs__path(), sys, name);
	err = read_line(path, buf, sizeof(buf));
	if (err)
		return err;
	return parse_u64(buf, strlen(buf), id);
}

static int dir_filter(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

static int add_tracepoint(struct ev_vec *v, const char *sys, const char *name, u64 id,
			  const char *mods, size_t mlen)
{
	struct record_event *ev;
	char buf[512];

	/* perf names a tracepoint sys:name, whatever its modifiers */
	snprintf(buf, sizeof(buf), "%s:%s", sys, name);
	ev = ev_vec__add(v, buf, strlen(buf));
	if (!ev)
		return -ENOMEM;
	ev->attr.type = PERF_TYPE_TRACEPOINT;
	ev->attr.config = id;
	ev->attr.sample_period = 1;
	ev->has_period = true;
	ev->tp_system = strdup(sys);
	ev->tp_name = strdup(name);
	if (!ev->tp_system || !ev->tp_name)
		return -ENOMEM;
	if (mods)
		return record_event__apply_modifiers(ev, mods, mlen, false, true);
	return 0;
}

/* "sys:name[:mods]", either part a glob expanded from tracefs in its directory order, as perf */
static int parse_tracepoint(struct ev_vec *v, const char *s, size_t len, const char *colon)
{
	const char *name = colon + 1, *end = s + len;
	const char *more = memchr(name, ':', end - name);
	const char *mods = more ? more + 1 : NULL;
	size_t mlen = more ? (size_t)(end - more - 1) : 0;
	char *sys = strndup(s, colon - s);
	char *tp = strndup(name, (more ? more : end) - name);
	struct dirent **systems = NULL;
	int nr_sys = 0, nr_before = v->nr, err = 0;
	char path[512];
	u64 id;

	if (!sys || !tp) {
		err = -ENOMEM;
		goto out;
	}
	if (!strpbrk(sys, "*?[") && !strpbrk(tp, "*?[")) {
		err = tracepoint_id(sys, tp, &id);
		if (err && tracefs__error()) {
			pr_err("event '%.*s': tracefs is not mounted and mounting it at %s failed "
			       "(%s)\n",
			       (int)len, s, tracefs__path(), strerror(-tracefs__error()));
			goto out;
		}
		if (err) {
			pr_err("event '%.*s': no tracepoint %s:%s in %s/events (%s)\n", (int)len, s,
			       sys, tp, tracefs__path(), strerror(-err));
			goto out;
		}
		err = add_tracepoint(v, sys, tp, id, mods, mlen);
		goto out;
	}
	snprintf(path, sizeof(path), "%s/events", tracefs__path());
	nr_sys = scandir(path, &systems, dir_filter, NULL);
	if (nr_sys < 0) {
		err = -errno;
		pr_err("event '%.*s': cannot list %s: %s\n", (int)len, s, path, strerror(-err));
		nr_sys = 0;
		goto out;
	}
	for (int i = 0; i < nr_sys && !err; i++) {
		struct dirent **names;
		char dir[768];
		int n;

		if (fnmatch(sys, systems[i]->d_name, 0))
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", path, systems[i]->d_name);
		n = scandir(dir, &names, dir_filter, NULL);
		for (int j = 0; j < n; j++) {
			/* a system's enable and filter files have no id: skipped */
			if (!err && !fnmatch(tp, names[j]->d_name, 0) &&
			    !tracepoint_id(systems[i]->d_name, names[j]->d_name, &id))
				err = add_tracepoint(v, systems[i]->d_name, names[j]->d_name, id,
						     mods, mlen);
			free(names[j]);
		}
		if (n > 0)
			free(names);
	}
	if (!err && v->nr == nr_before) {
		pr_err("event '%.*s': no tracepoint matches in %s\n", (int)len, s, path);
		err = -ENOENT;
	}
out:
	for (int i = 0; i < nr_sys; i++)
		free(systems[i]);
	free(systems);
	free(sys);
	free(tp);
	return err;
}

/* one event's text: the events it gives go to @v */
static int parse_event(struct ev_vec *v, const char *s, size_t len)
{
	const char *colon = memchr(s, ':', len), *slash = memchr(s, '/', len);
	size_t head = colon ? (size_t)(colon - s) : len;
	struct record_event *ev;
	u32 type;
	__u64 config;

	if (len > 4 && !strncmp(s, "mem:", 4))
		return parse_breakpoint(v, s, len);
	if (slash && (!colon || slash < colon))
		return parse_pmu_event(v, s, len);
	if (!record_event__lookup_symbol(s, head, &type, &config)) {
		ev = ev_vec__add(v, s, len);
		if (!ev)
			return -ENOMEM;
		ev->attr.type = type;
		ev->attr.config = config;
	} else if (head > 1 && s[0] == 'r' && strspn(s + 1, "0123456789abcdefABCDEF") >= head - 1) {
		char hex[20];

		if (head - 1 >= sizeof(hex)) {
			pr_err("event '%.*s': a raw event is at most 64 bits\n", (int)len, s);
			return -EINVAL;
		}
		memcpy(hex, s + 1, head - 1);
		hex[head - 1] = '\0';
		ev = ev_vec__add(v, s, len);
		if (!ev)
			return -ENOMEM;
		ev->attr.type = PERF_TYPE_RAW;
		ev->attr.config = strtoull(hex, NULL, 16);
	} else if (colon) {
		return parse_tracepoint(v, s, len, colon);
	} else {
		pr_err("event '%.*s': unknown; try perf list's names (cpu-clock, task-clock, "
		       "cycles, ...), pmu/terms/, rNNNN, mem:ADDR or a tracepoint sys:name\n",
		       (int)len, s);
		return -EINVAL;
	}
	if (colon)
		return record_event__apply_modifiers(ev, colon + 1, len - head - 1, false, true);
	return 0;
}

/* the end of the event at @p: a comma or brace, except inside a PMU's /terms/ */
static const char *event_end(const char *p)
{
	bool in_terms = false, mem = !strncmp(p, "mem:", 4);

	for (; *p; p++) {
		if (*p == '/' && !mem)
			in_terms = !in_terms;
		else if (!in_terms && (*p == ',' || *p == '{' || *p == '}'))
			break;
	}
	return p;
}

static int hand_over(struct ev_vec *v, record_events__fn fn, void *ctx, bool group)
{
	int err = 0, i;

	for (i = 0; i < v->nr && !err; i++) {
		enum record_group_pos pos = !group ? RECORD_GROUP_NONE :
					    i == 0 ? RECORD_GROUP_LEADER :
						     RECORD_GROUP_MEMBER;

		err = fn(ctx, &v->ev[i], pos);
		/* @fn owns it now, whatever it answered */
		memset(&v->ev[i], 0, sizeof(v->ev[i]));
	}
	ev_vec__exit(v);
	return err;
}

int record_events__parse(const char *arg, record_events__fn fn, void *ctx)
{
	const char *p = arg;
	struct ev_vec v = {};
	int err;

	while (*p) {
		const char *end;

		if (*p == '{') {
			const char *mods = NULL;

			for (p++;;) {
				end = event_end(p);
				if (end == p || *end == '{' || !*end) {
					pr_err("event '%s': a group is {event,event,...}\n", arg);
					ev_vec__exit(&v);
					return -EINVAL;
				}
				err = parse_event(&v, p, end - p);
				if (err) {
					ev_vec__exit(&v);
					return err;
				}
				p = end + 1;
				if (*end == '}')
					break;
			}
			end = p;
			if (*p == ':') {
				mods = p + 1;
				end = event_end(mods);
			}
			for (int i = 0; mods && i < v.nr; i++) {
				err = record_event__apply_modifiers(&v.ev[i], mods, end - mods,
								    true, i == 0);
				if (err) {
					ev_vec__exit(&v);
					return err;
				}
			}
			if (*end && *end != ',') {
				pr_err("event '%s': expected ',' after the group\n", arg);
				ev_vec__exit(&v);
				return -EINVAL;
			}
			err = hand_over(&v, fn, ctx, true);
		} else {
			end = event_end(p);
			if (end == p || *end == '{' || *end == '}') {
				pr_err("event '%s': expected an event name at '%s'\n", arg, p);
				return -EINVAL;
			}
			err = parse_event(&v, p, end - p);
			err = err ? (ev_vec__exit(&v), err) : hand_over(&v, fn, ctx, false);
		}
		if (err)
			return err;
		p = end;
		if (*p == ',') {
			p++;
			if (!*p) {
				pr_err("event '%s': an empty event name at the end\n", arg);
				return -EINVAL;
			}
		}
	}
	return 0;
}

static int take_one(void *ctx, struct record_event *ev, enum record_group_pos pos)
{
	struct record_event *out = ctx;

	if (pos != RECORD_GROUP_NONE || out->attr.size) {
		record_event__exit(ev);
		return -E2BIG;
	}
	*out = *ev;
	return 0;
}

int record_event__parse(struct record_event *ev, const char *str)
{
	int err;

	memset(ev, 0, sizeof(*ev));
	err = record_events__parse(str, take_one, ev);
	if (err)
		record_event__exit(ev);
	if (err == -E2BIG)
		pr_err("event '%s': one event expected\n", str);
	return err == -E2BIG ? -EINVAL : err;
}
