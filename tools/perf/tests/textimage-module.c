// SPDX-License-Identifier: GPL-2.0-only
/*
 * A module loaded while recording, as perf textpoke record keeps it in
 * kcore_dir (module_events and module.<N>.kcore, module-events.h): its
 * code is known from its load to its free, its init code until the end
 * of its init, and nothing before or after.  The kcore copy, made before
 * the load, holds zeros over the module area (free module space as
 * /proc/kcore gives it): those are no module's bytes at any time.  A
 * second module went away while its code was read: what the read gave is
 * not its code, so its bytes stay unknown.  The first is loaded again at
 * the same place with no code read: the first load's code is not its.
 *
 * The recording is the made-up kernel's (fixture-kernel.h) with these
 * files added; the expected bytes are the ones written here.
 *
 * Its symbols (module.1.kallsyms) name its code in its life only.
 *
 * Mutations caught: text_image__read() without module_events__mask()
 * (the code read at the load answers before the load); text-image.c
 * without ti__cut_kcore() (the copy's zeros stand for the module's
 * code); module_load__code_ok() without its free_time <= read_to test
 * (the second module's bytes are taken); machine.c's module spans
 * without their t_end (a map of the module after its free);
 * ti__module_byte_own() always true (the first load's code in the
 * third's life).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests.h"
#include "fixture.h"
#include "fixture-kcore.h"
#include "fixture-kernel.h"
#include "../util/header.h"
#include "../util/event.h"
#include "../util/machine.h"
#include "../util/symbol.h"
#include "../util/text-image.h"

#define TM_AREA 0xffffffffc0100000ULL /* free module space in the copy */
#define TM_AREA_LEN 0x20000
#define TM_CORE TM_AREA
#define TM_CORE_LEN 0x2000
#define TM_TEXT_LEN 0x100
#define TM_INIT (TM_AREA + 0x8000)
#define TM_INIT_LEN 0x1000
#define TM_INIT_TEXT_LEN 0x80
#define TM_LOAD (FK_T0 + 1500)
#define TM_INIT_END (FK_T0 + 2500)
#define TM_FREE (FK_T0 + 3500)
#define TM_GONE (TM_AREA + 0x10000) /* the module freed while it was read */
#define TM_GONE_LEN 0x1000
/* its kallsyms lines, as the recorder takes them at the load */
#define TM_KALLSYMS                                \
	"ffffffffc0100000 t fkmod_work\t[fkmod]\n" \
	"ffffffffc0100040 t fkmod_exit\t[fkmod]\n" \
	"ffffffffc0108000 t fkmod_init\t[fkmod]\n"

/* @dir/@name: an ELF core of @segs, written by the fixture's own writer */
static int tm__write_core(const char *dir, const char *name, const struct fixture_segment *segs,
			  int nr)
{
	char *tmp = NULL, *from = NULL, *to = NULL;
	int err = -1;

	if (asprintf(&tmp, "%s/tmp-%s", dir, name) < 0)
		return -1;
	if (mkdir(tmp, 0700) || fixture__write_kcore(tmp, segs, nr))
		goto out;
	if (asprintf(&from, "%s/kcore", tmp) < 0 || asprintf(&to, "%s/%s", dir, name) < 0)
		goto out;
	err = rename(from, to);
	rmdir(tmp);
out:
	free(from);
	free(to);
	free(tmp);
	return err;
}

/* the fixture's kernel text, as its kcore holds it */
static int tm__kernel_text(const char *kcore_dir, u8 *text)
{
	char path[4096];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/kcore", kcore_dir);
	f = fopen(path, "r");
	if (!f)
		return -1;
	ok = !fseek(f, FIXTURE_KCORE_DATA, SEEK_SET) && fread(text, FK_TEXT_LEN, 1, f) == 1;
	fclose(f);
	return ok ? 0 : -1;
}

