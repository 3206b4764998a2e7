// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel's symbols for the machine (machine.c): from the kallsyms
 * copy the recording carries, the running kernel's when the recording
 * was made on it, or a vmlinux; each symbol moved to the kernel or the
 * module it lies in, in that object's space, and the kernel map fitted
 * to the table.  Read once, when a lookup first needs a kernel symbol.
 */
#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "debug.h"
#include "dso.h"
#include "header.h"
#include "input-file.h"
#include "kallsyms.h"
#include "machine.h"
#include "map.h"
#include "module-dso.h"
#include "module-events.h"
#include "symbol.h"
#include "thread.h"
#include "machine-internal.h"

/* kernel symbols */

/* what the features say, once they have all been read */
static void machine__check_env(struct machine *machine)
{
	struct build_id bid = {.size = 0};

	if (machine->env_checked)
		return;
	machine->env_checked = true;
	if (!machine->kernel_dso->bid.size &&
	    !perf_env__find_build_id(machine->env, KERNEL_MMAP_NAME, &bid))
		dso__set_build_id(machine->kernel_dso, &bid);
	machine->running_kernel = env__is_running_kernel(machine->env);
	/* perf's own test: the recorded kernel's build-id is this kernel's */
	if (!machine->running_kernel && machine->kernel_dso->bid.size &&
	    !kernel__read_running_build_id(&bid))
		machine->running_kernel = build_id__equal(&machine->kernel_dso->bid, &bid);
}

struct kallsyms_load {
	struct symbols all;
	struct symbol_arena arena;
	const char *ref_name; /* machine->kernel_ref */
	u64 ref;	      /* its address in the table, when has_ref */
	bool has_ref;
	bool nonzero; /* kptr_restrict zeroes every address */
};

static int kallsyms_load__add(void *arg, const char *name, char type, u64 start, const char *module)
{
	struct kallsyms_load *load = arg;
	char buf[512];

	if (start)
		load->nonzero = true;
	if (!module && !load->has_ref && !strcmp(name, load->ref_name)) {
		load->ref = start;
		load->has_ref = true;
	}
	if (!kallsyms__type_is_symbol(type) || name[0] == '$')
		return 0;
	/* "[module]" stays in the name until symbols__fixup() has seen it */
	if (module) {
		snprintf(buf, sizeof(buf), "%s\t[%s]", name, module);
		name = buf;
	}
	/* names are cut where a copy into buf would cut them */
	return symbols__add(&load->all,
			    symbol_arena__new_len(&load->arena, start, 0, kallsyms__binding(type),
						  kallsyms__elf_type(type), name,
						  strnlen(name, sizeof(buf) - 1)));
}

/*
 * Where kernel symbols come from, in the order of perf's
 * dso__load_kernel_sym(): what the user named, the recording's own kallsyms
 * (kcore_dir) or the build-id cache's copy of it, then /proc/kallsyms.
 */
enum ksym_source {
	KSYM_FILE,    /* a table of the recorded kernel, or the one the user named */
	KSYM_RUNNING, /* /proc/kallsyms: recorded on this kernel, maybe moved since (KASLR) */
	/*
	 * /proc/kallsyms, for a recording that names neither its kernel's
	 * build-id nor its release, so that nothing says it is of another
	 * kernel: perf takes it blindly; it is used here only where the
	 * recorded kernel's _text is this one's.  A recording that names
	 * another release is of another kernel, whatever its _text: without
	 * KASLR every x86_64 kernel has _text at 0xffffffff81000000, and this
	 * kernel's names at a 2012 kernel's addresses are nobody's symbols.
	 */
	KSYM_OTHER,
};

/* the release the recording names, or NULL */
static const char *machine__named_release(const struct machine *machine)
{
	const char *rel = machine->env ? machine->env->os_release : NULL;

	return rel && *rel ? rel : NULL;
}

static const char *machine__recorded_release(const struct machine *machine)
{
	return machine__named_release(machine) ?: "(unknown)";
}

