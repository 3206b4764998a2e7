/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_TRACEFS_H
#define __PERF_TEXTPOKE_TRACEFS_H

/*
 * Where tracefs is, as perf finds it: $TRACEFS_PATH, a known mount point
 * that is tracefs, a tracefs line of /proc/mounts, the "tracing" directory
 * of a mounted debugfs; failing all of those, tracefs is mounted at
 * /sys/kernel/tracing (root only; debugfs at /sys/kernel/debug as a last
 * resort).  Looked up once.
 */
const char *tracefs__path(void);

/* 0 when tracefs__path() found or mounted tracefs, else why not (-errno) */
int tracefs__error(void);

#endif /* __PERF_TEXTPOKE_TRACEFS_H */
