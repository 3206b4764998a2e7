// SPDX-License-Identifier: GPL-2.0-only
/*
 * The lines of perf textpoke script, byte for byte those of perf 6.1's
 * perf script for the fields both have (builtin-script.c's
 * perf_sample__fprintf_start(), process_event(), sample__fprintf_sym()
 * and perf_event__fprintf() define the layout), plus the abi field and
 * ABI-correct register names.
 */
#include <errno.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "evsel.h"
#include "perf-regs.h"
#include "script-data-src.h"
#include "script-json.h"
#include "script-print.h"

#define SCRIPT_BUF_SIZE (256 * 1024)

int script_buf__init(struct script_buf *b, FILE *fp)
{
	b->data = malloc(SCRIPT_BUF_SIZE);
	if (!b->data)
		return -ENOMEM;
	b->len = 0;
	b->cap = SCRIPT_BUF_SIZE;
	b->fp = fp;
	b->err = 0;
	return 0;
}

void script_buf__exit(struct script_buf *b)
{
	script_buf__flush(b);
	zfree(&b->data);
}

int script_buf__flush(struct script_buf *b)
{
	if (b->len && !b->err && b->fp && fwrite(b->data, 1, b->len, b->fp) != b->len)
		b->err = -errno ?: -EIO;
	b->flushes += b->len != 0;
	b->len = 0;
	return b->err;
}

/*
 * Room for @n more bytes.  A single line longer than the buffer (a huge
 * callchain, a long tracepoint) grows it; otherwise we flush.
 */
static char *reserve_slow(struct script_buf *b, size_t n)
{
	/* a buffer without a file (--json's scratch) keeps what it has */
	if (!b->fp && b->len + n > b->cap) {
		size_t cap = b->cap * 2 > b->len + n ? b->cap * 2 : b->len + n;
		char *p = realloc(b->data, cap);

		if (!p) {
			b->err = -ENOMEM;
			return NULL;
		}
		b->data = p;
		b->cap = cap;
		return b->data + b->len;
	}
	if (b->len + n > b->cap)
		script_buf__flush(b);
	if (n > b->cap) {
		char *p = realloc(b->data, n);

		if (!p) {
			b->err = -ENOMEM;
			return NULL;
		}
		b->data = p;
		b->cap = n;
	}
	return b->data + b->len;
}

/*
 * The helpers below run a few dozen times per sample line: inline, with
 * the room check as the only branch in the common case.
 */
static __always_inline char *reserve(struct script_buf *b, size_t n)
{
	if (__builtin_expect(b->len + n <= b->cap, 1))
		return b->data + b->len;
	return reserve_slow(b, n);
}

static __always_inline void buf_putc(struct script_buf *b, char c)
{
	char *p = reserve(b, 1);

	if (p) {
		*p = c;
		b->len++;
	}
}

static __always_inline void buf_write(struct script_buf *b, const void *s, size_t n)
{
	char *p = reserve(b, n);

	if (p) {
		memcpy(p, s, n);
		b->len += n;
	}
}

static __always_inline void buf_puts(struct script_buf *b, const char *s)
{
	buf_write(b, s, strlen(s));
}

static __always_inline void pad(struct script_buf *b, int n)
{
	char *p;

	if (n <= 0)
		return;
	p = reserve(b, n);
	if (p) {
		memset(p, ' ', n);
		b->len += n;
	}
}

static __always_inline void buf_pad_str(struct script_buf *b, const char *s, int width, bool left)
{
	int n = strlen(s);

	if (!left)
		pad(b, width - n);
	buf_write(b, s, n);
	if (left)
		pad(b, width - n);
}

/*
 * Digits right to left into the end of @end; hex by shifts, decimal by a
 * constant divisor (a multiply): most of a line is numbers.
 */
static __always_inline int hex_digits(char *end, u64 v)
{
	static const char hexd[] = "0123456789abcdef";
	char *p = end;

	/* two at a time while there are two, as addresses have many */
	while (v > 0xff) {
		p -= 2;
		p[1] = hexd[v & 15];
		p[0] = hexd[(v >> 4) & 15];
		v >>= 8;
	}
	do {
		*--p = hexd[v & 15];
		v >>= 4;
	} while (v);
	return end - p;
}

/* "00" .. "99": two digits per division */
static const char dec_pairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

static __always_inline int dec_digits(char *end, u64 v)
{
	char *p = end;

	while (v >= 100) {
		unsigned int r = v % 100;

		v /= 100;
		p -= 2;
		memcpy(p, dec_pairs + 2 * r, 2);
	}
	if (v >= 10) {
		p -= 2;
		memcpy(p, dec_pairs + 2 * v, 2);
	} else {
		*--p = '0' + v;
	}
	return end - p;
}

static __always_inline void put_digits(struct script_buf *b, const char *digits, int n, bool neg,
				       int width)
{
	int len = n + neg;
	bool left = width < 0;
	char *p;

	if (left)
		width = -width;
	p = reserve(b, (width > len ? width : len));
	if (!p)
		return;
	if (!left && width > len) {
		memset(p, ' ', width - len);
		p += width - len;
	}
	if (neg)
		*p++ = '-';
	memcpy(p, digits, n);
	p += n;
	if (left && width > len) {
		memset(p, ' ', width - len);
		p += width - len;
	}
	b->len = p - b->data;
}

static __always_inline void buf_hex(struct script_buf *b, u64 v, int width)
{
	char tmp[24];
	int n = hex_digits(tmp + sizeof(tmp), v);

	put_digits(b, tmp + sizeof(tmp) - n, n, false, width);
}

static __always_inline void buf_udec(struct script_buf *b, u64 v, int width)
{
	char tmp[24];
	int n = dec_digits(tmp + sizeof(tmp), v);

	put_digits(b, tmp + sizeof(tmp) - n, n, false, width);
}

static __always_inline void buf_sdec(struct script_buf *b, s64 v, int width)
{
	char tmp[24];
	u64 u = v < 0 ? -(u64)v : (u64)v;
	int n = dec_digits(tmp + sizeof(tmp), u);

	put_digits(b, tmp + sizeof(tmp) - n, n, v < 0, width);
}

