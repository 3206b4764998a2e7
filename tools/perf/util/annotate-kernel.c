// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel code for perf textpoke annotate, as it was when the samples were
 * taken.  Stock perf annotates one copy of a kernel function (vmlinux or
 * a kcore copy), so a sample taken while a jump label was a jmp is drawn
 * on a nop.  Here the samples of a kernel symbol are kept with their
 * times, and the pokes inside the symbol cut the recording into versions:
 *
 *   time ->   start      poke t1          poke t2              end
 *   version   |    0     |       1        |        2           |
 *   samples     x  x         x x x x           x
 *
 * version k runs from the k-th distinct poke time inside the symbol
 * (a poke at t is in the code read at t, as textpoke_image__read() says)
 * up to the next one.  Each version with samples is one block, its bytes
 * read from the text image at its first sample's time, its percentages
 * of its own samples.  A symbol no TEXT_POKE changed is one block, as user
 * code is.
 *
 * The text image comes from a side-band pass of its own (text_image__load(),
 * as report builds it), made once, when the first kernel symbol is printed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "annotate-internal.h"
#include "annotate-kernel.h"
#include "debug.h"
#include "disasm.h"
#include "dso.h"
#include "kprobe-site.h"
#include "symbol.h"
#include "text-image.h"

struct annotate_ksample {
	u64 time;
	u64 period;
	u64 off;
};

struct annotate_ksym {
	u64 start; /* the symbol's first address in the kernel */
	struct annotate_ksample *samples;
	size_t nr, alloc;
};

/* a poked site of the image: the range it covers */
struct ak_site {
	u64 addr, end;
	struct textpoke_site *site;
};

struct annotate_kernel {
	const struct annotate_opts *opts;
	struct text_image *ti;
	bool loaded; /* tried: ti is NULL when it failed */
	struct ak_site *sites;
	size_t nr_sites, alloc_sites;
};

/* a poke inside a symbol */
struct ak_poke {
	u64 time, addr;
	const u8 *old_bytes, *new_bytes; /* the image's, which no longer changes */
	u16 old_len, new_len;
	bool model; /* not a TEXT_POKE: a JIT image or object coming or going */
};

struct annotate_kernel *annotate_kernel__new(const struct annotate_opts *opts)
{
	struct annotate_kernel *ak = calloc(1, sizeof(*ak));

	if (ak)
		ak->opts = opts;
	return ak;
}

void annotate_kernel__delete(struct annotate_kernel *ak)
{
	if (!ak)
		return;
	free(ak->sites);
	text_image__delete(ak->ti);
	free(ak);
}

int annotate_kernel__sample(struct annotate_sym *as, u64 ip, u64 off, u64 time, u64 period)
{
	struct annotate_ksym *ks = as->ksym;

	if (!ks) {
		ks = calloc(1, sizeof(*ks));
		if (!ks)
			return -ENOMEM;
		ks->start = ip - off;
		as->ksym = ks;
	}
	if (ks->nr == ks->alloc) {
		size_t n = 2 * ks->alloc + 16;
		struct annotate_ksample *p = realloc(ks->samples, n * sizeof(*p));

		if (!p)
			return -ENOMEM;
		ks->samples = p;
		ks->alloc = n;
	}
	ks->samples[ks->nr++] = (struct annotate_ksample){time, period, off};
	return 0;
}

int annotate_kernel__send(const struct annotate_sym *as, FILE *fp)
{
	const struct annotate_ksym *ks = as->ksym;
	u64 head[2] = {ks ? ks->nr : 0, ks ? ks->start : 0};

	if (fwrite(head, sizeof(head), 1, fp) != 1 ||
	    (head[0] && fwrite(ks->samples, sizeof(*ks->samples), ks->nr, fp) != ks->nr))
		return -EIO;
	return 0;
}

int annotate_kernel__merge(struct annotate_sym *as, FILE *fp)
{
	struct annotate_ksample ksample;
	u64 head[2];
	int err;

	if (fread(head, sizeof(head), 1, fp) != 1)
		return -ENODATA;
	/* one read at a time: a count is only as good as the bytes that follow it */
	for (u64 i = 0; i < head[0]; i++) {
		if (fread(&ksample, sizeof(ksample), 1, fp) != 1)
			return -ENODATA;
		err = annotate_kernel__sample(as, head[1] + ksample.off, ksample.off, ksample.time,
					      ksample.period);
		if (err)
			return err;
	}
	return 0;
}

