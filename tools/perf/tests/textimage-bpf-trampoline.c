// SPDX-License-Identifier: GPL-2.0-only
/*
 * A BPF trampoline's image, as Debian's 6.1 kernel showed it in the rig's
 * guest (issue 21, pokes/fentry.sh): KSYMBOL type BPF
 * bpf_trampoline_<key> of 4096 bytes, its code never reported (no
 * BPF_EVENT, no poke of old length 0), and at an fexit trampoline's
 * teardown one poke inside it, nop5 -> jmp to its epilogue.  The same
 * address then holds one trampoline after another: an fentry one (no
 * poke), the fexit one, an fentry one again.  The poke's bytes hold in
 * the fexit image's life only: its old bytes from that register, its new
 * bytes until that unregister; before and after, at that address, nothing
 * is known (the guest's truth held other code there, or nothing).  And
 * the poke's old bytes are compared with nothing but themselves: its
 * verdict is not "verified".  Expected values by hand from the records
 * below.
 * Mutation caught: ti__bound_life_pokes() not called from
 * text_image__finish(): the nop5 shows from the recording's start, before
 * the fexit image came.
 * Mutation caught: ti__keep_verdict() not consulting ti->unchecked: the
 * poke is "verified".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"
#include "fixture.h"
#include "../util/text-image.h"
#include "../util/writer.h"

#define BT_T0 1000000000ULL
#define BT_IMAGE 0xffffffffc02f4000ULL
#define BT_SITE (BT_IMAGE + 0x32)

static const u8 bt_nop5[5] = {0x0f, 0x1f, 0x44, 0x00, 0x00};
static const u8 bt_jmp[5] = {0xe9, 0x40, 0x00, 0x00, 0x00};

static int bt__write(const char *path)
{
	struct perf_event_attr attr = {
	    .type = PERF_TYPE_SOFTWARE,
	    .config = PERF_COUNT_SW_DUMMY,
	    .sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME,
	    .sample_id_all = 1,
	    .ksymbol = 1,
	    .text_poke = 1,
	};
	struct perf_sample id = {.pid = 1, .tid = 1};
	struct perf_writer *w = perf_writer__new(path, 0);
	static const char name[] = "bpf_trampoline_6442490013";
	/* register and unregister times of the three images, one after the other */
	static const u64 life[3][2] = {{100, 200}, {300, 500}, {600, 700}};
	int dummy, err, i;

	if (!w)
		return -errno;
	dummy = perf_writer__add_attr(w, &attr, NULL, 0, "dummy:u");
	err = dummy < 0 ? dummy : 0;
	err = err ?: perf_writer__set_arch(w, "x86_64");
	err = err ?: perf_writer__set_osrelease(w, "6.1.0-57-amd64");
#define BT_AT(t) (id.time = BT_T0 + (t), &id)
	for (i = 0; i < 3 && !err; i++) {
		err = perf_writer__synth_ksymbol(w, dummy, BT_IMAGE, 4096,
						 PERF_RECORD_KSYMBOL_TYPE_BPF, 0, name,
						 BT_AT(life[i][0]));
		/* the fexit image's teardown */
		if (!err && i == 1)
			err = perf_writer__synth_text_poke(w, dummy, BT_SITE, bt_nop5, 5, bt_jmp, 5,
							   BT_AT(400));
		err = err ?:
			    perf_writer__synth_ksymbol(
				w, dummy, BT_IMAGE, 4096, PERF_RECORD_KSYMBOL_TYPE_BPF,
				PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER, name, BT_AT(life[i][1]));
	}
#undef BT_AT
	if (err) {
		perf_writer__abort(w);
		return err;
	}
	return perf_writer__close(w);
}

struct bt_want {
	u64 time;
	const u8 *bytes; /* NULL: nothing known */
};

static int test__textimage_bpf_trampoline(struct test_suite *t __maybe_unused)
{
	static const struct bt_want want[] = {
	    {50, NULL},	    /* no image yet */
	    {150, NULL},    /* the first fentry image: its code never reported */
	    {250, NULL},    /* no image */
	    {350, bt_nop5}, /* the fexit image, before its teardown */
	    {400, bt_jmp},  {450, bt_jmp}, {550, NULL}, /* that image gone */
	    {650, NULL}, /* another fentry image at the same address */
	    {750, NULL},
	};
	char *dir = fixture__tmpdir(), *path = NULL;
	struct text_image *ti = NULL;
	enum textpoke_verdict v;
	int ret = TEST_FAIL;
	u8 buf[5], known[5];
	size_t i;

	if (!dir || asprintf(&path, "%s/perf.data", dir) < 0) {
		path = NULL;
		goto out;
	}
	if (bt__write(path)) {
		pr_debug("%s: cannot write the recording\n", path);
		goto out;
	}
	ti = text_image__load(path, NULL);
	if (!ti) {
		pr_debug("%s: text_image__load: %s\n", path, strerror(errno));
		goto out;
	}
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		int n = text_image__read(ti, BT_SITE, 5, BT_T0 + want[i].time, buf, known);

		if (want[i].bytes ? n != 5 || memcmp(buf, want[i].bytes, 5) : n != 0) {
			pr_debug("time +%llu: %d bytes known (%02x %02x %02x %02x %02x), want %s\n",
				 (unsigned long long)want[i].time, n, buf[0], buf[1], buf[2],
				 buf[3], buf[4], want[i].bytes ? "5" : "none");
			goto out;
		}
	}
	v = text_image__verdict(ti, BT_SITE, BT_T0 + 400);
	if (v != TEXTPOKE_UNKNOWN) {
		pr_debug("the teardown poke: %s, want unknown\n", textpoke_verdict__str(v));
		goto out;
	}
	ret = TEST_OK;
out:
	text_image__delete(ti);
	free(path);
	if (dir)
		fixture__remove_dir(dir, "textimage-bpf-trampoline");
	free(dir);
	return ret;
}

struct test_suite suite__textimage_bpf_trampoline = {
    .desc = "textimage: a poke in a BPF trampoline's image holds in that image's life only",
    .func = test__textimage_bpf_trampoline,
};
