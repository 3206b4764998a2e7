// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf 6.1 demangles C++ names with libiberty and no options: no
 * parameter lists, no return types.  libiberty is not a shared library,
 * so we borrow the C++ runtime's __cxa_demangle() (dlopen()ed, so the
 * build needs no C++ at all) and cut its full answer down to perf's form.
 */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "script-demangle.h"
#include "types.h"

typedef char *(*cxa_demangle_fn)(const char *mangled, char *buf, size_t *len, int *status);

struct demangle_entry {
	const char *name;
	char *demangled; /* NULL: print name as is */
};

struct script_demangler {
	void *libstdcxx;
	cxa_demangle_fn demangle;
	struct demangle_entry *table; /* open addressing by name address */
	size_t size;		      /* power of two */
	size_t used;
};

struct script_demangler *script_demangler__new(void)
{
	struct script_demangler *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->libstdcxx = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
	if (d->libstdcxx)
		d->demangle = (cxa_demangle_fn)dlsym(d->libstdcxx, "__cxa_demangle");
	return d;
}

void script_demangler__delete(struct script_demangler *d)
{
	size_t i;

	if (!d)
		return;
	for (i = 0; i < d->size; i++)
		free(d->table[i].demangled);
	free(d->table);
	if (d->libstdcxx)
		dlclose(d->libstdcxx);
	free(d);
}

static bool is_operator_at(const char *s, size_t i)
{
	return i >= 8 && !strncmp(s + i - 8, "operator", 8);
}

/* the length of the operator symbol at @s ("<<=", "()", "-"), 0 for a word */
static size_t operator_token(const char *s)
{
	static const char *const ops[] = {
		"<<=", ">>=", "<=>", "->*", "<<", ">>", "<=", ">=", "->", "()", "[]", "==", "!=",
		"&&", "||", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<",
		">", "+", "-", "*", "/", "%", "^", "&", "|", "~", "!", "=", ",",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ops); i++) {
		size_t n = strlen(ops[i]);

		if (!strncmp(s, ops[i], n))
			return n;
	}
	return 0;
}

/* names that are not functions: "vtable for X", "typeinfo for X", ... */
static const char *const special_prefixes[] = {
	"vtable for ", "VTT for ", "construction vtable for ", "typeinfo for ",
	"typeinfo name for ", "typeinfo fn for ", "guard variable for ",
	"non-virtual thunk to ", "virtual thunk to ", "covariant return thunk to ",
	"TLS init function for ", "TLS wrapper function for ", "transaction clone for ",
	"reference temporary #0 for ", "hidden alias for ",
};

void script_demangle__strip(const char *full, char *out, size_t size)
{
	size_t len = strlen(full), i, start = 0, end, plen = 0;
	const char *clone = NULL;
	int depth;

	for (i = 0; i < ARRAY_SIZE(special_prefixes); i++) {
		plen = strlen(special_prefixes[i]);
		if (!strncmp(full, special_prefixes[i], plen))
			break;
	}
	if (i == ARRAY_SIZE(special_prefixes))
		plen = 0;
	start = plen;

	/* " [clone .constprop.0]" suffixes stay, after the cut name */
	end = len;
	clone = strstr(full + start, " [clone ");
	if (clone)
		end = clone - full;

	/* trailing qualifiers of a member function */
	for (;;) {
		static const char *const quals[] = { " const", " volatile", " &&", " &",
						     " noexcept", " throw()" };
		bool cut = false;

		for (i = 0; i < ARRAY_SIZE(quals); i++) {
			size_t ql = strlen(quals[i]);

			if (end - start > ql && !strncmp(full + end - ql, quals[i], ql)) {
				end -= ql;
				cut = true;
			}
		}
		if (!cut)
			break;
	}
	/* the parameter list: the parenthesis matching the final one */
	if (end > start && full[end - 1] == ')') {
		depth = 0;
		for (i = end; i > start; i--) {
			char c = full[i - 1];

			if (c == ')')
				depth++;
			else if (c == '(' && --depth == 0)
				break;
		}
		if (i > start && !is_operator_at(full, i - 1))
			end = i - 1;
		else if (i > start + 2 && is_operator_at(full, i - 3))
			end = i - 1; /* "operator()(int)": keep "operator()" */
	}
	/* a template function's return type: before the last top-level space */
	depth = 0;
	{
		size_t name_start = start;

		for (i = start; i < end; i++) {
			char c = full[i];

			if (i > start && is_operator_at(full, i)) {
				size_t ol = operator_token(full + i);

				/* "operator new", "operator unsigned long": the rest is the name */
				if (!ol)
					break;
				i += ol - 1;
				/* "operator<< <char>": the space is the demangler's */
				if (i + 1 < end && full[i + 1] == ' ')
					i++;
				continue;
			}
			if (c == '<' || c == '(' || c == '[' || c == '{')
				depth++;
			else if (c == '>' || c == ')' || c == ']' || c == '}')
				depth--;
			else if (c == ' ' && depth == 0)
				name_start = i + 1;
		}
		/* keep the special prefix, drop the return type */
		if (plen) {
			size_t n = plen < size ? plen : size - 1;

			memcpy(out, full, n);
			out += n;
			size -= n;
		}
		start = name_start;
	}
	{
		size_t n = end - start;

		if (n >= size)
			n = size - 1;
		memcpy(out, full + start, n);
		out[n] = '\0';
		if (clone && strlen(clone) < size - n - 1)
			strcat(out, clone);
	}
}

static char *demangle_one(struct script_demangler *d, const char *name)
{
	char *full, *out;
	size_t size;
	int status = -1;

	/* Itanium C++ ABI names only; Rust v0 and others are printed as they are */
	if (!d->demangle || strncmp(name, "_Z", 2))
		return NULL;
	full = d->demangle(name, NULL, NULL, &status);
	if (!full || status)
		return NULL;
	size = strlen(full) + 1;
	out = malloc(size);
	if (out)
		script_demangle__strip(full, out, size);
	free(full);
	return out;
}

static int grow(struct script_demangler *d)
{
	size_t nsize = d->size ? d->size * 2 : 1024, i;
	struct demangle_entry *nt = calloc(nsize, sizeof(*nt));

	if (!nt)
		return -1;
	for (i = 0; i < d->size; i++) {
		struct demangle_entry *e = &d->table[i];
		size_t h;

		if (!e->name)
			continue;
		h = ((uintptr_t)e->name >> 3) * 0x9e3779b97f4a7c15ULL;
		for (h &= nsize - 1; nt[h].name; h = (h + 1) & (nsize - 1))
			;
		nt[h] = *e;
	}
	free(d->table);
	d->table = nt;
	d->size = nsize;
	return 0;
}

const char *script_demangle(struct script_demangler *d, const char *name)
{
	struct demangle_entry *e;
	size_t h;

	if (!d || !name || name[0] != '_' || name[1] != 'Z')
		return name;
	if (d->used * 2 >= d->size && grow(d))
		return name;
	h = ((uintptr_t)name >> 3) * 0x9e3779b97f4a7c15ULL;
	for (h &= d->size - 1; d->table[h].name; h = (h + 1) & (d->size - 1)) {
		if (d->table[h].name == name)
			return d->table[h].demangled ?: name;
	}
	e = &d->table[h];
	e->name = name;
	e->demangled = demangle_one(d, name);
	d->used++;
	return e->demangled ?: name;
}
