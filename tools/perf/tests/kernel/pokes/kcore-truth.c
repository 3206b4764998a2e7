// SPDX-License-Identifier: GPL-2.0-only
/*
 * kcore-truth: the guest's ground truth for the text-poke experiments, the
 * kernel's own code read from /proc/kcore at chosen moments and tied to
 * perf's clock.  Built static on the host, run in the rig's guest.
 *
 *   kcore-truth init STATE OUTDIR        moment 0: the whole image
 *   kcore-truth read STATE OUTDIR N KIND moment N (KIND: quiet, busy, ...)
 *
 * What is read: the kernel's text (_stext.._etext, from /proc/kallsyms)
 * and every page of the module area (the kcore segment holding
 * 0xffffffffc0000000) that a vmalloc area maps, per /proc/vmallocinfo:
 * modules, BPF programs, ftrace trampolines and kprobe slots all live
 * there.  /proc/kcore reads a page no area maps as zeros, so such pages are
 * never read and are said unmapped instead.
 *
 * Perf's clock is the kernel's local clock, which user space cannot read
 * (CLOCK_MONOTONIC differs by milliseconds).  So the moment is told to
 * perf: before each piece (a chunk of at most 1 MiB) the task renames
 * itself with prctl(PR_SET_NAME, "truth:N.K"), after the last one
 * "truth:N.end", and every COMM record perf writes for those carries
 * perf's time: the bytes of chunk K were read between the times of the
 * COMM records of its marker and of the next one.
 *
 * The output is a delta against the image the state directory keeps (the
 * previous moment of this boot, whatever recording it belonged to): the
 * host replays moments 0, 1, 2, ... in order.
 *
 *   OUTDIR/N.idx    text: "moment N KIND", "layout STEXT ETEXT MODSTART
 *                   MODEND", then "chunk K" and its
 *                   "range START END" lines, "mapped START END" and
 *                   "flux START END" for the module area (flux: mapped by
 *                   only one of the vmallocinfo reads before and after),
 *                   "vmalloc START END PAGES CALLER" as read before
 *   OUTDIR/N.pages  records of u64 address + 4096 bytes: the pages that
 *                   differ from the previous image (the image starts as
 *                   zeros)
 */
#include <errno.h>
#include <fcntl.h>
#include <elf.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#define PAGE 4096ULL
#define CHUNK (1ULL << 20)
#define MODULES_START 0xffffffffc0000000ULL
#define MAX_AREAS 4096
#define MAX_RANGES 8192

struct range {
	uint64_t start, end;
};

struct area {
	uint64_t start, end, pages;
	char caller[64];
};

static const char *state_dir, *out_dir;
static int kcore_fd;
static Elf64_Phdr *phdrs;
static int nr_phdrs;

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "kcore-truth: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

static void kcore_open(void)
{
	Elf64_Ehdr eh;

	kcore_fd = open("/proc/kcore", O_RDONLY);
	if (kcore_fd < 0)
		die("/proc/kcore: %s", strerror(errno));
	if (pread(kcore_fd, &eh, sizeof(eh), 0) != sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_phentsize != sizeof(Elf64_Phdr))
		die("/proc/kcore: not a 64-bit ELF core");
	nr_phdrs = eh.e_phnum;
	phdrs = calloc(nr_phdrs, sizeof(*phdrs));
	if (!phdrs || pread(kcore_fd, phdrs, nr_phdrs * sizeof(*phdrs), eh.e_phoff) !=
			  (ssize_t)(nr_phdrs * sizeof(*phdrs)))
		die("/proc/kcore: cannot read its %d program headers", nr_phdrs);
}

static const Elf64_Phdr *kcore_segment(uint64_t addr)
{
	int i;

	for (i = 0; i < nr_phdrs; i++)
		if (phdrs[i].p_type == PT_LOAD && addr >= phdrs[i].p_vaddr &&
		    addr - phdrs[i].p_vaddr < phdrs[i].p_memsz)
			return &phdrs[i];
	return NULL;
}

