// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf textpoke inject: the driver.  Reads the input twice (the text
 * image needs the whole side-band before the first record is rewritten:
 * an object's bytes and its end are known only from later records), and
 * copies every record in file order, as perf inject does, so that the
 * output keeps the input's rounds and anything that relies on the order.
 *
 * Attrs are copied as they are (PERF_WRITER_KEEP_ATTRS): samples and id
 * trailers pass through unparsed, so their layout must stay the one
 * their attrs say.  Features are copied as the input has them, except
 * those that describe the file itself (DIR_FORMAT, COMPRESSED), those the
 * writer builds (EVENT_DESC, from the names) and BUILD_ID, which gains
 * the objects' entries.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "debug.h"
#include "header.h"
#include "inject-itrace.h"
#include "inject-buildid.h"
#include "inject-jit.h"
#include "inject-jitdump.h"
#include "inject-snapshot.h"
#include "inject.h"
#include "input-file.h"
#include "interrupt.h"
#include "kallsyms.h"
#include "kcore.h"
#include "machine.h"
#include "module-events.h"
#include "output-path.h"
#include "session.h"
#include "text-image.h"
#include "write-all.h"
#include "writer.h"

/*
 * The kcore_dir files copied when no snapshot replaces them: those stock
 * perf reads, and ours beside them (the copy's read times, the modules
 * loaded while recording; their module.<N>.kcore and module.<N>.kallsyms
 * are found by name, kcore_dir__is_module_file())
 */
static const char *const kcore_dir_files[] = {"kcore", "kallsyms", "modules", KCORE_TIMES,
					      MODULE_EVENTS_FILE};

/* module.<N>.kcore or module.<N>.kallsyms, as module_events names them */
static bool kcore_dir__is_module_file(const char *name)
{
	const char *p = name + strlen("module.");

	if (strncmp(name, "module.", strlen("module.")) || !isdigit((unsigned char)*p))
		return false;
	while (isdigit((unsigned char)*p))
		p++;
	return !strcmp(p, ".kcore") || !strcmp(p, ".kallsyms");
}

struct inject {
	struct perf_tool tool;
	const struct inject_opts *opts;
	const char *in_name; /* for messages: the input as the user named it */
	struct perf_session *session;
	struct perf_writer *w;
	struct inject_jit *jit;
	struct inject_itrace *itrace;
	struct inject_buildid *bid;	/* -b, --buildid-all */
	struct inject_jitdump *jitdump; /* with jit: the user space's JIT code */
	/*
	 * --snapshot's kcore_dir, made before the copy and written after it:
	 * the kernel's symbols it reads (100k and more) and the snapshot's
	 * tables are then not held while the copy maps the input
	 */
	char *snap_dir, *snap_name;
	bool started;
	/* raw payloads of the input's features, in file byte order */
	void *feat_buf[HEADER_LAST_FEATURE];
	u64 feat_size[HEADER_LAST_FEATURE];
	u64 nr_in;
	u64 nr_out;
	u64 nr_dropped;	 /* user records the output cannot carry */
	u64 nr_stripped; /* --strip's */
};

static struct inject *tool2inject(struct perf_tool *tool)
{
	return (struct inject *)((char *)tool - offsetof(struct inject, tool));
}

static bool feat_is_copied(int feat)
{
	switch (feat) {
	case HEADER_BUILD_ID:	/* entries added one by one, with the objects' */
	case HEADER_EVENT_DESC: /* the writer builds it from the attrs' names */
	case HEADER_DIR_FORMAT: /* the output's own layout */
	case HEADER_COMPRESSED: /* the output is not compressed */
	case HEADER_AUXTRACE:	/* file offsets of AUX traces: the writer's own */
		return false;
	default:
		return feat > 0 && feat < HEADER_LAST_FEATURE;
	}
}

static int inject__feature(struct perf_tool *tool, int feat, const void *buf, u64 size)
{
	struct inject *inj = tool2inject(tool);
	void *copy;

	if (!feat_is_copied(feat))
		return 0;
	copy = malloc(size ?: 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, buf, size);
	free(inj->feat_buf[feat]);
	inj->feat_buf[feat] = copy;
	inj->feat_size[feat] = size;
	return 0;
}

