// SPDX-License-Identifier: GPL-2.0-only
/*
 * ELF symbol tables of user-space objects, kept the way perf keeps them so
 * that names and offsets print the same: functions, objects and text/data
 * labels, addresses converted from link-time virtual addresses to file
 * offsets (the space map_ip() of a file mapping lands in) through the
 * PT_LOAD segment that holds them.
 *
 * Where the symbols come from, in order: the distribution's debuginfo for
 * the build-id, perf's build-id cache, the .gnu_debuglink file, the object
 * itself.  The first with a .symtab wins; else the object's .dynsym.  A
 * file whose build-id differs from the recorded one is never used.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "debug.h"
#include "dso.h"
#include "input-file.h"

#include <gelf.h>
#include <libelf.h>

#ifndef STT_GNU_IFUNC
#define STT_GNU_IFUNC 10
#endif

struct symsrc {
	char *path;
	int fd;
	Elf *elf;
	GElf_Ehdr ehdr;
	bool has_symtab;
	bool has_dynsym;
	void *image; /* owned memory image (vdso), or NULL */
};

static void symsrc__exit(struct symsrc *ss)
{
	if (ss->elf)
		elf_end(ss->elf);
	if (ss->fd >= 0)
		close(ss->fd);
	free(ss->image);
	free(ss->path);
	memset(ss, 0, sizeof(*ss));
	ss->fd = -1;
}

static void symsrc__scan(struct symsrc *ss)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(ss->elf, scn)) != NULL) {
		GElf_Shdr shdr;

		if (!gelf_getshdr(scn, &shdr))
			continue;
		if (shdr.sh_type == SHT_SYMTAB)
			ss->has_symtab = true;
		else if (shdr.sh_type == SHT_DYNSYM)
			ss->has_dynsym = true;
	}
}

/*
 * Open @path as a symbol source; -ENOENT when absent, -EINVAL when not
 * ELF, -EILSEQ when its build-id is not @want (when @want is known).
 */
static int symsrc__init(struct symsrc *ss, const char *path, const struct build_id *want)
{
	struct build_id have = {.size = 0};
	char want_hex[BUILD_ID_HEX_SIZE], have_hex[BUILD_ID_HEX_SIZE];
	struct stat st;

	memset(ss, 0, sizeof(*ss));
	/* an object's path may now be a FIFO: never block on it, read regular files only */
	ss->fd = input_file__open(path, &st);
	if (ss->fd < 0)
		return ss->fd;
	ss->elf = elf_begin(ss->fd, ELF_C_READ_MMAP, NULL);
	if (!ss->elf || elf_kind(ss->elf) != ELF_K_ELF || !gelf_getehdr(ss->elf, &ss->ehdr)) {
		symsrc__exit(ss);
		return -EINVAL;
	}
	if (want && want->size) {
		elf__read_build_id(ss->elf, &have);
		if (!build_id__equal(want, &have)) {
			pr_debug("%s: build-id %s, recorded %s: not using its symbols\n", path,
				 have.size ? build_id__sprintf(&have, have_hex) : "(none)",
				 build_id__sprintf(want, want_hex));
			symsrc__exit(ss);
			return -EILSEQ;
		}
	}
	ss->path = strdup(path);
	symsrc__scan(ss);
	return 0;
}

static int symsrc__init_memory(struct symsrc *ss, void *image, size_t size, const char *name)
{
	memset(ss, 0, sizeof(*ss));
	ss->fd = -1;
	ss->image = image;
	ss->elf = elf_memory(image, size);
	if (!ss->elf || elf_kind(ss->elf) != ELF_K_ELF || !gelf_getehdr(ss->elf, &ss->ehdr)) {
		symsrc__exit(ss);
		return -EINVAL;
	}
	ss->path = strdup(name);
	symsrc__scan(ss);
	return 0;
}

static bool elf_sym__is_function(const GElf_Sym *sym)
{
	int type = GELF_ST_TYPE(sym->st_info);

	return (type == STT_FUNC || type == STT_GNU_IFUNC) && sym->st_name &&
	       sym->st_shndx != SHN_UNDEF;
}

static bool elf_sym__is_object(const GElf_Sym *sym)
{
	return GELF_ST_TYPE(sym->st_info) == STT_OBJECT && sym->st_name &&
	       sym->st_shndx != SHN_UNDEF;
}