void annotate_kernel__sym_exit(struct annotate_sym *as)
{
	if (!as->ksym)
		return;
	free(as->ksym->samples);
	free(as->ksym);
	as->ksym = NULL;
}

static int ak__add_site(struct textpoke_site *site, void *arg)
{
	struct annotate_kernel *ak = arg;

	if (ak->nr_sites == ak->alloc_sites) {
		size_t n = 2 * ak->alloc_sites + 64;
		struct ak_site *p = realloc(ak->sites, n * sizeof(*p));

		if (!p)
			return -ENOMEM;
		ak->sites = p;
		ak->alloc_sites = n;
	}
	ak->sites[ak->nr_sites].addr = textpoke_site__addr(site);
	ak->sites[ak->nr_sites].end = textpoke_site__addr(site) + textpoke_site__len(site);
	ak->sites[ak->nr_sites].site = site;
	ak->nr_sites++;
	return 0;
}

/*
 * The text image, built on first use.  -ENOENT when it cannot be (said
 * once), -ENOMEM.
 */
static int ak__load(struct annotate_kernel *ak)
{
	const char *input = ak->opts->input;
	struct stat st;
	int err;

	if (ak->loaded)
		return ak->ti ? 0 : -ENOENT;
	ak->loaded = true;
	/* a second pass reads the file again: a pipe is gone by now */
	if (!strcmp(input, "-") || stat(input, &st) || S_ISFIFO(st.st_mode)) {
		pr_warning("%s: a pipe is read once: kernel code needs a file, kernel symbols "
			   "are not annotated\n",
			   input);
		return -ENOENT;
	}
	ak->ti = text_image__load(input, &ak->opts->text);
	if (!ak->ti) {
		pr_warning("%s: the kernel's code over time cannot be built: kernel symbols are "
			   "not annotated\n",
			   input);
		return -ENOENT;
	}
	/* the image is finished: its sites stay as they are, in address order */
	err = textpoke_image__for_each_site(text_image__image(ak->ti), ak__add_site, ak);
	return err == -ENOMEM ? err : 0;
}

static int ak_poke__cmp(const void *pa, const void *pb)
{
	const struct ak_poke *a = pa, *b = pb;

	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

static int ak_sample__cmp(const void *pa, const void *pb)
{
	const struct annotate_ksample *a = pa, *b = pb;

	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	return a->off < b->off ? -1 : a->off > b->off;
}

/* every poke that wrote a byte of [@start, @end), in time order, into a malloc'ed *@out */
static int ak__pokes(struct annotate_kernel *ak, u64 start, u64 end, struct ak_poke **out,
		     size_t *nr_out)
{
	struct ak_poke *pokes = NULL;
	size_t lo = 0, hi = ak->nr_sites, nr = 0, alloc = 0, i, j;

	/* the first site that ends past @start */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ak->sites[mid].end <= start)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i < ak->nr_sites && ak->sites[i].addr < end; i++) {
		struct textpoke_site *site = ak->sites[i].site;

		for (j = 0; j < textpoke_site__nr_pokes(site); j++) {
			struct textpoke_poke p;
			u16 len;

			if (textpoke_site__poke(site, j, &p))
				continue;
			len = p.old_len > p.new_len ? p.old_len : p.new_len;
			if (p.addr >= end || p.addr + len <= start)
				continue;
			if (nr == alloc) {
				struct ak_poke *n;

				alloc = 2 * alloc + 8;
				n = realloc(pokes, alloc * sizeof(*n));
				if (!n) {
					free(pokes);
					return -ENOMEM;
				}
				pokes = n;
			}
			pokes[nr++] = (struct ak_poke){
			    .time = p.time,
			    .addr = p.addr,
			    .old_bytes = p.old_bytes,
			    .new_bytes = p.new_bytes,
			    .old_len = p.old_len,
			    .new_len = p.new_len,
			    .model = text_image__is_model_poke(ak->ti, p.addr, p.time),
			};
		}
	}
	if (nr)
		qsort(pokes, nr, sizeof(*pokes), ak_poke__cmp);
	*out = pokes;
	*nr_out = nr;
	return 0;
}

