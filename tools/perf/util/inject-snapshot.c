// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf textpoke inject --snapshot: a kcore_dir of the kernel code as it
 * was at one moment, for tools that read one kcore and know nothing of
 * text pokes.
 *
 * Stock perf 6.1 takes a kcore_dir's kcore only when its kallsyms has
 * the kernel MMAP's reference symbol (_text) where that record says
 * (symbol.c: validate_kcore_addresses()) and when every module map the
 * records made is in its modules file at the same start
 * (do_validate_kcore_modules()); then each executable PT_LOAD becomes a
 * map of the kernel (dso__load_kcore(), kcore_mapfn()) and the kallsyms
 * symbols are moved into whichever of those maps holds them
 * (maps__split_kallsyms_for_kcore()).  Every TEXT_POKE is then written
 * over that copy in time order (machine.c: machine__process_text_poke()),
 * so a copy of the code as it was before the first poke makes perf right
 * at every sample.
 *
 * The image knows its bytes; the machine knows what sat where: the
 * kernel and module maps with their symbols, and the KSYMBOL objects (BPF
 * programs, trampolines) alive at each moment.  machine.h has no way to
 * list those, only to look an address up, so the maps are found by
 * looking up the addresses that matter: those with bytes in the snapshot,
 * those of every poke and BPF program, and the modules of the kallsyms
 * the machine read its symbols from.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "debug.h"
#include "dso.h"
#include "elf-image.h"
#include "inject-snapshot.h"
#include "kallsyms.h"
#include "machine.h"
#include "map.h"
#include "symbol.h"
#include "text-image.h"

#define SNAP_PAGE 4096ULL
/* a /proc/modules line is name, size, refcount, users, state, address */
#define SNAP_MODULES_LINE 4096

/* a range of known bytes */
struct snap_range {
	u64 addr;
	size_t len;
	size_t alloc;
	u8 *bytes;
};

/* a symbol for .symtab and kallsyms; @module NULL for the kernel's own */
struct snap_sym {
	u64 addr;
	u64 len;
	/*
	 * the symbol's or the object's own name, which live as long as the
	 * machine, or a cleaned copy (own_name) when it has blanks or is too
	 * long: a kernel's table is 100k names or more, copies of the same
	 */
	const char *name;
	const char *module; /* borrowed from a snap_mod or a constant */
	char type;	    /* kallsyms letter */
	bool own_name;
};

struct snap_mod {
	u64 start;
	u64 len;
	char *name; /* without the brackets */
};

struct snapshot {
	struct text_image *ti;
	struct machine *machine;
	struct thread *kthread;
	const char *dir;
	const char *name; /* what messages call dir */
	u64 time;	  /* the bytes: after every poke with time <= this */
	u64 lookup_time;  /* the KSYMBOL objects: alive at this (0: at the end) */
	bool before_zero; /* and before every TEXT_POKE made at time 0 */

	struct snap_range *ranges;
	size_t nr_ranges, alloc_ranges;
	struct snap_sym *syms;
	size_t nr_syms, alloc_syms;
	struct snap_mod *mods;
	size_t nr_mods, alloc_mods;
	const struct map **seen; /* maps whose symbols were taken */
	size_t nr_seen, alloc_seen;
	const struct map *kernel_map;
	bool err_said; /* the error was explained where it happened */
	size_t nr_bpf_left_out;
};

static int grow(void **arr, size_t nr, size_t *alloc, size_t elem)
{
	size_t n;
	void *p;

	if (nr < *alloc)
		return 0;
	n = *alloc ? 2 * *alloc : 64;
	p = realloc(*arr, n * elem);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*alloc = n;
	return 0;
}

/* ---- the bytes ---- */

