// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dir-sampler DIR INTERVAL_MS: every INTERVAL_MS (on absolute
 * CLOCK_MONOTONIC deadlines) print "<ns> <bytes>", the total size of the
 * regular files directly in DIR, hidden ones included (rsync's and
 * fake-music's partial files), until SIGINT/SIGTERM.  The benchmarks use it
 * to watch how evenly a transfer lands on disk, the same way for every tool.
 */
#include <config.h>

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/err.h"
#include "lib/opt.h"
#include "lib/parse.h"
#include "lib/sig.h"
#include "lib/timing.h"

static unsigned long long dir_bytes(const char *path)
{
	unsigned long long sum = 0;
	struct dirent *de;
	DIR *d = opendir(path);

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		struct stat st;

		if (!fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) &&
		    S_ISREG(st.st_mode))
			sum += (unsigned long long)st.st_size;
	}
	closedir(d);
	return sum;
}

int main(int argc, char **argv)
{
	uint64_t ms, next;

	prog_init(argc, argv);
	if (argc != 3 || parse_u64(argv[2], &ms) || !ms)
		die(EXIT_USAGE, "usage: dir-sampler DIR INTERVAL_MS");
	if (sig_stop_install())
		die_errno(EXIT_RUN_FAILED, "cannot install signal handlers");
	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	next = mono_ns();
	while (!sig_stop) {
		printf("%llu %llu\n", (unsigned long long)mono_ns(),
		       dir_bytes(argv[1]));
		next += ms * NSEC_PER_MSEC;
		if (sleep_until_ns(next, &sig_stop))
			break;
	}
	return EXIT_OK;
}
