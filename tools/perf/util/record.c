// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf textpoke record from start to end (record__run()): the targets
 * (CPUs, -p threads, the forked workload), the writer and its features,
 * the synthesized start state and kcore_dir, then the loop, and the
 * cleanup on every path.  The stages live apart: the option values in
 * record-opts.c, the events in record-evsel.c, the loop in
 * record-loop.c, the closing lines in record-report.c; their shared
 * state is struct record (record-internal.h).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bpf-capture.h"
#include "debug.h"
#include "event.h"
#include "header.h"
#include "kallsyms.h"
#include "record-ksyms.h"
#include "kcore-copy.h"
#include "kcore-dir-pack.h"
#include "module-capture.h"
#include "output-path.h"
#include "perf-clock.h"
#include "perf-event-open.h"
#include "record-control.h"
#include "record-internal.h"
#include "synthesize.h"
#include "writer.h"

static int add_tids_of(struct record *rec, pid_t pid)
{
	char path[64];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	if (!d) {
		pr_err("-p %d: no such process\n", pid);
		return -ESRCH;
	}
	while ((de = readdir(d))) {
		pid_t *tmp;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		tmp = realloc(rec->tids, (rec->nr_tids + 1) * sizeof(*tmp));
		if (!tmp) {
			closedir(d);
			return -ENOMEM;
		}
		rec->tids = tmp;
		rec->tids[rec->nr_tids++] = atoi(de->d_name);
	}
	closedir(d);
	return 0;
}

/* -t: these threads alone, each checked to exist now */
static int add_tid(struct record *rec, pid_t tid)
{
	char path[64];
	pid_t *tmp;

	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	if (access(path, F_OK)) {
		pr_err("-t %d: no such thread\n", tid);
		return -ESRCH;
	}
	tmp = realloc(rec->tids, (rec->nr_tids + 1) * sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	rec->tids = tmp;
	rec->tids[rec->nr_tids++] = tid;
	return 0;
}

/* -u: a user name or number, as perf takes it */
static int parse_uid(const char *arg, uid_t *uid)
{
	struct passwd *pw = getpwnam(arg);
	char *end;
	unsigned long v;

	if (pw) {
		*uid = pw->pw_uid;
		return 0;
	}
	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || *arg == '-' || v >= (uid_t)-1) {
		pr_err("-u %s: no such user\n", arg);
		return -EINVAL;
	}
	*uid = v;
	return 0;
}

/* -u: the threads of every process whose real uid is the user's, now */
static int add_user_tasks(struct record *rec, const char *user)
{
	struct dirent *de;
	uid_t uid;
	DIR *d;
	int err = parse_uid(user, &uid);

	if (err)
		return err;
	d = opendir("/proc");
	if (!d)
		return -errno;
	while (!err && (de = readdir(d))) {
		char path[64], line[128];
		unsigned int real = -1;
		FILE *f;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%d/status", atoi(de->d_name));
		f = fopen(path, "r");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f)) {
			if (sscanf(line, "Uid: %u", &real) == 1)
				break;
		}
		fclose(f);
		/* the recorder is no target of its own, even run by the user */
		if (real != uid || atoi(de->d_name) == getpid())
			continue;
		err = add_tids_of(rec, atoi(de->d_name));
		/* gone since readdir: no error for -u */
		if (err == -ESRCH)
			err = 0;
	}
	closedir(d);
	if (!err && !rec->nr_tids) {
		pr_err("-u %s: the user has no process to record\n", user);
		err = -ESRCH;
	}
	return err;
}

/* the task targets: -p processes, -t threads, -u a user's processes */
static int record__add_targets(struct record *rec)
{
	const char *list = rec->opts->pid_list ? rec->opts->pid_list : rec->opts->tid_list;
	char *copy, *tok, *save;
	int err = 0;

	if (rec->opts->uid)
		return add_user_tasks(rec, rec->opts->uid);
	copy = strdup(list);
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok && !err; tok = strtok_r(NULL, ",", &save))
		err = rec->opts->pid_list ? add_tids_of(rec, atoi(tok)) : add_tid(rec, atoi(tok));
	free(copy);
	return err;
}

