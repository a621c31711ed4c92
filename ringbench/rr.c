// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Request/response over the network, netperf TCP_RR's measure: each client
 * sends REQ bytes and waits for RESP bytes, one transaction at a time, with
 * TCP_NODELAY (or over UDP with --udp).  A TCP connection opens with one
 * hello line, "RINGBENCH-RR/1 REQ RESP\n", answered "OK\n"; then the bytes
 * are the payload alone, so a 1-byte transaction is 1 byte each way.
 *
 * The server, built in or --listen, takes what peers may hold from
 * fake-music's server: at most --max-clients connections (one more is
 * told "ERR busy" and closed; refusals are logged once a second at most),
 * a whole hello within 5 s of connecting and at most 64 bytes, a
 * peer silent for --idle-timeout is dropped, sizes above 1 MiB are refused,
 * and each connection's memory is one 64 KiB buffer whatever the sizes.
 * A peer that breaks these rules is dropped; the server serves on.
 */
#include <config.h>

#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/net.h"
#include "lib/parse.h"
#include "lib/sig.h"
#include "lib/timing.h"
#include "lib/xalloc.h"
#include "ringbench/ringbench.h"

#define CHUNK 65536
#define HELLO_FMT "RINGBENCH-RR/1 %llu %llu\n"
#define HELLO_PREFIX "RINGBENCH-RR/1 "

struct conn {
	struct net_conn nc; /* its thread, socket and place in s->conns */
	struct rb_server *s;
	unsigned index;
	uint64_t accepted_ns; /* the hello's deadline counts from here */
	char peer[NET_ADDR_MAX];
};

struct rb_server {
	struct rb_state *st;
	const struct rb_opts *o;
	int lfd;
	pthread_t tid;
	_Atomic bool stop;
	struct net_conns conns;
	unsigned accepted;
	_Atomic uint64_t requests, responses, connections, dropped, refused;
	/* Refusals not yet logged, and when they last were (server thread). */
	uint64_t refused_unlogged, refused_logged_ns;
};

static void set_timeout(int fd, int opt, uint64_t ns)
{
	struct timeval tv = { .tv_sec = (time_t)(ns / NSEC_PER_SEC),
			      .tv_usec =
				      (suseconds_t)(ns % NSEC_PER_SEC / 1000) };

	/* Without it a hostile peer holds the thread longer; not fatal. */
	(void)setsockopt(fd, SOL_SOCKET, opt, &tv, sizeof(tv));
}

/*
 * Read one line of at most RB_HELLO_MAX bytes, newline included, by
 * DEADLINE_NS (CLOCK_MONOTONIC): the limit is on the whole hello, so a
 * peer that sends a byte at a time cannot hold its slot longer.
 */
static int read_line(int fd, char *buf, uint64_t deadline_ns)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	size_t n = 0;
	ssize_t r;

	while (n < RB_HELLO_MAX) {
		uint64_t now = mono_ns();

		if (now >= deadline_ns)
			return -EAGAIN;
		r = poll(&p, 1,
			 (int)((deadline_ns - now + NSEC_PER_MSEC - 1) /
			       NSEC_PER_MSEC));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (!r)
			return -EAGAIN;
		r = read(fd, buf + n, 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r < 0 ? -errno : -EPIPE;
		if (buf[n++] == '\n') {
			buf[n - 1] = '\0';
			return 0;
		}
	}
	return -E2BIG;
}

/* "REQ RESP" of a hello, each 1..RB_MAX_MSG. */
static bool parse_hello(const char *line, uint64_t *req, uint64_t *resp)
{
	char a[24], b[24], junk;

	if (strncmp(line, HELLO_PREFIX, strlen(HELLO_PREFIX)) ||
	    sscanf(line + strlen(HELLO_PREFIX), "%23[0-9] %23[0-9]%c", a, b,
		   &junk) != 2 ||
	    parse_u64(a, req) || parse_u64(b, resp))
		return false;
	return *req && *resp && *req <= RB_MAX_MSG && *resp <= RB_MAX_MSG;
}

/*
 * After an error line to a bad peer: end our side, then read what it still
 * sends (64 KiB and 1 s at most in all, however slowly it comes) so that
 * closing does not reset the connection before the peer has read the line.
 */
