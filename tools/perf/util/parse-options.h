/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_PARSE_OPTIONS_H
#define __PERF_TEXTPOKE_PARSE_OPTIONS_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "types.h"

/*
 * One option table per subcommand: getopt_long does the parsing, the
 * table also carries what -h prints, so the two never drift apart.
 */
struct popt {
	int short_name;	       /* 'i', or 0 for long-only */
	const char *long_name; /* "input" */
	int has_arg;	       /* no_argument, required_argument, optional_argument */
	const char *argh;      /* "file": shown as --input <file> */
	const char *help;
	int id; /* returned by popt__next(); unique per table */
};

#define POPT_MAX 96

struct popt_ctx {
	const struct popt *opts;
	const char *cmd; /* the subcommand, argv[0]: "record" */
	char typed[64];	 /* the last option as the user spelled it: "-F", "--freq" */
	struct option longs[POPT_MAX + 1];
	char shorts[3 * POPT_MAX + 3];
};

void popt_ctx__init(struct popt_ctx *ctx, const struct popt *opts);
/*
 * The id of the next option (optarg set), -1 at the end, '?' on an
 * unknown option or a missing value, which it has reported in one line.
 */
int popt__next(struct popt_ctx *ctx, int argc, char **argv);
/* "usage: <line>\n   or: <line>\n\n" then one line per option */
void popt__usage(const char *const *usage, const struct popt *opts, FILE *fp);

/* "perf textpoke <cmd>: <message>\n" on stderr: a usage error in one line */
void popt__error(const struct popt_ctx *ctx, const char *fmt, ...) __printf(2, 3);
/*
 * "perf textpoke <cmd>: bad value '<optarg>' for <option as typed>:
 * <what is allowed>\n"
 */
void popt__bad_value(const struct popt_ctx *ctx, const char *fmt, ...) __printf(2, 3);
/*
 * optarg as a whole unsigned number (decimal, 0x hex) of at most 32
 * bits into *@n; false, with popt__bad_value("expected @what") said, if not
 */
bool popt__u32(const struct popt_ctx *ctx, const char *what, unsigned int *n);

#endif /* __PERF_TEXTPOKE_PARSE_OPTIONS_H */
