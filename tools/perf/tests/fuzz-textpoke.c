// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: the libtextpoke API against a reference model kept here.
 *
 * The input is a program: each op byte adds a base image (any anchor,
 * copied or borrowed from the input), adds a poke (any widths 0..24 each
 * way, old bytes that may or may not match), or asks: a read, a batch of
 * reads, a forward view, a site, the verdicts, an export.  Addresses fall
 * in two windows, one in the kernel's text and one at the very top of
 * the address space (ranges that wrap must be refused), times in a small
 * set so that equal times are common.  An image may have a small memory
 * cap, where adds and reads may fail with -ENOMEM (then nothing changed).
 *
 * The model is libtextpoke.h's rule, byte by byte, replayed per query: the
 * pokes covering a byte, in (time, order added), cut its history into
 * segments; at time T it is in the segment after the last such poke with
 * time <= T.  Its value there is that poke's new byte if the poke has
 * one, else unknown (the poke took it away); in the first segment unknown
 * when the next poke brings the byte (has no old byte there); else the
 * byte of the base added last of those anchored in that segment (BEFORE:
 * the first, AFTER: the last, AT t: the one holding t), else the old byte
 * of the next poke, else unknown.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <textpoke/textpoke.h>

#include "fuzz.h"

#define FTP_KADDR 0xffffffff81000000ULL
#define FTP_WINDOW 192
#define FTP_MAX_POKES 64
#define FTP_MAX_BASES 8
#define FTP_MAX_LEN 24
#define FTP_MAX_READ 80

struct ftp_poke {
	u64 time, addr;
	u16 old_len, new_len;
	const u8 *old, *new; /* into the input, which outlives the image */
};

struct ftp_base {
	u64 addr, time;
	enum textpoke_anchor anchor;
	size_t len;
	const u8 *bytes;
};

struct ftp_model {
	struct ftp_poke pokes[FTP_MAX_POKES]; /* in the order added */
	int nr_pokes;
	struct ftp_base bases[FTP_MAX_BASES];
	int nr_bases;
	bool capped; /* a memory cap: -ENOMEM is an answer */
};

static u64 ftp__addr(struct fuzz_input *in)
{
	u64 b = fuzz_input__u64(in, 1);

	if (b & 0x80)
		return UINT64_MAX - FTP_WINDOW + 1 + (b & 0x7f) % FTP_WINDOW + 64;
	return FTP_KADDR + (b * 3) % FTP_WINDOW;
}

static u64 ftp__time(struct fuzz_input *in)
{
	return 1000 + (fuzz_input__u64(in, 1) % 24) * 10;
}

static u64 ftp__query_time(struct fuzz_input *in)
{
	u64 b = fuzz_input__u64(in, 1);

	if (b == 0xff)
		return UINT64_MAX;
	if (b == 0xfe)
		return 0;
	return 995 + b;
}

/* @len bytes of the input; fewer at its end, then the caller takes fewer */
static const u8 *ftp__bytes(struct fuzz_input *in, size_t *len)
{
	const u8 *p = in->p;

	if (*len > in->left)
		*len = in->left;
	in->p += *len;
	in->left -= *len;
	return p;
}

static bool ftp__wraps(u64 addr, u64 len)
{
	return addr + len < addr;
}

/* the covering pokes of @abs in (time, order added) order into @cover */
static int ftp__cover(const struct ftp_model *md, u64 abs, int *cover)
{
	int m = 0;

	for (int i = 0; i < md->nr_pokes; i++) {
		const struct ftp_poke *p = &md->pokes[i];
		u64 span = p->old_len > p->new_len ? p->old_len : p->new_len;
		int j;

		if (abs < p->addr || abs - p->addr >= span)
			continue;
		/* insertion sort; equal times stay in the order added */
		for (j = m++; j > 0 && md->pokes[cover[j - 1]].time > p->time; j--)
			cover[j] = cover[j - 1];
		cover[j] = i;
	}
	return m;
}

