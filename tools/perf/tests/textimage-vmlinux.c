// SPDX-License-Identifier: GPL-2.0-only
/*
 * Without a kcore, the kernel's code at boot comes from the installed
 * vmlinux whose build-id is the one the recording names for
 * [kernel.kallsyms] (perf textpoke record always writes it).  This test's
 * own binary stands in for a vmlinux: an ELF with code sections and a
 * build-id note, laid where Debian installs vmlinux, below a symfs root.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build-id.h"
#include "fixture.h"
#include "header.h"
#include "kcore.h"
#include "tests.h"
#include "text-image.h"

static int test__textimage_vmlinux(struct test_suite *t)
{
	struct build_id bid = {.size = 0};
	struct build_id_entry entry = {.misc = PERF_RECORD_MISC_KERNEL, .pid = -1};
	struct perf_env env = {.os_release = (char *)"9.9.9-textpoke-test"};
	struct text_image_opts opts = {0};
	char *root = NULL, *found, boot[PATH_MAX], link_path[PATH_MAX + 64];
	const struct kcore_segment *seg;
	struct text_image *ti;
	struct kcore *k;
	u8 bytes[16], known[16];
	int ret = TEST_FAIL;

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
	ti = text_image__new(&env, NULL, &opts);
	k = kcore__open_vmlinux(test_self_exe());
	if (!ti || !k || !k->nr_segments) {
		pr_debug("image or vmlinux not opened\n");
		text_image__delete(ti);
		kcore__delete(k);
		goto out;
	}
	seg = &k->segments[0];
	if (text_image__read(ti, seg->addr, sizeof(bytes), 1, bytes, known) < 0 ||
	    memchr(known, 0, sizeof(known)) ||
	    memcmp(bytes, seg->bytes, seg->len < sizeof(bytes) ? seg->len : sizeof(bytes))) {
		pr_debug("bytes at %#llx not those of the vmlinux\n",
			 (unsigned long long)seg->addr);
		text_image__delete(ti);
		kcore__delete(k);
		goto out;
	}
	text_image__delete(ti);
	kcore__delete(k);

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
	return ret;
}

struct test_suite suite__textimage_vmlinux = {
    .desc = "textimage: the installed vmlinux of the recorded kernel, found by build-id",
    .func = test__textimage_vmlinux,
};
