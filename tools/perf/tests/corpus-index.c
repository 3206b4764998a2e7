// SPDX-License-Identifier: GPL-2.0-only
/*
 * INDEX.md has one "### `rel`" section per file, and in it "- records
 * (independent walker, top level): COMM 2, SAMPLE 8, ..." and, for
 * compressed files, "- records inside zstd-compressed records: ...".
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus-index.h"
#include "tests.h"

long corpus_index__count(const char *rel, const char *type)
{
	char *path, line[4096], head[512], key[64];
	long n = -1;
	bool in = false;
	FILE *f;

	if (asprintf(&path, "%s/INDEX.md", test_corpus_dir()) < 0)
		return -1;
	f = fopen(path, "r");
	free(path);
	if (!f)
		return -1;
	snprintf(head, sizeof(head), "### `%s`\n", rel);
	snprintf(key, sizeof(key), " %s ", type);
	while (fgets(line, sizeof(line), f)) {
		char *p;

		if (!strncmp(line, "### ", 4)) {
			if (in)
				break;
			in = !strcmp(line, head);
			if (in)
				n = 0;
			continue;
		}
		if (!in || strncmp(line, "- records ", 10))
			continue;
		p = strstr(line, key);
		if (p)
			n += strtol(p + strlen(key), NULL, 10);
	}
	fclose(f);
	return n;
}
