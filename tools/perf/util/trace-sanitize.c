// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tracing data text made safe for libtraceevent.  What 1.7.1 does with
 * text a kernel never writes (found by mutating real recordings byte by
 * byte under ASan):
 *
 *  tep_parse_printk_formats()	reads past its copy when the last line has
 *				no ':' (strdup(fmt + 1) past the NUL)
 *  tep_register_print_string()	reads two bytes before a format shorter
 *				than three characters
 *  tep_parse_saved_cmdlines()	leaks the comm when the pid overflows
 *  tep_parse_event(), fields	leaks the first word of a type that is not
 *				followed by a word or '*' ("unsigned(char");
 *				strlen(NULL) when the type starts with
 *				__attribute__; strcmp(NULL) on a byte it
 *				cannot tokenize right after '['; leaks the ')'
 *				of every __attribute__((...)), even the
 *				kernel's own "__attribute__((user))"
 *  tep_parse_event(), print fmt	NULL dereference when __print_flags() or
 *				__print_symbolic() names REC->x and x is no field
 *
 * So lines are kept only in the kernel's shape, field declarations are
 * checked against the grammar kernel formats use (and lose their
 * __attribute__ groups, which decoding does not need), and the print fmt
 * may name only declared fields.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "trace-sanitize.h"

static bool is_word_char(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_';
}

static bool is_blank(char ch)
{
	return ch == ' ' || ch == '\t';
}

/* kallsyms: "<hex address> <type> <name>[\t[<module>]]" */
static bool kallsyms_line_ok(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len && i < 16 && isxdigit((unsigned char)s[i]))
		i++;
	return i > 0 && len - i >= 4 && s[i] == ' ' && s[i + 1] != ' ' && s[i + 2] == ' ' &&
	       !is_blank(s[i + 3]);
}

/* printk_formats: "0x<hex address> : \"<format>\"" (kernel/trace/trace_printk.c) */
static bool printk_line_ok(const char *s, size_t len)
{
	size_t i = 0, start;

	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		i = 2;
	for (start = i; i < len && isxdigit((unsigned char)s[i]); i++)
		;
	if (i == start || i - start > 16 || len - i < 3 || memcmp(s + i, " : ", 3))
		return false;
	i += 3;
	if (i < len && s[i] == '"')
		i++;
	return len - i >= 3;
}

/* saved_cmdlines: "<pid> <comm>", a pid that fits an int */
static bool cmdline_line_ok(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len && i < 9 && s[i] >= '0' && s[i] <= '9')
		i++;
	return i > 0 && len - i >= 2 && s[i] == ' ' && s[i + 1] != ' ';
}

char *trace_text__filter(enum trace_text kind, const char *text, size_t size, u64 *nr_bad,
			 size_t *first_bad)
{
	bool (*ok)(const char *s, size_t len) = kind == TRACE_TEXT__KALLSYMS ? kallsyms_line_ok :
						kind == TRACE_TEXT__PRINTK   ? printk_line_ok :
									       cmdline_line_ok;
	const char *p = text, *end = text + size;
	char *out = malloc(size + 2), *w = out;

	*nr_bad = 0;
	*first_bad = 0;
	if (!out)
		return NULL;
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		size_t len = (nl ? nl : end) - p;

		/* a NUL would end the library's copy of the text there */
		if (len && (memchr(p, '\0', len) || !ok(p, len))) {
			if (!(*nr_bad)++)
				*first_bad = p - text;
		} else if (len) {
			memcpy(w, p, len);
			w += len;
			*w++ = '\n';
		}
		p += len + 1;
	}
	*w = '\0';
	if (w == out)
		zfree(&out);
	return out;
}

/* the field names a format declares: REC->name must be one of them */
struct names {
	const char *base; /* the rewritten text they point into */
	struct {
		size_t at, len;
	} * v;
	size_t nr, cap;
};

static int names__add(struct names *n, size_t at, size_t len)
{
	if (n->nr == n->cap) {
		size_t cap = n->cap ? 2 * n->cap : 32;
		void *v = realloc(n->v, cap * sizeof(*n->v));

		if (!v)
			return -1;
		n->v = v;
		n->cap = cap;
	}
	n->v[n->nr].at = at;
	n->v[n->nr].len = len;
	n->nr++;
	return 0;
}

static bool names__has(const struct names *n, const char *s, size_t len)
{
	for (size_t i = 0; i < n->nr; i++)
		if (n->v[i].len == len && !memcmp(n->base + n->v[i].at, s, len))
			return true;
	return false;
}

