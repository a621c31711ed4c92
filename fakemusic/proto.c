// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The wire protocol: length-prefixed frames with a type byte over one TCP
 * connection, read through a buffer whose refills can be paced so that a
 * client consumes the stream at its bandwidth limit (the sender then blocks
 * through TCP flow control, as a player over a slow link would make it).
 */
#include <config.h>

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <string.h>
#include <linux/sockios.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include "lib/parse.h"
#include "lib/timing.h"

#include "fakemusic/fake-music.h"

void conn_init(struct conn *c, int fd)
{
	int one = 1;

	memset(c, 0, sizeof(*c));
	c->fd = fd;
	/*
	 * Whole frames go out in one sendmsg(); Nagle would hold a small one
	 * (LIST_END, END, GET) back for the peer's delayed ACK, 40 ms.
	 */
	(void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one,
			 sizeof(one)); /* fails only on a socketpair */
	c->chunk = sizeof(c->buf);
}

static bool conn_stopped(const struct conn *c)
{
	return (c->sig && *c->sig) || (c->stop && atomic_load(c->stop));
}

static void conn_progress(struct conn *c)
{
	if (c->progress_ns)
		atomic_store(c->progress_ns, mono_ns());
}

/*
 * Wait until the socket is ready for EVENTS, within the deadline and the
 * idle limit (blocking in the call itself is fine without either).  0,
 * -EINTR (stop), -ETIME (deadline) or -ETIMEDOUT (idle).
 */
static int conn_wait(struct conn *c, short events)
{
	uint64_t idle_end = c->idle_ns ? mono_ns() + c->idle_ns : 0;
	int queued = -1, q;

	if (!c->deadline_ns && !idle_end)
		return 0;
	for (;;) {
		struct pollfd p = { .fd = c->fd, .events = events };
		uint64_t now = mono_ns(), end = now + NSEC_PER_SEC;

		/*
		 * Writable comes only once half the send buffer is free, which
		 * a slow reader may take minutes to make: a send queue that
		 * shrinks is progress too.
		 */
		if (idle_end && (events & POLLOUT) &&
		    !ioctl(c->fd, SIOCOUTQ, &q)) {
			if (queued >= 0 && q < queued) {
				idle_end = now + c->idle_ns;
				conn_progress(c);
			}
			queued = q;
		}

		if (conn_stopped(c))
			return -EINTR;
		if (c->deadline_ns && now >= c->deadline_ns)
			return -ETIME;
		if (idle_end && now >= idle_end)
			return -ETIMEDOUT;
		if (c->deadline_ns && c->deadline_ns < end)
			end = c->deadline_ns;
		if (idle_end && idle_end < end)
			end = idle_end;
		/* Timed out or interrupted: the checks above decide. */
		if (poll(&p, 1, (int)((end - now) / NSEC_PER_MSEC + 1)) > 0)
			return 0;
	}
}

/* One paced recv() into the empty buffer. */
static int conn_fill(struct conn *c)
{
	size_t want = c->rpace ? c->chunk : sizeof(c->buf);
	ssize_t n;

	c->pos = c->len = 0;
	if (c->rpace && c->rpace->rate) {
		uint64_t due = pace_due(c->rpace, c->bytes_in);

		if (c->deadline_ns && due > c->deadline_ns) {
			(void)sleep_until_ns(c->deadline_ns, c->sig);
			return conn_stopped(c) ? -EINTR : -ETIME;
		}
		if (sleep_until_ns(due, c->sig))
			return -EINTR;
	}
	for (;;) {
		int r;

		if (conn_stopped(c))
			return -EINTR;
		/* A silent peer must not outlast --duration or the idle limit. */
		r = conn_wait(c, POLLIN);
		if (r)
			return r;
		n = recv(c->fd, c->buf, want, 0);
		if (n > 0)
			break;
		if (n == 0)
			return -ECONNRESET;
		if (errno != EINTR && errno != EAGAIN)
			return -errno;
	}
	conn_progress(c);
	c->len = (size_t)n;
	c->bytes_in += (uint64_t)n;
	if (c->rpace)
		pace_step(c->rpace, (uint64_t)n);
	return 0;
}

ssize_t conn_read_some(struct conn *c, void *buf, size_t max)
{
	size_t n;

	if (c->pos == c->len) {
		int r = conn_fill(c);

		if (r)
			return r;
	}
	n = c->len - c->pos;
	if (n > max)
		n = max;
	memcpy(buf, c->buf + c->pos, n);
	c->pos += n;
	return (ssize_t)n;
}

