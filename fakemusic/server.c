// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The server.  A new connection waits in the accept loop, without a thread,
 * until its hello has arrived whole; only then does it get a thread of its
 * own, so a client that reads slowly (its own pacing) blocks only its own
 * sender.  What peers can hold is bounded: --max-clients threads (beyond
 * them the client stalled longest, over a tenth of the idle limit, makes
 * room, or the newcomer is refused with an ERROR frame), 4 per client slot
 * still saying hello (the oldest goes), --idle-timeout for a peer that
 * sends or takes nothing, --sig-memory for the signatures held.  A
 * connection that breaks the protocol (bad hello, unknown or oversized
 * frame, unsafe path) is dropped with one log line; the others carry on.
 */
#include <config.h>

#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/net.h"
#include "lib/sig.h"
#include "lib/timing.h"
#include "lib/xalloc.h"

#include "fakemusic/fake-music.h"

#define SERVER_SNDBUF (128 * 1024)
/* Largest hello payload (ours is 6 bytes). */
#define HELLO_MAX 64
/* A full server evicts a client after this share of the idle limit. */
#define EVICT_FRACTION 10
/* Connections accepted per turn of the loop. */
#define ACCEPT_BURST 64

struct server_conn {
	struct net_conn nc; /* its thread, socket and place in s->conns */
	struct server *srv;
	bool stalled; /* timed out or evicted: close with a reset */
	atomic_bool evicted;
	atomic_uint_fast64_t progress_ns; /* when bytes last moved */
	atomic_uint_fast64_t stalled_ns;  /* for the eviction's log line */
	char peer[NET_ADDR_MAX];
};

/* A connection whose hello is on its way (the accept loop's own). */
struct pending {
	int fd;
	uint64_t since_ns;
	size_t have, need;
	unsigned char buf[PROTO_HDR + HELLO_MAX];
	char peer[NET_ADDR_MAX];
};

int server_listen(struct server *s, const char *addr, const char **what)
{
	int r = net_listen(addr, SOCK_STREAM, SOCK_NONBLOCK, &s->lfd, s->addr,
			   what);

	if (r) {
		s->lfd = -1;
		return r;
	}
	atomic_init(&s->stop, false);
	return 0;
}

/*
 * Close FD with a reset, not a FIN queued behind unsent data: a peer that
 * stopped reading would never see that FIN, and the kernel would keep the
 * data for it long after we let go.
 */
static void abort_close(int fd)
{
	struct linger l = { .l_onoff = 1, .l_linger = 0 };

	(void)setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof(l)); /* hint */
	(void)close(fd); /* nothing left worth sending */
}

static void log_drop(struct server *s, const char *peer, const char *why,
		     int err)
{
	atomic_fetch_add(&s->n_dropped, 1);
	/* The server goes on: a message, not a failure (ERR 0: no cause). */
	(void)error_err(-err, "dropping connection from %s: %s", peer, why);
}

static int send_error(struct conn *c, const char *msg)
{
	return conn_send(c, MSG_ERROR, msg, strlen(msg), NULL, 0);
}

/*
 * An ERROR frame on a connection no thread serves: one send that does not
 * wait (a fresh socket has room; if not, the peer only misses the text).
 */
static void send_error_now(int fd, const char *msg)
{
	unsigned char frame[PROTO_HDR + 256];
	size_t len = strlen(msg);

	if (len > sizeof(frame) - PROTO_HDR)
		len = sizeof(frame) - PROTO_HDR;
	proto_put_header(frame, MSG_ERROR, len);
	memcpy(frame + PROTO_HDR, msg, len);
	(void)send(fd, frame, PROTO_HDR + len,
		   MSG_DONTWAIT | MSG_NOSIGNAL); /* see above */
}

