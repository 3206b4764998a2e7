// SPDX-License-Identifier: GPL-2.0-only
/*
 * x86 instruction lengths from opcode attribute tables.
 *
 * The facts are the Intel SDM's opcode maps as perf's decoder holds them
 * (tools/arch/x86/lib/x86-opcode-map.txt): which opcodes take a ModRM
 * byte, which immediate, which accept or need a VEX/EVEX prefix, and
 * where the last legacy prefix (66, f3, f2) selects another form.  Where
 * that map differs from the hardware (0f 19 and 0f 1d, hint nops with a
 * ModRM byte, are listed empty; 66 e8 is read with a 32-bit offset as
 * Intel CPUs do) we follow perf: the point is to print what perf prints.
 * What perf 6.1 decodes was checked entry by entry against it (the
 * insn-len-perf test probes every opcode of every map under every prefix
 * and VEX/EVEX form): that is how EVEX's 3-bit map field with the
 * AVX512-FP16 maps 5 and 6, and push Iz keeping a 16-bit immediate under
 * 66, are known to be perf 6.1's behaviour.
 *
 * An instruction is read in this order, each step deciding what the next
 * one reads:
 *
 *   [emulate prefix] [legacy prefixes] [REX] [VEX2|VEX3|EVEX] opcode
 *   [0f [38|3a] ...]  [ModRM [SIB] [disp]] [immediates]
 */
#include <errno.h>
#include <string.h>

#include "insn-len.h"

/* what an opcode needs after it, in one word */
enum {
	IMM_NONE,
	IMM_B,	 /* Ib, Jb */
	IMM_W,	 /* Iw */
	IMM_D,	 /* Id */
	IMM_Q,	 /* Iq */
	IMM_PTR, /* Ap: offset of the operand size, then a 16-bit selector */
	IMM_Z,	 /* Iz, Jz: 16 or 32 bits */
	IMM_V,	 /* Iv: 16, 32 or 64 bits */
	IMM_MASK = 7,

	A_MODRM = 1 << 3,
	A_IMM2 = 1 << 4,    /* a second Ib (enter, extrq) */
	A_MOFFS = 1 << 5,   /* an address-sized offset (mov al, moffs) */
	A_F64 = 1 << 6,	    /* 64-bit operand size in 64-bit mode, whatever 66 says */
	A_VEXOK = 1 << 7,   /* has a VEX/EVEX form */
	A_VEXONLY = 1 << 8, /* has only a VEX form */
	A_EVEXONLY = 1 << 9,
	A_ESC_SHIFT = 10, /* 0f, 0f 38, 0f 3a: the map of the next opcode byte */
	A_ESC_MASK = 3 << A_ESC_SHIFT,
	A_GRP_SHIFT = 12, /* ModRM.reg selects the instruction */
	A_GRP_MASK = 15 << A_GRP_SHIFT,
};

/* the groups whose members differ in immediates or VEX forms; the rest are GRP_PLAIN */
enum {
	GRP_NONE,
	GRP_PLAIN,
	GRP_3_1,
	GRP_3_2,
	GRP_12,
	GRP_13,
	GRP_14,
	GRP_15,
	GRP_17,
	GRP_18,
	GRP_19,
	GRP_NR
};

/* the opcode maps by their VEX/EVEX number; 5 and 6 are EVEX-only (AVX512-FP16) */
enum { MAP_ONE, MAP_0F, MAP_0F38, MAP_0F3A, MAP_5 = 5, MAP_6, MAP_NR };

#define ESC(map) ((map) << A_ESC_SHIFT)
#define GRP(g) (((g) << A_GRP_SHIFT) | A_MODRM)

#define M A_MODRM
#define IB IMM_B
#define IW IMM_W
#define IZ IMM_Z
#define F64 A_F64
#define V (A_MODRM | A_VEXOK) /* a ModRM instruction with a VEX form */
#define VO (V | A_VEXONLY)    /* only with VEX */
#define EO (V | A_EVEXONLY)   /* only with EVEX */
#define VB (V | IMM_B)
#define VOB (VO | IMM_B)
#define EOB (EO | IMM_B)
#define GP GRP(GRP_PLAIN)

