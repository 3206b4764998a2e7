// SPDX-License-Identifier: GPL-2.0-only
/* kallsyms files: /proc/kallsyms, kcore_dir/kallsyms, the build-id cache's copy */
#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kallsyms.h"

int kallsyms__parse(const char *path, void *arg,
		    int (*cb)(void *arg, const char *name, char type, u64 start,
			      const char *module))
{
	char *line = NULL;
	size_t n = 0;
	ssize_t len;
	FILE *fp;
	int nr = 0, err = 0;

	fp = fopen(path, "r");
	if (!fp)
		return -errno;
	while ((len = getline(&line, &n, fp)) > 0) {
		char *p = line, *end, *name, *module = NULL;
		u64 start;
		char type;

		if (line[len - 1] == '\n')
			line[--len] = '\0';
		start = strtoull(p, &end, 16);
		if (end == p || !isspace((unsigned char)*end))
			continue;
		p = end;
		while (*p == ' ' || *p == '\t')
			p++;
		type = *p;
		if (!type || !isspace((unsigned char)p[1]))
			continue;
		p += 2;
		while (*p == ' ')
			p++;
		name = p;
		/* "name\t[module]" */
		end = strchr(name, '\t');
		if (end) {
			*end++ = '\0';
			while (*end == ' ' || *end == '\t')
				end++;
			if (*end == '[') {
				char *close = strchr(end, ']');

				if (close) {
					*close = '\0';
					module = end + 1;
				}
			}
		}
		if (!*name)
			continue;
		err = cb(arg, name, type, start, module);
		if (err)
			break;
		nr++;
	}
	free(line);
	if (!err && ferror(fp))
		err = -EIO;
	fclose(fp);
	return err ? err : nr;
}

bool kallsyms__type_is_symbol(char type)
{
	type = toupper((unsigned char)type);
	return type == 'T' || type == 'W' || type == 'D' || type == 'B';
}

u8 kallsyms__binding(char type)
{
	if (type == 'W')
		return STB_WEAK;
	return isupper((unsigned char)type) ? STB_GLOBAL : STB_LOCAL;
}

u8 kallsyms__elf_type(char type)
{
	type = toupper((unsigned char)type);
	return type == 'T' || type == 'W' ? STT_FUNC : STT_OBJECT;
}
