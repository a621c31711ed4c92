// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: fake-music's client (fakemusic/client.c) on any bytes
 * a server may send, from its hello on: the listing, then the files whole
 * or as librsync deltas (the bytes the client hands to librsync, applied
 * to a basis).  client_run() pulls into a new directory under FUZZ_TMPDIR
 * holding the old Album/03.mp3 of tests/fuzz/music-folder.h (the basis of
 * the delta seed); its connect hook hands it one end of a socketpair, and
 * a thread plays the server on the other end: it writes the input, shuts
 * that end for writing and keeps what the client says.  Beyond "no crash,
 * no sanitizer report, no leak" it checks the client's promises: it ends
 * with 0 or a one-line printable error; it said HELLO, LIST, then GETs,
 * each delta request followed by its signature, in whole frames; it wrote
 * nothing outside its destination and left there only the files it asked
 * for (no partial file); and it closed every descriptor it opened.
 * Built and run by `make fuzz`.
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/xalloc.h"
#include "fakemusic/fake-music.h"
#include "tests/fuzz/fuzz.h"
#include "tests/fuzz/music-folder.h"

/* The server's side of one run: the input out, the client's words in. */
static struct peer {
	pthread_t tid;
	int fd;
	const uint8_t *data;
	size_t size;
	unsigned char *said;
	size_t said_len, said_cap;
	unsigned connects;
} peer;

static void *play_server(void *arg)
{
	struct peer *p = arg;
	struct pollfd pfd = { .fd = p->fd };
	size_t sent = 0;
	ssize_t n;

	if (!p->size)
		CHECK(!shutdown(p->fd, SHUT_WR));
	for (;;) {
		pfd.events = POLLIN | (sent < p->size ? POLLOUT : 0);
		CHECK(poll(&pfd, 1, -1) > 0);
		if (sent < p->size && (pfd.revents & POLLOUT)) {
			n = send(p->fd, p->data + sent, p->size - sent,
				 MSG_DONTWAIT | MSG_NOSIGNAL);
			/* The client may hang up before it read it all. */
			if (n < 0 && (errno == EPIPE || errno == ECONNRESET))
				n = (ssize_t)(p->size - sent);
			CHECK(n > 0 || errno == EAGAIN);
			sent += n > 0 ? (size_t)n : 0;
			if (sent == p->size)
				CHECK(!shutdown(p->fd, SHUT_WR));
		}
		if (!(pfd.revents & (POLLIN | POLLHUP | POLLERR)))
			continue;
		if (p->said_cap - p->said_len < 4096) {
			p->said_cap = 2 * p->said_cap + 4096;
			p->said = xrealloc(p->said, p->said_cap);
		}
		n = recv(p->fd, p->said + p->said_len,
			 p->said_cap - p->said_len, MSG_DONTWAIT);
		if (n == 0)
			break;
		CHECK(n > 0 || errno == EAGAIN);
		p->said_len += n > 0 ? (size_t)n : 0;
	}
	return NULL;
}

/* The client's connect hook: one connection, to the input. */
static int connect_peer(struct client *cl)
{
	int sv[2];

	(void)cl;
	/* With no retries, a second connection would be a broken promise. */
	CHECK(peer.connects++ == 0);
	CHECK(!socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv));
	peer.fd = sv[1];
	CHECK(!pthread_create(&peer.tid, NULL, play_server, &peer));
	return sv[0];
}

/* Is NAME (LEN bytes) among the names the client asked for? */
static bool asked_for(const char *name, size_t len)
{
	const unsigned char *p = peer.said, *end = p + peer.said_len;
	uint8_t type;
	uint32_t n;

	for (; p < end; p += PROTO_HDR + n) {
		CHECK(!proto_get_header(p, &type, &n));
		if (type == MSG_GET && n == len + 1 &&
		    !memcmp(p + PROTO_HDR + 1, name, len))
			return true;
	}
	return false;
}