/* assembler labels: kept when in a text or data section, like perf */
static bool elf_sym__is_label(const GElf_Sym *sym)
{
	int vis = GELF_ST_VISIBILITY(sym->st_other);

	return GELF_ST_TYPE(sym->st_info) == STT_NOTYPE && sym->st_name &&
	       sym->st_shndx != SHN_UNDEF && sym->st_shndx != SHN_ABS && vis != STV_HIDDEN &&
	       vis != STV_INTERNAL;
}

/*
 * The PT_LOAD segments of an object, read once per table rather than once
 * per symbol: (vaddr, size, vaddr - offset), in program header order.
 */
struct elf_loads {
	size_t nr;
	struct {
		u64 vaddr, size, bias;
	} * seg;
};

static void elf_loads__init(struct elf_loads *loads, Elf *elf)
{
	size_t i, nr;

	loads->nr = 0;
	loads->seg = NULL;
	if (elf_getphdrnum(elf, &nr) || !nr)
		return;
	loads->seg = calloc(nr, sizeof(*loads->seg));
	if (!loads->seg)
		return;
	for (i = 0; i < nr; i++) {
		GElf_Phdr phdr;
		u64 size;

		if (!gelf_getphdr(elf, i, &phdr) || phdr.p_type != PT_LOAD)
			continue;
		size = phdr.p_memsz > phdr.p_filesz ? phdr.p_memsz : phdr.p_filesz;
		if (!size)
			continue;
		loads->seg[loads->nr].vaddr = phdr.p_vaddr;
		loads->seg[loads->nr].size = size;
		loads->seg[loads->nr].bias = phdr.p_vaddr - phdr.p_offset;
		loads->nr++;
	}
}

static void elf_loads__exit(struct elf_loads *loads)
{
	zfree(&loads->seg);
	loads->nr = 0;
}

/* link-time address -> file offset, through the first PT_LOAD segment holding it */
static bool elf_loads__vaddr_to_offset(const struct elf_loads *loads, u64 vaddr, u64 *offset)
{
	size_t i;

	for (i = 0; i < loads->nr; i++) {
		if (vaddr < loads->seg[i].vaddr ||
		    vaddr - loads->seg[i].vaddr >= loads->seg[i].size)
			continue;
		*offset = vaddr - loads->seg[i].bias;
		return true;
	}
	return false;
}

static int elf__load_symbols(struct symbols *out, struct symsrc *syms_ss, struct symsrc *runtime_ss,
			     bool dynsym)
{
	Elf *elf = syms_ss->elf;
	Elf_Scn *scn = NULL, *strscn;
	Elf_Data *data;
	GElf_Shdr symshdr;
	struct elf_loads loads;
	size_t shstrndx, i, nr;
	int err = 0;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (gelf_getshdr(scn, &symshdr) &&
		    symshdr.sh_type == (dynsym ? SHT_DYNSYM : SHT_SYMTAB))
			break;
	}
	if (!scn || !symshdr.sh_entsize)
		return -ENOENT;
	data = elf_getdata(scn, NULL);
	strscn = elf_getscn(elf, symshdr.sh_link);
	if (!data || !strscn || elf_getshdrstrndx(elf, &shstrndx))
		return -EINVAL;

	nr = symshdr.sh_size / symshdr.sh_entsize;
	elf_loads__init(&loads, runtime_ss->elf);
	for (i = 0; i < nr; i++) {
		GElf_Sym sym;
		GElf_Shdr shdr;
		Elf_Scn *sec;
		Elf *sec_elf = elf;
		const char *name, *secname;
		bool label;
		u64 value;

		if (!gelf_getsym(data, i, &sym))
			break;
		label = elf_sym__is_label(&sym);
		if (!label && !elf_sym__is_function(&sym) && !elf_sym__is_object(&sym))
			continue;
		if (sym.st_shndx == SHN_ABS || sym.st_shndx >= SHN_LORESERVE)
			continue;
		sec = elf_getscn(elf, sym.st_shndx);
		if (!sec || !gelf_getshdr(sec, &shdr))
			continue;
		/* not loaded at run time (.gnu.warning.*) */
		if (!(shdr.sh_flags & SHF_ALLOC))
			continue;
		/* debuginfo files keep headers only: take the runtime's */
		if (shdr.sh_type == SHT_NOBITS && runtime_ss != syms_ss) {
			Elf_Scn *rsec = elf_getscn(runtime_ss->elf, sym.st_shndx);

			if (rsec && gelf_getshdr(rsec, &shdr))
				sec_elf = runtime_ss->elf;
		}
		if (label) {
			size_t idx = shstrndx;

			if (sec_elf != elf && elf_getshdrstrndx(sec_elf, &idx))
				continue;
			secname = elf_strptr(sec_elf, idx, shdr.sh_name);
			if (!secname || (!strstr(secname, "text") && !strstr(secname, "data")))
				continue;
		}
		name = elf_strptr(elf, symshdr.sh_link, sym.st_name);
		if (!name || !*name)
			continue;

		value = sym.st_value;
		if (!elf_loads__vaddr_to_offset(&loads, value, &value))
			value -= shdr.sh_addr - shdr.sh_offset;

		err = symbols__add(out, symbol__new_mangled(value, sym.st_size,
							    GELF_ST_BIND(sym.st_info),
							    GELF_ST_TYPE(sym.st_info), name));
		if (err)
			break;
	}
	elf_loads__exit(&loads);
	return err;
}