static const char *ak__time(char *buf, size_t size, u64 t)
{
	snprintf(buf, size, "%llu.%09llu", (unsigned long long)(t / 1000000000ULL),
		 (unsigned long long)(t % 1000000000ULL));
	return buf;
}

/* the BPF program load @ks's samples fell in, if it is one */
static const struct text_image_bpf_load *ak__bpf_load(struct annotate_kernel *ak,
						      const struct annotate_ksym *ks)
{
	const struct text_image_bpf_load *loads;
	size_t nr, i;
	u64 t = ks->samples[0].time;

	loads = text_image__bpf_loads(ak->ti, &nr);
	for (i = nr; i-- > 0;)
		if (loads[i].addr == ks->start && loads[i].load_time <= t &&
		    t < loads[i].unload_time)
			return &loads[i];
	return NULL;
}

/*
 * Version @v of @nr_v of a symbol whose code changed at @times: its span,
 * and the poke that made it (the first at its time)
 */
static void ak__version(struct annotate_kernel *ak, struct annotate_version *ver, size_t v,
			size_t nr_v, const u64 *times, const struct ak_poke *pokes, size_t nr_pokes)
{
	const struct ak_poke *p;
	size_t i, first = 0, same = 0;

	memset(ver, 0, sizeof(*ver));
	ver->index = v;
	ver->count = nr_v;
	ver->start = v ? times[v - 1] : 0;
	ver->end = v + 1 < nr_v ? times[v] : UINT64_MAX;
	if (!v)
		return;
	for (i = 0; i < nr_pokes; i++) {
		if (pokes[i].time != times[v - 1])
			continue;
		if (!same++)
			first = i;
	}
	p = &pokes[first];
	ver->poke.model = p->model;
	ver->poke.time = p->time;
	ver->poke.addr = p->addr;
	ver->poke.old_bytes = p->old_bytes;
	ver->poke.new_bytes = p->new_bytes;
	ver->poke.old_len = p->old_len;
	ver->poke.new_len = p->new_len;
	ver->poke.nr_more = same - 1;
	/* what it changed, as script --show-text-poke-events says it, and its verdict */
	if (!p->model) {
		disasm__describe(p->old_bytes, p->old_len, p->addr, ver->poke.old_text,
				 sizeof(ver->poke.old_text), NULL, NULL);
		disasm__describe(p->new_bytes, p->new_len, p->addr, ver->poke.new_text,
				 sizeof(ver->poke.new_text), NULL, NULL);
		ver->poke.verdict =
		    textpoke_verdict__str(text_image__verdict(ak->ti, p->addr, p->time));
	}
}

/* the BPF program's load @as's samples fell in: false when it is not one */
static bool ak__load_version(struct annotate_kernel *ak, const struct annotate_sym *as,
			     struct annotate_version *ver)
{
	const struct text_image_bpf_load *l = ak__bpf_load(ak, as->ksym);

	if (!l)
		return false;
	memset(ver, 0, sizeof(*ver));
	ver->bpf = true;
	ver->count = 1;
	ver->bpf_id = l->id;
	ver->start = l->load_time;
	ver->end = l->unload_time;
	return true;
}

/* perf script's words for a TEXT_POKE: addr, old len, new len */
void annotate_version__title(const struct annotate_version *v, const char *name, char *buf,
			     size_t size)
{
	char a[32], b[32];
	int n;

	if (v->bpf) {
		snprintf(buf, size, "# %s: BPF program %u, loaded at %s, %s%s", name, v->bpf_id,
			 ak__time(a, sizeof(a), v->start),
			 v->end == UINT64_MAX ? "still loaded at the end" : "unloaded at ",
			 v->end == UINT64_MAX ? "" : ak__time(b, sizeof(b), v->end));
		return;
	}
	n = snprintf(buf, size, "# %s, version %zu of %zu: %s to %s", name, v->index + 1, v->count,
		     v->index ? ak__time(a, sizeof(a), v->start) : "start",
		     v->end != UINT64_MAX ? ak__time(b, sizeof(b), v->end) : "end");
	if (n < 0 || (size_t)n >= size)
		return;
	if (!v->index) {
		snprintf(buf + n, size - n, ", before its first poke");
		return;
	}
	n += snprintf(buf + n, size - n, ", made by the %s at %s addr %#llx old len %u new len %u",
		      v->poke.model ? "code load" : "poke", ak__time(a, sizeof(a), v->poke.time),
		      (unsigned long long)v->poke.addr, v->poke.old_len, v->poke.new_len);
	if (!v->poke.model && (size_t)n < size)
		n += snprintf(buf + n, size - n, ": %s -> %s (%s)", v->poke.old_text,
			      v->poke.new_text, v->poke.verdict);
	if (v->poke.nr_more && (size_t)n < size)
		snprintf(buf + n, size - n, " (and %zu more then)", v->poke.nr_more);
}