struct rewrite {
	const char *in; /* the format as recorded */
	size_t len;
	char *out; /* what libtraceevent gets */
	size_t out_len;
	size_t bad_at;
	const char *why;
};

static int refuse(struct rewrite *r, size_t at, const char *why)
{
	r->bad_at = at;
	r->why = why;
	return -1;
}

static size_t skip_blanks(const struct rewrite *r, size_t i, size_t end)
{
	while (i < end && is_blank(r->in[i]))
		i++;
	return i;
}

static size_t word_end(const struct rewrite *r, size_t i, size_t end)
{
	while (i < end && is_word_char(r->in[i]))
		i++;
	return i;
}

static bool word_is(const struct rewrite *r, size_t at, size_t end, const char *w)
{
	return end - at == strlen(w) && !memcmp(r->in + at, w, end - at);
}

static void emit(struct rewrite *r, size_t from, size_t to)
{
	memcpy(r->out + r->out_len, r->in + from, to - from);
	r->out_len += to - from;
}

/*
 * "__attribute__((...))" at @i, up to the end of the line: the offset
 * after its closing parenthesis, or 0 when it does not close there.
 * Quoted strings inside (btf_type_tag("user")) must close too.
 */
static size_t attribute_end(const struct rewrite *r, size_t i, size_t end)
{
	int depth = 0;

	i = skip_blanks(r, i, end);
	if (i == end || r->in[i] != '(')
		return 0;
	for (; i < end; i++) {
		char ch = r->in[i];

		if (ch == '"') {
			for (i++; i < end && r->in[i] != '"'; i++)
				if (r->in[i] == '\\')
					i++;
			if (i >= end)
				return 0;
		} else if (ch == '(') {
			depth++;
		} else if (ch == ')' && !--depth) {
			return i + 1;
		}
	}
	return 0;
}

/*
 * The declaration of one field, "<type words and '*'> <name>[<array>]"
 * or "<type words> [] <name>", from @i to the ';' that ends it: checked,
 * copied without __attribute__ groups, its name recorded.  The offset of
 * that ';', or 0 when refused.
 */
static size_t field_decl(struct rewrite *r, struct names *names, size_t i, size_t end)
{
	enum { WORD, STAR } last = STAR;
	size_t nr_tokens = 0, name_at = 0, name_len = 0;
	bool bracket = false, after_bracket_word = false;

	for (;;) {
		size_t at = skip_blanks(r, i, end), e;
		char ch;

		emit(r, i, at);
		i = at;
		if (i == end) {
			refuse(r, i, "a field declaration without ';'");
			return 0;
		}
		ch = r->in[i];
		if (ch == ';')
			break;
		if (after_bracket_word) {
			refuse(r, i, "text after a field's name");
			return 0;
		}
		if (is_word_char(ch)) {
			e = word_end(r, i, end);
			if (word_is(r, i, e, "__attribute__")) {
				size_t a = attribute_end(r, e, end);

				/* the type's first word; it must also close on its line */
				if (!nr_tokens || !a) {
					refuse(r, i, "an __attribute__ libtraceevent cannot take");
					return 0;
				}
				i = a;
				continue;
			}
			if (bracket)
				after_bracket_word = true;
			name_at = r->out_len;
			name_len = e - i;
			emit(r, i, e);
			i = e;
			last = WORD;
			nr_tokens++;
			continue;
		}
		if (ch == '*' && !bracket) {
			if (!nr_tokens) {
				refuse(r, i, "a field type without a first word");
				return 0;
			}
			emit(r, i, i + 1);
			i++;
			last = STAR;
			nr_tokens++;
			continue;
		}
		if (ch == '[' && !bracket && nr_tokens) {
			/* the array size: anything printable up to ']', no quotes */
			e = i + 1;
			while (e < end && r->in[e] != ']' && r->in[e] != '[' && r->in[e] != ';' &&
			       r->in[e] != '"' && r->in[e] != '\'')
				e++;
			if (e == end || r->in[e] != ']') {
				refuse(r, i, "an array size without ']'");
				return 0;
			}
			if (last != WORD || nr_tokens < 2) {
				refuse(r, i, "an array field without a type and a name");
				return 0;
			}
			emit(r, i, e + 1);
			i = e + 1;
			bracket = true;
			continue;
		}
		if (nr_tokens == 1)
			refuse(r, i, "a field type of one word");
		else
			refuse(r, i, "a field declaration libtraceevent cannot take");
		return 0;
	}
	/* "unsigned(char": one word then no word nor '*' */
	if (nr_tokens < 2 || last != WORD) {
		refuse(r, i, nr_tokens < 2 ? "a field without a type" : "a field without a name");
		return 0;
	}
	if (names__add(names, name_at, name_len)) {
		refuse(r, i, "out of memory");
		return 0;
	}
	return i;
}

