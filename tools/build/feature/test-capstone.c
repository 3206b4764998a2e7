// SPDX-License-Identifier: GPL-2.0-only
#include <capstone/capstone.h>

int main(void)
{
	csh handle;

	return cs_open(CS_ARCH_X86, CS_MODE_64, &handle) != CS_ERR_OK;
}