/* the segment of a base's anchor among @m covering pokes */
static int ftp__base_segment(const struct ftp_model *md, const struct ftp_base *b, const int *cover,
			     int m)
{
	int seg = 0;

	if (b->anchor == TEXTPOKE_ANCHOR_AFTER)
		return m;
	if (b->anchor == TEXTPOKE_ANCHOR_AT)
		while (seg < m && md->pokes[cover[seg]].time <= b->time)
			seg++;
	return seg;
}

/* 1 and *@val when the model knows the byte at @abs at @time, else 0 */
static int ftp__model_byte(const struct ftp_model *md, u64 abs, u64 time, u8 *val)
{
	int cover[FTP_MAX_POKES], m = ftp__cover(md, abs, cover), seg = 0;

	while (seg < m && md->pokes[cover[seg]].time <= time)
		seg++;
	if (seg) {
		const struct ftp_poke *p = &md->pokes[cover[seg - 1]];

		if (abs - p->addr < p->new_len) {
			*val = p->new[abs - p->addr];
			return 1;
		}
		/* the poke took the byte away: nothing is there */
		return 0;
	}
	/* before the poke that brought the byte: nothing was there */
	if (m && abs - md->pokes[cover[0]].addr >= md->pokes[cover[0]].old_len)
		return 0;
	for (int i = md->nr_bases - 1; i >= 0; i--) {
		const struct ftp_base *b = &md->bases[i];

		if (abs < b->addr || abs - b->addr >= b->len)
			continue;
		if (ftp__base_segment(md, b, cover, m) == seg) {
			*val = b->bytes[abs - b->addr];
			return 1;
		}
	}
	if (seg < m) {
		const struct ftp_poke *p = &md->pokes[cover[seg]];

		if (abs - p->addr < p->old_len) {
			*val = p->old[abs - p->addr];
			return 1;
		}
	}
	return 0;
}

/* a read's answer (@ret, @buf, @known) against the model */
static int ftp__compare(const struct ftp_model *md, const char *what, u64 addr, size_t len,
			u64 time, int ret, const u8 *buf, const u8 *known)
{
	int nr_known = 0;

	if (ftp__wraps(addr, len)) {
		if (ret == -EINVAL)
			return 0;
		fprintf(stderr, "fuzz textpoke: %s of %zu at %#llx wraps, returned %d\n", what, len,
			(unsigned long long)addr, ret);
		return FUZZ_BUG;
	}
	if (ret == -ENOMEM && md->capped)
		return 0;
	for (size_t i = 0; i < len; i++) {
		u8 v = 0;
		int k = ftp__model_byte(md, addr + i, time, &v);

		nr_known += k;
		if (ret >= 0 && (known[i] != k || buf[i] != v)) {
			fprintf(
			    stderr,
			    "fuzz textpoke: %s at %#llx time %llu: got %02x/%d, model %02x/%d\n",
			    what, (unsigned long long)(addr + i), (unsigned long long)time, buf[i],
			    known[i], v, k);
			return FUZZ_BUG;
		}
	}
	if (ret != nr_known) {
		fprintf(stderr, "fuzz textpoke: %s of %zu at %#llx time %llu: %d known, model %d\n",
			what, len, (unsigned long long)addr, (unsigned long long)time, ret,
			nr_known);
		return FUZZ_BUG;
	}
	return 0;
}

static int ftp__add_base(struct textpoke_image *img, struct ftp_model *md, struct fuzz_input *in)
{
	struct textpoke_base_opts opts = {.sz = sizeof(opts)};
	u64 addr = ftp__addr(in), b = fuzz_input__u64(in, 1);
	size_t len = 1 + fuzz_input__u64(in, 1) % 96;
	const u8 *bytes;
	int err;

	opts.anchor = b % 4; /* 3 is no anchor: refused */
	opts.time = ftp__time(in) - 5 + (b >> 2) % 3 * 5;
	opts.flags = b & 0x10 ? TEXTPOKE_BASE_BORROW : 0;
	bytes = ftp__bytes(in, &len);
	err = textpoke_image__add_base(img, addr, bytes, len, &opts);
	if (opts.anchor > TEXTPOKE_ANCHOR_AFTER || ftp__wraps(addr, len)) {
		if (err != -EINVAL) {
			fprintf(stderr, "fuzz textpoke: bad base (anchor %d, %zu at %#llx): %d\n",
				opts.anchor, len, (unsigned long long)addr, err);
			return FUZZ_BUG;
		}
		return 0;
	}
	if (err == -ENOMEM && md->capped)
		return 0;
	if (err) {
		fprintf(stderr, "fuzz textpoke: add_base %zu at %#llx: %d\n", len,
			(unsigned long long)addr, err);
		return FUZZ_BUG;
	}
	if (len && md->nr_bases < FTP_MAX_BASES)
		md->bases[md->nr_bases++] =
		    (struct ftp_base){addr, opts.time, opts.anchor, len, bytes};
	else if (len)
		return -1; /* the model is full: stop adding */
	return 0;
}

