// SPDX-License-Identifier: GPL-2.0-only
/*
 * insn of user samples whose object is in perf's build-id cache
 * ($HOME/.debug, as `perf archive` output unpacks there), in perf's order
 * for an object's bytes: the cache's copy first when it holds the
 * recorded build-id, else the recorded path, unchecked.  Three objects,
 * each a copy of a real program (its symbols load, as perf wants before
 * it reads bytes) with a mov $N,%eax written at one offset:
 *
 *   gone   recorded with /bin/true's build-id, nothing at its path: the
 *          cache's copy (N = 1)
 *   here   the same build-id, and a file at its path with other bytes
 *          (N = 2): the cache's copy still (N = 1)
 *   other  /bin/false's build-id, not in the cache: its path (N = 3)
 *
 * The build-ids come from the programs' .note.gnu.build-id read by
 * tests/elf-section.c, not by the code under test.  The expected bytes are
 * the ones written; stock perf, when installed, must print the same.
 *
 * Mutation caught: dso__data_path() returning long_name before it looks
 * in the cache: gone gets no bytes, here gets N = 2.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elf-section.h"
#include "fixture.h"
#include "tests.h"
#include "../util/writer.h"

#define PID 6262

enum { OBJ_GONE, OBJ_HERE, OBJ_OTHER, OBJ_NR };

/* the 20-byte GNU build-id of @path, from its note section */
static int note_build_id(const char *path, u8 bid[20])
{
	u64 addr, len;
	u8 *note;
	int err = elf_section__read(path, ".note.gnu.build-id", &addr, &note, &len);

	if (err)
		return err;
	/* namesz 4, descsz 20, type 3 (NT_GNU_BUILD_ID), "GNU\0", the id */
	if (len < 36 || note[0] != 4 || note[4] != 20 || note[8] != 3 || memcmp(note + 12, "GNU", 4))
		err = -EINVAL;
	else
		memcpy(bid, note + 16, 20);
	free(note);
	return err;
}

/* a copy of @src with mov $n,%eax at @off (past its end, on a 4 KiB boundary) */
static int write_prog(const char *src, const char *path, u8 n, u64 off)
{
	const u8 mov[5] = {0xb8, n, 0, 0, 0};
	char buf[65536];
	int in = open(src, O_RDONLY), out = -1, err = -EIO;
	ssize_t r;

	if (in < 0)
		return -errno;
	out = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (out < 0)
		goto out;
	while ((r = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, r) != r)
			goto out;
	if (r == 0 && pwrite(out, mov, sizeof(mov), off) == sizeof(mov))
		err = 0;
out:
	close(in);
	if (out >= 0)
		close(out);
	return err;
}

static void hex(const u8 bid[20], char out[41])
{
	int i;

	for (i = 0; i < 20; i++)
		sprintf(out + 2 * i, "%02x", bid[i]);
}

/* $HOME/.debug/<path>/<id>/elf and the .build-id/xx/yyyy link to it, as perf lays them out */
static int cache_add(const char *home, const char *path, const u8 bid[20], const char *src, u8 n,
		     u64 off)
{
	char id[41], dir[4400], link[4400], target[4400], cmd[9000];

	hex(bid, id);
	snprintf(dir, sizeof(dir), "%s/.debug%s/%s", home, path, id);
	snprintf(link, sizeof(link), "%s/.debug/.build-id/%.2s", home, id);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s' '%s'", dir, link);
	if (fixture__run(cmd, NULL, NULL))
		return -EIO;
	snprintf(target, sizeof(target), "../..%s/%s", path, id);
	snprintf(link + strlen(link), sizeof(link) - strlen(link), "/%s", id + 2);
	if (symlink(target, link))
		return -errno;
	strcat(dir, "/elf");
	return write_prog(src, dir, n, off);
}

