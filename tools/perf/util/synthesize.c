// SPDX-License-Identifier: GPL-2.0-only
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bpf-capture.h"
#include "debug.h"
#include "event.h"
#include "synthesize.h"
#include "writer.h"

static int synth__mmap2(struct synth *s, struct perf_record_mmap2 *m, const char *name)
{
	int err = perf_writer__synth_mmap2(s->w, s->idx, m, name, NULL);

	if (!err && s->on_mmap)
		s->on_mmap(s->arg, m, name);
	return err;
}

struct kernel_text {
	u64 text, stext, etext;
};

/*
 * _text, _stext and _etext from @path (/proc/kallsyms or a copy) in one
 * pass, 0 for what is absent or hidden (kptr_restrict).  Reading
 * /proc/kallsyms is slow (the kernel expands every name; _etext lies past
 * a hundred thousand lines), so it is read once, in large reads, and each
 * line looked at only as far as needed: "<hex address> <type> <name>[\t[module]]".
 */
/* one line of kallsyms, NUL-terminated */
static void kernel_text__line(struct kernel_text *kt, char *line)
{
	char *name = strchr(line, ' '), *end;
	u64 *dst;

	/* "_" then one of "text", "stext", "etext", then the end of the name */
	if (!name || !name[1] || name[2] != ' ' || name[3] != '_' ||
	    (name[4] != 't' && name[4] != 's' && name[4] != 'e'))
		return;
	name += 3;
	end = name + strcspn(name, "\t\n");
	*end = '\0';
	if (!strcmp(name, "_text"))
		dst = &kt->text;
	else if (!strcmp(name, "_stext"))
		dst = &kt->stext;
	else if (!strcmp(name, "_etext"))
		dst = &kt->etext;
	else
		return;
	/* the first one is the kernel's; modules come after it */
	if (!*dst)
		*dst = strtoull(line, NULL, 16);
}

static void kallsyms__kernel_text(const char *path, struct kernel_text *kt)
{
	static char buf[(1 << 16) + 1];
	size_t len = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	memset(kt, 0, sizeof(*kt));
	if (fd < 0)
		return;
	/* lines cut from the buffer in place: stdio's per-line copies cost more than the scan */
	while (!kt->etext) {
		ssize_t n = read(fd, buf + len, sizeof(buf) - 1 - len);
		char *p = buf, *end, *nl;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			/* the last line, without its newline */
			buf[len] = '\0';
			if (len)
				kernel_text__line(kt, buf);
			break;
		}
		end = buf + len + n;
		while (!kt->etext && (nl = memchr(p, '\n', end - p))) {
			*nl = '\0';
			kernel_text__line(kt, p);
			p = nl + 1;
		}
		len = end - p;
		/* a line as long as the buffer is no kernel's: dropped */
		if (len == sizeof(buf) - 1)
			len = 0;
		memmove(buf, p, len);
	}
	close(fd);
}

int synthesize__kernel_mmap(struct synth *s)
{
	struct perf_record_mmap2 m;
	struct kernel_text kt;
	u64 start, end;

	kallsyms__kernel_text(s->kallsyms ?: "/proc/kallsyms", &kt);
	start = kt.text ? kt.text : kt.stext;
	end = kt.etext;
	memset(&m, 0, sizeof(m));
	m.header.misc = PERF_RECORD_MISC_KERNEL;
	m.pid = (u32)-1;
	m.tid = 0;
	m.start = start;
	/*
	 * As perf record: the kernel map ends at _etext.  Past it lie the
	 * modules and BPF programs, which stock perf would otherwise put
	 * into the kernel map (a program loaded before the recording, whose
	 * KSYMBOL is synthesized at time 0, then stays unresolved).  Without
	 * _etext, the end of the address space, as perf has then.
	 */
	m.len = end > start ? end - start : ~0ULL - start;
	m.pgoff = start;
	m.prot = PROT_READ | PROT_EXEC;
	return synth__mmap2(s, &m, "[kernel.kallsyms]_text");
}

int synthesize__modules(struct synth *s)
{
	char line[1024], name[256];
	unsigned long long size, addr;
	FILE *f = fopen("/proc/modules", "r");
	int err = 0;

	if (!f)
		return 0;
	while (!err && fgets(line, sizeof(line), f)) {
		struct perf_record_mmap2 m;
		char path[300];
		char *p;

		if (sscanf(line, "%255s %llu", name, &size) != 2)
			continue;
		p = strstr(line, " 0x");
		if (!p || sscanf(p + 1, "%llx", &addr) != 1 || !addr)
			continue;
		memset(&m, 0, sizeof(m));
		m.header.misc = PERF_RECORD_MISC_KERNEL;
		m.pid = (u32)-1;
		m.start = addr;
		m.len = size;
		m.prot = PROT_READ | PROT_EXEC;
		snprintf(path, sizeof(path), "[%s]", name);
		err = synth__mmap2(s, &m, path);
	}
	fclose(f);
	return err;
}

