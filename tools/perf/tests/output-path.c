// SPDX-License-Identifier: GPL-2.0-only
/*
 * output_path__kind(), which decides pipe mode and writing through for
 * inject and the writers, on one path of each kind made here: "-", a
 * regular file, a directory, a name not there, a FIFO, a socket,
 * /dev/null, symlinks to a FIFO and to nothing.  The expected kinds are
 * what each was made as.
 *
 * Mutation caught: S_ISSOCK dropped from the stream test (the socket
 * reads as a device, and inject would write a file into it).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "fixture.h"
#include "tests.h"
#include "../util/output-path.h"

static int make_socket(const char *path)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	int fd, err = 0;

	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)))
		err = -errno;
	close(fd);
	return err;
}

static int check_kinds(const char *dir)
{
	static const struct {
		const char *name;
		enum output_path_kind want;
	} cases[] = {
	    {"file", OUTPUT_PATH_FILE},	    {"dir", OUTPUT_PATH_FILE},
	    {"absent", OUTPUT_PATH_FILE},   {"fifo", OUTPUT_PATH_STREAM},
	    {"sock", OUTPUT_PATH_STREAM},   {"to-fifo", OUTPUT_PATH_STREAM},
	    {"dangling", OUTPUT_PATH_FILE},
	};
	char path[512], target[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/file", dir);
	f = fopen(path, "w");
	TEST_ASSERT_VAL("regular file", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/dir", dir);
	TEST_ASSERT_VAL("directory", !mkdir(path, 0700));
	snprintf(path, sizeof(path), "%s/fifo", dir);
	TEST_ASSERT_VAL("fifo", !mkfifo(path, 0600));
	snprintf(path, sizeof(path), "%s/sock", dir);
	TEST_ASSERT_EQUAL("socket", make_socket(path), 0);
	snprintf(target, sizeof(target), "%s/fifo", dir);
	snprintf(path, sizeof(path), "%s/to-fifo", dir);
	TEST_ASSERT_VAL("symlink to the fifo", !symlink(target, path));
	snprintf(target, sizeof(target), "%s/absent", dir);
	snprintf(path, sizeof(path), "%s/dangling", dir);
	TEST_ASSERT_VAL("dangling symlink", !symlink(target, path));

	TEST_ASSERT_EQUAL("-", output_path__kind("-"), OUTPUT_PATH_STDIO);
	TEST_ASSERT_VAL("- is a stream", output_path__is_stream("-"));
	TEST_ASSERT_EQUAL("/dev/null", output_path__kind("/dev/null"), OUTPUT_PATH_DEVICE);
	TEST_ASSERT_VAL("/dev/null is no stream", !output_path__is_stream("/dev/null"));
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, cases[i].name);
		if (output_path__kind(path) != cases[i].want) {
			pr_debug("%s: kind %d, want %d\n", cases[i].name, output_path__kind(path),
				 cases[i].want);
			return TEST_FAIL;
		}
		TEST_ASSERT_EQUAL(cases[i].name, output_path__is_stream(path),
				  cases[i].want == OUTPUT_PATH_STREAM);
	}
	return TEST_OK;
}

static int test__output_path_kind(struct test_suite *t)
{
	char *dir = fixture__tmpdir();
	int ret;

	TEST_ASSERT_VAL("scratch directory", dir);
	ret = check_kinds(dir);
	fixture__remove_dir(dir, "output-path");
	free(dir);
	return ret ?: test_result(t);
}

struct test_suite suite__output_path_kind = {
    .desc = "output path: -, files, directories, FIFOs, sockets, devices and symlinks by kind",
    .func = test__output_path_kind,
};