static int tm__write_files(const char *kd, const u8 *text, const u8 *init_text)
{
	static u8 ktext[FK_TEXT_LEN], area[TM_AREA_LEN], junk[TM_TEXT_LEN];
	struct fixture_segment copy[2] = {{FK_TEXT, ktext, FK_TEXT_LEN},
					  {TM_AREA, area, TM_AREA_LEN}};
	struct fixture_segment m1[2] = {{TM_CORE, text, TM_TEXT_LEN},
					{TM_INIT, init_text, TM_INIT_TEXT_LEN}};
	struct fixture_segment m2[1] = {{TM_GONE, junk, TM_TEXT_LEN}};
	char events[1024];

	memset(junk, 0xcc, sizeof(junk));
	snprintf(events, sizeof(events),
		 "# made by textimage-module.c\n"
		 "load 1 fkmod %llu core=%#llx+%#x text=%#llx+%#x init=%#llx+%#x"
		 " init_text=%#llx+%#x read=%llu-%llu init_end=%llu free=%llu\n"
		 "load 2 fkgone %llu core=%#llx+%#x text=%#llx+%#x read=%llu-%llu free=%llu\n"
		 "load 3 fkmod %llu core=%#llx+%#x text=%#llx+%#x free=%llu\n",
		 TM_LOAD, TM_CORE, TM_CORE_LEN, TM_CORE, TM_TEXT_LEN, TM_INIT, TM_INIT_LEN, TM_INIT,
		 TM_INIT_TEXT_LEN, TM_LOAD + 10, TM_LOAD + 20, TM_INIT_END, TM_FREE, FK_T0 + 4000,
		 TM_GONE, TM_GONE_LEN, TM_GONE, TM_TEXT_LEN, FK_T0 + 4010, FK_T0 + 4020,
		 FK_T0 + 4015, FK_T0 + 5200, TM_CORE, TM_CORE_LEN, TM_CORE, TM_TEXT_LEN,
		 FK_T0 + 5800);
	/* the copy: the kernel's text as it was, and the module area all free */
	if (tm__kernel_text(kd, ktext) || tm__write_core(kd, "kcore", copy, 2))
		return -1;
	if (tm__write_core(kd, "module.1.kcore", m1, 2) ||
	    tm__write_core(kd, "module.2.kcore", m2, 1))
		return -1;
	if (fixture__write_file(kd, "module.1.kallsyms", TM_KALLSYMS, strlen(TM_KALLSYMS)))
		return -1;
	return fixture__write_file(kd, "module_events", events, strlen(events));
}

/* the symbol at @addr at @time from the kernel's view, "" when none; NULL: no map */
static const char *tm__sym(struct text_image *ti, u64 addr, u64 time, char *obj, size_t sz)
{
	struct machine *machine = text_image__machine(ti);
	struct thread *swapper = machine__findnew_thread(machine, 0, 0);
	struct addr_location al;
	const char *name = NULL;

	addr_location__init(&al);
	if (swapper)
		thread__find_symbol(swapper, PERF_RECORD_MISC_KERNEL, addr, time, &al);
	if (al.map) {
		snprintf(obj, sz, "%s", map__dso_name(al.map));
		name = al.sym ? al.sym->name : "";
	}
	addr_location__exit(&al);
	return name;
}

/* @len bytes at @addr at @time: all equal to @want, or (@want NULL) none known */
static int tm__expect(struct text_image *ti, u64 addr, size_t len, u64 time, const u8 *want)
{
	u8 buf[TM_TEXT_LEN], known[TM_TEXT_LEN];
	int n = text_image__read(ti, addr, len, time, buf, known);

	for (size_t i = 0; n >= 0 && i < len; i++) {
		if (known[i] != !!want || (want && buf[i] != want[i])) {
			pr_debug("%#llx at %llu: %02x/%d, expected %02x/%d\n",
				 (unsigned long long)(addr + i), (unsigned long long)time, buf[i],
				 known[i], want ? want[i] : 0, !!want);
			return -1;
		}
	}
	if (n != (want ? (int)len : 0)) {
		pr_debug("%zu at %#llx at %llu: %d known\n", len, (unsigned long long)addr,
			 (unsigned long long)time, n);
		return -1;
	}
	return 0;
}