static int read_comm(pid_t pid, pid_t tid, char *comm, size_t size)
{
	char path[64];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", pid, tid);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	n = fread(comm, 1, size - 1, f);
	fclose(f);
	comm[n] = '\0';
	if (n && comm[n - 1] == '\n')
		comm[n - 1] = '\0';
	return 0;
}

static int synthesize__mmaps(struct synth *s, pid_t pid)
{
	char path[64], *line = NULL;
	size_t cap = 0;
	FILE *f;
	int err = 0;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "r");
	if (!f)
		return 0; /* gone, or a kernel thread */
	while (!err && getline(&line, &cap, f) > 0) {
		unsigned long long start, end, pgoff, ino;
		unsigned int maj, min;
		char perms[8];
		int name_at = 0;
		struct perf_record_mmap2 m;
		const char *name;
		char *nl;

		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, perms, &pgoff,
			   &maj, &min, &ino, &name_at) < 7)
			continue;
		/* as perf record: data mappings only when asked (DWARF unwinding needs .eh_frame's) */
		if (perms[2] != 'x' && !s->data_mmaps)
			continue;
		name = name_at ? line + name_at : "";
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		if (!*name)
			name = "//anon";
		memset(&m, 0, sizeof(m));
		m.header.misc = PERF_RECORD_MISC_USER;
		if (perms[2] != 'x')
			m.header.misc |= PERF_RECORD_MISC_MMAP_DATA;
		m.pid = pid;
		m.tid = pid;
		m.start = start;
		m.len = end - start;
		m.pgoff = pgoff;
		m.maj = maj;
		m.min = min;
		m.ino = ino;
		m.prot = (perms[0] == 'r' ? PROT_READ : 0) | (perms[1] == 'w' ? PROT_WRITE : 0) |
			 (perms[2] == 'x' ? PROT_EXEC : 0);
		m.flags = perms[3] == 's' ? MAP_SHARED : MAP_PRIVATE;
		err = synth__mmap2(s, &m, name);
	}
	free(line);
	fclose(f);
	return err;
}

/*
 * A thread's namespaces as the kernel's NAMESPACES record gives them: the
 * device and inode of each /proc/PID/task/TID/ns link, in the kernel's
 * order; one that cannot be read stays 0/0, as perf leaves it.
 */
static int synthesize__namespaces(struct synth *s, pid_t pid, pid_t tid)
{
	static const char *const names[] = {"net", "uts", "ipc", "pid", "user", "mnt", "cgroup"};
	u64 link[2 * ARRAY_SIZE(names)] = {0};
	char path[96];

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		struct stat st;

		snprintf(path, sizeof(path), "/proc/%d/task/%d/ns/%s", pid, tid, names[i]);
		if (stat(path, &st))
			continue;
		link[2 * i] = st.st_dev;
		link[2 * i + 1] = st.st_ino;
	}
	return perf_writer__synth_namespaces(s->w, s->idx, pid, tid, ARRAY_SIZE(names), link);
}

int synthesize__process(struct synth *s, pid_t pid, bool mmaps)
{
	char path[64], comm[64];
	struct dirent *de;
	DIR *d;
	int err = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	if (!d)
		return 0; /* exited meanwhile */
	while (!err && (de = readdir(d))) {
		pid_t tid;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		tid = atoi(de->d_name);
		if (read_comm(pid, tid, comm, sizeof(comm)))
			continue;
		/* perf makes threads known by a fork from their leader */
		if (tid != pid)
			err = perf_writer__synth_fork(s->w, s->idx, pid, pid, tid, pid, 0, NULL);
		if (!err)
			err = perf_writer__synth_comm(s->w, s->idx, pid, tid, comm, false, NULL);
		if (!err && s->namespaces)
			err = synthesize__namespaces(s, pid, tid);
	}
	closedir(d);
	if (!err && mmaps)
		err = synthesize__mmaps(s, pid);
	return err;
}