void __script_buf__putc(struct script_buf *b, char c)
{
	buf_putc(b, c);
}

void script_buf__write(struct script_buf *b, const void *s, size_t n)
{
	buf_write(b, s, n);
}

void script_buf__puts(struct script_buf *b, const char *s)
{
	buf_puts(b, s);
}

void script_buf__pad_str(struct script_buf *b, const char *s, int width, bool left)
{
	buf_pad_str(b, s, width, left);
}

void script_buf__hex(struct script_buf *b, u64 v, int width)
{
	buf_hex(b, v, width);
}

void script_buf__udec(struct script_buf *b, u64 v, int width)
{
	buf_udec(b, v, width);
}

void script_buf__sdec(struct script_buf *b, s64 v, int width)
{
	buf_sdec(b, v, width);
}

/*
 * Writers for a section of a line whose room was reserved at once (see
 * SECTION_SLACK): each takes the write position and returns the new one.
 */
#define SECTION_SLACK 64 /* room for any one number or pad of up to 32 */

static const char spaces32[] = "                                ";

static __always_inline char *w_spaces(char *p, int n)
{
	if (n <= 0)
		return p;
	if (n <= 32)
		memcpy(p, spaces32, 32);
	else
		memset(p, ' ', n);
	return p + n;
}

static __always_inline char *w_mem(char *p, const void *s, size_t n)
{
	memcpy(p, s, n);
	return p + n;
}

static const u64 pow10_table[20] = {
    1ULL,
    10ULL,
    100ULL,
    1000ULL,
    10000ULL,
    100000ULL,
    1000000ULL,
    10000000ULL,
    100000000ULL,
    1000000000ULL,
    10000000000ULL,
    100000000000ULL,
    1000000000000ULL,
    10000000000000ULL,
    100000000000000ULL,
    1000000000000000ULL,
    10000000000000000ULL,
    100000000000000000ULL,
    1000000000000000000ULL,
    10000000000000000000ULL,
};

/* decimal digits of @v: from its bit length (log10(2) ~ 1233 / 4096), then one compare */
static __always_inline int dec_len(u64 v)
{
	/* v | 1 has as many digits as v, and at least one */
	u64 u = v | 1;
	int n = ((64 - __builtin_clzll(u)) * 1233) >> 12;

	return n + (u >= pow10_table[n]);
}

/* @v in exactly @n digits, ending at p + n */
static __always_inline void w_dec_exact(char *p, u64 v, int n)
{
	/* 32-bit divisions are cheaper, and most numbers here fit */
	if (v <= 0xffffffffULL) {
		u32 v32 = v;

		while (n >= 2) {
			u32 r = v32 % 100;

			v32 /= 100;
			n -= 2;
			memcpy(p + n, dec_pairs + 2 * r, 2);
		}
		if (n)
			p[0] = '0' + v32 % 10;
		return;
	}
	while (n >= 2) {
		unsigned int r = v % 100;

		v /= 100;
		n -= 2;
		memcpy(p + n, dec_pairs + 2 * r, 2);
	}
	if (n)
		p[0] = '0' + v % 10;
}

/* %*llu / %*lld / %-*lld: negative width left aligns */
static __always_inline char *w_dec(char *p, u64 v, bool neg, int width)
{
	int n = dec_len(v), len = n + neg;

	if (width > len)
		p = w_spaces(p, width - len);
	if (neg)
		*p++ = '-';
	w_dec_exact(p, v, n);
	p += n;
	if (-width > len)
		p = w_spaces(p, -width - len);
	return p;
}

static __always_inline char *w_udec(char *p, u64 v, int width)
{
	return w_dec(p, v, false, width);
}

static __always_inline char *w_sdec(char *p, s64 v, int width)
{
	return w_dec(p, v < 0 ? -(u64)v : (u64)v, v < 0, width);
}

static const char hex_pairs[] = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
				"202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
				"404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f"
				"606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"
				"808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
				"a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
				"c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
				"e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";

/*
 * w_sdec() through a cache of the text for one place of the line (the
 * width is the same at every call for a given cache).
 */
static __always_inline char *w_sdec_cached(char *p, struct script_num_cache *c, s64 v, int width)
{
	unsigned int i = (u64)v & (SCRIPT_NUM_CACHE_SLOTS - 1);

	if (__builtin_expect(!c->len[i] || c->v[i] != (u64)v, 0)) {
		c->v[i] = v;
		c->len[i] = w_sdec(c->text[i], v, width) - c->text[i];
	}
	/* the text is at most 21 + 11 bytes; the section has the slack */
	memcpy(p, c->text[i], 32);
	return p + c->len[i];
}

static __always_inline char *w_udec_cached(char *p, struct script_num_cache *c, u64 v, int width)
{
	unsigned int i = v & (SCRIPT_NUM_CACHE_SLOTS - 1);

	if (__builtin_expect(!c->len[i] || c->v[i] != v, 0)) {
		c->v[i] = v;
		c->len[i] = w_udec(c->text[i], v, width) - c->text[i];
	}
	memcpy(p, c->text[i], 32);
	return p + c->len[i];
}

/* %*llx */
static __always_inline char *w_hex(char *p, u64 v, int width)
{
	int n = v ? (64 - __builtin_clzll(v) + 3) / 4 : 1, i = n;

	if (width > n)
		p = w_spaces(p, width - n);
	while (i >= 2) {
		i -= 2;
		memcpy(p + i, hex_pairs + 2 * (v & 0xff), 2);
		v >>= 8;
	}
	if (i)
		p[0] = hex_pairs[2 * (v & 0xf) + 1];
	return p + n;
}

