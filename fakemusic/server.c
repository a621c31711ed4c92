// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The server: one thread per connection, so a client that reads slowly
 * (its own pacing) blocks only its own sender.  A connection that breaks
 * the protocol (bad hello, unknown or oversized frame, unsafe path) is
 * dropped with one log line; the others carry on.
 */
#include <config.h>

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/sig.h"
#include "lib/timing.h"
#include "lib/xalloc.h"

#include "fakemusic/fake-music.h"

/* A client's signature may not exceed this (a 4 GiB file needs ~40 MiB). */
#define SIG_LIMIT (256ULL << 20)
#define SERVER_SNDBUF (128 * 1024)

struct server_conn {
	struct server_conn *next;
	struct server *srv;
	pthread_t tid;
	int fd;
	atomic_bool done;
	char peer[INET6_ADDRSTRLEN + 8];
};

static pthread_mutex_t conns_lock = PTHREAD_MUTEX_INITIALIZER;

int server_listen(struct server *s, const char *addr, const char **what)
{
	struct addrinfo hints = { 0 }, *ai = NULL;
	char host[256], port[16];
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	int one = 1, r;

	*what = "parse";
	if (split_host_port(addr, host, sizeof(host), port, sizeof(port)))
		return -EINVAL;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
	*what = "resolve";
	if (getaddrinfo(host, port, &hints, &ai) || !ai)
		return -EINVAL;
	*what = "bind";
	s->lfd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s->lfd < 0 ||
	    setsockopt(s->lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(s->lfd, ai->ai_addr, ai->ai_addrlen) || listen(s->lfd, 64) ||
	    getsockname(s->lfd, (struct sockaddr *)&ss, &sl)) {
		r = -errno;
		freeaddrinfo(ai);
		if (s->lfd >= 0)
			(void)close(
				s->lfd); /* failed socket: nothing to flush */
		s->lfd = -1;
		return r;
	}
	freeaddrinfo(ai);
	if (ss.ss_family == AF_INET6)
		snprintf(s->addr, sizeof(s->addr), "[%s]:%u", host,
			 ntohs(((struct sockaddr_in6 *)&ss)->sin6_port));
	else
		snprintf(s->addr, sizeof(s->addr), "%s:%u", host,
			 ntohs(((struct sockaddr_in *)&ss)->sin_port));
	atomic_init(&s->stop, false);
	return 0;
}

static void log_drop(struct server_conn *sc, const char *why, int err)
{
	atomic_fetch_add(&sc->srv->n_dropped, 1);
	fprintf(stderr, "%s: dropping connection from %s: %s%s%s\n", progname(),
		sc->peer, why, err ? ": " : "", err ? strerror(-err) : "");
}

static int send_error(struct conn *c, const char *msg)
{
	return conn_send(c, MSG_ERROR, msg, strlen(msg), NULL, 0);
}

static int send_list(struct server *s, struct conn *c)
{
	struct entry *e;
	size_t n;
	int r = source_list(s->src, &e, &n);

	if (r)
		return send_error(c, strerror(-r));
	for (size_t i = 0; i < n && !r; i++) {
		unsigned char h[16];

		put_u64(h, e[i].size);
		put_u64(h + 8, e[i].mtime_ns);
		r = conn_send(c, MSG_ENTRY, h, sizeof(h), e[i].name,
			      strlen(e[i].name));
	}
	entries_free(e, n);
	return r ? r : conn_send(c, MSG_LIST_END, NULL, 0, NULL, 0);
}

static int send_whole(struct conn *c, struct reader *rd, size_t chunk,
		      const char **why)
{
	unsigned char *buf = xmalloc(chunk);
	uint64_t hash = FNV1A64_INIT;
	int r = 0;

	for (;;) {
		ssize_t n = reader_read(rd, buf, chunk);

		if (n <= 0) {
			if (n < 0) {
				*why = "read";
				r = (int)n;
			}
			break;
		}
		hash = fnv1a64(hash, buf, (size_t)n);
		r = conn_send(c, MSG_DATA, buf, (size_t)n, NULL, 0);
		if (r)
			break;
	}
	free(buf);
	return r ? r : proto_send_end(c, rd->off, hash);
}