static int inject__add_build_ids(struct inject *inj)
{
	const struct perf_env *env = &inj->session->env;
	int i, err;

	/* -b and --buildid-all keep the entries of the objects hit or mapped only */
	for (i = 0; !inj->bid && i < env->nr_build_ids; i++) {
		const struct build_id_entry *b = &env->build_ids[i];

		err = perf_writer__add_build_id(inj->w, b->misc, b->pid, b->build_id, b->size ?: 20,
						b->filename);
		if (err)
			return err;
	}
	if (inj->bid) {
		err = inject_buildid__write_all(inj->bid, inj->w,
						perf_writer__final_path(inj->w) != NULL);
		if (err)
			return err;
	}
	err = inject_jitdump__add_build_ids(inj->jitdump, inj->w);
	if (!err && inj->jit)
		err = inject_jit__add_build_ids(inj->jit, inj->w);
	return err;
}

/* jitdump times are CLOCK_MONOTONIC: every event must have been recorded with -k mono */
static bool inject__mono_clock(struct inject *inj)
{
	struct evlist *evlist = inj->session->evlist;
	int i;

	for (i = 0; i < evlist->nr_entries; i++) {
		const struct perf_event_attr *a = &evlist->entries[i]->attr;

		if (!a->use_clockid || a->clockid != CLOCK_MONOTONIC)
			return false;
	}
	return evlist->nr_entries > 0;
}

/*
 * The output's header: the attrs the session has seen (in a stream they
 * all come before the first record) and the features.  At the first
 * record, because a stream tells both only as it goes.
 */
static int inject__start(struct inject *inj)
{
	struct perf_session *session = inj->session;
	struct evlist *evlist = session->evlist;
	int i, err = 0;

	inj->started = true;
	/* a stream's attrs are all known now, not before */
	if (inj->jitdump)
		inject_jitdump__set_mono_clock(inj->jitdump, inject__mono_clock(inj));
	if (session->needs_swap) {
		pr_err("%s: a recording in the other byte order cannot be injected into (its "
		       "records would have to be swapped back)\n",
		       inj->in_name);
		return -EOPNOTSUPP;
	}
	for (i = 0; i < evlist->nr_entries && !err; i++) {
		struct evsel *evsel = evlist->entries[i];

		err = perf_writer__add_attr(inj->w, &evsel->attr, evsel->ids, evsel->nr_ids,
					    evsel->name);
		if (err > 0)
			err = 0;
	}
	if (!err && inj->itrace)
		err = inject_itrace__add_attrs(inj->itrace, inj->w, evlist->nr_entries);
	for (i = 1; i < HEADER_LAST_FEATURE && !err; i++) {
		if (i == HEADER_TRACING_DATA) {
			/* a stream carries it as a record, kept by the session */
			if (session->env.tracing_data)
				err =
				    perf_writer__set_tracing_data(inj->w, session->env.tracing_data,
								  session->env.tracing_data_size);
			continue;
		}
		if (inj->feat_buf[i])
			err = perf_writer__set_feature(inj->w, i, inj->feat_buf[i],
						       inj->feat_size[i]);
	}
	if (!err && perf_writer__dir_path(inj->w))
		err = perf_writer__set_dir_format(inj->w, 0);
	/* a stream's features must all come before its first record */
	if (!err && !perf_writer__final_path(inj->w))
		err = inject__add_build_ids(inj);
	if (err)
		pr_err("%s: cannot write the header: %s\n", inj->opts->output, strerror(-err));
	return err;
}

static int inject__write(struct inject *inj, union perf_event *event)
{
	int err = perf_writer__write_event(inj->w, event);

	if (err) {
		pr_err("%s: cannot write the %s record read at %#" PRIx64 ": %s\n",
		       inj->opts->output, perf_event__name(event->header.type),
		       inj->session->cur_offset, strerror(-err));
		return err;
	}
	inj->nr_out++;
	return 0;
}

/*
 * --strip, as perf inject's: the recorded events' samples and the context
 * switches go (the trace's samples say where the tasks ran), their attrs
 * stay, for tools that read the events by their attrs
 */
static bool inject__strips(u32 type)
{
	return type == PERF_RECORD_SAMPLE || type == PERF_RECORD_SWITCH ||
	       type == PERF_RECORD_SWITCH_CPU_WIDE;
}

