// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf textpoke code: an address range of kernel code, bytes and
 * disassembly, as it was at a moment of a recording.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "util/debug.h"
#include "util/disasm.h"
#include "util/header.h"
#include "util/kprobe-site.h"
#include "util/machine.h"
#include "util/parse-options.h"
#include "util/text-image-options.h"
#include "util/text-image.h"
#include "util/text-poke-print.h"
#include "util/time-utils.h"

/* what one listing may cover: a few modules' worth of text */
#define CODE_MAX_LEN (1U << 20)
#define CODE_DEFAULT_LEN 32

static const char *const code_usage[] = {
    "perf textpoke code [<options>] <addr> [<len>]",
    NULL,
};

struct code_opts {
	const char *input;
	const char *time_str; /* as given, for the messages */
	u64 time;
	double time_percent; /* >= 0: --time N%, resolved once the recording is open */
	bool pokes;
	struct text_image_opts ti;
};

/*
 * perf's time syntax for one moment: seconds as perf script prints them
 * ("12345.678901", a bare "347" being seconds too), or "10%" of the way
 * from the first sample to the last; and our "start" and "end".
 */
static int parse_time(const char *str, struct code_opts *o)
{
	char *end;

	o->time_percent = -1;
	if (!strcmp(str, "start")) {
		o->time = 0;
		return 0;
	}
	if (!strcmp(str, "end")) {
		o->time = UINT64_MAX;
		return 0;
	}
	if (*str < '0' || *str > '9')
		return -EINVAL;
	if (str[strlen(str) - 1] == '%') {
		/* digits and a point only: strtod() would take hex and exponents too */
		double pct = strtod(str, &end);

		if (strspn(str, "0123456789.") != strlen(str) - 1 || *end != '%' || end[1] ||
		    pct > 100)
			return -EINVAL;
		o->time_percent = pct;
		return 0;
	}
	return parse_nsec_time(str, &o->time);
}

static void print_time(u64 time)
{
	if (time == UINT64_MAX)
		printf("end");
	else
		printf("%llu.%09llu", (unsigned long long)(time / 1000000000ULL),
		       (unsigned long long)(time % 1000000000ULL));
}

static void print_bytes(const u8 *bytes, const u8 *known, int len, int width)
{
	int i, n = 0;

	for (i = 0; i < len; i++) {
		if (known && !known[i])
			n += printf("%s??", i ? " " : "");
		else
			n += printf("%s%02x", i ? " " : "", bytes[i]);
	}
	printf("%*s", width > n ? width - n : 0, "");
}

static const char *anchor_name(enum textpoke_anchor a)
{
	switch (a) {
	case TEXTPOKE_ANCHOR_BEFORE:
		return "start";
	case TEXTPOKE_ANCHOR_AFTER:
		return "end";
	case TEXTPOKE_ANCHOR_AT:
		return "time";
	default:
		return "?";
	}
}

static void code__header(struct text_image *ti, u64 addr, u64 len, u64 time)
{
	const struct text_image_stats *st = text_image__stats(ti);

	printf("# %#llx..%#llx at ", (unsigned long long)addr, (unsigned long long)(addr + len));
	print_time(time);
	printf("\n# base: ");
	if (st->base_path && st->nr_pieces) {
		printf("%s (%d segments), %zu ranges anchored each at %s, ", st->base_path,
		       st->nr_base_segments, st->nr_pieces,
		       st->pieces_timed ? "its read time" : "a moment of the copy's pass");
		print_time(st->pieces_from);
		printf(" to ");
		print_time(st->pieces_to);
		printf(" (fitted: %zu of %zu poked sites agree)", st->fit.agree, st->fit.sites);
	} else if (st->base_path) {
		printf("%s (%d segments), anchored at %s", st->base_path, st->nr_base_segments,
		       anchor_name(st->base_anchor));
		if (st->base_anchor == TEXTPOKE_ANCHOR_AT) {
			printf(" ");
			print_time(st->base_time);
		}
		if (st->fitted)
			printf(" (fitted: %zu of %zu poked sites agree)", st->fit.agree,
			       st->fit.sites);
	} else {
		printf("none: only poked bytes are known");
	}
	printf("\n# %llu pokes, %zu outside every map\n", (unsigned long long)st->nr_pokes,
	       st->nr_unmapped);
}