/* w_hex() through a cache, as w_udec_cached(), with slots by a hash of @v */
static __always_inline char *w_hex_cached(char *p, struct script_ip_cache *c, u64 v, int width)
{
	unsigned int i = (v * 0x9e3779b97f4a7c15ULL) >> (64 - SCRIPT_IP_CACHE_BITS);

	if (__builtin_expect(!c->len[i] || c->v[i] != v, 0)) {
		c->v[i] = v;
		c->len[i] = w_hex(c->text[i], v, width) - c->text[i];
	}
	memcpy(p, c->text[i], 32);
	return p + c->len[i];
}

/* %*s / %-*s of a string of known length */
static __always_inline char *w_pad_str(char *p, const char *s, size_t n, int width, bool left)
{
	if (!left && width > (int)n)
		p = w_spaces(p, width - n);
	p = w_mem(p, s, n);
	if (left && width > (int)n)
		p = w_spaces(p, width - n);
	return p;
}

/* room for @n bytes plus the slack; NULL on error (the buffer keeps it) */
static __always_inline char *section_begin(struct script_buf *b, size_t n)
{
	return reserve(b, n + SECTION_SLACK);
}

static __always_inline void section_end(struct script_buf *b, char *p)
{
	b->len = p - b->data;
}

void script_buf__printf(struct script_buf *b, const char *fmt, ...)
{
	va_list ap;
	char *p;
	int n;

	p = reserve(b, 256);
	if (!p)
		return;
	va_start(ap, fmt);
	n = vsnprintf(p, b->cap - b->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= b->cap - b->len) {
		p = reserve(b, n + 1);
		if (!p)
			return;
		va_start(ap, fmt);
		vsnprintf(p, n + 1, fmt, ap);
		va_end(ap);
	}
	b->len += n;
}

bool script_printer__callchain(const struct script_printer *p, const struct evsel *evsel)
{
	return p->use_callchain && (evsel->attr.sample_type & PERF_SAMPLE_CALLCHAIN) &&
	       (script_printer__fields(p, evsel) & SF_IP);
}

/* --reltime, --deltatime: perf's sums; a line before the first wraps around, as in perf */
u64 script_printer__time(struct script_printer *p, u64 time)
{
	u64 t = time;

	if (p->reltime) {
		if (!p->initial_time)
			p->initial_time = t;
		t -= p->initial_time;
	} else if (p->deltatime) {
		t = p->previous_time ? t - p->previous_time : 0;
		p->previous_time = time;
	}
	return t;
}

/* perf's perf_sample__fprintf_start(): comm, pid/tid, cpu, misc, time */
static void print_start(struct script_printer *p, const struct perf_sample *sample,
			const struct evsel *evsel, const char *comm, u32 type)
{
	struct script_buf *b = &p->out;
	u64 f = script_printer__fields(p, evsel);
	size_t comm_len = 0;
	char *w;

	if (f & SF_COMM) {
		if (!comm)
			comm = ":-1";
		comm_len = strlen(comm);
	}
	/* the comm, then at most ~100 bytes of numbers and a time of day */
	w = section_begin(b, comm_len + 128 + ((f & SF_TOD) ? 96 : 0));
	if (!w)
		return;
	if (f & SF_COMM) {
		/* with callchains perf stops aligning the comm */
		if (script_printer__callchain(p, evsel))
			w = w_mem(w, comm, comm_len);
		else
			w = w_pad_str(w, comm, comm_len, 16, false);
		*w++ = ' ';
	}
	if ((f & SF_PID) && (f & SF_TID)) {
		w = w_sdec_cached(w, &p->pid5, (s32)sample->pid, 5);
		*w++ = '/';
		w = w_sdec_cached(w, &p->tid_left5, (s32)sample->tid, -5);
		*w++ = ' ';
	} else if (f & SF_PID) {
		w = w_sdec_cached(w, &p->pid5, (s32)sample->pid, 5);
		*w++ = ' ';
	} else if (f & SF_TID) {
		w = w_sdec_cached(w, &p->tid5, (s32)sample->tid, 5);
		*w++ = ' ';
	}
	if (f & SF_CPU) {
		/* "[%03d] " */
		*w++ = '[';
		if ((s32)sample->cpu >= 0 && sample->cpu < 1000) {
			w_dec_exact(w, sample->cpu, 3);
			w += 3;
		} else if ((s32)sample->cpu < 0 && (s32)sample->cpu > -100) {
			/* %03d of a sample without PERF_SAMPLE_CPU: "-01" */
			*w++ = '-';
			w_dec_exact(w, -(s32)sample->cpu, 2);
			w += 2;
		} else {
			w = w_sdec(w, (s32)sample->cpu, 0);
		}
		w = w_mem(w, "] ", 2);
	}
	if (f & SF_MISC) {
		u16 misc = sample->misc, cpumode = misc & PERF_RECORD_MISC_CPUMODE_MASK;
		int n = 0;

		/* perf tests each mode as a bit pattern, so GUEST_KERNEL shows KU */
#define HAS(x) ((cpumode & (x)) == (x))
		if (HAS(PERF_RECORD_MISC_KERNEL))
			w[n++] = 'K';
		if (HAS(PERF_RECORD_MISC_USER))
			w[n++] = 'U';
		if (HAS(PERF_RECORD_MISC_HYPERVISOR))
			w[n++] = 'H';
		if (HAS(PERF_RECORD_MISC_GUEST_KERNEL))
			w[n++] = 'G';
		if (HAS(PERF_RECORD_MISC_GUEST_USER))
			w[n++] = 'g';
#undef HAS
		if ((type == PERF_RECORD_MMAP || type == PERF_RECORD_MMAP2) &&
		    (misc & PERF_RECORD_MISC_MMAP_DATA))
			w[n++] = 'M';
		if (type == PERF_RECORD_COMM && (misc & PERF_RECORD_MISC_COMM_EXEC))
			w[n++] = 'E';
		w = w_spaces(w + n, 6 - n);
	}
	if (f & SF_TOD) {
		char tod[96];
		size_t n =
		    script_tod__scnprintf(&p->tod, tod, sizeof(tod), sample->time, p->nanosecs);

		w = w_mem(w, tod, n);
		*w++ = ' ';
	}
	if (f & SF_TIME) {
		u64 t = script_printer__time(p, sample->time), secs, ns;

		secs = t / 1000000000ULL;
		ns = t % 1000000000ULL;

		/* "%5lu.%09llu: ", or "%12s: " of "secs.usecs", the same thing with 6 */
		w = w_udec_cached(w, &p->secs5, secs, 5);
		*w++ = '.';
		if (p->nanosecs) {
			w_dec_exact(w, ns, 9);
			w += 9;
		} else {
			w_dec_exact(w, ns / 1000, 6);
			w += 6;
		}
		w = w_mem(w, ": ", 2);
	}
	section_end(b, w);
}

