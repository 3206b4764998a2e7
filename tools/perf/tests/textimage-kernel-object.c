// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel ELF objects (perf textpoke inject --jit) whose end is another
 * kernel mapping rather than a KSYMBOL unregister: an object mapped over a
 * live one, a KSYMBOL registered over it, a module mapped over it.  The
 * machine's symbols and the text image's bytes must both change hands at
 * each of those moments, asked in any time order.  An object whose file
 * has another build-id than its MMAP2's gives neither symbols nor bytes.
 * A missing file mapped
 * a dozen times is counted, its bytes unknown.  Then the object reader
 * on every truncation of an object, on a .text past the end of the file,
 * on a file past its size cap and on a FIFO: an error or ranges inside the file, never a read outside it, never
 * a wait.
 *
 * Expected values come from the tables below (the objects are written by
 * kernel-object-elf.c, no project ELF code).
 *
 * Mutation caught: machine__process_object_mmap() not closing the spans
 * under a new object (no machine__close_ksym_spans() call): past the
 * second object's end the first one is still found.  Mutation caught:
 * machine__process_kernel_mmap() not closing objects under a module: the
 * module's address still resolves to the object.  Mutation caught:
 * ti__kernel_mmap() not closing objects under a module: their bytes stay.
 * Mutation caught: ti__object_map() without its build-id comparison: the
 * other file's bytes are taken.  Mutation caught: add_range() without its
 * in_file() check: a .text whose
 * size or offset runs past the end of the file is read.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fixture.h"
#include "kernel-object-elf.h"
#include "machine-records.h"
#include "tests.h"
#include "../util/dso-code.h"
#include "../util/header.h"
#include "../util/text-image.h"

#define X 0xffffffffa0701000ULL

static const u8 code_a[0x20] = {
    0x55, 0x48, 0x89, 0xe5, 0x31, 0xc0, 0xc9, 0xc3, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
    0xb8, 0x07, 0x00, 0x00, 0x00, 0xc3, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
};
static const struct kobj_sym syms_a[] = {{"obj_a_main", 0, 0x10}, {"obj_a_tail", 0x10, 0x10}};
static const u8 code_b[0x10] = {0x90, 0x90, 0x90, 0xc3, 0xcc, 0xcc, 0xcc, 0xcc,
				0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc};
static const struct kobj_sym syms_b[] = {{"obj_b_only", 0, 0x10}};
static const u8 bid_a[20] = {0x0a, 0x0a}, bid_b[20] = {0x0b, 0x0b};

enum { NONE, A, B, KSYM, MODULE, WRONG_BID };

/* at each moment, at X + 0x4 and X + 0x14: who is there */
static const struct {
	u64 time;
	int lo, hi;
} moments[] = {
    {550, A, A}, {150, A, A}, {350, KSYM, NONE}, {250, B, NONE}, {450, NONE, NONE},
};

static int feed(struct machine *m, struct text_image *ti, union perf_event *ev, u64 time)
{
	struct perf_sample s;
	int err = machine__process_event(m, ev, sample__at(&s, time));

	return err ?: text_image__process_event(ti, m, ev, sample__at(&s, time));
}

static int check_at(struct machine *m, struct text_image *ti, u64 addr, u64 time, int who)
{
	static const char *const sym[] = {"[unknown]",	NULL,	     "obj_b_only",
					  "bpf_prog_x", "[unknown]", "[unknown]"};
	static const char *const dso[] = {"[unknown]",	"a_obj.elf", "b_obj.elf",
					  "bpf_prog_x", "[foo]",     "b_obj.elf"};
	u64 off = addr - X;
	const u8 *want = who == A ? code_a + off : who == B ? code_b + off : NULL;
	const char *want_sym = who == A ? syms_a[off >= 0x10].name : sym[who];
	struct found f;
	u8 buf[4], known[4];
	int n;

	resolve_kernel(m, addr, time, &f);
	if (strcmp(f.sym, want_sym) || strcmp(f.dso, dso[who])) {
		pr_debug("%#llx at %llu: %s (%s), expected %s (%s)\n", (unsigned long long)addr,
			 (unsigned long long)time, f.sym, f.dso, want_sym, dso[who]);
		return -1;
	}
	n = text_image__read(ti, addr, sizeof(buf), time, buf, known);
	if (want ? n != (int)sizeof(buf) || memcmp(buf, want, sizeof(buf)) : n != 0) {
		pr_debug("%#llx at %llu: %d bytes known (%02x ...), expected %s\n",
			 (unsigned long long)addr, (unsigned long long)time, n, buf[0],
			 want ? "the object's" : "none");
		return -1;
	}
	return 0;
}

