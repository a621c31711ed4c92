// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: fake-music's server (fakemusic/server.c) on any bytes
 * a client may send once its hello was taken: requests for the list and
 * for files, whole or as a delta against the librsync signature that
 * follows (the bytes the server hands to librsync).  The input goes down
 * one end of a socketpair, which is then shut for writing, and the server
 * serves the other end on this thread (server_serve_fd(), what a
 * connection thread runs) from a small folder made once in a temporary
 * directory (tests/fuzz/music-folder.h); a second thread reads what it
 * answers.  Beyond "no crash, no sanitizer report" it checks the server's
 * promises: it answers whole frames of the types a server sends, HELLO
 * first; it ends with 0 or an error of the protocol, the path check or the
 * signature budget; and every signature's memory is given back.
 * Built and run by `make fuzz`.
 */
#include <config.h>

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "lib/err.h"
#include "fakemusic/fake-music.h"
#include "tests/fuzz/fuzz.h"
#include "tests/fuzz/music-folder.h"

static struct source src;
static struct server srv;
static struct conn answer; /* 64 KiB of buffer: not on the stack */

static void setup(void)
{
	static char dir[64];

	set_progname("fuzz-music-server");
	delta_init();
	music_folder_dir(dir, sizeof(dir), "server");
	music_folder_make(dir, true);
	CHECK(source_init_dir(&src, dir) == 0);
	srv.src = &src;
	srv.max_clients = 1;
	srv.sig_memory = SERVER_SIG_MEMORY;
	srv.lfd = -1;
	atomic_init(&srv.stop, false);
	atomic_init(&srv.sig_held, 0);
	atomic_init(&srv.n_files, 0);
	atomic_init(&srv.n_deltas, 0);
}

/* The client's side: read the answer frame by frame to its end. */
static void *read_answer(void *arg)
{
	uint8_t type;
	uint32_t len;
	int r, n;

	conn_init(&answer, *(int *)arg);
	for (n = 0;; n++) {
		r = conn_recv_header(&answer, &type, &len);
		if (r)
			break;
		CHECK(n || type == MSG_HELLO);
		CHECK(type == MSG_HELLO || type == MSG_ENTRY ||
		      type == MSG_LIST_END || type == MSG_DATA ||
		      type == MSG_DELTA || type == MSG_END ||
		      type == MSG_ERROR);
		r = conn_skip(&answer, len);
		CHECK(r == 0);
	}
	/* Whole frames only, up to the end. */
	CHECK(r == -ECONNRESET);
	CHECK(n > 0);
	return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *why = "";
	pthread_t reader;
	int sv[2], r;

	if (!srv.src)
		setup();
	CHECK(!socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv));
	/* Fuzz inputs stay far below the socket buffer: one write fits. */
	CHECK(write_all(sv[1], data, size) == 0);
	CHECK(!shutdown(sv[1], SHUT_WR));
	CHECK(!pthread_create(&reader, NULL, read_answer, &sv[1]));
	r = server_serve_fd(&srv, sv[0], &why);
	CHECK(!shutdown(sv[0], SHUT_WR));
	CHECK(!pthread_join(reader, NULL));
	CHECK(r == 0 || r == -ECONNRESET || r == -EPROTO || r == -EMSGSIZE ||
	      r == -EACCES || r == -ENOMEM);
	CHECK(atomic_load(&srv.sig_held) == 0);
	close(sv[0]);
	close(sv[1]);
	return 0;
}