/* after the ';' of the declaration: "<blank>word:word;" groups, as the kernel writes */
static bool field_attrs_ok(const struct rewrite *r, size_t i, size_t end)
{
	while ((i = skip_blanks(r, i, end)) < end) {
		size_t e = word_end(r, i, end);

		if (e == i)
			return false;
		i = skip_blanks(r, e, end);
		if (i == end || r->in[i] != ':')
			return false;
		i = skip_blanks(r, i + 1, end);
		e = word_end(r, i, end);
		if (e == i)
			return false;
		i = skip_blanks(r, e, end);
		if (i == end || r->in[i] != ';')
			return false;
		i++;
	}
	return true;
}

/* every REC->name of the print fmt names a declared field */
static int print_fmt_refs(struct rewrite *r, const struct names *names, size_t i)
{
	for (; i < r->len; i++) {
		size_t e, at;

		if (!is_word_char(r->in[i]))
			continue;
		e = word_end(r, i, r->len);
		if (!word_is(r, i, e, "REC") || (i && is_word_char(r->in[i - 1]))) {
			i = e - 1;
			continue;
		}
		at = skip_blanks(r, e, r->len);
		if (r->len - at < 2 || memcmp(r->in + at, "->", 2)) {
			i = e - 1;
			continue;
		}
		at = skip_blanks(r, at + 2, r->len);
		e = word_end(r, at, r->len);
		if (e > at && !names__has(names, r->in + at, e - at))
			return refuse(r, at, "a print fmt naming a field not declared");
		i = (e > at ? e : at) - 1;
	}
	return 0;
}

int trace_format__sanitize(const char *fmt, size_t size, bool ftrace, char **out, size_t *out_size,
			   size_t *bad_at, const char **why)
{
	struct rewrite r = {.in = fmt, .len = size};
	struct names names = {.v = NULL};
	size_t line = 0, print_at = 0;
	bool print = false;
	int err = -1;

	r.out = malloc(size + 1);
	if (!r.out) {
		*bad_at = 0;
		*why = "out of memory";
		return -1;
	}
	names.base = r.out;
	for (size_t i = 0; i < size; i++) {
		unsigned char ch = fmt[i];

		/* the kernel writes ASCII; the library's tokenizer stops on the rest */
		if (ch != '\n' && ch != '\t' && (ch < 0x20 || ch > 0x7e)) {
			refuse(&r, i, "a byte that is not printable ASCII");
			goto out;
		}
	}
	while (line < size && !print) {
		const char *nl = memchr(fmt + line, '\n', size - line);
		size_t end = nl ? (size_t)(nl - fmt) : size, i, e;

		i = skip_blanks(&r, line, end);
		e = word_end(&r, i, end);
		if (word_is(&r, i, e, "print")) {
			print = true;
			print_at = line;
			break;
		}
		if (word_is(&r, i, e, "field")) {
			i = skip_blanks(&r, e, end);
			e = word_end(&r, i, end);
			if (ftrace && word_is(&r, i, e, "special"))
				i = skip_blanks(&r, e, end);
			if (i < end && fmt[i] == ':') {
				emit(&r, line, i + 1);
				i = field_decl(&r, &names, i + 1, end);
				if (!i)
					goto out;
				if (!field_attrs_ok(&r, i + 1, end)) {
					refuse(&r, i + 1,
					       "a malformed field offset, size or signed");
					goto out;
				}
				emit(&r, i, end);
				line = end;
			}
		}
		emit(&r, line, end);
		if (end < size)
			emit(&r, end, end + 1);
		line = end + 1;
	}
	if (print) {
		if (print_fmt_refs(&r, &names, print_at))
			goto out;
		emit(&r, print_at, size);
	}
	r.out[r.out_len] = '\0';
	*out = r.out;
	*out_size = r.out_len;
	r.out = NULL;
	err = 0;
out:
	if (err) {
		*bad_at = r.bad_at;
		*why = r.why;
	}
	free(r.out);
	free(names.v);
	return err;
}