int synthesize__all_processes(struct synth *s)
{
	struct dirent *de;
	DIR *d = opendir("/proc");
	int err = 0;

	if (!d)
		return -errno;
	while (!err && (de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		err = synthesize__process(s, atoi(de->d_name), true);
	}
	closedir(d);
	return err;
}

void bpf_prog__ksym_name(char *buf, size_t size, const u8 tag[8], const char *name, u32 sub,
			 u32 nr_subs)
{
	int n = snprintf(buf, size, "bpf_prog_");

	for (int i = 0; i < 8 && n < (int)size; i++)
		n += snprintf(buf + n, size - n, "%02x", tag[i]);
	/* without BTF, perf names sub-programs "F" and the main one by its name */
	if (nr_subs <= 1 && name && *name && n < (int)size)
		snprintf(buf + n, size - n, "_%s", name);
	else if (nr_subs > 1 && n < (int)size)
		snprintf(buf + n, size - n, "_%s", sub == 0 && name && *name ? name : "F");
}

int synthesize__bpf_programs(struct synth *s, struct bpf_capture *cap)
{
	u32 id = 0, next;
	int nr = 0, err = 0;

	if (!cap)
		return 0;
	while (!err && !bpf_prog__next_id(id, &next)) {
		const struct bpf_prog_capture *p;
		char name[128];

		id = next;
		if (bpf_capture__add_id(cap, id))
			continue; /* unloaded meanwhile */
		p = bpf_capture__find(cap, id);
		if (!p)
			continue;
		for (u32 i = 0; !err && i < p->info.nr_jited_ksyms; i++) {
			const u8 *tag =
			    i < p->info.nr_prog_tags ? p->tags + i * BPF_TAG_SIZE : p->info.tag;
			u32 len = i < p->info.nr_jited_func_lens ? p->func_lens[i] : 0;

			bpf_prog__ksym_name(name, sizeof(name), tag, p->info.name, i,
					    p->info.nr_jited_ksyms);
			err =
			    perf_writer__synth_ksymbol(s->w, s->idx, p->ksyms[i], len,
						       PERF_RECORD_KSYMBOL_TYPE_BPF, 0, name, NULL);
		}
		if (!err)
			err = perf_writer__synth_bpf_event(s->w, s->idx, PERF_BPF_EVENT_PROG_LOAD,
							   0, id, p->info.tag, NULL);
		nr++;
	}
	return err ? err : nr;
}

/* the mount of the hierarchy samples' cgroup ids come from, or -ENOENT */
static int cgroup__mount(char *buf, size_t size)
{
	char line[4096], mnt[4096], fstype[64], opts[1024];
	bool found = false;
	FILE *f = fopen("/proc/self/mountinfo", "r");

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		const char *sep = strstr(line, " - ");

		/* "id parent maj:min root mountpoint opts ... - fstype source superopts" */
		if (!sep || sscanf(line, "%*s %*s %*s %*s %4095s", mnt) != 1 ||
		    sscanf(sep + 3, "%63s %*s %1023s", fstype, opts) != 2)
			continue;
		if (!strcmp(fstype, "cgroup") && strstr(opts, "perf_event")) {
			snprintf(buf, size, "%s", mnt);
			found = true;
			break;
		}
		if (!strcmp(fstype, "cgroup2") && !found) {
			snprintf(buf, size, "%s", mnt);
			found = true;
		}
	}
	fclose(f);
	return found ? 0 : -ENOENT;
}

/* a cgroup's id is what its file handle holds, as the kernel's cgroup_id() */
static int cgroup__id(const char *path, u64 *id)
{
	struct {
		struct file_handle fh;
		u64 id;
	} h = {.fh.handle_bytes = sizeof(u64)};
	int mount_id;

	if (name_to_handle_at(AT_FDCWD, path, &h.fh, &mount_id, 0))
		return -errno;
	memcpy(id, h.fh.f_handle, sizeof(*id));
	return 0;
}

static int cgroup__walk(struct synth *s, char *path, size_t root_len, size_t size, int depth)
{
	size_t len = strlen(path);
	struct dirent *de;
	u64 id = 0;
	DIR *d;
	int err = 0;

	if (!cgroup__id(path, &id)) {
		err = perf_writer__synth_cgroup(s->w, s->idx, id,
						len > root_len ? path + root_len : "/");
		if (err)
			return err;
	}
	/* a loop guard only: cgroup trees are far shallower */
	if (depth > 64)
		return 0;
	d = opendir(path);
	if (!d)
		return 0;
	while (!err && (de = readdir(d))) {
		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		if (snprintf(path + len, size - len, "/%s", de->d_name) >= (int)(size - len))
			continue;
		err = cgroup__walk(s, path, root_len, size, depth + 1);
		path[len] = '\0';
	}
	closedir(d);
	return err;
}

int synthesize__cgroups(struct synth *s)
{
	char path[4096];
	int err = cgroup__mount(path, sizeof(path));

	if (err) {
		pr_debug("--all-cgroups: no cgroup mount: no cgroup names\n");
		return 0;
	}
	return cgroup__walk(s, path, strlen(path), sizeof(path), 0);
}