static int ftp__add_poke(struct textpoke_image *img, struct ftp_model *md, struct fuzz_input *in)
{
	struct ftp_poke p;
	size_t old_len, new_len;
	int err;

	p.time = ftp__time(in);
	p.addr = ftp__addr(in);
	old_len = fuzz_input__u64(in, 1) % (FTP_MAX_LEN + 1);
	new_len = fuzz_input__u64(in, 1) % (FTP_MAX_LEN + 1);
	p.old = ftp__bytes(in, &old_len);
	p.new = ftp__bytes(in, &new_len);
	p.old_len = old_len;
	p.new_len = new_len;
	err = textpoke_image__add_poke(img, p.time, p.addr, p.old, old_len, p.new, new_len);
	if ((!old_len && !new_len) || ftp__wraps(p.addr, old_len > new_len ? old_len : new_len)) {
		if (err != -EINVAL) {
			fprintf(stderr, "fuzz textpoke: bad poke (%zu/%zu at %#llx): %d\n", old_len,
				new_len, (unsigned long long)p.addr, err);
			return FUZZ_BUG;
		}
		return 0;
	}
	if ((err == -ENOMEM && md->capped) || err == -E2BIG)
		return 0;
	if (err) {
		fprintf(stderr, "fuzz textpoke: add_poke %zu/%zu at %#llx: %d\n", old_len, new_len,
			(unsigned long long)p.addr, err);
		return FUZZ_BUG;
	}
	md->pokes[md->nr_pokes++] = p;
	return md->nr_pokes == FTP_MAX_POKES ? -1 : 0;
}

static int ftp__read(struct textpoke_image *img, struct ftp_model *md, struct fuzz_input *in)
{
	u8 buf[FTP_MAX_READ], known[FTP_MAX_READ];
	u64 addr = ftp__addr(in), time = ftp__query_time(in);
	size_t len = fuzz_input__u64(in, 1) % (FTP_MAX_READ + 1);
	int ret;

	ret = textpoke_image__read(img, addr, len, time, buf, known);
	return ftp__compare(md, "read", addr, len, time, ret, buf, known);
}

static int ftp__read_batch(struct textpoke_image *img, struct ftp_model *md, struct fuzz_input *in)
{
	u8 buf[4][FTP_MAX_READ], known[4][FTP_MAX_READ];
	struct textpoke_query q[4];
	size_t n = 1 + fuzz_input__u64(in, 1) % 4;
	int err;

	for (size_t i = 0; i < n; i++) {
		q[i].addr = ftp__addr(in);
		q[i].time = ftp__query_time(in);
		q[i].len = fuzz_input__u64(in, 1) % (FTP_MAX_READ + 1);
		q[i].buf = buf[i];
		q[i].known = known[i];
		q[i].ret = 12345;
	}
	err = textpoke_image__read_batch(img, q, n);
	if (err) {
		fprintf(stderr, "fuzz textpoke: read_batch of %zu: %d\n", n, err);
		return FUZZ_BUG;
	}
	for (size_t i = 0; i < n; i++) {
		err = ftp__compare(md, "batch read", q[i].addr, q[i].len, q[i].time, q[i].ret,
				   buf[i], known[i]);
		if (err)
			return err;
	}
	return 0;
}

static int ftp__view(struct textpoke_image *img, struct ftp_model *md, struct fuzz_input *in,
		     struct textpoke_view **viewp)
{
	u8 buf[FTP_MAX_READ], known[FTP_MAX_READ];
	u64 time = ftp__query_time(in), addr;
	size_t len;
	int ret;