static void linger_close(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	uint64_t deadline = mono_ns() + NSEC_PER_SEC, now;
	char buf[4096];
	size_t total = 0;
	ssize_t n = 1;

	(void)shutdown(fd, SHUT_WR); /* the peer sees our end */
	while (total < 65536 && n > 0 && (now = mono_ns()) < deadline &&
	       poll(&p, 1, (int)((deadline - now) / NSEC_PER_MSEC) + 1) > 0)
		if ((n = read(fd, buf, sizeof(buf))) > 0)
			total += (size_t)n;
}

static void drop(struct conn *c, const char *why)
{
	atomic_fetch_add(&c->s->dropped, 1);
	warn("dropped %s: %s", c->peer, why);
}

/* Read exactly LEN bytes of a request in chunks; 1 on a clean end. */
static int read_request(int fd, char *buf, uint64_t len)
{
	uint64_t got = 0;
	ssize_t r;

	while (got < len) {
		size_t want = len - got < CHUNK ? (size_t)(len - got) : CHUNK;

		r = read(fd, buf, want);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (!r)
			return got ? -EPIPE : 1;
		got += (uint64_t)r;
	}
	return 0;
}

static int write_response(int fd, const char *buf, uint64_t len)
{
	int e = 0;

	while (len && !e) {
		size_t n = len < CHUNK ? (size_t)len : CHUNK;

		e = write_all(fd, buf, n);
		len -= n;
	}
	return e;
}

static void serve_tcp(struct conn *c, char *buf)
{
	struct rb_server *s = c->s;
	uint64_t req, resp;
	int one = 1, e;

	e = read_line(c->nc.fd, buf, c->accepted_ns + RB_HELLO_NS);
	if (e || !parse_hello(buf, &req, &resp)) {
		/* Best effort: the peer is going anyway. */
		(void)write_all(c->nc.fd, "ERR bad hello\n", 14);
		linger_close(c->nc.fd);
		drop(c, e == -EAGAIN  ? "no hello within 5 s"
			: e == -EPIPE ? "closed before its hello"
				      : "bad hello");
		return;
	}
	set_timeout(c->nc.fd, SO_RCVTIMEO, s->o->idle_ns);
	set_timeout(c->nc.fd, SO_SNDTIMEO, s->o->idle_ns);
	(void)setsockopt(c->nc.fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (write_all(c->nc.fd, "OK\n", 3))
		return drop(c, "cannot answer its hello");
	memset(buf, 0, CHUNK);
	while (!atomic_load(&s->stop)) {
		e = read_request(c->nc.fd, buf, req);
		if (e == 1)
			return;
		if (e)
			return drop(c, e == -EAGAIN  ? "idle for too long"
				       : e == -EPIPE ? "closed mid-request"
						     : strerror(-e));
		atomic_fetch_add_explicit(&s->requests, 1,
					  memory_order_relaxed);
		e = write_response(c->nc.fd, buf, resp);
		if (e)
			return drop(c, e == -EAGAIN ? "not reading its "
						      "responses"
						    : strerror(-e));
		atomic_fetch_add_explicit(&s->responses, 1,
					  memory_order_relaxed);
	}
}

/* The UDP server: one thread, datagrams of exactly --size REQ bytes. */
static void serve_udp(struct rb_server *s, char *buf)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	ssize_t n;

	set_timeout(s->lfd, SO_RCVTIMEO, 100 * NSEC_PER_MSEC);
	memset(buf, 0, CHUNK);
	while (!atomic_load(&s->stop)) {
		sl = sizeof(ss);
		n = recvfrom(s->lfd, buf, CHUNK, MSG_TRUNC,
			     (struct sockaddr *)&ss, &sl);
		if (n < 0)
			continue; /* the timeout that checks the stop flag */
		if ((uint64_t)n != s->o->req_size) {
			atomic_fetch_add(&s->dropped, 1);
			continue;
		}
		atomic_fetch_add(&s->requests, 1);
		if (sendto(s->lfd, buf, s->o->resp_size, 0,
			   (struct sockaddr *)&ss,
			   sl) == (ssize_t)s->o->resp_size)
			atomic_fetch_add(&s->responses, 1);
	}
}

/* Built in, server i shares the CPU list with client i (2i, 2i+1). */
static int server_cpu(const struct rb_server *s, unsigned index)
{
	return rb_cpu_of(s->o, s->o->listen ? index : 2 * index + 1);
}