int conn_read(struct conn *c, void *buf, size_t len)
{
	unsigned char *p = buf;

	while (len) {
		ssize_t n = conn_read_some(c, p, len);

		if (n < 0)
			return (int)n;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int conn_skip(struct conn *c, size_t len)
{
	unsigned char tmp[4096];

	while (len) {
		ssize_t n = conn_read_some(
			c, tmp, len < sizeof(tmp) ? len : sizeof(tmp));

		if (n < 0)
			return (int)n;
		len -= (size_t)n;
	}
	return 0;
}

int proto_get_header(const unsigned char *h, uint8_t *type, uint32_t *len)
{
	uint32_t body = (uint32_t)h[0] << 24 | (uint32_t)h[1] << 16 |
			(uint32_t)h[2] << 8 | h[3];

	if (body > PROTO_MAX_BODY)
		return -EMSGSIZE;
	if (body == 0 || h[4] == 0 || h[4] >= MSG_TYPE_MAX)
		return -EPROTO;
	*type = h[4];
	*len = body - 1;
	return 0;
}

void proto_put_header(unsigned char *h, uint8_t type, size_t payload)
{
	size_t body = payload + 1;

	h[0] = (unsigned char)(body >> 24);
	h[1] = (unsigned char)(body >> 16);
	h[2] = (unsigned char)(body >> 8);
	h[3] = (unsigned char)body;
	h[4] = type;
}

int conn_recv_header(struct conn *c, uint8_t *type, uint32_t *len)
{
	unsigned char h[PROTO_HDR];
	int r = conn_read(c, h, sizeof(h));

	return r ? r : proto_get_header(h, type, len);
}

int conn_recv_msg(struct conn *c, uint8_t *type, void *buf, size_t cap,
		  size_t *len)
{
	uint32_t n;
	int r = conn_recv_header(c, type, &n);

	if (r)
		return r;
	if (n > cap)
		return -EMSGSIZE;
	*len = n;
	return conn_read(c, buf, n);
}

int conn_send(struct conn *c, uint8_t type, const void *a, size_t alen,
	      const void *b, size_t blen)
{
	unsigned char h[PROTO_HDR];
	struct iovec iov[3];
	struct msghdr mh;
	size_t body = 1 + alen + blen, total = PROTO_HDR + alen + blen;

	if (body > PROTO_MAX_BODY)
		return -EMSGSIZE;
	if (c->wpace && c->wpace->rate) {
		if (pace_wait(c->wpace, c->bytes_out, c->sig))
			return -EINTR;
		conn_progress(c); /* our own pacing is not the peer's stall */
	}
	proto_put_header(h, type, alen + blen);
	iov[0] = (struct iovec){ h, sizeof(h) };
	iov[1] = (struct iovec){ (void *)a, alen };
	iov[2] = (struct iovec){ (void *)b, blen };
	memset(&mh, 0, sizeof(mh));
	mh.msg_iov = iov;
	mh.msg_iovlen = 3;
	while (total) {
		ssize_t n;

		/* With an idle limit, a peer that takes nothing times out. */
		if (c->idle_ns) {
			int r = conn_wait(c, POLLOUT);

			if (r)
				return r;
		}
		n = sendmsg(c->fd, &mh,
			    MSG_NOSIGNAL | (c->idle_ns ? MSG_DONTWAIT : 0));
		if (n < 0) {
			if (errno == EAGAIN ||
			    (errno == EINTR && !conn_stopped(c)))
				continue;
			return errno == EINTR ? -EINTR : -errno;
		}
		conn_progress(c);
		c->bytes_out += (uint64_t)n;
		total -= (size_t)n;
		if (c->wpace)
			pace_step(c->wpace, (uint64_t)n);
		/* Short send: step over what went out. */
		while (n > 0 && mh.msg_iovlen) {
			size_t step = (size_t)n < mh.msg_iov->iov_len
					      ? (size_t)n
					      : mh.msg_iov->iov_len;

			mh.msg_iov->iov_base =
				(char *)mh.msg_iov->iov_base + step;
			mh.msg_iov->iov_len -= step;
			n -= (ssize_t)step;
			if (!mh.msg_iov->iov_len) {
				mh.msg_iov++;
				mh.msg_iovlen--;
			}
		}
	}
	return 0;
}

void put_u64(unsigned char *p, uint64_t v)
{
	for (int i = 7; i >= 0; i--, v >>= 8)
		p[i] = (unsigned char)v;
}

uint64_t get_u64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

size_t proto_hello(unsigned char *buf)
{
	memcpy(buf, PROTO_MAGIC, 4);
	buf[4] = PROTO_VERSION >> 8;
	buf[5] = PROTO_VERSION & 0xff;
	return 6;
}

int proto_check_hello(const unsigned char *buf, size_t len)
{
	if (len < 6 || memcmp(buf, PROTO_MAGIC, 4))
		return -EPROTO;
	if ((buf[4] << 8 | buf[5]) != PROTO_VERSION)
		return -EPROTONOSUPPORT;
	return 0;
}

uint64_t fnv1a64(uint64_t h, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	while (len--) {
		h ^= *p++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

bool proto_name_ok(const char *name, size_t len)
{
	size_t i, start = 0;

	if (!len || len > PROTO_NAME_MAX || name[0] == '/')
		return false;
	for (i = 0; i <= len; i++) {
		if (i < len && name[i] == '\0')
			return false;
		if (i == len || name[i] == '/') {
			size_t n = i - start;

			if (n == 0 || (n == 1 && name[start] == '.') ||
			    (n == 2 && name[start] == '.' &&
			     name[start + 1] == '.'))
				return false;
			start = i + 1;
		}
	}
	return true;
}

int proto_send_end(struct conn *c, uint64_t size, uint64_t hash)
{
	unsigned char end[16];

	put_u64(end, size);
	put_u64(end + 8, hash);
	return conn_send(c, MSG_END, end, sizeof(end), NULL, 0);
}
