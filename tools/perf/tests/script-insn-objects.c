// SPDX-License-Identifier: GPL-2.0-only
/*
 * insn of user samples whose object is not a plain ELF file: a FIFO (must
 * not hang the listing), a character device, a file that is not ELF, a
 * missing file, an ELF file shorter than the sample's offset and a
 * symlink to an ELF file.  Regular files give their bytes, in 64-bit mode
 * unless they are ELF32, as in perf: without the FIFO stock perf is the
 * oracle; none of them makes the listing fail, and none is written to.
 * Then more objects than stay mapped, each read again after eviction.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fixture.h"
#include "tests.h"
#include "../util/writer.h"

#define PID 6161

enum { OBJ_ELF, OBJ_LINK, OBJ_FIFO, OBJ_DEV, OBJ_TEXT, OBJ_MISSING, OBJ_SHORT, OBJ_ELF32, OBJ_NR };

/* a 32-bit ELF object on this machine, if any (gcc-multilib, libc6-i386) */
static const char *const elf32_candidates[] = {"/usr/lib32/libc.so.6", "/lib32/libc.so.6",
					       "/usr/lib/i386-linux-gnu/libc.so.6"};

/* mov %rsp,%rbp; kmovq %k1,%k0 (which capstone 4 cannot decode); ret */
static const u8 code[] = {0x48, 0x89, 0xe5, 0xc4, 0xe1, 0xf8, 0x90, 0xc1, 0xc3};

/*
 * A copy of a real ELF program (its symbols load, as perf wants before it
 * reads bytes) with the code above appended at *@off, or after the end
 * when that is further (*@off then says where); with @cut, only the first
 * 2 bytes of that code.
 */
static int write_elf_code(const char *src, const char *path, const u8 *bytes, size_t len, u64 *off)
{
	char buf[65536];
	int in = open(src, O_RDONLY), out = -1, err = -EIO;
	ssize_t n;
	u64 size = 0;

	if (in < 0)
		return -errno;
	out = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (out < 0)
		goto out;
	while ((n = read(in, buf, sizeof(buf))) > 0) {
		if (write(out, buf, n) != n)
			goto out;
		size += n;
	}
	if (n < 0)
		goto out;
	if (*off < ((size + 15) & ~15ULL))
		*off = (size + 15) & ~15ULL;
	if (pwrite(out, bytes, len, *off) != (ssize_t)len)
		goto out;
	err = 0;
out:
	close(in);
	if (out >= 0)
		close(out);
	return err;
}

static int write_elf(const char *src, const char *path, bool cut, u64 *off)
{
	return write_elf_code(src, path, code, cut ? 2 : sizeof(code), off);
}

/* samples at @off (mov) and @off + 3 (kmovq) of each object */
static int write_recording(const char *data, char paths[OBJ_NR][4096], u64 off, bool with_fifo)
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
	err = err ?: perf_writer__synth_comm(w, idx, PID, PID, "objects", false, &id);
	for (i = 0; !err && i < OBJ_NR; i++) {
		struct perf_record_mmap2 m = {
		    .header.misc = PERF_RECORD_MISC_USER,
		    .pid = PID,
		    .tid = PID,
		    .start = 0x400000ULL + i * 0x100000ULL,
		    .len = 0x1000,
		    .pgoff = off & ~0xfffULL,
		    .ino = 100 + i,
		    .prot = PROT_READ | PROT_EXEC,
		    .flags = MAP_PRIVATE,
		};

		if (i == OBJ_FIFO && !with_fifo)
			continue;
		err = perf_writer__synth_mmap2(w, idx, &m, paths[i], &id);
	}
	for (i = 0; !err && i < OBJ_NR; i++) {
		struct perf_sample s = {
		    .ip = 0x400000ULL + i * 0x100000ULL + (off & 0xfff),
		    .pid = PID,
		    .tid = PID,
		    .time = 1000 + i,
		    .cpumode = PERF_RECORD_MISC_USER,
		};

		if (i == OBJ_FIFO && !with_fifo)
			continue;
		err = perf_writer__synth_sample(w, idx, &s);
		/* the next instruction, kmovq */
		s.ip += 3;
		s.time += 100;
		err = err ?: perf_writer__synth_sample(w, idx, &s);
	}
	if (err) {
		perf_writer__abort(w);
		return err;
	}
	return perf_writer__close(w);
}

