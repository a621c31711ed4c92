// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fake-music-peer: the hostile peers fake-music's tests need, over real TCP
 * on 127.0.0.1.
 *
 *   fake-music-peer attack PORT [--until-closed] SPEC...
 *     idle:N               N connections that never send a byte
 *     hello:N              N that send a hello, then nothing
 *     noread:N:NAME        N that ask for NAME whole and never read
 *     sig:N:SIZE:NAME      N that ask for NAME as a delta and stream SIZE
 *                          bytes (in 256 KiB frames) of signature blocks,
 *                          never its end
 *   prints "ready" once every connection is made, every hello: answered
 *   and every signature sent or refused; then, at SIGTERM (with
 *   --until-closed: once the server has closed them all; after 2 minutes
 *   in any case), one line per kind, "KIND: open=N closed=M", and
 *   "KIND said: TEXT" for each ERROR text the server sent.
 *
 *   fake-music-peer liar PORT_FILE LISTED SENT
 *     a server for one client that lists track-01.mp3 with LISTED bytes and
 *     sends SENT (whole, or as a real librsync delta when asked for one).
 */
#include <config.h>

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/opt.h"
#include "lib/parse.h"
#include "lib/sig.h"
#include "lib/timing.h"
#include "lib/xalloc.h"

#include "fakemusic/fake-music.h"

#define SIG_FRAME (256 * 1024)
/* A test that failed half-way must not leave us behind for long. */
#define LIFETIME_NS (120ULL * NSEC_PER_SEC)

enum kind { IDLE, HELLO, NOREAD, SIG, KINDS };

static const char *const kind_names[KINDS] = { "idle", "hello", "noread",
					       "sig" };

struct peer {
	enum kind kind;
	int fd;
	bool closed;
	bool greeted;  /* its hello was answered */
	uint64_t left; /* SIG: bytes of frames still to send */
	size_t off;    /* SIG: into the current frame */
	size_t have;   /* bytes in IN */
	unsigned char in[600];
	char said[300];
};

static struct peer *peers;
static size_t npeers;
/* One SIG frame, sent again and again: identical blocks are fine. */
static unsigned char sig_frame[PROTO_HDR + SIG_FRAME];

static int dial(uint16_t port)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_port = htons(port) };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)))
		die_errno(EXIT_RUN_FAILED, "cannot connect to port %u", port);
	return fd;
}

static void send_frame(int fd, uint8_t type, const void *p, size_t len)
{
	unsigned char buf[PROTO_HDR + 512];

	proto_put_header(buf, type, len);
	memcpy(buf + PROTO_HDR, p, len);
	if (write_all(fd, buf, PROTO_HDR + len))
		die_errno(EXIT_RUN_FAILED, "cannot send");
}

static void open_peer(enum kind k, uint16_t port, uint64_t size,
		      const char *name)
{
	struct peer *p = &peers[npeers++];
	unsigned char buf[512];

	*p = (struct peer){ .kind = k, .fd = dial(port) };
	if (k != IDLE)
		send_frame(p->fd, MSG_HELLO, buf, proto_hello(buf));
	if (k == NOREAD || k == SIG) {
		size_t n = strlen(name);

		buf[0] = k == SIG ? GET_DELTA : GET_WHOLE;
		memcpy(buf + 1, name, n);
		send_frame(p->fd, MSG_GET, buf, n + 1);
	}
	if (k == SIG) {
		/* BLAKE2 signature magic, 2 KiB blocks, 32-byte sums. */
		static const unsigned char head[12] = {
			0x72, 0x73, 0x01, 0x37, 0, 0, 8, 0, 0, 0, 0, 32,
		};

		send_frame(p->fd, MSG_SIG, head, sizeof(head));
		p->left =
			(size + SIG_FRAME - 1) / SIG_FRAME * sizeof(sig_frame);
	}
	if (fcntl(p->fd, F_SETFL, O_NONBLOCK))
		die_errno(EXIT_RUN_FAILED, "fcntl");
}

/* "KIND:N[:SIZE]:NAME" */
static void parse_spec(const char *spec, uint16_t port)
{
	char *copy = xstrdup(spec), *f[4] = { copy };
	uint64_t n, size = 0;
	int nf = 1, k;

	for (char *c = copy; *c && nf < 4; c++)
		if (*c == ':') {
			*c = '\0';
			f[nf++] = c + 1;
		}
	for (k = 0; k < KINDS && strcmp(f[0], kind_names[k]); k++)
		;
	if (k == KINDS || nf < 2 || parse_u64(f[1], &n) ||
	    nf != (k == SIG	 ? 4
		   : k == NOREAD ? 3
				 : 2) ||
	    (k == SIG && parse_size(f[2], &size)))
		die(EXIT_USAGE, "bad spec '%s'", spec);
	peers = xreallocarray(peers, npeers + n, sizeof(*peers));
	while (n--)
		open_peer((enum kind)k, port, size, f[nf - 1]);
	free(copy);
}

