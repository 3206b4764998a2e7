// SPDX-License-Identifier: GPL-2.0-only
/*
 * The recorded kernel's code over time, on libtextpoke: what goes into
 * the image (starting images, TEXT_POKE records, BPF JIT images) and
 * when, and what the records say about which code is mapped where.
 */
#include <errno.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build-id.h"
#include "debug.h"
#include "dso.h"
#include "dso-code.h"
#include "header.h"
#include "kcore.h"
#include "machine.h"
#include "module-events.h"
#include "session.h"
#include "text-image.h"
#include "time-utils.h"

#include "text-image-internal.h"

/* grows *@arr (of @elem bytes each) to hold one more */
static int ti_key__cmp(const void *a, const void *b);

static int grow(void **arr, size_t nr, size_t *alloc, size_t elem)
{
	size_t n;
	void *p;

	if (nr < *alloc)
		return 0;
	n = *alloc ? 2 * *alloc : 16;
	p = realloc(*arr, n * elem);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*alloc = n;
	return 0;
}

static int ti_print(enum textpoke_print_level level, const char *fmt, va_list ap, void *arg)
{
	char buf[512];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	/* the library's per-poke detail only at -vv */
	if (level == TEXTPOKE_WARN)
		pr_warning("%s", buf);
	else if (level == TEXTPOKE_INFO)
		pr_debug("%s", buf);
	else
		pr_debug2("%s", buf);
	return 0;
}

int text_image_opts__parse_anchor(struct text_image_opts *opts, const char *str)
{
	char *end;

	if (!strcmp(str, "start")) {
		opts->anchor = TEXT_IMAGE_ANCHOR_START;
	} else if (!strcmp(str, "end")) {
		opts->anchor = TEXT_IMAGE_ANCHOR_END;
	} else if (!strcmp(str, "fit")) {
		opts->anchor = TEXT_IMAGE_ANCHOR_FIT;
	} else if (strchr(str, '.')) {
		/* seconds, as perf script prints times */
		if (parse_nsec_time(str, &opts->anchor_time))
			return -EINVAL;
		opts->anchor = TEXT_IMAGE_ANCHOR_TIME;
	} else {
		errno = 0;
		opts->anchor_time = strtoull(str, &end, 0);
		if (errno || end == str || *end)
			return -EINVAL;
		opts->anchor = TEXT_IMAGE_ANCHOR_TIME;
	}
	return 0;
}

int ti__add_base(struct text_image *ti, struct kcore *k, enum textpoke_anchor anchor, u64 time)
{
	struct textpoke_base_opts bo = {
	    .sz = sizeof(bo),
	    .anchor = anchor,
	    .time = time,
	    .flags = TEXTPOKE_BASE_BORROW,
	};
	int i, err;

	for (i = 0; i < k->nr_segments; i++) {
		err = textpoke_image__add_base(ti->img, k->segments[i].addr, k->segments[i].bytes,
					       k->segments[i].len, &bo);
		if (err) {
			pr_err("%s: cannot add the segment at %#llx: %s\n", k->path,
			       (unsigned long long)k->segments[i].addr, strerror(-err));
			return err;
		}
	}
	ti->stats.base_path = k->path;
	ti->stats.nr_base_segments = k->nr_segments;
	ti->stats.base_anchor = anchor;
	ti->stats.base_time = time;
	return 0;
}

static bool vmlinux__fits(const char *path, const struct build_id *bid)
{
	struct build_id file_bid = {.size = 0};

	/* a FIFO or a device under --symfs is passed over, never waited on */
	if (kcore__read_build_id(path, &file_bid) < 0)
		return false;
	if (!build_id__equal(&file_bid, bid)) {
		pr_debug("%s: not the recorded kernel's build-id\n", path);
		return false;
	}
	return true;
}

/*
 * A vmlinux the user names must be the recorded kernel, or the code it
 * gives is some other kernel's.  As perf's -k, it must carry the build-id
 * the recording names for [kernel.kallsyms], when it names one (perf
 * passes over a mismatch with a debug message and goes on without the
 * file: a refusal that says why is better); when it names none, the code
 * must at least lie where a kernel's does, in the upper half of the
 * address space (so that /bin/ls is not taken for one).
 */
static int ti__check_vmlinux(const struct perf_env *env, const struct kcore *k)
{
	char have[BUILD_ID_HEX_SIZE], want[BUILD_ID_HEX_SIZE];
	struct build_id bid = {.size = 0};

	if (env && !perf_env__find_build_id(env, "[kernel.kallsyms]", &bid) && bid.size) {
		if (build_id__equal(&bid, &k->bid))
			return 0;
		build_id__sprintf(&bid, want);
		if (k->bid.size)
			pr_err("%s: build-id %s, not the recorded kernel's %s\n", k->path,
			       build_id__sprintf(&k->bid, have), want);
		else
			pr_err("%s: no build-id, so not the recorded kernel (build-id %s)\n",
			       k->path, want);
		return -EINVAL;
	}
	if (!k->upper_half) {
		pr_err("%s: not a vmlinux: code at %#llx, not at kernel addresses\n", k->path,
		       (unsigned long long)k->segments[0].addr);
		return -EINVAL;
	}
	return 0;
}

char *text_image__find_vmlinux(const struct perf_env *env, const char *symfs)
{
	static const char *const by_release[] = {
	    "%s/usr/lib/debug/boot/vmlinux-%s",
	    "%s/boot/vmlinux-%s",
	    "%s/usr/lib/debug/lib/modules/%s/vmlinux",
	    "%s/lib/modules/%s/build/vmlinux",
	};
	struct build_id bid = {.size = 0};
	char *path = NULL, *debug;
	size_t i;

	if (!env || perf_env__find_build_id(env, "[kernel.kallsyms]", &bid) || !bid.size)
		return NULL;
	if (!symfs)
		symfs = "";
	debug = build_id__debuginfo_path(&bid);
	if (debug && asprintf(&path, "%s%s", symfs, debug) >= 0 && vmlinux__fits(path, &bid)) {
		free(debug);
		return path;
	}
	free(debug);
	zfree(&path);
	for (i = 0; env->os_release && i < ARRAY_SIZE(by_release); i++) {
		if (asprintf(&path, by_release[i], symfs, env->os_release) < 0)
			return NULL;
		if (vmlinux__fits(path, &bid))
			return path;
		zfree(&path);
	}
	return NULL;
}