/*
 * The only names a command looks symbols up for (annotate -s NAME), when
 * each is a plain identifier; NULL: any name.
 */
static const char *const *wanted_names;
static size_t nr_wanted_names;

static bool name__is_identifier(const char *s)
{
	if (!*s || (*s >= '0' && *s <= '9'))
		return false;
	for (; *s; s++)
		if (!(*s == '_' || (*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'z') ||
		      (*s >= 'A' && *s <= 'Z')))
			return false;
	return true;
}

void dso__set_wanted_names(const char *const *names, size_t nr)
{
	size_t i;

	wanted_names = NULL;
	nr_wanted_names = 0;
	for (i = 0; i < nr; i++)
		if (!name__is_identifier(names[i]))
			return;
	wanted_names = nr ? names : NULL;
	nr_wanted_names = nr;
}

/*
 * Whether a symbol named @name (as in the table) may print as @want, a
 * plain identifier: a C++ or Rust mangled name holds its identifiers as
 * they are, and demangling adds only "::", "<...>" and the like, never
 * makes a bare name of other letters; but for Rust's "$uXX$" escapes,
 * which may spell any character.  Other names print as they are.
 */
static bool sym_name__may_be(const char *name, const char *want)
{
	if (name[0] == '_' && name[1] == 'Z')
		return strstr(name, want) || strstr(name, "$u");
	return name[0] == want[0] && !strcmp(name, want);
}

/*
 * Whether the symbol table @ss's symbols would come from may hold a name
 * wanted: a look at each symbol's name, a small part of what reading the
 * table costs.  Objects that cannot (most of those a system-wide
 * recording hits) are then never read: their samples are of no symbol
 * wanted either way.
 */
static bool symsrc__may_name(struct symsrc *ss, bool dynsym)
{
	Elf_Scn *scn = NULL, *strscn;
	Elf_Data *data, *strdata;
	const char *strs;
	GElf_Shdr shdr;
	size_t i, j, nr;

	if (!wanted_names)
		return true;
	while ((scn = elf_nextscn(ss->elf, scn)) != NULL)
		if (gelf_getshdr(scn, &shdr) && shdr.sh_type == (dynsym ? SHT_DYNSYM : SHT_SYMTAB))
			break;
	data = scn && shdr.sh_entsize ? elf_getdata(scn, NULL) : NULL;
	strscn = data ? elf_getscn(ss->elf, shdr.sh_link) : NULL;
	strdata = strscn ? elf_getdata(strscn, NULL) : NULL;
	/* what cannot be looked through is read, and fails or not as before */
	if (!strdata || !strdata->d_buf || !strdata->d_size ||
	    ((const char *)strdata->d_buf)[strdata->d_size - 1])
		return true;
	strs = strdata->d_buf;
	nr = shdr.sh_size / shdr.sh_entsize;
	for (i = 0; i < nr; i++) {
		GElf_Sym sym;

		if (!gelf_getsym(data, i, &sym))
			return true;
		if (sym.st_name >= strdata->d_size)
			continue;
		for (j = 0; j < nr_wanted_names; j++)
			if (sym_name__may_be(strs + sym.st_name, wanted_names[j]))
				return true;
	}
	return false;
}

