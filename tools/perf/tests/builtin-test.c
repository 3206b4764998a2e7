// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf textpoke test: numbered tests like perf test.  C suites come from
 * the generated builtin_tests[] table, shell tests from tests/shell/ (*.sh,
 * description on line 2, exit 2 to skip, the last line printed being the
 * reason).  Each test runs in a child so that a crash fails one test, not
 * the run; its output is shown with -v, and always when it fails.  With
 * -j N up to N children run at once, the results printed in the tests'
 * order; a test marked exclusive runs alone.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "builtin.h"
#include "util/parse-options.h"
#include "tests.h"
#include "fixture-big.h"

/*
 * A hung test ends here.  The longest one, kernel-rig, boots a kernel
 * under qemu twice (each boot under its own 360 s timeout) and checks
 * a table: ~4 minutes on an idle machine, ~5 with ASan, ~10 loaded.
 */
#define TEST_TIMEOUT_SECS 900

struct shell_test {
	char *path;
	char *desc;
	bool exclusive; /* a "# Exclusive: why" line in its leading comment */
};

static struct shell_test *shell_tests;
static int nr_shell_tests;

static char srcdir_buf[PATH_MAX];
static char corpus_buf[PATH_MAX];
static char self_buf[PATH_MAX];

/* a tree, or an install's share/perf-textpoke, holding the shell tests */
static bool has_tests(const char *root)
{
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/tools/perf/tests/shell", root);
	return !access(path, R_OK | X_OK);
}

static bool srcdir_found, srcdir_installed;

/*
 * $TEXTPOKE_SRCDIR, else found from the binary: <prefix>/bin/perf-textpoke
 * has its tests in <prefix>/share/perf-textpoke (make install), a binary
 * of the tree lives in tools/perf/ or build-san/ of it.
 */
const char *test_srcdir(void)
{
	static const struct {
		const char *rel;
		bool installed;
	} places[] = {
	    {"/../share/perf-textpoke", true},
	    {"/../..", false},
	    {"/..", false},
	};
	const char *env = getenv("TEXTPOKE_SRCDIR");
	char bindir[PATH_MAX], *slash;

	if (env && *env) {
		srcdir_found = has_tests(env);
		return env;
	}
	if (srcdir_buf[0])
		return srcdir_buf;
	if (!realpath(test_self_exe(), bindir))
		strcpy(bindir, ".");
	slash = strrchr(bindir, '/');
	if (slash)
		*slash = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(places); i++) {
		snprintf(srcdir_buf, sizeof(srcdir_buf), "%s%s", bindir, places[i].rel);
		if (has_tests(srcdir_buf)) {
			srcdir_found = true;
			srcdir_installed = places[i].installed;
			break;
		}
	}
	if (!srcdir_found)
		snprintf(srcdir_buf, sizeof(srcdir_buf), "%s%s", bindir, places[0].rel);
	/* a clean path for messages; it exists when it was found */
	if (realpath(srcdir_buf, bindir))
		strcpy(srcdir_buf, bindir);
	return srcdir_buf;
}

/*
 * $TEXTPOKE_CORPUS, else shared/corpus/public beside the tree, or
 * share/perf-textpoke/corpus of an install (nothing installs it there).
 */
const char *test_corpus_dir(void)
{
	const char *env = getenv("TEXTPOKE_CORPUS");
	const char *src;

	if (env && *env)
		return env;
	if (!corpus_buf[0]) {
		src = test_srcdir();
		snprintf(corpus_buf, sizeof(corpus_buf), "%s/%s", src,
			 srcdir_installed ? "corpus" : "../shared/corpus/public");
	}
	return corpus_buf;
}

static bool corpus_found(void)
{
	char path[PATH_MAX + 16];

	snprintf(path, sizeof(path), "%s/INDEX.md", test_corpus_dir());
	return !access(path, R_OK);
}

const char *test_self_exe(void)
{
	ssize_t n;

	if (self_buf[0])
		return self_buf;
	n = readlink("/proc/self/exe", self_buf, sizeof(self_buf) - 1);
	if (n < 0)
		strcpy(self_buf, "perf-textpoke");
	else
		self_buf[n] = '\0';
	return self_buf;
}