/* drops [@start, @end) from @k's segments, splitting the ones it cuts */
static int kcore__cut(struct kcore *k, u64 start, u64 end)
{
	struct kcore_segment *out = malloc((2 * k->nr_segments + 1) * sizeof(*out));
	int nr = 0;

	if (!out)
		return -ENOMEM;
	for (int i = 0; i < k->nr_segments; i++) {
		const struct kcore_segment *s = &k->segments[i];
		u64 s_end = s->addr + s->len;

		if (s_end <= start || s->addr >= end) {
			out[nr++] = *s;
			continue;
		}
		if (s->addr < start)
			out[nr++] = (struct kcore_segment){s->addr, start - s->addr, s->bytes};
		if (s_end > end)
			out[nr++] =
			    (struct kcore_segment){end, s_end - end, s->bytes + (end - s->addr)};
	}
	free(k->segments);
	k->segments = out;
	k->nr_segments = nr;
	return 0;
}

/*
 * A kcore copy holds, over a module that loaded after it was read,
 * whatever was there then: free module space reads as zeros, or an
 * earlier module's or program's code.  None of it is the module's code,
 * and it would stand for it at every time no poke tells apart.  The
 * copy's own modules file says which modules it saw: the ranges of the
 * others are cut out of it.
 */
static int ti__cut_kcore(struct text_image *ti, const char *dir)
{
	struct module_line *lines = NULL;
	char *path;
	int nr, err = 0;

	if (!ti->mods.nr_loads)
		return 0;
	if (asprintf(&path, "%s/modules", dir) < 0)
		return -ENOMEM;
	nr = modules_file__read(path, &lines);
	free(path);
	if (nr == -ENOMEM)
		return nr;
	for (size_t i = 0; i < ti->mods.nr_loads && !err; i++) {
		const struct module_load *ml = &ti->mods.loads[i];
		bool seen = false;

		for (int j = 0; j < nr && !seen; j++)
			seen =
			    !strcmp(lines[j].name, ml->name) && lines[j].core.addr == ml->core.addr;
		if (seen) {
			/* the copy's modules file lists one load of a name: the latest */
			for (size_t k = 0; k < ti->mods.nr_loads; k++)
				ti->mods.loads[k].in_copy = false;
			ti->mods.loads[i].in_copy = true;
			continue;
		}
		if (ml->core.len)
			err = kcore__cut(ti->kcore, ml->core.addr, ml->core.addr + ml->core.len);
		if (!err && ml->init.len)
			err = kcore__cut(ti->kcore, ml->init.addr, ml->init.addr + ml->init.len);
	}
	free(lines);
	return err;
}

/*
 * The code of each module loaded while recording, as the recorder read it
 * the moment it loaded: true at the time the read began (a poke during
 * the read is the one thing it cannot place).  What a free or the end of
 * init may have taken from under the read is not used.
 */
static int ti__add_module_code(struct text_image *ti)
{
	for (size_t i = 0; i < ti->mods.nr_loads; i++) {
		const struct module_load *ml = &ti->mods.loads[i];
		struct textpoke_base_opts bo = {
		    .sz = sizeof(bo),
		    .anchor = TEXTPOKE_ANCHOR_AT,
		    .time = ml->read_from,
		    .flags = TEXTPOKE_BASE_BORROW,
		};

		for (int j = 0; ml->code && j < ml->code->nr_segments; j++) {
			const struct kcore_segment *seg = &ml->code->segments[j];
			bool init = module_range__has(&ml->init_text, seg->addr);
			int err;

			if (!module_load__code_ok(ml, init)) {
				pr_debug(
				    "%s: module %s's %s code went while it was read: unknown\n",
				    ml->code->path, ml->name, init ? "init" : "core");
				continue;
			}
			err =
			    textpoke_image__add_base(ti->img, seg->addr, seg->bytes, seg->len, &bo);
			if (err) {
				pr_err("%s: cannot add the segment at %#llx: %s\n", ml->code->path,
				       (unsigned long long)seg->addr, strerror(-err));
				return err;
			}
		}
	}
	return 0;
}

struct text_image *text_image__new(const struct perf_env *env, const char *recording_kcore_dir,
				   const struct text_image_opts *opts)
{
	struct text_image_opts none = {0};
	struct textpoke_image_opts io = {.sz = sizeof(io), .print = ti_print};
	struct text_image *ti = calloc(1, sizeof(*ti));
	const char *dir;
	int err = -ENOMEM;

	if (!opts)
		opts = &none;
	if (!ti)
		goto out_err;
	ti->env = env;
	ti->copy_before = UINT64_MAX;
	io.max_bytes = opts->max_bytes;
	ti->img = textpoke_image__new(&io);
	if (!ti->img) {
		pr_err("text image: %s\n", strerror(ENOMEM));
		goto out_delete;
	}
	ti->anchor = opts->anchor;
	ti->anchor_time = opts->anchor_time;
	module_events__init(&ti->mods);
	if (recording_kcore_dir) {
		err = module_events__read(&ti->mods, recording_kcore_dir);
		if (err)
			goto out_delete;
	}
	if (opts->vmlinux) {
		ti->vmlinux = kcore__open_vmlinux(opts->vmlinux);
		if (!ti->vmlinux)
			goto out_errno;
		err = ti__check_vmlinux(env, ti->vmlinux);
		if (err)
			goto out_delete;
		err = ti__add_base(ti, ti->vmlinux, TEXTPOKE_ANCHOR_BEFORE, 0);
		if (err)
			goto out_delete;
	}
	dir = opts->kcore_dir ?: recording_kcore_dir;
	if (dir && !opts->no_kcore) {
		/*
		 * The recording's own kcore_dir may hold kallsyms alone (no
		 * /proc/kcore when recording), or a damaged kcore: the pokes
		 * still tell what they touched.  One the user named must work.
		 */
		ti->kcore = kcore__open_dir(dir, !opts->kcore_dir);
		if (!ti->kcore && opts->kcore_dir) {
			err = -errno;
			if (err == -ENOENT)
				pr_err("%s: no kcore in this kcore_dir\n", dir);
			goto out_delete;
		}
		err = ti->kcore ? ti__cut_kcore(ti, dir) : 0;
		if (err)
			goto out_delete;
	}
	if (ti->kcore) {
		switch (ti->anchor) {
		case TEXT_IMAGE_ANCHOR_START:
			err = ti__add_base(ti, ti->kcore, TEXTPOKE_ANCHOR_BEFORE, 0);
			break;
		case TEXT_IMAGE_ANCHOR_END:
			err = ti__add_base(ti, ti->kcore, TEXTPOKE_ANCHOR_AFTER, 0);
			break;
		case TEXT_IMAGE_ANCHOR_TIME:
			err = ti__add_base(ti, ti->kcore, TEXTPOKE_ANCHOR_AT, ti->anchor_time);
			break;
		case TEXT_IMAGE_ANCHOR_FIT:
		default:
			/* needs every poke: text_image__finish() */
			err = 0;
			break;
		}
		if (err)
			goto out_delete;
	}
	err = ti__add_module_code(ti);
	if (err)
		goto out_delete;
	/* no kernel code from a copy: the installed vmlinux, if it is the recorded one */
	if (!ti->kcore && !ti->vmlinux && !opts->no_kcore) {
		char *path = text_image__find_vmlinux(env, opts->symfs);

		if (path) {
			ti->vmlinux = kcore__open_vmlinux(path);
			err = 0;
			if (ti->vmlinux) {
				pr_debug("kernel code at boot from %s (build-id match)\n", path);
				err = ti__add_base(ti, ti->vmlinux, TEXTPOKE_ANCHOR_BEFORE, 0);
			}
			free(path);
			if (err)
				goto out_delete;
		}
	}
	return ti;

out_errno:
	err = -errno;
out_delete:
	text_image__delete(ti);
out_err:
	errno = -err;
	return NULL;
}