static const char *running_release(struct utsname *uts)
{
	if (uname(uts))
		snprintf(uts->release, sizeof(uts->release), "?");
	return uts->release;
}

static const char *machine__kallsyms_path(struct machine *machine, char **to_free,
					  enum ksym_source *src, bool warn)
{
	struct utsname uts;
	char *path, *dir;

	*to_free = NULL;
	*src = KSYM_FILE;
	if (machine->kallsyms_name)
		return machine->kallsyms_name;
	if (machine->kcore_dir) {
		if (asprintf(&path, "%s/kallsyms", machine->kcore_dir) >= 0 && !access(path, R_OK))
			return *to_free = path;
		free(path);
	}
	/* perf record keeps a copy of kallsyms under the kernel's build-id */
	dir = build_id_cache__dir(&machine->kernel_dso->bid);
	if (dir) {
		if (asprintf(&path, "%s/kallsyms", dir) >= 0 && !access(path, R_OK)) {
			free(dir);
			return *to_free = path;
		}
		free(path);
		free(dir);
	}
	if (machine->running_kernel) {
		*src = KSYM_RUNNING;
		return "/proc/kallsyms";
	}
	if (!machine->kernel_dso->bid.size && !machine__named_release(machine)) {
		*src = KSYM_OTHER;
		return "/proc/kallsyms";
	}
	if (warn)
		pr_warning("kernel symbols not resolved: recorded on %s, running %s\n",
			   machine__recorded_release(machine), running_release(&uts));
	return NULL;
}

/*
 * Another kernel's table fits a recording only where it puts the
 * reference symbol where the recorded kernel had it: then the addresses
 * of the recording are the running kernel's.  Says so, once per machine:
 * the names are a guess no build-id backs.
 */
static bool machine__other_kernel_fits(struct machine *machine, const struct kallsyms_load *load)
{
	struct map *kmap = machine->kernel_map;
	struct utsname uts;

	if (kmap && kmap->pgoff && load->has_ref && kmap->pgoff == load->ref) {
		pr_warning("kernel symbols from /proc/kallsyms of the running kernel %s: the "
			   "recording (%s, no kernel build-id) has its %s at the same address\n",
			   running_release(&uts), machine__recorded_release(machine),
			   machine->kernel_ref);
		return true;
	}
	if (!kmap || !kmap->pgoff)
		pr_warning("kernel symbols not resolved: recorded on %s, running %s, and the "
			   "recording does not say where its %s was\n",
			   machine__recorded_release(machine), running_release(&uts),
			   kmap ? machine->kernel_ref : "kernel");
	else if (!load->has_ref)
		pr_warning("kernel symbols not resolved: recorded on %s, running %s, which has no "
			   "%s\n",
			   machine__recorded_release(machine), running_release(&uts),
			   machine->kernel_ref);
	else
		pr_warning("kernel symbols not resolved: recorded on %s (%s at %#" PRIx64
			   "), running %s (%s at %#" PRIx64 ")\n",
			   machine__recorded_release(machine), machine->kernel_ref, kmap->pgoff,
			   running_release(&uts), machine->kernel_ref, load->ref);
	return false;
}

/* move each symbol to the kernel or its module, in that object's space */
static void machine__split_kallsyms(struct machine *machine, struct kallsyms_load *load,
				    s64 kernel_delta)
{
	size_t i;

	for (i = 0; i < load->all.nr; i++) {
		struct symbol *sym = load->all.entries[i];
		size_t n = sym->namelen != SYMBOL_NAMELEN_LONG ? sym->namelen : strlen(sym->name);
		/* "name\t[module]" ends in its bracket: most names need no scan */
		char *tab = n && sym->name[n - 1] == ']' ? strchr(sym->name, '\t') : NULL;
		struct dso *dso = machine->kernel_dso;

		if (tab) {
			struct map *map;

			*tab = '\0';
			symbol__set_namelen(sym, tab - sym->name);
			dso = dsos__find(&machine->dsos, tab + 1);
			map = dso && dso->kind == DSO_KIND__MODULE ?
				  maps__find(machine->kmaps, sym->start) :
				  NULL;
			if (!map || map->dso != dso) {
				symbol__delete(sym);
				continue;
			}
			if (sym->end > map->end)
				sym->end = map->end;
			sym->start -= map->start;
			sym->end -= map->start;
		} else {
			sym->start += kernel_delta;
			sym->end += kernel_delta;
		}
		if (symbols__add(&dso->symbols, sym))
			break;
	}
	/* every pointer moved or freed */
	load->all.nr = 0;
	symbols__exit(&load->all);
}

