// SPDX-License-Identifier: GPL-2.0-only
/*
 * The instruction-length decoder on hand-written encodings: prefixes,
 * REX, VEX, EVEX (AVX-512, k-mask moves such as kmovq that capstone 4
 * does not know),
 * XOP, 3DNow!, ModRM/SIB/displacement forms, immediates, 32- and 16-bit
 * addressing, and the encodings perf's decoder refuses.  Valid ones were
 * checked with objdump -D -b binary (-mi386:x86-64 or -mi386); where perf
 * and the CPU differ (66 e8 in 64-bit mode, XOP) the entry says which we
 * follow.  The partial-bytes cases: '?' is an unknown byte.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"
#include "../util/insn-len.h"

#define M64 INSN_LEN_64
#define M32 0
#define M16 INSN_LEN_16
#define XOP INSN_LEN_XOP

/* clang-format off */
static const struct {
	unsigned int flags;
	const char *bytes; /* hex, '?' for an unknown byte */
	int len;	   /* or -errno */
	int unknown_at;	   /* for -EAGAIN */
} cases[] = {
	{ M64, "90", 1 },
	{ M64, "c3", 1 },
	{ M64, "cc", 1 },
	{ M64, "48 89 e5", 3 },
	{ M64, "e8 00 00 00 00", 5 },
	{ M64, "e9 3b 00 00 00", 5 },
	{ M64, "eb fe", 2 },
	/* Intel reads 66 e8 with a 32-bit offset in 64-bit mode, so does perf (objdump: 4) */
	{ M64, "66 e8 00 00 00 00", 6 },
	{ M32, "66 e8 00 00", 4 },
	{ M64, "0f 84 00 00 00 00", 6 },
	{ M64, "66 68 01 02", 4 }, /* but push keeps 66: perf 6.1 says so (insn-len-perf) */
	{ M64, "68 01 02 03 04", 5 },
	{ M32, "66 0f 84 00 00", 5 },
	/* nops */
	{ M64, "0f 1f 44 00 00", 5 },
	{ M64, "66 90", 2 },
	{ M64, "66 0f 1f 84 00 00 00 00 00", 9 },
	{ M64, "66 66 2e 0f 1f 84 00 00 00 00 00", 11 },
	{ M64, "f3 0f 1e fa", 4 }, /* endbr64 */
	/* immediates by operand size */
	{ M64, "48 b8 01 02 03 04 05 06 07 08", 10 },
	{ M64, "b8 01 02 03 04", 5 },
	{ M64, "66 b8 01 02", 4 },
	{ M64, "48 c7 c0 01 02 03 04", 7 },
	{ M64, "66 c7 c0 01 02", 5 },
	{ M64, "48 81 c4 00 01 00 00", 7 },
	{ M64, "48 83 c4 08", 4 },
	{ M64, "6b c0 07", 3 },
	{ M64, "69 c0 00 01 00 00", 6 },
	{ M64, "c8 10 00 00", 4 }, /* enter: Iw and Ib */
	{ M64, "c2 08 00", 3 },
	{ M64, "cd 80", 2 },
	/* group 3: only test has an immediate */
	{ M64, "f6 c0 01", 3 },
	{ M64, "f6 d0", 2 },
	{ M64, "f7 c0 01 02 03 04", 6 },
	{ M64, "66 f7 c0 01 02", 5 },
	{ M64, "f7 d8", 2 },
	/* moffs: address sized */
	{ M64, "a1 01 02 03 04 05 06 07 08", 9 },
	{ M64, "67 a1 01 02 03 04", 6 },
	{ M32, "a1 01 02 03 04", 5 },
	{ M32, "67 a1 01 02", 4 },
	/* ModRM, SIB, displacement */
	{ M64, "8b 04 24", 3 },
	{ M64, "8b 44 24 08", 4 },
	{ M64, "8b 84 24 00 01 00 00", 7 },
	{ M64, "8b 04 25 00 10 00 00", 7 }, /* SIB base 5, mod 0: disp32 */
	{ M64, "8b 05 00 10 00 00", 6 },    /* rip-relative */
	{ M64, "8b 45 f8", 3 },
	/* 16-bit addressing */
	{ M32, "67 8b 06 34 12", 5 },
	{ M32, "67 8b 00", 3 },
	{ M32, "67 8b 40 01", 4 },
	{ M32, "67 8b 80 34 12", 5 },
	{ M32, "67 8b 04", 3 }, /* rm 4 is (si), no SIB with 16-bit addresses */
	{ M16, "8b 06 34 12", 4 },
	{ M16, "b8 34 12", 3 },
	{ M16, "66 b8 01 02 03 04", 6 },
	{ M16, "67 8b 04 24", 4 },
	/* far pointers: offset of the operand size and a selector */
	{ M32, "9a 01 02 03 04 05 06", 7 },
	{ M32, "66 9a 01 02 03 04", 6 },
	{ M32, "ea 01 02 03 04 05 06", 7 },
	/* in 32-bit mode 40..4f are inc/dec, not REX */
	{ M32, "48", 1 },
	{ M32, "40 90", 1 },
	/* x87 */
	{ M64, "d9 ee", 2 },
	{ M64, "dd 44 24 08", 4 },
	/* 3DNow!: ModRM, then the suffix byte that names the operation */
	{ M64, "0f 0f c1 b4", 4 },
	{ M64, "0f 0f 44 24 08 9e", 6 },
	{ M32, "0f 0f 40 08 9e", 5 },
	/* SSE, prefix-selected forms */
	{ M64, "66 0f 6f 07", 4 },
	{ M64, "f3 0f 6f 07", 4 },
	{ M64, "66 0f 3a 0f c1 08", 6 },
	{ M64, "66 0f 38 00 c1", 5 },
	{ M64, "f3 48 0f b8 c0", 5 }, /* popcnt */
	{ M64, "f2 0f 38 f1 c1", 5 }, /* crc32 */
	{ M64, "66 0f 71 d0 05", 5 },
	{ M64, "0f 71 d0 05", 4 },
	{ M64, "66 0f 73 fa 08", 5 }, /* pslldq */
	{ M64, "0f ba e0 05", 4 },
	{ M64, "0f a4 c1 05", 4 },
	{ M64, "66 0f 3a 44 c1 00", 6 }, /* pclmulqdq */
	{ M64, "0f c7 f0", 3 },		 /* rdrand */
	{ M64, "0f ae f0", 3 },		 /* mfence */
	{ M64, "0f 01 d0", 3 },		 /* xgetbv */
	/* VEX */
	{ M64, "c5 f8 77", 3 }, /* vzeroupper */
	{ M64, "c5 fd 6f 07", 4 },
	{ M64, "c5 fd 6f 44 24 20", 6 },
	{ M64, "c4 e2 7d 18 07", 5 },
	{ M64, "c4 e3 7d 4a c1 20", 6 }, /* vblendvps: the fourth register in an Ib */
	{ M64, "c4 e3 fd 00 c1 1b", 6 }, /* vpermq */
	{ M64, "c4 e2 78 f2 c1", 5 },	 /* andn */
	{ M64, "c4 e2 70 f3 c8", 5 },	 /* blsr: group 17 */
	{ M64, "c4 e3 7b f0 c1 05", 6 }, /* rorx */
	{ M64, "c5 f9 71 d0 05", 5 },	 /* vpsrlw: group 12 */
	{ M64, "c4 e2 f9 90 04 24", 6 }, /* vpgatherdq */
	{ M32, "c5 f8 77", 3 },
	{ M32, "c5 fd 6f c1", 4 },
	/* ... or les, lds, bound in 32-bit mode when the next byte is no register ModRM */
	{ M32, "c5 06", 2 },
	{ M32, "c4 07", 2 },
	{ M32, "62 00", 2 },
	/* k-mask moves: VEX forms of setcc's opcodes (capstone 4 knows kmovw, not kmovq/kmovd) */
	{ M64, "c5 f8 90 c1", 4 },    /* kmovw %k1,%k0 */
	{ M64, "c4 e1 f8 90 c1", 5 }, /* kmovq %k1,%k0 */
	{ M64, "c5 f9 90 c1", 4 },    /* kmovb */
	{ M64, "c5 f8 92 c8", 4 },    /* kmovw %eax,%k1 */
	{ M64, "c5 fb 92 c8", 4 },    /* kmovd %eax,%k1 */
	{ M64, "c5 f8 93 c1", 4 },    /* kmovw %k1,%eax */
	{ M64, "c5 f8 91 04 24", 5 }, /* kmovw %k0,(%rsp) */
	{ M64, "c5 f4 41 c2", 4 },    /* kandw */
	{ M64, "c5 f8 98 c1", 4 },    /* kortestw */
	{ M64, "c4 e3 f9 30 c1 05", 6 }, /* kshiftrw */
	/* EVEX */
	{ M64, "62 f1 7c 48 28 c1", 6 },
	{ M64, "62 f1 fd 48 6f 44 24 01", 8 },
	{ M64, "62 f1 7e 48 6f 04 24", 7 },
	{ M64, "62 f1 ff 48 6f c1", 6 },	  /* vmovdqu16: EVEX only */
	{ M64, "62 f3 7d 48 1b c1 01", 7 },	  /* vextractf32x8: EVEX only */
	{ M64, "62 f2 7d 48 c6 4c 24 01", 8 },	  /* vgatherpf0dps: group 18, pp 66 */
	{ M64, "62 f2 7c 48 c6 4c 24 01", -EINVAL }, /* the same without 66 */
	{ M64, "62 f3 fd 48 25 c1 ff", 7 },	  /* vpternlogq */
	{ M64, "62 f2 fd 49 90 04 24", 7 },	  /* vpgatherdq with a mask */
	{ M64, "62 b1 7c 48 10 84 24 00 01 00 00", 11 },
	/* AVX512-FP16: EVEX maps 5 and 6, and prefix-less forms in 0f 3a */
	{ M64, "62 f5 7c 48 58 c1", 6 },	  /* vaddph */
	{ M64, "62 f6 7d 48 98 c1", 6 },	  /* vfmadd132ph */
	{ M64, "62 f5 7e 08 10 44 24 01", 8 },	  /* vmovsh */
	{ M64, "62 f3 7c 48 c2 c1 00", 7 },	  /* vcmpph */
	{ M64, "62 f5 7d 48 58 c1", -EINVAL },	  /* no vaddph with 66 */
	{ M64, "62 f7 7c 48 58 c1", -EINVAL },	  /* no map 7 */
	{ M64, "c4 e5 78 58 c1", -EINVAL },	  /* map 5 is EVEX only */
	{ M64, "0f 3a 08 c1 00", 5 },		  /* perf reads it as vrndscaleph's form */
	{ M64, "0f 3a 26 c1 00", -EINVAL },	  /* vgetmantph: EVEX only */
	/* XOP, as AMD defines it, or (as perf) pop Ev */
	{ M64 | XOP, "8f e8 78 c0 c1 00", 6 },
	{ M64 | XOP, "8f e9 78 90 c1", 5 },
	{ M64 | XOP, "8f ea 78 10 c1 00 00 00 00", 9 },
	{ M64 | XOP, "8f c0", 2 }, /* map 0: pop %rax */
	{ M64, "8f e8 78 c0 c1 00", 2 },
	/* the hypervisor emulation prefix (ud2 "xen", ud2 "kvm") */
	{ M64, "0f 0b 78 65 6e 0f a2", 7 },
	{ M64, "0f 0b 6b 76 6d 0f 01 c1", 8 },
	{ M64, "0f 0b", 2 },
	/* legacy prefixes: a repeat counts once, a fifth different one is the opcode */
	{ M64, "66 66 66 66 66 90", 6 },
	{ M64, "26 2e 36 3e 64 90", 5 },
	{ M64, "48 66 90", 2 }, /* REX must come last: here 66 is the opcode */
	/* 15 bytes at most */
	{ M64, "2e 2e 2e 2e 2e 2e 66 0f 1f 84 00 00 00 00 00", 15 },
	{ M64, "2e 2e 2e 2e 2e 2e 2e 66 0f 1f 84 00 00 00 00 00", -ENODATA },
	/* bytes that end first */
	{ M64, "e8 00 00", -ENODATA },
	{ M64, "0f", -ENODATA },
	{ M64, "c4 e2", -ENODATA },
	{ M64, "66", -ENODATA },
	{ M64, "", -ENODATA },
	/* what perf's decoder refuses */
	{ M64, "0f 38 f2 c1", -EINVAL },	 /* andn without VEX */
	{ M64, "66 0f 38 0c c1", -EINVAL },	 /* vpermilps without VEX */
	{ M64, "c5 f8 00 c0", -EINVAL },	 /* sldt has no VEX form */
	{ M64, "c4 e1 78 0b", -EINVAL },	 /* nor ud2 */
	{ M64, "c4 e4 78 00 c0", -EINVAL },	 /* VEX map 4 */
	{ M64, "c5 f8 71 d0 05", -EINVAL },	 /* psrlw's MMX form has none */
	{ M64, "c4 e3 7d 1b c1 01", -EINVAL },	 /* EVEX-only with VEX */
	{ M64, "48 9a 01 02 03 04 05 06", -EINVAL }, /* no far pointer with a 64-bit offset */
	/* partly known bytes */
	{ M64, "48 ? ?", -EAGAIN, 1 },
	{ M64, "cc ? ?", 1 },
	{ M64, "e9 ? ? ? ?", 5 },
	{ M64, "0f 1f 44 ? ?", -EAGAIN, 3 }, /* the SIB decides */
	{ M64, "0f 1f 40 ?", 4 },
	{ M64, "? 1f 40 00", -EAGAIN, 0 },
	{ M64, "0f 0b ? ? ?", -EAGAIN, 2 }, /* an emulation prefix or not */
	{ M64, "66 0f 1f 84 00 ? ? ? ?", 9 },
};
/* clang-format on */

