// SPDX-License-Identifier: GPL-2.0-only
/*
 * The JSON the report and annotate writers print: indented two blanks a
 * level, every string escaped so that no byte of a recording can break
 * the document (report-output.c's walk over hostile strings).
 */
#include <inttypes.h>
#include <stdio.h>

#include "json-writer.h"
#include "report-output.h"

static void json__sep(struct json *j)
{
	if (j->need_comma[j->depth])
		fputc(',', j->fp);
	j->need_comma[j->depth] = true;
	/* the document itself starts on the first line */
	if (j->one_line && j->depth >= j->one_line)
		fputc(' ', j->fp);
	else if (j->depth || j->started)
		fprintf(j->fp, "\n%*s", 2 * j->depth, "");
	j->started = true;
}

/*
 * RFC 8259 section 7: quote and backslash escaped, control characters
 * as \u00XX; DEL and the line separators U+2028/9 too, so the output
 * also survives being pasted into JavaScript.  A byte that is not UTF-8
 * becomes U+FFFD: a symbol from a hostile recording never breaks the
 * document.
 */
void json__string(struct json *j, const char *s)
{
	if (!s) {
		fputs("null", j->fp);
		return;
	}
	fputc('"', j->fp);
	while (*s) {
		const char *p = s;
		unsigned long cp = report_output__utf8_next(&s);

		if (cp == REPORT_UTF8_INVALID)
			fputs("\\ufffd", j->fp);
		else if (cp == '"')
			fputs("\\\"", j->fp);
		else if (cp == '\\')
			fputs("\\\\", j->fp);
		else if (cp == '\n')
			fputs("\\n", j->fp);
		else if (cp == '\t')
			fputs("\\t", j->fp);
		else if (cp < 0x20 || cp == 0x7f || cp == 0x2028 || cp == 0x2029)
			fprintf(j->fp, "\\u%04lx", cp);
		else
			fwrite(p, 1, s - p, j->fp);
	}
	fputc('"', j->fp);
}

void json__key(struct json *j, const char *key)
{
	json__sep(j);
	if (key)
		fprintf(j->fp, "\"%s\": ", key);
}

void json__open(struct json *j, const char *key, char c)
{
	json__key(j, key);
	fputc(c, j->fp);
	/* the document's nesting is fixed by this file, never by the data */
	if (j->depth < JSON_MAX_DEPTH - 1)
		j->depth++;
	j->need_comma[j->depth] = false;
}

void json__close(struct json *j, char c)
{
	bool empty = !j->need_comma[j->depth];

	j->depth--;
	if (!empty && (!j->one_line || j->depth + 1 < j->one_line))
		fprintf(j->fp, "\n%*s", 2 * j->depth, "");
	else if (!empty)
		fputc(' ', j->fp);
	fputc(c, j->fp);
}

void json__u64(struct json *j, const char *key, u64 v)
{
	json__key(j, key);
	fprintf(j->fp, "%" PRIu64, v);
}

void json__s64(struct json *j, const char *key, s64 v)
{
	json__key(j, key);
	fprintf(j->fp, "%" PRId64, v);
}

void json__bool(struct json *j, const char *key, bool v)
{
	json__key(j, key);
	fputs(v ? "true" : "false", j->fp);
}

void json__null(struct json *j, const char *key)
{
	json__key(j, key);
	fputs("null", j->fp);
}

void json__str(struct json *j, const char *key, const char *s)
{
	json__key(j, key);
	json__string(j, s);
}

void json__addr(struct json *j, const char *key, u64 addr)
{
	json__key(j, key);
	fprintf(j->fp, "\"0x%" PRIx64 "\"", addr);
}

/* key_ns: integer nanoseconds; key: "s.us" as perf script prints it (truncated) */
void json__time(struct json *j, const char *key, u64 t)
{
	char k[64];

	snprintf(k, sizeof(k), "%s_ns", key);
	json__u64(j, k, t);
	json__key(j, key);
	fprintf(j->fp, "\"%" PRIu64 ".%06" PRIu64 "\"", t / 1000000000, t % 1000000000 / 1000);
}

void json__no_time(struct json *j, const char *key)
{
	char k[64];

	snprintf(k, sizeof(k), "%s_ns", key);
	json__null(j, k);
	json__null(j, key);
}

/* perf report's overhead: the entry's share of the event's period, in percent */
void json__percent(struct json *j, const char *key, u64 part, u64 total)
{
	json__key(j, key);
	fprintf(j->fp, "%.6f", total ? 100.0 * (double)part / (double)total : 0.0);
}

void json__hex_bytes(struct json *j, const char *key, const u8 *b, size_t len)
{
	size_t i;

	json__key(j, key);
	if (!b) {
		fputs("null", j->fp);
		return;
	}
	fputc('"', j->fp);
	for (i = 0; i < len; i++)
		fprintf(j->fp, "%s%02x", i ? " " : "", b[i]);
	fputc('"', j->fp);
}