static int check_handover(const char *dir)
{
	struct perf_env env = {.os_release = (char *)"0.0-not-this-kernel"};
	char a[4200], b[4200];
	struct machine *m = machine__new(&env, NULL);
	struct text_image *ti = text_image__new(&env, NULL, NULL);
	union record_buf buf;
	size_t i;
	int ret = -1;

	snprintf(a, sizeof(a), "%s/a-obj.elf", dir);
	snprintf(b, sizeof(b), "%s/b-obj.elf", dir);
	if (!m || !ti || kobj_elf__write(a, X, code_a, sizeof(code_a), syms_a, 2, bid_a) ||
	    kobj_elf__write(b, X, code_b, sizeof(code_b), syms_b, 1, bid_b))
		goto out;
	/* B over a live A, a KSYMBOL over B, unregistered; A again */
	if (feed(m, ti, record__mmap2(&buf, PERF_RECORD_MISC_KERNEL, -1, 0, X, 0x20, 0, a, bid_a),
		 100) ||
	    feed(m, ti, record__mmap(&buf, PERF_RECORD_MISC_KERNEL, -1, 0, X, 0x10, 0, b), 200) ||
	    feed(m, ti, record__ksymbol(&buf, X, 0x8, 1, false, "bpf_prog_x"), 300) ||
	    feed(m, ti, record__ksymbol(&buf, X, 0x8, 1, true, "bpf_prog_x"), 400) ||
	    feed(m, ti, record__mmap2(&buf, PERF_RECORD_MISC_KERNEL, -1, 0, X, 0x20, 0, a, bid_a),
		 500) ||
	    text_image__finish(ti))
		goto out;
	for (i = 0; i < ARRAY_SIZE(moments); i++) {
		if (check_at(m, ti, X + 0x4, moments[i].time, moments[i].lo) ||
		    check_at(m, ti, X + 0x14, moments[i].time, moments[i].hi))
			goto out;
	}
	text_image__delete(ti);
	ti = NULL;
	/*
	 * A module over A at 600.  Module maps are not versioned (the
	 * machine follows the records as they come), so only what is asked
	 * after the record is checked, as perf script asks: the object's
	 * span and bytes end there.
	 */
	machine__delete(m);
	m = machine__new(&env, NULL);
	ti = text_image__new(&env, NULL, NULL);
	if (!m || !ti ||
	    feed(m, ti, record__mmap2(&buf, PERF_RECORD_MISC_KERNEL, -1, 0, X, 0x20, 0, a, bid_a),
		 500) ||
	    feed(m, ti,
		 record__mmap(&buf, PERF_RECORD_MISC_KERNEL, -1, 0, X, 0x1000, 0,
			      "/lib/modules/6.1.0/kernel/foo.ko"),
		 600) ||
	    check_at(m, ti, X + 0x4, 650, MODULE) || check_at(m, ti, X + 0x14, 650, MODULE))
		goto out;
	/* B's file under A's build-id: not the object mapped, no symbols, no bytes */
	if (feed(m, ti, record__mmap2(&buf, PERF_RECORD_MISC_KERNEL, -1, 0, X, 0x10, 0, b, bid_a),
		 800) ||
	    text_image__finish(ti) || check_at(m, ti, X + 0x4, 850, WRONG_BID))
		goto out;
	/* before it, the bytes are still A's (the symbols: the module's now) */
	if (text_image__read(ti, X, 4, 550, (u8[4]){0}, NULL) != 4)
		goto out;
	text_image__delete(ti);
	/* a missing file mapped again and again: counted, its bytes unknown */
	ti = text_image__new(&env, NULL, NULL);
	snprintf(a, sizeof(a), "%s/missing.o", dir);
	for (i = 0; ti && i < 12; i++) {
		if (feed(m, ti,
			 record__mmap2(&buf, PERF_RECORD_MISC_KERNEL, -1, 0, X + i * 0x1000, 0x20,
				       0, a, bid_a),
			 700 + i))
			goto out;
	}
	if (!ti || text_image__finish(ti) || text_image__stats(ti)->nr_obj_unread != 12 ||
	    text_image__read(ti, X, 4, 800, (u8[4]){0}, NULL) != 0) {
		pr_debug("missing objects: %llu counted\n",
			 ti ? (unsigned long long)text_image__stats(ti)->nr_obj_unread : 0ULL);
		goto out;
	}
	ret = 0;
out:
	text_image__delete(ti);
	machine__delete(m);
	return ret;
}