void test_skip(struct test_suite *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->skip_reason, sizeof(t->skip_reason), fmt, ap);
	va_end(ap);
}

void test_skip_part(struct test_suite *t, const char *fmt, ...)
{
	size_t len = strlen(t->skip_reason);
	va_list ap;

	if (len && len + 2 < sizeof(t->skip_reason)) {
		strcpy(t->skip_reason + len, "; ");
		len += 2;
	}
	va_start(ap, fmt);
	vsnprintf(t->skip_reason + len, sizeof(t->skip_reason) - len, fmt, ap);
	va_end(ap);
}

int test_result(const struct test_suite *t)
{
	return t->skip_reason[0] ? TEST_SKIP : TEST_OK;
}

static int cmp_shell_test(const void *a, const void *b)
{
	return strcmp(((const struct shell_test *)a)->path, ((const struct shell_test *)b)->path);
}

static void load_shell_tests(void)
{
	char dir[PATH_MAX + 32], line[512];
	struct dirent *de;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/tools/perf/tests/shell", test_srcdir());
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		struct shell_test *st, *tmp;
		FILE *f;

		if (len < 4 || strcmp(de->d_name + len - 3, ".sh"))
			continue;
		tmp = realloc(shell_tests, (nr_shell_tests + 1) * sizeof(*tmp));
		if (!tmp)
			break;
		shell_tests = tmp;
		st = &shell_tests[nr_shell_tests];
		if (asprintf(&st->path, "%s/%s", dir, de->d_name) < 0)
			break;
		st->desc = NULL;
		f = fopen(st->path, "r");
		/* line 2 is "# description" */
		if (f && fgets(line, sizeof(line), f) && fgets(line, sizeof(line), f)) {
			char *p = line;

			line[strcspn(line, "\n")] = '\0';
			while (*p == '#' || *p == ' ')
				p++;
			st->desc = strdup(p);
		}
		st->exclusive = false;
		/* the leading comment's "# Exclusive: ..." (test -j runs it alone) */
		while (f && fgets(line, sizeof(line), f) && line[0] == '#') {
			if (!strncmp(line, "# Exclusive:", 12)) {
				st->exclusive = true;
				break;
			}
		}
		if (f)
			fclose(f);
		if (!st->desc)
			st->desc = strdup(de->d_name);
		nr_shell_tests++;
	}
	closedir(d);
	if (nr_shell_tests)
		qsort(shell_tests, nr_shell_tests, sizeof(*shell_tests), cmp_shell_test);
}

static int nr_c_tests(void)
{
	int n = 0;

	while (builtin_tests[n])
		n++;
	return n;
}

static const char *test_desc(int i)
{
	int nc = nr_c_tests();

	return i < nc ? builtin_tests[i]->desc : shell_tests[i - nc].desc;
}

/* the last non-empty line of a file, for a shell test's skip reason */
static void last_line(int fd, char *buf, size_t size)
{
	char chunk[4096];
	ssize_t n;
	off_t end = lseek(fd, 0, SEEK_END);
	off_t from = end > (off_t)sizeof(chunk) ? end - (off_t)sizeof(chunk) : 0;
	char *p;

	buf[0] = '\0';
	n = pread(fd, chunk, sizeof(chunk) - 1, from);
	if (n <= 0)
		return;
	chunk[n] = '\0';
	while (n > 0 && (chunk[n - 1] == '\n' || chunk[n - 1] == ' '))
		chunk[--n] = '\0';
	p = strrchr(chunk, '\n');
	p = p ? p + 1 : chunk;
	n = strlen(p);
	if ((size_t)n >= size)
		n = size - 1;
	memcpy(buf, p, n);
	buf[n] = '\0';
}

static void copy_out(int fd)
{
	char buf[4096];
	ssize_t n;
	off_t off = 0;

	while ((n = pread(fd, buf, sizeof(buf), off)) > 0) {
		fwrite(buf, 1, n, stdout);
		off += n;
	}
	fflush(stdout);
}