int annotate_output__text_code(struct annotate_output *out, const struct annotate_sym *as,
			       const struct annotate_code *code,
			       const struct annotate_totals *totals,
			       const struct annotate_version *ver)
{
	char title[512];

	if (ver) {
		annotate_version__title(ver, symbol__name(as->sym), title, sizeof(title));
		fprintf(out->fp, "%s\n", title);
	}
	return annotate_code__fprintf(as, code, totals, out->opts, out->fp);
}

/* where a version's kprobes are looked up: its image at its time */
struct ak_kprobes {
	struct annotate_kernel *ak;
	u64 time;
};

/*
 * The kprobe whose instructions cover @addr at the version's time: one
 * armed at a poked site at or a few bytes before @addr (an optimized
 * probe's jmp covers the instructions of 5 bytes or more).  A probe whose
 * instruction no slot tells (orig_len 0) is none: its int3 is listed.
 */
static bool ak__kprobe_at(void *arg, u64 addr, struct kprobe_site *kp, u64 *site)
{
	const struct ak_kprobes *k = arg;
	const struct annotate_kernel *ak = k->ak;
	size_t lo = 0, hi = ak->nr_sites;

	/* the first site past @addr; the sites are in address order */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ak->sites[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo > 0 && addr - ak->sites[lo - 1].addr < 2 * INSN_LEN_MAX; lo--) {
		const struct ak_site *s = &ak->sites[lo - 1];

		/* an int3 stands for one instruction, a jmp for those it covers */
		if (kprobe_site__find(ak->ti, s->addr, k->time, kp) == 1 &&
		    addr - s->addr < kp->orig_len && (kp->optimized || addr == s->addr)) {
			*site = s->addr;
			return true;
		}
	}
	return false;
}

/*
 * One version's block to @out, @ver (NULL: none) its version: its
 * samples @s[0..@n), its bytes at the first one's time.  1 when those are
 * not known (nothing written), 0, or -errno.
 */
static int ak__write_block(struct annotate_kernel *ak, const struct annotate_sym *as,
			   const struct annotate_version *ver, const struct annotate_ksample *s,
			   size_t n, const struct annotate_totals *totals,
			   struct annotate_output *out)
{
	const struct annotate_ksym *ks = as->ksym;
	u64 len = as->sym->end - as->sym->start, known_len, outside = 0;
	struct annotate_sym vs = *as;
	struct ak_kprobes kprobes = {ak, s[0].time};
	struct annotate_code code;
	u8 *buf, *known;
	char t[32];
	size_t i;
	int err = -ENOMEM;

	buf = malloc(len);
	known = malloc(len);
	vs.hits = calloc(len, sizeof(*vs.hits));
	if (!buf || !known || !vs.hits)
		goto out;
	vs.nr_samples = vs.period = 0;
	for (i = 0; i < n; i++) {
		vs.hits[s[i].off].nr++;
		vs.hits[s[i].off].period += s[i].period;
		vs.nr_samples++;
		vs.period += s[i].period;
	}
	err = text_image__read(ak->ti, ks->start, len, s[0].time, buf, known);
	if (err < 0)
		goto out;
	/* what is known from the symbol's start: a trampoline's body in its page */
	for (known_len = 0; known_len < len && known[known_len]; known_len++)
		;
	err = 1;
	if (!known_len)
		goto out;
	memset(&code, 0, sizeof(code));
	code.bytes = buf;
	code.len = known_len;
	code.vaddr = ks->start;
	code.elf64 = true;
	/* a kprobed instruction as it was, as perf textpoke code shows it */
	code.kprobe_at = ak__kprobe_at;
	code.kprobe_arg = &kprobes;
	/*
	 * Branch targets are named after the kernel's symbols where the
	 * object's addresses are the kernel's ([kernel.kallsyms]); a KSYMBOL
	 * or module symbol names those inside itself
	 */
	code.nr_loads = 1;
	if (as->sym->start == ks->start) {
		code.loads[0].size = UINT64_MAX;
	} else {
		code.loads[0].offset = as->sym->start;
		code.loads[0].vaddr = ks->start;
		code.loads[0].size = len;
	}
	err = out->code(out, &vs, &code, totals, ver);
	for (i = 0; i < n; i++)
		outside += s[i].off >= known_len;
	if (!err && outside && !ak->opts->skip_missing && !out->quiet)
		pr_warning("%s: %llu sample%s of %s at %s fell past its known bytes (+%#llx)\n",
			   ak->opts->input, (unsigned long long)outside, outside > 1 ? "s" : "",
			   symbol__name(as->sym), ak__time(t, sizeof(t), s[0].time),
			   (unsigned long long)known_len);
out:
	free(buf);
	free(known);
	free(vs.hits);
	return err;
}