/* One GET: the name is checked, then the file goes whole or as a delta. */
static int serve_get(struct server_conn *sc, struct conn *c, unsigned char *msg,
		     size_t len, const char **why)
{
	struct server *s = sc->srv;
	size_t chunk = s->rate ? pace_chunk(s->rate) : 65536;
	struct rs_signature *sig = NULL;
	const char *name = (const char *)msg + 1;
	struct reader rd;
	int r;

	if (len < 2 || msg[0] > GET_DELTA) {
		*why = "malformed request";
		return -EPROTO;
	}
	msg[len] = '\0';
	r = proto_name_ok(name, len - 1) ? source_open(s->src, name, &rd)
					 : -EACCES;
	if (r == -EACCES || r == -ELOOP) {
		fprintf(stderr, "%s: %s: refused path '%s'\n", progname(),
			sc->peer, name);
		(void)send_error(c, "refused path"); /* dropping anyway */
		*why = "path outside the served folder";
		return -EACCES;
	}
	if (r) {
		char text[PROTO_NAME_MAX + 64];

		snprintf(text, sizeof(text), "cannot open '%s': %s", name,
			 strerror(-r));
		/* Tell the client; the connection itself is fine. */
		return send_error(c, text);
	}
	if (msg[0] == GET_DELTA) {
		r = delta_recv_sig(c, SIG_LIMIT, &sig, why);
		if (!r)
			r = delta_send(c, &rd, sig, chunk, why);
		delta_free_sig(sig);
		if (!r)
			atomic_fetch_add(&s->n_deltas, 1);
	} else {
		r = send_whole(c, &rd, chunk, why);
	}
	reader_close(&rd);
	if (!r)
		atomic_fetch_add(&s->n_files, 1);
	return r;
}

static int serve(struct server_conn *sc, struct conn *c, const char **why)
{
	unsigned char *msg = xmalloc(PROTO_NAME_MAX + 2);
	size_t len;
	uint8_t type;
	int r;

	*why = "hello";
	r = conn_recv_msg(c, &type, msg, PROTO_NAME_MAX + 1, &len);
	if (!r && (type != MSG_HELLO || proto_check_hello(msg, len))) {
		(void)send_error(c,
				 "bad hello or unsupported protocol version");
		r = -EPROTO;
	}
	if (!r)
		r = conn_send(c, MSG_HELLO, msg, proto_hello(msg), NULL, 0);
	while (!r) {
		*why = "request";
		r = conn_recv_msg(c, &type, msg, PROTO_NAME_MAX + 1, &len);
		if (r == -ECONNRESET) {
			r = 0; /* the client is done */
			break;
		}
		if (r)
			break;
		if (type == MSG_LIST)
			r = send_list(sc->srv, c);
		else if (type == MSG_GET)
			r = serve_get(sc, c, msg, len, why);
		else {
			*why = "unexpected message";
			r = -EPROTO;
		}
	}
	free(msg);
	return r;
}

static void *conn_main(void *arg)
{
	struct server_conn *sc = arg;
	struct server *s = sc->srv;
	struct conn *c = xmalloc(sizeof(*c));
	struct pace wp;
	const char *why = "";
	int r;

	conn_init(c, sc->fd);
	c->stop = &s->stop;
	if (s->rate) {
		pace_reset(&wp, s->rate, 0);
		c->wpace = &wp;
	}
	r = serve(sc, c, &why);
	atomic_fetch_add(&s->bytes_out, c->bytes_out);
	/* A client that goes away mid-file is not worth a line. */
	if (r && r != -ECONNRESET && r != -EPIPE && !atomic_load(&s->stop))
		log_drop(sc, why, r);
	else if (s->verbose)
		fprintf(stderr, "%s: %s: closed after %llu bytes\n", progname(),
			sc->peer, (unsigned long long)c->bytes_out);
	free(c);
	atomic_store(&sc->done, true);
	return NULL;
}

