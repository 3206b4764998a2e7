// SPDX-License-Identifier: GPL-2.0-only
/*
 * Ground truth for the module experiment, in the guest: LEN bytes at ADDR
 * from /proc/kcore, printed as hex, the read bracketed by two renames of
 * this task (prctl(PR_SET_NAME) "gt-before", "gt-after"), whose COMM
 * records put the read on perf's clock in the recording.  Raw ELF
 * program headers, no code shared with the tool it checks.
 *
 * Usage: kcore-read ADDR LEN
 */
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	unsigned long long addr, len;
	unsigned char *buf;
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	int fd, i, found = 0;

	if (argc != 3)
		return 2;
	addr = strtoull(argv[1], NULL, 16);
	len = strtoull(argv[2], NULL, 0);
	buf = malloc(len);
	fd = open("/proc/kcore", O_RDONLY);
	if (!buf || fd < 0 || pread(fd, &eh, sizeof(eh), 0) != sizeof(eh))
		return 1;
	prctl(PR_SET_NAME, "gt-before");
	for (i = 0; i < eh.e_phnum && !found; i++) {
		if (pread(fd, &ph, sizeof(ph), eh.e_phoff + i * sizeof(ph)) != sizeof(ph))
			return 1;
		if (ph.p_type != PT_LOAD || addr < ph.p_vaddr ||
		    addr + len > ph.p_vaddr + ph.p_filesz)
			continue;
		if (pread(fd, buf, len, ph.p_offset + (addr - ph.p_vaddr)) != (ssize_t)len)
			return 1;
		found = 1;
	}
	prctl(PR_SET_NAME, "gt-after");
	if (!found)
		return 1;
	for (unsigned long long k = 0; k < len; k++)
		printf("%02x%s", buf[k], k + 1 < len ? " " : "\n");
	return 0;
}
