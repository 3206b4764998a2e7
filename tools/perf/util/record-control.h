/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_RECORD_CONTROL_H
#define __PERF_TEXTPOKE_RECORD_CONTROL_H

/* -D and --control: see record-control.c */

struct record;

/* once the workload runs: "Events disabled", and the -D timer started */
void record_control__start(struct record *rec);
/*
 * The poll timeout to use, at most @max_ms: shorter when -D's time comes
 * first; enables the events once it has come.
 */
int record_control__timeout(struct record *rec, int max_ms);
/* the control fd is readable: run its complete commands; 1 at its EOF, 0, or -errno */
int record_control__read(struct record *rec);

#endif /* __PERF_TEXTPOKE_RECORD_CONTROL_H */