int script_tod__init(struct script_tod *tod, const void *buf, u64 size)
{
	u32 version;

	memset(tod, 0, sizeof(*tod));
	tod->cached_sec = -1;
	/* u32 version, u32 clockid, u64 time of day, u64 clockid time; perf reads version 1 */
	if (size < 24)
		return -EINVAL;
	memcpy(&version, buf, 4);
	if (version != 1)
		return -EINVAL;
	memcpy(&tod->tod_ns, (const u8 *)buf + 8, 8);
	memcpy(&tod->clockid_ns, (const u8 *)buf + 16, 8);
	tod->enabled = true;
	return 0;
}

size_t script_tod__scnprintf(struct script_tod *tod, char *buf, size_t size, u64 time,
			     bool nanosecs)
{
	u64 ns;
	time_t sec;
	int n;

	if (!size)
		return 0;
	if (!tod->enabled)
		return snprintf(buf, size, "disabled"), strlen(buf);
	/* perf's sum: unsigned, so a time before the reference wraps as in perf */
	ns = time > tod->clockid_ns ? tod->tod_ns + (time - tod->clockid_ns) :
				      tod->tod_ns - (tod->clockid_ns - time);
	sec = ns / 1000000000ULL;
	ns %= 1000000000ULL;
	/* localtime_r() per sample is most of the cost: once per second of samples */
	if (sec != tod->cached_sec) {
		struct tm tm;

		if (!localtime_r(&sec, &tm))
			return snprintf(buf, size, "failed"), strlen(buf);
		strftime(tod->date, sizeof(tod->date), "%F %H:%M:%S", &tm);
		tod->cached_sec = sec;
	}
	if (nanosecs)
		n = snprintf(buf, size, "%s.%09llu", tod->date, (unsigned long long)ns);
	else
		n = snprintf(buf, size, "%s.%06llu", tod->date, (unsigned long long)(ns / 1000));
	return n < 0 ? 0 : ((size_t)n < size ? (size_t)n : size - 1);
}

/* perf's __symbol__fprintf_symname_offs(): name, +0x offset, or [unknown] */
static void print_symname(struct script_buf *b, const struct script_loc *loc, bool offs)
{
	const char *name = loc->sym ?: "[unknown]";
	size_t n = strlen(name);
	char *w = section_begin(b, n + 32);

	if (!w)
		return;
	w = w_mem(w, name, n);
	if (loc->sym && offs) {
		w = w_mem(w, "+0x", 3);
		w = w_hex(w, loc->addr - loc->sym_start, 0);
	}
	section_end(b, w);
}

/*
 * ip, sym and dso; a callchain line (@frame) is that between a tab and a
 * newline, written in the same section when nothing follows the dso
 */
/* the line's first byte in the buffer is returned (a flush may have moved it) */
static __always_inline char *print_loc(struct script_printer *pr, const struct script_loc *loc,
				       u64 ip, u64 f, bool frame)
{
	struct script_buf *b = &pr->out;
	const char *sym = loc->sym ?: "[unknown]", *dso = loc->dso ?: "[unknown]";
	size_t sym_len = !(f & SF_SYM)	     ? 0 :
			 !loc->sym	     ? strlen("[unknown]") :
			 loc->len_sym == sym ? loc->sym_len :
					       strlen(sym);
	size_t dso_len = !(f & SF_DSO)	     ? 0 :
			 !loc->dso	     ? strlen("[unknown]") :
			 loc->len_dso == dso ? loc->dso_len :
					       strlen(dso);
	bool tail = ((f & SF_SRCLINE) && loc->srcline) || loc->inlined;
	char *w = section_begin(b, sym_len + dso_len + 64), *start = w;

	if (!w)
		return NULL;
	if (frame)
		*w++ = '\t';
	if (f & SF_IP)
		w = w_hex_cached(w, &pr->ip16, ip, 16);
	if (f & SF_SYM) {
		*w++ = ' ';
		w = w_mem(w, sym, sym_len);
		if (loc->sym && (f & SF_SYMOFFSET)) {
			w = w_mem(w, "+0x", 3);
			w = w_hex(w, loc->addr - loc->sym_start, 0);
		}
	}
	if ((f & SF_DSO) && !loc->inlined) {
		w = w_mem(w, " (", 2);
		w = w_mem(w, dso, dso_len);
		*w++ = ')';
	}
	if (frame && !tail)
		*w++ = '\n';
	section_end(b, w);
	if (!tail)
		return start;
	/* perf: the line below, then "(inlined)" after it */
	if ((f & SF_SRCLINE) && loc->srcline) {
		buf_puts(b, "\n  ");
		buf_puts(b, loc->srcline);
	}
	if (loc->inlined)
		buf_puts(b, " (inlined)");
	if (frame)
		buf_putc(b, '\n');
	return NULL;
}

/* perf's get_page_size_name(): " 4K", " 2M", " N/A" for none */
void script_print__page_size(struct script_buf *b, u64 size)
{
	static const char units[] = "BKMG";
	int i = 0;

	buf_putc(b, ' ');
	if (!size) {
		buf_puts(b, "N/A");
		return;
	}
	/* perf divides while the quotient is above 1: 1024 stays 1024B */
	while (size / 1024 > 1 && i < 3) {
		size /= 1024;
		i++;
	}
	buf_udec(b, size, 0);
	buf_putc(b, units[i]);
}