/*
 * "-", or another name for what stdout is (/dev/stdout to a pipe), where
 * the workload's output would corrupt ours; a device such as /dev/null
 * on both takes no harm from it.
 */
static bool record__output_is_stdout(const char *output)
{
	struct stat o, out;

	if (!strcmp(output, "-"))
		return true;
	return !stat(output, &o) && !fstat(STDOUT_FILENO, &out) && !S_ISCHR(o.st_mode) &&
	       o.st_dev == out.st_dev && o.st_ino == out.st_ino;
}

/*
 * Fork the workload now, let it exec only once every event is open: the
 * events are opened on its pid with enable_on_exec, so counting starts
 * at exec, as perf record does.  A failed exec comes back as an errno
 * through a close-on-exec pipe; a successful one closes it.
 */
static int record__fork_workload(struct record *rec)
{
	int go[2], fail[2], e;
	char c;

	if (pipe2(go, O_CLOEXEC))
		return -errno;
	if (pipe2(fail, O_CLOEXEC)) {
		e = -errno;
		goto out_close_go;
	}
	rec->child = fork();
	if (rec->child < 0) {
		e = -errno;
		close(fail[0]);
		close(fail[1]);
		goto out_close_go;
	}
	if (!rec->child) {
		close(go[1]);
		close(fail[0]);
		/* stdout may be the output (-, /dev/stdout): the workload gets stderr */
		if (record__output_is_stdout(rec->opts->output))
			dup2(2, 1);
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		/* ignored signals stay ignored across exec: the workload gets its defaults */
		signal(SIGPIPE, SIG_DFL);
		signal(SIGXFSZ, SIG_DFL);
		execvp(rec->opts->argv[0], rec->opts->argv);
		e = errno;
		if (write(fail[1], &e, sizeof(e)) != sizeof(e))
			_exit(126);
		_exit(127);
	}
	close(go[0]);
	close(fail[1]);
	rec->go_fd = go[1];
	rec->exec_fd = fail[0];
	return 0;
out_close_go:
	close(go[0]);
	close(go[1]);
	return e;
}

/* let the workload exec; 0 once it has, -errno of its exec otherwise */
static int record__start_workload(struct record *rec)
{
	int e = 0;
	ssize_t n;

	if (write(rec->go_fd, "g", 1) != 1)
		return -errno;
	close(rec->go_fd);
	rec->go_fd = -1;
	n = read(rec->exec_fd, &e, sizeof(e));
	close(rec->exec_fd);
	rec->exec_fd = -1;
	if (n == sizeof(e)) {
		pr_err("cannot run '%s': %s\n", rec->opts->argv[0], strerror(e));
		return -e;
	}
	return 0;
}

/*
 * The format follows what -o names, symlinks followed: "-" or a FIFO gets
 * pipe mode, as perf record gives a pipe on stdout; a device (/dev/null)
 * gets a plain file written through, since it cannot hold kcore_dir.  A
 * new name or a file gets a plain file, as perf record writes, unless a
 * kcore copy is made (readable /proc/kcore) or asked for (--kcore): the
 * kallsyms and modules copies then travel inside the file.  An existing
 * directory stays one.
 */
static unsigned int record__output_flags(struct record_opts *o)
{
	struct stat st;

	if (!strcmp(o->output, "-"))
		return PERF_WRITER_PIPE;
	if (stat(o->output, &st) || S_ISREG(st.st_mode))
		return o->kcore && (o->kcore_required || !access("/proc/kcore", R_OK)) ?
			   PERF_WRITER_DIRECTORY :
			   0;
	if (S_ISDIR(st.st_mode))
		return o->kcore ? PERF_WRITER_DIRECTORY : 0;
	if (S_ISFIFO(st.st_mode))
		return PERF_WRITER_PIPE;
	if (o->kcore && !o->quiet)
		pr_info("perf textpoke record: %s is not a directory: writing a plain file, "
			"without kcore_dir\n",
			o->output);
	return 0;
}

