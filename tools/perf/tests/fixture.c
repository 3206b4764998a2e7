// SPDX-License-Identifier: GPL-2.0-only
/*
 * The synthetic recording described in fixture.h, and the small helpers
 * the tests built on it need (temporary directories, running stock perf).
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fixture.h"
#include "../util/debug.h"
#include "../util/writer.h"

const u8 fixture_nop5[5] = {0x0f, 0x1f, 0x44, 0x00, 0x00};
const u8 fixture_jmp32[5] = {0xe9, 0x7b, 0x00, 0x00, 0x00};
const u8 fixture_nop2[2] = {0x66, 0x90};
const u8 fixture_jmp8[2] = {0xeb, 0x0e};

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path) ? -1 : 0;
}

int fixture__rm_rf(const char *path)
{
	struct stat st;

	if (!path || lstat(path, &st))
		return 0;
	return nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS) ? -errno : 0;
}

char *fixture__tmpdir(void)
{
	const char *tmp = getenv("TMPDIR");
	char *dir;

	if (asprintf(&dir, "%s/textpoke-test.XXXXXX", tmp && *tmp ? tmp : "/tmp") < 0)
		return NULL;
	if (!mkdtemp(dir)) {
		free(dir);
		return NULL;
	}
	return dir;
}

static char *read_fd_all(int fd)
{
	size_t len = 0, alloc = 4096;
	char *buf = malloc(alloc), *tmp;
	ssize_t n;

	if (!buf)
		return NULL;
	lseek(fd, 0, SEEK_SET);
	while ((n = read(fd, buf + len, alloc - len - 1)) > 0) {
		len += n;
		if (alloc - len < 2) {
			tmp = realloc(buf, alloc * 2);
			if (!tmp) {
				free(buf);
				return NULL;
			}
			buf = tmp;
			alloc *= 2;
		}
	}
	buf[len] = '\0';
	return buf;
}

int fixture__run(const char *cmd, char **out, char **err)
{
	int out_fd = memfd_create("fixture-out", MFD_CLOEXEC);
	int err_fd = memfd_create("fixture-err", MFD_CLOEXEC);
	int status = -1;
	pid_t pid;

	if (out)
		*out = NULL;
	if (err)
		*err = NULL;
	if (out_fd < 0 || err_fd < 0)
		goto out_close;
	pr_debug("running: %s\n", cmd);
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		goto out_close;
	if (!pid) {
		int null = open("/dev/null", O_RDONLY);

		dup2(null, 0);
		dup2(out_fd, 1);
		dup2(err_fd, 2);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		status = -1;
	else
		status = WEXITSTATUS(status);
	if (out)
		*out = read_fd_all(out_fd);
	if (err)
		*err = read_fd_all(err_fd);
out_close:
	if (out_fd >= 0)
		close(out_fd);
	if (err_fd >= 0)
		close(err_fd);
	return status;
}

bool fixture__have_perf(void)
{
	return fixture__run("perf version", NULL, NULL) == 0;
}

int fixture__count(const char *hay, const char *needle)
{
	size_t n = strlen(needle);
	int count = 0;

	if (!hay || !n)
		return 0;
	while ((hay = strstr(hay, needle))) {
		count++;
		hay += n;
	}
	return count;
}

/* ---- the recording ---- */

struct fixture_ctx {
	struct perf_writer *w;
	struct fixture *f;
	int clock; /* cpu-clock: samples */
	int dummy; /* side-band */
	bool no_text_events;
	int err;
};

static void ctx__check(struct fixture_ctx *c, int err, u32 type)
{
	if (err && !c->err)
		c->err = err;
	if (!err && type < PERF_RECORD_HEADER_MAX)
		c->f->nr_records[type]++;
}

static struct perf_sample id_at(u32 pid, u64 time)
{
	struct perf_sample s = {.pid = pid, .tid = pid, .time = time};

	return s;
}

static void ctx__sample(struct fixture_ctx *c, u32 pid, u64 time, u64 ip, u8 cpumode, u64 abi)
{
	u64 regs[24];
	struct perf_sample s = {
	    .ip = ip,
	    .pid = pid,
	    .tid = pid,
	    .time = time,
	    .period = 10000,
	    .cpumode = cpumode,
	    .cpu = pid & 1,
	};
	int i;

	/*
	 * regs[] follows FIXTURE_REGS_MASK: AX..SS at 0..11, R8..R15 at
	 * 12..19.  A 32-bit task has no R8..R15.  In a kernel-mode sample the
	 * user registers are where the task entered the kernel.
	 */
	for (i = 0; i < (int)ARRAY_SIZE(regs); i++)
		regs[i] = abi == 1 ? (i < 12 ? 0x1000ULL + i : 0) : 0x7ffd00001000ULL + i;
	regs[7] = abi == 1 ? 0xffffd000 : 0x7ffd0000f000ULL; /* sp */
	if (cpumode == PERF_RECORD_MISC_USER)
		regs[8] = ip;
	else
		regs[8] = (abi == 1 ? FIXTURE_BIN32 : FIXTURE_BIN64) + 0x200;
	s.user_regs.abi = abi;
	s.user_regs.mask = FIXTURE_REGS_MASK;
	s.user_regs.regs = abi ? regs : NULL;
	ctx__check(c, perf_writer__synth_sample(c->w, c->clock, &s), PERF_RECORD_SAMPLE);
	if (abi < ARRAY_SIZE(c->f->nr_samples_abi))
		c->f->nr_samples_abi[abi]++;
}