/*
 * A kprobed instruction's line: the bytes memory held there (the int3,
 * the optimizer's jmp: what the kernel's text is), the instruction they
 * stand for as its slot or detour holds it
 */
static void code__kprobed_line(struct text_image *ti, u64 ip, int l, u64 time,
			       const struct disasm_insn *insn)
{
	u8 b[2 * INSN_LEN_MAX], k[2 * INSN_LEN_MAX];
	char marker[64];

	if (l > (int)sizeof(b))
		l = sizeof(b);
	memset(k, 0, sizeof(k));
	text_image__read(ti, ip, l, time, b, k);
	printf("%16llx:  ", (unsigned long long)ip);
	print_bytes(b, k, l, 21);
	text_poke__scnprintf_marker(marker, sizeof(marker), ti, ip, time);
	printf(" %s%s\n", insn->text, marker);
}

/*
 * An optimized probe's jmp covers several instructions: all but the last
 * listed here, as they were; returns the offset of the last in @kp->orig
 */
static u64 code__kprobed_head(struct text_image *ti, const struct kprobe_site *kp, u64 ip, u64 time,
			      struct text_poke_sym *ks)
{
	struct disasm_insn insn;
	u64 at = 0;
	int l;

	while (kp->optimized) {
		l = text_poke__kprobed_text(kp, ip, at, &insn, text_poke__sym, ks);
		if (at + l >= kp->orig_len)
			break;
		code__kprobed_line(ti, ip + at, l, time, &insn);
		at += l;
	}
	return at;
}

/* whether @kp is an int3 alone whose probed instruction has more bytes in the range */
static bool kp_rest(const struct kprobe_site *kp, int l, u64 off, u64 len)
{
	return kp->arm_time && !kp->orig_len && kp->site_len > l && off + kp->site_len <= len + 16;
}

static void code__list(struct text_image *ti, struct text_poke_sym *ks, u64 addr, u64 len, u64 time)
{
	/* room for an instruction that starts in the range and ends past it */
	u8 *bytes = malloc(len + 16), *known = malloc(len + 16);
	u64 off = 0;

	if (!bytes || !known) {
		pr_err("out of memory\n");
		goto out;
	}
	text_image__read(ti, addr, len + 16, time, bytes, known);
	while (off < len) {
		struct disasm_insn insn;
		struct kprobe_site kp = {0};
		char sym[160], marker[64];
		u64 n, k;
		int l;

		if (text_poke__sym(addr + off, sym, sizeof(sym), ks) && !strchr(sym, '+'))
			printf("%016llx <%s>:\n", (unsigned long long)(addr + off), sym);
		if (!known[off]) {
			for (n = off; n < len && !known[n]; n++)
				;
			printf("%16llx:  ?? x %llu (unknown)\n", (unsigned long long)(addr + off),
			       (unsigned long long)(n - off));
			off = n;
			continue;
		}
		for (k = off; k < len + 16 && known[k] && k - off < 15; k++)
			;
		if (kprobe_site__find(ti, addr + off, time, &kp)) {
			u64 at = code__kprobed_head(ti, &kp, addr + off, time, ks);

			off += at;
			l = text_poke__kprobed_text(&kp, addr + off - at, at, &insn, text_poke__sym,
						    ks);
			code__kprobed_line(ti, addr + off, l, time, &insn);
		} else {
			l = disasm__one(bytes + off, k - off, addr + off, &insn, text_poke__sym,
					ks);
			if (l <= 0) {
				snprintf(insn.text, sizeof(insn.text), "%s",
					 l == -EOPNOTSUPP ? "" : "(bad)");
				l = 1;
			}
			printf("%16llx:  ", (unsigned long long)(addr + off));
			print_bytes(bytes + off, known + off, l, 21);
			text_poke__scnprintf_marker(marker, sizeof(marker), ti, addr + off, time);
			printf(" %s%s\n", insn.text, marker);
		}
		/*
		 * int3 alone: the rest of the probed instruction is no
		 * instruction of its own ("push %rsp" of push %r12's 54)
		 */
		if (kp_rest(&kp, l, off, len)) {
			printf("%16llx:  ", (unsigned long long)(addr + off + l));
			print_bytes(bytes + off + l, known + off + l, kp.site_len - l, 21);
			printf(" (the kprobed instruction's other bytes)\n");
			l = kp.site_len;
		}
		off += l;
	}
out:
	free(bytes);
	free(known);
}