/* Join finished connection threads (all of them when ALL). */
static void reap(struct server *s, bool all)
{
	struct server_conn **pp = &s->conns;

	while (*pp) {
		struct server_conn *sc = *pp;

		if (!all && !atomic_load(&sc->done)) {
			pp = &sc->next;
			continue;
		}
		pthread_join(sc->tid, NULL);
		pthread_mutex_lock(&conns_lock);
		*pp = sc->next;
		pthread_mutex_unlock(&conns_lock);
		(void)close(sc->fd); /* socket: nothing buffered to lose */
		free(sc);
	}
}

static void peer_name(const struct sockaddr_storage *ss, char *buf, size_t len)
{
	char host[INET6_ADDRSTRLEN] = "?";
	unsigned port = 0;

	if (ss->ss_family == AF_INET6) {
		const struct sockaddr_in6 *a = (const void *)ss;

		inet_ntop(AF_INET6, &a->sin6_addr, host, sizeof(host));
		port = ntohs(a->sin6_port);
	} else if (ss->ss_family == AF_INET) {
		const struct sockaddr_in *a = (const void *)ss;

		inet_ntop(AF_INET, &a->sin_addr, host, sizeof(host));
		port = ntohs(a->sin_port);
	}
	snprintf(buf, len, "%s:%u", host, port);
}

static int spawn(struct server *s, int fd, const struct sockaddr_storage *ss)
{
	struct server_conn *sc = xcalloc(1, sizeof(*sc));
	sigset_t all, old;
	int r;

	sc->srv = s;
	sc->fd = fd;
	/* Bounded in-flight data per client: memory, and a kill is a kill. */
	(void)setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &(int){ SERVER_SNDBUF },
			 sizeof(int)); /* a hint only */
	atomic_init(&sc->done, false);
	peer_name(ss, sc->peer, sizeof(sc->peer));
	/* Stop signals belong to the main thread. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	r = pthread_create(&sc->tid, NULL, conn_main, sc);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (r) {
		(void)close(fd); /* never used */
		free(sc);
		return -r;
	}
	atomic_fetch_add(&s->n_conns, 1);
	pthread_mutex_lock(&conns_lock);
	sc->next = s->conns;
	s->conns = sc;
	pthread_mutex_unlock(&conns_lock);
	return 0;
}

static bool server_done(struct server *s, bool watch_signals)
{
	return atomic_load(&s->stop) || (watch_signals && sig_stop) ||
	       (s->deadline_ns && mono_ns() >= s->deadline_ns);
}

static int run(struct server *s, bool watch_signals)
{
	int r = 0;

	while (!server_done(s, watch_signals)) {
		struct pollfd p = { .fd = s->lfd, .events = POLLIN };
		struct sockaddr_storage ss;
		socklen_t sl = sizeof(ss);
		int fd;

		reap(s, false);
		if (poll(&p, 1, 50) <= 0)
			continue;
		fd = accept4(s->lfd, (struct sockaddr *)&ss, &sl, SOCK_CLOEXEC);
		if (fd < 0) {
			if (errno == EMFILE || errno == ENFILE ||
			    errno == ENOBUFS || errno == ENOMEM) {
				warn_errno("cannot accept a connection");
				(void)poll(NULL, 0, 100); /* let some close */
			}
			continue;
		}
		r = spawn(s, fd, &ss);
		if (r)
			warn("cannot start a connection thread: %s",
			     strerror(-r));
		r = 0;
	}
	atomic_store(&s->stop, true);
	pthread_mutex_lock(&conns_lock);
	for (struct server_conn *sc = s->conns; sc; sc = sc->next)
		(void)shutdown(sc->fd, SHUT_RDWR); /* wakes blocked threads */
	pthread_mutex_unlock(&conns_lock);
	reap(s, true);
	(void)close(s->lfd); /* listening socket */
	s->lfd = -1;
	return r;
}

int server_run(struct server *s)
{
	return run(s, true);
}

void *server_thread(void *arg)
{
	(void)run(arg, false);
	return NULL;
}