static void ctx__round(struct fixture_ctx *c)
{
	ctx__check(c, perf_writer__synth_finished_round(c->w), PERF_RECORD_FINISHED_ROUND);
}

static void ctx__mmap2(struct fixture_ctx *c, u32 pid, u16 misc, u64 start, u64 len, u64 pgoff,
		       const char *name, u64 time)
{
	struct perf_record_mmap2 m = {
	    .header.misc = misc,
	    .pid = pid,
	    .tid = pid,
	    .start = start,
	    .len = len,
	    .pgoff = pgoff,
	    .maj = 8,
	    .min = 1,
	    .ino = 1000 + pid,
	    .prot = PROT_READ | PROT_EXEC,
	    .flags = MAP_PRIVATE,
	};
	struct perf_sample id = id_at(pid, time);

	ctx__check(c, perf_writer__synth_mmap2(c->w, c->dummy, &m, name, &id), PERF_RECORD_MMAP2);
}

static void ctx__poke(struct fixture_ctx *c, u64 addr, const u8 *old, const u8 *new, u16 len,
		      u64 time)
{
	struct perf_sample id = id_at(0, time);

	ctx__check(c, perf_writer__synth_text_poke(c->w, c->dummy, addr, old, len, new, len, &id),
		   PERF_RECORD_TEXT_POKE);
}

static void ctx__bpf(struct fixture_ctx *c, bool load, u64 len, const char *name, u32 prog_id,
		     u64 time)
{
	u8 tag[8] = {0xaa, 0xbb, 0xcc, 0xdd, 0, 0, 0, (u8)prog_id};
	struct perf_sample id = id_at(0, time);

	ctx__check(c,
		   perf_writer__synth_ksymbol(
		       c->w, c->dummy, FIXTURE_BPF_ADDR, len, PERF_RECORD_KSYMBOL_TYPE_BPF,
		       load ? 0 : PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER, name, &id),
		   PERF_RECORD_KSYMBOL);
	ctx__check(c,
		   perf_writer__synth_bpf_event(
		       c->w, c->dummy, load ? PERF_BPF_EVENT_PROG_LOAD : PERF_BPF_EVENT_PROG_UNLOAD,
		       0, prog_id, tag, &id),
		   PERF_RECORD_BPF_EVENT);
}

static int fixture__attrs(struct fixture_ctx *c)
{
	struct perf_event_attr attr = {
	    .type = PERF_TYPE_SOFTWARE,
	    .size = sizeof(attr),
	    .config = PERF_COUNT_SW_CPU_CLOCK,
	    .sample_period = 10000,
	    .sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
			   PERF_SAMPLE_PERIOD | PERF_SAMPLE_REGS_USER,
	    .sample_regs_user = FIXTURE_REGS_MASK,
	    .disabled = 1,
	    .inherit = 1,
	    .sample_id_all = 1,
	    .exclude_guest = 1,
	};
	u64 clock_ids[2] = {101, 102}, dummy_ids[2] = {201, 202};

	c->clock = perf_writer__add_attr(c->w, &attr, clock_ids, 2, "cpu-clock");
	if (c->clock < 0)
		return c->clock;
	attr.config = PERF_COUNT_SW_DUMMY;
	attr.sample_period = 1;
	attr.sample_type &= ~PERF_SAMPLE_REGS_USER;
	attr.sample_regs_user = 0;
	attr.mmap = attr.mmap2 = attr.comm = attr.comm_exec = attr.task = 1;
	attr.ksymbol = attr.bpf_event = attr.text_poke = 1;
	c->dummy = perf_writer__add_attr(c->w, &attr, dummy_ids, 2, "dummy:HG");
	return c->dummy < 0 ? c->dummy : 0;
}