/* clang-format off */
static const u32 one_byte[256] = {
	[0x00 ... 0x03] = M, [0x04] = IB, [0x05] = IZ,
	[0x08 ... 0x0b] = M, [0x0c] = IB, [0x0d] = IZ, [0x0f] = ESC(MAP_0F),
	[0x10 ... 0x13] = M, [0x14] = IB, [0x15] = IZ,
	[0x18 ... 0x1b] = M, [0x1c] = IB, [0x1d] = IZ,
	[0x20 ... 0x23] = M, [0x24] = IB, [0x25] = IZ,
	[0x28 ... 0x2b] = M, [0x2c] = IB, [0x2d] = IZ,
	[0x30 ... 0x33] = M, [0x34] = IB, [0x35] = IZ,
	[0x38 ... 0x3b] = M, [0x3c] = IB, [0x3d] = IZ,
	[0x50 ... 0x5f] = F64,
	/* bound and arpl/movsxd; in 64-bit mode 62 is EVEX, found before this */
	[0x62] = M, [0x63] = M,
	/*
	 * push Iz: 66 makes it 16 bits in 64-bit mode too; perf 6.1 forces
	 * 64 bits for branches (f64) only, not for default-64 pushes (d64)
	 */
	[0x68] = IZ, [0x69] = M | IZ, [0x6a] = IB | F64, [0x6b] = M | IB,
	[0x70 ... 0x7f] = IB,
	[0x80] = GP | IB, [0x81] = GP | IZ, [0x82] = GP | IB, [0x83] = GP | IB,
	[0x84 ... 0x8e] = M, [0x8f] = GP | F64,
	[0x9a] = IMM_PTR, [0x9c] = F64, [0x9d] = F64,
	[0xa0 ... 0xa3] = A_MOFFS, [0xa8] = IB, [0xa9] = IZ,
	[0xb0 ... 0xb7] = IB, [0xb8 ... 0xbf] = IMM_V,
	[0xc0] = GP | IB, [0xc1] = GP | IB, [0xc2] = IW | F64,
	/* les/lds outside 64-bit mode when not VEX */
	[0xc4] = M, [0xc5] = M,
	[0xc6] = GP | IB, [0xc7] = GP | IZ, [0xc8] = IW | A_IMM2, [0xc9] = F64, [0xca] = IW,
	[0xcd] = IB,
	[0xd0 ... 0xd3] = GP, [0xd4] = IB, [0xd5] = IB,
	[0xd8 ... 0xdf] = M, /* x87 */
	[0xe0 ... 0xe3] = IB | F64, [0xe4 ... 0xe7] = IB, [0xe8] = IZ | F64, [0xe9] = IZ | F64,
	[0xea] = IMM_PTR, [0xeb] = IB | F64,
	[0xf6] = GRP(GRP_3_1), [0xf7] = GRP(GRP_3_2), [0xfe] = GP, [0xff] = GP,
};

/*
 * An escaped opcode: its attributes without a last prefix, then with 66,
 * f3 and f2 last.  When any of those three is given, the last prefix
 * selects among them and a prefix with no form of its own gives nothing
 * (no ModRM: the decoder reads such bytes as a bare opcode, as perf's
 * does).  Under VEX the VEX.pp field is that prefix.
 */
struct opcode {
	u32 a[4];
};

#define P(n, p66, pf3, pf2) { { (n), (p66), (pf3), (pf2) } }
#define A(n) P(n, 0, 0, 0)
#define P4(x) P(x, x, x, x)
#define P66(x) P(0, x, 0, 0)

