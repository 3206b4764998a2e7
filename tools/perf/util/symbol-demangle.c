// SPDX-License-Identifier: GPL-2.0-only
/*
 * C++ names as perf script prints them: demangled without parameters,
 * return types or qualifiers ("ns::A::bar", "foo<long>"), which is what
 * perf's cplus_demangle(name, 0) gives.  The demangling itself is
 * libstdc++'s __cxa_demangle, looked up at run time so that the tool does
 * not link C++; the parameters are then cut off the full form.
 */
#include <ctype.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbol.h"

typedef char *(*cxa_demangle_fn)(const char *name, char *buf, size_t *len, int *status);

static cxa_demangle_fn cxa_demangle(void)
{
	static cxa_demangle_fn fn;
	static bool tried;
	void *handle;

	if (tried)
		return fn;
	tried = true;
	handle = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
	if (handle)
		fn = (cxa_demangle_fn)dlsym(handle, "__cxa_demangle");
	/* the handle stays open for the life of the process: fn lives in it */
	return fn;
}

static bool ends_with(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);

	return len >= n && !memcmp(s + len - n, suffix, n);
}

static bool is_ident(char c)
{
	return c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z');
}

/*
 * Where the keyword "operator" starts (not "comparison_operator"), or @len:
 * what follows it is the operator's own spelling ("<<", " new[]", "()",
 * " int"), never a return type to cut.
 */
static size_t find_operator(const char *s, size_t len)
{
	const char *p = s;

	while ((p = strstr(p, "operator")) != NULL && (size_t)(p - s) < len) {
		if ((p == s || !is_ident(p[-1])) && !is_ident(p[8]))
			return p - s;
		p += 8;
	}
	return len;
}

/*
 * "long ns::f<long>(int) const [clone .cold]" -> "ns::f<long>": without
 * parameters libiberty does not even read clone suffixes (".part.0",
 * ".cold", ".constprop.0"), so perf prints the name without them.
 */
/*
 * A cv/ref qualifier after an enclosing function's parameters, as in
 * "f(int) const::{lambda(long)#1}::operator()": not a return type's end.
 */
static bool is_qualifier(const char *p)
{
	static const char *const quals[] = {"const", "volatile", "&&", "&", "noexcept"};
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(quals); i++) {
		n = strlen(quals[i]);
		if (!strncmp(p, quals[i], n) && !isalnum((unsigned char)p[n]) && p[n] != '_')
			return true;
	}
	return false;
}

static void strip_signature(char *s)
{
	static const char *const quals[] = {" const", " volatile", " &&", " &", " noexcept"};
	char *p = strstr(s, " [clone ");
	size_t len, i, start = 0, op;
	int depth;
	bool again = true;

	if (p)
		*p = '\0';
	len = strlen(s);
	while (again) {
		again = false;
		for (i = 0; i < ARRAY_SIZE(quals); i++) {
			if (ends_with(s, len, quals[i])) {
				len -= strlen(quals[i]);
				again = true;
			}
		}
	}
	/* the parameter list: the last top-level parenthesised group */
	if (len && s[len - 1] == ')') {
		for (depth = 0, i = len; i > 0; i--) {
			if (s[i - 1] == ')')
				depth++;
			else if (s[i - 1] == '(' && --depth == 0)
				break;
		}
		if (i > 1)
			len = i - 1;
	}
	s[len] = '\0';

	/* a return type (template functions) ends at the last top-level space */
	op = find_operator(s, len);
	for (depth = 0, i = 0; i < op; i++) {
		char c = s[i];

		if (c == '<' || c == '(' || c == '[' || c == '{')
			depth++;
		else if ((c == '>' || c == ')' || c == ']' || c == '}') && depth > 0)
			depth--;
		else if (c == ' ' && !depth && !is_qualifier(s + i + 1))
			start = i + 1;
	}
	if (start)
		memmove(s, s + start, len - start + 1);
}

/*
 * Rust's legacy mangling: "_ZN" <len><ident>... "17h" <16 hex> "E", which
 * libiberty (and so perf) prints as the path without the hash component,
 * undoing the $-escapes ("$LT$" '<', "$u7b$" '{', ...) and ".." ("::").
 */
