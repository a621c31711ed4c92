// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fragment FILE SIZE: fragment free memory on purpose, for measuring
 * high-order allocation (latency-highorder) on a fragmented machine.  It
 * makes FILE a sparse file of SIZE bytes and reads one byte of every page
 * with readahead off (POSIX_FADV_RANDOM), so the page cache holds SIZE
 * bytes of clean order-0 pages (holes: no disk IO), then drops every other
 * page (POSIX_FADV_DONTNEED on odd pages): half is free again, but in
 * single pages between cached ones.  The cache stays after it exits;
 * removing FILE, dropping caches or compaction undo it.  Reclaimable page
 * cache only: it never takes memory the kernel cannot get back.
 */
#include <config.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/parse.h"

int main(int argc, char **argv)
{
	uint64_t size, off, page = (uint64_t)sysconf(_SC_PAGESIZE), n = 0;
	char byte;
	int fd, r;

	set_progname(argv[0]);
	if (argc != 3 || parse_size(argv[2], &size) || size < 2 * page)
		die(EXIT_USAGE, "usage: fragment FILE SIZE (e.g. 16G)");
	fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		die_errno(EXIT_RUN_FAILED, "cannot create '%s'", argv[1]);
	if (ftruncate(fd, (off_t)size))
		die_errno(EXIT_RUN_FAILED, "cannot size '%s'", argv[1]);
	r = posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
	if (r)
		die_err(EXIT_RUN_FAILED, r, "posix_fadvise RANDOM");
	for (off = 0; off + page <= size; off += page)
		if (pread(fd, &byte, 1, (off_t)off) != 1)
			die_errno(EXIT_RUN_FAILED, "cannot read '%s'", argv[1]);
	for (off = page; off + page <= size; off += 2 * page, n++) {
		r = posix_fadvise(fd, (off_t)off, (off_t)page,
				  POSIX_FADV_DONTNEED);
		if (r)
			die_err(EXIT_RUN_FAILED, r, "posix_fadvise DONTNEED");
	}
	printf("cached_pages=%llu dropped_pages=%llu\n",
	       (unsigned long long)(size / page), (unsigned long long)n);
	if (close(fd))
		die_errno(EXIT_RUN_FAILED, "cannot close '%s'", argv[1]);
	return EXIT_OK;
}