/* clang-format off */
static const struct {
	const char *bytes;
	const char *field;
} fields[] = {
	{ "0f 1f 44 00 00 90", " insn: 0f 1f 44 00 00" },
	{ "e9 ? ? ? ? ?", " insn: e9 ?? ?? ?? ??" },
	{ "48 ? ?", " insn: 48 ?? ..." },
	{ "cc ? ?", " insn: cc" },
	{ "66 0f 1f 84 00 ? ? ? ? ? ?", " insn: 66 0f 1f 84 00 ?? ?? ?? ??" },
	{ "0f 1f 44 ? ?", " insn: 0f 1f 44 ?? ..." },
	{ "? 0f 1f", "" },	     /* nothing known at the address */
	{ "c4 e1 78 0b", "" },	     /* does not decode */
	{ "e8 00 00", "" },	     /* ends too soon */
};
/* clang-format on */

/* "48 ? ?" -> bytes and known mask; returns the count */
static size_t parse(const char *s, u8 *bytes, u8 *known, size_t max)
{
	size_t n = 0;

	while (*s && n < max) {
		char *end;
		unsigned long v;

		while (*s == ' ')
			s++;
		if (!*s)
			break;
		if (*s == '?') {
			bytes[n] = 0;
			known[n++] = 0;
			s++;
			continue;
		}
		v = strtoul(s, &end, 16);
		bytes[n] = v;
		known[n++] = 1;
		s = end;
	}
	return n;
}