void text_image__delete(struct text_image *ti)
{
	if (!ti)
		return;
	/* the image borrows the kcore's bytes: it goes first */
	textpoke_image__delete(ti->img);
	kcore__delete(ti->kcore);
	kcore__delete(ti->vmlinux);
	if (ti->session)
		perf_session__delete(ti->session);
	while (ti->nr_objects)
		dso_code__exit(&ti->objects[--ti->nr_objects].code);
	free(ti->objects);
	free(ti->spans);
	free(ti->bpf);
	free(ti->jit_pokes);
	free(ti->loads);
	free(ti->verdicts);
	free(ti->unmapped);
	for (size_t i = 0; i < ti->nr_mod_pokes; i++)
		free(ti->mod_pokes[i].bytes);
	free(ti->mod_pokes);
	for (size_t i = 0; i < ti->nr_life_pokes; i++)
		free(ti->life_pokes[i].bytes);
	free(ti->life_pokes);
	free(ti->bpf_lives);
	free(ti->open_lives);
	free(ti->unchecked);
	/* after the image: it borrows the module code's bytes */
	module_events__exit(&ti->mods);
	free(ti);
}

static int ti__add_span(struct text_image *ti, u64 start, u64 len, u64 from)
{
	if (!len || start + len < start)
		return 0;
	if (grow((void **)&ti->spans, ti->nr_spans, &ti->alloc_spans, sizeof(*ti->spans)))
		return -ENOMEM;
	ti->spans[ti->nr_spans++] = (struct ti_span){start, start + len, from, UINT64_MAX};
	return 0;
}

static void ti__close_span(struct text_image *ti, u64 start, u64 to)
{
	size_t i;

	for (i = ti->nr_spans; i-- > 0;) {
		if (ti->spans[i].start == start && ti->spans[i].to == UINT64_MAX) {
			ti->spans[i].to = to;
			return;
		}
	}
}

static bool ti__covered(struct text_image *ti, u64 addr, u64 time)
{
	size_t i;

	if (ti->kcore && kcore__in_area(ti->kcore, addr))
		return true;
	if (ti->vmlinux && kcore__find(ti->vmlinux, addr))
		return true;
	if (module_events__live(&ti->mods, addr, time))
		return true;
	for (i = 0; i < ti->nr_spans; i++) {
		const struct ti_span *s = &ti->spans[i];

		if (addr >= s->start && addr < s->end && time >= s->from && time < s->to)
			return true;
	}
	return false;
}

/*
 * The verdict of a poke as records come (one pass over a pipe): its old
 * bytes against what the image knows just before it is added.  After the
 * add, with no base, the image would "know" those bytes from the poke
 * itself and every first poke would look verified.
 */
static void ti__live_verdict(struct text_image *ti, const struct perf_record_text_poke *tp,
			     u64 time)
{
	u8 buf[256], known[256];
	size_t i, nr_known = 0;
	enum textpoke_verdict v = TEXTPOKE_UNKNOWN;

	if (tp->old_len && tp->old_len <= sizeof(buf) &&
	    text_image__read(ti, tp->addr, tp->old_len, time, buf, known) >= 0) {
		for (i = 0; i < tp->old_len; i++) {
			if (!known[i])
				continue;
			if (buf[i] != tp->bytes[i]) {
				v = TEXTPOKE_MISMATCH;
				break;
			}
			nr_known++;
		}
		if (v != TEXTPOKE_MISMATCH && nr_known == tp->old_len)
			v = TEXTPOKE_VERIFIED;
	}
	ti->live = (struct ti_verdict){tp->addr, time, v};
	ti->has_live = true;
}

static int ti__note_life_poke(struct text_image *ti, const struct perf_record_text_poke *tp,
			      u64 time);

static int ti__text_poke(struct text_image *ti, struct perf_record_text_poke *tp, u64 time)
{
	int err;

	/*
	 * one pass (a pipe read as it comes) wants each poke's verdict at
	 * once; text_image__load() has the whole recording first, and its
	 * verdicts come from text_image__finish()
	 */
	if (!ti->finished && !ti->session)
		ti__live_verdict(ti, tp, time);
	/* a poke into a module that is being loaded: it is the module's from then on */
	module_events__note_poke(&ti->mods, tp->addr, tp->old_len, tp->new_len, time);
	err = textpoke_image__add_poke(ti->img, time, tp->addr, tp->bytes, tp->old_len,
				       tp->bytes + tp->old_len, tp->new_len);
	if (err) {
		ti->stats.nr_pokes_failed++;
		return err;
	}
	ti->stats.nr_pokes++;
	if (tp->new_len && module_events__find(&ti->mods, tp->addr, time)) {
		struct ti_mod_poke *mp;

		if (grow((void **)&ti->mod_pokes, ti->nr_mod_pokes, &ti->alloc_mod_pokes,
			 sizeof(*ti->mod_pokes)))
			return -ENOMEM;
		mp = &ti->mod_pokes[ti->nr_mod_pokes];
		*mp = (struct ti_mod_poke){tp->addr, time, tp->new_len, malloc(tp->new_len)};
		if (!mp->bytes)
			return -ENOMEM;
		memcpy(mp->bytes, tp->bytes + tp->old_len, tp->new_len);
		ti->nr_mod_pokes++;
	}
	err = ti__note_life_poke(ti, tp, time);
	if (err)
		return err;
	if (!ti__covered(ti, tp->addr, time)) {
		if (grow((void **)&ti->unmapped, ti->stats.nr_unmapped, &ti->alloc_unmapped,
			 sizeof(*ti->unmapped)))
			return -ENOMEM;
		ti->unmapped[ti->stats.nr_unmapped++] = (struct text_image_unmapped){
		    .time = time,
		    .addr = tp->addr,
		    .old_len = tp->old_len,
		    .new_len = tp->new_len,
		};
		ti->stats.unmapped = ti->unmapped;
	}
	return 0;
}