/*
 * MANY copies of @src, each with its own mov $i,%eax at @off and mapped by
 * a process of its own, sampled round robin twice
 */
#define MANY 80

static int write_many(const char *data, const char *dir, const char *src, u64 off)
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
	struct perf_writer *w = perf_writer__new(data, 0);
	int idx, err, i, round;
	u64 t = 1000;

	if (!w)
		return -errno;
	idx = perf_writer__add_attr(w, &attr, NULL, 0, "cpu-clock");
	err = idx < 0 ? idx : 0;
	err = err ?: perf_writer__set_arch(w, "x86_64");
	for (i = 0; !err && i < MANY; i++) {
		struct perf_sample id = {.pid = PID + i, .tid = PID + i, .time = 100};
		struct perf_record_mmap2 m = {
		    .header.misc = PERF_RECORD_MISC_USER,
		    .pid = PID + i,
		    .tid = PID + i,
		    .start = 0x400000ULL,
		    .len = 0x1000,
		    .pgoff = off & ~0xfffULL,
		    .ino = 1000 + i,
		    .prot = PROT_READ | PROT_EXEC,
		    .flags = MAP_PRIVATE,
		};
		u8 mov[5] = {0xb8, i, 0, 0, 0};
		char path[4200];
		u64 at = off;

		snprintf(path, sizeof(path), "%s/many%d", dir, i);
		err = write_elf_code(src, path, mov, sizeof(mov), &at);
		if (!err && at != off)
			err = -EINVAL;
		err = err ?: perf_writer__synth_comm(w, idx, PID + i, PID + i, "many", false, &id);
		err = err ?: perf_writer__synth_mmap2(w, idx, &m, path, &id);
	}
	for (round = 0; round < 2; round++) {
		for (i = 0; !err && i < MANY; i++) {
			struct perf_sample s = {
			    .ip = 0x400000ULL + (off & 0xfff),
			    .pid = PID + i,
			    .tid = PID + i,
			    .time = t++,
			    .cpumode = PERF_RECORD_MISC_USER,
			};

			err = perf_writer__synth_sample(w, idx, &s);
		}
	}
	if (err) {
		perf_writer__abort(w);
		return err;
	}
	return perf_writer__close(w);
}

