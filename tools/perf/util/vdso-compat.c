// SPDX-License-Identifier: GPL-2.0-only
/*
 * The build-id of the kernel's compat (i386) vdso, for the build-id table
 * of a recording whose 32-bit tasks ran code in it.  Every 32-bit task on
 * a kernel maps the same image, but this 64-bit process maps the 64-bit
 * one.  perf record gets it by running perf-read-vdso32, a 32-bit helper
 * that dumps its own vdso; we ship no 32-bit program, so a child of ours
 * asks the kernel for the compat image instead: arch_prctl
 * ARCH_MAP_VDSO_32 (the call CRIU restores 32-bit tasks with) maps it into
 * a process that has no vdso, so the child unmaps its own vdso and vvar
 * first, then sends the new image back through a pipe.
 *
 * After fork() in a threaded recorder the child may only make system
 * calls: no stdio, no malloc, and nothing that goes through the vdso it
 * has unmapped (clock_gettime).
 */
#include <elf.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include "build-id.h"

#ifndef ARCH_MAP_VDSO_32
#define ARCH_MAP_VDSO_32 0x2002
#endif

/* the compat vdso is two pages on 6.x kernels; room for growth */
#define VDSO_COMPAT_MAX (64 << 10)

struct vma {
	unsigned long start, end;
};

static unsigned long hex__parse(const char **p)
{
	unsigned long v = 0;

	for (;; (*p)++) {
		char c = **p;

		if (c >= '0' && c <= '9')
			v = v * 16 + (c - '0');
		else if (c >= 'a' && c <= 'f')
			v = v * 16 + (c - 'a' + 10);
		else
			return v;
	}
}

/*
 * [vdso] and [vvar] of /proc/self/maps, by read() into @buf (the child's
 * stack: maps of a young child of the recorder fit in it).  0 or -1.
 */
static int maps__find(char *buf, size_t size, struct vma *vdso, struct vma *vvar)
{
	size_t len = 0;
	ssize_t n;
	char *line, *nl;
	int fd = open("/proc/self/maps", O_RDONLY);

	if (fd < 0)
		return -1;
	while (len < size - 1 && (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += n;
	close(fd);
	buf[len] = '\0';
	vdso->start = vdso->end = vvar->start = vvar->end = 0;
	for (line = buf; *line; line = nl + 1) {
		const char *p = line;
		struct vma v;

		nl = strchr(line, '\n');
		if (!nl)
			break;
		*nl = '\0';
		v.start = hex__parse(&p);
		if (*p++ != '-')
			continue;
		v.end = hex__parse(&p);
		if (strstr(p, "[vdso]"))
			*vdso = v;
		else if (strstr(p, "[vvar]"))
			*vvar = v;
	}
	return vdso->end ? 0 : -1;
}

static void child__write_all(int fd, const void *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n <= 0)
			_exit(1);
		p = (const char *)p + n;
		len -= n;
	}
}

/* in the child: map the compat vdso in place of ours, write it to @fd */
static void __attribute__((noreturn)) child__dump_compat(int fd)
{
	char buf[16384];
	struct vma vdso, vvar;
	unsigned long at;

	if (maps__find(buf, sizeof(buf), &vdso, &vvar))
		_exit(1);
	/* where ours was is free once unmapped: the new one goes there */
	at = vvar.end ? vvar.start : vdso.start;
	if (vvar.end)
		munmap((void *)vvar.start, vvar.end - vvar.start);
	munmap((void *)vdso.start, vdso.end - vdso.start);
	if (syscall(SYS_arch_prctl, ARCH_MAP_VDSO_32, at) < 0)
		_exit(2);
	if (maps__find(buf, sizeof(buf), &vdso, &vvar) || vdso.end - vdso.start > VDSO_COMPAT_MAX)
		_exit(1);
	child__write_all(fd, (const void *)vdso.start, vdso.end - vdso.start);
	_exit(0);
}

/* NT_GNU_BUILD_ID of an ELF32 image in memory, by its PT_NOTE segments */
static int elf32_image__build_id(const u8 *image, size_t size, struct build_id *bid)
{
	const Elf32_Ehdr *eh = (const Elf32_Ehdr *)image;

	if (size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS32 || eh->e_phentsize != sizeof(Elf32_Phdr) ||
	    eh->e_phoff > size || eh->e_phnum > (size - eh->e_phoff) / sizeof(Elf32_Phdr))
		return -EINVAL;
	for (unsigned int i = 0; i < eh->e_phnum; i++) {
		const Elf32_Phdr *ph = (const Elf32_Phdr *)(image + eh->e_phoff) + i;

		if (ph->p_type != PT_NOTE || ph->p_offset > size ||
		    ph->p_filesz > size - ph->p_offset)
			continue;
		if (!notes__find_build_id(image + ph->p_offset, ph->p_filesz, false, bid))
			return 0;
	}
	return -ENOENT;
}

int vdso__read_compat_build_id(struct build_id *bid)
{
	static u8 image[VDSO_COMPAT_MAX];
	size_t size = 0;
	int fds[2], status = -1, err = -ENOENT;
	ssize_t n;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		err = -errno;
		close(fds[0]);
		close(fds[1]);
		return err;
	}
	if (!pid) {
		close(fds[0]);
		child__dump_compat(fds[1]);
	}
	close(fds[1]);
	while (size < sizeof(image) &&
	       (n = read(fds[0], image + size, sizeof(image) - size)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		size += n;
	}
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	/* a kernel without compat tasks or CONFIG_CHECKPOINT_RESTORE: exit 2 */
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		err = elf32_image__build_id(image, size, bid);
	return err;
}