/* every prefix of a valid object, a file past the cap and a FIFO */
static int check_reader(const char *dir)
{
	char src[4200], cut[4200];
	struct dso_code code;
	struct stat st;
	u8 *whole = NULL;
	size_t len, i;
	int fd, err, ret = -1, nr_ok = 0;

	snprintf(src, sizeof(src), "%s/whole.elf", dir);
	snprintf(cut, sizeof(cut), "%s/cut.elf", dir);
	if (kobj_elf__write(src, X, code_a, sizeof(code_a), syms_a, 2, bid_a) || stat(src, &st))
		return -1;
	err = dso_code__read(src, &code);
	if (err || code.nr != 1 || code.ranges[0].addr != X ||
	    code.ranges[0].len != sizeof(code_a) ||
	    memcmp(code.ranges[0].bytes, code_a, sizeof(code_a)) || code.bid.size != 20 ||
	    memcmp(code.bid.data, bid_a, 20)) {
		pr_debug("%s: %d, %zu ranges\n", src, err, code.nr);
		dso_code__exit(&code);
		return -1;
	}
	dso_code__exit(&code);
	whole = malloc(st.st_size);
	fd = open(src, O_RDONLY);
	if (!whole || fd < 0 || read(fd, whole, st.st_size) != st.st_size)
		goto out;
	close(fd);
	for (len = 0; len < (size_t)st.st_size; len++) {
		fd = open(cut, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || write(fd, whole, len) != (ssize_t)len)
			goto out;
		close(fd);
		err = dso_code__read(cut, &code);
		if (err == -ENOMEM)
			goto out;
		for (i = 0; !err && i < code.nr; i++) {
			const struct dso_code_range *r = &code.ranges[i];

			if (r->bytes < code.file || r->bytes + r->len > code.file + code.size ||
			    code.size > len) {
				pr_debug("cut at %zu: range %zu outside the file\n", len, i);
				dso_code__exit(&code);
				goto out;
			}
		}
		nr_ok += !err;
		dso_code__exit(&code);
	}
	/* the section headers come last: no prefix has them all */
	if (nr_ok) {
		pr_debug("%d truncated objects read as whole\n", nr_ok);
		goto out;
	}
	/* .text's size, then its offset, made to run past the end of the file */
	for (i = 0; i < 2; i++) {
		Elf64_Ehdr eh;
		Elf64_Shdr sh;

		memcpy(&eh, whole, sizeof(eh));
		memcpy(&sh, whole + eh.e_shoff + sizeof(sh), sizeof(sh));
		if (i == 0)
			sh.sh_size = 0x100000;
		else
			sh.sh_offset = ~0ULL - 8;
		fd = open(cut, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || write(fd, whole, st.st_size) != st.st_size ||
		    pwrite(fd, &sh, sizeof(sh), eh.e_shoff + sizeof(sh)) != sizeof(sh))
			goto out;
		close(fd);
		err = dso_code__read(cut, &code);
		dso_code__exit(&code);
		if (err != -EINVAL) {
			pr_debug("a .text outside the file: %d, not -EINVAL\n", err);
			goto out;
		}
	}
	fd = open(cut, O_WRONLY | O_TRUNC);
	if (fd < 0 || ftruncate(fd, DSO_CODE_MAX_FILE + 1ULL))
		goto out;
	close(fd);
	if (dso_code__read(cut, &code) != -EFBIG) {
		pr_debug("a file past the cap is read\n");
		goto out;
	}
	unlink(cut);
	if (mkfifo(cut, 0600) || dso_code__read(cut, &code) != -ESPIPE) {
		pr_debug("a FIFO is not refused\n");
		goto out;
	}
	ret = 0;
out:
	free(whole);
	return ret;
}

static int test__textimage_kernel_object(struct test_suite *t)
{
	char *dir = fixture__tmpdir();
	int ret = TEST_FAIL;

	TEST_ASSERT_VAL("tmpdir", dir);
	if (!check_handover(dir) && !check_reader(dir))
		ret = TEST_OK;
	fixture__remove_dir(dir, "textimage-kernel-object");
	free(dir);
	(void)t;
	return ret;
}

struct test_suite suite__textimage_kernel_object = {
    .desc = "textimage: kernel ELF objects end under a new mapping; hostile objects are refused",
    .func = test__textimage_kernel_object,
};
