// SPDX-License-Identifier: GPL-2.0-only
/*
 * The writer's destinations other than a plain new file, in a scratch
 * directory: mknod'ed copies of /dev/null and /dev/full, a FIFO, symlinks
 * (dangling, looping), a .old that is a device, directories with and
 * without a recording in them.  Anything that is not a regular file or a
 * recording is written through or refused, never renamed nor removed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "tests.h"
#include "fixture.h"
#include "../util/writer.h"

/* a one-record recording to @path: the error of new (as -errno) or close */
static int write_to(const char *path, unsigned int flags)
{
	struct perf_event_attr attr = {
	    .type = PERF_TYPE_SOFTWARE,
	    .size = sizeof(attr),
	    .config = PERF_COUNT_SW_CPU_CLOCK,
	    .sample_period = 1,
	    .sample_type = PERF_SAMPLE_IP,
	};
	struct perf_writer *w = perf_writer__new(path, flags);
	int err;

	if (!w)
		return -errno;
	err = perf_writer__add_attr(w, &attr, NULL, 0, NULL);
	if (err >= 0)
		err = perf_writer__synth_comm(w, 0, 1, 1, "init", false, NULL);
	if (err < 0) {
		perf_writer__abort(w);
		return err;
	}
	return perf_writer__close(w);
}

static bool is_chr(const char *path, unsigned int major, unsigned int minor)
{
	struct stat st;

	return !lstat(path, &st) && S_ISCHR(st.st_mode) && st.st_rdev == makedev(major, minor);
}

