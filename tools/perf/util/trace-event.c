// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf's tracing data container, as perf record writes it into the
 * TRACING_DATA feature (or after a pipe's HEADER_TRACING_DATA record):
 *
 *	"\027\bDtracing"		10 bytes of magic
 *	version				NUL terminated, "0.6" today
 *	u8 big_endian, u8 long_size, u32 page_size
 *	"header_page\0"  u64 size, data	ring buffer page layout
 *	"header_event\0" u64 size, data	(obsolete, skipped)
 *	u32 n, n x {u64 size, data}	ftrace's own event formats
 *	u32 n systems, per system:
 *		name NUL, u32 n, n x {u64 size, data}	event formats
 *	u32 size, data			kallsyms
 *	u32 size, data			printk formats
 *	u64 size, data			saved cmdlines (version >= 0.6)
 *
 * Numbers are in the recording machine's byte order.  libtraceevent can
 * parse each piece but not the container, so we walk it here.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "debug.h"
#include "trace-event.h"
#include "trace-sanitize.h"

#ifdef HAVE_LIBTRACEEVENT
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

struct trace_events {
	struct tep_handle *tep;
	struct trace_seq seq;
};

struct td_cursor {
	const u8 *data;
	u64 size;
	u64 pos;
	u64 file_offset; /* where data starts in the file, for messages */
	bool swap;
	const char *path;
	bool failed;
};

static void td_fail(struct td_cursor *c, const char *what)
{
	if (!c->failed)
		pr_err(
		    "%s: tracing data at %#llx: %s at file offset %#llx (truncated or corrupt?)\n",
		    c->path, (unsigned long long)c->file_offset, what,
		    (unsigned long long)(c->file_offset + c->pos));
	c->failed = true;
}

static const u8 *td_take(struct td_cursor *c, u64 n, const char *what)
{
	const u8 *p;

	if (c->failed || n > c->size - c->pos) {
		td_fail(c, what);
		return NULL;
	}
	p = c->data + c->pos;
	c->pos += n;
	return p;
}

static u32 td_u32(struct td_cursor *c, const char *what)
{
	const u8 *p = td_take(c, 4, what);
	u32 v;

	if (!p)
		return 0;
	memcpy(&v, p, 4);
	return c->swap ? __builtin_bswap32(v) : v;
}

static u64 td_u64(struct td_cursor *c, const char *what)
{
	const u8 *p = td_take(c, 8, what);
	u64 v;

	if (!p)
		return 0;
	memcpy(&v, p, 8);
	return c->swap ? __builtin_bswap64(v) : v;
}

static const char *td_string(struct td_cursor *c, const char *what)
{
	const u8 *p, *nul;

	if (c->failed)
		return NULL;
	p = c->data + c->pos;
	nul = memchr(p, '\0', c->size - c->pos);
	if (!nul) {
		td_fail(c, what);
		return NULL;
	}
	c->pos += nul - p + 1;
	return (const char *)p;
}

/* a sized blob as a NUL-terminated copy (libtraceevent wants strings) */
static char *td_blob(struct td_cursor *c, u64 size, const char *what)
{
	const u8 *p = td_take(c, size, what);
	char *s;

	if (!p)
		return NULL;
	s = malloc(size + 1);
	if (!s) {
		td_fail(c, "out of memory");
		return NULL;
	}
	memcpy(s, p, size);
	s[size] = '\0';
	return s;
}

/*
 * kallsyms, printk_formats, saved_cmdlines: only lines of the kernel's
 * shape reach libtraceevent (trace-sanitize.c says why); the others are
 * counted, and the first named by its file offset.
 */
static char *td_lines(struct td_cursor *c, const u8 *p, u64 size, enum trace_text kind,
		      const char *what)
{
	size_t first_bad;
	u64 bad;
	char *text = trace_text__filter(kind, (const char *)p, size, &bad, &first_bad);

	if (bad)
		pr_warning("%s: tracing data at %#llx: %llu %s line%s not in the kernel's format "
			   "ignored, the first at file offset %#llx\n",
			   c->path, (unsigned long long)c->file_offset, (unsigned long long)bad,
			   what, bad > 1 ? "s" : "",
			   (unsigned long long)(c->file_offset + c->pos - size + first_bad));
	return text;
}

/*
 * libtraceevent's print fmt parser also dereferences NULL on some syntax
 * errors (1.7.1: an operator where it expects a ',' after a ternary's
 * branch), which no check of ours can foresee short of a second parser.
 * So each format is parsed first by a child process on its copy of the
 * handle: only when the child survives is the format parsed here.  A
 * format the library merely fails on is still parsed, as perf does, so
 * that its events print "[FAILED TO PARSE]" and their fields.
 */
static bool format__survives(struct trace_events *te, const char *fmt, size_t size, const char *sys)
{
	int status, fd;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return true; /* no way to try: the checks made so far must do */
	if (!pid) {
		/* the library's complaints are ours to make, in the parent */
		fd = open("/dev/null", O_WRONLY);
		if (fd >= 0)
			dup2(fd, STDERR_FILENO);
		tep_parse_event(te->tep, fmt, size, sys);
		_exit(0);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return false;
	return WIFEXITED(status) && !WEXITSTATUS(status);
}

static int parse_formats(struct td_cursor *c, struct trace_events *te, const char *sys)
{
	u32 i, n = td_u32(c, "event format count");
	bool ftrace = !strcmp(sys, "ftrace");

	for (i = 0; i < n && !c->failed; i++) {
		u64 size = td_u64(c, "event format size");
		const char *fmt = (const char *)td_take(c, size, "event format"), *why;
		size_t safe_size, bad_at;
		char *safe;

		if (!fmt)
			break;
		/* one bad format costs its events, not the whole recording */
		if (trace_format__sanitize(fmt, size, ftrace, &safe, &safe_size, &bad_at, &why)) {
			pr_warning("%s: tracing data at %#llx: a %s event format has %s (at file "
				   "offset %#llx), its events are not decoded\n",
				   c->path, (unsigned long long)c->file_offset, sys, why,
				   (unsigned long long)(c->file_offset + c->pos - size + bad_at));
			continue;
		}
		if (!format__survives(te, safe, safe_size, sys))
			pr_warning(
			    "%s: tracing data at %#llx: libtraceevent crashes on the %s event "
			    "format at file offset %#llx, its events are not decoded\n",
			    c->path, (unsigned long long)c->file_offset, sys,
			    (unsigned long long)(c->file_offset + c->pos - size));
		else if (tep_parse_event(te->tep, safe, safe_size, sys))
			pr_debug("%s: tracing data: cannot parse a %s format\n", c->path, sys);
		free(safe);
	}
	return c->failed ? -EINVAL : 0;
}

static int parse_container(struct td_cursor *c, struct trace_events *te)
{
	static const u8 magic[10] = {0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g'};
	const u8 *p = td_take(c, sizeof(magic), "magic");
	const char *version, *s;
	u8 big_endian, long_size;
	u32 page_size, i, nsys;
	u64 size;
	char *blob;

	if (!p)
		return -EINVAL;
	if (memcmp(p, magic, sizeof(magic))) {
		c->pos = 0;
		td_fail(c, "bad magic");
		return -EINVAL;
	}
	version = td_string(c, "version");
	p = td_take(c, 2, "endianness");
	if (!p)
		return -EINVAL;
	big_endian = p[0];
	long_size = p[1];
	c->swap = big_endian != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	page_size = td_u32(c, "page size");
	if (c->failed)
		return -EINVAL;
	tep_set_file_bigendian(te->tep, big_endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(
	    te->tep, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(te->tep, long_size);
	tep_set_page_size(te->tep, page_size);

	s = (const char *)td_take(c, 12, "header_page");
	if (!s || memcmp(s, "header_page", 12)) {
		td_fail(c, "no header_page");
		return -EINVAL;
	}
	size = td_u64(c, "header_page size");
	blob = td_blob(c, size, "header_page");
	if (!blob)
		return -EINVAL;
	tep_parse_header_page(te->tep, blob, size, long_size);
	free(blob);

	s = (const char *)td_take(c, 13, "header_event");
	if (!s || memcmp(s, "header_event", 13)) {
		td_fail(c, "no header_event");
		return -EINVAL;
	}
	size = td_u64(c, "header_event size");
	if (!td_take(c, size, "header_event"))
		return -EINVAL;

	if (parse_formats(c, te, "ftrace"))
		return -EINVAL;
	nsys = td_u32(c, "system count");
	for (i = 0; i < nsys && !c->failed; i++) {
		const char *sys = td_string(c, "system name");

		if (!sys || parse_formats(c, te, sys))
			return -EINVAL;
	}
	if (c->failed)
		return -EINVAL;

	/* the rest only improves symbolic output: stop quietly if absent */
	if (c->pos == c->size)
		return 0;
	size = td_u32(c, "kallsyms size");
	p = td_take(c, size, "kallsyms");
	if (!p)
		return -EINVAL;
	blob = td_lines(c, p, size, TRACE_TEXT__KALLSYMS, "kallsyms");
	if (blob)
		tep_parse_kallsyms(te->tep, blob);
	free(blob);

	size = td_u32(c, "printk formats size");
	p = td_take(c, size, "printk formats");
	if (!p)
		return -EINVAL;
	blob = td_lines(c, p, size, TRACE_TEXT__PRINTK, "printk format");
	if (blob)
		tep_parse_printk_formats(te->tep, blob);
	free(blob);

	if (version && strcmp(version, "0.6") >= 0 && c->pos < c->size) {
		size = td_u64(c, "saved cmdlines size");
		p = td_take(c, size, "saved cmdlines");
		if (!p)
			return -EINVAL;
		blob = td_lines(c, p, size, TRACE_TEXT__CMDLINES, "saved cmdlines");
		if (blob)
			tep_parse_saved_cmdlines(te->tep, blob);
		free(blob);
	}
	return 0;
}

struct trace_events *trace_events__new(const void *data, u64 size, const char *path,
				       u64 file_offset)
{
	struct td_cursor c = {.data = data, .size = size, .path = path, .file_offset = file_offset};
	struct trace_events *te;

	if (!data || !size)
		return NULL;
	te = calloc(1, sizeof(*te));
	if (!te)
		return NULL;
	te->tep = tep_alloc();
	if (!te->tep) {
		free(te);
		return NULL;
	}
	trace_seq_init(&te->seq);
	if (parse_container(&c, te)) {
		trace_events__delete(te);
		return NULL;
	}
	return te;
}

void trace_events__delete(struct trace_events *te)
{
	if (!te)
		return;
	trace_seq_destroy(&te->seq);
	tep_free(te->tep);
	free(te);
}

void *trace_events__find(struct trace_events *te, u64 id)
{
	if (!te || id > 0x7fffffff)
		return NULL;
	return tep_find_event(te->tep, (int)id);
}

int trace_events__name(void *format, char *buf, size_t size)
{
	struct tep_event *ev = format;

	return snprintf(buf, size, "%s:%s", ev->system, ev->name);
}

const char *trace_events__format(struct trace_events *te, void *format, int cpu, const void *raw,
				 u32 raw_size)
{
	struct tep_event *ev = format;
	struct tep_format_field *field;
	struct tep_record record;

	/*
	 * libtraceevent trusts the record to hold the format's fields: check
	 * the fixed ones, and that dynamic arrays point inside the record.
	 */
	for (field = ev->format.fields; field; field = field->next) {
		u64 end = (u64)field->offset + field->size;

		if (end > raw_size)
			return "[tracepoint record too short for its format]";
		if ((field->flags & TEP_FIELD_IS_DYNAMIC) && field->size == 4) {
			u32 loc;
			u64 start;

			memcpy(&loc, (const u8 *)raw + field->offset, 4);
			loc = tep_read_number(te->tep, &loc, 4);
			start = loc & 0xffff;
			/* __rel_loc counts from the end of the field */
			if (field->flags & TEP_FIELD_IS_RELATIVE)
				start += end;
			if (start + (loc >> 16) > raw_size)
				return "[tracepoint record too short for its format]";
		}
	}
	memset(&record, 0, sizeof(record));
	record.cpu = cpu;
	record.size = raw_size;
	record.data = (void *)raw;
	trace_seq_reset(&te->seq);
	tep_print_event(te->tep, &te->seq, &record, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&te->seq);
	return te->seq.buffer;
}

const char *trace_events__field_names(struct trace_events *te, void *format)
{
	struct tep_event *ev = format;
	struct tep_format_field *field;

	trace_seq_reset(&te->seq);
	/* format.fields: the event's own, the common_* ones are apart */
	for (field = ev->format.fields; field; field = field->next)
		trace_seq_printf(&te->seq, "%s%s", field == ev->format.fields ? "" : ",",
				 field->name);
	trace_seq_terminate(&te->seq);
	return te->seq.buffer;
}

bool trace_events__built_in(void)
{
	return true;
}

#else /* !HAVE_LIBTRACEEVENT */

struct trace_events *trace_events__new(const void *data, u64 size, const char *path,
				       u64 file_offset)
{
	static bool warned;

	if (data && size && !warned) {
		pr_warning("%s: tracepoint fields not shown: libtraceevent is not built in\n",
			   path);
		warned = true;
	}
	return NULL;
}

void trace_events__delete(struct trace_events *te)
{
}

const char *trace_events__field_names(struct trace_events *te, void *format)
{
	return NULL;
}

void *trace_events__find(struct trace_events *te, u64 id)
{
	return NULL;
}

int trace_events__name(void *format, char *buf, size_t size)
{
	return -1;
}

const char *trace_events__format(struct trace_events *te, void *format, int cpu, const void *raw,
				 u32 raw_size)
{
	return "";
}

bool trace_events__built_in(void)
{
	return false;
}
#endif