static int write_recording(const char *data, char paths[OBJ_NR][4096], const u8 bids[OBJ_NR][20],
			   u64 off)
{
	struct perf_event_attr attr = {
	    .type = PERF_TYPE_SOFTWARE,
	    .size = sizeof(attr),
	    .config = PERF_COUNT_SW_CPU_CLOCK,
	    .sample_period = 10000,
	    .sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME,
	    .sample_id_all = 1,
	    .mmap = 1,
	    .mmap2 = 1,
	    .comm = 1,
	};
	struct perf_sample id = {.pid = PID, .tid = PID, .time = 100};
	struct perf_writer *w = perf_writer__new(data, 0);
	int idx, err, i;

	if (!w)
		return -errno;
	idx = perf_writer__add_attr(w, &attr, NULL, 0, "cpu-clock");
	err = idx < 0 ? idx : 0;
	err = err ?: perf_writer__set_arch(w, "x86_64");
	err = err ?: perf_writer__synth_comm(w, idx, PID, PID, "cached", false, &id);
	for (i = 0; !err && i < OBJ_NR; i++) {
		struct perf_record_mmap2 m = {
		    .header.misc = PERF_RECORD_MISC_USER,
		    .pid = PID,
		    .tid = PID,
		    .start = 0x400000ULL + i * 0x100000ULL,
		    .len = 0x1000,
		    .pgoff = off,
		    .ino = 200 + i,
		    .prot = PROT_READ | PROT_EXEC,
		    .flags = MAP_PRIVATE,
		};

		err = perf_writer__synth_mmap2(w, idx, &m, paths[i], &id);
		err = err ?: perf_writer__add_build_id(w, PERF_RECORD_MISC_USER, -1, bids[i], 20,
						       paths[i]);
	}
	for (i = 0; !err && i < OBJ_NR; i++) {
		struct perf_sample s = {
		    .ip = 0x400000ULL + i * 0x100000ULL,
		    .pid = PID,
		    .tid = PID,
		    .time = 1000 + i,
		    .cpumode = PERF_RECORD_MISC_USER,
		};

		err = perf_writer__synth_sample(w, idx, &s);
	}
	if (err) {
		perf_writer__abort(w);
		return err;
	}
	return perf_writer__close(w);
}

static int test__script_insn_buildid_cache(struct test_suite *t)
{
	static const char *const names[OBJ_NR] = {"gone/prog", "here/prog", "other/prog"};
	static const char *const want[OBJ_NR] = {"b8 01 00 00 00", "b8 01 00 00 00",
						 "b8 03 00 00 00"};
	char paths[OBJ_NR][4096], data[4200], cmd[9000], line[128], *dir = fixture__tmpdir();
	char *out = NULL, *theirs = NULL;
	u8 bids[OBJ_NR][20];
	struct stat st;
	int ret = TEST_FAIL, i;
	u64 off;

	TEST_ASSERT_VAL("tmpdir", dir);
	if (note_build_id("/bin/true", bids[OBJ_GONE]) || note_build_id("/bin/false", bids[OBJ_OTHER]) ||
	    !memcmp(bids[OBJ_GONE], bids[OBJ_OTHER], 20) || stat("/bin/true", &st)) {
		test_skip(t, "/bin/true and /bin/false have no build-ids of their own");
		ret = TEST_SKIP;
		goto out;
	}
	memcpy(bids[OBJ_HERE], bids[OBJ_GONE], 20);
	off = (st.st_size + 0xfff) & ~0xfffULL;
	for (i = 0; i < OBJ_NR; i++)
		snprintf(paths[i], sizeof(paths[i]), "%s/%s", dir, names[i]);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/here' '%s/other'", dir, dir);
	if (fixture__run(cmd, NULL, NULL) || write_prog("/bin/true", paths[OBJ_HERE], 2, off) ||
	    write_prog("/bin/false", paths[OBJ_OTHER], 3, off) ||
	    cache_add(dir, paths[OBJ_GONE], bids[OBJ_GONE], "/bin/true", 1, off)) {
		pr_debug("cannot make the objects and the cache in %s: %s\n", dir, strerror(errno));
		goto out;
	}
	snprintf(data, sizeof(data), "%s/perf.data", dir);
	if (write_recording(data, paths, bids, off)) {
		pr_debug("cannot write %s\n", data);
		goto out;
	}

	snprintf(cmd, sizeof(cmd), "HOME='%s' '%s' script -i '%s' -F ip,dso,insn", dir,
		 test_self_exe(), data);
	if (fixture__run(cmd, &out, NULL) || !out) {
		pr_debug("%s failed\n", cmd);
		goto out;
	}
	pr_debug("%s", out);
	for (i = 0; i < OBJ_NR; i++) {
		snprintf(line, sizeof(line), "(%s) insn: %s\n", paths[i], want[i]);
		if (fixture__count(out, line) != 1) {
			pr_debug("%s: not the bytes %s\n", names[i], want[i]);
			goto out;
		}
	}
	TEST_ASSERT_EQUAL("one line per sample", fixture__count(out, "\n"), OBJ_NR);

	if (fixture__have_perf()) {
		snprintf(cmd, sizeof(cmd), "HOME='%s' perf script -i '%s' -F ip,dso,insn 2>/dev/null",
			 dir, data);
		if (fixture__run(cmd, &theirs, NULL) || !theirs) {
			pr_debug("%s failed\n", cmd);
			goto out;
		}
		if (strcmp(out, theirs)) {
			pr_debug("stock perf:\n%s", theirs);
			goto out;
		}
	} else {
		test_skip_part(t, "stock perf part: perf is not installed");
	}
	ret = test_result(t);
out:
	free(out);
	free(theirs);
	if (dir)
		fixture__remove_dir(dir, "script-insn-buildid-cache");
	free(dir);
	return ret;
}

struct test_suite suite__script_insn_buildid_cache = {
    .desc = "script: insn from the build-id cache first, as perf reads objects",
    .func = test__script_insn_buildid_cache,
};
