// SPDX-License-Identifier: GPL-2.0-only
/*
 * C++ names as perf script prints them: demangled without parameters,
 * return types or qualifiers ("ns::A::bar", "foo<long>"), which is what
 * perf's cplus_demangle(name, 0) gives.  The demangling itself is
 * libstdc++'s __cxa_demangle, looked up at run time so that the tool does
 * not link C++; the parameters are then cut off the full form.
 */
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

/* "long ns::f<long>(int) const [clone .cold]" -> "ns::f<long> [clone .cold]" */
static void strip_signature(char *s)
{
	static const char *const quals[] = { " const", " volatile", " &&", " &", " noexcept" };
	char clone[256] = "";
	char *p = strstr(s, " [clone ");
	size_t len, i, start = 0, op;
	int depth;
	bool again = true;

	if (p) {
		snprintf(clone, sizeof(clone), "%s", p);
		*p = '\0';
	}
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
		else if (c == ' ' && !depth)
			start = i + 1;
	}
	if (start)
		memmove(s, s + start, len - start + 1);
	strcat(s, clone);
}

/* names libiberty prints whole, parameters and all */
static bool is_special(const char *s)
{
	static const char *const prefixes[] = {
		"virtual thunk to ", "non-virtual thunk to ", "covariant return thunk to ",
		"transaction clone for ", "non-transaction clone for ", "vtable for ",
		"construction vtable for ", "VTT for ", "typeinfo for ", "typeinfo name for ",
		"guard variable for ", "reference temporary ", "TLS init function for ",
		"TLS wrapper function for ", "hidden alias for ",
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
	char *out, *trimmed;
	int status = 0;

	if (strncmp(name, "_Z", 2))
		return NULL;
	fn = cxa_demangle();
	if (!fn)
		return NULL;
	out = fn(name, NULL, NULL, &status);
	if (status || !out) {
		free(out);
		return NULL;
	}
	if (is_special(out))
		return out;
	/* room for what strip_signature() may append back */
	trimmed = realloc(out, strlen(out) + 260);
	if (!trimmed) {
		free(out);
		return NULL;
	}
	strip_signature(trimmed);
	return trimmed;
}