static const struct opcode map_0f[256] = {
	[0x00] = A(GP), [0x01] = A(GP), [0x02] = A(M), [0x03] = A(M),
	[0x0d] = A(GP), [0x0f] = A(M | IB), /* 3DNow!: the suffix byte reads as an Ib */
	[0x10 ... 0x12] = P4(V), [0x13] = P(V, V, 0, 0),
	[0x14 ... 0x15] = P(V, V, 0, 0), [0x16] = P(V, V, V, 0), [0x17] = P(V, V, 0, 0),
	[0x18] = A(GP), [0x1a ... 0x1b] = P4(M), [0x1c] = A(GP), [0x1e] = A(GP), [0x1f] = A(M),
	[0x20 ... 0x23] = A(M),
	[0x28 ... 0x29] = P(V, V, 0, 0), [0x2a] = P(M, M, V, V), [0x2b] = P(V, V, 0, 0),
	[0x2c ... 0x2d] = P(M, M, V, V), [0x2e ... 0x2f] = P(V, V, 0, 0),
	[0x38] = A(ESC(MAP_0F38)), [0x3a] = A(ESC(MAP_0F3A)),
	/* cmovcc; the k-mask instructions are their VEX forms */
	[0x40] = A(M), [0x41 ... 0x42] = P(V, V, 0, 0), [0x43] = A(M),
	[0x44 ... 0x47] = P(V, V, 0, 0), [0x48 ... 0x49] = A(M),
	[0x4a ... 0x4b] = P(V, V, 0, 0), [0x4c ... 0x4f] = A(M),
	[0x50] = P(V, V, 0, 0), [0x51] = P4(V), [0x52 ... 0x53] = P(V, 0, V, 0),
	[0x54 ... 0x57] = P(V, V, 0, 0), [0x58 ... 0x5a] = P4(V), [0x5b] = P(V, V, V, 0),
	[0x5c ... 0x5f] = P4(V),
	[0x60 ... 0x6b] = P(M, V, 0, 0), [0x6c ... 0x6d] = P66(V), [0x6e] = P(M, V, 0, 0),
	[0x6f] = P(M, V, V, EO),
	[0x70] = P(M | IB, VB, VB, VB), [0x71] = A(GRP(GRP_12)), [0x72] = A(GRP(GRP_13)),
	[0x73] = A(GRP(GRP_14)), [0x74 ... 0x76] = P(M, V, 0, 0),
	[0x77] = A(A_VEXOK), /* emms; vzeroupper, vzeroall */
	[0x78 ... 0x79] = P(V, EO, EO, EO), [0x7a ... 0x7b] = P(0, EO, EO, EO),
	[0x7c ... 0x7d] = P(0, V, 0, V), [0x7e] = P(M, V, V, 0), [0x7f] = P(M, V, V, EO),
	[0x80 ... 0x8f] = A(IZ | F64),
	/* setcc; kmov, kortest, ktest are their VEX forms */
	[0x90 ... 0x91] = P(V, V, 0, 0), [0x92 ... 0x93] = P(V, V, 0, V), [0x94 ... 0x97] = A(M),
	[0x98 ... 0x99] = P(V, V, 0, 0), [0x9a ... 0x9f] = A(M),
	[0xa0 ... 0xa1] = A(F64), [0xa3] = A(M), [0xa4] = A(M | IB), [0xa5] = A(M),
	[0xa6 ... 0xa7] = A(GP), [0xa8 ... 0xa9] = A(F64), [0xab] = A(M), [0xac] = A(M | IB),
	[0xad] = A(M), [0xae] = A(GRP(GRP_15)), [0xaf] = A(M),
	[0xb0 ... 0xb7] = A(M), [0xb8] = P(0, 0, M, 0), /* popcnt; jmpe has no ModRM */
	[0xb9] = A(GP), [0xba] = A(GP | IB), [0xbb] = A(M), [0xbc ... 0xbd] = P4(M),
	[0xbe ... 0xbf] = A(M),
	[0xc0 ... 0xc1] = A(M), [0xc2] = P4(VB), [0xc3] = A(M), [0xc4 ... 0xc5] = P(M | IB, VB, 0, 0),
	[0xc6] = P(VB, VB, 0, 0), [0xc7] = A(GP),
	[0xd0] = P(0, V, 0, V), [0xd1 ... 0xd5] = P(M, V, 0, 0), [0xd6] = P(0, V, M, M),
	[0xd7 ... 0xdf] = P(M, V, 0, 0),
	[0xe0 ... 0xe5] = P(M, V, 0, 0), [0xe6] = P(0, V, V, V), [0xe7 ... 0xef] = P(M, V, 0, 0),
	[0xf0] = P(0, 0, 0, V), [0xf1 ... 0xfe] = P(M, V, 0, 0),
};