static void *conn_thread(void *p)
{
	struct conn *c = NET_CONN_OF(p, struct conn, nc);
	char *buf = xmalloc(CHUNK);
	int cpu = server_cpu(c->s, c->index);

	/* Unpinned is still served; the report says where it ran. */
	if (!rb_pin(cpu))
		rb_place_add(c->s->st, "server", c->index, cpu);
	serve_tcp(c, buf);
	free(buf);
	/* The peer sees the end now; the socket is closed when reaped. */
	(void)shutdown(c->nc.fd, SHUT_RDWR);
	net_conn_done(&c->nc);
	return NULL;
}

/* A joined connection thread's socket and memory (net_conns_reap). */
static void release(struct net_conn *nc, void *arg)
{
	(void)arg;
	(void)close(nc->fd); /* shut down already */
	free(NET_CONN_OF(nc, struct conn, nc));
}

/*
 * A flood of connections to a full server would be a flood of log lines:
 * the refusals are counted and said at most once a second (FORCE: now,
 * when the server stops).
 */
static void refused_log(struct rb_server *s, bool force)
{
	uint64_t now = mono_ns();

	if (!s->refused_unlogged ||
	    (!force && now - s->refused_logged_ns < NSEC_PER_SEC))
		return;
	warn("refused %llu connection%s: %u client%s connected "
	     "(--max-clients)",
	     (unsigned long long)s->refused_unlogged,
	     s->refused_unlogged == 1 ? "" : "s", s->o->max_clients,
	     s->o->max_clients == 1 ? "" : "s");
	s->refused_unlogged = 0;
	s->refused_logged_ns = now;
}

static void accept_one(struct rb_server *s)
{
	struct conn *c;
	int fd = accept4(s->lfd, NULL, NULL, SOCK_CLOEXEC), e;
	uint64_t now = mono_ns();

	if (fd < 0)
		return; /* gone before we took it, or out of descriptors */
	net_conns_reap(&s->conns, false, release, NULL);
	if (s->conns.n >= s->o->max_clients) {
		(void)write_all(fd, "ERR busy\n", 9); /* it goes anyway */
		(void)shutdown(fd, SHUT_WR);
		(void)close(fd);
		atomic_fetch_add(&s->dropped, 1);
		atomic_fetch_add(&s->refused, 1);
		s->refused_unlogged++;
		refused_log(s, false);
		return;
	}
	c = xcalloc(1, sizeof(*c));
	c->s = s;
	c->index = s->accepted++;
	c->accepted_ns = now;
	net_peer_name(fd, c->peer, sizeof(c->peer));
	atomic_fetch_add(&s->connections, 1);
	e = net_conn_start(&s->conns, &c->nc, fd, conn_thread);
	if (e) {
		(void)close(fd);
		drop(c, "cannot start a thread for it");
		free(c);
	}
}

static void *server_thread(void *p)
{
	struct rb_server *s = p;
	struct pollfd pfd = { .fd = s->lfd, .events = POLLIN };
	char *buf;

	if (s->o->udp) {
		int cpu = server_cpu(s, 0);

		buf = xmalloc(CHUNK);
		if (!rb_pin(cpu))
			rb_place_add(s->st, "server", 0, cpu);
		serve_udp(s, buf);
		free(buf);
		return NULL;
	}
	while (!atomic_load(&s->stop)) {
		if (poll(&pfd, 1, 100) > 0)
			accept_one(s);
		refused_log(s, false);
	}
	refused_log(s, true);
	net_conns_shutdown(&s->conns);
	net_conns_reap(&s->conns, true, release, NULL);
	return NULL;
}

/* getaddrinfo() of ADDR (HOST:PORT) to connect to; 0 or -EINVAL. */
static int resolve(const char *addr, int type, struct addrinfo **ai)
{
	struct addrinfo hints = { .ai_socktype = type,
				  .ai_flags = AI_NUMERICSERV };
	char host[256], port[16];

	if (split_host_port(addr, host, sizeof(host), port, sizeof(port)) ||
	    getaddrinfo(host, port, &hints, ai) || !*ai)
		return -EINVAL;
	return 0;
}

int rb_server_start(struct rb_state *st, struct rb_server **out,
		    const char *addr, char *bound, const char **what)
{
	struct rb_server *s = xcalloc(1, sizeof(*s));
	int e;

	s->st = st;
	s->o = st->o;
	s->lfd = -1;
	e = net_listen(addr, s->o->udp ? SOCK_DGRAM : SOCK_STREAM, 0, &s->lfd,
		       bound, what);
	if (!e) {
		*what = "start the server for";
		e = -pthread_create(&s->tid, NULL, server_thread, s);
		if (e)
			(void)close(s->lfd); /* never served */
	}
	if (e) {
		free(s);
		return e;
	}
	*out = s;
	return 0;
}