static int hex_nibble(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* the character of the escape at @e (of @len bytes), 0 if none; *n its length */
static char rust_escape(const char *e, size_t len, size_t *n)
{
	static const struct {
		const char *name;
		char c;
	} named[] = {{"C", ','},  {"SP", '@'}, {"BP", '*'}, {"RF", '&'},
		     {"LT", '<'}, {"GT", '>'}, {"LP", '('}, {"RP", ')'}};
	size_t i, k;
	int hi, lo;

	for (i = 0; i < ARRAY_SIZE(named); i++) {
		k = strlen(named[i].name);
		if (len >= k + 2 && e[0] == '$' && !strncmp(e + 1, named[i].name, k) &&
		    e[k + 1] == '$') {
			*n = k + 2;
			return named[i].c;
		}
	}
	/* $uXX$: printable ASCII only */
	if (len >= 5 && !strncmp(e, "$u", 2) && e[4] == '$') {
		hi = hex_nibble(e[2]);
		lo = hex_nibble(e[3]);
		if (hi >= 0 && hi <= 7 && lo >= 0 && (hi << 4 | lo) >= 0x20) {
			*n = 5;
			return (char)(hi << 4 | lo);
		}
	}
	return 0;
}

static char *rust_legacy_demangle(const char *sym)
{
	size_t len = strlen(sym), pos = 3, i, n, out = 0, nr = 0;
	unsigned int seen = 0;
	const char *last = NULL;
	char *buf;

	if (len < 3 + 20 + 1 || strncmp(sym, "_ZN", 3) || sym[len - 1] != 'E' ||
	    strncmp(sym + len - 20, "17h", 3))
		return NULL;
	for (i = 0; i < len; i++)
		if (!is_ident(sym[i]) && sym[i] != '.' && sym[i] != ':' && sym[i] != '$')
			return NULL;
	/* first pass: well-formed components, the last one the hash */
	while (pos < len - 1) {
		size_t ilen = 0;

		if (sym[pos] < '0' || sym[pos] > '9')
			return NULL;
		while (pos < len - 1 && sym[pos] >= '0' && sym[pos] <= '9' && ilen < 100000)
			ilen = ilen * 10 + (sym[pos++] - '0');
		if (!ilen || ilen > len - 1 - pos)
			return NULL;
		last = sym + pos;
		pos += ilen;
		nr++;
	}
	if (nr < 2 || last != sym + len - 18 || last[0] != 'h')
		return NULL;
	for (i = 1; i <= 16; i++) {
		int v = hex_nibble(last[i]);

		if (v < 0)
			return NULL;
		seen |= 1U << v;
	}
	for (n = 0; seen; seen &= seen - 1)
		n++;
	if (n < 5)
		return NULL;

	buf = malloc(len + 1);
	if (!buf)
		return NULL;
	/* second pass: print every component but the hash */
	for (pos = 3; pos < len - 20;) {
		size_t ilen = 0, j = 0;
		const char *id;

		while (sym[pos] >= '0' && sym[pos] <= '9')
			ilen = ilen * 10 + (sym[pos++] - '0');
		id = sym + pos;
		pos += ilen;
		if (out) {
			buf[out++] = ':';
			buf[out++] = ':';
		}
		/* the '_' put before a component that starts with an escape */
		if (ilen >= 2 && id[0] == '_' && id[1] == '$')
			j = 1;
		while (j < ilen) {
			char c;

			if (id[j] == '$') {
				c = rust_escape(id + j, ilen - j, &n);
				if (!c) {
					/* an unknown escape: the rest as it is */
					memcpy(buf + out, id + j, ilen - j);
					out += ilen - j;
					break;
				}
				buf[out++] = c;
				j += n;
			} else if (id[j] == '.' && j + 1 < ilen && id[j + 1] == '.') {
				buf[out++] = ':';
				buf[out++] = ':';
				j += 2;
			} else {
				buf[out++] = id[j++];
			}
		}
	}
	buf[out] = '\0';
	return buf;
}

/* names libiberty prints whole, parameters and all */
static bool is_special(const char *s)
{
	static const char *const prefixes[] = {
	    "virtual thunk to ",
	    "non-virtual thunk to ",
	    "covariant return thunk to ",
	    "transaction clone for ",
	    "non-transaction clone for ",
	    "vtable for ",
	    "construction vtable for ",
	    "VTT for ",
	    "typeinfo for ",
	    "typeinfo name for ",
	    "guard variable for ",
	    "reference temporary ",
	    "TLS init function for ",
	    "TLS wrapper function for ",
	    "hidden alias for ",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(prefixes); i++)
		if (!strncmp(s, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

char *symbol__demangle(const char *name)
{
	cxa_demangle_fn fn;
	char *out;
	int status = 0;

	if (strncmp(name, "_Z", 2))
		return NULL;
	out = rust_legacy_demangle(name);
	if (out)
		return out;
	fn = cxa_demangle();
	if (!fn)
		return NULL;
	out = fn(name, NULL, NULL, &status);
	if (status || !out) {
		free(out);
		return NULL;
	}
	if (!is_special(out))
		strip_signature(out);
	return out;
}