static const struct opcode map_0f38[256] = {
	[0x00 ... 0x0b] = P(M, V, 0, 0), [0x0c ... 0x0f] = P66(VO),
	[0x10] = P(0, V, EO, 0), [0x11 ... 0x12] = P(0, EO, EO, 0), [0x13] = P(0, VO, EO, 0),
	[0x14 ... 0x15] = P(0, V, EO, 0), [0x16] = P66(VO), [0x17] = P66(V),
	[0x18 ... 0x1a] = P66(VO), [0x1b] = P66(EO), [0x1c ... 0x1e] = P(M, V, 0, 0),
	[0x1f] = P66(EO),
	[0x20 ... 0x25] = P(0, V, EO, 0), [0x26 ... 0x27] = P(0, EO, EO, 0),
	[0x28 ... 0x2a] = P(0, V, EO, 0), [0x2b] = P66(V), [0x2c ... 0x2f] = P66(VO),
	[0x30 ... 0x35] = P(0, V, EO, 0), [0x36] = P66(VO), [0x37] = P66(V),
	[0x38 ... 0x3a] = P(0, V, EO, 0), [0x3b ... 0x3f] = P66(V),
	[0x40 ... 0x41] = P66(V), [0x42 ... 0x44] = P66(EO), [0x45 ... 0x47] = P66(VO),
	/* AMX */
	[0x49] = P(V, V, 0, V), [0x4b] = P(0, V, VO, V), [0x4c ... 0x4f] = P66(EO),
	/* vpdpbusd, vpdpwssd and their saturating forms also have AVX-VNNI VEX forms */
	[0x50 ... 0x51] = P66(V), [0x52] = P(0, V, EO, EO), [0x53] = P(0, V, 0, EO),
	[0x54 ... 0x55] = P66(EO),
	[0x58 ... 0x5a] = P66(VO), [0x5b] = P66(EO), [0x5c] = P(0, 0, V, 0), [0x5e] = P4(V),
	[0x62 ... 0x66] = P66(EO), [0x68] = P(0, 0, 0, EO),
	[0x70 ... 0x71] = P66(EO), [0x72] = P(0, EO, EO, EO), [0x73] = P66(EO),
	[0x75 ... 0x77] = P66(EO), [0x78 ... 0x79] = P66(VO), [0x7a ... 0x7f] = P66(EO),
	[0x80 ... 0x82] = P66(M), [0x83] = P66(EO),
	[0x88 ... 0x8b] = P66(EO), [0x8c] = P66(VO), [0x8d] = P66(EO), [0x8e] = P66(VO),
	[0x8f] = P66(EO),
	/* gathers and FMA */
	[0x90 ... 0x93] = P66(VO), [0x96 ... 0x99] = P66(VO), [0x9a ... 0x9b] = P(0, VO, 0, EO),
	[0x9c ... 0x9f] = P66(VO),
	[0xa0 ... 0xa3] = P66(EO), [0xa6 ... 0xa9] = P66(VO), [0xaa ... 0xab] = P(0, VO, 0, EO),
	[0xac ... 0xaf] = P66(VO),
	[0xb4 ... 0xb5] = P66(EO), [0xb6 ... 0xbf] = P66(VO),
	[0xc4] = P66(EO), [0xc6] = A(GRP(GRP_18)), [0xc7] = A(GRP(GRP_19)),
	/* sha; the EVEX-only AVX512ER forms take 66 */
	[0xc8] = P(M, EO, 0, 0), [0xc9] = A(M), [0xca ... 0xcd] = P(M, EO, 0, 0), [0xcf] = P66(V),
	[0xdb ... 0xdf] = P66(V),
	/* movbe, crc32 */
	[0xf0 ... 0xf1] = P(M, M, 0, M),
	/* BMI */
	[0xf2] = A(VO), [0xf3] = A(GRP(GRP_17)), [0xf5] = P(VO, M, VO, VO), [0xf6] = P(M, M, M, VO),
	[0xf7] = P4(VO), [0xf8] = P(0, M, M, M), [0xf9] = A(M),
};