static int test__textimage_module(struct test_suite *t __maybe_unused)
{
	struct fixture_kernel *fk = fixture_kernel__new(0);
	u8 text[TM_TEXT_LEN], init_text[TM_INIT_TEXT_LEN];
	struct text_image *ti = NULL;
	int ret = TEST_FAIL;
	const char *name;
	char obj[256];

	TEST_ASSERT_VAL("fixture", fk);
	for (int i = 0; i < TM_TEXT_LEN; i++)
		text[i] = 0x10 + i % 0x60;
	for (int i = 0; i < TM_INIT_TEXT_LEN; i++)
		init_text[i] = 0x80 + i % 0x40;
	if (tm__write_files(fk->kcore_dir, text, init_text)) {
		pr_debug("cannot write the module files into %s\n", fk->kcore_dir);
		goto out;
	}
	ti = text_image__load(fk->path, NULL);
	if (!ti)
		goto out;
	/* before the load: the copy's zeros are no one's */
	if (tm__expect(ti, TM_CORE, TM_TEXT_LEN, FK_T0 + 1000, NULL) ||
	    tm__expect(ti, TM_INIT, TM_INIT_TEXT_LEN, FK_T0 + 1000, NULL))
		goto out;
	/* loaded, in its init: both code ranges; the rest of the core was never read */
	if (tm__expect(ti, TM_CORE, TM_TEXT_LEN, FK_T0 + 2000, text) ||
	    tm__expect(ti, TM_INIT, TM_INIT_TEXT_LEN, FK_T0 + 2000, init_text) ||
	    tm__expect(ti, TM_CORE + TM_TEXT_LEN, 16, FK_T0 + 2000, NULL))
		goto out;
	/* init over: its init code may be gone */
	if (tm__expect(ti, TM_CORE, TM_TEXT_LEN, FK_T0 + 3000, text) ||
	    tm__expect(ti, TM_INIT, TM_INIT_TEXT_LEN, FK_T0 + 3000, NULL))
		goto out;
	/* freed: nothing */
	if (tm__expect(ti, TM_CORE, TM_TEXT_LEN, FK_T0 + 4000, NULL))
		goto out;
	/* gone while read: unknown in its short life and after */
	if (tm__expect(ti, TM_GONE, TM_TEXT_LEN, FK_T0 + 4012, NULL) ||
	    tm__expect(ti, TM_GONE, TM_TEXT_LEN, FK_T0 + 5000, NULL))
		goto out;
	/* its symbols, in its life only */
	name = tm__sym(ti, TM_CORE + 0x48, FK_T0 + 2000, obj, sizeof(obj));
	if (!name || strcmp(obj, "[fkmod]") || strcmp(name, "fkmod_exit")) {
		pr_debug("core at 2000: %s in %s\n", name ?: "no map", name ? obj : "-");
		goto out;
	}
	name = tm__sym(ti, TM_INIT + 4, FK_T0 + 2000, obj, sizeof(obj));
	if (!name || strcmp(obj, "[fkmod]") || strcmp(name, "fkmod_init")) {
		pr_debug("init at 2000: %s in %s\n", name ?: "no map", name ? obj : "-");
		goto out;
	}
	if (tm__sym(ti, TM_CORE + 0x48, FK_T0 + 1000, obj, sizeof(obj)) ||
	    tm__sym(ti, TM_INIT + 4, FK_T0 + 3000, obj, sizeof(obj)) ||
	    tm__sym(ti, TM_CORE + 0x48, FK_T0 + 4000, obj, sizeof(obj))) {
		pr_debug("a map of fkmod outside its life\n");
		goto out;
	}
	/* loaded again where it was, its code not read: the first load's code is not its */
	if (tm__expect(ti, TM_CORE, TM_TEXT_LEN, FK_T0 + 5500, NULL))
		goto out;
	/* the kernel's own text is untouched by all this */
	if (fixture_kernel__check(fk, ti, false) != 0)
		goto out;
	ret = TEST_OK;
out:
	text_image__delete(ti);
	fixture_kernel__delete(fk);
	return ret;
}

