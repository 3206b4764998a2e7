// SPDX-License-Identifier: GPL-2.0-only
/*
 * Without a kcore, the kernel's code at boot comes from the installed
 * vmlinux whose build-id is the one the recording names for
 * [kernel.kallsyms] (perf textpoke record always writes it).  This test's
 * own binary stands in for a vmlinux: an ELF with code sections and a
 * build-id note, laid where Debian installs vmlinux, below a symfs root.
 * The image's bytes are compared with .text read by elf-section.c (raw
 * headers, not kcore__open_vmlinux(), which the image itself uses).
 * Mutation caught: every vmlinux byte shifted by 16 (sh_offset + 16 in
 * kcore.c).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build-id.h"
#include "elf-section.h"
#include "fixture.h"
#include "header.h"
#include "tests.h"
#include "text-image.h"

static int test__textimage_vmlinux(struct test_suite *t)
{
	struct build_id bid = {.size = 0};
	struct build_id_entry entry = {.misc = PERF_RECORD_MISC_KERNEL, .pid = -1};
	struct perf_env env = {.os_release = (char *)"9.9.9-textpoke-test"};
	struct text_image_opts opts = {0};
	char *root = NULL, *found, boot[PATH_MAX], link_path[PATH_MAX + 64];
	struct text_image *ti;
	u8 bytes[256], known[256], *text = NULL;
	u64 text_addr, text_len, at[3];
	int ret = TEST_FAIL, i;

	if (filename__read_build_id(test_self_exe(), &bid) < 0 || !bid.size) {
		test_skip(t, "this binary has no build-id note to stand in for a vmlinux's");
		return TEST_SKIP;
	}
	root = fixture__tmpdir();
	TEST_ASSERT_VAL("tmpdir", root);
	snprintf(boot, sizeof(boot), "%s/boot", root);
	snprintf(link_path, sizeof(link_path), "%s/boot/vmlinux-%s", root, env.os_release);
	if (mkdir(boot, 0755) || symlink(test_self_exe(), link_path)) {
		pr_debug("%s: %s\n", link_path, strerror(errno));
		goto out;
	}
	memcpy(entry.build_id, bid.data, bid.size);
	entry.size = bid.size;
	entry.filename = (char *)"[kernel.kallsyms]";
	env.build_ids = &entry;
	env.nr_build_ids = 1;
	opts.symfs = root;

	found = text_image__find_vmlinux(&env, root);
	if (!found || strcmp(found, link_path)) {
		pr_debug("found %s, expected %s\n", found ?: "nothing", link_path);
		free(found);
		goto out;
	}
	free(found);

	/* the image starts from it: its code bytes are known at any time */
	if (elf_section__read(test_self_exe(), ".text", &text_addr, &text, &text_len) ||
	    text_len < 2 * sizeof(bytes)) {
		pr_debug("%s: no .text read by the oracle\n", test_self_exe());
		goto out;
	}
	ti = text_image__new(&env, NULL, &opts);
	if (!ti) {
		pr_debug("image not made\n");
		goto out;
	}
	/* the start, the middle and the end of .text */
	at[0] = 0;
	at[1] = text_len / 2;
	at[2] = text_len - sizeof(bytes);
	for (i = 0; i < 3; i++) {
		if (text_image__read(ti, text_addr + at[i], sizeof(bytes), 1, bytes, known) !=
			sizeof(bytes) ||
		    memchr(known, 0, sizeof(known)) || memcmp(bytes, text + at[i], sizeof(bytes))) {
			pr_debug("bytes at %#llx not those of the vmlinux's .text\n",
				 (unsigned long long)(text_addr + at[i]));
			text_image__delete(ti);
			goto out;
		}
	}
	text_image__delete(ti);

	/* another kernel's build-id: that file is not used */
	entry.build_id[0] ^= 0xff;
	found = text_image__find_vmlinux(&env, root);
	if (found) {
		pr_debug("a vmlinux of another build-id was taken: %s\n", found);
		free(found);
		goto out;
	}
	/* no build-id recorded: nothing to look for */
	env.nr_build_ids = 0;
	if (text_image__find_vmlinux(&env, root))
		goto out;
	ret = TEST_OK;
out:
	fixture__remove_dir(root, "textimage-vmlinux");
	free(root);
	free(text);
	return ret;
}

struct test_suite suite__textimage_vmlinux = {
    .desc = "textimage: the installed vmlinux of the recorded kernel, found by build-id",
    .func = test__textimage_vmlinux,
};