int annotate_kernel__write(struct annotate_kernel *ak, const struct annotate_sym *as,
			   const struct annotate_totals *totals, struct annotate_output *out)
{
	struct annotate_ksym *ks = as->ksym;
	struct ak_poke *pokes = NULL;
	u64 *times = NULL;
	size_t nr_pokes = 0, nr_times = 0, nr_real = 0, nr_blocks = 0, nr_missing = 0, i, from, v;
	struct annotate_version ver, *pv;
	int err;

	if (!ks || !ks->nr)
		return 0;
	err = ak__load(ak);
	if (err)
		return err == -ENOMEM ? err : 0;
	err = ak__pokes(ak, ks->start, ks->start + (as->sym->end - as->sym->start), &pokes,
			&nr_pokes);
	if (err)
		return err;
	/* the distinct times at which the symbol's code changed */
	times = malloc((nr_pokes ?: 1) * sizeof(*times));
	if (!times) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < nr_pokes; i++) {
		nr_real += !pokes[i].model;
		if (!nr_times || times[nr_times - 1] != pokes[i].time)
			times[nr_times++] = pokes[i].time;
	}
	qsort(ks->samples, ks->nr, sizeof(*ks->samples), ak_sample__cmp);
	for (from = 0, v = 0; from < ks->nr;) {
		size_t to = from;

		/* the version live at the sample: after every change at or before its time */
		while (v < nr_times && times[v] <= ks->samples[from].time)
			v++;
		while (to < ks->nr && (v == nr_times || ks->samples[to].time < times[v]))
			to++;
		pv = NULL;
		if (nr_real) {
			ak__version(ak, &ver, v, nr_times + 1, times, pokes, nr_pokes);
			pv = &ver;
		} else if (as->dso->kind == DSO_KIND__KSYMBOL && ak__load_version(ak, as, &ver)) {
			/* a program loaded again at one address is another KSYMBOL, another block */
			pv = &ver;
		}
		err = ak__write_block(ak, as, pv, ks->samples + from, to - from, totals, out);
		if (err < 0)
			goto out;
		nr_missing += err;
		nr_blocks++;
		from = to;
	}
	err = 0;
	/* one line per symbol, however many of its versions lack their bytes */
	if (out->quiet || ak->opts->skip_missing || !nr_missing)
		goto out;
	if (nr_missing == nr_blocks && as->dso->kind == DSO_KIND__KSYMBOL && as->has_birth) {
		/* a program's loads share its name and often its address: said apart */
		char t[32];

		pr_warning("%s: cannot annotate %s (%s), loaded at %s: its code is not known (no "
			   "kcore copy, vmlinux or JIT image holds it)\n",
			   ak->opts->input, symbol__name(as->sym), as->dso->short_name,
			   ak__time(t, sizeof(t), as->birth));
	} else if (nr_missing == nr_blocks) {
		pr_warning("%s: cannot annotate %s (%s): its code is not known (no kcore copy, "
			   "vmlinux or JIT image holds it)\n",
			   ak->opts->input, symbol__name(as->sym), as->dso->short_name);
	} else {
		pr_warning(
		    "%s: cannot annotate %s (%s) in %zu of its %zu versions with samples: "
		    "their code is not known (no kcore copy, vmlinux or JIT image holds it)\n",
		    ak->opts->input, symbol__name(as->sym), as->dso->short_name, nr_missing,
		    nr_blocks);
	}
out:
	free(times);
	free(pokes);
	return err;
}