static int send_list(struct server *s, struct conn *c)
{
	struct entry *e;
	char text[128];
	size_t n;
	int r = source_list(s->src, &e, &n);

	if (r)
		return send_error(c, format_err(text, sizeof(text), -r,
						"cannot list the files"));
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

/* A delta against the signature that follows the request. */
static int send_delta(struct server *s, struct conn *c, struct reader *rd,
		      size_t chunk, const char **why)
{
	struct sig_budget b = { &s->sig_held, s->sig_memory,
				s->sig_memory / SERVER_SIG_SHARE, 0 };
	struct rs_signature *sig = NULL;
	int r = delta_recv_sig(c, &b, &sig, why);

	/* Tell a client what it ran into; the connection goes anyway. */
	if (r == -EMSGSIZE || r == -ENOMEM)
		(void)send_error(c, *why);
	if (!r) {
		*why = "send";
		r = delta_send(c, rd, sig, chunk, why);
	}
	delta_free_sig(sig);
	sig_budget_release(&b);
	if (!r)
		atomic_fetch_add(&s->n_deltas, 1);
	return r;
}

/* One GET: the name is checked, then the file goes whole or as a delta. */
static int serve_get(struct server_conn *sc, struct conn *c, unsigned char *msg,
		     size_t len, const char **why)
{
	struct server *s = sc->srv;
	size_t chunk = s->rate ? pace_chunk(s->rate) : 65536;
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
		inform("%s: refused path '%s'", sc->peer, name);
		(void)send_error(c, "refused path"); /* dropping anyway */
		*why = "path outside the served folder";
		return -EACCES;
	}
	if (r) {
		char text[PROTO_NAME_MAX + 64];

		format_err(text, sizeof(text), -r, "cannot open '%s'", name);
		/* Tell the client; the connection itself is fine. */
		return send_error(c, text);
	}
	if (msg[0] == GET_DELTA) {
		r = send_delta(s, c, &rd, chunk, why);
	} else {
		*why = "send";
		r = send_whole(c, &rd, chunk, why);
	}
	reader_close(&rd);
	if (!r)
		atomic_fetch_add(&s->n_files, 1);
	return r;
}

/* The hello was read in the accept loop: answer it, then serve requests. */
static int serve(struct server_conn *sc, struct conn *c, const char **why)
{
	unsigned char *msg = xmalloc(PROTO_NAME_MAX + 2);
	size_t len;
	uint8_t type;
	int r;

	*why = "hello";
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
		if (type == MSG_LIST) {
			*why = "list";
			r = send_list(sc->srv, c);
		} else if (type == MSG_GET) {
			r = serve_get(sc, c, msg, len, why);
		} else {
			*why = "unexpected message";
			r = -EPROTO;
		}
	}
	free(msg);
	return r;
}

/* C set up as SC's thread serves it; WP paces its sends. */
static void conn_setup(struct server_conn *sc, struct conn *c, struct pace *wp)
{
	struct server *s = sc->srv;

	conn_init(c, sc->nc.fd);
	c->stop = &s->stop;
	c->idle_ns = s->idle_ns;
	c->progress_ns = &sc->progress_ns;
	if (s->rate) {
		pace_reset(wp, s->rate, 0);
		c->wpace = wp;
	}
}

int server_serve_fd(struct server *s, int fd, const char **why)
{
	struct server_conn *sc = xcalloc(1, sizeof(*sc));
	struct conn *c = xmalloc(sizeof(*c));
	struct pace wp;
	int r;

	sc->srv = s;
	sc->nc.fd = fd;
	atomic_init(&sc->progress_ns, mono_ns());
	snprintf(sc->peer, sizeof(sc->peer), "fd %d", fd);
	conn_setup(sc, c, &wp);
	r = serve(sc, c, why);
	free(c);
	free(sc);
	return r;
}

static void *conn_main(void *arg)
{
	struct server_conn *sc = NET_CONN_OF(arg, struct server_conn, nc);
	struct server *s = sc->srv;
	struct conn *c = xmalloc(sizeof(*c));
	struct pace wp;
	const char *why = "";
	int r;

	conn_setup(sc, c, &wp);
	r = serve(sc, c, &why);
	atomic_fetch_add(&s->bytes_out, c->bytes_out);
	sc->stalled = r == -ETIMEDOUT || atomic_load(&sc->evicted);
	if (atomic_load(&sc->evicted)) {
		char stalled[32];

		stalled[fmt_ns_fixed(stalled, atomic_load(&sc->stalled_ns),
				     1)] = '\0';
		inform("dropping connection from %s: evicted for a new client "
		       "after %s s without progress",
		       sc->peer, stalled);
	} else if (r && r != -ECONNRESET && r != -EPIPE &&
		   !atomic_load(&s->stop)) {
		/* A client that goes away mid-file is not worth a line. */
		log_drop(s, sc->peer, why, r);
	} else if (s->verbose) {
		inform("%s: closed after %llu bytes", sc->peer,
		       (unsigned long long)c->bytes_out);
	}
	free(c);
	net_conn_done(&sc->nc);
	return NULL;
}

/* A joined connection thread's socket and memory (net_conns_reap). */
static void release(struct net_conn *nc, void *arg)
{
	struct server_conn *sc = NET_CONN_OF(nc, struct server_conn, nc);

	(void)arg;
	if (sc->stalled)
		abort_close(nc->fd);
	else
		(void)close(nc->fd); /* all sent: a FIN follows it */
	free(sc);
}

