// SPDX-License-Identifier: GPL-2.0-only
#include <traceevent/event-parse.h>

int main(void)
{
	struct tep_handle *tep = tep_alloc();

	tep_free(tep);
	return 0;
}