/*
 * perf stretches the kernel map over its kallsyms symbols (map__fixup_start
 * and map__fixup_end), so .init.text and the data symbols past _etext
 * resolve to [kernel.kallsyms] although the MMAP record ends at _etext.
 * Never over a module's map, though.
 */
static void machine__fit_kernel_map(struct machine *machine)
{
	struct map *kmap = machine->kernel_map;
	struct symbols *syms = &machine->kernel_dso->symbols;
	u64 start, end;
	size_t i;

	if (!kmap || !syms->nr)
		return;
	start = syms->entries[0]->start;
	end = syms->entries[syms->nr - 1]->end;
	for (i = 0; i < machine->kmaps->nr; i++) {
		struct map *m = machine->kmaps->entries[i];

		if (m == kmap)
			continue;
		if (m->start >= kmap->end && m->start < end)
			end = m->start;
		if (m->end <= kmap->start && m->end > start)
			start = m->end;
	}
	map__get(kmap);
	maps__remove(machine->kmaps, kmap);
	kmap->start = start;
	kmap->end = end;
	if (maps__insert(machine->kmaps, kmap))
		pr_debug("kernel map: cannot refit to [%#" PRIx64 ", %#" PRIx64 ")\n", start, end);
	map__put(kmap);
}

/* -k/--vmlinux: its symbol table, the whole of the kernel's symbols */
static int machine__read_vmlinux(struct machine *machine, struct kallsyms_load *load)
{
	const char *path = machine->vmlinux_name;
	char have[BUILD_ID_HEX_SIZE];
	size_t i;
	int err;

	err = vmlinux__load_symbols(path, &machine->kernel_dso->bid, &load->all);
	if (err == -EILSEQ) {
		pr_warning("kernel symbols not resolved: %s is not the recorded kernel "
			   "(build-id %s)\n",
			   path, build_id__sprintf(&machine->kernel_dso->bid, have));
		return err;
	}
	if (err) {
		pr_warning("kernel symbols not resolved: %s: %s\n", path,
			   err == -ENODATA ? "no symbol table" : input_file__strerror(err));
		return err;
	}
	/* before symbols__fixup(), which keeps one name of those sharing an address */
	for (i = 0; i < load->all.nr; i++) {
		if (!strcmp(load->all.entries[i]->name, load->ref_name)) {
			load->ref = load->all.entries[i]->start;
			load->has_ref = true;
			break;
		}
	}
	symbols__fixup(&load->all, false);
	return 0;
}

static int machine__read_kallsyms(struct machine *machine, struct kallsyms_load *load,
				  enum ksym_source *src, char **path)
{
	struct kallsyms_damage damage;
	char *to_free;
	const char *name = machine__kallsyms_path(machine, &to_free, src, true);
	int err;

	*path = NULL;
	if (!name)
		return -ENOENT;
	err = kallsyms__parse_checked(name, load, kallsyms_load__add, &damage);
	kallsyms_damage__warn(name, &damage, "kallsyms");
	if (err < 0 || !load->nonzero) {
		pr_warning("kernel symbols not resolved: %s: %s\n", name,
			   err < 0 ? input_file__strerror(err) :
				     "all addresses are zero (kptr_restrict?)");
		free(to_free);
		return err < 0 ? err : -EINVAL;
	}
	*path = to_free ?: strdup(name);
	symbols__fixup(&load->all, true);
	return 0;
}

