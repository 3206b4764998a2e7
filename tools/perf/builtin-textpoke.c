// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf textpoke: the subcommand table and the thin cmd_textpoke_<sub>()
 * entry points.  The work lives in util/ and tools/lib/textpoke/.
 */
#include <stdio.h>
#include <string.h>

#include "builtin.h"
#include "util/debug.h"
#include "util/parse-options.h"

struct textpoke_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
};

static const struct textpoke_cmd commands[] = {
	{ "test", cmd_textpoke_test, "Run the built-in tests" },
	{ "version", cmd_textpoke_version, "Show the version and build options" },
};

static const char *const version_usage[] = {
	"perf textpoke version [--build-options]",
	NULL,
};

int cmd_textpoke_version(int argc, char **argv)
{
	enum { OPT_BUILD = 256 };
	static const struct popt opts[] = {
		{ 0, "build-options", no_argument, NULL,
		  "list the optional libraries built in", OPT_BUILD },
		{ 'h', "help", no_argument, NULL, "show this help", 'h' },
		{ 0 },
	};
	struct popt_ctx ctx;
	bool build_options = false;
	int c;

	popt_ctx__init(&ctx, opts);
	while ((c = popt__next(&ctx, argc, argv)) != -1) {
		if (c == OPT_BUILD) {
			build_options = true;
		} else {
			popt__usage(version_usage, opts, c == 'h' ? stdout : stderr);
			return c == 'h' ? 0 : 129;
		}
	}
	printf("perf-textpoke version %s\n", TEXTPOKE_VERSION);
	if (build_options) {
		/* same shape as perf version --build-options */
		const char *on = FEATURES_ON, *off = FEATURES_OFF;
		char name[64];
		int n;

		while (sscanf(on, "%63s%n", name, &n) == 1) {
			printf("%22s: [ on  ]\n", name);
			on += n;
		}
		while (sscanf(off, "%63s%n", name, &n) == 1) {
			printf("%22s: [ OFF ]\n", name);
			off += n;
		}
	}
	return 0;
}

static void textpoke_usage(FILE *fp)
{
	size_t i;

	fprintf(fp, "\n Usage: perf textpoke [-v] <command> [<args>]\n\n"
		    " Kernel code as it was at each moment of a recording.\n\n"
		    " Commands:\n");
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(fp, "   %-10s %s\n", commands[i].name, commands[i].help);
	fprintf(fp, "\n See 'perf textpoke <command> -h' for a command's options.\n");
}

int cmd_textpoke(int argc, char **argv)
{
	size_t i;

	/* perf passes "textpoke" as argv[0] when run as "perf textpoke" */
	argc--;
	argv++;
	while (argc > 0 && !strcmp(argv[0], "-v")) {
		verbose++;
		argc--;
		argv++;
	}
	if (argc == 0 || !strcmp(argv[0], "-h") || !strcmp(argv[0], "--help") ||
	    !strcmp(argv[0], "help")) {
		textpoke_usage(argc == 0 ? stderr : stdout);
		return argc == 0 ? 129 : 0;
	}
	if (!strcmp(argv[0], "--version"))
		return cmd_textpoke_version(1, argv);
	for (i = 0; i < ARRAY_SIZE(commands); i++) {
		if (!strcmp(argv[0], commands[i].name))
			return commands[i].fn(argc, argv);
	}
	fprintf(stderr, "perf textpoke: '%s' is not a textpoke command. See 'perf textpoke -h'.\n",
		argv[0]);
	return 129;
}