static int fixture__features(struct fixture_ctx *c)
{
	static const char *const argv[] = {"/usr/bin/perf", "record", "-e",	   "cpu-clock",
					   "--kcore",	    "-o",     "perf.data", "fixture"};
	struct perf_writer *w = c->w;
	int err = 0;

	err = err ?: perf_writer__set_hostname(w, "fixture-host");
	err = err ?: perf_writer__set_osrelease(w, "6.1.0-fixture");
	err = err ?: perf_writer__set_version(w, "6.1.fixture");
	err = err ?: perf_writer__set_arch(w, "x86_64");
	err = err ?: perf_writer__set_nrcpus(w, 2, 2);
	err = err ?: perf_writer__set_cpudesc(w, "Fixture CPU @ 2.00GHz");
	err = err ?: perf_writer__set_cpuid(w, "GenuineIntel,6,85,4");
	err = err ?: perf_writer__set_total_mem(w, 4 * 1024 * 1024);
	err = err ?: perf_writer__set_cmdline(w, ARRAY_SIZE(argv), argv);
	err = err ?: perf_writer__set_sample_time(w, FIXTURE_T0 + 1000, FIXTURE_T0 + 4101);
	err = err ?: perf_writer__set_clockid(w, 1);
	return err;
}

static void fixture__records(struct fixture_ctx *c)
{
	const u64 t0 = FIXTURE_T0;
	struct perf_sample id;

	/* the synthesized start state, time 0 */
	ctx__mmap2(c, -1, PERF_RECORD_MISC_KERNEL, FIXTURE_KERNEL_START, 0x1000000,
		   FIXTURE_KERNEL_START, "[kernel.kallsyms]_text", 0);
	id = id_at(FIXTURE_PID64, 0);
	ctx__check(c,
		   perf_writer__synth_comm(c->w, c->dummy, FIXTURE_PID64, FIXTURE_PID64,
					   "fixture64", false, &id),
		   PERF_RECORD_COMM);
	ctx__mmap2(c, FIXTURE_PID64, PERF_RECORD_MISC_USER, FIXTURE_BIN64, 0x1000, 0,
		   "/usr/bin/fixture64", 0);
	ctx__round(c);

	id = id_at(FIXTURE_PID64, t0 + 100);
	ctx__check(c,
		   perf_writer__synth_fork(c->w, c->dummy, FIXTURE_PID32, FIXTURE_PID64,
					   FIXTURE_PID32, FIXTURE_PID64, t0 + 100, &id),
		   PERF_RECORD_FORK);
	id = id_at(FIXTURE_PID32, t0 + 150);
	ctx__check(c,
		   perf_writer__synth_comm(c->w, c->dummy, FIXTURE_PID32, FIXTURE_PID32,
					   "fixture32", true, &id),
		   PERF_RECORD_COMM);
	ctx__mmap2(c, FIXTURE_PID32, PERF_RECORD_MISC_USER, FIXTURE_BIN32, 0x1000, 0,
		   "/usr/lib/fixture32", t0 + 200);
	ctx__round(c);

	ctx__sample(c, FIXTURE_PID64, t0 + 1000, FIXTURE_BIN64 + 0x123, PERF_RECORD_MISC_USER, 2);
	ctx__sample(c, FIXTURE_PID32, t0 + 1001, FIXTURE_BIN32 + 0x123, PERF_RECORD_MISC_USER, 1);
	ctx__sample(c, 0, t0 + 1002, FIXTURE_JL5_ADDR, PERF_RECORD_MISC_KERNEL, 0);
	ctx__sample(c, 0, t0 + 1003, FIXTURE_JL2_ADDR, PERF_RECORD_MISC_KERNEL, 0);
	ctx__round(c);

	if (c->no_text_events)
		goto exit;
	ctx__bpf(c, true, FIXTURE_BPF_A_LEN, FIXTURE_BPF_A_NAME, FIXTURE_BPF_A_ID, t0 + 2000);
	ctx__sample(c, FIXTURE_PID64, t0 + 2100, FIXTURE_BPF_ADDR + 0x40, PERF_RECORD_MISC_KERNEL,
		    2);
	ctx__bpf(c, false, FIXTURE_BPF_A_LEN, FIXTURE_BPF_A_NAME, FIXTURE_BPF_A_ID, t0 + 2200);
	ctx__bpf(c, true, FIXTURE_BPF_B_LEN, FIXTURE_BPF_B_NAME, FIXTURE_BPF_B_ID, t0 + 2300);
	ctx__sample(c, FIXTURE_PID64, t0 + 2400, FIXTURE_BPF_ADDR + 0x40, PERF_RECORD_MISC_KERNEL,
		    2);
	ctx__round(c);

	ctx__poke(c, FIXTURE_JL5_ADDR, fixture_nop5, fixture_jmp32, 5, t0 + 3000);
	ctx__poke(c, FIXTURE_JL2_ADDR, fixture_nop2, fixture_jmp8, 2, t0 + 3100);
	ctx__sample(c, 0, t0 + 3200, FIXTURE_JL5_ADDR, PERF_RECORD_MISC_KERNEL, 0);
	ctx__sample(c, 0, t0 + 3201, FIXTURE_JL2_ADDR, PERF_RECORD_MISC_KERNEL, 0);
	ctx__round(c);

	ctx__poke(c, FIXTURE_JL5_ADDR, fixture_jmp32, fixture_nop5, 5, t0 + 4000);
	ctx__poke(c, FIXTURE_JL2_ADDR, fixture_jmp8, fixture_nop2, 2, t0 + 4001);
	ctx__sample(c, 0, t0 + 4100, FIXTURE_JL5_ADDR, PERF_RECORD_MISC_KERNEL, 0);
	ctx__sample(c, 0, t0 + 4101, FIXTURE_JL2_ADDR, PERF_RECORD_MISC_KERNEL, 0);
	ctx__round(c);

exit:
	id = id_at(FIXTURE_PID32, t0 + 5000);
	ctx__check(c,
		   perf_writer__synth_exit(c->w, c->dummy, FIXTURE_PID32, FIXTURE_PID64,
					   FIXTURE_PID32, FIXTURE_PID64, t0 + 5000, &id),
		   PERF_RECORD_EXIT);
	id = id_at(FIXTURE_PID64, t0 + 5001);
	ctx__check(c,
		   perf_writer__synth_exit(c->w, c->dummy, FIXTURE_PID64, 1, FIXTURE_PID64, 1,
					   t0 + 5001, &id),
		   PERF_RECORD_EXIT);
	ctx__round(c);
}

