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

/* "long ns::f<long>(int) const [clone .cold]" -> "ns::f<long> [clone .cold]" */
static void strip_signature(char *s)
{
	static const char *const quals[] = { " const", " volatile", " &&", " &", " noexcept" };
	char clone[256] = "";
	char *p = strstr(s, " [clone ");
	size_t len, i, start = 0;
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
	for (depth = 0, i = 0; i < len; i++) {
		char c = s[i];

		if (c == '<' || c == '(' || c == '[' || c == '{')
			depth++;
		else if ((c == '>' || c == ')' || c == ']' || c == '}') && depth > 0)
			depth--;
		else if (c == ' ' && !depth && !(i >= 8 && !strncmp(s + i - 8, "operator", 8)))
			start = i + 1;
	}
	/* "operator<" and friends unbalance the count: then keep it all */
	if (start && start < len && !strstr(s, "operator"))
		memmove(s, s + start, len - start + 1);
	strcat(s, clone);
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
	/* thunks keep their target's signature in perf's output */
	if (strstr(out, " thunk to "))
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
