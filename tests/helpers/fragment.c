// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fragment FILE SIZE: fragment free memory on purpose, for measuring
 * high-order allocation (latency-highorder) on a fragmented machine.  It
 * makes FILE a sparse file of SIZE bytes, maps it and touches every page
 * with readahead off (MADV_RANDOM), so the page cache holds SIZE bytes of
 * clean order-0 pages (holes: no disk IO), then drops every other page
 * (unmapped with MADV_DONTNEED, then POSIX_FADV_DONTNEED): half is free
 * again, in single pages between cached ones.  It keeps the other half
 * mapped, so a drop_caches elsewhere does not undo it, until SIGTERM or
 * SIGINT; then it removes FILE.  Clean page cache only: the kernel can
 * still reclaim all of it.
 */
#include <config.h>

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/parse.h"

static void on_stop(int sig)
{
	(void)sig;
}

int main(int argc, char **argv)
{
	uint64_t size, off, page = (uint64_t)sysconf(_SC_PAGESIZE), n = 0;
	struct sigaction sa = { .sa_handler = on_stop };
	sigset_t block, old;
	char *map;
	int fd, r;

	set_progname(argv[0]);
	if (argc != 3 || parse_size(argv[2], &size) || size < 2 * page)
		die(EXIT_USAGE, "usage: fragment FILE SIZE (e.g. 16G)");
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	if (sigprocmask(SIG_BLOCK, &block, &old) ||
	    sigaction(SIGTERM, &sa, NULL) || sigaction(SIGINT, &sa, NULL))
		die_errno(EXIT_RUN_FAILED, "cannot handle signals");
	fd = open(argv[1], O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		die_errno(EXIT_RUN_FAILED, "cannot create '%s'", argv[1]);
	size -= size % page;
	if (ftruncate(fd, (off_t)size))
		die_errno(EXIT_RUN_FAILED, "cannot size '%s'", argv[1]);
	map = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED || madvise(map, size, MADV_RANDOM))
		die_errno(EXIT_RUN_FAILED, "cannot map '%s'", argv[1]);
	/* A volatile read faults each page in. */
	for (off = 0; off < size; off += page)
		(void)*(volatile const char *)(map + off);
	for (off = page; off < size; off += 2 * page, n++) {
		if (madvise(map + off, page, MADV_DONTNEED))
			die_errno(EXIT_RUN_FAILED, "madvise DONTNEED");
		r = posix_fadvise(fd, (off_t)off, (off_t)page,
				  POSIX_FADV_DONTNEED);
		if (r)
			die_err(EXIT_RUN_FAILED, r, "posix_fadvise DONTNEED");
	}
	printf("fragmented=1 cached_pages=%llu dropped_pages=%llu\n",
	       (unsigned long long)(size / page), (unsigned long long)n);
	if (fflush(stdout))
		die_errno(EXIT_RUN_FAILED, "write error");
	(void)sigsuspend(&old); /* returns on SIGTERM or SIGINT */
	if (unlink(argv[1]))
		die_errno(EXIT_RUN_FAILED, "cannot remove '%s'", argv[1]);
	return EXIT_OK;
}
