// SPDX-License-Identifier: GPL-2.0-only
#include <string.h>

#include "parse-options.h"

void popt_ctx__init(struct popt_ctx *ctx, const struct popt *opts)
{
	int n = 0, s = 0;

	memset(ctx, 0, sizeof(*ctx));
	ctx->opts = opts;
	/* '+': stop at the first non-option, so "-- cmd args" and subcommands work */
	ctx->shorts[s++] = '+';
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

int popt__next(struct popt_ctx *ctx, int argc, char **argv)
{
	int c = getopt_long(argc, argv, ctx->shorts, ctx->longs, NULL);
	const struct popt *o;

	if (c == -1 || c == '?' || c == ':')
		return c == -1 ? -1 : '?';
	/* a short option returns its letter: map it to the table's id */
	for (o = ctx->opts; o->short_name || o->long_name; o++) {
		if (o->short_name == c)
			return o->id;
	}
	return c;
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