void rb_server_stop(struct rb_server *s, struct rb_run *run)
{
	atomic_store(&s->stop, true);
	pthread_join(s->tid, NULL);
	(void)close(s->lfd); /* a listening socket: nothing to flush */
	if (run) {
		run->has_server = true;
		run->server_requests = atomic_load(&s->requests);
		run->server_responses = atomic_load(&s->responses);
		run->server_connections = atomic_load(&s->connections);
		run->server_dropped = atomic_load(&s->dropped);
		run->server_refused = atomic_load(&s->refused);
	}
	free(s);
}

/* ---- clients ---- */

struct client {
	struct rb_state *st;
	const char *addr;
	unsigned index;
	int fd;
	char *req, *resp;
	uint64_t tx, warm_tx, requests, responses, start_ns, end_ns;
	_Atomic bool done;
	struct progress progress;
	struct hist hist;
};

static int client_connect(struct client *c)
{
	const struct rb_opts *o = c->st->o;
	int type = o->udp ? SOCK_DGRAM : SOCK_STREAM, one = 1, e;
	struct addrinfo *ai = NULL;
	char line[RB_HELLO_MAX + 1];

	if (resolve(c->addr, type, &ai))
		return -EINVAL;
	c->fd = socket(ai->ai_family, type | SOCK_CLOEXEC, 0);
	e = c->fd < 0 || connect(c->fd, ai->ai_addr, ai->ai_addrlen) ? -errno
								     : 0;
	freeaddrinfo(ai);
	if (e)
		return e;
	set_timeout(c->fd, SO_RCVTIMEO, o->udp ? RB_UDP_WAIT_NS : o->idle_ns);
	set_timeout(c->fd, SO_SNDTIMEO, o->idle_ns);
	if (o->udp)
		return 0;
	(void)setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	snprintf(line, sizeof(line), HELLO_FMT, (unsigned long long)o->req_size,
		 (unsigned long long)o->resp_size);
	e = write_all(c->fd, line, strlen(line));
	if (!e)
		e = read_line(c->fd, line, mono_ns() + o->idle_ns);
	if (!e && strcmp(line, "OK")) {
		line[strcspn(line, "\r")] = '\0';
		rb_fail(c->st, -1, "client %u: %s refused the connection: %s",
			c->index, c->addr, text_escape(line));
		return -ECONNREFUSED;
	}
	return e;
}

/* One transaction: 0, or -errno (-EPIPE: the server closed). */
static int transact(struct client *c)
{
	const struct rb_opts *o = c->st->o;
	ssize_t n;
	int e;

	if (o->udp) {
		n = send(c->fd, c->req, o->req_size, 0);
		if (n != (ssize_t)o->req_size)
			return n < 0 ? -errno : -EIO;
		c->requests++;
		do
			n = recv(c->fd, c->resp, o->resp_size + 1, MSG_TRUNC);
		while (n < 0 && errno == EINTR);
		if (n < 0)
			return -errno;
		if ((uint64_t)n != o->resp_size)
			return -EBADMSG;
		c->responses++;
		return 0;
	}
	e = write_all(c->fd, c->req, o->req_size);
	if (e)
		return e;
	c->requests++;
	n = read_full(c->fd, c->resp, o->resp_size);
	if (n < 0)
		return (int)n;
	if ((uint64_t)n != o->resp_size)
		return -EPIPE;
	c->responses++;
	return 0;
}

static bool client_done(struct client *c, uint64_t now)
{
	const struct rb_opts *o = c->st->o;

	if (o->count)
		return c->tx >= o->count;
	return now - c->start_ns >= o->duration_ns;
}

static void client_fail(struct client *c, int e)
{
	const struct rb_opts *o = c->st->o;

	if (e == -EPIPE || e == -ECONNRESET)
		rb_fail(c->st, -1,
			"client %u: the server %s closed the connection "
			"(after %llu transactions)",
			c->index, c->addr,
			(unsigned long long)(c->tx + c->warm_tx));
	else if (e == -EAGAIN && o->udp)
		rb_fail(c->st, -1,
			"client %u: no response from %s within 1 s (a lost "
			"datagram, or no server)",
			c->index, c->addr);
	else if (e == -EAGAIN)
		rb_fail(c->st, -1,
			"client %u: no response from %s within "
			"the idle timeout",
			c->index, c->addr);
	else if (e == -EBADMSG)
		rb_fail(c->st, -1,
			"client %u: a response of the wrong size from %s",
			c->index, c->addr);
	else
		rb_fail(c->st, -e, "client %u: transaction with %s", c->index,
			c->addr);
}