static int snap__append(struct snapshot *s, u64 addr, const u8 *bytes, size_t len)
{
	struct snap_range *r = s->nr_ranges ? &s->ranges[s->nr_ranges - 1] : NULL;

	/* the export hands a long run over in pieces: one range, one PT_LOAD */
	if (!r || r->addr + r->len != addr) {
		if (grow((void **)&s->ranges, s->nr_ranges, &s->alloc_ranges, sizeof(*r)))
			return -ENOMEM;
		r = &s->ranges[s->nr_ranges++];
		*r = (struct snap_range){.addr = addr};
	}
	if (r->len + len > r->alloc) {
		size_t alloc = r->alloc ? r->alloc : 4096;
		u8 *p;

		while (alloc < r->len + len)
			alloc *= 2;
		p = realloc(r->bytes, alloc);
		if (!p)
			return -ENOMEM;
		r->bytes = p;
		r->alloc = alloc;
	}
	memcpy(r->bytes + r->len, bytes, len);
	r->len += len;
	return 0;
}

static int snap__export_cb(uint64_t addr, const uint8_t *bytes, size_t len, void *arg)
{
	return snap__append(arg, addr, bytes, len);
}

/* drops [start, end) from every range, splitting the one it falls inside */
static int snap__cut(struct snapshot *s, u64 start, u64 end)
{
	size_t i;

	for (i = 0; i < s->nr_ranges; i++) {
		struct snap_range *r = &s->ranges[i];
		u64 r_end = r->addr + r->len;

		if (r_end <= start || r->addr >= end)
			continue;
		if (r->addr < start && r_end > end) {
			struct snap_range tail = {.addr = end, .len = r_end - end};

			tail.alloc = tail.len;
			tail.bytes = malloc(tail.len);
			if (!tail.bytes ||
			    grow((void **)&s->ranges, s->nr_ranges, &s->alloc_ranges, sizeof(*r))) {
				free(tail.bytes);
				return -ENOMEM;
			}
			r = &s->ranges[i];
			memcpy(tail.bytes, r->bytes + (end - r->addr), tail.len);
			r->len = start - r->addr;
			s->ranges[s->nr_ranges++] = tail;
			continue;
		}
		if (r->addr >= start && r_end <= end) {
			r->len = 0;
			continue;
		}
		if (r->addr < start) {
			r->len = start - r->addr;
			continue;
		}
		memmove(r->bytes, r->bytes + (end - r->addr), r_end - end);
		r->len = r_end - end;
		r->addr = end;
	}
	return 0;
}

