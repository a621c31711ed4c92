/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The small folder fake-music's server and client fuzz targets share with
 * their seeds (tests/fuzz/corpus/music-server, music-client), which were
 * recorded between the real client and server over this folder:
 * Album/01.mp3 (3000 bytes), Album/02.mp3 (1000), Album/empty (0) and
 * Album/03.mp3, whose old version (4000 bytes) the client holds and whose
 * new one (100 bytes changed, 50 appended) the server serves, so a pull
 * of it goes as a delta.
 */
#ifndef TESTS_FUZZ_MUSIC_FOLDER_H
#define TESTS_FUZZ_MUSIC_FOLDER_H

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/err.h"
#include "tests/fuzz/fuzz.h"

/* Write SIZE bytes of pattern MUL to DIR/NAME (Album/03.mp3: NEW or old). */
static inline void music_folder_file(const char *dir, const char *name,
				     size_t size, unsigned mul, bool new03)
{
	static unsigned char buf[4096];
	char path[512];
	size_t i;
	int fd;

	CHECK(size <= sizeof(buf));
	for (i = 0; i < size; i++)
		buf[i] = (unsigned char)(i * mul % 251);
	if (new03) {
		memset(buf + 1000, 'x', 100);
		memset(buf + size - 50, 'y', 50);
	}
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	CHECK(fd >= 0);
	CHECK(write_all(fd, buf, size) == 0);
	CHECK(close(fd) == 0);
}

/*
 * Fill DIR (existing) as the server's folder (SERVED) or as the client's
 * destination before a pull: only the old Album/03.mp3.
 */
static inline void music_folder_make(const char *dir, bool served)
{
	char album[512];

	snprintf(album, sizeof(album), "%s/Album", dir);
	CHECK(!mkdir(album, 0755));
	if (served) {
		music_folder_file(dir, "Album/01.mp3", 3000, 7, false);
		music_folder_file(dir, "Album/02.mp3", 1000, 11, false);
		music_folder_file(dir, "Album/empty", 0, 1, false);
		music_folder_file(dir, "Album/03.mp3", 4050, 13, true);
	} else {
		music_folder_file(dir, "Album/03.mp3", 4000, 13, false);
	}
}

/* A new empty directory for the folder, in memory where there is one. */
static inline void music_folder_dir(char *dir, size_t len, const char *what)
{
	const char *base = fuzz_tmp_base();

	snprintf(dir, len, "%s/fuzz-music-%s.XXXXXX", base, what);
	CHECK(mkdtemp(dir));
}

#endif