/* Keep the ERROR texts of what the server sends (small frames only). */
static void take_frames(struct peer *p)
{
	for (;;) {
		uint8_t type;
		uint32_t len;

		if (p->have < PROTO_HDR ||
		    proto_get_header(p->in, &type, &len) ||
		    len > sizeof(p->in) - PROTO_HDR) {
			if (p->have == sizeof(p->in))
				p->have = 0; /* not ours to understand */
			return;
		}
		if (p->have < PROTO_HDR + len)
			return;
		if (type == MSG_HELLO)
			p->greeted = true;
		if (type == MSG_ERROR && len < sizeof(p->said))
			snprintf(p->said, sizeof(p->said), "%.*s", (int)len,
				 (char *)p->in + PROTO_HDR);
		p->have -= PROTO_HDR + len;
		memmove(p->in, p->in + PROTO_HDR + len, p->have);
	}
}

static void on_event(struct peer *p, short ev)
{
	if (p->left && (ev & POLLOUT)) {
		size_t want = sizeof(sig_frame) - p->off;
		ssize_t n = send(p->fd, sig_frame + p->off, want, MSG_NOSIGNAL);

		if (n > 0) {
			p->left -= (uint64_t)n;
			p->off = (p->off + (size_t)n) % sizeof(sig_frame);
		} else if (errno != EAGAIN) {
			p->left = 0; /* the server cut it off */
		}
	}
	if (p->kind == NOREAD) {
		/* Never reads: a hang-up shows without reading. */
		p->closed = ev & (POLLRDHUP | POLLHUP | POLLERR);
	} else if (ev & POLLIN) {
		ssize_t n = recv(p->fd, p->in + p->have,
				 sizeof(p->in) - p->have, 0);

		if (n > 0) {
			p->have += (size_t)n;
			take_frames(p);
		} else if (n == 0 || errno != EAGAIN) {
			p->closed = true;
		}
	} else if (ev & (POLLHUP | POLLERR)) {
		p->closed = true;
	}
	if (p->closed) {
		p->left = 0;
		(void)close(p->fd); /* a socket */
	}
}

/* Still sending a signature, or waiting for the answer to a hello. */
static bool settling(void)
{
	for (size_t i = 0; i < npeers; i++)
		if (!peers[i].closed &&
		    (peers[i].left ||
		     (peers[i].kind == HELLO && !peers[i].greeted)))
			return true;
	return false;
}

/*
 * Serve the peers' sockets until SIGTERM or, when UNTIL_CLOSED, until the
 * server has closed them all; in any case no longer than LIFETIME_NS.
 */
static void loop(bool until_closed)
{
	struct pollfd *pfd = xcalloc(npeers, sizeof(*pfd));
	size_t *idx = xcalloc(npeers, sizeof(*idx));
	uint64_t end = mono_ns() + LIFETIME_NS;
	bool ready = false;

	for (;;) {
		size_t n = 0;

		if (!ready && !settling()) {
			printf("ready\n");
			fflush(stdout);
			ready = true;
		}
		for (size_t i = 0; i < npeers; i++) {
			short ev = POLLRDHUP;

			if (peers[i].closed)
				continue;
			if (peers[i].kind != NOREAD)
				ev |= POLLIN;
			if (peers[i].left)
				ev |= POLLOUT;
			idx[n] = i;
			pfd[n++] = (struct pollfd){ .fd = peers[i].fd,
						    .events = ev };
		}
		if (sig_stop || (until_closed && !n) || mono_ns() > end)
			break;
		if (poll(pfd, (nfds_t)n, 100) <= 0)
			continue;
		for (size_t k = 0; k < n; k++)
			if (pfd[k].revents)
				on_event(&peers[idx[k]], pfd[k].revents);
	}
	free(idx);
	free(pfd);
}

static void report(void)
{
	for (int k = 0; k < KINDS; k++) {
		size_t open = 0, closed = 0;

		for (size_t i = 0; i < npeers; i++)
			if (peers[i].kind == (enum kind)k)
				peers[i].closed ? closed++ : open++;
		if (open + closed)
			printf("%s: open=%zu closed=%zu\n", kind_names[k], open,
			       closed);
		for (size_t i = 0; i < npeers; i++) {
			bool seen = false;

			if (peers[i].kind != (enum kind)k || !peers[i].said[0])
				continue;
			for (size_t j = 0; j < i && !seen; j++)
				seen = peers[j].kind == (enum kind)k &&
				       !strcmp(peers[j].said, peers[i].said);
			if (!seen)
				printf("%s said: %s\n", kind_names[k],
				       peers[i].said);
		}
	}
}

