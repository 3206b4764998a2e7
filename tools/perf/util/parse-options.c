// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parse-options.h"

void popt_ctx__init(struct popt_ctx *ctx, const struct popt *opts)
{
	int n = 0, s = 0;

	memset(ctx, 0, sizeof(*ctx));
	ctx->opts = opts;
	/*
	 * '+': stop at the first non-option, so "-- cmd args" and subcommands
	 * work; ':': a missing value is told apart from an unknown option
	 */
	ctx->shorts[s++] = '+';
	ctx->shorts[s++] = ':';
	for (; opts->short_name || opts->long_name; opts++) {
		if (n >= POPT_MAX)
			break;
		if (opts->long_name) {
			ctx->longs[n].name = opts->long_name;
			ctx->longs[n].has_arg = opts->has_arg;
			ctx->longs[n].val = opts->id;
			n++;
		}
		if (opts->short_name) {
			ctx->shorts[s++] = (char)opts->short_name;
			if (opts->has_arg != no_argument)
				ctx->shorts[s++] = ':';
			if (opts->has_arg == optional_argument)
				ctx->shorts[s++] = ':';
		}
	}
	/* 0, not 1: getopt must forget the previous command's argv too */
	optind = 0;
}

static const struct popt *popt__find(const struct popt_ctx *ctx, int id)
{
	const struct popt *o;

	/* getopt's optopt is 0 for an unknown long option */
	if (!id)
		return NULL;
	for (o = ctx->opts; o->short_name || o->long_name; o++) {
		if (o->id == id || o->short_name == id)
			return o;
	}
	return NULL;
}

/* getopt found something wrong with argv[optind - 1] or optopt: say what, once */
static void popt__report(struct popt_ctx *ctx, int c, char **argv)
{
	const char *arg = optind > 0 ? argv[optind - 1] : "";
	const struct popt *o = popt__find(ctx, optopt);
	bool as_long = !strncmp(arg, "--", 2);
	size_t len = strcspn(arg, "=");

	if (c == ':') {
		if (o && as_long && o->long_name)
			popt__error(ctx, "option '--%s' needs a value <%s>", o->long_name,
				    o->argh ?: "value");
		else
			popt__error(ctx, "switch '-%c' needs a value <%s>", optopt,
				    o && o->argh ? o->argh : "value");
		return;
	}
	if (as_long && o && o->long_name) {
		popt__error(ctx, "option '--%s' takes no value", o->long_name);
		return;
	}
	if (as_long) {
		int matches = 0;

		for (o = ctx->opts; o->short_name || o->long_name; o++)
			if (o->long_name && !strncmp(o->long_name, arg + 2, len - 2))
				matches++;
		popt__error(ctx, "%s option '%.*s' (see 'perf textpoke %s -h')",
			    matches > 1 ? "ambiguous" : "unknown", (int)len, arg, ctx->cmd);
		return;
	}
	popt__error(ctx, "unknown switch '-%c' (see 'perf textpoke %s -h')", optopt, ctx->cmd);
}

int popt__next(struct popt_ctx *ctx, int argc, char **argv)
{
	int longindex = -1, c;
	const struct popt *o;

	ctx->cmd = argc > 0 ? argv[0] : "";
	/* the messages are ours: they name the command and what it allows */
	opterr = 0;
	c = getopt_long(argc, argv, ctx->shorts, ctx->longs, &longindex);
	if (c == -1)
		return -1;
	if (c == '?' || c == ':') {
		popt__report(ctx, c, argv);
		return '?';
	}
	if (longindex >= 0) {
		snprintf(ctx->typed, sizeof(ctx->typed), "--%s", ctx->longs[longindex].name);
		return c;
	}
	snprintf(ctx->typed, sizeof(ctx->typed), "-%c", c);
	/* a short option returns its letter: map it to the table's id */
	for (o = ctx->opts; o->short_name || o->long_name; o++) {
		if (o->short_name == c)
			return o->id;
	}
	return c;
}

static void popt__verror(const struct popt_ctx *ctx, const char *fmt, va_list ap)
{
	fprintf(stderr, "perf textpoke %s: ", ctx->cmd ?: "");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void popt__error(const struct popt_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	popt__verror(ctx, fmt, ap);
	va_end(ap);
}

void popt__bad_value(const struct popt_ctx *ctx, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	popt__error(ctx, "bad value '%s' for %s: %s", optarg ?: "", ctx->typed, what);
}

bool popt__u32(const struct popt_ctx *ctx, const char *what, unsigned int *n)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = optarg ? strtoul(optarg, &end, 0) : 0;
	if (!optarg || errno || end == optarg || *end || optarg[0] == '-' || v > UINT32_MAX) {
		popt__bad_value(ctx, "expected %s", what);
		return false;
	}
	*n = v;
	return true;
}

void popt__usage(const char *const *usage, const struct popt *opts, FILE *fp)
{
	int first = 1;

	for (; *usage; usage++) {
		fprintf(fp, "%s %s\n", first ? "\n Usage:" : "    or:", *usage);
		first = 0;
	}
	fputc('\n', fp);
	for (; opts->short_name || opts->long_name; opts++) {
		char left[80];
		int n = 0;

		if (opts->short_name)
			n += snprintf(left + n, sizeof(left) - n, "-%c", opts->short_name);
		else
			n += snprintf(left + n, sizeof(left) - n, "    ");
		if (opts->long_name)
			n += snprintf(left + n, sizeof(left) - n, "%s--%s",
				      opts->short_name ? ", " : "", opts->long_name);
		if (opts->has_arg == required_argument && opts->argh && n < (int)sizeof(left))
			snprintf(left + n, sizeof(left) - n, " <%s>", opts->argh);
		else if (opts->has_arg == optional_argument && opts->argh && n < (int)sizeof(left))
			snprintf(left + n, sizeof(left) - n, "[=<%s>]", opts->argh);
		fprintf(fp, "    %-26s %s\n", left, opts->help ? opts->help : "");
	}
	fputc('\n', fp);
}