static int inject__kernel_event(struct inject *inj, union perf_event *event,
				struct perf_sample *sample, bool is_sample)
{
	int err;

	inj->nr_in++;
	if (inj->itrace) {
		/* the trace's records go with it; the others' times pace the samples */
		if (inject_itrace__drops(event->header.type))
			return 0;
		inject_itrace__saw_time(inj->itrace, sample->time);
		if (inj->opts->strip && inject__strips(event->header.type)) {
			inj->nr_stripped++;
			return 0;
		}
	}
	if (!inj->started && (err = inject__start(inj)))
		return err;
	/* --buildid-all: an object's build-id goes before its MMAP, as perf's */
	if (inj->bid && !is_sample) {
		err = inject_buildid__side_band(inj->bid, inj->w, event);
		if (err) {
			pr_err("%s: cannot add the build-id for the %s record read at %#" PRIx64
			       ": %s\n",
			       inj->opts->output, perf_event__name(event->header.type),
			       inj->session->cur_offset, strerror(-err));
			return err;
		}
	}
	if (inj->jitdump) {
		err = inject_jitdump__event(inj->jitdump, inj->w, event, sample);
		if (err < 0)
			return err;
		if (err > 0)
			return 0;
	}
	if (inj->jit) {
		err = inject_jit__event(inj->jit, inj->w, event, sample);
		if (err < 0)
			return err;
		if (err > 0)
			return 0;
	}
	return inject__write(inj, event);
}

static int inject__sample(struct perf_tool *tool, union perf_event *event,
			  struct perf_sample *sample, struct evsel *evsel, struct machine *machine)
{
	return inject__kernel_event(tool2inject(tool), event, sample, true);
}

static int inject__side_band(struct perf_tool *tool, union perf_event *event,
			     struct perf_sample *sample, struct evsel *evsel,
			     struct machine *machine)
{
	return inject__kernel_event(tool2inject(tool), event, sample, false);
}

static int inject__user_event(struct perf_tool *tool, union perf_event *event,
			      struct perf_session *session)
{
	struct inject *inj = tool2inject(tool);
	u32 type = event->header.type;
	int err;

	inj->nr_in++;
	if (inj->itrace && inject_itrace__drops(type))
		return 0;
	switch (type) {
	case PERF_RECORD_HEADER_BUILD_ID:
		/* kept by the session in its build-id table: written as the feature */
		return 0;
	case PERF_RECORD_AUXTRACE:
		/* its trace follows, through inject__auxtrace_data() */
		if (!inj->started && (err = inject__start(inj)))
			return err;
		err = perf_writer__write_auxtrace(inj->w, event);
		if (err) {
			pr_err("%s: cannot write the AUXTRACE record read at %#" PRIx64 ": %s\n",
			       inj->opts->output, session->cur_offset, strerror(-err));
			return err;
		}
		inj->nr_out++;
		return 0;
	case PERF_RECORD_TIME_CONV:
		/* jitdumps with arch timestamps are placed through it; it is copied too */
		if (inj->jitdump)
			inject_jitdump__time_conv(inj->jitdump, event);
		break;
	case PERF_RECORD_FINISHED_ROUND:
		/* before the first record a round delivers nothing: no header needed yet */
		if (!inj->started)
			return 0;
		/* the decoded samples up to the newest time copied, in this round */
		if (inj->itrace && (err = inject_itrace__flush(inj->itrace, inj->w, false)))
			return err;
		break;
	default:
		if (type >= PERF_RECORD_HEADER_MAX) {
			inj->nr_dropped++;
			return 0;
		}
		break;
	}
	if (!inj->started && (err = inject__start(inj)))
		return err;
	return inject__write(inj, event);
}

static int inject__auxtrace_data(struct perf_tool *tool, const void *buf, u64 len)
{
	struct inject *inj = tool2inject(tool);
	int err = perf_writer__write_auxtrace_data(inj->w, buf, len);

	if (err)
		pr_err("%s: cannot write the AUX trace read at %#" PRIx64 ": %s\n",
		       inj->opts->output, inj->session->cur_offset, strerror(-err));
	return err;
}

