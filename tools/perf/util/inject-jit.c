// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf textpoke inject --jit: code that exists only at run time becomes
 * ELF objects, mapped by ordinary kernel MMAP2 records, so that tools
 * which know nothing of BPF JIT images or text pokes (stock perf 6.1)
 * resolve, annotate and read bytes through their plain ELF path.
 *
 * What stock perf 6.1 needs from such an object, and why the records are
 * shaped as they are (tools/perf/util/ at 6.1, each checked by breaking it):
 *
 *  - machine.c:machine__process_kernel_mmap_event(): a kernel MMAP2 whose
 *    name starts with '/' becomes a module map of a dso found by its short
 *    name (machine__addnew_module_map(), machine__findnew_module_dso(),
 *    dso.c:__kmod_path__parse(): the basename, '-' made '_'), so each
 *    object has a basename of its own: two loads under one name share a
 *    dso and the second one's samples go [unknown].  map.c:map__new2()
 *    gives the map pgoff 0 whatever the record says; symbol-elf.c:
 *    dso__process_kernel_symbol() then sets it to the file offset of the
 *    section named ".text", once per dso: an object holds one contiguous
 *    range and is mapped exactly over it.  A plain MMAP (pid -1, misc
 *    KERNEL) works as well; the MMAP2 also carries the build-id, which
 *    perf sets on the dso.
 *  - The name is copied into KMAP_NAME_LEN (256, maps.h) bytes: longer
 *    paths would be cut, so they are refused.
 *  - bpf-event.c:machine__process_bpf_event_load() marks whatever map covers
 *    a PROG_LOAD's jited_ksyms as DSO_BINARY_TYPE__BPF_PROG_INFO, after
 *    which annotate.c:symbol__disassemble() refuses ("Please link with
 *    binutils's libopcode to enable BPF annotation") and dso.c:bpf_read()
 *    reads the JIT image at the map's offsets, which now include .text's
 *    place in the file: wrong bytes.  So the PROG_LOAD of a program whose
 *    objects are mapped is dropped, with the KSYMBOL register it replaces.
 *    Unregisters stay: machine.c:machine__process_ksymbol_unregister()
 *    removes the map at the address, without which a program loaded later
 *    at a reused address is reported under the old one's name.
 *  - No BUILD_ID feature entries: header.c:__event_process_build_id()
 *    makes a kernel-cpumode entry's dso the kernel unless its name ends in
 *    .ko, and dso__load() then looks for kallsyms, finds no symbols.
 *  - A kcore: see inject_jit__set_out_kcore().
 *
 * BPF: one object per sub-program load (its KSYMBOL), bytes from
 * HEADER_BPF_PROG_INFO, lifetime from text_image__bpf_loads().  OOL
 * regions (ftrace trampolines, kprobe slot pages): while a KSYMBOL OOL is
 * registered, each change of its known bytes (a TEXT_POKE) maps the new
 * version, one object per contiguous run of known bytes; where none are
 * known the KSYMBOL itself holds the address, as in the input.  Stock
 * perf already prints an OOL region's bytes from the TEXT_POKEs
 * (machine.c:machine__process_text_poke() into the dso's cache); what the
 * objects add is a file for objdump, so that annotate works.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "build-id.h"
#include "array-grow.h"
#include "debug.h"
#include "elf-image.h"
#include "header.h"
#include "inject-jit.h"
#include "machine.h"
#include "symbol.h"
#include "text-image.h"
#include "writer.h"

#ifndef PERF_RECORD_MISC_MMAP_BUILD_ID
#define PERF_RECORD_MISC_MMAP_BUILD_ID PERF_RECORD_MISC_MMAP_BUILD_ID_BIT
#endif

/* perf 6.1 copies a kernel map's name into KMAP_NAME_LEN (maps.h) bytes */
#define JIT_KMAP_NAME_LEN 256
/* the part of an object's basename taken from a symbol name */
#define JIT_NAME_MAX 64
/* an OOL region larger than this is left as the input has it */
#define JIT_OOL_MAX (1U << 20)

#define JIT_ALIGN8(x) (((x) + 7) & ~(size_t)7)

struct jit_obj {
	char *path; /* as the records name it: final_dir/basename */
	u64 addr;
	u32 len;
	struct build_id bid;
};

/* one object mapped inside an OOL region */
struct jit_run {
	u64 addr;
	u32 len;
	size_t obj;
};

/* a registered OOL region and the version of it that is mapped */
struct jit_ool {
	u64 addr;
	u32 len;
	u16 ksym_type;
	char *name;
	u8 *bytes, *known; /* the mapped version: len bytes each */
	bool ksym_mapped;  /* no known bytes: the input's KSYMBOL holds it */
	struct jit_run *runs;
	size_t nr_runs;
	union perf_event *reg; /* the register record, for mapping it again */
	size_t reg_body;       /* its size without the id trailer */
};

/* a BPF program load whose KSYMBOLs were replaced: its PROG_LOAD goes too */
struct jit_prog {
	u32 id;
	u64 load_time;
};

struct inject_jit {
	struct text_image *ti;
	struct thread *kthread; /* for the machine's KSYMBOL objects over time */
	/*
	 * OUT carries a kcore, so stock perf ignores the MMAP2s: the objects
	 * are written, the records stay as they were
	 */
	bool out_kcore;
	const struct perf_env *env;
	char *write_dir, *final_dir;
	const struct text_image_bpf_load *loads;
	size_t nr_loads;
	const struct bpf_prog_info_entry **by_id; /* the env's programs by id */
	size_t nr_by_id;
	bool *load_used;
	struct jit_obj *objs;
	size_t nr_objs, alloc_objs;
	struct jit_prog *progs;
	size_t nr_progs, alloc_progs;
	struct jit_ool *ools;
	size_t nr_ools, alloc_ools;
};

/*
 * An object's basename: the symbol's name with everything but [A-Za-z0-9_]
 * made '_' (so no '/', no "..", nothing perf rewrites), bounded; with
 * @seq (the object's number) after a '.' when that name is taken, which
 * keeps it unique among the objects of one output.  The plain name is
 * what perf 6.1 then calls the dso (the basename), as it calls IN's
 * KSYMBOL object, so that --sort dso agrees too.
 */
static void jit__basename(char *buf, size_t size, const char *name, ssize_t seq)
{
	char clean[JIT_NAME_MAX + 1];
	size_t i;

	for (i = 0; name[i] && i < JIT_NAME_MAX; i++) {
		char c = name[i];

		clean[i] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
				   (c >= '0' && c <= '9') || c == '_' ?
			       c :
			       '_';
	}
	clean[i] = '\0';
	if (seq < 0)
		snprintf(buf, size, "%s", i ? clean : "jit");
	else
		snprintf(buf, size, "%s.%zd", i ? clean : "jit", seq);
}

/* writes an object of @len bytes at @addr holding symbol @name; its index */
static int jit__write_object(struct inject_jit *jit, const char *name, u64 addr, const u8 *bytes,
			     u32 len, size_t *idx)
{
	char base[JIT_NAME_MAX + 32], *wpath = NULL;
	struct jit_obj *obj;
	struct elf_image *ei;
	int err = 0, try;

	if (array__grow((void **)&jit->objs, jit->nr_objs, &jit->alloc_objs, sizeof(*jit->objs)))
		return -ENOMEM;
	obj = &jit->objs[jit->nr_objs];
	memset(obj, 0, sizeof(*obj));
	ei = elf_image__new(ELF_IMAGE_EXEC);
	if (!ei)
		return -errno;
	err = elf_image__add_code(ei, ".text", addr, bytes, len);
	if (!err)
		err = elf_image__add_symbol(ei, name, addr, len, ELF_IMAGE_SYM_FUNC, true);
	/* the name alone while it is free (O_EXCL says), then with the number */
	for (try = 0; !err && try < 2; try++) {
		jit__basename(base, sizeof(base), name, try ? (ssize_t)jit->nr_objs : -1);
		if (asprintf(&wpath, "%s/%s", jit->write_dir, base) < 0) {
			wpath = NULL;
			err = -ENOMEM;
			break;
		}
		err = elf_image__write(ei, wpath, &obj->bid);
		if (err != -EEXIST || try)
			break;
		zfree(&wpath);
		err = 0;
	}
	elf_image__delete(ei);
	if (!err && asprintf(&obj->path, "%s/%s", jit->final_dir, base) < 0) {
		obj->path = NULL;
		unlink(wpath);
		err = -ENOMEM;
	}
	if (err) {
		pr_err("%s: cannot write the object of %s at %#" PRIx64 ": %s\n",
		       wpath ? wpath : jit->write_dir, name, addr, strerror(-err));
		goto out_free;
	}
	free(wpath);
	obj->addr = addr;
	obj->len = len;
	*idx = jit->nr_objs++;
	return 0;

out_free:
	free(wpath);
	zfree(&obj->path);
	return err;
}

/*
 * A kernel MMAP2 of object @idx carrying @trailer, the id trailer of the
 * record it stands for: same time, same sample id, so that it sorts where
 * that record did.
 */
static int jit__write_mmap2(struct perf_writer *w, const struct jit_obj *obj, const u8 *trailer,
			    size_t trailer_len)
{
	size_t name_len = JIT_ALIGN8(strlen(obj->path) + 1);
	size_t size = sizeof(struct perf_record_mmap2) + name_len + trailer_len;
	struct perf_record_mmap2 *m;
	int err;

	if (!w)
		return 0;
	if (size > UINT16_MAX)
		return -E2BIG;
	m = calloc(1, size);
	if (!m)
		return -ENOMEM;
	m->header.type = PERF_RECORD_MMAP2;
	m->header.misc = PERF_RECORD_MISC_KERNEL | PERF_RECORD_MISC_MMAP_BUILD_ID;
	m->header.size = size;
	m->pid = -1; /* perf's kernel maps belong to pid -1 (HOST_KERNEL_ID) */
	m->tid = 0;
	m->start = obj->addr;
	m->len = obj->len;
	m->pgoff = 0; /* perf 6.1 takes it from the object's .text */
	m->build_id_size = obj->bid.size;
	memcpy(m->build_id, obj->bid.data, obj->bid.size);
	m->prot = PROT_READ | PROT_EXEC;
	m->flags = MAP_PRIVATE;
	strcpy(m->filename, obj->path);
	memcpy((u8 *)m + sizeof(*m) + name_len, trailer, trailer_len);
	err = perf_writer__write_event(w, (union perf_event *)m);
	free(m);
	return err;
}

/* a KSYMBOL record of @name with @trailer */
static int jit__write_ksymbol(struct perf_writer *w, u16 misc, u64 addr, u32 len, u16 type,
			      u16 flags, const char *name, const u8 *trailer, size_t trailer_len)
{
	size_t name_len = JIT_ALIGN8(strlen(name) + 1);
	size_t size = sizeof(struct perf_record_ksymbol) + name_len + trailer_len;
	struct perf_record_ksymbol *k;
	int err;

	if (!w)
		return 0;
	if (size > UINT16_MAX)
		return -E2BIG;
	k = calloc(1, size);
	if (!k)
		return -ENOMEM;
	k->header.type = PERF_RECORD_KSYMBOL;
	k->header.misc = misc;
	k->header.size = size;
	k->addr = addr;
	k->len = len;
	k->ksym_type = type;
	k->flags = flags;
	strcpy(k->name, name);
	memcpy((u8 *)k + sizeof(*k) + name_len, trailer, trailer_len);
	err = perf_writer__write_event(w, (union perf_event *)k);
	free(k);
	return err;
}

/* the size of @event without its id trailer; 0 when the record is malformed */
static size_t jit__body_size(const union perf_event *event)
{
	size_t size = event->header.size, body, n;

	switch (event->header.type) {
	case PERF_RECORD_KSYMBOL:
		if (size < sizeof(event->ksymbol))
			return 0;
		n = strnlen(event->ksymbol.name, size - sizeof(event->ksymbol));
		if (n == size - sizeof(event->ksymbol))
			return 0; /* no NUL within the record */
		body = sizeof(event->ksymbol) + JIT_ALIGN8(n + 1);
		break;
	case PERF_RECORD_TEXT_POKE:
		/* header, addr, then old_len, new_len and the bytes padded to 8 */
		if (size < 24)
			return 0;
		body = 16 +
		       JIT_ALIGN8(4 + (size_t)event->text_poke.old_len + event->text_poke.new_len);
		break;
	default:
		return 0;
	}
	return body <= size ? body : 0;
}

static int jit__malformed(const union perf_event *event, const struct perf_sample *sample)
{
	pr_err("%s record at time %" PRIu64 ": %u bytes do not hold its fields\n",
	       perf_event__name(event->header.type), sample ? sample->time : 0, event->header.size);
	return -EINVAL;
}

static int jit__cmp_prog(const void *a, const void *b)
{
	const struct bpf_prog_info_entry *x = *(const struct bpf_prog_info_entry *const *)a;
	const struct bpf_prog_info_entry *y = *(const struct bpf_prog_info_entry *const *)b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	/* equal ids in the file's order, so that the last one is found, as perf keeps it */
	return x < y ? -1 : x > y;
}

/* HEADER_BPF_PROG_INFO's entry of program @id (the last of that id, as the text image takes) */
static const struct bpf_prog_info_entry *jit__prog_info(struct inject_jit *jit, u32 id)
{
	size_t lo = 0, hi = jit->nr_by_id;
	const struct bpf_prog_info_entry *e = NULL;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (jit->by_id[mid]->id <= id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo > 0 && jit->by_id[lo - 1]->id == id)
		e = jit->by_id[lo - 1];
	return e;
}

/*
 * The load of the sub-program a KSYMBOL register at @addr at @time
 * announces: the earliest unused one at that address loaded at or after
 * it (the kernel emits the KSYMBOLs of a program, then its PROG_LOAD).
 */
static ssize_t jit__find_load(struct inject_jit *jit, u64 addr, u64 time)
{
	size_t lo = 0, hi = jit->nr_loads, i;

	/* loads are in time order: the first at or after @time, then forward */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (jit->loads[mid].load_time < time)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i < jit->nr_loads; i++) {
		if (!jit->load_used[i] && jit->loads[i].addr == addr)
			return i;
	}
	return -1;
}

/*
 * All of the load's sub-programs have known bytes, else it stays as it
 * was.  The text image lists a program's sub-programs one after another.
 */
static bool jit__load_complete(struct inject_jit *jit, size_t li,
			       const struct bpf_prog_info_entry *e)
{
	const struct text_image_bpf_load *l = &jit->loads[li];
	size_t first = li, last = li, i;
	u32 n = 0;

	while (first > 0 && jit->loads[first - 1].id == l->id &&
	       jit->loads[first - 1].load_time == l->load_time)
		first--;
	while (last + 1 < jit->nr_loads && jit->loads[last + 1].id == l->id &&
	       jit->loads[last + 1].load_time == l->load_time)
		last++;
	for (i = first; i <= last; i++)
		n += jit->loads[i].len != 0;
	return e && e->jited_prog_insns && n == e->nr_jited_ksyms;
}

/* where sub-program @addr's bytes are in the program's JIT image */
static int jit__sub_bytes(const struct bpf_prog_info_entry *e, u64 addr, u32 len, const u8 **bytes)
{
	u64 off = 0;
	u32 j;

	for (j = 0; j < e->nr_jited_ksyms; j++) {
		u32 flen = e->jited_func_lens ? e->jited_func_lens[j] :
						(e->nr_jited_ksyms == 1 ? e->jited_prog_len : 0);

		if (e->jited_ksyms[j] == addr) {
			if (flen != len || off + len > e->jited_prog_len)
				return -EINVAL;
			*bytes = e->jited_prog_insns + off;
			return 0;
		}
		off += flen;
	}
	return -ENOENT;
}

/*
 * The KSYMBOL @ks still names the address when the load found for it
 * happens: a BPF KSYMBOL without a program of its own (a BPF trampoline or
 * dispatcher, a program whose PROG_LOAD was lost) must not take the next
 * program loaded there.
 */
static bool jit__same_ksymbol(struct inject_jit *jit, const struct perf_record_ksymbol *ks,
			      u64 load_time)
{
	struct addr_location al;
	bool same;

	if (!strncmp(ks->name, "bpf_trampoline_", 15) || !strncmp(ks->name, "bpf_dispatcher_", 15))
		return false;
	if (!jit->kthread)
		return true;
	addr_location__init(&al);
	/* the machine keeps KSYMBOL names to 255 bytes */
	same =
	    thread__find_symbol(jit->kthread, PERF_RECORD_MISC_KERNEL, ks->addr, load_time, &al) &&
	    map__start(al.map) == ks->addr && !strncmp(al.sym->name, ks->name, 255);
	addr_location__exit(&al);
	return same;
}

static int jit__bpf_register(struct inject_jit *jit, struct perf_writer *w,
			     const union perf_event *event, const struct perf_sample *sample,
			     size_t body)
{
	const struct perf_record_ksymbol *ks = &event->ksymbol;
	const struct bpf_prog_info_entry *e;
	const struct text_image_bpf_load *l;
	ssize_t li = jit__find_load(jit, ks->addr, sample->time);
	const u8 *bytes;
	size_t obj;
	int err;

	if (li < 0 || !jit->loads[li].len || !jit__same_ksymbol(jit, ks, jit->loads[li].load_time))
		return 0;
	l = &jit->loads[li];
	e = jit__prog_info(jit, l->id);
	if (!jit__load_complete(jit, li, e) || jit__sub_bytes(e, l->addr, l->len, &bytes)) {
		pr_debug("BPF program %u: JIT bytes incomplete, its records stay\n", l->id);
		return 0;
	}
	jit->load_used[li] = true;
	err = jit__write_object(jit, ks->name, l->addr, bytes, l->len, &obj);
	if (err || jit->out_kcore)
		return err;
	err = jit__write_mmap2(w, &jit->objs[obj], (const u8 *)event + body,
			       event->header.size - body);
	if (err)
		return err;
	if (array__grow((void **)&jit->progs, jit->nr_progs, &jit->alloc_progs,
			sizeof(*jit->progs)))
		return -ENOMEM;
	jit->progs[jit->nr_progs++] = (struct jit_prog){l->id, l->load_time};
	return 1;
}

static int jit__bpf_event(struct inject_jit *jit, const union perf_event *event,
			  const struct perf_sample *sample)
{
	size_t i;

	if (event->header.size < sizeof(event->bpf) || event->bpf.type != PERF_BPF_EVENT_PROG_LOAD)
		return 0;
	/* from the end: a PROG_LOAD comes right after its KSYMBOLs */
	for (i = jit->nr_progs; i-- > 0;) {
		if (jit->progs[i].id == event->bpf.id && jit->progs[i].load_time == sample->time)
			return 1;
	}
	return 0;
}

/* ---- OOL regions ---- */

static struct jit_ool *jit__find_ool(struct inject_jit *jit, u64 addr)
{
	size_t i;

	for (i = 0; i < jit->nr_ools; i++) {
		if (jit->ools[i].addr == addr)
			return &jit->ools[i];
	}
	return NULL;
}

static void jit__ool_exit(struct jit_ool *r)
{
	free(r->name);
	free(r->bytes);
	free(r->known);
	free(r->runs);
	free(r->reg);
}

/* takes the region out of what is being followed */
static void jit__ool_remove(struct inject_jit *jit, struct jit_ool *r)
{
	jit__ool_exit(r);
	*r = jit->ools[--jit->nr_ools];
}

/* removes what maps @r now, with @trailer */
static int jit__ool_unmap(struct perf_writer *w, struct jit_ool *r, u16 misc, const u8 *trailer,
			  size_t trailer_len)
{
	size_t i;
	int err = 0;

	if (r->ksym_mapped)
		return jit__write_ksymbol(w, misc, r->addr, r->len, r->ksym_type,
					  PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER, r->name, trailer,
					  trailer_len);
	for (i = 0; !err && i < r->nr_runs; i++)
		err = jit__write_ksymbol(w, misc, r->runs[i].addr, r->runs[i].len, r->ksym_type,
					 PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER, r->name, trailer,
					 trailer_len);
	r->nr_runs = 0;
	return err;
}

/*
 * Maps the version in @r->bytes/known: an object per run of known bytes,
 * or, with none known, the input's KSYMBOL register again.
 */
static int jit__ool_map(struct inject_jit *jit, struct perf_writer *w, struct jit_ool *r,
			const u8 *trailer, size_t trailer_len)
{
	u32 i = 0, start;
	size_t obj;
	int err;

	free(r->runs);
	r->runs = NULL;
	r->nr_runs = 0;
	while (i < r->len) {
		struct jit_run *runs;

		if (!r->known[i]) {
			i++;
			continue;
		}
		for (start = i; i < r->len && r->known[i]; i++)
			;
		err = jit__write_object(jit, r->name, r->addr + start, r->bytes + start, i - start,
					&obj);
		if (err)
			return err;
		err = jit__write_mmap2(w, &jit->objs[obj], trailer, trailer_len);
		if (err)
			return err;
		runs = realloc(r->runs, (r->nr_runs + 1) * sizeof(*runs));
		if (!runs)
			return -ENOMEM;
		r->runs = runs;
		r->runs[r->nr_runs++] = (struct jit_run){r->addr + start, i - start, obj};
	}
	r->ksym_mapped = !r->nr_runs;
	if (!r->ksym_mapped || !w)
		return 0;
	/* the register record again, with the trailer of the record it goes with */
	{
		size_t size = r->reg_body + trailer_len;
		union perf_event *ev = malloc(size);

		if (!ev)
			return -ENOMEM;
		memcpy(ev, r->reg, r->reg_body);
		memcpy((u8 *)ev + r->reg_body, trailer, trailer_len);
		ev->header.size = size;
		err = perf_writer__write_event(w, ev);
		free(ev);
	}
	return err;
}

/* the region's bytes at @time into @bytes/@known; true when they differ from @r's */
static int jit__ool_version(struct inject_jit *jit, const struct jit_ool *r, u64 time, u8 *bytes,
			    u8 *known, bool *changed)
{
	u32 i;
	int ret = text_image__read(jit->ti, r->addr, r->len, time, bytes, known);

	if (ret < 0)
		return ret;
	for (i = 0; i < r->len; i++) {
		if (!known[i])
			bytes[i] = 0;
	}
	*changed = memcmp(known, r->known, r->len) || memcmp(bytes, r->bytes, r->len);
	return 0;
}

static int jit__ool_register(struct inject_jit *jit, struct perf_writer *w,
			     const union perf_event *event, const struct perf_sample *sample,
			     size_t body)
{
	const struct perf_record_ksymbol *ks = &event->ksymbol;
	const u8 *trailer = (const u8 *)event + body;
	size_t trailer_len = event->header.size - body;
	struct jit_ool *r;
	bool changed;
	int err;

	if (!ks->len || ks->len > JIT_OOL_MAX) {
		if (ks->len)
			pr_warning("KSYMBOL %s at %#" PRIx64 ": %u bytes, more than the %u an OOL "
				   "object gets: left as it is\n",
				   ks->name, ks->addr, ks->len, JIT_OOL_MAX);
		return 0;
	}
	/* an unregister must have been lost: the new one takes the address */
	r = jit__find_ool(jit, ks->addr);
	if (r)
		jit__ool_remove(jit, r);
	if (array__grow((void **)&jit->ools, jit->nr_ools, &jit->alloc_ools, sizeof(*jit->ools)))
		return -ENOMEM;
	r = &jit->ools[jit->nr_ools++];
	memset(r, 0, sizeof(*r));
	r->addr = ks->addr;
	r->len = ks->len;
	r->ksym_type = ks->ksym_type;
	r->name = strdup(ks->name);
	r->bytes = calloc(1, r->len);
	r->known = calloc(1, r->len);
	r->reg = malloc(body);
	r->reg_body = body;
	if (!r->name || !r->bytes || !r->known || !r->reg) {
		jit__ool_remove(jit, r);
		return -ENOMEM;
	}
	memcpy(r->reg, event, body);
	r->ksym_mapped = true;
	{
		u8 *b = malloc(r->len), *k = malloc(r->len);

		err = b && k ? jit__ool_version(jit, r, sample->time, b, k, &changed) : -ENOMEM;
		if (!err) {
			memcpy(r->bytes, b, r->len);
			memcpy(r->known, k, r->len);
		}
		free(b);
		free(k);
	}
	if (err)
		return err;
	if (!changed)
		return 0; /* nothing known yet: the KSYMBOL holds it until a poke fills it */
	err = jit__ool_map(jit, w, r, trailer, trailer_len);
	if (err)
		return err;
	return w ? 1 : 0;
}

static int jit__ool_unregister(struct inject_jit *jit, struct perf_writer *w,
			       const union perf_event *event, size_t body)
{
	struct jit_ool *r = jit__find_ool(jit, event->ksymbol.addr);
	const u8 *trailer = (const u8 *)event + body;
	size_t trailer_len = event->header.size - body, i;
	int err = 0;

	if (!r)
		return 0;
	if (r->ksym_mapped) {
		jit__ool_remove(jit, r);
		return 0;
	}
	/* the input's record removes the run at the region's start, if any */
	for (i = 0; !err && i < r->nr_runs; i++) {
		if (r->runs[i].addr == r->addr)
			continue;
		err = jit__write_ksymbol(w, event->header.misc, r->runs[i].addr, r->runs[i].len,
					 r->ksym_type, PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER,
					 r->name, trailer, trailer_len);
	}
	jit__ool_remove(jit, r);
	return err;
}

/* a poke inside a registered region that changes its bytes maps the new version */
static int jit__text_poke(struct inject_jit *jit, struct perf_writer *w,
			  const union perf_event *event, const struct perf_sample *sample,
			  size_t body)
{
	const struct perf_record_text_poke *tp = &event->text_poke;
	u64 end = tp->addr + (tp->old_len > tp->new_len ? tp->old_len : tp->new_len);
	const u8 *trailer = (const u8 *)event + body;
	size_t trailer_len = event->header.size - body, i;
	int err = 0;

	for (i = 0; !err && i < jit->nr_ools; i++) {
		struct jit_ool *r = &jit->ools[i];
		u8 *b, *k;
		bool changed;

		if (end <= r->addr || tp->addr >= r->addr + r->len)
			continue;
		b = malloc(r->len);
		k = malloc(r->len);
		err = b && k ? jit__ool_version(jit, r, sample->time, b, k, &changed) : -ENOMEM;
		if (!err && changed) {
			err = jit__ool_unmap(w, r, r->reg->header.misc, trailer, trailer_len);
			memcpy(r->bytes, b, r->len);
			memcpy(r->known, k, r->len);
			if (!err)
				err = jit__ool_map(jit, w, r, trailer, trailer_len);
		}
		free(b);
		free(k);
	}
	/* the poke itself passes: perf writes the same bytes into the new object */
	return err;
}

/* ---- the interface ---- */

void inject_jit__set_out_kcore(struct inject_jit *jit, bool out_kcore)
{
	if (out_kcore && !jit->out_kcore)
		pr_warning("--jit: the output keeps a kcore, and perf 6.1 then ignores kernel "
			   "MMAP2s (util/machine.c:machine__process_kernel_mmap_event()): the "
			   "objects are written, the BPF and OOL records stay as they were\n");
	jit->out_kcore = out_kcore;
}

/* the driver's layout: OUT/jit beside OUT/kcore_dir */
static bool jit__sibling_kcore(const char *write_dir)
{
	const char *slash = strrchr(write_dir, '/');
	char *path;
	bool ret;

	if (!slash || strcmp(slash, "/jit"))
		return false;
	if (asprintf(&path, "%.*s/kcore_dir/kcore", (int)(slash - write_dir), write_dir) < 0)
		return false;
	ret = !access(path, F_OK);
	free(path);
	return ret;
}

struct inject_jit *inject_jit__new(struct text_image *ti, struct machine *machine,
				   const struct perf_env *env, const char *write_dir,
				   const char *final_dir)
{
	struct inject_jit *jit;

	if (!ti || !write_dir || !final_dir || final_dir[0] != '/') {
		pr_err("--jit: the objects' directory must be an absolute path\n");
		errno = EINVAL;
		return NULL;
	}
	/* final_dir/<name>.<n>.o must fit where perf 6.1 copies a kernel map's name */
	if (strlen(final_dir) + 1 + JIT_NAME_MAX + 24 >= JIT_KMAP_NAME_LEN) {
		pr_err("--jit: %s: too long for the objects' names, which perf cuts at %d bytes\n",
		       final_dir, JIT_KMAP_NAME_LEN - 1);
		errno = ENAMETOOLONG;
		return NULL;
	}
	jit = calloc(1, sizeof(*jit));
	if (!jit)
		return NULL;
	jit->ti = ti;
	jit->env = env;
	if (machine) {
		jit->kthread = machine__findnew_thread(machine, -1, 0);
		if (!jit->kthread) {
			free(jit);
			errno = ENOMEM;
			return NULL;
		}
	}
	jit->write_dir = strdup(write_dir);
	jit->final_dir = strdup(final_dir);
	jit->loads = text_image__bpf_loads(ti, &jit->nr_loads);
	jit->load_used = calloc(jit->nr_loads + 1, sizeof(*jit->load_used));
	if (env && env->nr_bpf_progs > 0) {
		int i;

		jit->by_id = calloc(env->nr_bpf_progs, sizeof(*jit->by_id));
		for (i = 0; jit->by_id && i < env->nr_bpf_progs; i++)
			jit->by_id[i] = &env->bpf_progs[i];
		if (jit->by_id) {
			jit->nr_by_id = env->nr_bpf_progs;
			qsort(jit->by_id, jit->nr_by_id, sizeof(*jit->by_id), jit__cmp_prog);
		}
	}
	if (!jit->write_dir || !jit->final_dir || !jit->load_used ||
	    (env && env->nr_bpf_progs > 0 && !jit->by_id)) {
		inject_jit__delete(jit);
		errno = ENOMEM;
		return NULL;
	}
	inject_jit__set_out_kcore(jit, jit__sibling_kcore(write_dir));
	return jit;
}

void inject_jit__delete(struct inject_jit *jit)
{
	size_t i;

	if (!jit)
		return;
	for (i = 0; i < jit->nr_objs; i++)
		free(jit->objs[i].path);
	for (i = 0; i < jit->nr_ools; i++)
		jit__ool_exit(&jit->ools[i]);
	free(jit->objs);
	free(jit->ools);
	free(jit->progs);
	free(jit->load_used);
	free(jit->by_id);
	free(jit->write_dir);
	free(jit->final_dir);
	thread__put(jit->kthread);
	free(jit);
}

int inject_jit__event(struct inject_jit *jit, struct perf_writer *w, union perf_event *event,
		      struct perf_sample *sample)
{
	struct perf_sample none = {0};
	size_t body;
	bool unreg;

	if (!sample)
		sample = &none;
	if (jit->out_kcore)
		w = NULL; /* objects only: see inject_jit__set_out_kcore() */
	switch (event->header.type) {
	case PERF_RECORD_KSYMBOL:
		body = jit__body_size(event);
		if (!body)
			return jit__malformed(event, sample);
		unreg = event->ksymbol.flags & PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER;
		if (event->ksymbol.ksym_type == PERF_RECORD_KSYMBOL_TYPE_BPF)
			return unreg ? 0 : jit__bpf_register(jit, w, event, sample, body);
		if (event->ksymbol.ksym_type == PERF_RECORD_KSYMBOL_TYPE_OOL)
			return unreg ? jit__ool_unregister(jit, w, event, body) :
				       jit__ool_register(jit, w, event, sample, body);
		return 0;
	case PERF_RECORD_BPF_EVENT:
		return jit__bpf_event(jit, event, sample);
	case PERF_RECORD_TEXT_POKE:
		if (!jit->nr_ools)
			return 0;
		body = jit__body_size(event);
		if (!body)
			return jit__malformed(event, sample);
		return jit__text_poke(jit, w, event, sample, body);
	default:
		return 0;
	}
}

/*
 * None: a BUILD_ID entry of kernel cpumode makes perf 6.1 take the object
 * for the kernel itself (header.c:__event_process_build_id() sets
 * dso->kernel and gives module info only to "*.ko" names; dso__load() then
 * looks for kallsyms or a vmlinux and finds no symbols).  The build-id
 * goes in each MMAP2 instead, which perf sets on the module map's dso.
 */
int inject_jit__add_build_ids(struct inject_jit *jit, struct perf_writer *w)
{
	(void)jit;
	(void)w;
	return 0;
}

size_t inject_jit__nr_objects(const struct inject_jit *jit)
{
	return jit ? jit->nr_objs : 0;
}