/*
 * perf prints " ABI:<n> " and then "%5s:0x%llx " per register in mask
 * order; nothing at all for ABI 0 (no registers recorded).
 */
static void print_regs(struct script_buf *b, const struct regs_dump *regs)
{
	enum perf_regs_kind kind = perf_regs__kind(regs->abi);
	u64 mask = regs->mask;
	unsigned int i = 0;

	if (!regs->regs)
		return;
	buf_puts(b, " ABI:");
	buf_udec(b, regs->abi, 0);
	buf_putc(b, ' ');
	while (mask) {
		unsigned int bit = __builtin_ctzll(mask);
		const char *name = perf_reg_name(bit, kind);

		mask &= mask - 1;
		buf_pad_str(b, name ? name : "unknown", 5, false);
		buf_puts(b, ":0x");
		buf_hex(b, perf_reg_value(regs->regs[i++], kind), 0);
		buf_putc(b, ' ');
	}
}

static void print_abi(struct script_buf *b, const struct perf_sample *sample)
{
	const char *name = perf_regs__abi_name(sample->user_regs.abi);

	buf_puts(b, " abi:");
	if (name)
		buf_puts(b, name);
	else
		buf_udec(b, sample->user_regs.abi, 0);
}

/*
 * perf pads the decoded data source to the longest one printed so far, so
 * the columns after it shift as the run goes on: we do the same.
 */
static void print_data_src(struct script_printer *p, u64 data_src)
{
	char decode[100], out[100];
	int len;

	data_src__scnprintf(data_src, decode, sizeof(decode));
	len = snprintf(out, sizeof(out), "%16" PRIx64 " %s", data_src, decode);
	if (len >= (int)sizeof(out))
		len = sizeof(out) - 1;
	if (p->data_src_width < len)
		p->data_src_width = len;
	buf_pad_str(&p->out, out, p->data_src_width, true);
}

/* perf's synthesized event ids (attr.config of PERF_TYPE_SYNTH) */
enum {
	SYNTH_PTWRITE,
	SYNTH_MWAIT,
	SYNTH_PWRE,
	SYNTH_EXSTOP,
	SYNTH_PWRX,
	SYNTH_CBR,
	SYNTH_PSB,
};

/* a ptwrite payload of printable ASCII, NUL padded, is shown as text too */
static bool ptwrite_printable(u64 v, char *str)
{
	unsigned int i;
	bool nul = false;

	for (i = 0; i < 8; i++) {
		unsigned char c = v >> (8 * i);

		if (!c)
			nul = true;
		else if (nul || c < 0x20 || c > 0x7e)
			return false;
		str[i] = c;
	}
	str[8] = '\0';
	return true;
}

/*
 * The synth field: the payload of a sample a trace decoder made, laid out
 * as perf's struct perf_synth_intel_* without their leading u32 (the raw
 * size overlays it), padded to 34 columns as perf does.
 */
void script_print__synth(struct script_buf *b, const struct perf_sample *sample,
			 const struct evsel *evsel)
{
	const u8 *raw = sample->raw_data;
	u32 size = raw ? sample->raw_size : 0, w0 = 0, w1 = 0;
	u64 q = 0;
	char str[9] = "", out[128];
	int len;

	/* all but exstop's layout hold 12 bytes: shorter payloads print nothing, as in perf */
	if (size < 4 || (size < 12 && evsel->attr.config != SYNTH_EXSTOP))
		return;
	memcpy(&w0, raw, 4);
	if (size >= 12) {
		memcpy(&w1, raw + 4, 4);
		memcpy(&q, raw + 4, 8);
	}
	switch (evsel->attr.config) {
	case SYNTH_PTWRITE:
		if (!ptwrite_printable(q, str))
			str[0] = '\0';
		len =
		    snprintf(out, sizeof(out), " IP: %u payload: %#" PRIx64 " %s ", w0 & 1, q, str);
		break;
	case SYNTH_MWAIT:
		len = snprintf(out, sizeof(out), " hints: %#x extensions: %#x ",
			       (unsigned int)(q & 0xff), (unsigned int)((q >> 32) & 3));
		break;
	case SYNTH_PWRE:
		len = snprintf(out, sizeof(out), " hw: %u cstate: %u sub-cstate: %u ",
			       (unsigned int)((q >> 7) & 1), (unsigned int)((q >> 12) & 0xf),
			       (unsigned int)((q >> 8) & 0xf));
		break;
	case SYNTH_EXSTOP:
		len = snprintf(out, sizeof(out), " IP: %u ", w0 & 1);
		break;
	case SYNTH_PWRX:
		len = snprintf(out, sizeof(out),
			       " deepest cstate: %u last cstate: %u wake reason: %#x ",
			       (unsigned int)(q & 0xf), (unsigned int)((q >> 4) & 0xf),
			       (unsigned int)((q >> 8) & 0xf));
		break;
	case SYNTH_CBR: {
		unsigned int cbr = w0 & 0xff, max_nonturbo = (w0 >> 16) & 0xff;

		len =
		    snprintf(out, sizeof(out), " cbr: %2u freq: %4u MHz ", cbr, (w1 + 500) / 1000);
		if (max_nonturbo && len > 0)
			len += snprintf(out + len, sizeof(out) - len, "(%3u%%) ",
					(5 + (1000 * cbr) / max_nonturbo) / 10);
		break;
	}
	case SYNTH_PSB:
		len = snprintf(out, sizeof(out), " psb offs: %#" PRIx64, q);
		break;
	default:
		return;
	}
	if (len <= 0 || len >= (int)sizeof(out))
		return;
	buf_write(b, out, len);
	/* perf pads what it printed to 34 columns */
	pad(b, 34 - len);
}

