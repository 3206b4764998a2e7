// SPDX-License-Identifier: GPL-2.0-only
/*
 * The recorder's reading of one loaded module (module-read.h), on a sysfs
 * and a /proc/kcore of our own making: its two allocations and their code
 * from /sys/module/<name>/ (the code ends where the first other section
 * of its allocation begins), the code's bytes from the kcore, and a
 * module that is gone (its sysfs directory vanished: unloaded before or
 * while it was read) refused with -ENOENT, nothing kept, and one read
 * after its init (initsize 0) placed by its init sections, its init code
 * not read.  The kallsyms lines of both come from one read of the
 * table, each module's own inside its ranges.  What was read,
 * written into a kcore_dir, reads back through module_events__read()
 * with the bytes the made-up kcore held.
 *
 * Mutations caught: module_layout__text() ending the code at the
 * allocation's end instead of the first other section (text length
 * 0x4000, not 0x1000); section__is_init() always false (no init
 * allocation); module_read__code() reading init_text from text's range
 * (init bytes differ); module_read__layout() without its initsize-0 case
 * (a module read after its init has no init allocation);
 * kallsyms_lines__add() looking at the first module only (fkdone gets no
 * lines).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests.h"
#include "fixture.h"
#include "fixture-kcore.h"
#include "../util/kcore.h"
#include "../util/module-events.h"
#include "../util/module-read.h"

#define RM_BASE 0xffffffffc0100000ULL
#define RM_SPAN 0x8000

static const struct {
	const char *name, *value;
} rm_files[] = {
    {"coresize", "16384\n"},
    {"initsize", "12288\n"},
    {"sections/.text", "0xffffffffc0100000\n"},
    {"sections/.text.unlikely", "0xffffffffc0100800\n"},
    {"sections/.rodata", "0xffffffffc0101000\n"},
    {"sections/.note.gnu.build-id", "0xffffffffc0101040\n"},
    {"sections/.data", "0xffffffffc0102000\n"},
    {"sections/.init.text", "0xffffffffc0105000\n"},
    {"sections/.init.data", "0xffffffffc0106000\n"},
};

static int rm__sysfs(const char *dir)
{
	static const char *const dirs[] = {"",
					   "/module",
					   "/module/fkmod",
					   "/module/fkmod/sections",
					   "/module/fkdone",
					   "/module/fkdone/sections"};
	char path[4096];

	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		snprintf(path, sizeof(path), "%s%s", dir, dirs[i]);
		if (mkdir(path, 0700))
			return -1;
	}
	for (int m = 0; m < 2; m++) {
		snprintf(path, sizeof(path), "%s/module/%s", dir, m ? "fkdone" : "fkmod");
		for (size_t i = 0; i < ARRAY_SIZE(rm_files); i++) {
			/* fkdone: read after its init, whose allocation is freed */
			const char *v =
			    m && !strcmp(rm_files[i].name, "initsize") ? "0\n" : rm_files[i].value;

			if (fixture__write_file(path, rm_files[i].name, v, strlen(v)))
				return -1;
		}
	}
	return 0;
}

static bool rm__range(const struct module_range *r, u64 addr, u64 len, const char *what)
{
	if (r->addr == addr && r->len == len)
		return true;
	pr_debug("%s: %#llx+%#llx, expected %#llx+%#llx\n", what, (unsigned long long)r->addr,
		 (unsigned long long)r->len, (unsigned long long)addr, (unsigned long long)len);
	return false;
}

/* the bytes of @k at [@addr, +@len) equal @want */
static bool rm__segment_has(const struct kcore *k, u64 addr, u64 len, const u8 *want)
{
	for (int i = 0; k && i < k->nr_segments; i++) {
		const struct kcore_segment *s = &k->segments[i];

		if (s->addr == addr && s->len == len)
			return !memcmp(s->bytes, want, len);
	}
	return false;
}

