// SPDX-License-Identifier: GPL-2.0-or-later
/* Stop-signal recording; see sig.h. */
#include <config.h>

#include <errno.h>
#include <string.h>

#include "lib/sig.h"

volatile sig_atomic_t sig_stop;

static void on_stop(int signo)
{
	if (!sig_stop)
		sig_stop = signo;
}

int sig_stop_install(void)
{
	static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		if (sigaction(stop_signals[i], &sa, NULL))
			return -errno;
	sa.sa_handler = SIG_IGN;
	if (sigaction(SIGPIPE, &sa, NULL))
		return -errno;
	return 0;
}
