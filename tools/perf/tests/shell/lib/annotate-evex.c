// SPDX-License-Identifier: GPL-2.0-only
/*
 * A function holding EVEX and mask-register instructions that Debian's
 * capstone 4 does not decode (vptestnmb, kmovd), between ordinary ones:
 * annotate-evex.sh annotates it from samples on every instruction.  It is
 * never run (the machine may have no AVX-512): only its bytes matter.
 */
__attribute__((noinline, used)) void evex_fn(void)
{
	__asm__ volatile(
	    "mov %%edi, %%eax\n\t"
	    ".byte 0x62, 0xe2, 0x7d, 0x28, 0x7a, 0xce\n\t" /* vpbroadcastb %esi,%ymm17 */
	    ".byte 0x62, 0xb2, 0x66, 0x20, 0x26, 0xc3\n\t" /* vptestnmb %ymm19,%ymm19,%k0 */
	    ".byte 0xc5, 0xfb, 0x93, 0xc8\n\t"		   /* kmovd %k0,%ecx */
	    "test %%ecx, %%ecx\n\t"
	    ".byte 0x62, 0xb3, 0x65, 0x20, 0x3f, 0xc9, 0x00\n\t" /* vpcmpeqb ..,%k1 */
	    ".byte 0xc5, 0xfb, 0x93, 0xc1\n\t"			 /* kmovd %k1,%eax */
	    "add $1, %%eax\n\t"
	    :
	    :
	    : "eax", "ecx", "memory");
}

int main(int argc, char **argv)
{
	(void)argv;
	if (argc > 99)
		evex_fn();
	return 0;
}