/* every opcode of this map has an Ib */
static const struct opcode map_0f3a[256] = {
	[0x00 ... 0x02] = P66(VOB), [0x03] = P66(EOB), [0x04 ... 0x06] = P66(VOB),
	/* the FP16 forms (vrndscaleph, vgetmantph, vreduceph, vfpclassph, vcmpph) take no prefix */
	[0x08] = P(VB, VB, 0, 0), [0x09] = P66(VB), [0x0a] = P(VB, VB, 0, 0),
	[0x0b ... 0x0e] = P66(VB), [0x0f] = P(M | IB, VB, 0, 0),
	[0x14 ... 0x17] = P66(VB), [0x18 ... 0x19] = P66(VOB), [0x1a ... 0x1b] = P66(EOB),
	[0x1d] = P66(VOB), [0x1e ... 0x1f] = P66(EOB),
	[0x20 ... 0x22] = P66(VB), [0x23] = P66(EOB), [0x25] = P66(EOB),
	[0x26 ... 0x27] = P(EOB, EOB, 0, 0),
	[0x30 ... 0x33] = P66(VOB), [0x38 ... 0x39] = P66(VOB), [0x3a ... 0x3b] = P66(EOB),
	[0x3e ... 0x3f] = P66(EOB),
	[0x40 ... 0x42] = P66(VB), [0x43] = P66(EOB), [0x44] = P66(VB), [0x46] = P66(VOB),
	/* the fourth register operand (Lx) sits in an Ib */
	[0x4a ... 0x4b] = P66(VOB), [0x4c] = P66(VB),
	[0x50 ... 0x51] = P66(EOB), [0x54 ... 0x55] = P66(EOB), [0x56 ... 0x57] = P(EOB, EOB, 0, 0),
	[0x60 ... 0x63] = P66(VB), [0x66 ... 0x67] = P(EOB, EOB, 0, 0),
	[0x70 ... 0x73] = P66(EOB),
	[0xc2] = P(EOB, 0, EOB, 0), [0xcc] = A(M | IB), [0xce ... 0xcf] = P66(VB), [0xdf] = P66(VB),
	[0xf0] = P(0, 0, M | IB, VOB), /* hreset; rorx */
};

/* AVX512-FP16, EVEX only: no immediates */
static const struct opcode map_5[256] = {
	[0x10 ... 0x11] = P(0, 0, EO, 0), [0x1d] = P(EO, EO, 0, 0), [0x2a] = P(0, 0, EO, 0),
	[0x2c ... 0x2d] = P(0, 0, EO, 0), [0x2e ... 0x2f] = P(EO, 0, 0, 0),
	[0x51] = P(EO, 0, EO, 0), [0x58 ... 0x59] = P(EO, 0, EO, 0), [0x5a] = P4(EO),
	[0x5b] = P(EO, EO, EO, 0), [0x5c ... 0x5f] = P(EO, 0, EO, 0),
	[0x6e] = P66(EO), [0x78 ... 0x79] = P(EO, EO, EO, 0), [0x7a] = P(0, EO, 0, EO),
	[0x7b] = P(0, EO, EO, 0), [0x7c] = P(EO, EO, 0, 0), [0x7d] = P4(EO), [0x7e] = P66(EO),
};

static const struct opcode map_6[256] = {
	[0x13] = P(EO, EO, 0, 0), [0x2c ... 0x2d] = P66(EO), [0x42 ... 0x43] = P66(EO),
	[0x4c ... 0x4f] = P66(EO), [0x56 ... 0x57] = P(0, 0, EO, EO),
	[0x96 ... 0x9f] = P66(EO), [0xa6 ... 0xaf] = P66(EO), [0xb6 ... 0xbf] = P66(EO),
	[0xd6 ... 0xd7] = P(0, 0, EO, EO),
};

static const struct opcode *const maps[MAP_NR] = {
	[MAP_0F] = map_0f,
	[MAP_0F38] = map_0f38,
	[MAP_0F3A] = map_0f3a,
	[MAP_5] = map_5,
	[MAP_6] = map_6,
};

/*
 * Group members by ModRM.reg, again without a last prefix and with 66,
 * f3, f2; what they add to the group opcode's own attributes.
 */