static void record__writer_open_error(const char *output, unsigned int flags, int err)
{
	if (err == -ENXIO && (flags & PERF_WRITER_PIPE))
		pr_err("%s: no process has the FIFO open for reading (start the reader first)\n",
		       output);
	else if (err == -ENOTEMPTY)
		pr_err("%s: it or %s.old is a directory that holds more than a recording: "
		       "not replacing it\n",
		       output, output);
	else if (err == -EEXIST)
		pr_err("%s.old: a device or FIFO: not replacing it\n", output);
	else if (err == -ESPIPE)
		pr_err("%s: cannot seek on it, which perf.data needs (-o - streams pipe mode)\n",
		       output);
	else
		pr_err("%s: cannot create: %s\n", output, strerror(-err));
}

/* HEADER_GROUP_DESC, once the attrs have their indexes */
static int record__write_groups(struct record *rec)
{
	struct record_group *groups = calloc(rec->nr_evsels, sizeof(*groups));
	int nr = 0, kept = 0, err = 0;

	if (!groups)
		return -ENOMEM;
	for (int i = 0; i < rec->nr_evsels; i++) {
		struct record_evsel *e = &rec->evsels[i];

		if (!e->nr_fds)
			continue;
		if (e->group == RECORD_GROUP_LEADER)
			groups[nr++] = (struct record_group){.leader_idx = e->idx, .nr_members = 1};
		else if (e->group == RECORD_GROUP_MEMBER && nr &&
			 groups[nr - 1].leader_idx == (u32)rec->evsels[e->leader].idx)
			groups[nr - 1].nr_members++;
	}
	/* as perf: a group of one is no group */
	for (int i = 0; i < nr; i++) {
		if (groups[i].nr_members > 1)
			groups[kept++] = groups[i];
	}
	if (kept)
		err = record_features__group_desc(rec->w, groups, kept);
	if (err)
		pr_err("%s: cannot write the group descriptions: %s\n", rec->opts->output,
		       strerror(-err));
	free(groups);
	return err;
}

/* a plain file's kcore_dir until it is packed in: <TMPDIR>/perf-textpoke.XXXXXX/kcore_dir */
static int record__kdir_tmp_new(struct record *rec)
{
	const char *tmp = getenv("TMPDIR");

	if (!tmp || !*tmp)
		tmp = "/tmp";
	if (asprintf(&rec->kdir_tmp, "%s/perf-textpoke.XXXXXX", tmp) < 0) {
		rec->kdir_tmp = NULL;
		return -ENOMEM;
	}
	if (!mkdtemp(rec->kdir_tmp)) {
		int err = -errno;

		zfree(&rec->kdir_tmp);
		return err;
	}
	return 0;
}

static void record__kdir_tmp_remove(struct record *rec)
{
	char path[4096];

	if (!rec->kdir_tmp)
		return;
	snprintf(path, sizeof(path), "%s/kcore_dir", rec->kdir_tmp);
	/* the kcore_dir's files, it, and its parent, which this made */
	kcore_dir__remove_unpacked(path);
	rmdir(rec->kdir_tmp);
	zfree(&rec->kdir_tmp);
}

/* the directory kcore_dir is written in: the recording's, or a plain file's temporary */
static const char *record__dir(const struct record *rec)
{
	return perf_writer__dir_path(rec->w) ?: rec->kdir_tmp;
}

/* a plain file's kcore_dir: packed into its HEADER_TEXTPOKE_KCORE_DIR section */
static int record__pack_kcore_dir(struct record *rec)
{
	char path[4096];
	size_t len;
	void *buf;
	int err;

	snprintf(path, sizeof(path), "%s/kcore_dir", rec->kdir_tmp);
	err = kcore_dir__pack(path, &buf, &len);
	/* restricted kallsyms: no kcore_dir was written, nothing to carry */
	if (err == -ENOENT)
		return 0;
	if (!err) {
		err = perf_writer__set_feature(rec->w, HEADER_TEXTPOKE_KCORE_DIR, buf, len);
		free(buf);
	}
	if (err)
		pr_err("%s: cannot store kallsyms and modules in the file: %s\n", rec->opts->output,
		       strerror(-err));
	record__kdir_tmp_remove(rec);
	return err;
}