struct test_suite suite__textimage_module = {
    .desc = "textimage: a module loaded while recording has its code for its life, no bytes "
	    "outside it",
    .func = test__textimage_module,
};

/*
 * The same for an OOL slot (the made-up kernel's ftrace trampoline at
 * FK_TRAMP: KSYMBOL register at 3000, body poked in with old_len 0 at
 * 3001, taken away with new_len 0 at 3200, unregistered at 3201): a kcore
 * copy that holds other bytes there (another slot's, free space), taken
 * at the start or at the end, answers at no time; only the body in its
 * life is known, and the sample inside it reads it.
 *
 * Mutation caught: libtextpoke's site.c without its "the poke before took
 * the byte away, or the one after brought it" branch (the copy's 0xee
 * read before the body came and after it went).
 */
static int test__textimage_slot(struct test_suite *t __maybe_unused)
{
	static u8 ktext[FK_TEXT_LEN], other[FK_TRAMP_LEN];
	struct fixture_segment copy[2] = {{FK_TEXT, ktext, FK_TEXT_LEN},
					  {FK_TRAMP, other, FK_TRAMP_LEN}};
	static const u64 empty[] = {2900, 3000, 3200, 3300, 6000};
	int ret = TEST_FAIL;

	memset(other, 0xee, sizeof(other));
	for (int end = 0; end < 2; end++) {
		struct fixture_kernel *fk = fixture_kernel__new(end ? FK_KCORE_END : 0);
		struct text_image_opts opts = {
		    .anchor = end ? TEXT_IMAGE_ANCHOR_END : TEXT_IMAGE_ANCHOR_START,
		};
		struct text_image *ti = NULL;
		int bad = 1;

		TEST_ASSERT_VAL("fixture", fk);
		if (tm__kernel_text(fk->kcore_dir, ktext) ||
		    tm__write_core(fk->kcore_dir, "kcore", copy, 2)) {
			pr_debug("cannot write the kcore into %s\n", fk->kcore_dir);
			goto next;
		}
		ti = text_image__load(fk->path, &opts);
		if (!ti)
			goto next;
		for (size_t i = 0; i < ARRAY_SIZE(empty); i++) {
			if (tm__expect(ti, FK_TRAMP, FK_TRAMP_BODY, FK_T0 + empty[i], NULL)) {
				pr_debug("kcore at the %s\n", end ? "end" : "start");
				goto next;
			}
		}
		/* every sample, the one in the slot's life included, reads what the kernel held */
		bad = fixture_kernel__check(fk, ti, false) != 0;
	next:
		text_image__delete(ti);
		fixture_kernel__delete(fk);
		if (bad)
			return ret;
	}
	return TEST_OK;
}

struct test_suite suite__textimage_slot = {
    .desc = "textimage: an OOL slot's bytes in its life only, whatever the kcore copy holds there",
    .func = test__textimage_slot,
};

/* a TEXT_POKE of @old -> @new (5 bytes each) at @addr, given to the image at @time */
static int tm__poke(struct text_image *ti, u64 addr, const u8 *old, const u8 *new, u64 time)
{
	u8 rec[256] __attribute__((aligned(8)));
	union perf_event *ev = (union perf_event *)rec;
	struct perf_sample sample;

	memset(rec, 0, sizeof(rec));
	memset(&sample, 0, sizeof(sample));
	ev->header.type = PERF_RECORD_TEXT_POKE;
	ev->header.size = (sizeof(ev->text_poke) + 10 + 7) & ~7U;
	ev->text_poke.addr = addr;
	ev->text_poke.old_len = 5;
	ev->text_poke.new_len = 5;
	memcpy(ev->text_poke.bytes, old, 5);
	memcpy(ev->text_poke.bytes + 5, new, 5);
	sample.time = time;
	sample.cpumode = PERF_RECORD_MISC_KERNEL;
	return text_image__process_event(ti, NULL, ev, &sample);
}