static int test__insn_len_encodings(struct test_suite *t)
{
	int bad = 0;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		u8 bytes[32], known[32];
		size_t n = parse(cases[i].bytes, bytes, known, sizeof(bytes)), at = 99;
		bool partial = memchr(known, 0, n) != NULL;
		int len = insn_len(bytes, partial ? known : NULL, n, cases[i].flags, &at);

		if (len != cases[i].len || (len == -EAGAIN && (int)at != cases[i].unknown_at)) {
			pr_debug("%s-bit '%s': %d (unknown at %zu), expected %d\n",
				 cases[i].flags & M64 ? "64" :
				 cases[i].flags & M16 ? "16" :
							"32",
				 cases[i].bytes, len, at, cases[i].len);
			bad++;
		}
	}
	pr_debug("%zu encodings, %d wrong\n", sizeof(cases) / sizeof(cases[0]), bad);

	/* the insn field: unknown bytes are "??", an unknown length ends in " ..." */
	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		u8 bytes[32], known[32];
		size_t n = parse(fields[i].bytes, bytes, known, sizeof(bytes));
		char buf[128];
		int len = insn_len__scnprintf_field(buf, sizeof(buf), bytes, known, n, M64);

		if (strcmp(buf, fields[i].field) || len != (int)strlen(fields[i].field)) {
			pr_debug("'%s': '%s', expected '%s'\n", fields[i].bytes, buf,
				 fields[i].field);
			bad++;
		}
	}
	/*
	 * Never a guess: a length decided with some bytes unknown is the
	 * length whatever those bytes are, and an unknown byte that decides
	 * it is named.  Pseudo-random bytes and masks, every length.
	 */
	{
		u32 seed = 0x7e57;
		int k, wrong = 0;

		for (k = 0; k < 200000 && wrong < 5; k++) {
			u8 b[INSN_LEN_MAX], known[INSN_LEN_MAX], other[INSN_LEN_MAX];
			size_t n, j, at = 99;
			int part, full;

			seed = seed * 1103515245 + 12345;
			n = (seed >> 16) % (INSN_LEN_MAX + 1);
			for (j = 0; j < n; j++) {
				seed = seed * 1103515245 + 12345;
				b[j] = seed >> 16;
				/* mostly known, as from an image with a hole */
				known[j] = (seed >> 8) % 4 != 0;
				other[j] = known[j] ? b[j] : (u8)~b[j];
			}
			part = insn_len(b, known, n, k & 1 ? M64 : M32, &at);
			if (part == -EAGAIN && (at >= n || known[at]))
				wrong++;
			if (part > 0) {
				full = insn_len(other, NULL, n, k & 1 ? M64 : M32, NULL);
				if (full != part || (size_t)part > n)
					wrong++;
				full = insn_len(b, NULL, n, k & 1 ? M64 : M32, NULL);
				if (full != part)
					wrong++;
			}
		}
		if (wrong) {
			pr_debug("%d partly known decodes guessed\n", wrong);
			bad++;
		}
	}

	/* a short buffer: cut at a whole byte, NUL terminated */
	{
		u8 b[] = {0x0f, 0x1f, 0x44, 0x00, 0x00};
		char buf[13];
		int len = insn_len__scnprintf_field(buf, sizeof(buf), b, NULL, sizeof(b), M64);

		if (len != 12 || strcmp(buf, " insn: 0f 1f")) {
			pr_debug("short buffer: '%s' (%d)\n", buf, len);
			bad++;
		}
	}
	(void)t;
	return bad ? TEST_FAIL : TEST_OK;
}

struct test_suite suite__insn_len_encodings = {
    .desc = "insn: lengths of hand-written encodings (prefixes, VEX, EVEX, XOP, 3DNow!)",
    .func = test__insn_len_encodings,
};