/* 0, or 1 when the table cannot hold a wanted name and was left unread */
static int dso__load_symsrc(struct dso *dso, struct symsrc *syms_ss, struct symsrc *runtime_ss)
{
	bool dynsym = !syms_ss->has_symtab;
	int err;

	if (!symsrc__may_name(syms_ss, dynsym)) {
		free(dso->symsrc);
		dso->symsrc = strdup(syms_ss->path);
		return 1;
	}
	symbols__use_tree(&dso->symbols);
	err = elf__load_symbols(&dso->symbols, syms_ss, runtime_ss, dynsym);
	if (err) {
		symbols__exit(&dso->symbols);
		return err;
	}
	symbols__fixup(&dso->symbols, false);
	free(dso->symsrc);
	dso->symsrc = strdup(syms_ss->path);
	return 0;
}

static Elf_Scn *elf__section_by_name(Elf *elf, const char *name, GElf_Shdr *shdr, size_t *index)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		const char *secname;

		if (!gelf_getshdr(scn, shdr))
			continue;
		secname = elf_strptr(elf, shstrndx, shdr->sh_name);
		if (secname && !strcmp(secname, name)) {
			if (index)
				*index = elf_ndxscn(scn);
			return scn;
		}
	}
	return NULL;
}

/*
 * "name@plt" symbols for the .plt entries, one per .rela.plt relocation
 * in order after the header entry, as perf 6.1's
 * dso__synthesize_plt_symbols() lays them out (entry size = .plt's
 * sh_entsize on x86).  They are added after the fixups, so they may
 * overlap a symbol stretched over .plt (_init), like in perf.
 */
static int dso__synthesize_plt(struct dso *dso, struct symsrc *ss)
{
	GElf_Shdr rel_shdr, plt_shdr, dynsym_shdr;
	Elf_Scn *rel_scn, *dynsym_scn = NULL, *str_scn;
	Elf_Data *rel_data, *sym_data, *str_data;
	size_t dynsym_idx = 0, i, nr;
	u64 offset, entry;
	char name[1024];
	int err = 0;

	if (!ss->has_dynsym)
		return 0;
	while ((dynsym_scn = elf_nextscn(ss->elf, dynsym_scn)) != NULL) {
		if (gelf_getshdr(dynsym_scn, &dynsym_shdr) && dynsym_shdr.sh_type == SHT_DYNSYM) {
			dynsym_idx = elf_ndxscn(dynsym_scn);
			break;
		}
	}
	rel_scn = elf__section_by_name(ss->elf, ".rela.plt", &rel_shdr, NULL);
	if (!rel_scn)
		rel_scn = elf__section_by_name(ss->elf, ".rel.plt", &rel_shdr, NULL);
	if (!dynsym_scn || !rel_scn || rel_shdr.sh_link != dynsym_idx || !rel_shdr.sh_entsize ||
	    (rel_shdr.sh_type != SHT_RELA && rel_shdr.sh_type != SHT_REL))
		return 0;
	if (!elf__section_by_name(ss->elf, ".plt", &plt_shdr, NULL) || !plt_shdr.sh_entsize)
		return 0;
	rel_data = elf_getdata(rel_scn, NULL);
	sym_data = elf_getdata(dynsym_scn, NULL);
	str_scn = elf_getscn(ss->elf, dynsym_shdr.sh_link);
	str_data = str_scn ? elf_getdata(str_scn, NULL) : NULL;
	if (!rel_data || !sym_data || !str_data || !str_data->d_size)
		return 0;

	entry = plt_shdr.sh_entsize;
	offset = plt_shdr.sh_offset + entry; /* past the header entry */
	nr = rel_shdr.sh_size / rel_shdr.sh_entsize;
	for (i = 0; i < nr; i++) {
		GElf_Rela rela;
		GElf_Rel rel;
		GElf_Sym sym;
		const char *symname = NULL;
		struct symbol *plt_sym;
		char *demangled;
		u64 info;

		if (rel_shdr.sh_type == SHT_RELA) {
			if (!gelf_getrela(rel_data, i, &rela))
				break;
			info = rela.r_info;
		} else {
			if (!gelf_getrel(rel_data, i, &rel))
				break;
			info = rel.r_info;
		}
		if (gelf_getsym(sym_data, GELF_R_SYM(info), &sym))
			symname = elf_strptr(ss->elf, dynsym_shdr.sh_link, sym.st_name);
		/* demangled on first use, unless too long to put off */
		plt_sym = symname ? symbol__new_plt(offset, entry, symname) : NULL;
		if (!plt_sym) {
			demangled = symname ? symbol__demangle(symname) : NULL;
			snprintf(name, sizeof(name), "%s@plt", demangled ?: symname ?: "");
			free(demangled);
			plt_sym = symbol__new(offset, entry, STB_GLOBAL, STT_FUNC, name);
		}
		err = symbols__add_late(&dso->symbols, plt_sym);
		if (err)
			break;
		offset += entry;
	}
	/* once for all entries: sorting per entry made loading quadratic */
	symbols__sort(&dso->symbols);
	return err;
}

