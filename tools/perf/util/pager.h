/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_PAGER_H
#define __PERF_TEXTPOKE_PAGER_H

/*
 * perf's setup_pager(): when stdout is a terminal, run the pager named by
 * PERF_PAGER, else PAGER, else /usr/bin/pager or /usr/bin/less, with
 * LESS=FRSX unless LESS is set, and send stdout (and stderr, when that is
 * the terminal too) into it; "cat" or an empty name means none.  The
 * process waits for the pager when it exits.  perf --no-pager sets
 * PERF_PAGER=cat, and so does perf textpoke --no-pager.
 */
void pager__setup(void);

#endif /* __PERF_TEXTPOKE_PAGER_H */
