// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The client: pull the folder file by file at the bandwidth limit, as rsync
 * would.  A file whose size and mtime match is left alone; where a version
 * exists (or a partial one from a broken connection) its signature goes up
 * and only a delta comes back.  Data lands in ".NAME.fm-part", is fsync'd
 * and renamed into place only once its size and hash match, so an
 * interrupted pull never leaves a torn file.  Everything in the destination
 * is created relative to directories opened without following links
 * (lib/safe-open), so a link planted there is never written through, and
 * nothing beyond the size the listing announced is ever written.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/safe-open.h"
#include "lib/sig.h"
#include "lib/timing.h"
#include "lib/xalloc.h"

#include "fakemusic/fake-music.h"

#define BACKOFF_FIRST_NS (100 * NSEC_PER_MSEC)
#define BACKOFF_MAX_NS (2 * NSEC_PER_SEC)
#define STREAM_BUF 65536
#define WRITEBACK_STEP (256 * 1024)
/* Longest server message shown (ERROR frames). */
#define SERVER_TEXT_MAX 512

enum pull {
	PULL_DONE,
	PULL_STOP,  /* signal */
	PULL_TIME,  /* --duration is over */
	PULL_NET,   /* connection trouble: retry */
	PULL_FATAL, /* message in c->err */
};

/* The file being pulled. */
struct xfer {
	struct client *cl;
	struct conn *conn;
	int fd;
	uint64_t written;
	uint64_t flushed; /* writeback started up to here */
	uint64_t hash;
	uint64_t limit; /* the size the listing announced */
	bool too_big;	/* the reply went beyond it */
	int disk_error; /* -errno of a local write, or 0 */
};

static enum pull fail(struct client *cl, enum pull st, const char *fmt, ...)
	PRINTF_LIKE(3, 4);
static enum pull fail_err(struct client *cl, enum pull st, int errnum,
			  const char *fmt, ...) PRINTF_LIKE(4, 5);

/* Keep the message for main to print; return ST. */
static enum pull fail(struct client *cl, enum pull st, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vformat_err(cl->err, sizeof(cl->err), 0, fmt, ap);
	va_end(ap);
	return st;
}

/* As fail(), the message ending in ": strerror(ERRNUM)". */
static enum pull fail_err(struct client *cl, enum pull st, int errnum,
			  const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vformat_err(cl->err, sizeof(cl->err), errnum, fmt, ap);
	va_end(ap);
	return st;
}

/* Status for a negative errno from the connection. */
static enum pull net_status(struct client *cl, int r, const char *what)
{
	if (r == -EINTR)
		return PULL_STOP;
	if (r == -ETIME)
		return PULL_TIME;
	if (r == -EPROTO || r == -EMSGSIZE)
		return fail(cl, PULL_FATAL, "protocol error from %s:%s: %s",
			    cl->host, cl->port, what);
	return fail_err(cl, PULL_NET, -r, "lost connection to %s:%s", cl->host,
			cl->port);
}

static int connect_to(struct client *cl)
{
	struct addrinfo hints = { 0 }, *ai, *a;
	int fd = -1, e = ECONNREFUSED;

	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICSERV;
	if (getaddrinfo(cl->host, cl->port, &hints, &ai))
		return -EHOSTUNREACH;
	for (a = ai; a; a = a->ai_next) {
		fd = socket(a->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0) {
			e = errno;
			continue;
		}
		/*
		 * A paced reader needs little buffer, and a small window keeps
		 * the sender in step with us (it is what a slow link does).
		 */
		if (cl->rate) {
			int rcv = (int)(8 * pace_chunk(cl->rate));

			(void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcv,
					 sizeof(rcv)); /* a hint only */
		}
		if (!connect(fd, a->ai_addr, a->ai_addrlen))
			break;
		e = errno;
		/* Interrupted, the connection goes on in the background. */
		if (e == EINTR && !sig_stop) {
			struct pollfd p = { .fd = fd, .events = POLLOUT };

			while (poll(&p, 1, -1) < 0 && errno == EINTR &&
			       !sig_stop)
				;
			e = sig_stop ? EINTR : 0;
			if (!e && getsockopt(fd, SOL_SOCKET, SO_ERROR, &e,
					     &(socklen_t){ sizeof(e) }))
				e = errno;
			if (!e)
				break;
		}
		(void)close(fd); /* unconnected socket */
		fd = -1;
	}
	freeaddrinfo(ai);
	return fd >= 0 ? fd : -e;
}