static void client_loop(struct client *c)
{
	const struct rb_opts *o = c->st->o;
	uint64_t t0, t1, warm_end;
	bool measuring = !o->warmup_ns;
	int e;

	c->start_ns = mono_ns();
	warm_end = c->start_ns + o->warmup_ns;
	while (!rb_stopping(c->st)) {
		t0 = mono_ns();
		e = transact(c);
		if (e)
			return client_fail(c, e);
		t1 = mono_ns();
		if (!measuring) {
			c->warm_tx++;
			if (t1 >= warm_end) {
				measuring = true;
				c->start_ns = c->end_ns = t1;
			}
			continue;
		}
		hist_add(&c->hist, t1 - t0);
		c->tx++;
		c->end_ns = t1;
		if (o->progress_every && c->tx % o->progress_every == 0)
			/* A lost progress line does not stop the client. */
			(void)progress_emit(
				&c->progress, t1,
				"mode=rr client=%u transactions=%llu", c->index,
				(unsigned long long)c->tx);
		if (client_done(c, t1))
			return;
	}
}

static void client_run(struct client *c)
{
	const struct rb_opts *o = c->st->o;
	int cpu = rb_cpu_of(o, o->connect ? c->index : 2 * c->index);
	int e = rb_pin(cpu);

	if (e) {
		rb_fail(c->st, -e, "client %u: cannot pin to CPU %d", c->index,
			cpu);
		return;
	}
	rb_place_add(c->st, "client", c->index, cpu);
	e = client_connect(c);
	if (e == -ECONNREFUSED)
		return;
	if (e == -EINVAL)
		rb_fail(c->st, EINVAL, "client %u: cannot resolve '%s'",
			c->index, c->addr);
	else if (e)
		rb_fail(c->st, -e, "client %u: cannot connect to %s", c->index,
			c->addr);
	else
		client_loop(c);
}

static void *client_thread(void *p)
{
	struct client *c = p;

	client_run(c);
	atomic_store(&c->done, true);
	return NULL;
}

/*
 * Wait for the N clients CL: the main thread alone runs the signal handler
 * and reads sig_stop, and passes a stop on to the clients.
 */
static void wait_clients(struct rb_state *st, struct client *cl, unsigned n)
{
	unsigned i = 0;

	while (i < n) {
		if (atomic_load(&cl[i].done)) {
			i++;
			continue;
		}
		(void)sleep_until_ns(mono_ns() + 100 * NSEC_PER_MSEC,
				     &sig_stop);
		if (sig_stop)
			atomic_store(&st->stop, true);
	}
}

int rb_rr_run(struct rb_state *st, const char *addr, struct rb_run *run)
{
	const struct rb_opts *o = st->o;
	struct client *cl = xcalloc(o->clients, sizeof(*cl));
	pthread_t *tid = xcalloc(o->clients, sizeof(*tid));
	uint64_t elapsed = 0;
	unsigned i, started;

	for (started = 0; started < o->clients; started++) {
		struct client *c = &cl[started];

		c->st = st;
		c->addr = addr;
		c->index = started;
		c->fd = -1;
		c->req = xcalloc(1, o->req_size);
		c->resp = xmalloc(o->resp_size + 1);
		hist_init(&c->hist);
		c->progress = st->progress;
		if (pthread_create(&tid[started], NULL, client_thread, c)) {
			rb_fail(st, errno, "cannot start client %u", started);
			break;
		}
	}
	wait_clients(st, cl, started);
	for (i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	for (i = 0; i < o->clients; i++) {
		struct client *c = &cl[i];

		run->transactions += c->tx;
		run->warmup_transactions += c->warm_tx;
		run->requests += c->requests;
		run->responses += c->responses;
		if (c->end_ns > c->start_ns)
			elapsed += c->end_ns - c->start_ns;
		hist_merge(run->hist, &c->hist);
		if (c->fd >= 0)
			(void)close(c->fd); /* the server reads our EOF */
		free(c->req);
		free(c->resp);
	}
	run->elapsed_ns = elapsed / o->clients;
	run->complete = !atomic_load(&st->err) && !sig_stop;
	free(cl);
	free(tid);
	return atomic_load(&st->err) ? -1 : 0;
}