static int ti__jit_poke(struct text_image *ti, u64 time, u64 addr, const u8 *old, u32 old_len,
			const u8 *new, u32 new_len)
{
	int err = textpoke_image__add_poke(ti->img, time, addr, old, old_len, new, new_len);

	if (err)
		return err;
	if (grow((void **)&ti->jit_pokes, ti->nr_jit_pokes, &ti->alloc_jit_pokes,
		 sizeof(*ti->jit_pokes)))
		return -ENOMEM;
	ti->jit_pokes[ti->nr_jit_pokes++] = (struct ti_key){addr, time};
	return 0;
}

static int ti__add_load(struct text_image *ti, u32 id, u64 addr, u32 len, u64 time)
{
	if (grow((void **)&ti->loads, ti->nr_loads, &ti->alloc_loads, sizeof(*ti->loads)))
		return -ENOMEM;
	ti->loads[ti->nr_loads++] = (struct text_image_bpf_load){
	    .id = id,
	    .addr = addr,
	    .len = len,
	    .load_time = time,
	    .unload_time = UINT64_MAX,
	};
	return 0;
}

/* the JIT image of program @id's sub-programs, as HEADER_BPF_PROG_INFO holds it */
static int ti__bpf_load(struct text_image *ti, u32 id, u64 time)
{
	const struct bpf_prog_info_entry *e = NULL;
	u32 off = 0, j;
	int i, err;

	for (i = 0; ti->env && i < ti->env->nr_bpf_progs; i++) {
		if (ti->env->bpf_progs[i].id == id)
			e = &ti->env->bpf_progs[i];
	}
	if (!e || !e->jited_prog_insns || !e->nr_jited_ksyms) {
		ti->stats.nr_bpf_no_bytes++;
		return ti__add_load(ti, id, e && e->nr_jited_ksyms ? e->jited_ksyms[0] : 0, 0,
				    time);
	}
	for (j = 0; j < e->nr_jited_ksyms; j++) {
		u32 len = e->jited_func_lens ? e->jited_func_lens[j] :
					       (e->nr_jited_ksyms == 1 ? e->jited_prog_len : 0);

		/* 65535: the most a poke carries, as in PERF_RECORD_TEXT_POKE */
		if (!len || len > e->jited_prog_len - off || len > 65535)
			break;
		err = ti__jit_poke(ti, time, e->jited_ksyms[j], NULL, 0, e->jited_prog_insns + off,
				   len);
		if (err)
			return err;
		if (grow((void **)&ti->bpf, ti->nr_bpf, &ti->alloc_bpf, sizeof(*ti->bpf)))
			return -ENOMEM;
		ti->bpf[ti->nr_bpf++] =
		    (struct ti_bpf){e->jited_ksyms[j], len, e->jited_prog_insns + off};
		err = ti__add_load(ti, id, e->jited_ksyms[j], len, time);
		if (err)
			return err;
		off += len;
	}
	ti->stats.nr_bpf_loaded++;
	return 0;
}

static int ti__bpf_unregister(struct text_image *ti, u64 addr, u64 time)
{
	size_t i;

	for (i = ti->nr_loads; i-- > 0;) {
		if (ti->loads[i].addr == addr && ti->loads[i].unload_time == UINT64_MAX) {
			ti->loads[i].unload_time = time;
			break;
		}
	}

	for (i = 0; i < ti->nr_bpf; i++) {
		if (ti->bpf[i].addr == addr) {
			struct ti_bpf b = ti->bpf[i];

			ti->bpf[i] = ti->bpf[--ti->nr_bpf];
			return ti__jit_poke(ti, time, b.addr, b.bytes, b.len, NULL, 0);
		}
	}
	return 0;
}

/* a BPF KSYMBOL registered (its life begins) or unregistered (the latest at @addr ends) */
static int ti__bpf_life(struct text_image *ti, u64 addr, u32 len, bool unreg, u64 time)
{
	size_t i;

	if (unreg) {
		for (i = ti->nr_open_lives; i-- > 0;) {
			struct ti_bpf_life *l = &ti->bpf_lives[ti->open_lives[i]];

			if (l->start != addr)
				continue;
			l->unreg = time;
			ti->open_lives[i] = ti->open_lives[--ti->nr_open_lives];
			break;
		}
		return 0;
	}
	if (grow((void **)&ti->bpf_lives, ti->nr_bpf_lives, &ti->alloc_bpf_lives,
		 sizeof(*ti->bpf_lives)) ||
	    grow((void **)&ti->open_lives, ti->nr_open_lives, &ti->alloc_open_lives,
		 sizeof(*ti->open_lives)))
		return -ENOMEM;
	ti->open_lives[ti->nr_open_lives++] = ti->nr_bpf_lives;
	ti->bpf_lives[ti->nr_bpf_lives++] =
	    (struct ti_bpf_life){addr, addr + (len ?: 1), time, UINT64_MAX};
	return 0;
}

/*
 * A poke inside a live BPF KSYMBOL whose code no BPF_EVENT brought: a
 * trampoline's image, which the kernel writes before it is used and
 * never reports, and frees (or reuses for another trampoline) later.
 * Kept to bound the poke's bytes by that life (ti__bound_life_pokes()).
 */
static int ti__note_life_poke(struct text_image *ti, const struct perf_record_text_poke *tp,
			      u64 time)
{
	size_t i, life = SIZE_MAX, len = tp->old_len + tp->new_len;
	struct ti_life_poke *lp;

	for (i = ti->nr_open_lives; i-- > 0 && life == SIZE_MAX;) {
		const struct ti_bpf_life *l = &ti->bpf_lives[ti->open_lives[i]];

		if (tp->addr >= l->start && tp->addr < l->end && time >= l->reg)
			life = ti->open_lives[i];
	}
	if (life == SIZE_MAX)
		return 0;
	/* a program's JIT image: its code came with its load and goes with its unload */
	for (i = 0; i < ti->nr_bpf; i++) {
		if (tp->addr >= ti->bpf[i].addr && tp->addr < ti->bpf[i].addr + ti->bpf[i].len)
			return 0;
	}
	if (grow((void **)&ti->life_pokes, ti->nr_life_pokes, &ti->alloc_life_pokes,
		 sizeof(*ti->life_pokes)))
		return -ENOMEM;
	lp = &ti->life_pokes[ti->nr_life_pokes];
	*lp = (struct ti_life_poke){
	    .addr = tp->addr,
	    .time = time,
	    .life = life,
	    .seq = ti->nr_life_pokes,
	    .old_len = tp->old_len,
	    .new_len = tp->new_len,
	    .bytes = malloc(len ?: 1),
	};
	if (!lp->bytes)
		return -ENOMEM;
	memcpy(lp->bytes, tp->bytes, len);
	ti->nr_life_pokes++;
	return 0;
}