static int home__open_dir(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	/* a test may leave a directory it made read-only */
	if (flag == FTW_D)
		chmod(path, (st->st_mode & 07777) | S_IRWXU);
	return 0;
}

static int home__remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	if (remove(path) && errno != ENOENT)
		fprintf(stderr, "perf textpoke test: cannot remove %s: %s\n", path,
			strerror(errno));
	return 0;
}

static void home__remove(const char *home)
{
	nftw(home, home__open_dir, 16, FTW_PHYS);
	nftw(home, home__remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

/*
 * A test running in its child: its output goes to an unlinked file, a
 * C test's skip reason through a pipe, and it has a HOME of its own.
 */
struct test_job {
	int i;
	pid_t pid; /* 0: not started, -1: done */
	int out, rfd;
	char home[32];
	int ret;
	char reason[512];
};

static int job__fail(struct test_job *job, const char *what)
{
	snprintf(job->reason, sizeof(job->reason), "%s: %s", what, strerror(errno));
	job->ret = TEST_FAIL;
	job->pid = -1;
	return -1;
}

/* start test @job->i in a child; -1 (the job failed, done) when it cannot */
static int job__start(struct test_job *job)
{
	int nc = nr_c_tests();
	char tmpl[] = "/tmp/perf-textpoke-test-XXXXXX";
	int rpipe[2], ret;
	pid_t pid;

	job->out = job->rfd = -1;
	job->reason[0] = '\0';
	job->out = mkstemp(tmpl);
	if (job->out < 0)
		return job__fail(job, "cannot make an output file");
	unlink(tmpl);
	if (pipe(rpipe) < 0)
		return job__fail(job, "cannot make a pipe");
	/*
	 * Every test gets a HOME of its own, empty, removed afterwards: perf
	 * record fills ~/.debug with the build-ids it saw, and perf script,
	 * perf report and our reader all take symbols from there (and perf
	 * its ~/.perfconfig), so a shared HOME lets one run's recording, or
	 * the machine's, change what an oracle answers.
	 */
	strcpy(job->home, "/tmp/perf-textpoke-home-XXXXXX");
	if (!mkdtemp(job->home)) {
		close(rpipe[0]);
		close(rpipe[1]);
		job->home[0] = '\0';
		return job__fail(job, "cannot make a scratch HOME");
	}
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		close(rpipe[0]);
		close(rpipe[1]);
		home__remove(job->home);
		return job__fail(job, "cannot fork");
	}
	if (pid == 0) {
		close(rpipe[0]);
		dup2(job->out, 1);
		dup2(job->out, 2);
		setpgid(0, 0);
		setenv("HOME", job->home, 1);
		alarm(TEST_TIMEOUT_SECS);
		if (job->i < nc) {
			struct test_suite *t = builtin_tests[job->i];

			verbose = verbose > 1 ? verbose : 1;
			t->skip_reason[0] = '\0';
			ret = t->func(t);
			fflush(stdout);
			fflush(stderr);
			if (ret == TEST_SKIP &&
			    write(rpipe[1], t->skip_reason, strlen(t->skip_reason)) < 0)
				_exit(3);
			_exit(ret == TEST_OK ? 0 : ret == TEST_SKIP ? 2 : 1);
		}
		execlp("bash", "bash", shell_tests[job->i - nc].path, (char *)NULL);
		_exit(127);
	}
	close(rpipe[1]);
	job->rfd = rpipe[0];
	job->pid = pid;
	return 0;
}

/* the child of @job ended with @status: its result, TEST_OK, TEST_FAIL or TEST_SKIP */
static void job__finish(struct test_job *job, int status)
{
	char *reason = job->reason;
	size_t size = sizeof(job->reason);

	home__remove(job->home);
	reason[0] = '\0';
	if (WIFEXITED(status) && WEXITSTATUS(status) == 2) {
		ssize_t n = read(job->rfd, reason, size - 1);

		reason[n > 0 ? n : 0] = '\0';
		if (!reason[0])
			last_line(job->out, reason, size);
		job->ret = TEST_SKIP;
	} else if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		job->ret = TEST_OK;
	} else {
		job->ret = TEST_FAIL;
		if (WIFSIGNALED(status))
			snprintf(reason, size, "killed by signal %d%s", WTERMSIG(status),
				 WTERMSIG(status) == SIGALRM ? " (timeout)" : "");
	}
	close(job->rfd);
	job->rfd = -1;
	job->pid = -1;
}

