// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * spawn_wait(): posix_spawnp and waitpid, so that a program that cannot be
 * found is an error code of the caller's, not a message from a forked copy.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/spawn.h"

extern char **environ;

int spawn_wait(char *const argv[], int flags)
{
	return spawn_wait_in(NULL, argv, flags);
}

int spawn_wait_in(const char *dir, char *const argv[], int flags)
{
	posix_spawn_file_actions_t fa;
	int r, status;
	pid_t pid;

	/* What we wrote so far comes before what the child writes. */
	(void)fflush(NULL);
	r = posix_spawn_file_actions_init(&fa);
	if (r)
		return -r;
	if (dir)
		r = posix_spawn_file_actions_addchdir_np(&fa, dir);
	if (!r && (flags & SPAWN_QUIET))
		r = posix_spawn_file_actions_addopen(&fa, STDERR_FILENO,
						     "/dev/null", O_WRONLY, 0);
	if (!r && (flags & SPAWN_OUT_TO_ERR))
		r = posix_spawn_file_actions_adddup2(&fa, STDERR_FILENO,
						     STDOUT_FILENO);
	if (!r)
		r = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (r)
		return -r;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

int spawn_machine(char *const args[], int flags)
{
	const char *prog = getenv("LATENCY_MACHINE");
	char *argv[8];
	int i;

	argv[0] = (char *)(prog && *prog ? prog : "latency-machine");
	for (i = 0; args[i] && i < 6; i++)
		argv[i + 1] = args[i];
	argv[i + 1] = NULL;
	return spawn_wait(argv, flags);
}