static int snap_range__cmp(const void *a, const void *b)
{
	const struct snap_range *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* address order, empty ranges gone, touching ones joined */
static int snap__tidy_ranges(struct snapshot *s)
{
	size_t i, n = 0;

	if (s->nr_ranges)
		qsort(s->ranges, s->nr_ranges, sizeof(*s->ranges), snap_range__cmp);
	for (i = 0; i < s->nr_ranges; i++) {
		struct snap_range *r = &s->ranges[i], *last = n ? &s->ranges[n - 1] : NULL;

		if (!r->len) {
			free(r->bytes);
			continue;
		}
		if (last && last->addr + last->len == r->addr) {
			u8 *p = realloc(last->bytes, last->len + r->len);

			if (!p)
				return -ENOMEM;
			memcpy(p + last->len, r->bytes, r->len);
			last->bytes = p;
			last->len += r->len;
			last->alloc = last->len;
			free(r->bytes);
			continue;
		}
		s->ranges[n++] = *r;
	}
	s->nr_ranges = n;
	return 0;
}

/*
 * A site poked by a TEXT_POKE at time 0 (a recording without times, or
 * records made before the clock was read) holds, at the start, what it
 * held before that poke: the export at time 0 has it applied already.
 */
static int snap__site_before_zero(struct textpoke_site *site, void *arg)
{
	struct snapshot *s = arg;
	size_t i, len = textpoke_site__len(site), nr = textpoke_site__nr_pokes(site);
	u64 addr = textpoke_site__addr(site), t;
	u8 *buf = NULL, *known = NULL;
	struct textpoke_poke p;
	int err = 0;

	for (i = 0; i < nr; i++) {
		if (textpoke_site__poke(site, i, &p) || p.time)
			return 0;
		if (!text_image__is_model_poke(s->ti, p.addr, p.time))
			break;
	}
	if (i == nr)
		return 0;
	buf = malloc(len);
	known = malloc(len);
	if (!buf || !known) {
		err = -ENOMEM;
		goto out;
	}
	/* version i: after the i pokes (BPF images) before the first record */
	err = textpoke_site__version(site, i, &t, buf, known);
	if (err < 0)
		goto out;
	err = snap__cut(s, addr, addr + len);
	for (i = 0; !err && i < len; i++) {
		size_t j = i;

		if (!known[i])
			continue;
		while (j < len && known[j])
			j++;
		err = snap__append(s, addr + i, buf + i, j - i);
		i = j;
	}
out:
	free(buf);
	free(known);
	return err;
}

static int snap__collect_bytes(struct snapshot *s)
{
	struct textpoke_image *img = text_image__image(s->ti);
	int err;

	err = textpoke_image__export(img, s->time, snap__export_cb, s);
	if (!err && s->before_zero)
		err = textpoke_image__for_each_site(img, snap__site_before_zero, s);
	return err ?: snap__tidy_ranges(s);
}

/* ---- what sat where ---- */

static bool snap__name_char_ok(char c)
{
	return (unsigned char)c > ' ' && c != 0x7f;
}

/*
 * Names from records go into line formats: no blanks, no control
 * characters, at most ELF_IMAGE_MAX_NAME bytes.  A name that is all that
 * already is used as it is (*@own false), else a cleaned copy.
 */
static const char *snap__name(const char *name, bool *own)
{
	size_t len = strnlen(name, ELF_IMAGE_MAX_NAME + 1), i;
	char *copy;

	for (i = 0; i < len && snap__name_char_ok(name[i]); i++)
		;
	*own = i < len || len > ELF_IMAGE_MAX_NAME;
	if (!*own)
		return name;
	copy = strndup(name, ELF_IMAGE_MAX_NAME);
	if (!copy)
		return NULL;
	for (i = 0; copy[i]; i++) {
		if (!snap__name_char_ok(copy[i]))
			copy[i] = '_';
	}
	return copy;
}

static int snap__add_sym(struct snapshot *s, const char *name, u64 addr, u64 len, char type,
			 const char *module)
{
	struct snap_sym *sym;

	if (!*name)
		return 0;
	if (grow((void **)&s->syms, s->nr_syms, &s->alloc_syms, sizeof(*sym)))
		return -ENOMEM;
	sym = &s->syms[s->nr_syms];
	*sym = (struct snap_sym){.addr = addr, .len = len, .type = type, .module = module};
	sym->name = snap__name(name, &sym->own_name);
	if (!sym->name)
		return -ENOMEM;
	s->nr_syms++;
	return 0;
}

/* the letter /proc/kallsyms gives a symbol of this binding and type */
static char snap__kallsyms_type(const struct symbol *sym)
{
	char c = sym->type == STT_OBJECT ? 'd' : 't';

	if (sym->binding == STB_WEAK)
		return c == 't' ? 'W' : 'D';
	return sym->binding == STB_LOCAL ? c : c - 'a' + 'A';
}

static bool snap__seen(struct snapshot *s, const struct map *map)
{
	size_t i;

	for (i = 0; i < s->nr_seen; i++) {
		if (s->seen[i] == map)
			return true;
	}
	return false;
}

static int snap__dso_syms(struct snapshot *s, const struct map *map, const char *module)
{
	const struct symbols *syms = &map->dso->symbols;
	u64 base = map->identity ? 0 : map->start - map->pgoff;
	size_t i;
	int err;

	for (i = 0; i < syms->nr; i++) {
		const struct symbol *sym = syms->entries[i];

		err = snap__add_sym(s, sym->name, sym->start + base, sym->end - sym->start,
				    snap__kallsyms_type(sym), module);
		if (err)
			return err;
	}
	return 0;
}

static int snap__add_module(struct snapshot *s, const struct map *map)
{
	const char *name = map->dso->name;
	size_t n = strlen(name);
	struct snap_mod *mod;

	if (grow((void **)&s->mods, s->nr_mods, &s->alloc_mods, sizeof(*mod)))
		return -ENOMEM;
	mod = &s->mods[s->nr_mods];
	/* the machine names modules "[name]", as perf does */
	if (n >= 2 && name[0] == '[' && name[n - 1] == ']')
		mod->name = strndup(name + 1, n - 2);
	else
		mod->name = strdup(name);
	if (!mod->name)
		return -ENOMEM;
	for (n = 0; mod->name[n]; n++) {
		if ((unsigned char)mod->name[n] <= ' ' || mod->name[n] == 0x7f)
			mod->name[n] = '_';
	}
	mod->start = map->start;
	mod->len = map->end - map->start;
	s->nr_mods++;
	return snap__dso_syms(s, map, mod->name);
}

/* a KSYMBOL object: a BPF program or a trampoline, named as /proc/kallsyms does */
static int snap__add_ksymbol(struct snapshot *s, const struct map *map)
{
	const char *name = map->dso->name, *module = "__builtin__ftrace";

	if (!strncmp(name, "bpf_", 4))
		module = "bpf";
	else if (!strncmp(name, "kprobe", 6))
		module = "__builtin__kprobes";
	return snap__add_sym(s, name, map->start, map->end - map->start, 't', module);
}

/* the maps at @addr: the first look at each adds what it holds */
static int snap__probe(struct snapshot *s, u64 addr, u64 *end)
{
	struct addr_location al;
	const struct map *map;
	int err = 0;

	addr_location__init(&al);
	thread__find_symbol(s->kthread, PERF_RECORD_MISC_KERNEL, addr, s->lookup_time, &al);
	map = al.map;
	if (end)
		*end = map ? map->end : 0;
	if (!map || snap__seen(s, map))
		goto out;
	err = grow((void **)&s->seen, s->nr_seen, &s->alloc_seen, sizeof(*s->seen));
	if (err)
		goto out;
	s->seen[s->nr_seen++] = map;
	switch (map->dso->kind) {
	case DSO_KIND__KERNEL:
		s->kernel_map = map;
		err = snap__dso_syms(s, map, NULL);
		break;
	case DSO_KIND__MODULE:
		err = snap__add_module(s, map);
		break;
	case DSO_KIND__KSYMBOL:
		err = snap__add_ksymbol(s, map);
		break;
	default:
		break;
	}
out:
	addr_location__exit(&al);
	return err;
}

/* every map over a range of bytes: the module area of a kcore holds many */
static int snap__probe_range(struct snapshot *s, u64 addr, u64 len)
{
	u64 a = addr, end = addr + len, map_end;
	int err;

	while (a < end) {
		err = snap__probe(s, a, &map_end);
		if (err)
			return err;
		if (map_end > a)
			a = map_end;
		else
			a = (a + SNAP_PAGE) & ~(SNAP_PAGE - 1);
	}
	return 0;
}

/*
 * The modules of the kallsyms the kernel symbols came from: stock perf
 * refuses a kcore_dir whose modules file lacks one the records mapped,
 * even one with no known bytes.
 */
static int snap__probe_modules_file(struct snapshot *s)
{
	const char *src = s->kernel_map ? s->kernel_map->dso->symsrc : NULL;
	char line[SNAP_MODULES_LINE], *path, *slash;
	unsigned long long addr;
	int err = 0;
	FILE *f;

	if (!src || !(slash = strrchr(src, '/')) || strcmp(slash, "/kallsyms"))
		return 0;
	if (asprintf(&path, "%.*s/modules", (int)(slash - src), src) < 0)
		return -ENOMEM;
	f = fopen(path, "r");
	free(path);
	if (!f)
		return 0;
	while (!err && fgets(line, sizeof(line), f)) {
		char *x = strstr(line, " 0x");

		if (x && sscanf(x + 1, "%llx", &addr) == 1 && addr)
			err = snap__probe(s, addr, NULL);
	}
	fclose(f);
	return err;
}

struct snap_kallsyms_walk {
	struct snapshot *s;
	char module[256];
};

static int snap__kallsyms_module(void *arg, const char *name, char type, u64 start,
				 const char *module)
{
	struct snap_kallsyms_walk *w = arg;

	(void)name;
	(void)type;
	/* a module's symbols come together: its first one finds its map */
	if (!module || !start || !strncmp(w->module, module, sizeof(w->module) - 1))
		return 0;
	snprintf(w->module, sizeof(w->module), "%s", module);
	return snap__probe(w->s, start, NULL);
}

/*
 * And the modules named in the kallsyms itself, for one given with
 * --kallsyms that has no modules file beside it.
 */
static int snap__probe_kallsyms_modules(struct snapshot *s)
{
	struct snap_kallsyms_walk w = {.s = s};
	const char *src = s->kernel_map ? s->kernel_map->dso->symsrc : NULL;
	int err;

	if (!src)
		return 0;
	err = kallsyms__parse(src, &w, snap__kallsyms_module);
	/* a vmlinux, or a file gone since: its modules are found no other way */
	return err == -ENOMEM ? err : 0;
}

static int u64__cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* each poked address once: a recording may hold a million pokes of a few thousand sites */
static int snap__probe_pokes(struct snapshot *s)
{
	size_t i, n = machine__nr_text_pokes(s->machine);
	u64 *addrs = malloc((n ?: 1) * sizeof(*addrs));
	int err = 0;

	if (!addrs)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		addrs[i] = machine__text_poke(s->machine, i)->addr;
	qsort(addrs, n, sizeof(*addrs), u64__cmp);
	for (i = 0; !err && i < n; i++) {
		if (!i || addrs[i] != addrs[i - 1])
			err = snap__probe(s, addrs[i], NULL);
	}
	free(addrs);
	return err;
}

/*
 * A recording without a kcore, pokes or BPF programs gives no address to
 * look up: then the kernel's map is looked for where x86_64 puts kernel
 * text (Documentation/arch/x86/x86_64/mm.rst: 512 MB from
 * 0xffffffff80000000, up to 1 GB with KASLR), in steps of the 2 MB its
 * image is aligned to.
 */
#define SNAP_KTEXT_START 0xffffffff80000000ULL
#define SNAP_KTEXT_END 0xffffffffc0000000ULL
#define SNAP_KTEXT_ALIGN (2ULL << 20)

static int snap__collect_maps(struct snapshot *s)
{
	size_t i, nr;
	const struct text_image_bpf_load *loads = text_image__bpf_loads(s->ti, &nr);
	int err = 0;
	u64 a;

	for (i = 0; !err && i < s->nr_ranges; i++)
		err = snap__probe_range(s, s->ranges[i].addr, s->ranges[i].len);
	err = err ?: snap__probe_pokes(s);
	for (i = 0; !err && i < nr; i++) {
		if (loads[i].addr)
			err = snap__probe(s, loads[i].addr, NULL);
	}
	for (a = SNAP_KTEXT_START; !err && !s->kernel_map && a < SNAP_KTEXT_END;
	     a += SNAP_KTEXT_ALIGN)
		err = snap__probe(s, a, NULL);
	err = err ?: snap__probe_modules_file(s);
	return err ?: snap__probe_kallsyms_modules(s);
}

/*
 * The machine keeps one of the names sharing an address, as perf does,
 * and may drop _text for _stext: perf looks the kernel MMAP's reference
 * symbol up by name.
 */
static int snap__add_ref_symbol(struct snapshot *s)
{
	u64 ref = s->kernel_map ? s->kernel_map->pgoff : 0;
	size_t i;

	if (!ref)
		return 0;
	for (i = 0; i < s->nr_syms; i++) {
		if (!s->syms[i].module && s->syms[i].addr == ref &&
		    !strcmp(s->syms[i].name, "_text"))
			return 0;
	}
	return snap__add_sym(s, "_text", ref, 0, 'T', NULL);
}

static bool snap__alive(const struct snapshot *s, const struct text_image_bpf_load *l)
{
	return l->len && l->load_time <= s->time &&
	       (l->unload_time == UINT64_MAX || l->unload_time > s->time);
}

static bool snap__holds(const struct snapshot *s, u64 addr)
{
	size_t i;

	for (i = 0; i < s->nr_ranges; i++) {
		if (addr >= s->ranges[i].addr && addr - s->ranges[i].addr < s->ranges[i].len)
			return true;
	}
	return false;
}

/*
 * Without the kernel's text (no kcore when recording: only poked sites
 * are known), perf makes its kernel map of whichever segment comes first
 * (dso__load_kcore(): none holds _stext) and drops every kallsyms symbol
 * outside the segments (maps__split_kallsyms_for_kcore()).  A poked site
 * is worth that: its bytes exist nowhere else.  A BPF program's are in
 * HEADER_BPF_PROG_INFO, where perf takes them from anyway: a recording
 * whose only known code is BPF programs loaded before it would lose all
 * its kernel symbols for nothing.  Their symbols stay.
 */
static int snap__without_kernel_text(struct snapshot *s)
{
	size_t i, nr;
	const struct text_image_bpf_load *l = text_image__bpf_loads(s->ti, &nr);
	u64 ref = s->kernel_map ? s->kernel_map->pgoff : 0;
	int err = 0;

	if (ref && snap__holds(s, ref))
		return 0;
	for (i = 0; !err && i < nr; i++) {
		if (!snap__alive(s, &l[i]) || !snap__holds(s, l[i].addr))
			continue;
		err = snap__cut(s, l[i].addr, l[i].addr + l[i].len);
		s->nr_bpf_left_out++;
	}
	return err ?: snap__tidy_ranges(s);
}

/*
 * perf reads a kcore at the first sample or poke, after the records of
 * time 0.  A program loaded later whose code is in a kcore segment finds
 * that segment's map (machine.c: machine__process_ksymbol_register() adds
 * no map where one is), and its BPF_EVENT marks the map's dso, the
 * kernel's, as that program's (bpf-event.c:
 * machine__process_bpf_event_load()): the sample shows no bytes, or
 * another program's name.  The start has only programs loaded at time 0.
 */
static void snap__warn_bpf(const struct snapshot *s)
{
	size_t i, nr, n = 0;
	const struct text_image_bpf_load *l = text_image__bpf_loads(s->ti, &nr);

	for (i = 0; i < nr; i++) {
		if (l[i].load_time && snap__alive(s, &l[i]) && snap__holds(s, l[i].addr))
			n++;
	}
	if (n)
		pr_warning("%s/kcore: holds the code of %zu BPF program%s loaded during "
			   "the recording: stock perf gives the programs loaded there no bytes "
			   "of their own (--snapshot=start is the one for stock perf)\n",
			   s->name, n, n == 1 ? "" : "s");
}

/* ---- the files ---- */

/* a section per range, named for what is there (readelf -S; objdump names a core's by segment) */
static const char *snap__section(struct snapshot *s, u64 addr, char *buf, size_t size)
{
	struct addr_location al;
	const char *name = "", *kind = "unmapped";
	size_t n;
	char *p;

	addr_location__init(&al);
	thread__find_symbol(s->kthread, PERF_RECORD_MISC_KERNEL, addr, s->lookup_time, &al);
	if (al.map) {
		name = al.map->dso->name;
		kind = al.map->dso->kind == DSO_KIND__KERNEL ? "kernel" :
		       al.map->dso->kind == DSO_KIND__MODULE ? "module." :
							       "ksym.";
	}
	if (al.map && al.map->dso->kind == DSO_KIND__KERNEL)
		name = "";
	/* modules are "[name]" */
	n = strlen(name);
	if (n >= 2 && name[0] == '[' && name[n - 1] == ']')
		snprintf(buf, size, ".%s%.*s", kind, (int)(n - 2), name + 1);
	else
		snprintf(buf, size, ".%s%s", kind, name);
	addr_location__exit(&al);
	for (p = buf; *p; p++) {
		if ((unsigned char)*p <= ' ' || *p == 0x7f)
			*p = '_';
	}
	return buf;
}

static int snap__write_kcore(struct snapshot *s, const char *path)
{
	struct elf_image *ei = elf_image__new(ELF_IMAGE_CORE);
	char section[256];
	size_t i;
	int err = 0;

	if (!ei)
		return -ENOMEM;
	for (i = 0; !err && i < s->nr_ranges; i++) {
		const struct snap_range *r = &s->ranges[i];

		err = elf_image__add_code(ei, snap__section(s, r->addr, section, sizeof(section)),
					  r->addr, r->bytes, r->len);
	}
	/* a recording with pokes everywhere and no kcore: each site is a range */
	if (err == -E2BIG || err == -EFBIG) {
		pr_err(
		    "%s/kcore: %zu ranges of known code, more than an ELF image holds (%d ranges, "
		    "%llu bytes)\n",
		    s->name, s->nr_ranges, ELF_IMAGE_MAX_RANGES,
		    (unsigned long long)ELF_IMAGE_MAX_CODE);
		s->err_said = true;
	}
	if (!err) {
		size_t names = 0;

		for (i = 0; i < s->nr_syms; i++)
			names += strlen(s->syms[i].name) + 1;
		err = elf_image__reserve_symbols(ei, s->nr_syms, names);
	}
	for (i = 0; !err && i < s->nr_syms; i++) {
		const struct snap_sym *sym = &s->syms[i];
		bool func = sym->type == 't' || sym->type == 'T' || sym->type == 'W';
		bool local = sym->type == 't' || sym->type == 'd';

		err =
		    elf_image__add_symbol(ei, sym->name, sym->addr, sym->len,
					  func ? ELF_IMAGE_SYM_FUNC : ELF_IMAGE_SYM_OBJECT, !local);
	}
	if (!err)
		err = elf_image__write(ei, path, NULL);
	elf_image__delete(ei);
	return err;
}

static int snap_sym__cmp(const void *a, const void *b)
{
	const struct snap_sym *x = a, *y = b;

	/* /proc/kallsyms: the kernel first, then the modules, each by address */
	if (!x->module != !y->module)
		return x->module ? 1 : -1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/*
 * A text file of the snapshot, written as it is made rather than built in
 * memory first (kallsyms is megabytes: its text, and its buffer's growth,
 * were most of the snapshot's memory).  NULL with errno set.
 */
static FILE *snap__text_open(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	FILE *f;

	if (fd < 0)
		return NULL;
	f = fdopen(fd, "w");
	if (!f) {
		int err = errno;

		close(fd);
		unlink(path);
		errno = err;
	}
	return f;
}

/* 0, or -errno of the first write that failed, the file then removed */
static int snap__text_close(FILE *f, const char *path)
{
	int err = 0;

	if (fflush(f) || ferror(f))
		err = errno ? -errno : -EIO;
	if (fclose(f) && !err)
		err = errno ? -errno : -EIO;
	if (err)
		unlink(path);
	return err;
}

static int snap__write_kallsyms(struct snapshot *s, const char *path)
{
	FILE *f = snap__text_open(path);
	size_t i;

	if (!f)
		return -errno;
	if (s->nr_syms)
		qsort(s->syms, s->nr_syms, sizeof(*s->syms), snap_sym__cmp);
	errno = 0;
	for (i = 0; i < s->nr_syms; i++) {
		const struct snap_sym *sym = &s->syms[i];

		fprintf(f, "%016" PRIx64 " %c %s", sym->addr, sym->type, sym->name);
		if (sym->module)
			fprintf(f, "\t[%s]", sym->module);
		if (fputc('\n', f) == EOF)
			break;
	}
	return snap__text_close(f, path);
}

static int snap__write_modules(struct snapshot *s, const char *path)
{
	FILE *f = snap__text_open(path);
	size_t i;

	if (!f)
		return -errno;
	errno = 0;
	for (i = 0; i < s->nr_mods; i++) {
		if (fprintf(f, "%s %" PRIu64 " 0 - Live 0x%016" PRIx64 "\n", s->mods[i].name,
			    s->mods[i].len, s->mods[i].start) < 0)
			break;
	}
	return snap__text_close(f, path);
}

static void snapshot__exit(struct snapshot *s)
{
	size_t i;

	for (i = 0; i < s->nr_ranges; i++)
		free(s->ranges[i].bytes);
	for (i = 0; i < s->nr_syms; i++) {
		if (s->syms[i].own_name)
			free((char *)s->syms[i].name);
	}
	for (i = 0; i < s->nr_mods; i++)
		free(s->mods[i].name);
	free(s->ranges);
	free(s->syms);
	free(s->mods);
	free(s->seen);
	thread__put(s->kthread);
}

static int snap__write_files(struct snapshot *s)
{
	/* kallsyms last: perf uses kcore_dir/ when kallsyms is there (perf_data__kallsyms_name()) */
	static const struct {
		const char *name;
		int (*write)(struct snapshot *s, const char *path);
	} files[] = {
	    {"kcore", snap__write_kcore},
	    {"modules", snap__write_modules},
	    {"kallsyms", snap__write_kallsyms},
	};
	char path[ARRAY_SIZE(files)][4096];
	size_t i, done;
	int err = 0;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		if (snprintf(path[i], sizeof(path[i]), "%s/%s", s->dir, files[i].name) >=
		    (int)sizeof(path[i])) {
			pr_err("%s: path too long\n", s->name);
			return -ENAMETOOLONG;
		}
	}
	for (done = 0; done < ARRAY_SIZE(files); done++) {
		err = files[done].write(s, path[done]);
		if (err) {
			if (!s->err_said)
				pr_err("%s/%s: %s\n", s->name, files[done].name, strerror(-err));
			break;
		}
	}
	/* nothing half written is left behind: each writer removes its own file */
	for (i = 0; err && i < done; i++)
		unlink(path[i]);
	return err;
}

int inject_snapshot__write(struct text_image *ti, struct machine *machine,
			   enum inject_snapshot_at at, u64 time, const char *dir, const char *name)
{
	struct snapshot s = {.ti = ti, .machine = machine, .dir = dir, .name = name ?: dir};
	int err;

	if (!ti || !machine || !dir || !text_image__finished(ti)) {
		pr_err("%s: no finished text image to take a snapshot of\n", s.name ?: "kcore_dir");
		return -EINVAL;
	}
	switch (at) {
	case INJECT_SNAPSHOT_START:
		s.before_zero = true;
		/* KSYMBOLs perf record synthesizes for what was loaded before have time 0 */
		s.lookup_time = 1;
		break;
	case INJECT_SNAPSHOT_END:
		s.time = UINT64_MAX;
		s.lookup_time = 0; /* the machine's "now": what is still registered */
		break;
	case INJECT_SNAPSHOT_TIME:
		s.time = time;
		s.lookup_time = time ?: 1;
		break;
	default:
		pr_err("%s: unknown snapshot time\n", s.name);
		return -EINVAL;
	}
	/* the idle task: kernel lookups need a thread, any thread */
	s.kthread = machine__findnew_thread(machine, 0, 0);
	if (!s.kthread) {
		err = -ENOMEM;
		goto out;
	}
	err = snap__collect_bytes(&s);
	if (err) {
		pr_err("%s: the code at the snapshot's time: %s\n", s.name, strerror(-err));
		goto out;
	}
	err = snap__collect_maps(&s);
	err = err ?: snap__add_ref_symbol(&s);
	if (err) {
		pr_err("%s: the symbols at the snapshot's time: %s\n", s.name, strerror(-err));
		goto out;
	}
	err = snap__without_kernel_text(&s);
	if (err) {
		pr_err("%s: %s\n", s.name, strerror(-err));
		goto out;
	}
	snap__warn_bpf(&s);
	if (!s.nr_ranges && s.nr_bpf_left_out)
		pr_warning("%s: its kcore is empty: no kernel text is known (the recording has "
			   "no kcore), and the code of %zu BPF programs is left out: perf has it "
			   "from HEADER_BPF_PROG_INFO, and a kcore without the kernel text costs "
			   "perf its kernel symbols\n",
			   s.name, s.nr_bpf_left_out);
	else if (!s.nr_ranges)
		pr_warning("%s: no kernel code is known at the snapshot's time: its kcore is "
			   "empty\n",
			   s.name);
	err = snap__write_files(&s);
out:
	snapshot__exit(&s);
	return err;
}
