// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for lib/net on real sockets of 127.0.0.1: the listener and
 * the address it reports, peers' names, the port file, and an accept
 * loop's connection threads, reaped when done and all at the end.
 */
#include <config.h>

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/net.h"
#include "lib/parse.h"
#include "tests/tap.h"

/* The port of "HOST:PORT" as a number, 0 when there is none. */
static unsigned port_of(const char *addr)
{
	const char *colon = strrchr(addr, ':');
	uint64_t v;

	return colon && !parse_u64(colon + 1, &v) && v < 65536 ? (unsigned)v
							       : 0;
}

static void names(void)
{
	struct sockaddr_in a4 = { .sin_family = AF_INET,
				  .sin_port = htons(8730) };
	struct sockaddr_in6 a6 = { .sin6_family = AF_INET6,
				   .sin6_port = htons(80) };
	struct sockaddr_un_like {
		sa_family_t family;
		char path[20];
	} other = { AF_UNIX, "x" };
	char buf[NET_ADDR_MAX], tiny[8];

	inet_pton(AF_INET, "10.0.0.1", &a4.sin_addr);
	inet_pton(AF_INET6, "::1", &a6.sin6_addr);
	net_addr_name((struct sockaddr *)&a4, sizeof(a4), buf, sizeof(buf));
	is_str(buf, "10.0.0.1:8730", "an IPv4 address and port");
	net_addr_name((struct sockaddr *)&a6, sizeof(a6), buf, sizeof(buf));
	is_str(buf, "[::1]:80", "IPv6 in brackets, so the port stays apart");
	net_addr_name((struct sockaddr *)&other, sizeof(other), buf,
		      sizeof(buf));
	is_str(buf, "?:0", "an unknown family");
	net_addr_name((struct sockaddr *)&a4, sizeof(a4), tiny, sizeof(tiny));
	is_str(tiny, "10.0.0.", "cut to the buffer, terminated");
	net_peer_name(-1, buf, sizeof(buf));
	is_str(buf, "a peer", "no peer to name");
}

static void bad_addresses(void)
{
	static const char *const bad[] = { "127.0.0.1", "127.0.0.1:70000",
					   "127.0.0.1:x", "[::1:80",
					   "1.2.3.4.5:80" };
	const char *what;
	char bound[NET_ADDR_MAX];
	int fd = -1;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		is_int(net_listen(bad[i], SOCK_STREAM, 0, &fd, bound, &what),
		       -EINVAL, "'%s' is refused", bad[i]);
		is_str(what, "resolve", "at the resolve step (%s)", bad[i]);
	}
	is_int(fd, -1, "no descriptor was stored");
}

/* Listen, connect, accept: the names each side sees agree. */
static void listen_connect(void)
{
	struct sockaddr_in to = { .sin_family = AF_INET };
	struct sockaddr_storage me;
	socklen_t ml = sizeof(me);
	char bound[NET_ADDR_MAX], peer[NET_ADDR_MAX], mine[NET_ADDR_MAX];
	const char *what = "";
	int lfd, cfd, afd, busy, e;

	e = net_listen("127.0.0.1:0", SOCK_STREAM, SOCK_NONBLOCK, &lfd, bound,
		       &what);
	if (e)
		skip_all("cannot listen on 127.0.0.1");
	ok(!strncmp(bound, "127.0.0.1:", 10) && port_of(bound) > 0,
	   "bound to 127.0.0.1 and a free port (%s)", bound);
	to.sin_port = htons((uint16_t)port_of(bound));
	inet_pton(AF_INET, "127.0.0.1", &to.sin_addr);
	cfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	ok(cfd >= 0 && !connect(cfd, (struct sockaddr *)&to, sizeof(to)),
	   "a client connects to it");
	afd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	ok(afd >= 0, "and the listener accepts it");
	getsockname(cfd, (struct sockaddr *)&me, &ml);
	net_addr_name((struct sockaddr *)&me, ml, mine, sizeof(mine));
	net_peer_name(afd, peer, sizeof(peer));
	is_str(peer, mine, "the server names the client as the client is");
	net_peer_name(cfd, peer, sizeof(peer));
	is_str(peer, bound, "and the client names the server as bound");
	is_int(net_listen(bound, SOCK_STREAM, 0, &busy, mine, &what),
	       -EADDRINUSE, "the same port again is in use");
	is_str(what, "bind", "at the bind step");
	close(afd);
	close(cfd);
	close(lfd);

	e = net_listen("127.0.0.1:0", SOCK_DGRAM, 0, &lfd, bound, &what);
	is_int(e, 0, "a datagram socket binds too (%s)", bound);
	if (!e)
		close(lfd);
}

static void port_file(void)
{
	char dir[] = "/tmp/test-net.XXXXXX", path[64], buf[16];

	if (!mkdtemp(dir))
		skip_all("cannot make a temporary directory");
	snprintf(path, sizeof(path), "%s/port", dir);
	is_int(net_write_port_file(path, "[::1]:34567"), 0,
	       "the port file is written");
	is_int((int)read_small_file(path, buf, sizeof(buf)), 6,
	       "the port and a newline, nothing else");
	is_str(buf, "34567\n", "the digits after the last colon");
	is_int(net_write_port_file(path, "no port"), -EINVAL,
	       "an address without a port is refused");
	unlink(path);
	rmdir(dir);
}

/* A connection thread: reads until its peer closes or it is shut down. */
struct test_conn {
	int peer; /* the other end, kept by the test */
	struct net_conn nc;
	int released;
};

static void *serve(void *arg)
{
	struct net_conn *c = arg;
	char b;

	while (read(c->fd, &b, 1) > 0)
		;
	net_conn_done(c);
	return NULL;
}

static void release(struct net_conn *c, void *arg)
{
	struct test_conn *t = NET_CONN_OF(c, struct test_conn, nc);

	close(c->fd);
	t->released++;
	(*(int *)arg)++;
}

static void conns(void)
{
	struct net_conns l = { 0 };
	struct test_conn t[3];
	int released = 0, i, sv[2];

	for (i = 0; i < 3; i++) {
		memset(&t[i], 0, sizeof(t[i]));
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
			skip_all("socketpair() failed");
		t[i].peer = sv[1];
		is_int(net_conn_start(&l, &t[i].nc, sv[0], serve), 0,
		       "connection %d started", i);
	}
	is_int((int)l.n, 3, "three connections listed");
	/* The first one's peer leaves: its thread ends, and only it goes. */
	close(t[0].peer);
	while (!atomic_load(&t[0].nc.done))
		usleep(1000);
	is_int((int)net_conns_reap(&l, false, release, &released), 1,
	       "a pass reaps the one that finished");
	ok(t[0].released == 1 && !t[1].released && !t[2].released,
	   "that one, released once");
	is_int((int)l.n, 2, "two left");
	/* The end: the others are woken and joined. */
	net_conns_shutdown(&l);
	is_int((int)net_conns_reap(&l, true, release, &released), 2,
	       "the last pass joins the rest");
	ok(l.head == NULL && l.n == 0 && released == 3, "none left");
	close(t[1].peer);
	close(t[2].peer);
}

int main(void)
{
	names();
	bad_addresses();
	listen_connect();
	port_file();
	conns();
	return done_testing();
}