/* Join finished connection threads (all of them when ALL). */
static void reap(struct server *s, bool all)
{
	net_conns_reap(&s->conns, all, release, NULL);
}

static int spawn(struct server *s, const struct pending *p)
{
	struct server_conn *sc = xcalloc(1, sizeof(*sc));
	int r;

	sc->srv = s;
	atomic_init(&sc->evicted, false);
	atomic_init(&sc->progress_ns, mono_ns());
	atomic_init(&sc->stalled_ns, 0);
	memcpy(sc->peer, p->peer, sizeof(sc->peer));
	r = net_conn_start(&s->conns, &sc->nc, p->fd, conn_main);
	if (r)
		free(sc);
	return r;
}

/*
 * The server is full: make room by evicting the client that has moved
 * nothing for longest, if that is over a tenth of the idle limit.  A
 * well-behaved client moves bytes every second or so even when slow; one
 * that holds its slot without doing so is what stands between the
 * newcomer and the music.
 */
static bool evict(struct server *s)
{
	struct server_conn *worst = NULL;
	uint64_t now = mono_ns(), oldest = now;

	if (!s->idle_ns)
		return false;
	for (struct net_conn *nc = s->conns.head; nc; nc = nc->next) {
		struct server_conn *sc =
			NET_CONN_OF(nc, struct server_conn, nc);
		uint64_t t = atomic_load(&sc->progress_ns);

		if (!atomic_load(&nc->done) && !atomic_load(&sc->evicted) &&
		    t < oldest) {
			oldest = t;
			worst = sc;
		}
	}
	if (!worst || now - oldest < s->idle_ns / EVICT_FRACTION)
		return false;
	atomic_fetch_add(&s->n_dropped, 1);
	atomic_store(&worst->stalled_ns, now - oldest);
	atomic_store(&worst->evicted, true);
	(void)shutdown(worst->nc.fd, SHUT_RDWR); /* wakes its thread */
	return true;
}

static unsigned clients(const struct server *s)
{
	unsigned n = 0;

	for (struct net_conn *nc = s->conns.head; nc; nc = nc->next) {
		struct server_conn *sc =
			NET_CONN_OF(nc, struct server_conn, nc);

		n += !atomic_load(&nc->done) && !atomic_load(&sc->evicted);
	}
	return n;
}

/* A whole hello arrived: a thread for it, room made for it, or a refusal. */
static void admit(struct server *s, const struct pending *p)
{
	char text[128];
	int r;

	if (clients(s) < s->max_clients || evict(s)) {
		r = spawn(s, p);
		if (!r) {
			atomic_fetch_add(&s->n_conns, 1);
			return;
		}
		warn_err(-r, "cannot start a connection thread");
	}
	snprintf(text, sizeof(text),
		 "busy: %u clients connected, try again later", s->max_clients);
	send_error_now(p->fd, text);
	(void)close(p->fd); /* never served */
	atomic_fetch_add(&s->n_refused, 1);
	if (s->verbose)
		inform("refusing connection from %s: %s", p->peer, text);
}

static size_t pending_cap(const struct server *s)
{
	return (size_t)s->max_clients * SERVER_PENDING_PER_CLIENT;
}

/* Forget pending connection I (its fd closed or handed on). */
static void pending_forget(struct server *s, size_t i)
{
	s->pending[i] = s->pending[--s->n_pending];
}

/* Close pending connection I: not worth a line unless verbose. */
static void pending_drop(struct server *s, size_t i, const char *why)
{
	abort_close(s->pending[i].fd);
	atomic_fetch_add(&s->n_dropped, 1);
	if (s->verbose)
		inform("dropping connection from %s: %s", s->pending[i].peer,
		       why);
	pending_forget(s, i);
}

/* Read what has come of pending connection I's hello (never more). */
static void hello_step(struct server *s, size_t i)
{
	struct pending *p = &s->pending[i];
	ssize_t n =
		recv(p->fd, p->buf + p->have, p->need - p->have, MSG_DONTWAIT);
	uint8_t type;
	uint32_t len;
	int r;

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		/* The peer went away: not a drop of ours. */
		(void)close(p->fd);
		pending_forget(s, i);
		return;
	}
	p->have += (size_t)n;
	if (p->have < p->need)
		return;
	if (p->need == PROTO_HDR) {
		r = proto_get_header(p->buf, &type, &len);
		if (!r && type != MSG_HELLO)
			r = -EPROTO;
		if (!r && len > HELLO_MAX)
			r = -EMSGSIZE;
		p->need += r ? 0 : len;
		if (!r && len)
			return; /* now its payload */
	} else {
		r = proto_check_hello(p->buf + PROTO_HDR, p->have - PROTO_HDR);
	}
	if (r) {
		send_error_now(p->fd,
			       "bad hello or unsupported protocol version");
		log_drop(s, p->peer, "hello", r == -EMSGSIZE ? r : -EPROTO);
		(void)close(p->fd); /* nothing was served */
		pending_forget(s, i);
		return;
	}
	admit(s, p);
	pending_forget(s, i);
}

