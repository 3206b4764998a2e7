// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf-textpoke: reached as "perf textpoke <sub>" through perf's lookup of
 * perf-<name> on PATH, or run directly.
 */
#include "builtin.h"

int main(int argc, char **argv)
{
	return cmd_textpoke(argc, argv);
}
