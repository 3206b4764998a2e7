// SPDX-License-Identifier: GPL-2.0-only
#include <libelf.h>

int main(void)
{
	return elf_version(EV_CURRENT) == EV_NONE;
}