static int ti_life_poke__cmp(const void *a, const void *b)
{
	const struct ti_life_poke *x = a, *y = b;

	if (x->life != y->life)
		return x->life < y->life ? -1 : 1;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * The bytes pokes into a trampoline's image tell hold inside its life
 * only.  The first poke's old bytes are the image's from its register on
 * (a model poke of old length 0 there: before it, nothing was mapped or
 * another image held other bytes at that address), and the last poke's
 * new bytes end at its unregister (a model poke of new length 0).  The
 * first poke's old bytes are then checked against nothing but
 * themselves: its verdict cannot be "verified" (ti__keep_verdict()).
 */
static int ti__bound_life_pokes(struct text_image *ti)
{
	size_t i, j;
	int err;

	/* qsort() of a NULL array, even of none, is undefined */
	if (!ti->nr_life_pokes)
		return 0;
	qsort(ti->life_pokes, ti->nr_life_pokes, sizeof(*ti->life_pokes), ti_life_poke__cmp);
	for (i = 0; i < ti->nr_life_pokes; i = j) {
		const struct ti_life_poke *first = &ti->life_pokes[i], *last;
		const struct ti_bpf_life *l = &ti->bpf_lives[first->life];

		for (j = i + 1; j < ti->nr_life_pokes && ti->life_pokes[j].life == first->life &&
				ti->life_pokes[j].addr == first->addr;
		     j++)
			;
		last = &ti->life_pokes[j - 1];
		/* a poke at the register's own time would come after the model poke */
		if (first->old_len && l->reg < first->time) {
			err = ti__jit_poke(ti, l->reg, first->addr, NULL, 0, first->bytes,
					   first->old_len);
			if (!err)
				err = grow((void **)&ti->unchecked, ti->nr_unchecked,
					   &ti->alloc_unchecked, sizeof(*ti->unchecked));
			if (err)
				return err;
			ti->unchecked[ti->nr_unchecked++] =
			    (struct ti_key){first->addr, first->time};
		}
		if (last->new_len && l->unreg != UINT64_MAX && l->unreg >= last->time) {
			err = ti__jit_poke(ti, l->unreg, last->addr, last->bytes + last->old_len,
					   last->new_len, NULL, 0);
			if (err)
				return err;
		}
	}
	if (ti->nr_unchecked)
		qsort(ti->unchecked, ti->nr_unchecked, sizeof(*ti->unchecked), ti_key__cmp);
	return 0;
}

/*
 * Pokes carry at most 65535 bytes: a larger range is @new_len (or
 * @old_len) bytes in pokes of that size, one after the other.
 */
static int ti__jit_range(struct text_image *ti, u64 time, u64 addr, const u8 *bytes, size_t len,
			 bool appear)
{
	size_t off, n;
	int err;

	for (off = 0; off < len; off += n) {
		n = len - off > 65535 ? 65535 : len - off;
		err = appear ? ti__jit_poke(ti, time, addr + off, NULL, 0, bytes + off, n) :
			       ti__jit_poke(ti, time, addr + off, bytes + off, n, NULL, 0);
		if (err)
			return err;
	}
	return 0;
}

/* an object's code goes at @time: new_len 0 pokes of what it put there */
static int ti__object_close(struct text_image *ti, size_t idx, u64 time)
{
	struct ti_object *o = &ti->objects[idx];
	size_t i;
	int err = 0;

	for (i = 0; i < o->code.nr && !err; i++) {
		const struct dso_code_range *r = &o->code.ranges[i];

		err = ti__jit_range(ti, time, r->addr, r->bytes, r->len, false);
	}
	ti__close_span(ti, o->start, time);
	dso_code__exit(&o->code);
	*o = ti->objects[--ti->nr_objects];
	return err;
}

/* every live object over [start, end) ends at @time */
static int ti__objects_close(struct text_image *ti, u64 start, u64 end, u64 time)
{
	size_t i = 0;
	int err;

	if (end < start)
		end = UINT64_MAX;
	while (i < ti->nr_objects) {
		if (ti->objects[i].end <= start || ti->objects[i].start >= end) {
			i++;
			continue;
		}
		/* the last one moves into slot i */
		err = ti__object_close(ti, i, time);
		if (err)
			return err;
	}
	return 0;
}

/*
 * A kernel MMAP of an ELF object: its code, as far as the map covers it,
 * is there from @time on (old_len 0 pokes, as BPF JIT images are).  A
 * file that cannot be read leaves those bytes unknown, said once.
 */
static int ti__object_map(struct text_image *ti, const char *filename, u64 start, u64 len,
			  const struct build_id *bid, u64 time)
{
	char have[BUILD_ID_HEX_SIZE], want[BUILD_ID_HEX_SIZE];
	u64 end = start + len;
	struct ti_object *o;
	size_t i, kept = 0;
	int err;

	/* what the machine ignores too: no object there */
	if (!len || end < start)
		return 0;
	err = ti__objects_close(ti, start, end, time);
	if (err)
		return err;
	err = ti__add_span(ti, start, end - start, time);
	if (err)
		return err;
	if (grow((void **)&ti->objects, ti->nr_objects, &ti->alloc_objects, sizeof(*ti->objects)))
		return -ENOMEM;
	o = &ti->objects[ti->nr_objects];
	o->start = start;
	o->end = end;
	err = dso_code__read(filename, &o->code);
	if (err == -ENOMEM)
		return err;
	/* another file now has that name: not the object that was mapped */
	if (!err && bid && bid->size && !build_id__equal(bid, &o->code.bid)) {
		pr_warning("%s: build-id %s, not the %s its MMAP2 at %#llx names: its code is "
			   "unknown\n",
			   filename,
			   o->code.bid.size ? build_id__sprintf(&o->code.bid, have) : "(none)",
			   build_id__sprintf(bid, want), (unsigned long long)start);
		dso_code__exit(&o->code);
		ti->stats.nr_obj_unread++;
		ti->nr_objects++;
		return 0;
	}
	if (err) {
		/* a hostile recording may map a missing file a million times */
		if (ti->stats.nr_obj_unread++ < TI_OBJECT_WARNINGS)
			pr_warning("%s: the code of the kernel object mapped at %#llx is unknown: "
				   "%s\n",
				   filename, (unsigned long long)start, dso_code__strerror(err));
		else
			pr_debug(
			    "%s: the code of the kernel object mapped at %#llx is unknown: %s\n",
			    filename, (unsigned long long)start, dso_code__strerror(err));
		ti->nr_objects++;
		return 0;
	}
	/* only what the map covers is the object's code in the kernel */
	for (i = 0; i < o->code.nr; i++) {
		struct dso_code_range r = o->code.ranges[i];

		if (r.addr < start) {
			if (r.addr + r.len <= start)
				continue;
			r.bytes += start - r.addr;
			r.len -= start - r.addr;
			r.addr = start;
		}
		if (r.addr >= end)
			continue;
		if (r.len > end - r.addr)
			r.len = end - r.addr;
		err = ti__jit_range(ti, time, r.addr, r.bytes, r.len, true);
		if (err)
			break;
		o->code.ranges[kept++] = r;
	}
	ti->nr_objects++;
	if (!err && !kept)
		pr_warning("%s: no code of it lies where it is mapped, at %#llx\n", filename,
			   (unsigned long long)start);
	/* what it holds in the image, and no more, until it goes */
	return dso_code__keep(&o->code, kept) ?: err;
}

static int ti__ksymbol(struct text_image *ti, struct perf_record_ksymbol *ks, u64 time)
{
	bool unreg = ks->flags & PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER;
	int err;

	if (ks->ksym_type == PERF_RECORD_KSYMBOL_TYPE_OOL && !unreg)
		ti->stats.nr_ool++;
	if (ks->ksym_type == PERF_RECORD_KSYMBOL_TYPE_BPF) {
		err = ti__bpf_life(ti, ks->addr, ks->len, unreg, time);
		if (err)
			return err;
	}
	module_events__note_end(&ti->mods, ks->addr, ks->len, time);
	/* what the machine does: an unregister ends what is there, so does a register over it */
	err = ti__objects_close(ti, ks->addr, ks->addr + (ks->len ?: 1), time);
	if (err)
		return err;
	if (unreg) {
		ti__close_span(ti, ks->addr, time);
		if (ks->ksym_type == PERF_RECORD_KSYMBOL_TYPE_BPF)
			return ti__bpf_unregister(ti, ks->addr, time);
		return 0;
	}
	return ti__add_span(ti, ks->addr, ks->len, time);
}

/* a kernel MMAP: the kernel or a module, mapped for the whole recording, or an object */
static int ti__kernel_mmap(struct text_image *ti, const char *filename, size_t max_name, u64 start,
			   u64 len, const struct build_id *bid, u64 time)
{
	char name[4096];
	int err;

	snprintf(name, sizeof(name), "%.*s",
		 (int)(max_name < sizeof(name) ? max_name : sizeof(name) - 1), filename);
	if (kernel_mmap__is_object(name))
		return ti__object_map(ti, name, start, len, bid, time);
	if (name[0] == '/' || name[0] == '[') {
		err = ti__objects_close(ti, start, start + len, time);
		if (err)
			return err;
	}
	return ti__add_span(ti, start, len, 0);
}

int text_image__process_event(struct text_image *ti, struct machine *machine,
			      union perf_event *event, struct perf_sample *sample)
{
	u64 time = sample ? sample->time : 0;
	u8 cpumode = event->header.misc & PERF_RECORD_MISC_CPUMODE_MASK;
	struct build_id bid = {.size = 0};

	if (ti->finished)
		return -EBUSY;
	switch (event->header.type) {
	case PERF_RECORD_TEXT_POKE:
		return ti__text_poke(ti, &event->text_poke, time);
	case PERF_RECORD_KSYMBOL:
		return ti__ksymbol(ti, &event->ksymbol, time);
	case PERF_RECORD_BPF_EVENT:
		if (event->bpf.type == PERF_BPF_EVENT_PROG_LOAD)
			return ti__bpf_load(ti, event->bpf.id, time);
		return 0;
	case PERF_RECORD_MMAP:
		if (cpumode != PERF_RECORD_MISC_KERNEL || event->header.size < sizeof(event->mmap))
			return 0;
		return ti__kernel_mmap(ti, event->mmap.filename,
				       event->header.size - sizeof(event->mmap), event->mmap.start,
				       event->mmap.len, NULL, time);
	case PERF_RECORD_MMAP2:
		if (cpumode != PERF_RECORD_MISC_KERNEL || event->header.size < sizeof(event->mmap2))
			return 0;
		if (event->header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID_BIT) {
			bid.size = event->mmap2.build_id_size > BUILD_ID_SIZE ?
				       BUILD_ID_SIZE :
				       event->mmap2.build_id_size;
			memcpy(bid.data, event->mmap2.build_id, bid.size);
		}
		return ti__kernel_mmap(ti, event->mmap2.filename,
				       event->header.size - sizeof(event->mmap2),
				       event->mmap2.start, event->mmap2.len, &bid, time);
	default:
		return 0;
	}
}

static int ti__keep_verdict(const struct textpoke_check *check, void *arg)
{
	struct text_image *ti = arg;
	struct ti_key key = {check->poke.addr, check->poke.time};
	enum textpoke_verdict v = check->verdict;

	/* its old bytes were the model poke's new ones: compared with themselves */
	if (v == TEXTPOKE_VERIFIED && ti->nr_unchecked &&
	    bsearch(&key, ti->unchecked, ti->nr_unchecked, sizeof(key), ti_key__cmp))
		v = TEXTPOKE_UNKNOWN;
	ti->verdicts[ti->nr_verdicts++] = (struct ti_verdict){
	    check->poke.addr,
	    check->poke.time,
	    v,
	};
	return 0;
}

/*
 * A module's code goes with its life (its free, its init code at the end
 * of init), but no record says so: the last bytes a poke wrote there would
 * stand until the next poke at that address, and when the module is
 * loaded again at the same place, the kernel's poke of the new load
 * (its old bytes the unpatched code again) would be taken for a mismatch.
 * So the last poke of each site in a life is ended by a model poke (new
 * length 0) at the end of that life, as a BPF program's code ends at its
 * unload.
 */
static int ti__end_module_pokes(struct text_image *ti)
{
	for (size_t i = 0; i < ti->nr_mod_pokes; i++) {
		const struct ti_mod_poke *mp = &ti->mod_pokes[i];
		const struct module_load *ml = module_events__find(&ti->mods, mp->addr, mp->time);
		u64 end = ml ? module_load__end(ml, mp->addr) : MODULE_TIME_NONE;
		bool last = true;
		int err;

		if (end == MODULE_TIME_NONE || end <= mp->time)
			continue;
		for (size_t j = 0; j < ti->nr_mod_pokes && last; j++) {
			const struct ti_mod_poke *o = &ti->mod_pokes[j];

			last = j == i || o->addr != mp->addr || o->time < mp->time ||
			       (o->time == mp->time && j < i) || o->time >= end;
		}
		if (!last)
			continue;
		err = ti__jit_poke(ti, end, mp->addr, mp->bytes, mp->len, NULL, 0);
		if (err)
			return err;
	}
	return 0;
}

/*
 * x86-64's module space: from MODULES_VADDR, the end of the kernel image
 * mapping (512 MiB or, with CONFIG_RANDOMIZE_BASE, 1 GiB above
 * __START_KERNEL_map: the lower of the two, as the recording does not say
 * which), to MODULES_END.  Modules, BPF programs and trampolines all live
 * there; the last two come with KSYMBOL records, modules with nothing.
 */
#define X86_64_MODULES_LO 0xffffffffa0000000ULL
#define X86_64_MODULES_HI 0xffffffffff000000ULL

static bool ti__covered_later(const struct text_image *ti, u64 addr, u64 time)
{
	for (size_t i = 0; i < ti->nr_spans; i++) {
		const struct ti_span *s = &ti->spans[i];

		if (addr >= s->start && addr < s->end && s->from > time)
			return true;
	}
	return false;
}

/*
 * Which pokes outside every map fell, most likely, in a module loaded
 * while recording: stock perf record has no event for a module load, so
 * on its recordings the kernel's pokes of a loading module's jump labels
 * and static calls land where nothing is known.  That is a gap the
 * recording was made with, not a sign of lost records.  A recording
 * whose recorder watched module loads (kcore_dir/module_events), or a map
 * that comes at the poked address later (the poke came before the record
 * that should have announced the code), keeps the poke a fault.
 */
static void ti__classify_unmapped(struct text_image *ti)
{
	bool x86_64 = ti->env && ti->env->arch && !strcmp(ti->env->arch, "x86_64");

	ti->stats.nr_unmapped_module_space = 0;
	for (size_t i = 0; i < ti->stats.nr_unmapped; i++) {
		struct text_image_unmapped *u = &ti->unmapped[i];

		u->module_space = x86_64 && !ti->mods.captured && u->addr >= X86_64_MODULES_LO &&
				  u->addr < X86_64_MODULES_HI &&
				  !ti__covered_later(ti, u->addr, u->time);
		ti->stats.nr_unmapped_module_space += u->module_space;
	}
}

int text_image__finish(struct text_image *ti)
{
	size_t n;
	int err;

	if (ti->finished)
		return 0;
	if (ti->stats.nr_obj_unread > TI_OBJECT_WARNINGS)
		pr_warning("the code of %llu more kernel objects is unknown (-v lists them)\n",
			   (unsigned long long)(ti->stats.nr_obj_unread - TI_OBJECT_WARNINGS));
	err = ti__end_module_pokes(ti);
	if (!err)
		err = ti__bound_life_pokes(ti);
	if (err)
		return err;
	if (ti->kcore && ti->anchor == TEXT_IMAGE_ANCHOR_FIT) {
		err = ti__fit(ti);
		if (err)
			return err;
	}
	n = textpoke_image__nr_pokes(ti->img);
	ti->verdicts = calloc(n ?: 1, sizeof(*ti->verdicts));
	if (!ti->verdicts)
		return -ENOMEM;
	ti->nr_verdicts = 0;
	err = textpoke_image__for_each_check(ti->img, ti__keep_verdict, ti);
	if (err)
		return err;
	ti__classify_unmapped(ti);
	ti->finished = true;
	return 0;
}

/*
 * Whether the byte at @addr, known at @time inside module load @ml's
 * life, is the load's own: from its code read at load time, from the
 * kcore copy that saw it, or from a poke of its life.  Else it is
 * another load's code at the same address (a module loaded again where
 * it was before, its init code after the first load's), which the
 * image's bases answer at every time no poke tells apart.
 */
static bool ti__module_byte_own(struct text_image *ti, const struct module_load *ml, u64 addr,
				u64 time)
{
	struct textpoke_poke p;
	bool init = module_range__has(&ml->init, addr);
	const struct module_range *code = init ? &ml->init_text : &ml->text;

	if (ml->in_copy)
		return true;
	if (ml->code && module_range__has(code, addr) && module_load__code_ok(ml, init))
		return true;
	return text_image__poked_before(ti, addr, 1, time, &p) && p.time >= ml->birth;
}

int text_image__read(struct text_image *ti, u64 addr, size_t len, u64 time, u8 *buf, u8 *known)
{
	u8 *kn = known;
	int n;

	/* where modules came or went, nothing was mapped outside their lives */
	if (!known && ti->mods.hi && addr < ti->mods.hi && addr + len > ti->mods.lo) {
		kn = malloc(len ?: 1);
		if (!kn)
			return -ENOMEM;
	}
	n = textpoke_image__read(ti->img, addr, len, time, buf, kn);
	if (n > 0 && kn && ti->mods.hi) {
		n -= module_events__mask(&ti->mods, addr, len, time, kn);
		for (size_t i = 0; i < len; i++) {
			const struct module_load *ml;

			if (kn[i] && addr + i >= ti->mods.lo && addr + i < ti->mods.hi &&
			    (ml = module_events__find(&ti->mods, addr + i, time)) &&
			    !ti__module_byte_own(ti, ml, addr + i, time)) {
				kn[i] = 0;
				n--;
			}
			if (!kn[i])
				buf[i] = 0;
		}
	}
	if (kn != known)
		free(kn);
	return n;
}

struct textpoke_image *text_image__image(struct text_image *ti)
{
	return ti->img;
}

const struct text_image_stats *text_image__stats(const struct text_image *ti)
{
	return &ti->stats;
}

bool text_image__finished(const struct text_image *ti)
{
	return ti->finished;
}

enum textpoke_verdict text_image__verdict(struct text_image *ti, u64 addr, u64 time)
{
	size_t lo = 0, hi = ti->nr_verdicts;

	/* one pass (a pipe): only the poke just added has a verdict yet */
	if (!ti->finished) {
		if (ti->has_live && ti->live.addr == addr && ti->live.time == time)
			return ti->live.verdict;
		return TEXTPOKE_UNKNOWN;
	}

	/*
	 * A walk over a site's pokes in time order (report's) asks for the
	 * one after the last answer: try it before searching 1M of them.
	 */
	if (ti->verdict_next < ti->nr_verdicts && ti->verdicts[ti->verdict_next].addr == addr &&
	    ti->verdicts[ti->verdict_next].time == time)
		return ti->verdicts[ti->verdict_next++].verdict;
	/* address order, then time order: the first at (addr, time) */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct ti_verdict *v = &ti->verdicts[mid];

		if (v->addr < addr || (v->addr == addr && v->time < time))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < ti->nr_verdicts && ti->verdicts[lo].addr == addr &&
	    ti->verdicts[lo].time == time) {
		ti->verdict_next = lo + 1;
		return ti->verdicts[lo].verdict;
	}
	return TEXTPOKE_UNKNOWN;
}