/* [start, end) of the kernel's memory, all inside one kcore segment */
static void kcore_read(uint64_t start, uint64_t end, unsigned char *buf)
{
	const Elf64_Phdr *ph = kcore_segment(start);
	uint64_t off;
	ssize_t n;

	if (!ph || end - ph->p_vaddr > ph->p_memsz)
		die("/proc/kcore: no segment holds %#llx..%#llx", (unsigned long long)start,
		    (unsigned long long)end);
	off = ph->p_offset + (start - ph->p_vaddr);
	while (start < end) {
		n = pread(kcore_fd, buf, end - start, off);
		if (n <= 0)
			die("/proc/kcore: read at %#llx: %s", (unsigned long long)start,
			    n ? strerror(errno) : "end of file");
		start += n, off += n, buf += n;
	}
}

static void set_name(const char *fmt, ...)
{
	char name[16];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	if (prctl(PR_SET_NAME, name))
		die("prctl(PR_SET_NAME, %s): %s", name, strerror(errno));
}

static uint64_t kallsyms_addr(const char *want)
{
	char line[512], name[256], type;
	unsigned long long addr;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		die("/proc/kallsyms: %s", strerror(errno));
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) == 3 && !strcmp(name, want)) {
			fclose(f);
			if (!addr)
				die("/proc/kallsyms: %s at 0 (kptr_restrict?)", want);
			return addr;
		}
	die("/proc/kallsyms: no %s", want);
	return 0;
}

/* the vmalloc areas in the module area, as /proc/vmallocinfo lists them */
static int vmalloc_areas(struct area *areas, uint64_t mod_end)
{
	char line[512];
	unsigned long long s, e;
	int n = 0, len;
	const char *p;
	FILE *f = fopen("/proc/vmallocinfo", "r");

	if (!f)
		die("/proc/vmallocinfo: %s", strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "0x%llx-0x%llx %*u %n", &s, &e, &len) != 2)
			continue;
		if (s < MODULES_START || s >= mod_end)
			continue;
		if (n == MAX_AREAS)
			die("/proc/vmallocinfo: more than %d areas in the module area", MAX_AREAS);
		areas[n].start = s;
		areas[n].end = e;
		/* a lazily freed area ("unpurged vm_area") maps nothing */
		p = strstr(line, " pages=");
		areas[n].pages = p ? strtoull(p + 7, NULL, 10) : 0;
		sscanf(line + len, "%63s", areas[n].caller);
		n++;
	}
	fclose(f);
	return n;
}

/*
 * The pages mapped by the areas, as sorted, merged ranges.  An area's
 * pages start at its address; its end includes the guard page.
 */
static int mapped_ranges(const struct area *a, int n, struct range *r)
{
	int i, j, nr = 0;
	struct range t;

	for (i = 0; i < n; i++) {
		if (!a[i].pages)
			continue;
		t.start = a[i].start;
		t.end = a[i].start + a[i].pages * PAGE;
		if (t.end > a[i].end)
			t.end = a[i].end;
		for (j = nr; j > 0 && r[j - 1].start > t.start; j--)
			r[j] = r[j - 1];
		r[j] = t;
		nr++;
	}
	for (i = 0, j = 0; i < nr; i++) {
		if (j && r[i].start <= r[j - 1].end) {
			if (r[i].end > r[j - 1].end)
				r[j - 1].end = r[i].end;
		} else {
			r[j++] = r[i];
		}
	}
	return j;
}

static int in_ranges(const struct range *r, int n, uint64_t page)
{
	int i;

	for (i = 0; i < n; i++)
		if (page >= r[i].start && page < r[i].end)
			return 1;
	return 0;
}

/* ranges of pages mapped in both a and b (both), or in one only (flux) */
static int split_ranges(const struct range *a, int na, const struct range *b, int nb,
			struct range *out, int want_both)
{
	int i, n = 0, both;
	uint64_t p;
	const struct range *src[2] = {a, b};
	int nsrc[2] = {na, nb}, k;

	for (k = 0; k < 2; k++)
		for (i = 0; i < nsrc[k]; i++)
			for (p = src[k][i].start; p < src[k][i].end; p += PAGE) {
				both = in_ranges(a, na, p) && in_ranges(b, nb, p);
				if (both != want_both || (k == 1 && in_ranges(a, na, p)))
					continue;
				if (n && out[n - 1].end == p)
					out[n - 1].end += PAGE;
				else if (n < MAX_RANGES)
					out[n++] = (struct range){p, p + PAGE};
				else
					die("too many module-area ranges");
			}
	return n;
}