	if (!*viewp) {
		*viewp = textpoke_view__new(img, time);
		if (!*viewp)
			return md->capped && errno == ENOMEM ? 0 : FUZZ_BUG;
	} else {
		u64 was = textpoke_view__time(*viewp);

		ret = textpoke_view__advance(*viewp, time);
		if ((time < was && ret != -EINVAL) ||
		    (time >= was && ret && !(ret == -ENOMEM && md->capped))) {
			fprintf(stderr, "fuzz textpoke: view at %llu advanced to %llu: %d\n",
				(unsigned long long)was, (unsigned long long)time, ret);
			return FUZZ_BUG;
		}
	}
	time = textpoke_view__time(*viewp);
	addr = ftp__addr(in);
	len = fuzz_input__u64(in, 1) % (FTP_MAX_READ + 1);
	ret = textpoke_view__read(*viewp, addr, len, buf, known);
	return ftp__compare(md, "view read", addr, len, time, ret, buf, known);
}

/* a site: where it is and its last version, against the model at its last poke */
static int ftp__site(struct textpoke_image *img, struct ftp_model *md, struct fuzz_input *in)
{
	u8 buf[FTP_WINDOW + FTP_MAX_LEN], known[FTP_WINDOW + FTP_MAX_LEN];
	u64 addr = ftp__addr(in), time = 0;
	struct textpoke_site *site = textpoke_image__site_at(img, addr);
	struct textpoke_poke poke;
	size_t nr, len;
	int ret;

	if (!site)
		return 0;
	len = textpoke_site__len(site);
	nr = textpoke_site__nr_pokes(site);
	if (addr < textpoke_site__addr(site) || addr - textpoke_site__addr(site) >= len || !nr ||
	    len > sizeof(buf)) {
		fprintf(stderr, "fuzz textpoke: site_at %#llx gave %#llx+%zu with %zu pokes\n",
			(unsigned long long)addr, (unsigned long long)textpoke_site__addr(site),
			len, nr);
		return FUZZ_BUG;
	}
	if (textpoke_site__poke(site, nr - 1, &poke) ||
	    textpoke_site__poke(site, nr, &poke) != -EINVAL) {
		fprintf(stderr, "fuzz textpoke: site %#llx: pokes %zu and %zu\n",
			(unsigned long long)textpoke_site__addr(site), nr - 1, nr);
		return FUZZ_BUG;
	}
	textpoke_site__poke(site, nr - 1, &poke);
	ret = textpoke_site__version(site, nr, &time, buf, known);
	/* a site over its budget builds the version from its pokes: memory */
	if (ret == -ENOMEM && md->capped)
		return 0;
	if (ret < 0 || time != poke.time) {
		fprintf(stderr,
			"fuzz textpoke: site %#llx: last version %d at %llu, last poke at %llu\n",
			(unsigned long long)textpoke_site__addr(site), ret,
			(unsigned long long)time, (unsigned long long)poke.time);
		return FUZZ_BUG;
	}
	/* the last version holds until the end: what a read at UINT64_MAX gives */
	return ftp__compare(md, "site version", textpoke_site__addr(site), len, UINT64_MAX, ret,
			    buf, known);
}

static int ftp__check_cb(const struct textpoke_check *check, void *arg)
{
	(*(size_t *)arg)++;
	return check->verdict >= TEXTPOKE_VERDICT__MAX;
}

static int ftp__verdicts(struct textpoke_image *img, struct ftp_model *md)
{
	size_t counts[TEXTPOKE_VERDICT__MAX], seen = 0, sum = 0;
	int err = textpoke_image__count_verdicts(img, counts);

	if (err == -ENOMEM && md->capped)
		return 0;
	for (int v = 0; !err && v < TEXTPOKE_VERDICT__MAX; v++)
		sum += counts[v];
	if (!err)
		err = textpoke_image__for_each_check(img, ftp__check_cb, &seen);
	if (err == -ENOMEM && md->capped)
		return 0;
	if (err || sum != (size_t)md->nr_pokes || seen != sum) {
		fprintf(stderr, "fuzz textpoke: verdicts: %d, %zu counted, %zu seen, %d pokes\n",
			err, sum, seen, md->nr_pokes);
		return FUZZ_BUG;
	}
	return 0;
}

