// SPDX-License-Identifier: GPL-2.0-only
/*
 * What kind of thing a path names, for the writers and for inject's
 * choice of pipe mode (output-path.h).  Apart from writer-output.c so
 * that a command deciding its mode before any writer exists asks the
 * same question the writer does.
 */
#include <string.h>
#include <sys/stat.h>

#include "output-path.h"

enum output_path_kind output_path__kind(const char *path)
{
	struct stat st;

	if (!strcmp(path, "-"))
		return OUTPUT_PATH_STDIO;
	/* stat(): a symlink is what it points at; a name not there is a file to come */
	if (stat(path, &st) || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode))
		return OUTPUT_PATH_FILE;
	if (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))
		return OUTPUT_PATH_STREAM;
	return OUTPUT_PATH_DEVICE;
}