struct group {
	u32 a[4][8];
};

static const struct group groups[GRP_NR] = {
	/* test Eb,Ib and test Ev,Iz are the only members with an immediate */
	[GRP_3_1] = { { [0] = { [0 ... 1] = IB } } },
	[GRP_3_2] = { { [0] = { [0 ... 1] = IZ } } },
	/* shifts by an immediate: the MMX form, the 66 (and VEX) form */
	[GRP_12] = { { [0] = { [2] = M | IB, [4] = M | IB, [6] = M | IB },
		       [1] = { [2] = VB, [4] = VB, [6] = VB } } },
	[GRP_13] = { { [0] = { [2] = M | IB, [4] = M | IB, [6] = M | IB },
		       [1] = { [0 ... 1] = EOB, [2] = VB, [4] = VB, [6] = VB } } },
	[GRP_14] = { { [0] = { [2] = M | IB, [6] = M | IB },
		       [1] = { [2] = VB, [3] = VB, [6] = VB, [7] = VB } } },
	/* vldmxcsr, vstmxcsr; f3 for rd/wrfsbase and friends */
	[GRP_15] = { { [0] = { [2 ... 3] = V }, [1] = { [6] = M },
		       [2] = { [0 ... 6] = M }, [3] = { [6] = M } } },
	[GRP_17] = { { [0] = { [1 ... 3] = VO } } }, /* blsr, blsmsk, blsi */
	[GRP_18] = { { [1] = { [1 ... 2] = EO, [5 ... 6] = EO } } },
	[GRP_19] = { { [1] = { [1 ... 2] = EO, [5 ... 6] = EO } } },
};
/* clang-format on */

struct insn_dec {
	const u8 *bytes;
	const u8 *known;
	size_t len, pos;
	size_t *unknown_at;
};

/* the value of byte @at, which decides what follows */
static int byte_at(struct insn_dec *d, size_t at, u8 *v)
{
	if (at >= d->len)
		return -ENODATA;
	if (d->known && !d->known[at]) {
		if (d->unknown_at)
			*d->unknown_at = at;
		return -EAGAIN;
	}
	*v = d->bytes[at];
	return 0;
}

/* @n bytes whose values do not matter (displacement, immediate) */
static int skip(struct insn_dec *d, size_t n)
{
	if (d->pos + n > d->len)
		return -ENODATA;
	d->pos += n;
	return 0;
}

/*
 * ud2 followed by "xen" or "kvm": the kernel's marker for an instruction
 * the hypervisor emulates; perf reads it as a 5-byte prefix.
 */
static int emulate_prefix(struct insn_dec *d)
{
	static const u8 marks[][5] = {{0x0f, 0x0b, 'x', 'e', 'n'}, {0x0f, 0x0b, 'k', 'v', 'm'}};
	size_t k, i;

	for (k = 0; k < sizeof(marks) / sizeof(marks[0]); k++) {
		for (i = 0; i < 5; i++) {
			u8 b;
			int err = byte_at(d, i, &b);

			if (err == -EAGAIN)
				return err;
			if (err || b != marks[k][i])
				break;
		}
		if (i == 5)
			return 5;
	}
	return 0;
}

static bool is_legacy_prefix(u8 b)
{
	switch (b) {
	case 0x26:
	case 0x2e:
	case 0x36:
	case 0x3e:
	case 0x64:
	case 0x65:
	case 0x66:
	case 0x67:
	case 0xf0:
	case 0xf2:
	case 0xf3:
		return true;
	default:
		return false;
	}
}

/* the prefix that selects among an opcode's forms: 1 for 66, 2 for f3, 3 for f2 */
static int last_prefix_id(u8 last)
{
	return last == 0x66 ? 1 : last == 0xf3 ? 2 : last == 0xf2 ? 3 : 0;
}

static u32 opcode_attr(const struct opcode *op, int pfx)
{
	if (pfx && (op->a[1] | op->a[2] | op->a[3]))
		return op->a[pfx];
	return op->a[0];
}

