/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_OUTPUT_PATH_H
#define __PERF_TEXTPOKE_OUTPUT_PATH_H

#include <stdbool.h>

/*
 * Where an output named by the user goes, as writer-output.c decides it
 * for perf.data files, for the other files we write (report --html): a
 * regular file or a name not yet taken is written under a temporary name
 * beside it and renamed into place; a device or FIFO is written through,
 * never replaced; a symlink is followed, so that it stays and its target
 * is what is replaced.
 */

enum output_path_kind {
	OUTPUT_PATH_FILE,   /* regular, a directory, or not there yet: replaced by a rename */
	OUTPUT_PATH_STDIO,  /* "-": stdout, or stdin where the path is an input */
	OUTPUT_PATH_STREAM, /* a FIFO or a socket: one pass, no seeking */
	OUTPUT_PATH_DEVICE, /* a character or block device: written through */
};

/* what @path names now, symlinks followed (stat()) */
enum output_path_kind output_path__kind(const char *path);

/* "-", a FIFO or a socket: read or written in one pass, as a pipe */
static inline bool output_path__is_stream(const char *path)
{
	enum output_path_kind kind = output_path__kind(path);

	return kind == OUTPUT_PATH_STDIO || kind == OUTPUT_PATH_STREAM;
}

/*
 * @target (malloc'ed): @path with trailing slashes dropped and symlinks
 * followed; @through: a device, FIFO or socket (OUTPUT_PATH_DEVICE or
 * _STREAM), to open and write in place.  0 or -errno (-ELOOP, -ENOMEM,
 * what lstat() said).
 */
int output_path__resolve(const char *path, char **target, bool *through);

/*
 * "<dir>/.<base>.<pid>.XXXXXX" beside @target, for mkstemp(); malloc'ed or
 * NULL.  Removes first what output_path__clean_stale() finds.
 */
char *output_path__tmp(const char *target);

/*
 * Remove the temporary outputs of @target that a killed writer left (their
 * pid is gone), saying so.
 */
void output_path__clean_stale(const char *target);

#endif /* __PERF_TEXTPOKE_OUTPUT_PATH_H */
