// SPDX-License-Identifier: GPL-2.0-only
#include <stddef.h>
#include <libunwind.h>

int main(void)
{
	unw_addr_space_t as = unw_create_addr_space(NULL, 0);

	return as != NULL;
}