static void state_path(char *buf, size_t sz, const char *name)
{
	snprintf(buf, sz, "%s/%s", state_dir, name);
}

struct layout {
	uint64_t stext, etext, mod_start, mod_end;
};

static void layout_load(struct layout *l)
{
	char path[4096];
	unsigned long long v[4];
	FILE *f;

	state_path(path, sizeof(path), "layout");
	f = fopen(path, "r");
	if (!f || fscanf(f, "%llx %llx %llx %llx", &v[0], &v[1], &v[2], &v[3]) != 4)
		die("%s: no layout (run kcore-truth init first)", path);
	fclose(f);
	*l = (struct layout){v[0], v[1], v[2], v[3]};
}

static void layout_init(struct layout *l)
{
	const Elf64_Phdr *ph = kcore_segment(MODULES_START);
	char path[4096];
	FILE *f;

	l->stext = kallsyms_addr("_stext");
	l->etext = kallsyms_addr("_etext");
	if (!ph)
		die("/proc/kcore: no segment holds the module area at %#llx", MODULES_START);
	l->mod_start = MODULES_START;
	l->mod_end = ph->p_vaddr + ph->p_memsz;
	state_path(path, sizeof(path), "layout");
	f = fopen(path, "w");
	if (!f)
		die("%s: %s", path, strerror(errno));
	fprintf(f, "%llx %llx %llx %llx\n", (unsigned long long)l->stext,
		(unsigned long long)l->etext, (unsigned long long)l->mod_start,
		(unsigned long long)l->mod_end);
	fclose(f);
}

/*
 * The image of the previous moment: text.img (stext..etext) and mod.img,
 * a sparse file of the module area, indexed by address - mod_start.
 */
static int image_open(const char *name)
{
	char path[4096];
	int fd;

	state_path(path, sizeof(path), name);
	fd = open(path, O_RDWR | O_CREAT, 0644);
	if (fd < 0)
		die("%s: %s", path, strerror(errno));
	return fd;
}

struct piece {
	uint64_t start, end;
	unsigned char *buf;
	int chunk;
};