static int record__writer_open(struct record *rec)
{
	struct record_opts *o = rec->opts;
	unsigned int flags = record__output_flags(o);

	if (o->zstd)
		flags |= PERF_WRITER_ZSTD;
	rec->w = perf_writer__new(o->output, flags);
	if (!rec->w) {
		int err = -errno;

		record__writer_open_error(o->output, flags, err);
		return err;
	}
	if (o->zstd && perf_writer__set_zstd_level(rec->w, o->zstd_level)) {
		pr_err("-z: bad compression level %d\n", o->zstd_level);
		return -EINVAL;
	}
	for (int i = 0; i < rec->nr_evsels; i++) {
		struct record_evsel *e = &rec->evsels[i];
		int idx;

		if (!e->nr_fds)
			continue;
		idx = perf_writer__add_attr(rec->w, &e->ev.attr, e->ids, e->nr_fds, e->ev.name);
		if (idx < 0) {
			pr_err("%s: cannot add event %s: %s\n", o->output, e->ev.name,
			       strerror(-idx));
			return idx;
		}
		e->idx = idx;
		if (e->sideband && !e->system_wide)
			rec->sb_idx = idx;
	}
	if (flags & PERF_WRITER_DIRECTORY)
		perf_writer__set_dir_format(rec->w, 0);
	else if (!(flags & PERF_WRITER_PIPE) && o->kcore &&
		 output_path__kind(o->output) == OUTPUT_PATH_FILE) {
		int err = record__kdir_tmp_new(rec);

		/* the recording itself needs no TMPDIR: it goes on, as perf's, without them */
		if (err)
			pr_warning("%s: no kallsyms and modules copies in the file: cannot make a "
				   "temporary directory in TMPDIR: %s\n",
				   o->output, strerror(-err));
	}
	return record__write_groups(rec);
}

static pid_t record__tgid(pid_t tid)
{
	char path[64], line[128];
	int tgid = tid;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	f = fopen(path, "r");
	if (!f)
		return tid;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Tgid: %d", &tgid) == 1)
			break;
	}
	fclose(f);
	return tgid;
}

static int record__write_features(struct record *rec)
{
	const struct record_event **tps = calloc(rec->nr_evsels + 1, sizeof(*tps));
	int nr = 0, err;

	if (!tps)
		return -ENOMEM;
	for (int i = 0; i < rec->nr_evsels; i++) {
		if (rec->evsels[i].ev.attr.type == PERF_TYPE_TRACEPOINT)
			tps[nr++] = &rec->evsels[i].ev;
	}
	err = record_features__write_start(rec->w, rec->opts, tps, nr);
	free(tps);
	return err;
}

static int record__synthesize(struct record *rec)
{
	struct synth s = {.w = rec->w,
			  .idx = rec->sb_idx,
			  .on_mmap = record_hits__synth_mmap,
			  .arg = &rec->hits,
			  .data_mmaps =
			      rec->opts->call_graph == CALL_GRAPH_DWARF || rec->opts->sample_addr,
			  .namespaces = rec->opts->namespaces};
	char kallsyms[4096];
	int err;

	/* only the first file's: by a --switch-output the copy may be trimmed or moved */
	if (rec->kallsyms_copy) {
		snprintf(kallsyms, sizeof(kallsyms), "%s/kcore_dir/kallsyms", record__dir(rec));
		s.kallsyms = kallsyms;
		rec->kallsyms_copy = false;
	}

	err = synthesize__kernel_mmap(&s);
	if (!err)
		err = synthesize__modules(&s);
	if (!err && !rec->task_mode)
		err = synthesize__all_processes(&s);
	else if (!err && rec->workload_target)
		/* its mappings once it runs: a file after a switch starts past its exec */
		err = synthesize__process(&s, rec->child, rec->nr_switches > 0);
	else if (!err) {
		pid_t last = -1;

		for (int t = 0; !err && t < rec->nr_tids; t++) {
			pid_t tgid = record__tgid(rec->tids[t]);

			if (tgid != last)
				err = synthesize__process(&s, tgid, true);
			last = tgid;
		}
	}
	if (!err && rec->opts->all_cgroups)
		err = synthesize__cgroups(&s);
	if (!err && rec->bpf) {
		int n = synthesize__bpf_programs(&s, rec->bpf);

		err = n < 0 ? n : 0;
	}
	return err;
}