bool script_print__sample_head(struct script_printer *p, const struct perf_sample *sample,
			       const struct evsel *evsel, const struct script_sample_info *info)
{
	struct script_buf *b = &p->out;
	u64 f = script_printer__fields(p, evsel);

	if (__builtin_expect(p->json, 0))
		return script_json__sample_head(p, sample, evsel, info);
	if (!f)
		return false;
	print_start(p, sample, evsel, info->comm, PERF_RECORD_SAMPLE);
	if (f & (SF_PERIOD | SF_EVNAME)) {
		const char *name = evsel->name ? evsel->name : "[unknown]";
		size_t name_len = (f & SF_EVNAME) ? strlen(name) : 0;
		int width = p->name_width > 0 ? p->name_width : 0;
		char *w = section_begin(b, name_len + width + 32);

		if (w && (f & SF_PERIOD)) {
			w = w_udec_cached(w, &p->period10, sample->period, 10);
			*w++ = ' ';
		}
		if (w && (f & SF_EVNAME)) {
			w = w_pad_str(w, name, name_len, p->name_width, false);
			w = w_mem(w, ": ", 2);
		}
		if (w)
			section_end(b, w);
	}
	/* perf's "  %-21s " of the flags: empty but for trace-synthesized samples */
	if (f & SF_FLAGS)
		buf_puts(b, "                        ");
	if ((f & SF_TRACE) && info->trace)
		buf_puts(b, info->trace);
	if ((f & SF_SYNTH) && evsel->attr.type == PERF_TYPE_SYNTH)
		script_print__synth(b, sample, evsel);
	if (f & SF_ADDR) {
		buf_hex(b, sample->addr, 16);
		/* perf_sample__fprintf_addr(): the symbol and object it resolves to */
		if (info->addr_loc && (f & SF_SYM)) {
			buf_putc(b, ' ');
			print_symname(b, info->addr_loc, f & SF_SYMOFFSET);
		}
		if (info->addr_loc && (f & SF_DSO)) {
			buf_puts(b, " (");
			buf_puts(b, info->addr_loc->dso ?: "[unknown]");
			buf_putc(b, ')');
		}
	}
	if (f & SF_DATA_SRC)
		print_data_src(p, sample->data_src);
	if (f & SF_WEIGHT)
		buf_udec(b, sample->weight, 16);
	if (f & SF_INS_LAT)
		buf_udec(b, sample->ins_lat, 16);
	if (f & SF_IP) {
		if (info->has_chain && script_printer__callchain(p, evsel)) {
			buf_putc(b, '\n');
		} else {
			buf_putc(b, ' ');
			print_loc(p, &info->loc, sample->ip, f, false);
		}
	}
	return true;
}

void script_print__frame(struct script_printer *p, const struct evsel *evsel,
			 const struct script_loc *fr)
{
	if (__builtin_expect(p->json, 0)) {
		script_json__frame(p, evsel, fr);
		return;
	}
	/* perf shows frames in objects object-relative, the kernel's absolute */
	print_loc(p, fr, fr->relative ? fr->addr : fr->ip, script_printer__fields(p, evsel), true);
}

#define FRAME_LINES 4096
#define FRAME_LINE_MAX 214 /* a slot of 256 bytes; longer lines are not kept */

struct script_frame_line {
	struct script_frame_key key;
	u8 len; /* 0: empty */
	char text[FRAME_LINE_MAX];
};

static struct script_frame_line *frame_line__slot(struct script_printer *p,
						  const struct script_frame_key *k)
{
	u64 h = (k->ip ^ k->gen * 0x9e3779b97f4a7c15ULL ^ k->spans * 0xc4ceb9fe1a85ec53ULL ^
		 (uintptr_t)k->evsel ^ k->cpumode) *
		0xff51afd7ed558ccdULL;

	if (!p->frame_lines) {
		p->frame_lines = calloc(FRAME_LINES, sizeof(*p->frame_lines));
		if (!p->frame_lines)
			return NULL;
	}
	return &p->frame_lines[(h >> 40) & (FRAME_LINES - 1)];
}

bool script_print__frame_again(struct script_printer *p, const struct script_frame_key *k)
{
	struct script_frame_line *l = frame_line__slot(p, k);

	if (!l || !l->len || l->key.ip != k->ip || l->key.gen != k->gen ||
	    l->key.spans != k->spans || l->key.evsel != k->evsel || l->key.cpumode != k->cpumode)
		return false;
	buf_write(&p->out, l->text, l->len);
	return true;
}

void script_print__frame_keep(struct script_printer *p, const struct evsel *evsel,
			      const struct script_loc *fr, const struct script_frame_key *k)
{
	struct script_frame_line *l;
	char *start;
	size_t len;

	if (__builtin_expect(p->json, 0) || fr->srcline || fr->inlined) {
		script_print__frame(p, evsel, fr);
		return;
	}
	start = print_loc(p, fr, fr->relative ? fr->addr : fr->ip, script_printer__fields(p, evsel),
			  true);
	len = start ? (size_t)(p->out.data + p->out.len - start) : 0;
	l = len && len <= FRAME_LINE_MAX ? frame_line__slot(p, k) : NULL;
	if (!l)
		return;
	l->key = *k;
	l->len = len;
	memcpy(l->text, start, len);
}

void script_printer__exit(struct script_printer *p)
{
	free(p->frame_lines);
	p->frame_lines = NULL;
}

void script_print__loc(struct script_printer *p, const struct script_loc *loc, u64 ip, u64 fields)
{
	print_loc(p, loc, ip, fields, false);
}

void script_print__sample_tail(struct script_printer *p, const struct perf_sample *sample,
			       const struct evsel *evsel, const struct script_sample_info *info)
{
	struct script_buf *b = &p->out;
	u64 f = script_printer__fields(p, evsel);

	if (__builtin_expect(p->json, 0)) {
		script_json__sample_tail(p, sample, evsel, info);
		return;
	}
	if (f & SF_ABI)
		print_abi(b, sample);
	if (f & SF_IREGS)
		print_regs(b, &sample->intr_regs);
	if (f & SF_UREGS)
		print_regs(b, &sample->user_regs);
	if (info->branches_len)
		script_buf__write(b, info->branches, info->branches_len);
	/* perf's order: insn (and our disasm, poked), phys_addr, the page sizes */
	if (info->text_len)
		script_buf__write(b, info->text, info->text_len);
	if (f & SF_PHYS_ADDR)
		buf_hex(b, sample->phys_addr, 16);
	if (f & SF_DATA_PAGE_SIZE)
		script_print__page_size(b, sample->data_page_size);
	if (f & SF_CODE_PAGE_SIZE)
		script_print__page_size(b, sample->code_page_size);
	buf_putc(b, '\n');
}