/* What the client said: whole frames, HELLO, LIST, then GETs. */
static void check_said(void)
{
	const unsigned char *p = peer.said, *end = p + peer.said_len;
	bool in_sig = false;
	uint8_t type;
	uint32_t n;
	unsigned k;

	for (k = 0; p < end; k++, p += PROTO_HDR + n) {
		CHECK(end - p >= PROTO_HDR);
		CHECK(!proto_get_header(p, &type, &n));
		CHECK((size_t)(end - p) >= PROTO_HDR + (size_t)n);
		if (k == 0) {
			CHECK(type == MSG_HELLO);
			CHECK(!proto_check_hello(p + PROTO_HDR, n));
		} else if (k == 1) {
			CHECK(type == MSG_LIST && n == 0);
		} else if (in_sig && type != MSG_GET) {
			CHECK(type == MSG_SIG || type == MSG_SIG_END);
			in_sig = type == MSG_SIG;
		} else {
			CHECK(!in_sig && type == MSG_GET && n >= 2);
			CHECK(p[PROTO_HDR] == GET_WHOLE ||
			      p[PROTO_HDR] == GET_DELTA);
			CHECK(proto_name_ok((const char *)p + PROTO_HDR + 1,
					    n - 1));
			in_sig = p[PROTO_HDR] == GET_DELTA;
		}
	}
}

static size_t run_len; /* of the run directory's path */

/* Only "dest", what was there before, and files the client asked for. */
static int check_entry(const char *path, const struct stat *st, int flag,
		       struct FTW *ftw)
{
	const char *rel = path + run_len + 1;

	if (ftw->level == 0)
		return 0;
	CHECK(!strncmp(rel, "dest", 4) && (!rel[4] || rel[4] == '/'));
	if (flag == FTW_D)
		return 0;
	CHECK(flag == FTW_F && S_ISREG(st->st_mode));
	rel += 5;
	CHECK(!strcmp(rel, "Album/03.mp3") || asked_for(rel, strlen(rel)));
	return 0;
}

static int remove_entry(const char *path, const struct stat *st, int flag,
			struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	CHECK(!remove(path));
	return 0;
}

static unsigned open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	unsigned n = 0;

	CHECK(d);
	while (readdir(d))
		n++;
	CHECK(!closedir(d));
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct client cl = { 0 };
	char run[512], dest[600];
	unsigned fds = open_fds();
	int r;

	set_progname("fuzz-music-client");
	delta_init();
	music_folder_dir(run, sizeof(run), "client");
	run_len = strlen(run);
	snprintf(dest, sizeof(dest), "%s/dest", run);
	CHECK(!mkdir(dest, 0755));
	music_folder_make(dest, false);

	peer = (struct peer){ .fd = -1, .data = data, .size = size };
	cl.host = "fuzz";
	cl.port = "0";
	cl.dest = dest;
	cl.connect = connect_peer;
	cl.dest_fd = dest_open(dest, cl.err, sizeof(cl.err));
	CHECK(cl.dest_fd >= 0);
	/* A line every KiB, to nowhere: the meter runs as in a pull. */
	meter_init(&cl.meter, -1, 1024);
	r = client_run(&cl);
	CHECK(peer.connects == 1);
	CHECK(!pthread_join(peer.tid, NULL));
	CHECK(!close(peer.fd));

	CHECK(r == 0 || r == -1);
	/* A message fake-music prints as one line, as it came. */
	CHECK(!r || cl.err[0]);
	for (const char *e = cl.err; r && *e; e++)
		CHECK((unsigned char)*e >= 0x20 && *e != 0x7f);
	check_said();
	CHECK(!nftw(run, check_entry, 16, FTW_PHYS));
	CHECK(!nftw(run, remove_entry, 16, FTW_DEPTH | FTW_PHYS));
	CHECK(open_fds() == fds);
	free(peer.said);
	return 0;
}
