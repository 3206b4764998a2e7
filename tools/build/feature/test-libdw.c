// SPDX-License-Identifier: GPL-2.0-only
#include <elfutils/libdwfl.h>

int main(void)
{
	Dwfl *dwfl = dwfl_begin(NULL);

	return dwfl != NULL;
}
