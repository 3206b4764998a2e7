// SPDX-License-Identifier: GPL-2.0-only
/*
 * Objects that maps point into, and the symbol sources for the kinds that
 * are not plain ELF files (perf-PID.map files of JITs, the vdso).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "debug.h"
#include "dso-inline.h"
#include "dso.h"

/*
 * The name report's Shared Object column, --dsos and srcline's fallback
 * use.  perf's dso__set_basename() calls the anon code a JIT describes
 * in /tmp/perf-PID.map "[JIT] tid PID" there (perf script still prints
 * the path).
 */
static void dso__set_short_name(struct dso *dso)
{
	const char *slash = strrchr(dso->name, '/');
	int tid;

	if (sscanf(dso->name, "/tmp/perf-%d.map", &tid) == 1 &&
	    asprintf(&dso->short_name_alloc, "[JIT] tid %d", tid) >= 0) {
		dso->short_name = dso->short_name_alloc;
		return;
	}
	dso->short_name_alloc = NULL;
	dso->short_name = slash && slash[1] ? slash + 1 : dso->name;
}

bool kernel_mmap__is_object(const char *filename)
{
	static const char *const comp[] = {".gz", ".xz", ".zst"};
	const char *base = strrchr(filename, '/'), *ext;
	size_t i;

	if (filename[0] != '/')
		return false;
	base = base ? base + 1 : filename;
	ext = strrchr(base, '.');
	for (i = 0; ext && i < ARRAY_SIZE(comp); i++) {
		if (!strcmp(ext, comp[i])) {
			ext = ext > base ? memrchr(base, '.', ext - base) : NULL;
			break;
		}
	}
	/* a leading dot is no extension (perf: "ext > name") */
	return !(ext && ext > base && !strncmp(ext, ".ko", 3));
}

void kernel_object__name(const char *filename, char *buf, size_t size)
{
	const char *base = strrchr(filename, '/');
	char *p;

	snprintf(buf, size, "%s", base ? base + 1 : filename);
	for (p = buf; *p; p++)
		if (*p == '-')
			*p = '_';
}

struct dso *dso__new(const char *name, enum dso_kind kind)
{
	static u32 serial;
	struct dso *dso = calloc(1, sizeof(*dso));

	if (!dso)
		return NULL;
	dso->serial = ++serial;
	dso->name = strdup(name);
	if (!dso->name) {
		free(dso);
		return NULL;
	}
	dso->long_name = dso->name;
	dso->name_len = dso->long_name_len = strlen(dso->name);
	dso->refcnt = 1;
	dso->kind = kind;
	dso__set_short_name(dso);
	symbols__init(&dso->symbols);
	/* these have no symbols but the ones given to them */
	if (kind == DSO_KIND__NO_DSO || kind == DSO_KIND__KSYMBOL)
		dso->loaded = true;
	return dso;
}

struct dso *dso__get(struct dso *dso)
{
	if (dso)
		dso->refcnt++;
	return dso;
}

void dso__put(struct dso *dso)
{
	if (!dso || --dso->refcnt > 0)
		return;
	symbols__exit(&dso->symbols);
	if (dso->long_name != dso->name)
		free(dso->long_name);
	free(dso->name);
	free(dso->short_name_alloc);
	free(dso->symsrc);
	free(dso->image);
	dso_inline__delete(dso->inl);
	free(dso->runtime_path);
	free(dso->data_path);
	free(dso);
}

int dso__set_long_name(struct dso *dso, const char *long_name)
{
	char *copy = strdup(long_name);

	if (!copy)
		return -ENOMEM;
	if (dso->long_name != dso->name)
		free(dso->long_name);
	dso->long_name = copy;
	dso->long_name_len = strlen(copy);
	dso->runtime_known = false;
	dso->data_known = false;
	return 0;
}

void dso__set_build_id(struct dso *dso, const struct build_id *bid)
{
	if (bid->size) {
		dso->bid = *bid;
		dso->runtime_known = false;
		dso->data_known = false;
	}
}

/*
 * perf 6.1 opens an object's data through binary_type_data[]: the
 * build-id cache first, then the path itself (symfs-relative), whose
 * build-id it does not check.  A recording from another machine, its
 * objects unpacked from perf archive into ~/.debug, reads right that way
 * while nothing exists at the recorded paths.
 */
const char *dso__data_path(struct dso *dso)
{
	struct stat st;
	char *cached;

	if (dso->data_known)
		return dso->data_path ?: dso->long_name;
	dso->data_known = true;
	free(dso->data_path);
	dso->data_path = NULL;
	cached = build_id_cache__dir(&dso->bid);
	if (!cached)
		return dso->long_name;
	/* <cache>/<path>/<build-id>/elf; in perf's old layout the link is the file */
	if (!stat(cached, &st) && S_ISDIR(st.st_mode)) {
		char *elf;

		if (asprintf(&elf, "%s/elf", cached) < 0)
			elf = NULL;
		if (elf && !access(elf, R_OK))
			dso->data_path = elf;
		else
			free(elf);
	} else {
		dso->data_path = cached;
		cached = NULL;
	}
	free(cached);
	return dso->data_path ?: dso->long_name;
}

