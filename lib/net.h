/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the suite's TCP servers (fake-music's and ringbench rr's) share:
 * the listening socket, a peer's address as text, the port file that a
 * test or a driver waits for, and the connection threads an accept loop
 * starts and reaps.  The list of connections belongs to the accept loop's
 * thread: only it starts, reaps and walks them.
 */
#ifndef LATENCY_NET_H
#define LATENCY_NET_H

#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

/* Room for "HOST:PORT" of any numeric address, "[V6]:PORT" included. */
#define NET_ADDR_MAX (INET6_ADDRSTRLEN + 8)

/*
 * Bind a socket of TYPE (SOCK_STREAM or SOCK_DGRAM; FLAGS such as
 * SOCK_NONBLOCK are added, SOCK_CLOEXEC always) to ADDR, "HOST:PORT" or
 * "[V6]:PORT" (port 0: any free one), with SO_REUSEADDR, and listen on it
 * when it is a stream.  On success stores the descriptor in *FD and the
 * address it is bound to, numeric, in BOUND (NET_ADDR_MAX bytes), and
 * returns 0.  Otherwise returns -EINVAL when ADDR does not parse or
 * resolve, or -errno, with *WHAT naming the step ("resolve", "bind").
 */
int net_listen(const char *addr, int type, int flags, int *fd, char *bound,
	       const char **what);

/*
 * SA (LEN bytes) as "HOST:PORT" ("[HOST]:PORT" for IPv6), numeric, into
 * BUF of N bytes; "?:0" for an address family it does not know.
 */
void net_addr_name(const struct sockaddr *sa, socklen_t len, char *buf,
		   size_t n);

/* The peer of connected socket FD as net_addr_name(); "a peer" if unknown. */
void net_peer_name(int fd, char *buf, size_t n);

/*
 * Write the port of ADDR ("HOST:PORT", the digits after its last colon)
 * and a newline to PATH, atomically (a reader sees the whole port or no
 * file).  Returns 0 or -errno.
 */
int net_write_port_file(const char *path, const char *addr);

/*
 * One connection served by a thread of its own.  A server embeds it in its
 * own per-connection struct and finds that struct again with
 * NET_CONN_OF() (the kernel's container_of).
 */
struct net_conn {
	struct net_conn *next;
	pthread_t tid;
	int fd;
	atomic_bool done; /* set by net_conn_done(), the thread's last act */
};

#define NET_CONN_OF(ptr, type, member)                                         \
	((type *)((char *)(ptr)-offsetof(type, member)))

/* The connection threads an accept loop has started and not yet reaped. */
struct net_conns {
	struct net_conn *head;
	size_t n; /* started and not reaped, done or not */
};

/*
 * Serve FD on a new thread running FN(C), with every signal blocked (stop
 * signals belong to the main thread), and add C to L.  Returns 0, or
 * -errno when no thread could be started (C is then not in L and FD is
 * the caller's).
 */
int net_conn_start(struct net_conns *l, struct net_conn *c, int fd,
		   void *(*fn)(void *));

/* Mark C finished: the last thing its thread does with it. */
void net_conn_done(struct net_conn *c);

/*
 * Join the threads of L that have finished (every one with ALL: wake them
 * first with net_conns_shutdown()), unlink each and hand it to
 * RELEASE(C, ARG), which closes C->fd and frees what holds C.  Returns how
 * many were joined.
 */
size_t net_conns_reap(struct net_conns *l, bool all,
		      void (*release)(struct net_conn *c, void *arg),
		      void *arg);

/*
 * shutdown(SHUT_RDWR) the socket of every connection of L still being
 * served: a thread blocked reading or writing it returns at once.
 */
void net_conns_shutdown(struct net_conns *l);

#endif