/* .gnu_debuglink: the debug file's name, looked for where gdb looks */
static char *symsrc__debuglink(struct symsrc *ss)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	char dir[PATH_MAX], *slash, *path;
	const char *name = NULL;
	static const char *const fmts[] = {"%s/%s", "%s/.debug/%s", "/usr/lib/debug%s/%s"};
	size_t i;

	if (elf_getshdrstrndx(ss->elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(ss->elf, scn)) != NULL) {
		GElf_Shdr shdr;
		const char *secname;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &shdr))
			continue;
		secname = elf_strptr(ss->elf, shstrndx, shdr.sh_name);
		if (!secname || strcmp(secname, ".gnu_debuglink"))
			continue;
		data = elf_getdata(scn, NULL);
		if (data && data->d_buf && data->d_size && memchr(data->d_buf, '\0', data->d_size))
			name = data->d_buf;
		break;
	}
	if (!name || !*name || strchr(name, '/'))
		return NULL;
	snprintf(dir, sizeof(dir), "%s", ss->path);
	slash = strrchr(dir, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	for (i = 0; i < ARRAY_SIZE(fmts); i++) {
		if (asprintf(&path, fmts[i], dir, name) < 0)
			return NULL;
		if (strcmp(path, ss->path) && !access(path, R_OK))
			return path;
		free(path);
	}
	return NULL;
}

static const char *symfs_dir;

void dso__set_symfs(const char *dir)
{
	symfs_dir = dir && *dir ? dir : NULL;
}

/* the object as mapped: the file itself (below --symfs), else its cached copy */
static int symsrc__init_runtime(struct symsrc *ss, const struct dso *dso, const char *cache)
{
	char *path = NULL;
	int err;

	if (symfs_dir && asprintf(&path, "%s%s", symfs_dir, dso->long_name) >= 0) {
		err = symsrc__init(ss, path, &dso->bid);
		zfree(&path);
	} else {
		err = symsrc__init(ss, dso->long_name, &dso->bid);
	}
	if (err && cache && asprintf(&path, "%s/elf", cache) >= 0) {
		err = symsrc__init(ss, path, &dso->bid);
		free(path);
	}
	return err;
}

const char *dso__runtime_path(struct dso *dso)
{
	struct symsrc ss = {.fd = -1};
	char *cache;

	if (dso->runtime_known)
		return dso->runtime_path;
	cache = build_id_cache__dir(&dso->bid);
	elf_version(EV_CURRENT);
	free(dso->runtime_path);
	dso->runtime_path = NULL;
	if (!symsrc__init_runtime(&ss, dso, cache)) {
		dso->runtime_path = ss.path;
		ss.path = NULL;
		symsrc__exit(&ss);
	}
	free(cache);
	dso->runtime_known = true;
	return dso->runtime_path;
}