int dso__insert_symbol(struct dso *dso, struct symbol *sym)
{
	int err = symbols__add(&dso->symbols, sym);

	if (!err)
		symbols__fixup(&dso->symbols, false);
	return err;
}

/*
 * perf-PID.map: "START SIZE name" per line, hex, absolute addresses; what
 * JITs (V8, the JVM agents, LuaJIT) write for perf.
 */
static int dso__load_perf_map(struct dso *dso)
{
	char *line = NULL;
	size_t n = 0;
	FILE *fp;
	int err = 0;

	fp = fopen(dso->long_name, "r");
	if (!fp)
		return 0;
	while (getline(&line, &n, fp) > 0) {
		u64 start, size;
		int pos = 0;
		char *name;

		if (sscanf(line, "%" SCNx64 " %" SCNx64 " %n", &start, &size, &pos) < 2 || !pos)
			continue;
		name = line + pos;
		name[strcspn(name, "\n")] = '\0';
		if (!*name)
			continue;
		err = symbols__add(&dso->symbols, symbol__new(start, size, 1, 2, name));
		if (err)
			break;
	}
	free(line);
	fclose(fp);
	symbols__fixup(&dso->symbols, false);
	if (!err)
		dso->symsrc = strdup(dso->long_name);
	return err;
}

static int dso__load_vdso(struct dso *dso, bool running_kernel)
{
	char *dir = build_id_cache__dir(&dso->bid);
	int err = -ENOENT;

	if (dir) {
		char *saved = dso->long_name, *path;

		if (asprintf(&path, "%s/vdso", dir) >= 0) {
			/* dso__load_elf() reads long_name: point it at the copy */
			dso->long_name = path;
			err = dso__load_elf(dso);
			dso->long_name = saved;
			free(path);
		}
		free(dir);
		if (!err && dso->symbols.nr)
			return 0;
	}
	/* this kernel's vdso is the recorded one when the build-ids agree */
	if (!dso->bid.size && !running_kernel)
		return 0;
	if (!strcmp(dso->name, "[vdso32]"))
		return dso__load_compat_vdso(dso, "perf-read-vdso32");
	if (!strcmp(dso->name, "[vdsox32]"))
		return dso__load_compat_vdso(dso, "perf-read-vdsox32");
	return dso__load_own_vdso(dso);
}

int dso__load(struct dso *dso, bool running_kernel)
{
	int err = 0;

	if (dso->loaded)
		return 0;
	dso->loaded = true;

	switch (dso->kind) {
	case DSO_KIND__USER:
		err = dso__load_elf(dso);
		break;
	case DSO_KIND__VDSO:
		err = dso__load_vdso(dso, running_kernel);
		break;
	case DSO_KIND__ANON:
		err = dso__load_perf_map(dso);
		break;
	case DSO_KIND__KERNEL_OBJECT:
		err = dso__load_kernel_object(dso);
		break;
	default:
		break;
	}
	if (err)
		pr_debug("%s: no symbols: %s\n", dso->long_name, strerror(-err));
	else
		pr_debug2("%s: %zu symbols from %s\n", dso->long_name, dso->symbols.nr,
			  dso->symsrc ?: "nowhere");
	return err == -ENOENT ? 0 : err;
}

struct symbol *dso__find_symbol(struct dso *dso, u64 addr)
{
	return symbols__find(&dso->symbols, addr);
}

static unsigned int dsos__hash(const char *name)
{
	unsigned int h = 5381;

	while (*name)
		h = h * 33 + (unsigned char)*name++;
	return h & ((1 << DSOS_HASH_BITS) - 1);
}

void dsos__init(struct dsos *dsos)
{
	memset(dsos, 0, sizeof(*dsos));
}

void dsos__exit(struct dsos *dsos)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(dsos->heads); i++) {
		struct dso *dso = dsos->heads[i];

		while (dso) {
			struct dso *next = dso->next;

			dso->next = NULL;
			dso__put(dso);
			dso = next;
		}
		dsos->heads[i] = NULL;
	}
	dsos->nr = 0;
}

struct dso *dsos__find(struct dsos *dsos, const char *name)
{
	struct dso *dso;

	for (dso = dsos->heads[dsos__hash(name)]; dso; dso = dso->next)
		if (!strcmp(dso->name, name))
			return dso;
	return NULL;
}

struct dso *dsos__findnew(struct dsos *dsos, const char *name, enum dso_kind kind)
{
	struct dso *dso = dsos__find(dsos, name);
	unsigned int h;

	if (dso)
		return dso__get(dso);
	dso = dso__new(name, kind);
	if (!dso)
		return NULL;
	h = dsos__hash(name);
	dso->next = dsos->heads[h];
	dsos->heads[h] = dso;
	dsos->nr++;
	return dso__get(dso);
}