/*
 * A module loaded twice at one place, as the churn experiment's dummy.ko
 * was: the kernel patches a static call in it at each load, before
 * module:module_load (old bytes: the call as the .ko has it, new: the
 * call resolved), and the code read at each load holds the new bytes.
 * No poke is a mismatch: the first load's patched call ends with its
 * life, and the second load's old bytes are compared with nothing.
 *
 * Mutation caught: text_image__finish() without ti__end_module_pokes()
 * (the second load's poke is a mismatch against the first's new bytes).
 */
static int test__textimage_module_reload(struct test_suite *t __maybe_unused)
{
	static const u8 unpatched[5] = {0xe8, 0, 0, 0, 0},
			patched[5] = {0xe8, 0x11, 0x22, 0x33, 0x44};
	static u8 area[0x2000], text[TM_TEXT_LEN];
	struct fixture_segment copy = {TM_CORE, area, sizeof(area)};
	struct fixture_segment code = {TM_CORE, text, TM_TEXT_LEN};
	struct text_image_opts opts = {.anchor = TEXT_IMAGE_ANCHOR_START};
	const u64 site = TM_CORE + 0x10;
	char *tmp = fixture__tmpdir(), events[512];
	struct text_image *ti = NULL;
	struct perf_env env;
	int ret = TEST_FAIL;

	TEST_ASSERT_VAL("tmpdir", tmp);
	memset(&env, 0, sizeof(env));
	for (int i = 0; i < TM_TEXT_LEN; i++)
		text[i] = 0x90;
	memcpy(text + 0x10, patched, 5);
	snprintf(events, sizeof(events),
		 "load 1 fkmod 1000 core=%#llx+%#x text=%#llx+%#x read=1010-1020 free=2000\n"
		 "load 2 fkmod 3000 core=%#llx+%#x text=%#llx+%#x read=3010-3020 free=4000\n",
		 TM_CORE, TM_CORE_LEN, TM_CORE, TM_TEXT_LEN, TM_CORE, TM_CORE_LEN, TM_CORE,
		 TM_TEXT_LEN);
	if (fixture__write_kcore_dir(tmp, "ffffffff81000000 T _text\n", "", &copy, 1)) {
		pr_debug("cannot write a kcore_dir in %s\n", tmp);
		goto out;
	}
	{
		char kd[4096];

		snprintf(kd, sizeof(kd), "%s/kcore_dir", tmp);
		if (tm__write_core(kd, "module.1.kcore", &code, 1) ||
		    tm__write_core(kd, "module.2.kcore", &code, 1) ||
		    fixture__write_file(kd, "module_events", events, strlen(events)))
			goto out;
		ti = text_image__new(&env, kd, &opts);
	}
	if (!ti || tm__poke(ti, site, unpatched, patched, 999) ||
	    tm__poke(ti, site, unpatched, patched, 2999) || text_image__finish(ti)) {
		pr_debug("the image or its pokes were refused\n");
		goto out;
	}
	for (int i = 0; i < 2; i++) {
		enum textpoke_verdict v = text_image__verdict(ti, site, i ? 2999 : 999);

		if (v != TEXTPOKE_PRE_APPLIED) {
			pr_debug("the poke of load %d: verdict %d, not pre-applied\n", i + 1, v);
			goto out;
		}
	}
	/* between the lives nothing; in the second, its own patched call */
	if (tm__expect(ti, site, 5, 2500, NULL) || tm__expect(ti, site, 5, 3500, patched))
		goto out;
	ret = TEST_OK;
out:
	text_image__delete(ti);
	fixture__rm_rf(tmp);
	free(tmp);
	return ret;
}

struct test_suite suite__textimage_module_reload = {
    .desc = "textimage: a module loaded again at its old place: the kernel's pokes are no mismatch",
    .func = test__textimage_module_reload,
};