/* the XOP maps: 8 has an Ib, 9 nothing, 10 an Id */
static int xop_attr(unsigned int map, u32 *attr)
{
	switch (map) {
	case 8:
		*attr = M | IB;
		return 0;
	case 9:
		*attr = M;
		return 0;
	case 10:
		*attr = M | IMM_D;
		return 0;
	default:
		return -EINVAL;
	}
}

int insn_len(const u8 *bytes, const u8 *known, size_t len, unsigned int flags, size_t *unknown_at)
{
	struct insn_dec d = {bytes, known, len < INSN_LEN_MAX ? len : INSN_LEN_MAX, 0, unknown_at};
	bool x86_64 = flags & INSN_LEN_64;
	unsigned int opnd = 4, addr = x86_64 ? 8 : 4, vex_m = 0, vex_pp = 0, seen_nr = 0, imm;
	bool vex = false, evex = false, xop = false;
	u8 b, b1, b2, b3, last = 0, modrm = 0, seen[4];
	u32 attr;
	int err, pfx, n;

	if (!x86_64 && (flags & INSN_LEN_16))
		opnd = addr = 2;
	n = emulate_prefix(&d);
	if (n < 0)
		return n;
	d.pos = n;

	/*
	 * Legacy prefixes: a repeated one counts once, a fifth different
	 * one is taken for the opcode (as perf does; the CPU would fault).
	 */
	for (;;) {
		err = byte_at(&d, d.pos, &b);
		if (err)
			return err;
		if (!is_legacy_prefix(b))
			break;
		if (!memchr(seen, b, seen_nr)) {
			if (seen_nr == 4)
				break;
			seen[seen_nr++] = b;
			if (b == 0x67)
				addr ^= x86_64 ? 12 : 6; /* 8 <-> 4, 4 <-> 2 */
			else if (b == 0x66)
				opnd ^= 6; /* 4 <-> 2 */
		}
		last = b;
		d.pos++;
	}

	if (x86_64 && (b & 0xf0) == 0x40) {
		if (b & 8) /* REX.W */
			opnd = 8;
		d.pos++;
		err = byte_at(&d, d.pos, &b);
		if (err)
			return err;
	}

	/*
	 * c4, c5, 62 outside 64-bit mode are VEX/EVEX only when the next
	 * byte would be a register-form ModRM; else les, lds, bound.
	 */
	if (b == 0xc4 || b == 0xc5 || b == 0x62 || (b == 0x8f && (flags & INSN_LEN_XOP))) {
		err = byte_at(&d, d.pos + 1, &b1);
		if (err)
			return err;
		if (b == 0x8f)
			xop = (b1 & 0x1f) >= 8;
		else
			vex = x86_64 || (b1 >> 6) == 3;
	}
	if (vex || xop) {
		if (b == 0xc5) {
			vex_m = 1;
			vex_pp = b1 & 3;
			d.pos += 2;
		} else {
			err = byte_at(&d, d.pos + 2, &b2);
			if (err)
				return err;
			if (b == 0x62) {
				err = byte_at(&d, d.pos + 3, &b3);
				if (err)
					return err;
				evex = true;
				vex_m = b1 & 7;
				vex_pp = b2 & 3;
				if (x86_64 && (b2 & 0x80))
					opnd = 8;
				d.pos += 4;
			} else {
				vex_m = b1 & 0x1f;
				vex_pp = b2 & 3;
				if (x86_64 && (b2 & 0x80))
					opnd = 8;
				d.pos += 3;
			}
		}
	}

	err = byte_at(&d, d.pos++, &b);
	if (err)
		return err;
	if (xop) {
		err = xop_attr(vex_m, &attr);
		if (err)
			return err;
		pfx = 0;
	} else if (vex) {
		const struct opcode *op;

		if (vex_m >= MAP_NR || !maps[vex_m])
			return -EINVAL;
		op = &maps[vex_m][b];
		/* a group's forms are told apart by ModRM.reg, below */
		attr = (op->a[0] & A_GRP_MASK) || !vex_pp ? op->a[0] : op->a[vex_pp];
		if ((attr & A_EVEXONLY) && !evex)
			return -EINVAL;
		if (!(attr & A_VEXOK) && !(attr & A_GRP_MASK))
			return -EINVAL;
		pfx = vex_pp;
	} else {
		pfx = last_prefix_id(last);
		attr = one_byte[b];
		while (attr & A_ESC_MASK) {
			unsigned int map = (attr & A_ESC_MASK) >> A_ESC_SHIFT;

			err = byte_at(&d, d.pos++, &b);
			if (err)
				return err;
			attr = opcode_attr(&maps[map][b], pfx);
		}
		if (attr & (A_VEXONLY | A_EVEXONLY))
			return -EINVAL;
	}

	if (attr & A_MODRM) {
		err = byte_at(&d, d.pos++, &modrm);
		if (err)
			return err;
		if (attr & A_GRP_MASK) {
			const struct group *g = &groups[(attr & A_GRP_MASK) >> A_GRP_SHIFT];
			unsigned int reg = (modrm >> 3) & 7;
			u32 member = g->a[0][reg];

			if (pfx && (g->a[1][reg] | g->a[2][reg] | g->a[3][reg]))
				member = g->a[pfx][reg];
			attr = (attr & ~A_GRP_MASK) | member;
			if (vex && !(attr & A_VEXOK))
				return -EINVAL;
		}
	}
	if (x86_64 && (attr & A_F64))
		opnd = 8;

	if (attr & A_MODRM) {
		unsigned int mod = modrm >> 6, rm = modrm & 7, base = 0;
		u8 sib;

		err = 0;

		if (addr != 2 && mod != 3 && rm == 4) {
			err = byte_at(&d, d.pos++, &sib);
			if (err)
				return err;
			base = sib & 7;
		}
		if (mod == 1)
			err = skip(&d, 1);
		else if (addr == 2 && ((mod == 0 && rm == 6) || mod == 2))
			err = skip(&d, 2);
		else if (addr != 2 &&
			 ((mod == 0 && rm == 5) || mod == 2 || (mod == 0 && base == 5)))
			err = skip(&d, 4);
		if (err)
			return err;
	}

	if (attr & A_MOFFS)
		return skip(&d, addr) ?: (int)d.pos;
	imm = attr & IMM_MASK;
	switch (imm) {
	case IMM_B:
		n = 1;
		break;
	case IMM_W:
		n = 2;
		break;
	case IMM_D:
		n = 4;
		break;
	case IMM_Q:
		n = 8;
		break;
	case IMM_PTR:
		/* there is no far pointer with a 64-bit offset */
		if (opnd == 8)
			return -EINVAL;
		n = opnd + 2;
		break;
	case IMM_Z:
		n = opnd == 2 ? 2 : 4;
		break;
	case IMM_V:
		n = opnd;
		break;
	default:
		n = 0;
		break;
	}
	if (attr & A_IMM2)
		n++;
	err = skip(&d, n);
	if (err)
		return err;
	return d.pos;
}