int main(int argc, char **argv)
{
	static struct area before[MAX_AREAS], after[MAX_AREAS];
	static struct range mb[MAX_RANGES], ma[MAX_RANGES], both[MAX_RANGES], flux[MAX_RANGES];
	static struct piece pieces[MAX_RANGES + 64];
	unsigned char old[PAGE];
	struct layout l;
	int init, n, nb, na, nmb, nma, nboth, nflux, npieces = 0, chunk = 0, i, text_fd, mod_fd;
	uint64_t a, chunk_bytes = 0, len, start;
	char path[4096];
	const char *kind;
	FILE *idx, *pages;

	if (argc < 4 || (strcmp(argv[1], "init") && strcmp(argv[1], "read")) ||
	    (!strcmp(argv[1], "read") && argc != 6)) {
		fprintf(stderr, "usage: kcore-truth init STATE OUTDIR\n"
				"       kcore-truth read STATE OUTDIR N KIND\n");
		return 129;
	}
	init = !strcmp(argv[1], "init");
	state_dir = argv[2];
	out_dir = argv[3];
	n = init ? 0 : atoi(argv[4]);
	kind = init ? "base" : argv[5];
	mkdir(state_dir, 0755);
	mkdir(out_dir, 0755);
	kcore_open();
	if (init)
		layout_init(&l);
	else
		layout_load(&l);

	nb = vmalloc_areas(before, l.mod_end);
	/*
	 * The guest loads its disk modules before any experiment, so the
	 * module area is never empty: no area at all means vmallocinfo
	 * printed hashed addresses (%pK with kptr_restrict 0), and reading
	 * nothing there would pass for a moment with nothing mapped.
	 */
	if (!nb)
		die("/proc/vmallocinfo: no area in the module area (hashed addresses? "
		    "set kernel.kptr_restrict to 1)");
	nmb = mapped_ranges(before, nb, mb);

	/* the pieces in address order: text in chunks, then the module area */
	for (start = l.stext; start < l.etext; start += CHUNK) {
		len = l.etext - start < CHUNK ? l.etext - start : CHUNK;
		pieces[npieces++] = (struct piece){start, start + len, NULL, chunk++};
	}
	for (i = 0; i < nmb; i++)
		for (start = mb[i].start; start < mb[i].end; start += len) {
			len = mb[i].end - start < CHUNK ? mb[i].end - start : CHUNK;
			if (chunk_bytes + len > CHUNK || !chunk_bytes) {
				chunk++;
				chunk_bytes = 0;
			}
			chunk_bytes += len;
			pieces[npieces++] = (struct piece){start, start + len, NULL, chunk - 1};
		}
	for (i = 0; i < npieces; i++) {
		pieces[i].buf = malloc(pieces[i].end - pieces[i].start);
		if (!pieces[i].buf)
			die("out of memory");
	}

	/* the read itself, between the markers and nothing else */
	for (i = 0; i < npieces; i++) {
		if (!i || pieces[i].chunk != pieces[i - 1].chunk)
			set_name("truth:%d.%d", n, pieces[i].chunk);
		kcore_read(pieces[i].start, pieces[i].end, pieces[i].buf);
	}
	set_name("truth:%d.end", n);
	set_name("kcore-truth");

	na = vmalloc_areas(after, l.mod_end);
	nma = mapped_ranges(after, na, ma);
	nboth = split_ranges(mb, nmb, ma, nma, both, 1);
	nflux = split_ranges(mb, nmb, ma, nma, flux, 0);

	snprintf(path, sizeof(path), "%s/%d.idx", out_dir, n);
	idx = fopen(path, "w");
	snprintf(path, sizeof(path), "%s/%d.pages", out_dir, n);
	pages = fopen(path, "w");
	if (!idx || !pages)
		die("%s: %s", path, strerror(errno));
	fprintf(idx, "moment %d %s\n", n, kind);
	fprintf(idx, "layout %llx %llx %llx %llx\n", (unsigned long long)l.stext,
		(unsigned long long)l.etext, (unsigned long long)l.mod_start,
		(unsigned long long)l.mod_end);
	for (i = 0; i < npieces; i++) {
		if (!i || pieces[i].chunk != pieces[i - 1].chunk)
			fprintf(idx, "chunk %d\n", pieces[i].chunk);
		fprintf(idx, "range %llx %llx\n", (unsigned long long)pieces[i].start,
			(unsigned long long)pieces[i].end);
	}
	for (i = 0; i < nboth; i++)
		fprintf(idx, "mapped %llx %llx\n", (unsigned long long)both[i].start,
			(unsigned long long)both[i].end);
	for (i = 0; i < nflux; i++)
		fprintf(idx, "flux %llx %llx\n", (unsigned long long)flux[i].start,
			(unsigned long long)flux[i].end);
	for (i = 0; i < nb; i++)
		fprintf(idx, "vmalloc %llx %llx %llu %s\n", (unsigned long long)before[i].start,
			(unsigned long long)before[i].end, (unsigned long long)before[i].pages,
			before[i].caller);

	/* the delta: pages that differ from the previous image, which they replace */
	text_fd = image_open("text.img");
	mod_fd = image_open("mod.img");
	for (i = 0; i < npieces; i++) {
		int fd = pieces[i].start < l.mod_start ? text_fd : mod_fd;
		uint64_t base = pieces[i].start < l.mod_start ? l.stext : l.mod_start;

		for (a = pieces[i].start; a < pieces[i].end; a += len) {
			unsigned char *cur = pieces[i].buf + (a - pieces[i].start);
			ssize_t got;

			/* the last text page ends at _etext */
			len = pieces[i].end - a < PAGE ? pieces[i].end - a : PAGE;
			got = pread(fd, old, len, a - base);
			if (got < 0)
				die("state image: %s", strerror(errno));
			memset(old + got, 0, PAGE - got);
			if (!memcmp(old, cur, len))
				continue;
			if (pwrite(fd, cur, len, a - base) != (ssize_t)len)
				die("state image: %s", strerror(errno));
			memset(old, 0, PAGE);
			memcpy(old, cur, len);
			if (fwrite(&a, sizeof(a), 1, pages) != 1 ||
			    fwrite(old, PAGE, 1, pages) != 1)
				die("%s/%d.pages: %s", out_dir, n, strerror(errno));
		}
	}
	if (fclose(idx) || fclose(pages))
		die("%s: %s", out_dir, strerror(errno));
	return 0;
}