struct poke_list {
	struct text_image *ti;
	struct text_poke_sym *ks;
	u64 addr, end;
};

/* does a side of a check hold a known byte other than the poke's? */
static bool check__differs(const u8 *held, const u8 *known, const u8 *want, u32 len)
{
	for (u32 i = 0; held && i < len; i++) {
		if (known[i] && held[i] != want[i])
			return true;
	}
	return false;
}

/* " cc 1f 44 00 00": what was held, "??" only where nothing was known */
static void print_held(const u8 *held, const u8 *known, u32 len)
{
	for (u32 i = 0; i < len; i++)
		printf(known[i] ? " %02x" : " ??", held[i]);
}

static int code__print_check(const struct textpoke_check *c, void *arg)
{
	struct poke_list *pl = arg;
	const struct textpoke_poke *p = &c->poke;
	struct text_poke_sym ks = *pl->ks;
	char old[192], new[192];

	if (p->addr >= pl->end ||
	    p->addr + (p->old_len > p->new_len ? p->old_len : p->new_len) <= pl->addr)
		return 0;
	ks.time = p->time;
	disasm__describe(p->old_bytes, p->old_len, p->addr, old, sizeof(old), text_poke__sym, &ks);
	disasm__describe(p->new_bytes, p->new_len, p->addr, new, sizeof(new), text_poke__sym, &ks);
	printf("# poke ");
	print_time(p->time);
	printf(" %#llx: %s -> %s (%s)", (unsigned long long)p->addr, old, new,
	       textpoke_verdict__str(c->verdict));
	/*
	 * Each side that disagrees, with the bytes that side held: the
	 * image's before the poke (an earlier poke's or a copy's), the
	 * copy's after it.  A side that agrees is not the mismatch, and
	 * printing it instead would name bytes nobody held at the time.
	 */
	if (c->verdict == TEXTPOKE_MISMATCH) {
		if (check__differs(c->before, c->before_known, p->old_bytes, p->old_len)) {
			printf(", the image held");
			print_held(c->before, c->before_known, p->old_len);
		}
		if (check__differs(c->after, c->after_known, p->new_bytes, p->new_len)) {
			printf(", the kcore copy after it held");
			print_held(c->after, c->after_known, p->new_len);
		}
	}
	printf("\n");
	return 0;
}

/*
 * A percentage becomes a time, and a moment outside the samples gets a
 * warning: its listing is the code before the first or after the last,
 * which is rarely what was meant (a time from another recording, or
 * nanoseconds given as seconds).
 */
static int code__resolve_time(struct code_opts *o, struct text_image *ti)
{
	const struct perf_env *env = text_image__env(ti);
	u64 first = env ? env->first_sample_time : 0, last = env ? env->last_sample_time : 0;
	bool known = first && last >= first;

	if (o->time_percent >= 0) {
		if (!known) {
			pr_err(
			    "--time %s: %s has no sample time range (HEADER_SAMPLE_TIME) to take "
			    "a percentage of; give seconds\n",
			    o->time_str, o->input);
			return -EINVAL;
		}
		o->time = first + (u64)((double)(last - first) * o->time_percent / 100.0);
		return 0;
	}
	if (!known || o->time == 0 || o->time == UINT64_MAX)
		return 0;
	if (o->time < first || o->time > last)
		pr_warning("--time %s is %s the recording, whose samples are from "
			   "%llu.%09llu to %llu.%09llu\n",
			   o->time_str, o->time < first ? "before" : "after",
			   (unsigned long long)(first / 1000000000ULL),
			   (unsigned long long)(first % 1000000000ULL),
			   (unsigned long long)(last / 1000000000ULL),
			   (unsigned long long)(last % 1000000000ULL));
	return 0;
}