int dso__load_elf(struct dso *dso)
{
	struct symsrc runtime = {.fd = -1}, syms = {.fd = -1};
	struct build_id bid = dso->bid;
	char *cache = build_id_cache__dir(&dso->bid);
	char *candidates[3] = {NULL, NULL, NULL};
	bool have_runtime = false, have_syms = false;
	size_t i;
	int err;

	elf_version(EV_CURRENT);

	have_runtime = !symsrc__init_runtime(&runtime, dso, cache);
	if (have_runtime && !bid.size)
		elf__read_build_id(runtime.elf, &bid);

	/* a full .symtab elsewhere: debuginfo, the cache's debug copy, debuglink */
	candidates[0] = build_id__debuginfo_path(&bid);
	if (cache && asprintf(&candidates[1], "%s/debug", cache) < 0)
		candidates[1] = NULL;
	if (have_runtime)
		candidates[2] = symsrc__debuglink(&runtime);
	if (!(have_runtime && runtime.has_symtab)) {
		for (i = 0; i < ARRAY_SIZE(candidates) && !have_syms; i++) {
			if (!candidates[i])
				continue;
			if (!symsrc__init(&syms, candidates[i], bid.size ? &bid : NULL)) {
				if (syms.has_symtab)
					have_syms = true;
				else
					symsrc__exit(&syms);
			}
		}
	}

	if (have_syms)
		err = dso__load_symsrc(dso, &syms, have_runtime ? &runtime : &syms);
	else if (have_runtime && (runtime.has_symtab || runtime.has_dynsym))
		err = dso__load_symsrc(dso, &runtime, &runtime);
	else
		err = -ENOENT;
	if (!err && have_runtime)
		err = dso__synthesize_plt(dso, &runtime);
	/* left unread: "name@plt" is no plain identifier either */
	if (err > 0)
		err = 0;

	for (i = 0; i < ARRAY_SIZE(candidates); i++)
		free(candidates[i]);
	free(cache);
	if (have_syms)
		symsrc__exit(&syms);
	if (have_runtime)
		symsrc__exit(&runtime);
	return err;
}

/*
 * The labels, functions and objects of @ss's .symtab that lie in sections
 * named ".text" into @out at their link-time addresses: what perf 6.1
 * keeps of a vmlinux and of a kernel-mapped object, whose other sections
 * it gives maps of their own (dso__process_kernel_symbol()).  @alloc_only:
 * only sections the object loads.  -ENODATA without a .symtab.
 */
