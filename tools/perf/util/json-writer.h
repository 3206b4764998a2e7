/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_JSON_WRITER_H
#define __PERF_TEXTPOKE_JSON_WRITER_H

#include <stdbool.h>
#include <stdio.h>

#include "types.h"

/*
 * A JSON document written as it goes, for report --json (report-json.c)
 * and annotate --json (annotate-json.c): one writer, so that both escape
 * strings alike.  A NULL key is an array element.
 */
#define JSON_MAX_DEPTH 16

struct json {
	FILE *fp;
	int depth;
	bool need_comma[JSON_MAX_DEPTH];
	bool started; /* something written: later values go on lines of their own */
	int one_line; /* a depth from which values share their line (a tree's nodes), 0: none */
};

void json__key(struct json *j, const char *key);
/* @c: '{' or '['; closed by json__close() with the matching one */
void json__open(struct json *j, const char *key, char c);
void json__close(struct json *j, char c);
/* RFC 8259 escapes; bytes that are not UTF-8 as U+FFFD; NULL as null */
void json__string(struct json *j, const char *s);
void json__u64(struct json *j, const char *key, u64 v);
void json__s64(struct json *j, const char *key, s64 v);
void json__bool(struct json *j, const char *key, bool v);
void json__null(struct json *j, const char *key);
void json__str(struct json *j, const char *key, const char *s);
/* "0x..." */
void json__addr(struct json *j, const char *key, u64 addr);
/* @key_ns in nanoseconds and @key as "s.us" */
void json__time(struct json *j, const char *key, u64 t);
void json__no_time(struct json *j, const char *key);
/* 100 * @part / @total, 6 decimals; 0 for no total */
void json__percent(struct json *j, const char *key, u64 part, u64 total);
/* "48 89 e5", null for no bytes */
void json__hex_bytes(struct json *j, const char *key, const u8 *b, size_t len);

#endif /* __PERF_TEXTPOKE_JSON_WRITER_H */