/* an unlinked copy of a stream, so that it can be read twice: its path, or NULL */
static char *inject__spool(const char *input, int *fdp)
{
	const char *tmpdir = getenv("TMPDIR");
	char *path = NULL;
	bool read_failed;
	int in, out, err;

	if (!tmpdir || !*tmpdir)
		tmpdir = "/tmp";
	in = strcmp(input, "-") ? open(input, O_RDONLY | O_CLOEXEC) : STDIN_FILENO;
	if (in < 0) {
		pr_err("%s: %s\n", input, strerror(errno));
		return NULL;
	}
	out = open(tmpdir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (out < 0) {
		pr_err("%s: cannot make a temporary copy of the stream: %s\n", tmpdir,
		       strerror(errno));
		goto out;
	}
	err = copy_to_eof(in, out, &read_failed);
	if (err) {
		if (read_failed)
			pr_err("%s: %s\n", input, strerror(-err));
		else
			pr_err("%s: cannot make a temporary copy of the stream: %s\n", tmpdir,
			       strerror(-err));
		goto out_close;
	}
	if (asprintf(&path, "/proc/self/fd/%d", out) < 0) {
		path = NULL;
		goto out_close;
	}
	*fdp = out;
	goto out;
out_close:
	close(out);
out:
	if (in != STDIN_FILENO)
		close(in);
	return path;
}

/* -o naming the input would turn it into input.old: refuse before reading */
static int inject__check_paths(const struct inject_opts *o)
{
	struct stat in, out;

	if (!strcmp(o->output, "-") || !strcmp(o->input, "-"))
		return 0;
	if (stat(o->input, &in) || stat(o->output, &out))
		return 0;
	if (in.st_dev == out.st_dev && in.st_ino == out.st_ino) {
		pr_err("-o %s: that is the input; inject never rewrites its input in place\n",
		       o->output);
		return -EINVAL;
	}
	return 0;
}

static int kallsyms__ignore(void *arg, const char *name, char type, u64 start, const char *module)
{
	(void)arg;
	(void)name;
	(void)type;
	(void)start;
	(void)module;
	return 0;
}

/* @to is temporary: messages name it as @name, where it will be */
static int copy_file(const char *from, const char *to, const char *name)
{
	struct stat st;
	bool read_failed;
	int in, out, err;

	in = input_file__open(from, &st);
	if (in < 0) {
		if (in == -ENOENT)
			return 0;
		pr_err("%s: %s\n", from, input_file__strerror(in));
		return in;
	}
	out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (out < 0) {
		err = -errno;
		pr_err("%s: %s\n", name, strerror(errno));
		close(in);
		return err;
	}
	err = copy_to_eof(in, out, &read_failed);
	if (err)
		pr_err("%s: %s\n", read_failed ? from : name, strerror(-err));
	close(in);
	close(out);
	return err;
}

/*
 * What is copied unread is still checked: a kallsyms or modules file
 * cut short or holding other lines is said, as the commands that read
 * them say it
 */
static void inject__check_kcore_dir_file(const char *path, const char *name)
{
	struct kallsyms_damage d;
	int err;

	if (!strcmp(name, "kallsyms"))
		err = kallsyms__parse_checked(path, NULL, kallsyms__ignore, &d);
	else if (!strcmp(name, "modules"))
		err = modules__check(path, &d);
	else
		return;
	/* a file that cannot be read: copy_file() says why */
	if (err >= 0)
		kallsyms_damage__warn(path, &d, name);
}

static int inject__copy_kcore_dir_file(const char *from, const char *dir, const char *output,
				       const char *file)
{
	char *src, *dst, *name;
	int err;

	if (asprintf(&src, "%s/%s", from, file) < 0)
		return -ENOMEM;
	if (asprintf(&dst, "%s/%s", dir, file) < 0) {
		free(src);
		return -ENOMEM;
	}
	if (asprintf(&name, "%s/kcore_dir/%s", output, file) < 0) {
		free(src);
		free(dst);
		return -ENOMEM;
	}
	inject__check_kcore_dir_file(src, file);
	err = copy_file(src, dst, name);
	free(src);
	free(dst);
	free(name);
	return err;
}

/* the input's kcore_dir, kept in the output when no snapshot replaces it */
static int inject__copy_kcore_dir(const char *from, const char *dir, const char *output)
{
	struct dirent *de;
	size_t i;
	DIR *d;
	int err = 0;

	for (i = 0; !err && i < sizeof(kcore_dir_files) / sizeof(kcore_dir_files[0]); i++)
		err = inject__copy_kcore_dir_file(from, dir, output, kcore_dir_files[i]);
	if (err)
		return err;
	d = opendir(from);
	if (!d) {
		err = -errno;
		pr_err("%s: %s\n", from, strerror(-err));
		return err;
	}
	/* copy_file() takes regular files only: a name is no way out of the input */
	while (!err && (de = readdir(d)))
		if (kcore_dir__is_module_file(de->d_name))
			err = inject__copy_kcore_dir_file(from, dir, output, de->d_name);
	closedir(d);
	return err;
}

/* @path made absolute, against the working directory; malloc'ed */
static char *absolute_path(const char *path)
{
	char cwd[PATH_MAX], *abs;

	if (path[0] == '/')
		return strdup(path);
	if (!getcwd(cwd, sizeof(cwd)))
		return NULL;
	if (asprintf(&abs, "%s/%s", cwd, path) < 0)
		return NULL;
	return abs;
}

static int inject__jit_dirs(struct inject *inj, char **write_dir, char **final_dir)
{
	const struct inject_opts *o = inj->opts;
	const char *tmp = perf_writer__dir_path(inj->w);
	char *final = NULL;

	*write_dir = *final_dir = NULL;
	if (o->jit_dir) {
		if (mkdir(o->jit_dir, 0755) && errno != EEXIST) {
			pr_err("--jit-dir %s: %s\n", o->jit_dir, strerror(errno));
			return -errno;
		}
		*write_dir = strdup(o->jit_dir);
		*final_dir = absolute_path(o->jit_dir);
	} else {
		if (asprintf(write_dir, "%s/jit", tmp) < 0) {
			*write_dir = NULL;
			return -ENOMEM;
		}
		if (mkdir(*write_dir, 0755)) {
			pr_err("%s: %s\n", *write_dir, strerror(errno));
			return -errno;
		}
		final = absolute_path(perf_writer__final_path(inj->w));
		if (final && asprintf(final_dir, "%s/jit", final) < 0)
			*final_dir = NULL;
		free(final);
	}
	return *write_dir && *final_dir ? 0 : -ENOMEM;
}

/* whether stock perf will read a kcore from the output: then it ignores kernel MMAPs */
static bool inject__out_has_kcore(struct inject *inj)
{
	const char *tmp = perf_writer__dir_path(inj->w);
	char *path;
	bool has;

	if (!tmp || asprintf(&path, "%s/kcore_dir/kcore", tmp) < 0)
		return false;
	has = !access(path, F_OK);
	free(path);
	return has;
}

/* everything between the first pass and the copy: kcore_dir, objects */
static int inject__prepare(struct inject *inj, struct text_image *ti, const char *in_kcore_dir)
{
	const struct inject_opts *o = inj->opts;
	const char *tmp = perf_writer__dir_path(inj->w);
	char *kdir, *name;
	int err = 0;

	if (tmp && (o->snapshot || in_kcore_dir)) {
		/* written in the temporary, named as it will be found: OUTPUT/kcore_dir */
		if (asprintf(&kdir, "%s/kcore_dir", tmp) < 0)
			return -ENOMEM;
		if (asprintf(&name, "%s/kcore_dir", o->output) < 0) {
			free(kdir);
			return -ENOMEM;
		}
		if (mkdir(kdir, 0755)) {
			err = -errno;
			pr_err("%s: %s\n", name, strerror(errno));
		} else if (o->snapshot) {
			/* written after the copy, its kcore whatever it holds */
			inj->snap_dir = kdir;
			inj->snap_name = name;
			kdir = name = NULL;
		} else {
			err = inject__copy_kcore_dir(in_kcore_dir, kdir, o->output);
		}
		free(name);
		free(kdir);
		if (err)
			return err;
	}
	if (o->jit) {
		char *write_dir, *final_dir;

		inj->jitdump = inject_jitdump__new();
		if (!inj->jitdump)
			return -ENOMEM;

		err = inject__jit_dirs(inj, &write_dir, &final_dir);
		if (!err) {
			inj->jit = inject_jit__new(ti, text_image__machine(ti), text_image__env(ti),
						   write_dir, final_dir);
			if (!inj->jit)
				err = -errno ?: -EINVAL;
			else
				inject_jit__set_out_kcore(inj->jit, inj->snap_dir ||
									inject__out_has_kcore(inj));
		}
		free(write_dir);
		free(final_dir);
	}
	return err;
}

static unsigned int inject__writer_flags(const struct inject_opts *o, bool in_kcore_dir)
{
	unsigned int flags = PERF_WRITER_KEEP_ATTRS;

	/* a FIFO is a stream too: what -o - writes */
	if (output_path__is_stream(o->output))
		return flags | PERF_WRITER_PIPE;
	/* a device (/dev/null) takes the data file; the kcore_dir has no place there */
	if (output_path__kind(o->output) == OUTPUT_PATH_DEVICE)
		return flags;
	if (o->snapshot || (o->jit && !o->jit_dir) || in_kcore_dir)
		flags |= PERF_WRITER_DIRECTORY;
	return flags;
}

static void inject__summary(struct inject *inj)
{
	const struct inject_opts *o = inj->opts;

	if (o->quiet)
		return;
	fprintf(stderr, "[ perf textpoke inject: %" PRIu64 " records to %s", inj->nr_out,
		strcmp(o->output, "-") ? o->output : "stdout");
	if (inj->jit)
		fprintf(stderr, ", %zu JIT objects",
			inject_jit__nr_objects(inj->jit) +
			    inject_jitdump__nr_objects(inj->jitdump));
	if (inj->itrace)
		fprintf(
		    stderr, ", %" PRIu64 " samples and %" PRIu64 " errors decoded from the trace",
		    inject_itrace__nr_samples(inj->itrace), inject_itrace__nr_errors(inj->itrace));
	if (o->strip)
		fprintf(stderr, ", %" PRIu64 " recorded samples and switches stripped",
			inj->nr_stripped);
	if (inj->bid)
		fprintf(stderr, ", %zu build-ids", inject_buildid__nr_entries(inj->bid));
	if (o->snapshot)
		fprintf(stderr, ", kcore_dir of the code at %s",
			o->snapshot_at == INJECT_SNAPSHOT_START ? "the start" :
			o->snapshot_at == INJECT_SNAPSHOT_END	? "the end" :
								  "the given time");
	fprintf(stderr, " ]\n");
	if (inj->jit && !inject_jit__nr_objects(inj->jit) &&
	    !inject_jitdump__nr_objects(inj->jitdump))
		fprintf(stderr,
			"%s has no usable jitdump, BPF program or OOL region with known "
			"bytes: no object was written\n",
			inj->in_name);
	if (inj->nr_dropped)
		pr_warning("%" PRIu64 " records of types perf inject does not copy were left out\n",
			   inj->nr_dropped);
}

int inject__run(const struct inject_opts *o)
{
	struct inject inj = {
	    .tool =
		{
		    .sample = inject__sample,
		    .side_band = inject__side_band,
		    .user_event = inject__user_event,
		    .feature = inject__feature,
		    .auxtrace_data = inject__auxtrace_data,
		    .defer_cut = true,
		},
	    .opts = o,
	    .in_name = o->input,
	};
	struct text_image *ti = NULL;
	char *spool = NULL, *in_kcore_dir = NULL;
	const char *in_path = o->input;
	int spool_fd = -1, err, err_cut = 0, i;

	/*
	 * Past ulimit -f the kernel sends SIGXFSZ, which kills: ignored, the
	 * write fails with EFBIG, which is said, and the output is removed
	 */
	signal(SIGXFSZ, SIG_IGN);
	interrupt__install();
	if (o->snapshot && output_path__is_stream(o->output)) {
		pr_err("--snapshot writes a kcore_dir, which -o %s (a stream) cannot carry: give a "
		       "directory\n",
		       o->output);
		return -EINVAL;
	}
	if (o->jit && !o->jit_dir && output_path__is_stream(o->output)) {
		pr_err("--jit with -o %s (a stream): say with --jit-dir where the objects go\n",
		       o->output);
		return -EINVAL;
	}
	err = inject__check_paths(o);
	if (err)
		return err;
	if (output_path__is_stream(o->input)) {
		spool = inject__spool(o->input, &spool_fd);
		if (!spool)
			return -EIO;
		in_path = spool;
	}
	if (o->itrace.set) {
		inj.itrace = inject_itrace__new(in_path, &o->itrace, &o->image);
		if (!inj.itrace) {
			err = -EINVAL;
			goto out;
		}
		/* the trace is not copied: the copy pass skips it unread, and says nothing */
		inj.tool.auxtrace_data = NULL;
		inj.tool.trace_elsewhere = true;
	}
	/*
	 * --jit reads in time order, as perf inject --jit does: a process's
	 * //anon mappings go when they come after its jitdump's MMAP in
	 * time, which on two CPUs is not file order; the rounds are not
	 * copied (a time-ordered stream needs none)
	 */
	inj.tool.ordered_events = o->jit;
	if (o->jit || o->snapshot) {
		struct text_image_opts image = o->image;

		/* the snapshot tells the kernel's pokes from the image's by the machine's */
		image.keep_text_pokes = o->snapshot;
		ti = text_image__load(in_path, &image);
		if (!ti) {
			err = -errno ?: -EINVAL;
			goto out;
		}
	}
	inj.session = perf_session__new(in_path, &inj.tool);
	if (!inj.session) {
		err = -EINVAL;
		goto out;
	}
	if (perf_session__kcore_dir(inj.session))
		in_kcore_dir = strdup(perf_session__kcore_dir(inj.session));
	inj.w = perf_writer__new(o->output, inject__writer_flags(o, in_kcore_dir));
	if (!inj.w) {
		err = -errno;
		pr_err("%s: %s\n", o->output, strerror(errno));
		goto out;
	}
	err = inject__prepare(&inj, ti, in_kcore_dir);
	if (err)
		goto out;
	if (o->build_ids || o->buildid_all) {
		inj.bid = inject_buildid__new(o->buildid_all, &inj.session->env);
		if (!inj.bid) {
			err = -ENOMEM;
			goto out;
		}
		err = inject_buildid__scan(inj.bid, in_path);
		if (err)
			goto out;
	}
	err = perf_session__process_events(inj.session);
	/*
	 * A cut-off input: the output is a whole recording of the complete
	 * records before the cut, and inject still fails, saying why
	 */
	if (err && inj.session->truncated) {
		err_cut = err;
		err = 0;
	}
	if (!err && !inj.started)
		err = inject__start(&inj);
	/* --snapshot's kcore_dir, after the copy: what the text image knew of the kernel */
	if (!err && inj.snap_dir)
		err = inject_snapshot__write(ti, text_image__machine(ti), o->snapshot_at,
					     o->snapshot_time, inj.snap_dir, inj.snap_name);
	if (!err && inj.itrace)
		err = inject_itrace__flush(inj.itrace, inj.w, true);
	if (!err && perf_writer__final_path(inj.w))
		err = inject__add_build_ids(&inj);
	/* a stream's entries went out before the first record; the jitdumps' follow the last */
	else if (!err)
		err = inject_jitdump__add_build_ids(inj.jitdump, inj.w);
	if (err)
		goto out;
	err = perf_writer__close(inj.w);
	inj.w = NULL;
	if (err) {
		pr_err("%s: %s\n", o->output, strerror(-err));
		goto out;
	}
	inject__summary(&inj);
	if (err_cut) {
		pr_err("%s: the output holds the records before it\n",
		       perf_session__cut_message(inj.session));
		err = err_cut;
	}
out:
	if (inj.w)
		perf_writer__abort(inj.w);
	inject_jit__delete(inj.jit);
	inject_itrace__delete(inj.itrace);
	inject_buildid__delete(inj.bid);
	inject_jitdump__delete(inj.jitdump);
	if (inj.session)
		perf_session__delete(inj.session);
	text_image__delete(ti);
	for (i = 0; i < HEADER_LAST_FEATURE; i++)
		free(inj.feat_buf[i]);
	free(in_kcore_dir);
	free(inj.snap_dir);
	free(inj.snap_name);
	if (spool_fd >= 0)
		close(spool_fd);
	free(spool);
	if (interrupt__pending()) {
		pr_err("%s: interrupted by %s: not written, what was there is kept\n", o->output,
		       strsignal(interrupt__pending()));
		interrupt__reraise();
	}
	return err;
}
