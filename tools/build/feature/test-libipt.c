// SPDX-License-Identifier: GPL-2.0-only
#include <intel-pt.h>

int main(void)
{
	struct pt_config config;

	pt_config_init(&config);
	return pt_library_version().major == 0;
}