/* what perf record --kcore copies from /proc: here just the fixture's sites */
static int fixture__kcore_dir(const char *dir)
{
	static const char kallsyms[] = "ffffffff81000000 T _text\n"
				       "ffffffff81000000 T _stext\n"
				       "ffffffff81001000 T " FIXTURE_JL5_SYM "\n"
				       "ffffffff81002000 T " FIXTURE_JL2_SYM "\n"
				       "ffffffff82000000 T _etext\n";
	char *path;
	FILE *f;
	int err = 0;

	if (asprintf(&path, "%s/kcore_dir", dir) < 0)
		return -ENOMEM;
	if (mkdir(path, 0700))
		err = -errno;
	free(path);
	if (!err && asprintf(&path, "%s/kcore_dir/kallsyms", dir) >= 0) {
		f = fopen(path, "w");
		if (!f || fputs(kallsyms, f) < 0)
			err = -EIO;
		if (f && fclose(f))
			err = -EIO;
		free(path);
	}
	if (!err && asprintf(&path, "%s/kcore_dir/modules", dir) >= 0) {
		f = fopen(path, "w");
		if (!f || fclose(f))
			err = -EIO;
		free(path);
	}
	return err;
}

struct fixture *fixture__new(unsigned int flags)
{
	struct fixture_ctx c = {0};
	struct fixture *f = calloc(1, sizeof(*f));
	bool dir_format;
	int err = -ENOMEM;

	if (!f)
		goto out_err;
	c.f = f;
	c.no_text_events = flags & FIXTURE_NO_TEXT_EVENTS;
	dir_format = flags & FIXTURE_DIR_FORMAT;
	flags &= ~(FIXTURE_NO_TEXT_EVENTS | FIXTURE_DIR_FORMAT);
	f->dir = fixture__tmpdir();
	if (!f->dir || asprintf(&f->path, "%s/perf.data", f->dir) < 0) {
		f->path = NULL;
		goto out_err;
	}
	c.w = perf_writer__new(f->path, flags);
	if (!c.w) {
		err = -errno;
		goto out_err;
	}
	err = fixture__attrs(&c);
	if (!err)
		err = fixture__features(&c);
	if (!err && dir_format)
		err = perf_writer__set_dir_format(c.w, 0);
	if (!err && (flags & PERF_WRITER_DIRECTORY))
		err = fixture__kcore_dir(perf_writer__dir_path(c.w));
	if (!err) {
		fixture__records(&c);
		err = c.err;
	}
	if (err) {
		pr_debug("fixture: building the recording failed: %s\n", strerror(-err));
		perf_writer__abort(c.w);
		goto out_err;
	}
	err = perf_writer__close(c.w);
	if (err)
		goto out_err;
	return f;

out_err:
	fixture__delete(f);
	errno = -err;
	return NULL;
}

void fixture__remove_dir(const char *dir, const char *what)
{
	const char *keep = getenv("TEXTPOKE_TEST_KEEP");

	if (!dir)
		return;
	/* TEXTPOKE_TEST_KEEP=1 leaves the files for a look after a failure */
	if (keep && *keep == '1')
		pr_info("%s: keeping %s\n", what, dir);
	else
		fixture__rm_rf(dir);
}

void fixture__delete(struct fixture *f)
{
	if (!f)
		return;
	fixture__remove_dir(f->dir, "fixture");
	free(f->dir);
	free(f->path);
	free(f);
}
