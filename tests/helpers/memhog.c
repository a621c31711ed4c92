// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * memhog FILE SIZE [PASSES]: write SIZE bytes to FILE, then read it back
 * PASSES times (default 2).  Run inside a memory cgroup whose limit is
 * below SIZE, it makes the cgroup reclaim its own page cache over and over,
 * which is what latency-trace's test needs to see reclaim tracepoints fire,
 * without anonymous memory, swap or an OOM kill.  The file is written back
 * every FLUSH bytes as it is written: a cgroup v1 memory controller does
 * not throttle a writer on its dirty pages, and a cgroup full of dirty
 * page cache it cannot reclaim ends in an OOM kill.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/opt.h"

#define CHUNK (1U << 20)
#define FLUSH (4U * CHUNK)

int main(int argc, char **argv)
{
	static char buf[CHUNK];
	uint64_t size, passes = 2, done, p;
	ssize_t n;
	int fd;

	prog_init(argc, argv);
	if (argc < 3 || argc > 4)
		usage_error("usage: memhog FILE SIZE [PASSES]");
	size = opt_size("SIZE", argv[2], 1);
	if (argc == 4)
		passes = opt_u64("PASSES", argv[3], 0, 1000);
	memset(buf, 0x5a, sizeof(buf));
	fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		die_errno(EXIT_RUN_FAILED, "cannot open '%s'", argv[1]);
	for (done = 0; done < size; done += CHUNK) {
		size_t len = size - done < CHUNK ? size - done : CHUNK;
		int r = write_all(fd, buf, len);

		if (r)
			die_err(EXIT_RUN_FAILED, -r, "cannot write '%s'",
				argv[1]);
		if ((done + len) % FLUSH == 0 && fdatasync(fd))
			die_errno(EXIT_RUN_FAILED, "cannot write back '%s'",
				  argv[1]);
	}
	for (p = 0; p < passes; p++) {
		if (lseek(fd, 0, SEEK_SET))
			die_errno(EXIT_RUN_FAILED, "cannot seek '%s'", argv[1]);
		do {
			n = read_full(fd, buf, CHUNK);
			if (n < 0)
				die_err(EXIT_RUN_FAILED, (int)-n,
					"cannot read '%s'", argv[1]);
		} while (n == CHUNK);
	}
	if (close(fd))
		die_errno(EXIT_RUN_FAILED, "cannot close '%s'", argv[1]);
	return EXIT_OK;
}