static int ti_key__cmp(const void *a, const void *b)
{
	const struct ti_key *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->time < y->time ? -1 : x->time > y->time;
}

/*
 * Sorted on the first question after a change: the pokes come in time
 * order, the questions (every sample of script -F poked, every site of a
 * report) by address.
 */
bool text_image__is_model_poke(struct text_image *ti, u64 addr, u64 time)
{
	struct ti_key key = {addr, time};

	if (ti->nr_jit_sorted != ti->nr_jit_pokes) {
		qsort(ti->jit_pokes, ti->nr_jit_pokes, sizeof(*ti->jit_pokes), ti_key__cmp);
		ti->nr_jit_sorted = ti->nr_jit_pokes;
	}
	return ti->nr_jit_pokes &&
	       bsearch(&key, ti->jit_pokes, ti->nr_jit_pokes, sizeof(key), ti_key__cmp);
}

bool text_image__poked_before(struct text_image *ti, u64 addr, size_t len, u64 time,
			      struct textpoke_poke *poke)
{
	u64 a = addr, end = addr + len;
	bool found = false;

	while (a < end) {
		struct textpoke_site *site = textpoke_image__site_at(ti->img, a);
		size_t i;

		if (!site) {
			a++;
			continue;
		}
		for (i = textpoke_site__nr_pokes(site); i-- > 0;) {
			struct textpoke_poke p;
			u16 plen;

			if (textpoke_site__poke(site, i, &p) || p.time > time)
				continue;
			plen = p.old_len > p.new_len ? p.old_len : p.new_len;
			if (p.addr >= end || p.addr + plen <= addr ||
			    text_image__is_model_poke(ti, p.addr, p.time))
				continue;
			if (!found || p.time > poke->time) {
				*poke = p;
				found = true;
			}
			break;
		}
		a = textpoke_site__addr(site) + textpoke_site__len(site);
	}
	return found;
}