static int test__script_insn_objects(struct test_suite *t)
{
	char paths[OBJ_NR][4096], data[4200], cmd[9000], *dir = fixture__tmpdir(), *out = NULL;
	static const char *const names[OBJ_NR] = {"elf",  "link",    "fifo",  "dev",
						  "text", "missing", "short", "elf32"};
	const char *elf32 = NULL;
	char *theirs = NULL;
	int ret = TEST_FAIL, i, fd;
	u64 off = 0, off_short = 0;
	struct stat st;

	TEST_ASSERT_VAL("tmpdir", dir);
	for (i = 0; i < OBJ_NR; i++)
		snprintf(paths[i], sizeof(paths[i]), "%s/%s", dir, names[i]);
	snprintf(paths[OBJ_DEV], sizeof(paths[OBJ_DEV]), "/dev/null");
	for (i = 0; i < (int)(sizeof(elf32_candidates) / sizeof(elf32_candidates[0])); i++) {
		if (!access(elf32_candidates[i], R_OK)) {
			elf32 = elf32_candidates[i];
			break;
		}
	}
	/* the code at one offset in every object: the largest one's end */
	if (elf32 && write_elf(elf32, paths[OBJ_ELF32], false, &off)) {
		pr_debug("cannot copy %s\n", elf32);
		goto out;
	}
	if (!elf32)
		pr_debug("no 32-bit ELF object: that part is not checked\n");
	off_short = off;
	if (write_elf("/bin/true", paths[OBJ_ELF], false, &off) ||
	    symlink(paths[OBJ_ELF], paths[OBJ_LINK]) || mkfifo(paths[OBJ_FIFO], 0600) ||
	    write_elf("/bin/true", paths[OBJ_SHORT], true, &off_short) || off != off_short) {
		pr_debug("cannot make the objects in %s: %s\n", dir, strerror(errno));
		goto out;
	}
	fd = open(paths[OBJ_TEXT], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || ftruncate(fd, off + 64) ||
	    pwrite(fd, code, sizeof(code), off) != sizeof(code)) {
		pr_debug("cannot write %s\n", paths[OBJ_TEXT]);
		goto out;
	}
	close(fd);

	/* without the FIFO (stock perf would block on it): what stock perf prints */
	snprintf(data, sizeof(data), "%s/nofifo.data", dir);
	if (write_recording(data, paths, off, false))
		goto out;
	snprintf(cmd, sizeof(cmd), "timeout 20 '%s' script -i '%s' -F ip,dso,insn", test_self_exe(),
		 data);
	if (fixture__run(cmd, &out, NULL) || !out) {
		pr_debug("%s failed\n", cmd);
		goto out;
	}
	if (fixture__have_perf()) {
		snprintf(cmd, sizeof(cmd),
			 "HOME='%s' perf script -i '%s' -F ip,dso,insn 2>/dev/null", dir, data);
		if (fixture__run(cmd, &theirs, NULL) || !theirs) {
			pr_debug("%s failed\n", cmd);
			goto out;
		}
		if (strcmp(out, theirs)) {
			pr_debug("ours:\n%s\nstock perf:\n%s\n", out, theirs);
			goto out;
		}
	}
	free(out);
	out = NULL;

	/* the FIFO has no writer: opening it must not block (timeout says if it does) */
	snprintf(data, sizeof(data), "%s/perf.data", dir);
	if (write_recording(data, paths, off, true))
		goto out;
	snprintf(cmd, sizeof(cmd), "timeout 20 '%s' script -i '%s' -F ip,dso,insn,disasm",
		 test_self_exe(), data);
	if (fixture__run(cmd, &out, NULL) || !out) {
		pr_debug("%s failed (or hung)\n", cmd);
		goto out;
	}
	pr_debug("%s", out);
	/*
	 * In the ELF, through the link and in the text file (64-bit: no ELF
	 * class); in the 32-bit object 48 is dec %eax, and disasm says so.
	 * kmovq's bytes with no disasm: insn does not need capstone.
	 */
	TEST_ASSERT_EQUAL("mov %rsp,%rbp", fixture__count(out, " insn: 48 89 e5"), 3);
	TEST_ASSERT_EQUAL("kmovq", fixture__count(out, " insn: c4 e1 f8 90 c1\n"), 3 + !!elf32);
	if (elf32)
		TEST_ASSERT_EQUAL("dec %eax in 32-bit code", fixture__count(out, " insn: 48 dec"),
				  1);
	/* the short ELF has 2 bytes at the offset: no whole instruction */
	TEST_ASSERT_EQUAL("bytes from the files only", fixture__count(out, " insn:"),
			  6 + 2 * !!elf32);
	TEST_ASSERT_EQUAL("one line per sample", fixture__count(out, "\n"), 2 * OBJ_NR);
	TEST_ASSERT_VAL("the FIFO is still a FIFO",
			!lstat(paths[OBJ_FIFO], &st) && S_ISFIFO(st.st_mode));
	TEST_ASSERT_VAL("the link is still a link",
			!lstat(paths[OBJ_LINK], &st) && S_ISLNK(st.st_mode));
	free(out);
	out = NULL;

	/* more objects than files kept mapped, sampled in turn: each evicted and read again */
	snprintf(data, sizeof(data), "%s/many.data", dir);
	if (write_many(data, dir, "/bin/true", off)) {
		pr_debug("cannot write %s\n", data);
		goto out;
	}
	snprintf(cmd, sizeof(cmd), "'%s' script -i '%s' -F ip,insn", test_self_exe(), data);
	if (fixture__run(cmd, &out, NULL) || !out) {
		pr_debug("%s failed\n", cmd);
		goto out;
	}
	for (i = 0; i < MANY; i++) {
		char want[64];

		snprintf(want, sizeof(want), " insn: b8 %02x 00 00 00\n", i);
		if (fixture__count(out, want) != 2) {
			pr_debug("object %d: '%s' %d times, not twice\n", i, want,
				 fixture__count(out, want));
			goto out;
		}
	}
	ret = TEST_OK;
out:
	free(out);
	free(theirs);
	if (dir)
		fixture__remove_dir(dir, "script-insn-objects");
	free(dir);
	(void)t;
	return ret;
}

struct test_suite suite__script_insn_objects = {
    .desc = "script: insn from FIFOs, devices, non-ELF, missing, short and linked objects",
    .func = test__script_insn_objects,
};