static size_t oldest_pending(const struct server *s)
{
	size_t k = 0;

	for (size_t i = 1; i < s->n_pending; i++)
		if (s->pending[i].since_ns < s->pending[k].since_ns)
			k = i;
	return k;
}

/* Accept what is waiting; a full hello queue loses its oldest. */
static void accept_some(struct server *s)
{
	for (int burst = 0; burst < ACCEPT_BURST; burst++) {
		struct sockaddr_storage ss;
		socklen_t sl = sizeof(ss);
		struct pending *p;
		int fd = accept4(s->lfd, (struct sockaddr *)&ss, &sl,
				 SOCK_CLOEXEC);

		if (fd < 0) {
			if (errno != EMFILE && errno != ENFILE &&
			    errno != ENOBUFS && errno != ENOMEM)
				return; /* EAGAIN: all taken; or the peer left */
			if (s->n_pending) {
				pending_drop(s, oldest_pending(s),
					     "out of file descriptors");
				continue;
			}
			warn_errno("cannot accept a connection");
			(void)poll(NULL, 0, 100); /* let some close */
			return;
		}
		if (s->n_pending == pending_cap(s))
			pending_drop(s, oldest_pending(s),
				     "too many connections saying hello");
		/* Bounded in-flight data per client: memory, and a kill is a
		 * kill. */
		(void)setsockopt(fd, SOL_SOCKET, SO_SNDBUF,
				 &(int){ SERVER_SNDBUF },
				 sizeof(int)); /* a hint only */
		p = &s->pending[s->n_pending++];
		*p = (struct pending){ .fd = fd,
				       .since_ns = mono_ns(),
				       .need = PROTO_HDR };
		net_addr_name((struct sockaddr *)&ss, sl, p->peer,
			      sizeof(p->peer));
	}
}

/* A connection that has not said hello within the idle limit goes. */
static void expire_pending(struct server *s)
{
	uint64_t now = mono_ns();

	if (!s->idle_ns)
		return;
	for (size_t i = s->n_pending; i-- > 0;)
		if (now - s->pending[i].since_ns >= s->idle_ns)
			pending_drop(s, i, "no hello: timed out");
}

static bool server_done(struct server *s, bool watch_signals)
{
	return atomic_load(&s->stop) || (watch_signals && sig_stop) ||
	       (s->deadline_ns && mono_ns() >= s->deadline_ns);
}

/* One turn: wait for the listening socket or a hello, handle what came. */
static void turn(struct server *s, struct pollfd *pfd)
{
	size_t n = 1;

	reap(s, false);
	expire_pending(s);
	pfd[0] = (struct pollfd){ .fd = s->lfd, .events = POLLIN };
	for (size_t i = 0; i < s->n_pending; i++)
		pfd[n++] = (struct pollfd){ .fd = s->pending[i].fd,
					    .events = POLLIN };
	if (poll(pfd, (nfds_t)n, 50) <= 0)
		return;
	/* From the end: removing I moves the last, already seen, into I. */
	for (size_t i = n - 1; i-- > 0;)
		if (pfd[i + 1].revents)
			hello_step(s, i);
	if (pfd[0].revents & POLLIN)
		accept_some(s);
}

static int run(struct server *s, bool watch_signals)
{
	struct pollfd *pfd = xcalloc(pending_cap(s) + 1, sizeof(*pfd));

	s->pending = xcalloc(pending_cap(s), sizeof(*s->pending));
	s->n_pending = 0;
	while (!server_done(s, watch_signals))
		turn(s, pfd);
	atomic_store(&s->stop, true);
	for (size_t i = 0; i < s->n_pending; i++)
		(void)close(s->pending[i].fd); /* nothing was served */
	s->n_pending = 0;
	net_conns_shutdown(&s->conns); /* wakes blocked threads */
	reap(s, true);
	(void)close(s->lfd); /* listening socket */
	s->lfd = -1;
	free(s->pending);
	s->pending = NULL;
	free(pfd);
	return 0;
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
