// SPDX-License-Identifier: GPL-2.0-only
#include <signal.h>
#include <string.h>

#include "interrupt.h"

static volatile sig_atomic_t interrupted;

static void interrupt__note(int sig)
{
	/* the first one counts: a second Ctrl-C while cleaning up is the same request */
	if (!interrupted)
		interrupted = sig;
}

void interrupt__install(void)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = interrupt__note;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

int interrupt__pending(void)
{
	return interrupted;
}

void interrupt__reraise(void)
{
	int sig = interrupted;

	if (!sig)
		return;
	signal(sig, SIG_DFL);
	raise(sig);
}