void machine__load_kernel_symbols(struct machine *machine)
{
	struct kallsyms_load load = {.ref_name = machine->kernel_ref};
	struct map *kmap = machine->kernel_map;
	enum ksym_source src = KSYM_FILE;
	char *path = NULL;
	s64 delta = 0;
	size_t i;
	int err;

	machine__check_env(machine);
	machine->kernel_loaded = true;
	machine->kernel_dso->loaded = true;
	for (i = 0; i < ARRAY_SIZE(machine->dsos.heads); i++) {
		struct dso *dso;

		for (dso = machine->dsos.heads[i]; dso; dso = dso->next)
			if (dso->kind == DSO_KIND__MODULE)
				dso->loaded = true;
	}
	if (!load.ref_name[0])
		load.ref_name = "_text";

	symbols__init(&load.all);
	/* --kallsyms wins over -k, as in perf */
	if (machine->vmlinux_name && !machine->kallsyms_name) {
		err = machine__read_vmlinux(machine, &load);
		if (!err)
			path = strdup(machine->vmlinux_name);
	} else {
		err = machine__read_kallsyms(machine, &load, &src, &path);
	}
	if (err)
		goto out;
	if (src == KSYM_OTHER && !machine__other_kernel_fits(machine, &load))
		goto out;
	/*
	 * The table may sit elsewhere than the recorded kernel did (KASLR
	 * after a reboot, a vmlinux at its link address): the kernel MMAP's
	 * pgoff is where the reference symbol was.
	 */
	if (kmap && kmap->pgoff && load.has_ref && kmap->pgoff != load.ref) {
		delta = kmap->pgoff - load.ref;
		pr_debug("kernel symbols of %s moved by %#" PRIx64
			 " to where the recording had them\n",
			 path, (u64)delta);
	}
	machine__split_kallsyms(machine, &load, delta);
	machine__fit_kernel_map(machine);
	free(machine->kernel_dso->symsrc);
	machine->kernel_dso->symsrc = path;
	path = NULL;
	pr_debug("kernel symbols: %zu from %s\n", machine->kernel_dso->symbols.nr,
		 machine->kernel_dso->symsrc);
out:
	symbols__exit(&load.all);
	symbol_arena__exit(&load.arena);
	free(path);
}

/*
 * @name as a whole name field of kallsyms @text (NUL-terminated, none
 * inside): blank before it, blank or the end after.  strstr(), as glibc
 * has it, reads the 10 MB of a kernel's table several times faster than
 * memmem() for a short name.
 */
static bool kallsyms_text__has(const char *text, const char *name)
{
	size_t len = strlen(name);
	const char *p = text;

	while ((p = strstr(p, name))) {
		if (p > text && isspace((unsigned char)p[-1]) &&
		    (!p[len] || isspace((unsigned char)p[len])))
			return true;
		p++;
	}
	return false;
}

/* the whole of @path (/proc/kallsyms has no size to read up to); NULL on any error */
static char *read_whole(const char *path, size_t *size)
{
	size_t alloc = 1 << 20, n = 0;
	char *buf = malloc(alloc), *p;
	FILE *fp = fopen(path, "r");
	size_t got;

	if (!buf || !fp)
		goto fail;
	/* one byte kept for the NUL */
	while ((got = fread(buf + n, 1, alloc - n - 1, fp)) > 0) {
		n += got;
		if (n < alloc - 1)
			continue;
		p = realloc(buf, 2 * alloc);
		if (!p)
			goto fail;
		buf = p;
		alloc *= 2;
	}
	if (ferror(fp))
		goto fail;
	fclose(fp);
	buf[n] = 0;
	*size = n;
	return buf;
fail:
	if (fp)
		fclose(fp);
	free(buf);
	return NULL;
}

/*
 * A regular file of some size mapped whole, with a NUL after its end:
 * the last page's rest reads as zeros, or an anonymous page follows the
 * file's when it ends on a page boundary.  Neither copied nor faulted in
 * page by page as read() into fresh memory is (a kernel's 10 MB table,
 * for one name).  NULL when @path is no such file (/proc/kallsyms has no
 * size to map): read_whole() then.
 */