/*
 * The kallsyms copy keeps the symbols of what the recording touched
 * (record_hits__kernel_ip()): samples, callchains, poke sites, and what
 * poked code and trampolines branch to (record-ksyms.c); a whole copy
 * costs megabytes a short run has no use for.  --full-kallsyms, or more
 * addresses than the hit set holds, keeps everything.
 */
static int record__trim_kallsyms(struct record *rec)
{
	const char *dir = record__dir(rec);
	struct kallsyms_copy *kc = NULL;
	char kdir[4096];
	size_t nr;
	u64 *ips;
	int err = 0;

	if (!rec->opts->full_kallsyms) {
		snprintf(kdir, sizeof(kdir), "%s/kcore_dir", dir);
		record_ksyms__bpf(&rec->hits, rec->bpf);
		/* parsed once, for the trampolines' scan and the trim */
		err = kallsyms_copy__new(kdir, &kc);
		if (!err) {
			err = record_ksyms__kallsyms(&rec->hits, kc, kdir);
			if (err)
				pr_warning(
				    "%s: cannot read kcore_dir/kallsyms for the trampolines: "
				    "%s\n",
				    rec->opts->output, strerror(-err));
			err = 0;
			ips = record_hits__kernel_ips(&rec->hits, &nr);
			if (ips)
				err = kallsyms_copy__trim(kc, ips, nr);
			else
				pr_debug("kallsyms: too many kernel addresses to trim by, kept "
					 "whole\n");
			free(ips);
			kallsyms_copy__delete(kc);
		}
		/* no kallsyms copy (restricted): nothing to trim */
		if (err == -ENOENT)
			err = 0;
		if (err)
			pr_err("%s: cannot trim kcore_dir/kallsyms: %s\n", rec->opts->output,
			       strerror(-err));
	}
	rec->kcore_dir_bytes = kcore_dir__size(dir);
	return err;
}

/*
 * Modules loaded while recording: their code taken as they load, kept in
 * kcore_dir, so only where there is one.  A kernel without modules (no
 * /proc/modules) has nothing to take and no tracepoints for it.
 */
static void record__start_modules(struct record *rec)
{
	struct module_capture_opts mo = {
	    .use_clockid = rec->opts->use_clockid,
	    .clockid = rec->opts->clockid,
	};

	if (!record__dir(rec) || access("/proc/modules", F_OK))
		return;
	rec->modules = module_capture__new(NULL, 0, &mo);
	if (!rec->modules && !record__user_only(rec) && !rec->opts->quiet)
		pr_warning("no capture of modules loaded while recording: %s (needs root)\n",
			   strerror(errno));
}

/* module_put from do_init_module ends a module's init: where that is, from the kallsyms copy */
static void record__find_init_caller(struct record *rec)
{
	char path[4096];
	u64 start, end;

	if (!rec->modules)
		return;
	snprintf(path, sizeof(path), "%s/kcore_dir/kallsyms", record__dir(rec));
	if (!module_capture__find_init_caller(path, &start, &end))
		module_capture__set_init_caller(rec->modules, start, end);
	else
		pr_debug(
		    "kallsyms: no do_init_module: a module's init ends at its first module_put\n");
}

static int record__write_modules(struct record *rec)
{
	char path[4096];
	int err;

	snprintf(path, sizeof(path), "%s/kcore_dir", record__dir(rec));
	err = module_capture__write(rec->modules, path);
	if (err)
		pr_err("%s: cannot write the modules loaded while recording: %s\n",
		       rec->opts->output, strerror(-err));
	return err;
}

static void record__exit(struct record *rec)
{
	bpf_capture__delete(rec->bpf);
	module_capture__delete(rec->modules);
	for (int i = 0; i < rec->nr_evsels; i++) {
		record__close_evsel(&rec->evsels[i]);
		record_event__exit(&rec->evsels[i].ev);
	}
	free(rec->evsels);
	for (int c = 0; c < rec->nr_rings && rec->rings; c++)
		perf_ring__munmap(&rec->rings[c]);
	free(rec->rings);
	free(rec->cpus);
	free(rec->tids);
	record_hits__exit(&rec->hits);
	record__kdir_tmp_remove(rec);
	if (rec->go_fd >= 0)
		close(rec->go_fd);
	if (rec->exec_fd >= 0)
		close(rec->exec_fd);
	if (rec->child > 0) {
		kill(rec->child, SIGTERM);
		waitpid(rec->child, NULL, 0);
	}
}

