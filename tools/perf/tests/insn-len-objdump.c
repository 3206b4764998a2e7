// SPDX-License-Identifier: GPL-2.0-only
/*
 * The instruction-length decoder against an independent oracle: GNU
 * objdump's disassembly of real objects on this machine (stock perf, the
 * C library, a 32-bit C library or program).  Every instruction objdump
 * decodes must have objdump's length, read from the same bytes that
 * follow it in the object.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fixture.h"
#include "tests.h"
#include "../util/insn-len.h"

/* the few places where perf's decoder (which we follow) and the CPU disagree */
static bool perf_differs(const u8 *b, size_t n)
{
	size_t i = 0;

	while (i < n && (b[i] == 0x66 || b[i] == 0x67 || b[i] == 0xf2 || b[i] == 0xf3 ||
			 b[i] == 0x2e || b[i] == 0x3e || b[i] == 0x26 || b[i] == 0x64 ||
			 b[i] == 0x65 || b[i] == 0x36 || b[i] == 0xf0))
		i++;
	/* hint nops 0f 19, 0f 1d and ud0 0f ff: perf's map gives them no ModRM */
	return i + 1 < n && b[i] == 0x0f &&
	       (b[i + 1] == 0x19 || b[i + 1] == 0x1d || b[i + 1] == 0xff);
}

struct run {
	u8 *bytes; /* the section's instructions, back to back */
	size_t nr, alloc;
	size_t *start; /* where each instruction begins, -1 for (bad) */
	u8 *len;
	size_t nr_insns, alloc_insns;
};

static int run__add(struct run *r, const u8 *b, size_t n, bool bad)
{
	if (r->nr + n > r->alloc) {
		size_t alloc = (r->alloc + n) * 2;
		u8 *p = realloc(r->bytes, alloc);

		if (!p)
			return -ENOMEM;
		r->bytes = p;
		r->alloc = alloc;
	}
	if (r->nr_insns == r->alloc_insns) {
		size_t alloc = r->alloc_insns * 2 + 1024;
		size_t *s = realloc(r->start, alloc * sizeof(*s));
		u8 *l;

		if (!s)
			return -ENOMEM;
		r->start = s;
		l = realloc(r->len, alloc);
		if (!l)
			return -ENOMEM;
		r->len = l;
		r->alloc_insns = alloc;
	}
	r->start[r->nr_insns] = bad ? (size_t)-1 : r->nr;
	r->len[r->nr_insns++] = n;
	memcpy(r->bytes + r->nr, b, n);
	r->nr += n;
	return 0;
}

/* decode every instruction of the run at its place; returns the mismatches */
static int run__check(struct run *r, const char *obj, unsigned int flags, int *nr_checked)
{
	int bad = 0;
	size_t i;

	for (i = 0; i < r->nr_insns; i++) {
		size_t at = r->start[i];
		int len;

		if (at == (size_t)-1)
			continue;
		len = insn_len(r->bytes + at, NULL, r->nr - at, flags, NULL);
		(*nr_checked)++;
		if (len == r->len[i] || perf_differs(r->bytes + at, r->len[i]))
			continue;
		if (bad++ < 10) {
			char hex[64];
			size_t k, n = 0;

			for (k = 0; k < r->len[i] && n + 4 < sizeof(hex); k++)
				n += snprintf(hex + n, sizeof(hex) - n, " %02x", r->bytes[at + k]);
			pr_debug("%s: objdump says %u bytes for%s, we say %d\n", obj, r->len[i],
				 hex, len);
		}
	}
	r->nr = r->nr_insns = 0;
	return bad;
}

/*
 * objdump -d --insn-width=15 prints "  addr:\tb0 b1 ...\tmnemonic": one
 * line per instruction with all of its bytes.
 */
static int check_object(const char *obj, unsigned int flags, int *nr_checked)
{
	struct run r = {};
	char cmd[4200], *line = NULL;
	unsigned long long next = 0;
	size_t cap = 0;
	int bad = 0, err = 0;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "objdump -d -z --insn-width=15 '%s' 2>/dev/null", obj);
	f = popen(cmd, "r");
	if (!f)
		return -errno;
	while (getline(&line, &cap, f) > 0) {
		unsigned long long addr;
		char *p = line, *tab, *end;
		u8 b[INSN_LEN_MAX + 1];
		size_t n = 0;

		addr = strtoull(p, &end, 16);
		if (end == p || *end != ':' || end[1] != '\t')
			continue;
		p = end + 2;
		tab = strchr(p, '\t');
		while (p && *p && p != tab && n < sizeof(b)) {
			unsigned long v = strtoul(p, &end, 16);

			if (end == p)
				break;
			b[n++] = v;
			p = end;
			while (*p == ' ')
				p++;
		}
		if (!n || n > INSN_LEN_MAX)
			continue;
		/* a gap (another section, skipped padding): a new run */
		if (addr != next && r.nr_insns)
			bad += run__check(&r, obj, flags, nr_checked);
		next = addr + n;
		err = run__add(&r, b, n, tab && strstr(tab, "(bad)"));
		if (err)
			break;
	}
	bad += run__check(&r, obj, flags, nr_checked);
	free(line);
	free(r.bytes);
	free(r.start);
	free(r.len);
	if (pclose(f) != 0 && !err)
		err = -EIO;
	return err ?: bad;
}

static char *sh_out(const char *cmd)
{
	char *out = NULL;

	if (fixture__run(cmd, &out, NULL) || !out) {
		free(out);
		return NULL;
	}
	out[strcspn(out, "\n")] = '\0';
	return out;
}

static int test__insn_len_objdump(struct test_suite *t)
{
	char *libc64 = sh_out("gcc -print-file-name=libc.so.6 2>/dev/null");
	char *libc32 = sh_out("gcc -m32 -print-file-name=libc.so.6 2>/dev/null");
	char *perf = sh_out("command -v perf");
	struct {
		const char *path;
		unsigned int flags;
	} objs[] = {
	    {perf, INSN_LEN_64},
	    {libc64, INSN_LEN_64},
	    {libc32, 0},
	};
	int i, total = 0, ret = TEST_OK, done = 0;

	if (system("objdump --version >/dev/null 2>&1")) {
		test_skip(t, "objdump (binutils) is not installed");
		ret = TEST_SKIP;
		goto out;
	}
	for (i = 0; i < (int)(sizeof(objs) / sizeof(objs[0])); i++) {
		char real[4096];
		int n = 0, bad;

		if (!objs[i].path || objs[i].path[0] != '/' || !realpath(objs[i].path, real)) {
			pr_debug("%s: not found, not checked\n", objs[i].path ?: "(object)");
			continue;
		}
		bad = check_object(real, objs[i].flags, &n);
		pr_debug("%s (%s-bit): %d instructions, %d lengths differ\n", real,
			 objs[i].flags & INSN_LEN_64 ? "64" : "32", n, bad);
		if (bad || n < 1000) {
			ret = TEST_FAIL;
			continue;
		}
		total += n;
		done |= objs[i].flags & INSN_LEN_64 ? 1 : 2;
	}
	if (ret == TEST_OK && done != 3) {
		test_skip(t, "no 32-bit C library to check (gcc-multilib missing)");
		ret = done & 1 ? TEST_SKIP : TEST_FAIL;
	}
	pr_debug("%d instructions checked\n", total);
out:
	free(libc64);
	free(libc32);
	free(perf);
	return ret;
}

struct test_suite suite__insn_len_objdump = {
    .desc = "insn: instruction lengths equal objdump's on perf, libc and a 32-bit libc",
    .func = test__insn_len_objdump,
};