/* a job's output (shown with -v, and always when it failed); closes it */
static void job__output(struct test_job *job, bool show_output)
{
	if (job->out < 0)
		return;
	if (show_output || job->ret == TEST_FAIL)
		copy_out(job->out);
	close(job->out);
	job->out = -1;
}

/* wait for a running job to end: it, or NULL when interrupted */
static struct test_job *jobs__reap(struct test_job *jobs, int nr)
{
	int status, k;
	pid_t pid;

	do
		pid = waitpid(-1, &status, 0);
	while (pid < 0 && errno == EINTR);
	if (pid < 0)
		return NULL;
	for (k = 0; k < nr; k++) {
		if (jobs[k].pid == pid) {
			job__finish(&jobs[k], status);
			return &jobs[k];
		}
	}
	return NULL;
}

static bool test_exclusive(int i)
{
	int nc = nr_c_tests();

	return i < nc ? builtin_tests[i]->exclusive : shell_tests[i - nc].exclusive;
}

static bool selected(int i, int argc, char **argv)
{
	int k;

	if (argc == 0)
		return true;
	for (k = 0; k < argc; k++) {
		char *end;
		long n = strtol(argv[k], &end, 10);

		if (*end == '\0' && n == i + 1)
			return true;
		if (*end != '\0' && strcasestr(test_desc(i), argv[k]))
			return true;
	}
	return false;
}

static const char *const test_usage[] = {
    "perf textpoke test [<options>] [{list | <test-number> | <test-name>} ...]",
    NULL,
};