static int kallsyms__nonzero(void *arg, const char *name, char type, u64 start, const char *module)
{
	(void)name;
	(void)type;
	(void)module;
	if (!start)
		return 0;
	*(bool *)arg = true;
	return 1;
}

/*
 * Where kptr_restrict (or perf_event_paranoid without CAP_SYSLOG) hides
 * kernel addresses, /proc/kallsyms and /proc/modules read as zeros: a
 * kcore_dir of those would only look useful.  Store none, and say why
 * kernel samples will lack symbols, as perf record warns.
 */
static void record__check_kallsyms(struct record *rec)
{
	struct record_opts *o = rec->opts;
	bool nonzero = false;

	if (!o->kcore || !strcmp(o->output, "-"))
		return;
	if (kallsyms__parse("/proc/kallsyms", &nonzero, kallsyms__nonzero) <= 0 || nonzero)
		return;
	o->kcore = false;
	if (!record__user_only(rec))
		pr_warning("kernel address maps (/proc/{kallsyms,modules}) are restricted, see "
			   "/proc/sys/kernel/kptr_restrict and perf_event_paranoid: no kcore_dir "
			   "written, kernel samples may lack symbols\n");
}

/* the kernel refuses a frequency above its limit: lower it, as perf does */
static void record__cap_freq(struct record_opts *opts)
{
	unsigned long long max = 0;
	FILE *f;

	if (opts->period)
		return;
	f = fopen("/proc/sys/kernel/perf_event_max_sample_rate", "r");
	if (!f)
		return;
	if (fscanf(f, "%llu", &max) == 1 && max && opts->freq > max) {
		pr_warning("-F %llu is above perf_event_max_sample_rate, sampling at %llu Hz\n",
			   (unsigned long long)opts->freq, max);
		opts->freq = max;
	}
	fclose(f);
}

/* "OUT.<YYYYmmddHHMMSS><centiseconds>", perf's name for a switched-out file */
static void record__dump_name(struct record *rec)
{
	struct timeval tv;
	struct tm tm;
	char when[32];

	gettimeofday(&tv, NULL);
	localtime_r(&tv.tv_sec, &tm);
	strftime(when, sizeof(when), "%Y%m%d%H%M%S", &tm);
	snprintf(rec->dump_name, sizeof(rec->dump_name), "%s.%s%02u", rec->opts->output, when,
		 (unsigned int)(tv.tv_usec / 10000));
}

/* the file done: the end features, BPF images so far, closed and renamed */
static int record__dump(struct record *rec)
{
	int err = perf_writer__close(rec->w);

	rec->w = NULL;
	if (err) {
		pr_err("%s: %s\n", rec->opts->output, strerror(-err));
		return err;
	}
	record__dump_name(rec);
	if (rename(rec->opts->output, rec->dump_name)) {
		err = -errno;
		pr_err("%s: cannot rename to %s: %s\n", rec->opts->output, rec->dump_name,
		       strerror(-err));
	}
	return err;
}

int record__switch_output(struct record *rec)
{
	struct record_opts *o = rec->opts;
	int err;

	record_switch = 0;
	/* this file's records noted before its closing features */
	err = record__read_back(rec);
	if (err)
		return err;
	record_features__write_end(rec->w, &rec->hits, rec->first_time, rec->last_time, false);
	err = rec->bpf ? bpf_capture__write(rec->bpf, rec->w) : 0;
	if (!err)
		err = record__dump(rec);
	if (err)
		return err;
	if (!o->quiet)
		fprintf(stderr,
			"[ perf textpoke record: dump data: Woken up %lu times ]\n"
			"[ perf textpoke record: Dump %s ]\n",
			(unsigned long)rec->lost.wakeups, rec->dump_name);
	rec->dump_name[0] = '\0';
	rec->lost.wakeups = 0;
	rec->first_time = rec->last_time = 0;
	rec->switch_bytes = rec->bytes;
	rec->nr_samples = 0;
	rec->nr_switches++;
	if (o->switch_secs) {
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		rec->switch_at = (ts.tv_sec + o->switch_secs) * 1000000000ULL + ts.tv_nsec;
	}
	/* the next file starts as the first did: attrs, features, the state now */
	err = record__writer_open(rec);
	if (!err)
		err = record__write_features(rec);
	if (!err)
		err = record__synthesize(rec);
	if (!err)
		record__read_back_mark(rec);
	return err;
}