static int test__record_module_read(struct test_suite *t __maybe_unused)
{
	static u8 mem[RM_SPAN];
	struct fixture_segment seg = {RM_BASE, mem, RM_SPAN};
	struct module_code mc = {0}, gone = {0}, done = {0};
	struct module_events me;
	char *tmp = fixture__tmpdir(), sys[2048], proc[2048], kd[2048];
	int ret = TEST_FAIL, err;

	module_events__init(&me);
	TEST_ASSERT_VAL("tmpdir", tmp);
	for (int i = 0; i < RM_SPAN; i++)
		mem[i] = (u8)(i * 7 + (i >> 8));
	snprintf(sys, sizeof(sys), "%s/sys", tmp);
	snprintf(proc, sizeof(proc), "%s/proc", tmp);
	snprintf(kd, sizeof(kd), "%s/kcore_dir", tmp);
	if (rm__sysfs(sys) || mkdir(proc, 0700) || fixture__write_kcore(proc, &seg, 1) ||
	    mkdir(kd, 0700)) {
		pr_debug("cannot make the module's files in %s\n", tmp);
		goto out;
	}

	snprintf(mc.ml.name, sizeof(mc.ml.name), "fkmod");
	err = module_read__layout(&mc, sys);
	if (err) {
		pr_debug("layout: %s\n", strerror(-err));
		goto out;
	}
	if (!rm__range(&mc.ml.core, RM_BASE, 0x4000, "core") ||
	    !rm__range(&mc.ml.text, RM_BASE, 0x1000, "text") ||
	    !rm__range(&mc.ml.init, RM_BASE + 0x5000, 0x3000, "init") ||
	    !rm__range(&mc.ml.init_text, RM_BASE + 0x5000, 0x1000, "init_text"))
		goto out;
	err = module_read__code(&mc, proc);
	if (err || !mc.text || !mc.init_text || memcmp(mc.text, mem, 0x1000) ||
	    memcmp(mc.init_text, mem + 0x5000, 0x1000)) {
		pr_debug("code: %s, not the kcore's bytes\n", err ? strerror(-err) : "read");
		goto out;
	}

	/* read after its init: the init allocation from its sections, no code of it */
	snprintf(done.ml.name, sizeof(done.ml.name), "fkdone");
	err = module_read__layout(&done, sys);
	if (err || !rm__range(&done.ml.init, RM_BASE + 0x5000, 0x2000, "init after init") ||
	    !rm__range(&done.ml.text, RM_BASE, 0x1000, "text after init") ||
	    done.ml.init_text.len || module_read__code(&done, proc) || done.init_text) {
		pr_debug("a module read after its init: %d, init_text %#llx bytes\n", err,
			 (unsigned long long)done.ml.init_text.len);
		goto out;
	}

	/* both modules' kallsyms lines in one read, each its own, in its ranges */
	{
		static const char ks[] = "ffffffff81000000 T _text\n"
					 "ffffffffc0100010 t fk_fn\t[fkmod]\n"
					 "ffffffffc0105000 t fk_init\t[fkmod]\n"
					 "ffffffffc0100020 t fk_done_fn\t[fkdone]\n"
					 "ffffffffc0109000 t fk_far\t[fkmod]\n"
					 "ffffffffc0100030 t other_fn\t[other]\n";
		struct module_code *both[2] = {&mc, &done};

		if (fixture__write_file(proc, "kallsyms", ks, strlen(ks)) ||
		    module_read__kallsyms(both, 2, proc, NULL, NULL) || !mc.kallsyms ||
		    !done.kallsyms ||
		    strcmp(mc.kallsyms, "ffffffffc0100010 t fk_fn\t[fkmod]\n"
					"ffffffffc0105000 t fk_init\t[fkmod]\n") ||
		    strcmp(done.kallsyms, "ffffffffc0100020 t fk_done_fn\t[fkdone]\n")) {
			pr_debug("kallsyms lines: fkmod '%s', fkdone '%s'\n", mc.kallsyms ?: "",
				 done.kallsyms ?: "");
			goto out;
		}
	}

	/* unloaded before we looked: nothing of it */
	snprintf(gone.ml.name, sizeof(gone.ml.name), "fkgone");
	err = module_read__layout(&gone, sys);
	if (err != -ENOENT || gone.ml.core.len) {
		pr_debug("a module that is gone: %d, core %#llx bytes\n", err,
			 (unsigned long long)gone.ml.core.len);
		goto out;
	}

	/* into a kcore_dir and back */
	mc.ml.seq = 1;
	mc.ml.time = 1000;
	mc.ml.read_from = 1010;
	mc.ml.read_to = 1020;
	mc.ml.init_end = 2000;
	mc.ml.free_time = 3000;
	if (module_code__write(&mc, kd) || module_events__add_load(&me, &mc.ml) ||
	    module_events__write(&me, kd)) {
		pr_debug("cannot write into %s\n", kd);
		goto out;
	}
	module_events__exit(&me);
	if (module_events__read(&me, kd) || me.nr_loads != 1) {
		pr_debug("%zu loads read back\n", me.nr_loads);
		goto out;
	}
	if (strcmp(me.loads[0].name, "fkmod") || me.loads[0].read_from != 1010 ||
	    me.loads[0].init_end != 2000 || me.loads[0].free_time != 3000 ||
	    !rm__range(&me.loads[0].init_text, RM_BASE + 0x5000, 0x1000, "init_text read back") ||
	    !rm__segment_has(me.loads[0].code, RM_BASE, 0x1000, mem) ||
	    !rm__segment_has(me.loads[0].code, RM_BASE + 0x5000, 0x1000, mem + 0x5000)) {
		pr_debug("the load read back differs\n");
		goto out;
	}
	ret = TEST_OK;
out:
	module_events__exit(&me);
	module_code__exit(&mc);
	module_code__exit(&gone);
	module_code__exit(&done);
	if (tmp)
		fixture__rm_rf(tmp);
	free(tmp);
	return ret;
}

struct test_suite suite__record_module_read = {
    .desc = "record: a loaded module's layout and code from sysfs and kcore, one gone refused",
    .func = test__record_module_read,
};
