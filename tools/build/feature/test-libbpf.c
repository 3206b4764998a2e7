// SPDX-License-Identifier: GPL-2.0-only
#include <bpf/bpf.h>

int main(void)
{
	return bpf_prog_get_fd_by_id(0) >= 0;
}
