// SPDX-License-Identifier: GPL-2.0-only
/*
 * The source lines of perf textpoke annotate --stdio, where perf
 * annotate 6.1 puts them.  perf runs "objdump -l -d -S" on the symbol
 * and prints every line objdump writes that is not an instruction with
 * a number of its own; so the lines here are made in two steps:
 *
 *   objdump's lines          ->  perf's reading of them
 *   (objdump__show_line())       (source__emit())
 *
 * objdump, before each instruction, asks the line table (here libdw,
 * through dso-inline.c as the srcline field does) for the file, line,
 * discriminator and innermost function there, and writes "fn():" when
 * the function changes, "/path/file.c:12" when the line or the
 * discriminator does, and with -S the source lines from the last one it
 * printed of that file up to this one (at most 5 before it; a line seen
 * again is printed alone, the one just printed not at all).
 *
 * perf hides the "/path:N" lines (a path starting with '/') and sets its
 * line counter to N; every other line, instructions included, takes the
 * counter's value and increments it.  So perf numbers a source line by
 * its distance from the last "/path:N" line, not by its line in the
 * file, and objdump's context lines, which lead up to line N, come out
 * as N, N+1, ...: perf 6.1 is wrong there, and a source line is given
 * its own line number here.  The other lines (the section, the symbol,
 * "fn():") keep perf's counter, as perf prints them.  Lines are
 * stripped of blanks at both ends and their tabs expanded; an empty one
 * is printed without a number.
 *
 * With -l/--print-line perf also marks each instruction whose share is
 * above 0.5% with its "file.c:12" (the base name, as the srcline field)
 * when that differs from the last one marked, and before the symbol
 * prints those lines' shares summed per line, the largest first.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "annotate-internal.h"
#include "annotate-source.h"
#include "dso-inline.h"
#include "dso.h"
#include "symbol.h"

/* perf's percent column, before the " :" */
#define SOURCE_COL_WIDTH 8
/* objdump's SHOW_PRECEDING_CONTEXT_LINES */
#define SOURCE_CONTEXT 5
/* perf's threshold for a line in -l's marks and summary (its MIN_GREEN) */
#define SOURCE_MIN_PERCENT 0.5
/* a source file larger than this is treated as unreadable */
#define SOURCE_MAX_FILE (64U << 20)

/* a source file as objdump holds it while it disassembles one symbol */
struct source_file {
	char *path;
	char *text;
	const char **lines; /* starts, as objdump's index_file() cuts them */
	unsigned int nr_lines;
	unsigned int last_line, max_printed;
	bool missing;
};

/* -l: one line's summed share */
struct source_sum {
	const char *line; /* dso-inline's; NULL: @buf's */
	double percent;
	char buf[64];
};

static const char *source_sum__line(const struct source_sum *s)
{
	return s->line ?: s->buf;
}

struct annotate_source {
	struct dso *dso;
	struct symbol *sym;
	const struct annotate_code *code;
	const struct annotate_opts *opts;
	int width;
	int line_nr; /* perf's counter */
	/* objdump's state, one run per symbol */
	char *prev_function;
	unsigned int prev_line, prev_discriminator;
	struct source_file *files;
	size_t nr_files;
	/* -l */
	struct source_sum *sums;
	size_t nr_sums, alloc_sums;
};

/*
 * -l's last mark: a line marked with the file:line the one before it had
 * gets none.  perf keeps it in a static of its printer, so it runs on
 * from one symbol to the next: the first instruction of a symbol whose
 * line is the last one marked (two functions without a line: "??:0")
 * is not marked again.
 */
static char *source_last_mark;

struct annotate_source *annotate_source__new(struct dso *dso, struct symbol *sym,
					     const struct annotate_code *code,
					     const struct annotate_opts *opts, int width)
{
	struct annotate_source *src = calloc(1, sizeof(*src));

	if (!src)
		return NULL;
	src->dso = dso;
	src->sym = sym;
	src->code = code;
	src->opts = opts;
	src->width = width;
	return src;
}