static char *map_whole(const char *path, size_t *size, size_t *map_len)
{
	long page = sysconf(_SC_PAGESIZE);
	struct stat st;
	char *base;
	void *p;
	int fd;

	fd = input_file__open(path, &st);
	if (fd < 0)
		return NULL;
	/* what the table's reader would refuse is read as before */
	if (st.st_size <= 0 || st.st_size >= KALLSYMS_MAX_SIZE || page <= 0) {
		close(fd);
		return NULL;
	}
	*size = st.st_size;
	*map_len = PERF_ALIGN(*size, (size_t)page) + page;
	base = mmap(NULL, *map_len, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED) {
		close(fd);
		return NULL;
	}
	p = mmap(base, *size, PROT_READ, MAP_PRIVATE | MAP_FIXED | MAP_POPULATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED) {
		munmap(base, *map_len);
		return NULL;
	}
	return base;
}

bool machine__kallsyms_may_name(struct machine *machine, const char **names, size_t nr)
{
	enum ksym_source src;
	char *to_free, *text = NULL;
	const char *path;
	bool may = false;
	size_t size, i, map_len = 0;

	if (machine->kernel_loaded || (machine->vmlinux_name && !machine->kallsyms_name))
		return true;
	machine__check_env(machine);
	/* no table: the load says why, once */
	path = machine__kallsyms_path(machine, &to_free, &src, false);
	if (path)
		text = map_whole(path, &size, &map_len);
	if (path && !text)
		text = read_whole(path, &size);
	free(to_free);
	/* a NUL would end the search early: such a file is not searched */
	if (!text || memchr(text, 0, size))
		may = true;
	for (i = 0; i < nr && !may; i++)
		/* kallsyms_load__add() cuts a long name: such a name is not looked for */
		may = strlen(names[i]) >= 500 || kallsyms_text__has(text, names[i]);
	if (map_len)
		munmap(text, map_len);
	else
		free(text);
	return may;
}

bool machine__kallsyms_names(struct machine *machine, u64 addr, u64 time)
{
	struct map *map;

	if (machine__find_ksym_map(machine, addr, time))
		return false;
	map = maps__find(machine->kmaps, addr);
	/* no map before the load may be the kernel's once the load stretches it */
	return !map ||
	       ((map->dso->kind == DSO_KIND__KERNEL || map->dso->kind == DSO_KIND__MODULE) &&
		!map->dso->loaded);
}

void machine__preload_kernel(struct machine *machine)
{
	if (machine->kernel_map && !machine->kernel_loaded)
		machine__load_dso(machine, machine->kernel_dso);
	/* its lookup index too: built once, not once by each worker */
	if (machine->kernel_dso)
		symbols__prepare(&machine->kernel_dso->symbols);
}

bool machine__kernel_image_has(struct machine *machine, u64 addr, u64 time)
{
	/*
	 * the MMAP's range, not the map's, which a load of the symbols
	 * stretches over the table (machine__fit_kernel_map()): the answer
	 * is the same whether or not they were read yet (a parallel run
	 * reads them before its walk, one worker at the first sample in
	 * the kernel that wants them), and so is what the caller drops
	 */
	if (!machine->kernel_map || addr < machine->kernel_mmap_start ||
	    addr >= machine->kernel_mmap_end)
		return false;
	/*
	 * a kernel MMAP that some perf wrote over the module area (its end
	 * where the first module starts, or none) holds KSYMBOL objects:
	 * those keep their samples, as machine__kallsyms_names() says
	 */
	return !machine__find_ksym_map(machine, addr, time);
}

void machine__load_dso(struct machine *machine, struct dso *dso)
{
	if (dso->loaded)
		return;
	machine__check_env(machine);
	if (dso->kind == DSO_KIND__KERNEL || dso->kind == DSO_KIND__MODULE) {
		/* a module mapped after kallsyms was read got its symbols then */
		if (machine->kernel_loaded)
			dso->loaded = true;
		else
			machine__load_kernel_symbols(machine);
	} else
		dso__load(dso, machine->running_kernel);
}