static int write_out(void *arg, const void *buf, size_t len)
{
	struct xfer *x = arg;
	int r;

	/* A patch that grows past the listed size: not one byte of it. */
	if (len > x->limit - x->written) {
		x->too_big = true;
		return -EFBIG;
	}
	r = write_all(x->fd, buf, len);
	if (r) {
		x->disk_error = r;
		return r;
	}
	x->written += len;
	x->hash = fnv1a64(x->hash, buf, len);
	/*
	 * Start writeback as we go, so the fsync before the rename has
	 * little left to do and does not stall the stream at every file end.
	 */
	if (x->written - x->flushed >= WRITEBACK_STEP) {
		(void)sync_file_range(x->fd, (off_t)x->flushed,
				      (off_t)(x->written - x->flushed),
				      SYNC_FILE_RANGE_WRITE); /* a hint */
		x->flushed = x->written;
	}
	x->cl->meter.wire = x->cl->wire_in + x->conn->bytes_in;
	r = meter_add(&x->cl->meter, len);
	if (r)
		x->disk_error = r;
	return r;
}

/* Control characters from the network reach no terminal. */
static char *printable(char *s)
{
	for (char *p = s; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return s;
}

int dest_open(const char *dir, char *err, size_t len)
{
	char why[128];
	int fd = safe_dir_open(dir, true, 0755), r;

	if (fd < 0) {
		format_err(err, len, -fd, "cannot create '%s'", dir);
		return -1;
	}
	r = safe_dir_check(fd, why, sizeof(why));
	if (r) {
		(void)close(fd); /* a directory */
		if (r == -EPERM)
			snprintf(err, len, "refusing to write into '%s': %s",
				 dir, why);
		else
			format_err(err, len, -r, "cannot use '%s'", dir);
		return -1;
	}
	return fd;
}

/*
 * Open the directory of NAME below the destination, one component at a
 * time, creating and checking each; fill P with the names in it.
 */
static enum pull open_parent(struct client *cl, const char *name,
			     struct dest_names *p)
{
	const char *base = strrchr(name, '/');
	char *dirs = base ? xasprintf("%.*s", (int)(base - name), name) : NULL;
	char *comp = dirs, *next, why[128];
	int fd = fcntl(cl->dest_fd, F_DUPFD_CLOEXEC, 0);
	bool unsafe = false;

	if (fd < 0)
		fd = -errno;
	base = base ? base + 1 : name;
	*p = (struct dest_names){ .dirfd = -1 };
	p->dir = dirs ? xasprintf("%s/%s", cl->dest, dirs) : xstrdup(cl->dest);
	for (; fd >= 0 && comp; comp = next) {
		int sub;

		next = strchr(comp, '/');
		if (next)
			*next++ = '\0';
		sub = safe_subdir_open(fd, comp, true, 0755);
		(void)close(fd); /* a directory */
		fd = sub;
		if (fd >= 0 && safe_dir_check(fd, why, sizeof(why)) == -EPERM) {
			(void)close(fd);
			unsafe = true;
			fd = -EPERM;
		}
	}
	free(dirs);
	if (unsafe)
		return fail(cl, PULL_FATAL, "refusing to write into '%s': %s",
			    p->dir, why);
	if (fd < 0)
		return fail_err(cl, PULL_FATAL, -fd,
				"cannot create directories for '%s/%s'",
				cl->dest, name);
	p->dirfd = fd;
	p->dest = xstrdup(base);
	p->part = xasprintf(".%s.fm-part", base);
	p->basis = xasprintf(".%s.fm-basis", base);
	return PULL_DONE;
}

/* The frame that ends a file: END (checked) or ERROR. */
static enum pull receive_end(struct xfer *x, struct rs_job *patch, uint8_t type,
			     uint32_t len, unsigned char *buf, const char *name)
{
	struct client *cl = x->cl;
	const char *why = "";
	int r;

	if (len > STREAM_BUF - 1)
		return net_status(cl, -EMSGSIZE, "long message");
	r = conn_read(x->conn, buf, len);
	if (r)
		return net_status(cl, r, "");
	buf[len] = '\0';
	if (type == MSG_ERROR)
		return fail(cl, PULL_FATAL, "server: %s",
			    printable((char *)buf));
	if (patch)
		r = job_pump(patch, NULL, 0, true, write_out, x, &why);
	if (r)
		return x->disk_error || x->too_big ? PULL_FATAL
						   : net_status(cl, r, why);
	if (len != 16 || get_u64(buf) != x->written ||
	    get_u64(buf + 8) != x->hash)
		return fail(cl, PULL_FATAL, "'%s': size or checksum mismatch",
			    name);
	return PULL_DONE;
}

/* Receive DATA/DELTA frames up to END into X; PATCH non-NULL for deltas. */
static enum pull receive(struct xfer *x, struct rs_job *patch, const char *name)
{
	struct client *cl = x->cl;
	unsigned char *buf = xmalloc(STREAM_BUF);
	enum pull st = PULL_DONE;
	const char *why = "";

	for (;;) {
		uint8_t type;
		uint32_t len;
		int r = conn_recv_header(x->conn, &type, &len);

		if (r) {
			st = net_status(cl, r, "bad frame");
			break;
		}
		if (type == MSG_ERROR || type == MSG_END) {
			st = receive_end(x, patch, type, len, buf, name);
			break;
		}
		if (type != (patch ? MSG_DELTA : MSG_DATA)) {
			st = net_status(cl, -EPROTO, "unexpected message");
			break;
		}
		/* Literal data is checked against the listing up front. */
		if (!patch && len > x->limit - x->written) {
			x->too_big = true;
			break;
		}
		while (len && !r) {
			ssize_t n = conn_read_some(
				x->conn, buf,
				len < STREAM_BUF ? len : STREAM_BUF);

			if (n < 0) {
				r = (int)n;
				break;
			}
			len -= (uint32_t)n;
			if (patch)
				r = job_pump(patch, buf, (size_t)n, false,
					     write_out, x, &why);
			else
				r = write_out(x, buf, (size_t)n);
		}
		if (r) {
			st = x->disk_error || x->too_big
				     ? PULL_FATAL
				     : net_status(cl, r, why);
			break;
		}
	}
	free(buf);
	if (x->too_big)
		st = fail(cl, PULL_FATAL,
			  "protocol error from %s:%s: '%s' is larger than "
			  "the %llu bytes listed",
			  cl->host, cl->port, name,
			  (unsigned long long)x->limit);
	else if (st == PULL_FATAL && x->disk_error && cl->meter.emit_failed)
		st = fail_err(cl, st, -x->disk_error,
			      "cannot write progress lines");
	else if (st == PULL_FATAL && x->disk_error)
		st = fail_err(cl, st, -x->disk_error, "cannot write '%s/%s'",
			      cl->dest, name);
	return st;
}

/*
 * A basis is read, never followed: a regular file with a single link (a
 * hard link planted to another file is not ours to send hashes of).
 */
static FILE *open_basis(int dirfd, const char *name, struct stat *st)
{
	int fd = safe_open_regular(dirfd, name, st);
	FILE *f;

	if (fd < 0)
		return NULL;
	if (st->st_nlink == 1 && (f = fdopen(fd, "rb")))
		return f;
	(void)close(fd); /* read-only */
	return NULL;
}

/*
 * Pick the basis: a partial copy from a broken transfer (it holds the newest
 * bytes), else the version already in DEST.  Returns it open, or NULL.
 */
static FILE *pick_basis(const struct dest_names *p, bool use_dest,
			struct stat *st)
{
	struct stat pst;
	FILE *f;

	if (!fstatat(p->dirfd, p->part, &pst, AT_SYMLINK_NOFOLLOW) &&
	    S_ISREG(pst.st_mode) && pst.st_size > 0)
		(void)renameat(p->dirfd, p->part, p->dirfd,
			       p->basis); /* else no partial basis */
	f = open_basis(p->dirfd, p->basis, st);
	if (!f && use_dest)
		f = open_basis(p->dirfd, p->dest, st);
	return f;
}

/* Stamp the finished file and hand it to the committer. */
static enum pull commit(struct client *cl, struct xfer *x, struct dest_names *p,
			const struct entry *e)
{
	struct timespec ts[2] = {
		{ (time_t)(e->mtime_ns / NSEC_PER_SEC),
		  (long)(e->mtime_ns % NSEC_PER_SEC) },
	};

	ts[1] = ts[0];
	if (futimens(x->fd, ts))
		return fail_err(cl, PULL_FATAL, errno,
				"cannot set the time of '%s/%s'", p->dir,
				p->part);
	committer_add(&cl->committer, x->fd, p);
	x->fd = -1;
	return PULL_DONE;
}

static bool up_to_date(const struct dest_names *p, const struct entry *e)
{
	struct stat st;

	return !fstatat(p->dirfd, p->dest, &st, AT_SYMLINK_NOFOLLOW) &&
	       S_ISREG(st.st_mode) && (uint64_t)st.st_size == e->size &&
	       (uint64_t)st.st_mtim.tv_sec * NSEC_PER_SEC +
			       (uint64_t)st.st_mtim.tv_nsec ==
		       e->mtime_ns;
}

/* Ask for E (a delta where there is a basis), receive it, commit it. */
static enum pull transfer(struct client *cl, struct conn *c,
			  const struct entry *e, struct dest_names *p,
			  bool fresh)
{
	struct xfer x = { cl, c, -1, 0, 0, FNV1A64_INIT, e->size, false, 0 };
	struct rs_job *patch = NULL;
	const char *why = "";
	unsigned char mode;
	struct stat st;
	enum pull ret;
	FILE *bf = pick_basis(p, !fresh, &st);
	int r;

	x.fd = safe_create(p->dirfd, p->part, O_WRONLY, 0644);
	if (x.fd < 0) {
		ret = fail_err(cl, PULL_FATAL, -x.fd, "cannot create '%s/%s'",
			       p->dir, p->part);
		goto out;
	}
	cl->meter.sync_fd = cl->fdatasync ? x.fd : -1;
	mode = bf ? GET_DELTA : GET_WHOLE;
	r = conn_send(c, MSG_GET, &mode, 1, e->name, strlen(e->name));
	if (!r && bf)
		r = delta_send_sig(c, fileno(bf), (uint64_t)st.st_size, &why);
	if (r) {
		ret = net_status(cl, r, why);
		goto out;
	}
	if (bf)
		patch = delta_patch_begin(bf);
	ret = receive(&x, patch, e->name);
	if (ret == PULL_DONE)
		ret = commit(cl, &x, p, e);
	if (ret == PULL_DONE) {
		cl->files++;
		cl->deltas += bf != NULL;
	}
out:
	cl->meter.sync_fd = -1;
	if (patch)
		delta_job_free(patch);
	if (bf)
		(void)fclose(bf); /* read-only */
	if (x.fd >= 0)
		(void)close(x.fd); /* kept or removed, never renamed */
	return ret;
}

/* Remove what a failed transfer left in P's directory. */
static void remove_partial(const struct dest_names *p)
{
	if (p->dirfd < 0)
		return;
	(void)unlinkat(p->dirfd, p->part, 0); /* best effort */
	(void)unlinkat(p->dirfd, p->basis, 0);
}

static enum pull sync_file(struct client *cl, struct conn *c,
			   const struct entry *e, bool fresh)
{
	struct dest_names p = { .dirfd = -1 };
	enum pull ret;

	/*
	 * --loop pulls every file whole again; the old copy stays in place
	 * until the new one replaces it.
	 */
	if (committer_error(&cl->committer, cl->err, sizeof(cl->err)))
		ret = PULL_FATAL;
	else
		ret = open_parent(cl, e->name, &p);
	if (ret == PULL_DONE && !fresh && up_to_date(&p, e))
		cl->uptodate++;
	else if (ret == PULL_DONE)
		ret = transfer(cl, c, e, &p, fresh);
	/* A broken connection keeps the partial file as the next basis. */
	if (ret != PULL_DONE && ret != PULL_NET)
		remove_partial(&p);
	dest_names_release(&cl->left);
	if (ret == PULL_NET)
		cl->left = p;
	else
		dest_names_release(&p);
	return ret;
}

static enum pull get_list(struct client *cl, struct conn *c, struct entry **out,
			  size_t *n)
{
	unsigned char *buf = xmalloc(PROTO_NAME_MAX + 32);
	struct entry *e = NULL;
	size_t cap = 0;
	enum pull st = PULL_DONE;

	*n = 0;
	for (;;) {
		uint8_t type;
		size_t len;
		int r = conn_recv_msg(c, &type, buf, PROTO_NAME_MAX + 16, &len);

		if (r) {
			st = net_status(cl, r, "bad list");
			break;
		}
		buf[len] = '\0';
		if (type == MSG_LIST_END)
			break;
		if (type == MSG_ERROR) {
			st = fail(cl, PULL_FATAL, "server: %s",
				  printable((char *)buf));
			break;
		}
		if (type != MSG_ENTRY || len < 17 ||
		    !proto_name_ok((char *)buf + 16, len - 16)) {
			st = fail(cl, PULL_FATAL,
				  "protocol error from %s:%s: bad file entry",
				  cl->host, cl->port);
			break;
		}
		if (*n == cap) {
			cap = cap ? 2 * cap : 32;
			e = xreallocarray(e, cap, sizeof(*e));
		}
		e[*n] = (struct entry){ xstrdup((char *)buf + 16), get_u64(buf),
					get_u64(buf + 8) };
		(*n)++;
	}
	free(buf);
	*out = e;
	if (st != PULL_DONE) {
		entries_free(e, *n);
		*out = NULL;
		*n = 0;
	}
	return st;
}

/* One connection: hello, list, then the files from *NEXT on. */
static enum pull session(struct client *cl, struct conn *c, size_t *next,
			 size_t *fresh_from)
{
	unsigned char hello[SERVER_TEXT_MAX + 1];
	struct entry *e;
	size_t n, len;
	uint8_t type;
	enum pull st;
	int r;

	r = conn_send(c, MSG_HELLO, hello, proto_hello(hello), NULL, 0);
	if (!r)
		r = conn_recv_msg(c, &type, hello, sizeof(hello) - 1, &len);
	if (r)
		return net_status(cl, r, "bad hello");
	/* Refused instead of greeted (busy): worth a retry. */
	if (type == MSG_ERROR) {
		hello[len] = '\0';
		return fail(cl, PULL_NET, "server %s:%s: %s", cl->host,
			    cl->port, printable((char *)hello));
	}
	if (type != MSG_HELLO || proto_check_hello(hello, len))
		return fail(cl, PULL_FATAL,
			    "%s:%s is not a fake-music server "
			    "of protocol version %d",
			    cl->host, cl->port, PROTO_VERSION);
	r = conn_send(c, MSG_LIST, NULL, 0, NULL, 0);
	if (r)
		return net_status(cl, r, "");
	st = get_list(cl, c, &e, &n);
	while (st == PULL_DONE && *next < n) {
		bool fresh = cl->loop && cl->passes && *next >= *fresh_from;

		if (fresh)
			*fresh_from = *next + 1;
		st = sync_file(cl, c, &e[*next], fresh);
		if (st == PULL_DONE)
			(*next)++;
	}
	if (st == PULL_DONE)
		*next = 0;
	entries_free(e, n);
	return st;
}

/* Sleep the back-off, unless a signal or the deadline comes first. */
static enum pull back_off(struct client *cl, uint64_t ns)
{
	uint64_t until = mono_ns() + ns;

	if (cl->deadline_ns && until >= cl->deadline_ns) {
		(void)sleep_until_ns(cl->deadline_ns, &sig_stop);
		return sig_stop ? PULL_STOP : PULL_TIME;
	}
	return sleep_until_ns(until, &sig_stop) ? PULL_STOP : PULL_DONE;
}

/* One pass over the folder, reconnecting as needed. */
static enum pull pass(struct client *cl, struct conn *c, struct pace *rp)
{
	uint64_t backoff = BACKOFF_FIRST_NS;
	size_t next = 0, fresh_from = 0;
	unsigned failures = 0;

	for (;;) {
		uint64_t before = cl->meter.bytes;
		int fd = cl->connect ? cl->connect(cl) : connect_to(cl);
		enum pull st;

		if (fd < 0) {
			st = fd == -EINTR ? PULL_STOP
					  : fail_err(cl, PULL_NET, -fd,
						     "cannot connect to %s:%s",
						     cl->host, cl->port);
		} else {
			conn_init(c, fd);
			c->sig = &sig_stop;
			c->deadline_ns = cl->deadline_ns;
			c->rpace = rp;
			c->chunk = pace_chunk(cl->rate);
			/* A fresh deadline: no catching up after a pause. */
			pace_reset(rp, cl->rate, 0);
			st = session(cl, c, &next, &fresh_from);
			/* The last step is played over its own time too. */
			if (st == PULL_DONE && cl->rate &&
			    pace_wait(rp, c->bytes_in, &sig_stop))
				st = PULL_STOP;
			cl->wire_in += c->bytes_in;
			cl->wire_out += c->bytes_out;
			(void)close(fd); /* socket */
		}
		if (st != PULL_NET)
			return st;
		if (cl->meter.bytes > before) {
			failures = 0;
			backoff = BACKOFF_FIRST_NS;
		}
		if (failures++ >= cl->retries) {
			size_t l = strlen(cl->err);

			if (cl->retries)
				snprintf(cl->err + l, sizeof(cl->err) - l,
					 " (gave up after %u retries)",
					 cl->retries);
			return PULL_FATAL;
		}
		if (cl->verbose)
			warn("%s; retrying in %llu ms", printable(cl->err),
			     (unsigned long long)(backoff / NSEC_PER_MSEC));
		cl->reconnects++;
		st = back_off(cl, backoff);
		if (st != PULL_DONE)
			return st;
		backoff = backoff * 2 > BACKOFF_MAX_NS ? BACKOFF_MAX_NS
						       : backoff * 2;
	}
}

int client_run(struct client *cl)
{
	struct conn *c;
	struct pace rp;
	enum pull st;
	int r;

	cl->left = (struct dest_names){ .dirfd = -1 };
	r = committer_start(&cl->committer);
	if (r) {
		(void)close(cl->dest_fd); /* a directory */
		format_err(cl->err, sizeof(cl->err), -r,
			   "cannot start a thread");
		return -1;
	}
	c = xmalloc(sizeof(*c));
	pace_reset(&rp, cl->rate, 0);
	cl->pace_start_ns = rp.start_ns;
	for (;;) {
		st = pass(cl, c, &rp);
		if (st != PULL_DONE)
			break;
		cl->passes++;
		/* Files renamed before --loop removes them again. */
		if (!cl->loop ||
		    committer_drain(&cl->committer, cl->err, sizeof(cl->err)))
			break;
	}
	cl->end_ns = mono_ns();
	/* What was received whole is committed, even when interrupted. */
	if (committer_stop(&cl->committer, cl->err, sizeof(cl->err)))
		st = PULL_FATAL;
	free(c);
	/* A partial file left by the last broken connection goes too. */
	remove_partial(&cl->left);
	dest_names_release(&cl->left);
	(void)close(cl->dest_fd); /* a directory */
	cl->timed_out = st == PULL_TIME;
	/* File names from the server are in it, and any byte may be. */
	printable(cl->err);
	if (st == PULL_STOP)
		return -EINTR;
	return st == PULL_FATAL ? -1 : 0;
}