void script_print__sample(struct script_printer *p, const struct perf_sample *sample,
			  const struct evsel *evsel, const struct script_sample_info *info)
{
	u32 i;

	if (!script_print__sample_head(p, sample, evsel, info))
		return;
	if (info->has_chain && script_printer__callchain(p, evsel)) {
		for (i = 0; i < info->nr_frames; i++)
			script_print__frame(p, evsel, &info->frames[i]);
	}
	script_print__sample_tail(p, sample, evsel, info);
}

/* a string field of a record, bounded by the record's end */
static void put_bounded(struct script_buf *b, const union perf_event *event, const char *s)
{
	const char *end = (const char *)event + event->header.size;
	size_t n = s < end ? strnlen(s, end - s) : 0;

	buf_write(b, s, n);
}

static void print_hex_prefixed(struct script_buf *b, u64 v)
{
	/* %#llx: "0" for zero, "0x..." otherwise */
	if (v)
		buf_puts(b, "0x");
	buf_hex(b, v, 0);
}

static void print_mmap(struct script_buf *b, const union perf_event *event, u32 pid, u32 tid,
		       u64 start, u64 len, u64 pgoff)
{
	buf_putc(b, ' ');
	buf_sdec(b, (s32)pid, 0);
	buf_putc(b, '/');
	buf_sdec(b, (s32)tid, 0);
	buf_puts(b, ": [");
	print_hex_prefixed(b, start);
	buf_putc(b, '(');
	print_hex_prefixed(b, len);
	buf_puts(b, ") @ ");
	print_hex_prefixed(b, pgoff);
}

static void print_bytes(struct script_buf *b, const u8 *bytes, unsigned int len, const char *what)
{
	unsigned int i;

	/* perf's binary__fprintf() with 16 bytes per line */
	for (i = 0; i < len; i++) {
		if (!(i & 15)) {
			buf_puts(b, "            ");
			buf_puts(b, what);
			buf_puts(b, " bytes:");
		}
		script_buf__printf(b, " %02x", bytes[i]);
		if ((i & 15) == 15 || i == len - 1)
			buf_putc(b, '\n');
	}
}

static void print_text_poke(struct script_buf *b, const union perf_event *event,
			    const struct script_loc *sym)
{
	const struct perf_record_text_poke *tp = &event->text_poke;
	size_t off = offsetof(struct perf_record_text_poke, bytes);
	size_t room = event->header.size - off;
	unsigned int old_len = tp->old_len, new_len = tp->new_len;

	buf_putc(b, ' ');
	buf_hex(b, tp->addr, 0);
	buf_putc(b, ' ');
	if (sym && sym->sym)
		print_symname(b, sym, true);
	script_buf__printf(b, " old len %u new len %u\n", old_len, new_len);
	/* a record too short for its lengths shows what it holds */
	if (old_len > room)
		old_len = room;
	if (new_len > room - old_len)
		new_len = room - old_len;
	print_bytes(b, tp->bytes, old_len, "Old");
	print_bytes(b, tp->bytes + old_len, new_len, "New");
}

/* perf's perf_event__fprintf_switch(): the cpu-wide record names the other task */
static void print_switch(struct script_buf *b, const union perf_event *event)
{
	u16 misc = event->header.misc;
	bool out = misc & PERF_RECORD_MISC_SWITCH_OUT;
	const char *in_out = !out					   ? "IN         " :
			     !(misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) ? "OUT        " :
									     "OUT preempt";

	if (event->header.type == PERF_RECORD_SWITCH) {
		script_buf__printf(b, " %s\n", in_out);
		return;
	}
	script_buf__printf(b, " %s  %s pid/tid: %5d/%-5d\n", in_out, out ? "next" : "prev",
			   (s32)event->context_switch.next_prev_pid,
			   (s32)event->context_switch.next_prev_tid);
}

/* perf's perf_event__fprintf_namespaces(): four (dev, inode) pairs a line */
static void print_namespaces(struct script_buf *b, const union perf_event *event)
{
	static const char *const names[] = {"net", "uts", "ipc", "pid", "user", "mnt", "cgroup"};
	const struct perf_record_namespaces *ns = &event->namespaces;
	u64 i, nr = ns->nr_namespaces;
	u64 room = (event->header.size - sizeof(*ns)) / sizeof(ns->link_info[0]);

	script_buf__printf(b, " %d/%d - nr_namespaces: %" PRIu64 "\n\t\t[", (s32)ns->pid,
			   (s32)ns->tid, nr);
	/* a count past the record's end shows the pairs it holds */
	for (i = 0; i < nr && i < room; i++) {
		if (i && i % 4 == 0)
			buf_puts(b, "\n\t\t ");
		script_buf__printf(b, "%" PRIu64 "/%s: %" PRIu64 "/%#" PRIx64 "%s", i,
				   i < ARRAY_SIZE(names) ? names[i] : "UNKNOWN",
				   (u64)ns->link_info[i].dev, (u64)ns->link_info[i].ino,
				   i + 1 != nr ? ", " : "]\n");
	}
	if (i < nr)
		buf_puts(b, "]\n");
}

