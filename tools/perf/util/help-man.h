/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_HELP_MAN_H
#define __PERF_TEXTPOKE_HELP_MAN_H

/*
 * Show man page @page ("perf-textpoke-script") as perf help does: run
 * $PERF_MAN_VIEWER if set, else man, with the man directory installed
 * beside the binary (../share/man) first in $MANPATH.  Returns only when
 * no viewer could be run: -errno, with a message printed.
 */
int help__show_man_page(const char *page);

#endif /* __PERF_TEXTPOKE_HELP_MAN_H */
