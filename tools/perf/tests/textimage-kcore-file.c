// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reading kernel code from files: the fixture's kcore (an ELF core with
 * a PT_LOAD segment, as perf record --kcore copies it), a vmlinux-like
 * ELF executable (this test binary's .text), and damaged files, which are
 * refused with an error naming them, never read past their end.  The
 * vmlinux's bytes are compared with .text as elf-section.c reads it (raw
 * headers, no libelf).  Mutation caught: every vmlinux byte shifted by 16
 * (sh_offset + 16 in kcore.c).
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests.h"
#include "fixture.h"
#include "fixture-kernel.h"
#include "elf-section.h"
#include "../util/kcore.h"

static int copy_truncated(const char *from, const char *to, off_t len, off_t patch_off,
			  const void *patch, size_t patch_len)
{
	char buf[8192];
	int in = open(from, O_RDONLY), out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ssize_t n;
	int err = 0;

	if (in < 0 || out < 0) {
		err = -errno;
		goto out;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0) {
		if (write(out, buf, n) != n) {
			err = -EIO;
			goto out;
		}
	}
	if (ftruncate(out, len))
		err = -errno;
	if (!err && patch && pwrite(out, patch, patch_len, patch_off) != (ssize_t)patch_len)
		err = -EIO;
out:
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	return err;
}

static int test__textimage_kcore_file(struct test_suite *t)
{
	struct fixture_kernel *fk = fixture_kernel__new(0);
	const struct kcore_segment *s;
	struct kcore *k = NULL;
	char *kcore = NULL, *bad = NULL;
	int ret = TEST_FAIL;
	u64 big = 0xfffffffffffff000ULL, text_addr, text_len;
	static const int cuts[] = {16, 63, 100, 119};
	u32 flags = PF_R;
	u8 *text = NULL;
	size_t i;

	TEST_ASSERT_VAL("fixture", fk);
	if (asprintf(&kcore, "%s/kcore", fk->kcore_dir) < 0 ||
	    asprintf(&bad, "%s/bad-kcore", fk->dir) < 0)
		goto out;
	k = kcore__open_dir(fk->kcore_dir, false);
	if (!k || k->nr_segments != 1 || k->segments[0].addr != FK_TEXT ||
	    k->segments[0].len != FK_TEXT_LEN)
		goto out;
	s = kcore__find(k, FK_JL5_SITE);
	if (!s || memcmp(s->bytes + (FK_JL5_SITE - FK_TEXT), "\x0f\x1f\x44\x00\x00", 5) ||
	    kcore__find(k, FK_TEXT - 1) || kcore__find(k, FK_TEXT + FK_TEXT_LEN))
		goto out;
	kcore__delete(k);

	/* a vmlinux is an executable, not a core: refused as kcore, read as vmlinux */
	k = kcore__open(test_self_exe());
	if (k || errno != ENOEXEC)
		goto out;
	k = kcore__open_vmlinux(test_self_exe());
	if (!k || k->nr_segments < 1)
		goto out;
	if (elf_section__read(test_self_exe(), ".text", &text_addr, &text, &text_len)) {
		pr_debug("%s: no .text read by the oracle\n", test_self_exe());
		goto out;
	}
	s = kcore__find(k, text_addr);
	if (!s || s->addr != text_addr || s->len != text_len || memcmp(s->bytes, text, text_len)) {
		pr_debug(".text at %#llx (%llu bytes) not read as the file holds it\n",
			 (unsigned long long)text_addr, (unsigned long long)text_len);
		goto out;
	}
	kcore__delete(k);

	/* truncated inside the segment: refused, not read past the end */
	k = NULL;
	if (copy_truncated(kcore, bad, 0x1000 + 100, 0, NULL, 0))
		goto out;
	k = kcore__open(bad);
	if (k || errno != EINVAL)
		goto out;
	/* a segment that wraps around the address space: refused */
	if (copy_truncated(kcore, bad, 0x1000 + FK_TEXT_LEN,
			   sizeof(Elf64_Ehdr) + offsetof(Elf64_Phdr, p_vaddr), &big, 8))
		goto out;
	k = kcore__open(bad);
	if (k || errno != EINVAL)
		goto out;
	/* not ELF at all, empty, missing */
	if (copy_truncated(kcore, bad, 0x1000, 0, "NOTELF!!", 8))
		goto out;
	k = kcore__open(bad);
	if (k || errno != ENOEXEC)
		goto out;
	if (copy_truncated(kcore, bad, 0, 0, NULL, 0))
		goto out;
	k = kcore__open(bad);
	if (k || errno != ENOEXEC)
		goto out;
	k = kcore__open("/nonexistent/kcore");
	if (k || errno != ENOENT)
		goto out;

	/*
	 * Cut inside the program headers (one of 56 bytes at 64): libelf
	 * alone sees no segment there, which once reached qsort(NULL, 0).
	 */
	for (i = 0; i < ARRAY_SIZE(cuts); i++) {
		if (copy_truncated(kcore, bad, cuts[i], 0, NULL, 0))
			goto out;
		k = kcore__open(bad);
		if (k || errno != ENOEXEC) {
			pr_debug("kcore cut at %d: %s\n", cuts[i],
				 k ? "accepted" : strerror(errno));
			goto out;
		}
	}
	/* a program header table far past the end */
	if (copy_truncated(kcore, bad, 0x1000 + FK_TEXT_LEN, offsetof(Elf64_Ehdr, e_phoff), &big,
			   8))
		goto out;
	k = kcore__open(bad);
	if (k || errno != ENOEXEC)
		goto out;
	/* a damaged identification: class, data encoding, version */
	for (i = EI_CLASS; i <= EI_VERSION; i++) {
		u8 flipped = 0xfd;

		if (copy_truncated(kcore, bad, 0x1000 + FK_TEXT_LEN, i, &flipped, 1))
			goto out;
		k = kcore__open(bad);
		if (k || errno != ENOEXEC)
			goto out;
	}
	/* no executable segment: no code, refused rather than an empty image */
	if (copy_truncated(kcore, bad, 0x1000 + FK_TEXT_LEN,
			   sizeof(Elf64_Ehdr) + offsetof(Elf64_Phdr, p_flags), &flags, 4))
		goto out;
	k = kcore__open(bad);
	if (k || errno != ENOEXEC)
		goto out;
	/* not a regular file: refused before a byte is read */
	unlink(bad);
	if (symlink("/dev/zero", bad))
		goto out;
	k = kcore__open(bad);
	if (k || errno != ENODEV)
		goto out;
	ret = TEST_OK;
out:
	kcore__delete(k);
	free(kcore);
	free(bad);
	free(text);
	fixture_kernel__delete(fk);
	return ret;
}

struct test_suite suite__textimage_kcore_file = {
    .desc = "textimage: kcore and vmlinux files read, damaged ones refused",
    .func = test__textimage_kcore_file,
};
