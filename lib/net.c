// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The servers' shared networking: the listener, addresses as text, the
 * port file, and the connection threads of an accept loop (lib/net.h).
 */
#include <config.h>

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lib/net.h"
#include "lib/output.h"
#include "lib/parse.h"

int net_listen(const char *addr, int type, int flags, int *fd, char *bound,
	       const char **what)
{
	struct addrinfo hints = { .ai_socktype = type,
				  .ai_flags = AI_PASSIVE | AI_NUMERICSERV };
	struct addrinfo *ai = NULL;
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char host[256], port[16];
	int one = 1, s, r = 0;

	*what = "resolve";
	if (split_host_port(addr, host, sizeof(host), port, sizeof(port)) ||
	    getaddrinfo(host, port, &hints, &ai) || !ai)
		return -EINVAL;
	*what = "bind";
	s = socket(ai->ai_family, type | flags | SOCK_CLOEXEC, 0);
	if (s < 0 ||
	    setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(s, ai->ai_addr, ai->ai_addrlen) ||
	    (type == SOCK_STREAM && listen(s, SOMAXCONN)) ||
	    getsockname(s, (struct sockaddr *)&ss, &sl))
		r = -errno;
	freeaddrinfo(ai);
	if (r) {
		if (s >= 0)
			(void)close(s); /* never used */
		return r;
	}
	net_addr_name((struct sockaddr *)&ss, sl, bound, NET_ADDR_MAX);
	*fd = s;
	return 0;
}

void net_addr_name(const struct sockaddr *sa, socklen_t len, char *buf,
		   size_t n)
{
	char host[INET6_ADDRSTRLEN] = "?";
	unsigned port = 0;

	if (sa->sa_family == AF_INET6 &&
	    len >= (socklen_t)sizeof(struct sockaddr_in6)) {
		const struct sockaddr_in6 *a = (const void *)sa;

		inet_ntop(AF_INET6, &a->sin6_addr, host, sizeof(host));
		snprintf(buf, n, "[%s]:%u", host, ntohs(a->sin6_port));
		return;
	}
	if (sa->sa_family == AF_INET &&
	    len >= (socklen_t)sizeof(struct sockaddr_in)) {
		const struct sockaddr_in *a = (const void *)sa;

		inet_ntop(AF_INET, &a->sin_addr, host, sizeof(host));
		port = ntohs(a->sin_port);
	}
	snprintf(buf, n, "%s:%u", host, port);
}

void net_peer_name(int fd, char *buf, size_t n)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);

	if (getpeername(fd, (struct sockaddr *)&ss, &sl))
		snprintf(buf, n, "a peer");
	else
		net_addr_name((struct sockaddr *)&ss, sl, buf, n);
}

int net_write_port_file(const char *path, const char *addr)
{
	const char *colon = strrchr(addr, ':');
	struct atomic_file af;
	int r;

	if (!colon)
		return -EINVAL;
	r = atomic_open(&af, path);
	if (r)
		return r;
	fprintf(af.f, "%s\n", colon + 1);
	r = atomic_commit(&af);
	if (r)
		atomic_abort(&af);
	return r;
}

int net_conn_start(struct net_conns *l, struct net_conn *c, int fd,
		   void *(*fn)(void *))
{
	sigset_t all, old;
	int r;

	c->fd = fd;
	atomic_init(&c->done, false);
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	r = pthread_create(&c->tid, NULL, fn, c);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (r)
		return -r;
	c->next = l->head;
	l->head = c;
	l->n++;
	return 0;
}

void net_conn_done(struct net_conn *c)
{
	atomic_store(&c->done, true);
}

size_t net_conns_reap(struct net_conns *l, bool all,
		      void (*release)(struct net_conn *c, void *arg), void *arg)
{
	struct net_conn **pp = &l->head;
	size_t n = 0;

	while (*pp) {
		struct net_conn *c = *pp;

		if (!all && !atomic_load(&c->done)) {
			pp = &c->next;
			continue;
		}
		pthread_join(c->tid, NULL);
		*pp = c->next;
		l->n--;
		n++;
		release(c, arg);
	}
	return n;
}

void net_conns_shutdown(struct net_conns *l)
{
	for (struct net_conn *c = l->head; c; c = c->next)
		if (!atomic_load(&c->done))
			(void)shutdown(c->fd, SHUT_RDWR); /* a wake-up only */
}