static int attack(int argc, char **argv)
{
	bool until_closed = false;
	uint64_t port;
	int i = 1;

	if (argc < 2 || parse_u64(argv[0], &port) || !port || port > 65535)
		die(EXIT_USAGE, "usage: fake-music-peer attack PORT SPEC...");
	if (!strcmp(argv[1], "--until-closed")) {
		until_closed = true;
		i++;
	}
	proto_put_header(sig_frame, MSG_SIG, SIG_FRAME);
	for (size_t k = 0; k < SIG_FRAME; k++)
		sig_frame[PROTO_HDR + k] = (unsigned char)(k * 131 + 7);
	for (; i < argc; i++)
		parse_spec(argv[i], (uint16_t)port);
	loop(until_closed);
	report();
	return EXIT_OK;
}

/* ---- the liar ---- */

static int listen_any(const char *port_file)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t sl = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), cfd;
	char *tmp = xasprintf("%s.tmp", port_file);
	FILE *f;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) ||
	    listen(fd, 1) || getsockname(fd, (struct sockaddr *)&a, &sl))
		die_errno(EXIT_RUN_FAILED, "cannot listen");
	f = fopen(tmp, "w");
	if (!f || fprintf(f, "%u\n", ntohs(a.sin_port)) < 0 || fclose(f) ||
	    rename(tmp, port_file))
		die_errno(EXIT_RUN_FAILED, "cannot write '%s'", port_file);
	free(tmp);
	cfd = accept4(fd, NULL, NULL, SOCK_CLOEXEC);
	if (cfd < 0)
		die_errno(EXIT_RUN_FAILED, "accept");
	(void)close(fd); /* the listening socket */
	return cfd;
}

static void expect(struct conn *c, uint8_t want, unsigned char *buf, size_t cap,
		   size_t *len)
{
	uint8_t type;
	int r = conn_recv_msg(c, &type, buf, cap, len);

	if (r || type != want)
		die(EXIT_RUN_FAILED, "liar: unexpected message (%d)", r);
}

/* Send SENT bytes for an entry listed with LISTED; errors: the client quit. */
static int liar(int argc, char **argv)
{
	struct album a = { .seed = 1, .songs = 1 };
	struct sig_budget b = { NULL, UINT64_MAX, UINT64_MAX, 0 };
	atomic_uint_fast64_t held = 0;
	unsigned char buf[PROTO_NAME_MAX + 32];
	struct rs_signature *sig = NULL;
	uint8_t type;
	struct conn *c = xmalloc(sizeof(*c));
	const char *why = "";
	struct source src;
	struct reader rd;
	struct entry e;
	uint64_t listed;
	size_t len;

	if (argc != 3 || parse_size(argv[1], &listed) ||
	    parse_size(argv[2], &a.song_size) || !a.song_size)
		die(EXIT_USAGE, "usage: fake-music-peer liar PORT_FILE LISTED "
				"SENT");
	b.held = &held;
	conn_init(c, listen_any(argv[0]));
	expect(c, MSG_HELLO, buf, sizeof(buf), &len);
	(void)conn_send(c, MSG_HELLO, buf, proto_hello(buf), NULL, 0);
	expect(c, MSG_LIST, buf, sizeof(buf), &len);
	source_init_album(&src, &a);
	album_entry(&a, 0, &e);
	put_u64(buf, listed);
	put_u64(buf + 8, e.mtime_ns);
	(void)conn_send(c, MSG_ENTRY, buf, 16, e.name, strlen(e.name));
	(void)conn_send(c, MSG_LIST_END, NULL, 0, NULL, 0);
	expect(c, MSG_GET, buf, sizeof(buf), &len);
	if (source_open(&src, e.name, &rd))
		die(EXIT_RUN_FAILED, "liar: cannot open the song");
	if (buf[0] == GET_DELTA) {
		if (!delta_recv_sig(c, &b, &sig, &why))
			(void)delta_send(c, &rd, sig, 65536, &why);
		delta_free_sig(sig);
	} else {
		unsigned char *data = xmalloc(65536);
		uint64_t hash = FNV1A64_INIT;
		ssize_t n;

		while ((n = reader_read(&rd, data, 65536)) > 0 &&
		       !conn_send(c, MSG_DATA, data, (size_t)n, NULL, 0))
			hash = fnv1a64(hash, data, (size_t)n);
		if (!n)
			(void)proto_send_end(c, rd.off, hash);
		free(data);
	}
	/* Until the client hangs up: what it did is its own business. */
	while (conn_recv_msg(c, &type, buf, sizeof(buf), &len) != -ECONNRESET &&
	       !sig_stop)
		;
	free(e.name);
	free(c);
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	prog_init(argc, argv);
	if (sig_stop_install())
		die_errno(EXIT_RUN_FAILED, "cannot install signal handlers");
	if (argc >= 2 && !strcmp(argv[1], "attack"))
		return attack(argc - 2, argv + 2);
	if (argc >= 2 && !strcmp(argv[1], "liar"))
		return liar(argc - 2, argv + 2);
	die(EXIT_USAGE, "usage: fake-music-peer attack|liar ...");
}