void annotate_source__delete(struct annotate_source *src)
{
	if (!src)
		return;
	for (size_t i = 0; i < src->nr_files; i++) {
		free(src->files[i].path);
		free(src->files[i].text);
		free(src->files[i].lines);
	}
	free(src->files);
	free(src->sums);
	free(src->prev_function);
	free(src);
}

/*
 * perf's reading of one line objdump wrote: "/path:N..." sets the
 * counter; anything else is printed, trimmed and its tabs expanded, with
 * the counter's number
 */
static void __source__emit(struct annotate_source *src, const char *text, size_t len, int number,
			   FILE *fp)
{
	const char *end = text + len, *colon;
	size_t col = 0;

	while (text < end && isspace((u8)*text))
		text++;
	while (end > text && isspace((u8)end[-1]))
		end--;
	/*
	 * perf's "^/[^:]+:([0-9]+)" on the trimmed line: a source line that
	 * opens a comment naming "file.c:22" matches too, and is left out
	 * and sets the counter, as in perf
	 */
	colon = end - text > 1 && text[0] == '/' ? memchr(text, ':', end - text) : NULL;
	if (colon && colon > text + 1 && colon + 1 < end && isdigit((u8)colon[1])) {
		src->line_nr = atoi(colon + 1);
		return;
	}
	if (text == end) {
		fprintf(fp, " %*s:\n", SOURCE_COL_WIDTH, "");
	} else {
		fprintf(fp, " %*s: %-*d ", SOURCE_COL_WIDTH, "", src->width,
			number < 0 ? src->line_nr : number);
		for (; text < end; text++) {
			if (*text == '\t') {
				fprintf(fp, "%*s", (int)(8 - col % 8), "");
				col += 8 - col % 8;
			} else {
				fputc(*text, fp);
				col++;
			}
		}
		fputc('\n', fp);
	}
	src->line_nr++;
}

static void source__emit(struct annotate_source *src, const char *text, size_t len, FILE *fp)
{
	__source__emit(src, text, len, -1, fp);
}

