// SPDX-License-Identifier: GPL-2.0-only
/*
 * Printing kernel code as it was at a moment: the insn and disasm fields,
 * the poked marker, and decoded TEXT_POKE events with their verdicts.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "insn-len.h"
#include "kprobe-site.h"
#include "machine.h"
#include "symbol.h"
#include "text-image.h"
#include "text-poke-print.h"

#define INSN_MAX INSN_LEN_MAX

static int scnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!size)
		return 0;
	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	if (n < 0)
		return 0;
	return (size_t)n >= size ? (int)size - 1 : n;
}

/* the instruction at @ip at @time, decoded from its known leading bytes */
static int insn_at(struct text_image *ti, u64 ip, u64 time, u8 *bytes, struct disasm_insn *insn,
		   disasm_sym_fn sym, void *arg)
{
	u8 known[INSN_MAX];
	int n, len;

	if (text_image__read(ti, ip, INSN_MAX, time, bytes, known) <= 0)
		return 0;
	for (n = 0; n < INSN_MAX && known[n]; n++)
		;
	if (!n)
		return 0;
	len = disasm__one(bytes, n, ip, insn, sym, arg);
	return len > 0 ? len : 0;
}

/*
 * The bytes at @ip as of @time and which of them are known; false when
 * none is.  The kernel runs in 64-bit mode, so its code is decoded so.
 */
static bool bytes_at(struct text_image *ti, u64 ip, u64 time, u8 *bytes, u8 *known)
{
	return text_image__read(ti, ip, INSN_MAX, time, bytes, known) > 0 && known[0];
}

int text_poke__scnprintf_insn(char *buf, size_t size, struct text_image *ti, u64 ip, u64 time)
{
	u8 bytes[INSN_MAX], known[INSN_MAX];
	struct kprobe_site kp;
	int n;

	if (size)
		buf[0] = '\0';
	if (kprobe_site__find(ti, ip, time, &kp)) {
		/*
		 * the bytes memory held (int3, the optimizer's jmp), as long
		 * as the instruction they stand for; the tag says which
		 * that is not what they decode to
		 */
		int len = kprobe_site__insn_len(&kp, 0);

		memset(known, 0, sizeof(known));
		text_image__read(ti, ip, INSN_MAX, time, bytes, known);
		n = scnprintf(buf, size, " insn:");
		for (int i = 0; i < len && i < INSN_MAX; i++)
			n += known[i] ? scnprintf(buf + n, size - n, " %02x", bytes[i]) :
					scnprintf(buf + n, size - n, " ??");
		return n + scnprintf(buf + n, size - n, "%s",
				     kp.optimized ? KPROBED_OPT_TAG : KPROBED_TAG);
	}
	if (!bytes_at(ti, ip, time, bytes, known))
		return 0;
	return insn_len__scnprintf_field(buf, size, bytes, known, INSN_MAX, INSN_LEN_64);
}

int text_poke__insn_len(struct text_image *ti, u64 ip, u64 time)
{
	u8 bytes[INSN_MAX], known[INSN_MAX];
	struct kprobe_site kp;
	int len;

	/* the length of what the insn field prints: the probed instruction's */
	if (kprobe_site__find(ti, ip, time, &kp))
		return kprobe_site__insn_len(&kp, 0);
	if (!bytes_at(ti, ip, time, bytes, known))
		return 0;
	len = insn_len(bytes, known, INSN_MAX, INSN_LEN_64, NULL);
	return len > 0 ? len : 0;
}

int text_poke__scnprintf_disasm(char *buf, size_t size, struct text_image *ti, u64 ip, u64 time,
				disasm_sym_fn sym, void *arg)
{
	struct disasm_insn insn;
	struct kprobe_site kp;
	u8 bytes[INSN_MAX];

	if (size)
		buf[0] = '\0';
	if (kprobe_site__find(ti, ip, time, &kp)) {
		text_poke__kprobed_text(&kp, ip, 0, &insn, sym, arg);
		return scnprintf(buf, size, " %s", insn.text);
	}
	if (!insn_at(ti, ip, time, bytes, &insn, sym, arg))
		return 0;
	return scnprintf(buf, size, " %s", insn.text);
}

int text_poke__kprobed_text(const struct kprobe_site *kp, u64 ip, size_t at,
			    struct disasm_insn *insn, disasm_sym_fn sym, void *arg)
{
	int len = kprobe_site__insn_len(kp, at), n = 0;

	if (kp->orig_len)
		n = disasm__one(kp->orig + at, kp->orig_len - at, ip + at, insn, sym, arg);
	if (n <= 0)
		/* no slot: the int3 is what is known; no capstone: nothing */
		snprintf(insn->text, sizeof(insn->text), "%s", kp->orig_len ? "" : "int3");
	n = strlen(insn->text);
	snprintf(insn->text + n, sizeof(insn->text) - n, "%s%s", n ? "" : "?",
		 kp->optimized ? KPROBED_OPT_TAG : KPROBED_TAG);
	return len;
}

int text_poke__scnprintf_marker(char *buf, size_t size, struct text_image *ti, u64 ip, u64 time)
{
	u8 bytes[INSN_MAX], known[INSN_MAX];
	struct textpoke_poke poke;
	int len = 0;

	if (size)
		buf[0] = '\0';
	if (bytes_at(ti, ip, time, bytes, known))
		len = insn_len(bytes, known, INSN_MAX, INSN_LEN_64, NULL);
	/* undecodable bytes: still say whether the first one was poked */
	if (!text_image__poked_before(ti, ip, len > 0 ? len : 1, time, &poke))
		return 0;
	return scnprintf(buf, size, " [poked %llu.%09llu]",
			 (unsigned long long)(poke.time / 1000000000ULL),
			 (unsigned long long)(poke.time % 1000000000ULL));
}

int text_poke__scnprintf_event(char *buf, size_t size, struct text_image *ti,
			       const struct perf_record_text_poke *tp, u64 time, disasm_sym_fn sym,
			       void *arg)
{
	char old[192], new[192];
	enum textpoke_verdict v;

	v = text_image__verdict(ti, tp->addr, time);

	disasm__describe(tp->bytes, tp->old_len, tp->addr, old, sizeof(old), sym, arg);
	disasm__describe(tp->bytes + tp->old_len, tp->new_len, tp->addr, new, sizeof(new), sym,
			 arg);
	return scnprintf(buf, size, "  %s -> %s (%s)", old, new, textpoke_verdict__str(v));
}

bool text_poke__sym(u64 addr, char *buf, size_t size, void *arg)
{
	struct text_poke_sym *ks = arg;
	struct addr_location al;
	bool found = false;

	if (!ks || !ks->thread)
		return false;
	addr_location__init(&al);
	if (thread__find_symbol(ks->thread, ks->cpumode ?: PERF_RECORD_MISC_KERNEL, addr, ks->time,
				&al) &&
	    al.sym) {
		u64 off = al.addr - al.sym->start;

		if (off)
			scnprintf(buf, size, "%s+%#llx", symbol__name(al.sym),
				  (unsigned long long)off);
		else
			scnprintf(buf, size, "%s", symbol__name(al.sym));
		found = true;
	}
	addr_location__exit(&al);
	return found;
}