static int code__run(struct code_opts *o, u64 addr, u64 len)
{
	struct text_image *ti = text_image__load(o->input, &o->ti);
	struct text_poke_sym ks;
	struct machine *machine;
	size_t i;

	if (!ti)
		return -errno ?: -EINVAL;
	if (code__resolve_time(o, ti)) {
		text_image__delete(ti);
		return -EINVAL;
	}
	ks = (struct text_poke_sym){.time = o->time};
	machine = text_image__machine(ti);
	ks.thread = machine ? machine__findnew_thread(machine, 0, 0) : NULL;
	if (ks.time == UINT64_MAX)
		ks.time = 0; /* symbols as of the last record */
	code__header(ti, addr, len, o->time);
	if (o->pokes) {
		struct poke_list pl = {ti, &ks, addr, addr + len};
		const struct text_image_stats *st = text_image__stats(ti);

		textpoke_image__for_each_check(text_image__image(ti), code__print_check, &pl);
		for (i = 0; i < st->nr_unmapped; i++) {
			const struct text_image_unmapped *u = &st->unmapped[i];

			if (u->addr < addr || u->addr >= addr + len)
				continue;
			printf("# unmapped poke ");
			print_time(u->time);
			printf(" %#llx: no map covers it\n", (unsigned long long)u->addr);
		}
	}
	code__list(ti, &ks, addr, len, o->time);
	thread__put(ks.thread);
	text_image__delete(ti);
	disasm__exit();
	return 0;
}

int cmd_textpoke_code(int argc, char **argv)
{
	enum { OPT_TIME = 256, OPT_POKES };
	static const struct popt opts[] = {
	    {'i', "input", required_argument, "file", "input file name (default perf.data)", 'i'},
	    {0, "time", required_argument, "time",
	     "the moment: start, end (default), seconds as perf script prints them, or N%",
	     OPT_TIME},
	    TEXT_IMAGE_POPTS,
	    {0, "pokes", no_argument, NULL, "list the pokes in the range with their verdicts",
	     OPT_POKES},
	    {'v', "verbose", no_argument, NULL, "be more verbose", 'v'},
	    {'h', "help", no_argument, NULL, "show this help", 'h'},
	    {0},
	};
	struct code_opts o = {.input = "perf.data", .time = UINT64_MAX, .time_percent = -1};
	struct popt_ctx ctx;
	unsigned long long addr, len = CODE_DEFAULT_LEN;
	char *end;
	int c, err;

	popt_ctx__init(&ctx, opts);
	while ((c = popt__next(&ctx, argc, argv)) != -1) {
		switch (c) {
		case 'i':
			o.input = optarg;
			break;
		case OPT_TIME:
			o.time_str = optarg;
			if (parse_time(optarg, &o)) {
				popt__bad_value(&ctx, "expected start, end, seconds as perf script "
						      "prints them (12345.678901) or a percentage "
						      "of the recording (10%%)");
				return 129;
			}
			break;
		case OPT_POKES:
			o.pokes = true;
			break;
		case 'v':
			verbose++;
			break;
		default:
			err = text_image_opts__parse_option(&o.ti, c, optarg);
			if (err < 0)
				return 129;
			if (err)
				break;
			if (c == 'h')
				popt__usage(code_usage, opts, stdout);
			return c == 'h' ? 0 : 129;
		}
	}
	if (optind >= argc) {
		popt__error(&ctx,
			    "no address given: perf textpoke code [<options>] <addr> [<len>]");
		return 129;
	}
	if (argc - optind > 2) {
		popt__error(&ctx, "unexpected argument '%s' after <addr> <len>", argv[optind + 2]);
		return 129;
	}
	if (text_image_opts__check(&o.ti))
		return 1;
	errno = 0;
	addr = strtoull(argv[optind], &end, 16);
	if (errno || end == argv[optind] || *end) {
		pr_err("%s: not a hexadecimal address\n", argv[optind]);
		return 129;
	}
	if (argc - optind == 2) {
		len = strtoull(argv[optind + 1], &end, 0);
		if (errno || *end || !len || len > CODE_MAX_LEN) {
			pr_err("%s: the length must be 1..%u bytes\n", argv[optind + 1],
			       CODE_MAX_LEN);
			return 129;
		}
	}
	if (addr + len < addr) {
		pr_err("%#llx + %llu wraps around the address space\n", addr, len);
		return 129;
	}
	return code__run(&o, addr, len) ? 1 : 0;
}