static void source__emitf(struct annotate_source *src, FILE *fp, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void source__emitf(struct annotate_source *src, FILE *fp, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	source__emit(src, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1, fp);
}

/*
 * objdump's start of a run on one symbol: its first line, the object's
 * "file format" one, perf leaves out unnumbered (it names the object)
 */
void annotate_source__preamble(struct annotate_source *src, FILE *fp)
{
	char section[64];

	source__emit(src, "", 0, fp);
	source__emit(src, "", 0, fp);
	source__emit(src, "", 0, fp);
	/* an object whose headers cannot be read has its code in .text as a rule */
	if (dso__section_name(src->dso, src->sym->start, section, sizeof(section)))
		strcpy(section, ".text");
	source__emitf(src, fp, "Disassembly of section %s:", section);
	source__emit(src, "", 0, fp);
	source__emitf(src, fp, "%016llx <%s>:", (unsigned long long)src->code->vaddr,
		      symbol__name(src->sym));
}

/* the lines of @f cut as objdump's index_file(): a last line with no end is not one */
static int source_file__index(struct source_file *f)
{
	unsigned int alloc = 0;
	const char *p, *start = f->text;
	size_t size = strlen(f->text);
	const char *end = f->text + size;

	for (p = f->text; p < end; p++) {
		if (*p == '\n') {
			if (p + 1 < end && p[1] == '\r')
				p++;
		} else if (*p == '\r') {
			if (p + 1 < end && p[1] == '\n')
				p++;
		} else {
			continue;
		}
		if (f->nr_lines == alloc) {
			const char **l;

			alloc = alloc ? 2 * alloc : 256;
			l = realloc(f->lines, alloc * sizeof(*l));
			if (!l)
				return -ENOMEM;
			f->lines = l;
		}
		f->lines[f->nr_lines++] = start;
		start = p + 1;
	}
	return 0;
}

static int source_file__read(struct source_file *f)
{
	struct stat st;
	ssize_t n;
	size_t got = 0;
	int fd = open(f->path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size > SOURCE_MAX_FILE) {
		close(fd);
		return -EINVAL;
	}
	f->text = malloc(st.st_size + 1);
	if (!f->text) {
		close(fd);
		return -ENOMEM;
	}
	while (got < (size_t)st.st_size && (n = read(fd, f->text + got, st.st_size - got)) > 0)
		got += n;
	close(fd);
	/* a NUL in the file ends it for us: objdump prints such lines cut short anyway */
	f->text[got] = '\0';
	return source_file__index(f);
}

/* objdump's print_files: the file it printed lines of, or opens now; NULL: cannot */
static struct source_file *source__file(struct annotate_source *src, const char *path)
{
	struct source_file *f, *files;

	for (size_t i = 0; i < src->nr_files; i++)
		if (!strcmp(src->files[i].path, path))
			return src->files[i].missing ? NULL : &src->files[i];
	files = realloc(src->files, (src->nr_files + 1) * sizeof(*files));
	if (!files)
		return NULL;
	src->files = files;
	f = &files[src->nr_files];
	memset(f, 0, sizeof(*f));
	f->path = strdup(path);
	if (!f->path)
		return NULL;
	src->nr_files++;
	/* objdump says nothing of a file it cannot read, and prints no line of it */
	if (source_file__read(f))
		f->missing = true;
	return f->missing ? NULL : f;
}

/* objdump's print_line(): @nr counted from 1 */
static void source_file__print(struct annotate_source *src, struct source_file *f, unsigned int nr,
			       FILE *fp)
{
	const char *line;

	if (!nr || nr > f->nr_lines)
		return;
	line = f->lines[nr - 1];
	__source__emit(src, line, strcspn(line, "\n\r"), nr, fp);
}

/* objdump's show_line(), for the instruction at @off */
void annotate_source__before_insn(struct annotate_source *src, u64 off, FILE *fp)
{
	struct dso_source_loc loc;
	struct source_file *f;
	char path[4096];
	u64 offset;

	if (!annotate_code__offset(src->code, src->code->vaddr + off, &offset))
		return;
	/* no DWARF there: bfd names the ELF symbol, which is this one */
	if (dso__source_loc(src->dso, offset, &loc) || !loc.function)
		loc.function = symbol__name(src->sym);
	if (loc.function && (!src->prev_function || strcmp(loc.function, src->prev_function))) {
		source__emitf(src, fp, "%s():", loc.function);
		src->prev_line = -1;
	}
	/*
	 * binutils puts the unit's directory before a relative name: libdw's
	 * "./elf/dl-lookup.c" (a relative directory and the file) is its
	 * "./elf/./elf/dl-lookup.c"
	 */
	if (loc.file && loc.file[0] != '/' && loc.comp_dir) {
		if (snprintf(path, sizeof(path), "%s/%s", loc.comp_dir, loc.file) <
		    (int)sizeof(path))
			loc.file = path;
	}
	if (loc.file &&
	    (loc.line != src->prev_line || loc.discriminator != src->prev_discriminator)) {
		if (loc.discriminator)
			source__emitf(src, fp, "%s:%u (discriminator %u)", loc.file, loc.line,
				      loc.discriminator);
		else
			source__emitf(src, fp, "%s:%u", loc.file, loc.line);
	}
	if (loc.file && !src->opts->no_source && (f = source__file(src, loc.file)) &&
	    loc.line != f->last_line) {
		unsigned int l = loc.line - SOURCE_CONTEXT;

		/* unsigned, as objdump's: a line near the top starts at the first */
		if (l >= loc.line)
			l = 1;
		if (f->max_printed >= l)
			l = f->max_printed < loc.line ? f->max_printed + 1 : loc.line;
		for (; l <= loc.line; l++)
			source_file__print(src, f, l, fp);
		if (f->max_printed < loc.line)
			f->max_printed = loc.line;
		f->last_line = loc.line;
	}
	if (loc.function && (!src->prev_function || strcmp(loc.function, src->prev_function))) {
		free(src->prev_function);
		src->prev_function = strdup(loc.function);
	}
	if (loc.file && loc.line != src->prev_line)
		src->prev_line = loc.line;
	src->prev_discriminator = loc.discriminator;
}

/*
 * -l: an instruction's line as perf's get_srcline() gives it: "??:0" where
 * addr2line names the function but no line (top-level asm, crt1's _start),
 * "dso[addr]" where it knows nothing
 */
static const char *source__srcline(struct annotate_source *src, u64 off, char *buf, size_t size)
{
	const char *line = NULL;
	u64 offset;

	if (annotate_code__offset(src->code, src->code->vaddr + off, &offset))
		line = dso__srcline(src->dso, offset);
	if (line)
		return line;
	snprintf(buf, size, "%s[%llx]", src->dso->short_name,
		 (unsigned long long)(src->code->vaddr + off));
	return buf;
}

int annotate_source__after_insn(struct annotate_source *src, u64 off, double percent,
				unsigned int lines, FILE *fp)
{
	struct source_sum *s = NULL;
	char buf[sizeof(s->buf)];
	const char *line;
	size_t i;

	/* an instruction's lines are lines of perf's count */
	src->line_nr += lines;
	if (!src->opts->print_lines || percent <= SOURCE_MIN_PERCENT)
		return 0;
	line = source__srcline(src, off, buf, sizeof(buf));
	if (!source_last_mark || strcmp(source_last_mark, line)) {
		char *mark = strdup(line);

		if (!mark)
			return -ENOMEM;
		fprintf(fp, " // %s", line);
		free(source_last_mark);
		source_last_mark = mark;
	}
	for (i = 0; i < src->nr_sums; i++) {
		if (!strcmp(source_sum__line(&src->sums[i]), line)) {
			s = &src->sums[i];
			break;
		}
	}
	if (!s) {
		if (src->nr_sums == src->alloc_sums) {
			size_t n = src->alloc_sums ? 2 * src->alloc_sums : 16;
			struct source_sum *p = realloc(src->sums, n * sizeof(*p));

			if (!p)
				return -ENOMEM;
			src->sums = p;
			src->alloc_sums = n;
		}
		s = &src->sums[src->nr_sums++];
		s->percent = 0;
		s->line = line == buf ? NULL : line;
		if (line == buf)
			strcpy(s->buf, buf);
	}
	s->percent += percent;
	return 0;
}

/*
 * perf sorts the lines by their sums, the largest first; equal sums keep
 * the order of its tree of names, which is strcmp()'s reversed
 */
static int source_sum__cmp(const void *pa, const void *pb)
{
	const struct source_sum *a = pa, *b = pb;

	if (a->percent != b->percent)
		return a->percent > b->percent ? -1 : 1;
	return -strcmp(source_sum__line(a), source_sum__line(b));
}

void annotate_source__summary(struct annotate_source *src, FILE *fp)
{
	fprintf(fp, "\nSorted summary for file %s\n", src->dso->long_name);
	fprintf(fp, "----------------------------------------------\n\n");
	if (!src->nr_sums) {
		fprintf(fp, " Nothing higher than %1.1f%%\n", SOURCE_MIN_PERCENT);
		return;
	}
	qsort(src->sums, src->nr_sums, sizeof(*src->sums), source_sum__cmp);
	for (size_t i = 0; i < src->nr_sums; i++)
		fprintf(fp, " %7.2f %s\n", src->sums[i].percent, source_sum__line(&src->sums[i]));
}