int cmd_textpoke_test(int argc, char **argv)
{
	static const struct popt opts[] = {
	    {'v', "verbose", no_argument, NULL, "show the output of each test", 'v'},
	    {'l', "list", no_argument, NULL, "list the tests, run none", 'l'},
	    {'j', "jobs", required_argument, "n",
	     "run up to n tests at once (results in the tests' order)", 'j'},
	    {'h', "help", no_argument, NULL, "show this help", 'h'},
	    {0},
	};
	int passed = 0, failed = 0, skipped = 0, total, i, c, failed_nr[16];
	int nr_jobs = 1, nr_sel = 0, next = 0, shown = 0, running = 0;
	struct test_job *jobs, *ended;
	bool excl = false;
	char *end;
	long n;
	struct popt_ctx ctx;
	bool list = false;

	/* hidden, for make bench: a generated recording, not a test run */
	if (argc > 1 && !strcmp(argv[1], "--write-fixture"))
		return fixture_big__main(argc - 1, argv + 1);
	popt_ctx__init(&ctx, opts);
	while ((c = popt__next(&ctx, argc, argv)) != -1) {
		switch (c) {
		case 'v':
			verbose++;
			break;
		case 'l':
			list = true;
			break;
		case 'j':
			n = strtol(optarg, &end, 10);
			if (*end || end == optarg || n < 1 || n > 64) {
				popt__error(&ctx, "-j %s: not a number of jobs from 1 to 64",
					    optarg);
				return 129;
			}
			nr_jobs = n;
			break;
		case 'h':
			popt__usage(test_usage, opts, stdout);
			return 0;
		default:
			/* reported in one line */
			return 129;
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 0 && !strcmp(argv[0], "list")) {
		list = true;
		argc--;
		argv++;
	}

	/* what shell tests use to find the binary, the tree and the corpus */
	setenv("TEXTPOKE", test_self_exe(), 1);
	setenv("TEXTPOKE_SRCDIR", test_srcdir(), 0);
	setenv("TEXTPOKE_CORPUS", test_corpus_dir(), 0);
	if (!srcdir_found)
		fprintf(stderr,
			"perf textpoke test: no tests/shell in %s: its shell tests and "
			"workloads are missing; set TEXTPOKE_SRCDIR to a source tree\n",
			test_srcdir());
	load_shell_tests();
	total = nr_c_tests() + nr_shell_tests;
	/* a number or name that selects nothing is a typo, not a pass */
	for (int k = 0; k < argc; k++) {
		for (i = 0; i < total && !selected(i, 1, argv + k); i++)
			;
		if (i == total) {
			popt__error(&ctx, "no test matches '%s' (see 'perf textpoke test -l')",
				    argv[k]);
			return 129;
		}
	}
	if (list) {
		for (i = 0; i < total; i++)
			if (selected(i, argc, argv))
				printf("%3d: %s\n", i + 1, test_desc(i));
		return 0;
	}
	jobs = calloc(total ?: 1, sizeof(*jobs));
	if (!jobs) {
		popt__error(&ctx, "out of memory");
		return 1;
	}
	for (i = 0; i < total; i++)
		if (selected(i, argc, argv))
			jobs[nr_sel++].i = i;
	/*
	 * Up to nr_jobs tests run at once, an exclusive one alone; results
	 * are printed in the tests' order, each when it and those before it
	 * are done, so the output is the sequential run's.
	 */
	while (shown < nr_sel) {
		while (shown < next && jobs[shown].pid == -1) {
			struct test_job *job = &jobs[shown++];
			char *reason = job->reason;

			if (nr_jobs > 1)
				printf("%3d: %-60s:%s", job->i + 1, test_desc(job->i),
				       verbose ? "\n" : "");
			job__output(job, verbose > 0);
			if (verbose)
				printf("%3d: %-60s:", job->i + 1, test_desc(job->i));
			switch (job->ret) {
			case TEST_OK:
				printf(" Ok\n");
				passed++;
				break;
			case TEST_SKIP:
				/* a skip for want of the corpus: say how to give one */
				if (strstr(reason, "corpus") && !corpus_found() &&
				    strlen(reason) + 40 < sizeof(job->reason))
					strcat(reason,
					       ": set TEXTPOKE_CORPUS to the public corpus");
				printf(" Skip (%s)\n", reason[0] ? reason : "no reason given");
				skipped++;
				break;
			default:
				printf(" FAILED!%s%s\n", reason[0] ? " " : "", reason);
				if (failed < (int)ARRAY_SIZE(failed_nr))
					failed_nr[failed] = job->i + 1;
				failed++;
				break;
			}
			fflush(stdout);
		}
		while (next < nr_sel && running < nr_jobs && !excl) {
			struct test_job *job = &jobs[next];
			bool ex = test_exclusive(job->i);

			if (ex && running)
				break;
			if (nr_jobs == 1) {
				printf("%3d: %-60s:%s", job->i + 1, test_desc(job->i),
				       verbose ? "\n" : "");
				fflush(stdout);
			}
			next++;
			/* failed, done: printed before another starts */
			if (job__start(job) < 0)
				break;
			running++;
			excl = ex;
		}
		if (!running)
			continue;
		ended = jobs__reap(jobs, next);
		if (!ended) {
			/* no child left to wait for: cannot happen while one runs */
			popt__error(&ctx, "waiting for a test: %s", strerror(errno));
			free(jobs);
			return 1;
		}
		running--;
		excl = false;
	}
	free(jobs);
	printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
	if (failed) {
		char which[128];
		int n = 0;

		for (i = 0; i < failed && i < (int)ARRAY_SIZE(failed_nr); i++)
			n += snprintf(which + n, sizeof(which) - n, "%s%d", i ? " " : "",
				      failed_nr[i]);
		popt__error(&ctx, "%d of %d tests failed: %s%s", failed, passed + failed + skipped,
			    which, failed > (int)ARRAY_SIZE(failed_nr) ? " ..." : "");
	}
	return failed ? 1 : 0;
}