struct ftp_export {
	const struct ftp_model *md;
	u64 time;
	u64 next; /* runs come in address order, not overlapping */
	size_t bytes;
	bool started;
	int bad;
};

static int ftp__export_cb(u64 addr, const u8 *bytes, size_t len, void *arg)
{
	struct ftp_export *ex = arg;

	if ((ex->started && addr < ex->next) || !len || ftp__wraps(addr, len - 1)) {
		ex->bad = 1;
		return 1;
	}
	for (size_t i = 0; i < len; i++) {
		u8 v;

		if (!ftp__model_byte(ex->md, addr + i, ex->time, &v) || v != bytes[i]) {
			fprintf(stderr, "fuzz textpoke: export at %llu: %#llx is %02x\n",
				(unsigned long long)ex->time, (unsigned long long)(addr + i),
				bytes[i]);
			ex->bad = 1;
			return 1;
		}
	}
	ex->started = true;
	ex->next = addr + len;
	ex->bytes += len;
	return 0;
}

/* the export's runs are the model's known bytes, all of them */
static int ftp__export(struct textpoke_image *img, struct ftp_model *md, struct fuzz_input *in)
{
	struct ftp_export ex = {.md = md, .time = ftp__query_time(in)};
	size_t model_bytes = 0;
	int err = textpoke_image__export(img, ex.time, ftp__export_cb, &ex);
	u8 v;

	if (err == -ENOMEM && md->capped)
		return 0;
	if (err || ex.bad) {
		fprintf(stderr, "fuzz textpoke: export at %llu: %d\n", (unsigned long long)ex.time,
			err);
		return FUZZ_BUG;
	}
	for (u64 a = FTP_KADDR; a < FTP_KADDR + FTP_WINDOW + 96; a++)
		model_bytes += ftp__model_byte(md, a, ex.time, &v);
	for (u64 a = UINT64_MAX - FTP_WINDOW + 1; a != 0; a++)
		model_bytes += ftp__model_byte(md, a, ex.time, &v);
	if (model_bytes != ex.bytes) {
		fprintf(stderr, "fuzz textpoke: export at %llu: %zu bytes, model %zu\n",
			(unsigned long long)ex.time, ex.bytes, model_bytes);
		return FUZZ_BUG;
	}
	return 0;
}

int fuzz__textpoke(const u8 *data, size_t size)
{
	struct textpoke_image_opts opts = {.sz = sizeof(opts)};
	struct fuzz_input in = {data, size};
	struct textpoke_view *view = NULL;
	static struct ftp_model md;
	struct textpoke_image *img;
	u64 cfg = fuzz_input__u64(&in, 1);
	int ret = 0;

	memset(&md, 0, sizeof(md));
	/* a cap in one of four images, a small per-site budget in one of four */
	if ((cfg & 3) == 3) {
		opts.max_bytes = 1024 + (cfg >> 4) * 512;
		md.capped = true;
	}
	if ((cfg & 12) == 12)
		opts.max_site_bytes = 16 + (cfg >> 4) * 8;
	img = textpoke_image__new(&opts);
	if (!img)
		return 0;
	while (in.left && !ret) {
		switch (fuzz_input__u64(&in, 1) % 10) {
		case 0:
			ret = ftp__add_base(img, &md, &in);
			break;
		case 1:
		case 2:
		case 3:
			ret = ftp__add_poke(img, &md, &in);
			break;
		case 4:
			ret = ftp__read(img, &md, &in);
			break;
		case 5:
			ret = ftp__read_batch(img, &md, &in);
			break;
		case 6:
			ret = ftp__view(img, &md, &in, &view);
			break;
		case 7:
			ret = ftp__site(img, &md, &in);
			break;
		case 8:
			ret = ftp__verdicts(img, &md);
			break;
		default:
			ret = ftp__export(img, &md, &in);
		}
	}
	textpoke_view__delete(view);
	textpoke_image__delete(img);
	return ret > 0 ? ret : 0;
}