static int symsrc__add_text_symbols(struct symsrc *ss, bool alloc_only, struct symbols *out)
{
	Elf_Scn *scn = NULL;
	Elf_Data *data;
	GElf_Shdr symshdr;
	size_t shstrndx, i, nr;
	int err = 0;

	while ((scn = elf_nextscn(ss->elf, scn)) != NULL)
		if (gelf_getshdr(scn, &symshdr) && symshdr.sh_type == SHT_SYMTAB)
			break;
	data = scn && symshdr.sh_entsize ? elf_getdata(scn, NULL) : NULL;
	if (!data || elf_getshdrstrndx(ss->elf, &shstrndx))
		return -ENODATA;
	/* libelf bounds the table by the file: a lying sh_size ends at its data */
	nr = symshdr.sh_size / symshdr.sh_entsize;
	for (i = 0; i < nr && !err; i++) {
		const char *name, *secname;
		GElf_Shdr shdr;
		Elf_Scn *sec;
		GElf_Sym sym;

		if (!gelf_getsym(data, i, &sym))
			break;
		if (!elf_sym__is_label(&sym) && !elf_sym__is_function(&sym) &&
		    !elf_sym__is_object(&sym))
			continue;
		if (sym.st_shndx == SHN_ABS || sym.st_shndx >= SHN_LORESERVE)
			continue;
		sec = elf_getscn(ss->elf, sym.st_shndx);
		if (!sec || !gelf_getshdr(sec, &shdr) ||
		    (alloc_only && !(shdr.sh_flags & SHF_ALLOC)))
			continue;
		secname = elf_strptr(ss->elf, shstrndx, shdr.sh_name);
		if (!secname || strcmp(secname, ".text"))
			continue;
		name = elf_strptr(ss->elf, symshdr.sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		err = symbols__add(out,
				   symbol__new(sym.st_value, sym.st_size, GELF_ST_BIND(sym.st_info),
					       GELF_ST_TYPE(sym.st_info), name));
	}
	return err;
}

/*
 * An object mapped into the kernel by a kernel MMAP (perf textpoke inject
 * --jit writes one per BPF program or OOL region version): linked at its
 * kernel address, so its symbols are kept at their link-time addresses,
 * the space of the identity map it is seen through.  perf 6.1 keeps them
 * as file offsets and maps the object's .text offset to its start, which
 * is the same thing for an object whose .text is linked at its map start.
 */
int dso__load_kernel_object(struct dso *dso)
{
	struct symsrc ss = {.fd = -1};
	int err;

	elf_version(EV_CURRENT);
	err = symsrc__init(&ss, dso->long_name, &dso->bid);
	if (err)
		return err;
	symbols__use_tree(&dso->symbols);
	err = symsrc__add_text_symbols(&ss, true, &dso->symbols);
	if (err == -ENODATA)
		err = -ENOENT;
	if (err) {
		symbols__exit(&dso->symbols);
	} else {
		symbols__fixup(&dso->symbols, false);
		free(dso->symsrc);
		dso->symsrc = strdup(ss.path);
	}
	symsrc__exit(&ss);
	return err;
}

/*
 * A vmlinux is the kernel at its link-time addresses: its .text symbols
 * are kept as they are (the machine moves them to where the recorded
 * kernel sat).  Symbols of the other sections are not the kernel map's
 * (perf gives each section a map of its own).
 */
int vmlinux__load_symbols(const char *path, const struct build_id *want, struct symbols *out)
{
	struct symsrc ss = {.fd = -1};
	int err;

	elf_version(EV_CURRENT);
	err = symsrc__init(&ss, path, want);
	if (err)
		return err;
	err = ss.has_symtab ? symsrc__add_text_symbols(&ss, false, out) : -ENODATA;
	symsrc__exit(&ss);
	return err;
}

static int dso__load_vdso_image(struct dso *dso, void *image, size_t size, const char *what)
{
	struct symsrc ss = {.fd = -1};
	int err;

	err = symsrc__init_memory(&ss, image, size, what);
	if (err)
		return err;
	if (dso->bid.size) {
		struct build_id have = {.size = 0};

		elf__read_build_id(ss.elf, &have);
		if (!build_id__equal(&have, &dso->bid)) {
			pr_debug("%s: %s has another build-id: no symbols\n", dso->name, what);
			symsrc__exit(&ss);
			return -EILSEQ;
		}
	}
	err = (ss.has_symtab || ss.has_dynsym) ? dso__load_symsrc(dso, &ss, &ss) : -ENOENT;
	if (err > 0)
		err = 0;
	/* no file holds these bytes: the object keeps them for its code (insn) */
	if (!err) {
		elf_end(ss.elf);
		ss.elf = NULL;
		free(dso->image);
		dso->image = ss.image;
		dso->image_size = size;
		ss.image = NULL;
	}
	symsrc__exit(&ss);
	return err;
}

/*
 * The compat vdso of this kernel, as perf gets it: its perf-read-vdso32
 * (or -vdsox32) helper, a 32-bit program that writes its vdso to stdout.
 */
int dso__load_compat_vdso(struct dso *dso, const char *helper)
{
	static const char *const dirs[] = {"/usr/lib/perf-core", "/usr/libexec/perf-core",
					   "/usr/local/libexec/perf-core"};
	char path[256];
	size_t i, size = 0, alloc = 65536;
	u8 *image = NULL;
	FILE *fp = NULL;
	int err = -ENOENT;

	for (i = 0; i < ARRAY_SIZE(dirs) && !fp; i++) {
		snprintf(path, sizeof(path), "%s/%s", dirs[i], helper);
		if (!access(path, X_OK))
			fp = popen(path, "r");
	}
	if (!fp)
		return -ENOENT;
	image = malloc(alloc);
	while (image && size < alloc) {
		size_t n = fread(image + size, 1, alloc - size, fp);

		if (!n)
			break;
		size += n;
	}
	if (pclose(fp) == 0 && image && size && size < alloc)
		err = dso__load_vdso_image(dso, image, size, path);
	else
		free(image);
	return err;
}

/* this process's vdso, copied out of its mapping */
int dso__load_own_vdso(struct dso *dso)
{
	char line[512];
	u64 start = 0, end = 0;
	void *image;
	FILE *fp;

	fp = fopen("/proc/self/maps", "r");
	if (!fp)
		return -errno;
	while (fgets(line, sizeof(line), fp)) {
		unsigned long long s, e;

		if (strstr(line, "[vdso]") && sscanf(line, "%llx-%llx", &s, &e) == 2) {
			start = s;
			end = e;
			break;
		}
	}
	fclose(fp);
	if (!end || end - start > (16 << 20))
		return -ENOENT;
	image = malloc(end - start);
	if (!image)
		return -ENOMEM;
	memcpy(image, (void *)(uintptr_t)start, end - start);
	return dso__load_vdso_image(dso, image, end - start, "the vdso of this process");
}