/* ---- a recording's image in one call ---- */

static int ti__load_side_band(struct perf_tool *tool, union perf_event *event,
			      struct perf_sample *sample, struct evsel *evsel,
			      struct machine *machine)
{
	struct text_image *ti =
	    (struct text_image *)((char *)tool - offsetof(struct text_image, tool));
	int err;

	machine__process_event(machine, event, sample);
	err = text_image__process_event(ti, machine, event, sample);
	/* past the memory cap: keep reading, the image says what it lacks */
	if (err && err != -ENOMEM) {
		/* the session passes a tool's error on without a word */
		pr_err("%s: %s record at time %llu: not added to the text image: %s\n",
		       ti->session->path, perf_event__name(event->header.type),
		       (unsigned long long)(sample ? sample->time : 0), strerror(-err));
		return err;
	}
	if (err && !ti->load_err) {
		pr_warning("text image: memory cap reached, later pokes are missing\n");
		ti->load_err = err;
	}
	return 0;
}

/*
 * A sample's time, from its key alone (no parse, no queueing: the sample
 * is dropped), when its event was opened disabled: stock perf enables
 * those after its kcore copy, so the copy was done before.
 */
static bool ti__load_sample_time(struct perf_tool *tool, const struct evsel *evsel, u64 time,
				 u32 cpu __maybe_unused,
				 const union perf_event *event __maybe_unused)
{
	struct text_image *ti =
	    (struct text_image *)((char *)tool - offsetof(struct text_image, tool));

	if (evsel && evsel->attr.disabled && time && time != (u64)-1 && time < ti->copy_before)
		ti->copy_before = time;
	return true;
}

