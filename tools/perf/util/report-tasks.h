/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_REPORT_TASKS_H
#define __PERF_TEXTPOKE_REPORT_TASKS_H

#include <stdio.h>

struct machine;

/*
 * perf report --tasks: every thread the recording's COMM, FORK and EXIT
 * records made (and the idle task), as a tree of parents (a FORK's parent
 * thread) and children, with each thread's maps under it for --mmaps.
 * 0, or -ENOMEM, or -ENOENT with perf's error printed when a thread's
 * parent is not among them.
 */
int report_tasks__fprintf(struct machine *machine, bool mmaps, FILE *fp);

#endif /* __PERF_TEXTPOKE_REPORT_TASKS_H */