static int record__clock_now(void *clock, u64 *time)
{
	return perf_clock__now(clock, time);
}

int record__run(struct record_opts *opts)
{
	struct record rec = {.opts = opts, .go_fd = -1, .exec_fd = -1, .child = -1};
	struct sigaction sa = {.sa_handler = record__sig};
	int err;

	if (opts->mmap_pages & (opts->mmap_pages - 1) || !opts->mmap_pages) {
		pr_err("-m %u: the ring size must be a power of two pages\n", opts->mmap_pages);
		return -EINVAL;
	}
	/* as perf record --kcore: the option asks for the copy, so no copy, no recording */
	if (opts->kcore_required && access("/proc/kcore", R_OK)) {
		pr_err("--kcore: /proc/kcore is not readable: %s\n", strerror(errno));
		return -ENOENT;
	}
	/* as perf record: no command and no target means the whole system until Ctrl-C */
	if (!opts->cpu_list && !opts->pid_list && !opts->tid_list && !opts->uid && !opts->argc)
		opts->system_wide = true;
	if (opts->per_thread && (opts->system_wide || opts->cpu_list)) {
		pr_err("--per-thread: needs tasks to follow (a command, -p, -t or -u), not -a or "
		       "-C\n");
		return -EINVAL;
	}
	record__cap_freq(opts);
	record_done = 0;
	record_child_exited = 0;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGCHLD, &sa, NULL);
	/* --switch-output: SIGUSR2 switches, as perf's; otherwise it stays deadly */
	record_switch = 0;
	if (opts->switch_output)
		sigaction(SIGUSR2, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	/*
	 * Past a file-size limit (ulimit -f) the kernel sends SIGXFSZ, which
	 * kills us with the temporary output left behind; ignored, the write
	 * fails with EFBIG and we clean up and say so.
	 */
	signal(SIGXFSZ, SIG_IGN);

	record_hits__init(&rec.hits);
	err = parse_cpu_list(opts->cpu_list, &rec.cpus);
	if (err < 0)
		goto out;
	rec.nr_cpus = err;
	rec.tids = malloc(sizeof(pid_t));
	err = -ENOMEM;
	if (!rec.tids)
		goto out;
	rec.task_mode = !opts->system_wide && !opts->cpu_list;
	/*
	 * As in perf, a command is what is recorded only when nothing else is:
	 * with -p (or -a, -C) it runs beside the targets and says for how long.
	 */
	rec.workload_target =
	    rec.task_mode && opts->argc && !opts->pid_list && !opts->tid_list && !opts->uid;
	err = 0;
	if (opts->argc)
		err = record__fork_workload(&rec);
	if (!err && rec.workload_target) {
		rec.tids[0] = rec.child;
		rec.nr_tids = 1;
	} else if (!err && rec.task_mode) {
		err = record__add_targets(&rec);
	} else if (!err) {
		/* system-wide; a workload only says for how long */
		rec.tids[0] = -1;
		rec.nr_tids = 1;
	}
	if (err)
		goto out;
	if (opts->per_thread) {
		/* as perf --per-thread: each thread on any CPU (-1), a ring of its own */
		rec.cpus[0] = -1;
		rec.nr_cpus = 1;
	}
	rec.nr_rings = opts->per_thread ? rec.nr_tids : rec.nr_cpus;
	rec.rings = calloc(rec.nr_rings, sizeof(*rec.rings));
	err = -ENOMEM;
	if (!rec.rings)
		goto out;
	rec.lost_format = record_lost__format_supported() ? PERF_FORMAT_LOST : 0;
	err = record__setup_evsels(&rec);
	if (!err)
		err = record__open(&rec);
	if (!err && opts->call_graph != CALL_GRAPH_NONE)
		rec.callchain_off = SAMPLE_OFF_TIME + 8 + (opts->sample_addr ? 8 : 0) + 16;
	if (err)
		goto out;
	if (opts->bpf_capture) {
		rec.bpf = bpf_capture__new(NULL, 0);
		if (!rec.bpf && !record__user_only(&rec))
			pr_warning("no BPF JIT capture: %s (needs root)\n", strerror(errno));
	}
	record__check_kallsyms(&rec);
	err = record__writer_open(&rec);
	if (err)
		goto out_discard;
	record__start_modules(&rec);
	/*
	 * kcore_dir before the start state: the kernel map's bounds come from
	 * its kallsyms copy then, which spares a second read of /proc/kallsyms
	 * (the kernel formats each anew, the largest cost of a short recording)
	 */
	if (record__dir(&rec)) {
		/* the events' clock, so that each range read of kcore has its time */
		struct perf_clock *clock = perf_clock__new(opts->use_clockid, opts->clockid);
		struct kcore_clock kc = {record__clock_now, clock};

		if (!clock)
			pr_debug("no clock for the kcore read times: %s\n", strerror(errno));
		/* a plain file is the form without a kcore copy: that needs no word */
		err = kcore_dir__write(record__dir(&rec), opts->quiet || rec.kdir_tmp,
				       clock ? &kc : NULL);
		perf_clock__delete(clock);
		if (err) {
			pr_err("%s: cannot write kcore_dir: %s\n", opts->output, strerror(-err));
			goto out_discard;
		}
		record__find_init_caller(&rec);
		rec.kallsyms_copy = true;
	}
	err = record__write_features(&rec);
	if (!err)
		err = record__synthesize(&rec);
	if (err)
		goto out_abort;
	/* a workload that is the target enables its events by its exec; -D waits */
	if (!rec.workload_target && !opts->delay_ms) {
		err = record__enable(&rec);
		if (err)
			goto out_abort;
	}
	if (rec.child > 0) {
		err = record__start_workload(&rec);
		if (err)
			goto out_discard;
	}
	record_control__start(&rec);
	if (opts->switch_secs) {
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		rec.switch_at = (ts.tv_sec + opts->switch_secs) * 1000000000ULL + ts.tv_nsec;
	}
	pr_debug("recording: events enabled\n");
	/* the rings' records start here: all before is the start state */
	record__read_back_mark(&rec);
	err = record__loop(&rec);
	if (err)
		goto out_abort;
	if (rec.bpf) {
		bpf_capture__stop(rec.bpf);
		err = bpf_capture__write(rec.bpf, rec.w);
		/* a pipe's HEADER_FEATURE record holds 64 KiB at most */
		if (err == -E2BIG) {
			if (!opts->quiet)
				pr_warning(
				    "pipe mode: a captured BPF JIT image does not fit a 64 KiB "
				    "HEADER_FEATURE record: none written (record to a file)\n");
		} else if (err) {
			goto out_abort;
		}
	}
	if (rec.modules) {
		err = record__write_modules(&rec);
		if (err)
			goto out_abort;
	}
	if (record__dir(&rec)) {
		err = record__trim_kallsyms(&rec);
		if (!err && rec.kdir_tmp)
			err = record__pack_kcore_dir(&rec);
		if (err)
			goto out_abort;
	}
	record_features__write_end(rec.w, &rec.hits, rec.first_time, rec.last_time,
				   !opts->no_buildid);
	err = perf_writer__zstd_bytes(rec.w, &rec.zbytes_in, &rec.zbytes_out);
	if (err)
		goto out_abort;
	record__count(&rec);
	if (opts->switch_output) {
		err = record__dump(&rec);
	} else {
		err = perf_writer__close(rec.w);
		rec.w = NULL;
		if (err)
			pr_err("%s: %s\n", opts->output, strerror(-err));
	}
	if (!err)
		record__report(&rec);
	goto out;
out_abort:
	if (perf_writer__error(rec.w))
		pr_err("%s: %s\n", opts->output, strerror(-perf_writer__error(rec.w)));
	else if (err && err != -EINTR)
		pr_err("recording failed: %s\n", strerror(-err));
out_discard:
	perf_writer__abort(rec.w);
	rec.w = NULL;
out:
	record__exit(&rec);
	return err;
}