/* the fixed part of the records printed here: shorter ones are not decoded */
static size_t record_min_size(u32 type)
{
	switch (type) {
	case PERF_RECORD_COMM:
		return sizeof(struct perf_record_comm);
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		return sizeof(struct perf_record_fork);
	case PERF_RECORD_MMAP:
		return sizeof(struct perf_record_mmap);
	case PERF_RECORD_MMAP2:
		return sizeof(struct perf_record_mmap2);
	case PERF_RECORD_KSYMBOL:
		return sizeof(struct perf_record_ksymbol);
	case PERF_RECORD_BPF_EVENT:
		return sizeof(struct perf_record_bpf_event);
	case PERF_RECORD_TEXT_POKE:
		return offsetof(struct perf_record_text_poke, bytes);
	case PERF_RECORD_LOST:
		return sizeof(struct perf_record_lost);
	case PERF_RECORD_SWITCH_CPU_WIDE:
		return sizeof(struct perf_record_switch);
	case PERF_RECORD_NAMESPACES:
		return sizeof(struct perf_record_namespaces);
	case PERF_RECORD_CGROUP:
		return sizeof(struct perf_record_cgroup);
	default:
		return sizeof(struct perf_event_header);
	}
}

/* what follows PERF_RECORD_<NAME> on a side-band line, into p->out */
static void side_band_detail(struct script_printer *p, const union perf_event *event,
			     const struct script_loc *poke_sym)
{
	struct script_buf *b = &p->out;
	u32 type = event->header.type;
	u16 misc = event->header.misc;

	if (event->header.size < record_min_size(type)) {
		script_buf__printf(b, " (record of %u bytes, too short to decode)\n",
				   event->header.size);
		return;
	}

	switch (type) {
	case PERF_RECORD_COMM:
		buf_puts(b, misc & PERF_RECORD_MISC_COMM_EXEC ? " exec: " : ": ");
		put_bounded(b, event, event->comm.comm);
		script_buf__printf(b, ":%d/%d\n", (s32)event->comm.pid, (s32)event->comm.tid);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		script_buf__printf(b, "(%d:%d):(%d:%d)\n", (s32)event->fork.pid,
				   (s32)event->fork.tid, (s32)event->fork.ppid,
				   (s32)event->fork.ptid);
		break;
	case PERF_RECORD_MMAP:
		print_mmap(b, event, event->mmap.pid, event->mmap.tid, event->mmap.start,
			   event->mmap.len, event->mmap.pgoff);
		buf_puts(b, "]: ");
		buf_putc(b, misc & PERF_RECORD_MISC_MMAP_DATA ? 'r' : 'x');
		buf_putc(b, ' ');
		put_bounded(b, event, event->mmap.filename);
		buf_putc(b, '\n');
		break;
	case PERF_RECORD_MMAP2: {
		const struct perf_record_mmap2 *m = &event->mmap2;

		print_mmap(b, event, m->pid, m->tid, m->start, m->len, m->pgoff);
		if (misc & PERF_RECORD_MISC_MMAP_BUILD_ID_BIT) {
			unsigned int i, n = m->build_id_size < 20 ? m->build_id_size : 20;

			buf_puts(b, " <");
			for (i = 0; i < n; i++)
				script_buf__printf(b, "%02x", m->build_id[i]);
			buf_putc(b, '>');
		} else {
			script_buf__printf(b, " %02x:%02x %" PRIu64 " %" PRIu64, m->maj, m->min,
					   (u64)m->ino, (u64)m->ino_generation);
		}
		buf_puts(b, "]: ");
		buf_putc(b, m->prot & 1 ? 'r' : '-');  /* PROT_READ */
		buf_putc(b, m->prot & 2 ? 'w' : '-');  /* PROT_WRITE */
		buf_putc(b, m->prot & 4 ? 'x' : '-');  /* PROT_EXEC */
		buf_putc(b, m->flags & 1 ? 's' : 'p'); /* MAP_SHARED */
		buf_putc(b, ' ');
		put_bounded(b, event, m->filename);
		buf_putc(b, '\n');
		break;
	}
	case PERF_RECORD_KSYMBOL:
		buf_puts(b, " addr ");
		buf_hex(b, event->ksymbol.addr, 0);
		script_buf__printf(b, " len %u type %u flags 0x%x name ", event->ksymbol.len,
				   event->ksymbol.ksym_type, event->ksymbol.flags);
		put_bounded(b, event, event->ksymbol.name);
		buf_putc(b, '\n');
		break;
	case PERF_RECORD_BPF_EVENT:
		script_buf__printf(b, " type %u, flags %u, id %u\n", event->bpf.type,
				   event->bpf.flags, event->bpf.id);
		break;
	case PERF_RECORD_TEXT_POKE:
		print_text_poke(b, event, poke_sym);
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		print_switch(b, event);
		break;
	case PERF_RECORD_NAMESPACES:
		print_namespaces(b, event);
		break;
	case PERF_RECORD_CGROUP:
		script_buf__printf(b, " cgroup: %" PRIu64 " ", (u64)event->cgroup.id);
		put_bounded(b, event, event->cgroup.path);
		buf_putc(b, '\n');
		break;
	case PERF_RECORD_LOST:
		script_buf__printf(b, " lost %" PRIu64 "\n", (u64)event->lost.lost);
		break;
	default:
		buf_putc(b, '\n');
		break;
	}
}

void script_print__side_band(struct script_printer *p, const union perf_event *event,
			     const struct perf_sample *sample, const struct evsel *evsel,
			     const char *comm, const struct script_loc *poke_sym)
{
	if (__builtin_expect(p->json, 0)) {
		/* the text printers write to p->out: lend them the scratch buffer */
		struct script_buf out = p->out;

		p->out = p->scratch;
		side_band_detail(p, event, poke_sym);
		p->scratch = p->out;
		p->out = out;
		script_json__side_band(p, event, sample, evsel, comm, p->scratch.data,
				       p->scratch.len);
		p->scratch.len = 0;
		return;
	}
	if (evsel)
		print_start(p, sample, evsel, comm, event->header.type);
	buf_puts(&p->out, "PERF_RECORD_");
	buf_puts(&p->out, perf_event__name(event->header.type));
	side_band_detail(p, event, poke_sym);
}

void script_print__side_band_end(struct script_printer *p)
{
	if (p->json)
		script_json__side_band_end(p);
}