/* never called: every sample is dropped by ti__load_sample_time() */
static int ti__load_sample(struct perf_tool *tool __maybe_unused,
			   union perf_event *event __maybe_unused,
			   struct perf_sample *sample __maybe_unused,
			   struct evsel *evsel __maybe_unused,
			   struct machine *machine __maybe_unused)
{
	return 0;
}

struct text_image *text_image__load(const char *path, const struct text_image_opts *opts)
{
	struct perf_tool tool = {.side_band = ti__load_side_band,
				 .sample = ti__load_sample,
				 .sample_drop = ti__load_sample_time,
				 .ordered_events = true,
				 .defer_cut = true,
				 .trace_elsewhere = true};
	struct perf_session *session;
	struct text_image *ti;
	int err;

	session = perf_session__new(path, &tool);
	if (!session)
		return NULL;
	machine__set_keep_text_pokes(session->machine, opts && opts->keep_text_pokes);
	if (machine__set_kernel_symbols(session->machine, opts ? opts->kallsyms : NULL,
					opts ? opts->vmlinux : NULL)) {
		perf_session__delete(session);
		errno = ENOMEM;
		return NULL;
	}
	ti = text_image__new(&session->env, perf_session__kcore_dir(session), opts);
	if (!ti) {
		err = -errno;
		perf_session__delete(session);
		errno = -err;
		return NULL;
	}
	/* the tool lives as long as the session, in the image */
	ti->session = session;
	ti->tool = tool;
	/*
	 * The samples' times matter only to fit the moments of a kcore copy
	 * (copy_before): without one, the pass takes no samples, and the
	 * session steps over their bodies unread (most of a recording)
	 */
	if (!ti->kcore || ti->anchor != TEXT_IMAGE_ANCHOR_FIT) {
		ti->tool.sample = NULL;
		ti->tool.sample_drop = NULL;
	}
	session->tool = &ti->tool;
	err = perf_session__process_events(session);
	if (err && session->truncated) {
		/* the command's own pass over the records says it as an error */
		pr_warning("%s: the kernel's code is known up to there\n",
			   perf_session__cut_message(session));
		err = 0;
	}
	if (!err) {
		err = text_image__finish(ti);
		if (err)
			pr_err("%s: the text image cannot be completed: %s\n", path,
			       strerror(-err));
	}
	if (err) {
		text_image__delete(ti);
		errno = -err;
		return NULL;
	}
	return ti;
}

struct machine *text_image__machine(struct text_image *ti)
{
	return ti->session ? ti->session->machine : NULL;
}

const struct perf_env *text_image__env(const struct text_image *ti)
{
	return ti->env;
}

const struct text_image_bpf_load *text_image__bpf_loads(const struct text_image *ti, size_t *nr)
{
	*nr = ti->nr_loads;
	return ti->loads;
}