/* the number of names in @dir, to see that nothing was left or moved there */
static int nr_names(const char *dir)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	int n = 0;

	if (!d)
		return -1;
	while ((de = readdir(d)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	return n;
}

static int run(struct test_suite *t, const char *dir)
{
	char null[256], full[256], fifo[256], p[256], q[256];
	char magic[8];
	struct stat st;
	int rd;

	snprintf(null, sizeof(null), "%s/null", dir);
	snprintf(full, sizeof(full), "%s/full", dir);
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	if (mknod(null, S_IFCHR | 0666, makedev(1, 3)) ||
	    mknod(full, S_IFCHR | 0666, makedev(1, 7))) {
		test_skip(t, "mknod in %s: %s (needs root)", dir, strerror(errno));
		return TEST_SKIP;
	}
	rd = open(null, O_WRONLY);
	if (rd < 0) {
		test_skip(t, "%s: device nodes cannot be opened there (nodev)", dir);
		return TEST_SKIP;
	}
	close(rd);

	/* devices: written in place, whatever the mode */
	TEST_ASSERT_EQUAL("file to the null node", write_to(null, 0), 0);
	TEST_ASSERT_EQUAL("zstd pipe to the null node",
			  write_to(null, PERF_WRITER_PIPE | PERF_WRITER_ZSTD), 0);
	TEST_ASSERT_EQUAL("a directory on the null node", write_to(null, PERF_WRITER_DIRECTORY),
			  -ENOTDIR);
	TEST_ASSERT_EQUAL("file to the full node", write_to(full, 0), -ENOSPC);
	TEST_ASSERT_VAL("the null node intact", is_chr(null, 1, 3));
	TEST_ASSERT_VAL("the full node intact", is_chr(full, 1, 7));
	TEST_ASSERT_EQUAL("nothing beside them", nr_names(dir), 2);

	/* a FIFO: no reader is ENXIO at once; with one, pipe mode only */
	TEST_ASSERT_VAL("mkfifo", !mkfifo(fifo, 0600));
	TEST_ASSERT_EQUAL("FIFO without a reader", write_to(fifo, PERF_WRITER_PIPE), -ENXIO);
	rd = open(fifo, O_RDONLY | O_NONBLOCK);
	TEST_ASSERT_VAL("FIFO reader", rd >= 0);
	TEST_ASSERT_EQUAL("file format on a FIFO", write_to(fifo, 0), -ESPIPE);
	TEST_ASSERT_EQUAL("pipe format on a FIFO", write_to(fifo, PERF_WRITER_PIPE), 0);
	TEST_ASSERT_VAL("what the reader got",
			read(rd, magic, 8) == 8 && !memcmp(magic, "PERFILE2", 8));
	close(rd);
	TEST_ASSERT_VAL("the FIFO intact", !lstat(fifo, &st) && S_ISFIFO(st.st_mode));
	TEST_ASSERT_EQUAL("nothing beside it", nr_names(dir), 3);

	/* symlinks: to a node, dangling (creates the target), looping */
	snprintf(p, sizeof(p), "%s/to-null", dir);
	TEST_ASSERT_VAL("symlink", !symlink("null", p));
	TEST_ASSERT_EQUAL("through a symlink to the null node", write_to(p, 0), 0);
	TEST_ASSERT_VAL("the link intact", !lstat(p, &st) && S_ISLNK(st.st_mode));
	TEST_ASSERT_VAL("the node intact", is_chr(null, 1, 3));
	snprintf(p, sizeof(p), "%s/dangling", dir);
	snprintf(q, sizeof(q), "%s/new.data", dir);
	TEST_ASSERT_VAL("symlink", !symlink("new.data", p));
	TEST_ASSERT_EQUAL("through a dangling symlink", write_to(p, 0), 0);
	TEST_ASSERT_VAL("the link intact", !lstat(p, &st) && S_ISLNK(st.st_mode));
	TEST_ASSERT_VAL("its target created", !lstat(q, &st) && S_ISREG(st.st_mode) && st.st_size);
	TEST_ASSERT_EQUAL("again: the target kept as .old", write_to(p, 0), 0);
	snprintf(q, sizeof(q), "%s/new.data.old", dir);
	TEST_ASSERT_VAL("new.data.old", !lstat(q, &st) && S_ISREG(st.st_mode));
	snprintf(p, sizeof(p), "%s/loop-a", dir);
	snprintf(q, sizeof(q), "%s/loop-b", dir);
	TEST_ASSERT_VAL("symlinks", !symlink("loop-b", p) && !symlink("loop-a", q));
	TEST_ASSERT_EQUAL("a symlink loop", write_to(p, 0), -ELOOP);

	/* a .old that is a device is not removed to make room */
	snprintf(p, sizeof(p), "%s/x.data", dir);
	snprintf(q, sizeof(q), "%s/x.data.old", dir);
	TEST_ASSERT_VAL("mknod", !mknod(q, S_IFCHR | 0666, makedev(1, 3)));
	TEST_ASSERT_EQUAL("x.data.old a device", write_to(p, 0), -EEXIST);
	TEST_ASSERT_VAL("x.data.old intact", is_chr(q, 1, 3));
	TEST_ASSERT_VAL("no x.data", lstat(p, &st) && errno == ENOENT);

	/* directories: a recording is replaced (kept as .old), others are not */
	snprintf(p, sizeof(p), "%s/rec.data", dir);
	TEST_ASSERT_EQUAL("a directory recording", write_to(p, PERF_WRITER_DIRECTORY), 0);
	TEST_ASSERT_EQUAL("over it", write_to(p, PERF_WRITER_DIRECTORY), 0);
	snprintf(q, sizeof(q), "%s/rec.data.old/data", dir);
	TEST_ASSERT_VAL("rec.data.old/data", !lstat(q, &st) && S_ISREG(st.st_mode));
	snprintf(p, sizeof(p), "%s/mine", dir);
	snprintf(q, sizeof(q), "%s/mine/notes", dir);
	TEST_ASSERT_VAL("mkdir", !mkdir(p, 0755) && !close(open(q, O_WRONLY | O_CREAT, 0644)));
	TEST_ASSERT_EQUAL("a directory of other files", write_to(p, 0), -ENOTEMPTY);
	TEST_ASSERT_EQUAL("... in directory mode", write_to(p, PERF_WRITER_DIRECTORY), -ENOTEMPTY);
	TEST_ASSERT_VAL("its file intact", !lstat(q, &st) && S_ISREG(st.st_mode));
	snprintf(q, sizeof(q), "%s/mine.old", dir);
	TEST_ASSERT_VAL("no mine.old", lstat(q, &st) && errno == ENOENT);
	return TEST_OK;
}

static int test__writer_output(struct test_suite *t)
{
	char *dir = fixture__tmpdir();
	int ret;

	TEST_ASSERT_VAL("tmpdir", dir);
	ret = run(t, dir);
	fixture__rm_rf(dir);
	free(dir);
	return ret;
}

struct test_suite suite__writer_output = {
    .desc = "writer: devices, FIFOs, symlinks and foreign directories are never replaced",
    .func = test__writer_output,
};