/* appends " xx" (or " ??", " ...") at @pos when it fits with the NUL */
static size_t put_token(char *buf, size_t size, size_t pos, const char *tok, size_t n)
{
	if (pos + n + 1 > size)
		return pos;
	memcpy(buf + pos, tok, n);
	return pos + n;
}

int insn_len__scnprintf_field(char *buf, size_t size, const u8 *bytes, const u8 *known, size_t len,
			      unsigned int flags)
{
	static const char hex[] = "0123456789abcdef";
	size_t at = 0, pos = 0, i, n;
	int ret;

	if (!size)
		return 0;
	buf[0] = '\0';
	ret = insn_len(bytes, known, len, flags, &at);
	if (ret == -EAGAIN && at > 0)
		n = at + 1;
	else if (ret > 0)
		n = ret;
	else
		return 0;
	pos = put_token(buf, size, pos, " insn:", 6);
	for (i = 0; i < n; i++) {
		char tok[3] = {' ', '?', '?'};

		if (!known || known[i]) {
			tok[1] = hex[bytes[i] >> 4];
			tok[2] = hex[bytes[i] & 15];
		}
		pos = put_token(buf, size, pos, tok, 3);
	}
	if (ret == -EAGAIN)
		pos = put_token(buf, size, pos, " ...", 4);
	buf[pos] = '\0';
	return pos;
}
