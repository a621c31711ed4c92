/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fake-music's private interfaces: the wire protocol (proto.c), pacing and
 * the progress meter (meter.c), the served folder or generated album
 * (source.c, songs.c), librsync glue (delta.c), the server (server.c), the
 * client (client.c) with its committer thread (commit.c) and the local
 * player (player.c).  fake-music.c parses options and ties them up.
 */
#ifndef FAKEMUSIC_FAKE_MUSIC_H
#define FAKEMUSIC_FAKE_MUSIC_H

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "lib/net.h"
#include "lib/parse.h"
#include "lib/progress.h"

/* ---- wire protocol (proto.c); documented in fake-music.1 ---- */

#define PROTO_MAGIC "FMUS"
#define PROTO_VERSION 1
/* Header: 4-byte big-endian length of type + payload, then the type byte. */
#define PROTO_HDR 5
/* Largest body (type + payload) either side accepts. */
#define PROTO_MAX_BODY (256U * 1024 + 1)
/* Longest relative path on the wire. */
#define PROTO_NAME_MAX 4000

enum msg_type {
	MSG_HELLO = 1, /* magic[4] version:u16 */
	MSG_LIST,      /* (empty): ask for the file list */
	MSG_ENTRY,     /* size:u64 mtime_ns:u64 name */
	MSG_LIST_END,  /* (empty) */
	MSG_GET,       /* mode:u8 name */
	MSG_SIG,       /* librsync signature bytes */
	MSG_SIG_END,   /* (empty) */
	MSG_DATA,      /* literal file bytes */
	MSG_DELTA,     /* librsync delta bytes */
	MSG_END,       /* size:u64 fnv1a64:u64 */
	MSG_ERROR,     /* text */
	MSG_TYPE_MAX,
};

enum get_mode {
	GET_WHOLE = 0,
	GET_DELTA = 1, /* a signature follows the request */
};

/*
 * Absolute-deadline pacing: byte N is due at start + (N - base) / rate; after
 * a stall the debt is caught up at no more than 5/4 of the rate.
 */
struct pace {
	uint64_t rate; /* bytes/s; 0 = unlimited */
	uint64_t start_ns;
	uint64_t base;
	uint64_t tat_ns; /* the catch-up limit's next conforming time */
};

/* One framed connection; reads and (optionally) sends are paced. */
struct conn {
	int fd;
	struct pace *rpace;   /* paces reads from the socket, or NULL */
	struct pace *wpace;   /* paces sends, or NULL */
	size_t chunk;	      /* largest single recv() when paced */
	uint64_t deadline_ns; /* reads give -ETIME after this (0 = never) */
	/* A wait for the peer longer than this gives -ETIMEDOUT (0 = none). */
	uint64_t idle_ns;
	atomic_uint_fast64_t *progress_ns; /* stamped when bytes move */
	const volatile sig_atomic_t *sig;  /* stop on signal, or NULL */
	atomic_bool *stop;		   /* stop flag of a server, or NULL */
	uint64_t bytes_in;
	uint64_t bytes_out;
	size_t pos, len;
	unsigned char buf[65536];
};

void conn_init(struct conn *c, int fd);
/*
 * Read exactly LEN bytes.  Returns 0, -ECONNRESET at end of stream, -EINTR
 * (stop), -ETIME (deadline), -ETIMEDOUT (idle) or -errno.
 */
int conn_read(struct conn *c, void *buf, size_t len);
/* Read between 1 and MAX bytes (one paced step).  Returns the count or <0. */
ssize_t conn_read_some(struct conn *c, void *buf, size_t max);
/*
 * Read a frame header: *TYPE and *LEN (payload bytes).  -EPROTO for a zero
 * or unknown type, -EMSGSIZE for a body over PROTO_MAX_BODY.
 */
int conn_recv_header(struct conn *c, uint8_t *type, uint32_t *len);
/* Read a whole frame whose payload fits CAP bytes (else -EMSGSIZE). */
int conn_recv_msg(struct conn *c, uint8_t *type, void *buf, size_t cap,
		  size_t *len);
/* Skip LEN payload bytes. */
int conn_skip(struct conn *c, size_t len);
/*
 * Send one frame whose payload is A then B (either may be empty).  With
 * idle_ns, a send that moves nothing for that long gives -ETIMEDOUT.
 */
int conn_send(struct conn *c, uint8_t type, const void *a, size_t alen,
	      const void *b, size_t blen);
/* The header of a frame with TYPE and PAYLOAD bytes after the type. */
void proto_put_header(unsigned char *h, uint8_t type, size_t payload);
/* Parse header H as conn_recv_header() does: 0, -EPROTO or -EMSGSIZE. */
int proto_get_header(const unsigned char *h, uint8_t *type, uint32_t *len);
/* The END frame after a file: its SIZE and FNV-1a HASH. */
int proto_send_end(struct conn *c, uint64_t size, uint64_t hash);
/* HELLO frame payload, and its check (0, -EPROTO bad magic, -EPROTONOSUPPORT). */
size_t proto_hello(unsigned char *buf);
int proto_check_hello(const unsigned char *buf, size_t len);
void put_u64(unsigned char *p, uint64_t v);
uint64_t get_u64(const unsigned char *p);
/* Running FNV-1a 64 over the file contents (the END check). */
#define FNV1A64_INIT 0xcbf29ce484222325ULL
uint64_t fnv1a64(uint64_t h, const void *buf, size_t len);
/*
 * A relative path the protocol accepts: non-empty, not absolute, no empty,
 * "." or ".." component, at most PROTO_NAME_MAX bytes.
 */
bool proto_name_ok(const char *name, size_t len);

/* ---- pacing and the progress meter (meter.c) ---- */

void pace_reset(struct pace *p, uint64_t rate, uint64_t done);
/* When the step after DONE bytes is due (0 when unlimited). */
uint64_t pace_due(const struct pace *p, uint64_t done);
/* A step of N bytes was taken now (feeds the catch-up limit). */
void pace_step(struct pace *p, uint64_t n);
/* Sleep until DONE bytes are due.  0, or -EINTR when *SIG was set. */
int pace_wait(const struct pace *p, uint64_t done,
	      const volatile sig_atomic_t *sig);
/* A small step: about 10 ms at RATE, 512 bytes to 64 KiB. */
size_t pace_chunk(uint64_t rate);

/* Counts audio bytes and prints a line every UNIT of them. */
struct meter {
	struct progress prog;
	uint64_t unit; /* bytes per line: 0.1 s of audio */
	uint64_t bytes;
	uint64_t next; /* bytes at which the next line is due */
	uint64_t start_ns;
	uint64_t last_ns;
	uint64_t max_gap_ns;
	uint64_t lines;
	uint64_t wire;	  /* copied into lines as wire= */
	int sync_fd;	  /* fdatasync this before a line, or -1 */
	bool emit_failed; /* the last error was writing a line */
};

void meter_init(struct meter *m, int fd, uint64_t unit);
/* N more bytes were received and written.  0 or -errno (fdatasync). */
int meter_add(struct meter *m, uint64_t n);

/* ---- the folder: a directory or a generated album (source.c, songs.c) --- */

struct entry {
	char *name; /* relative path, '/'-separated */
	uint64_t size;
	uint64_t mtime_ns;
};

struct album {
	uint64_t seed;
	unsigned songs;	    /* 0: 10 to 14, chosen by the seed */
	uint64_t song_size; /* 0: 3 to 8 MiB each, chosen by the seed */
};

struct source {
	const char *root; /* served directory, or NULL for the album */
	char *root_real;  /* realpath(root) */
	struct album album;
};

/* Start serving directory ROOT (0 or -errno). */
int source_init_dir(struct source *s, const char *root);
void source_init_album(struct source *s, const struct album *a);
void source_release(struct source *s);
/* The files, sorted by name.  0 or -errno; free with entries_free(). */
int source_list(const struct source *s, struct entry **out, size_t *n);
void entries_free(struct entry *e, size_t n);

struct reader {
	int fd; /* -1 for an album song */
	const struct album *album;
	unsigned song;
	uint64_t off;
	uint64_t size;
};

/*
 * Open NAME for reading.  -EACCES when the name is unsafe or resolves
 * outside the folder, -ENOENT, or -errno.
 */
int source_open(const struct source *s, const char *name, struct reader *r);
ssize_t reader_read(struct reader *r, void *buf, size_t len);
void reader_close(struct reader *r);

/* The generated album (songs.c). */
unsigned album_songs(const struct album *a);
void album_entry(const struct album *a, unsigned i, struct entry *e);
void album_fill(const struct album *a, unsigned i, uint64_t off, void *buf,
		size_t len);
/* Write the album into the directory DFD.  0 or -errno, *WHAT set. */
int album_write(const struct album *a, int dfd, const char **what);

/* ---- librsync glue (delta.c) ---- */

struct rs_job;
struct rs_signature;

/*
 * Once, before any job or thread: librsync prints nothing of its own (a
 * corrupt delta or signature is one line of ours, with librsync's reason).
 */
void delta_init(void);
/* Receives a job's output; returns 0 or -errno. */
typedef int pump_out_fn(void *arg, const void *buf, size_t len);

/*
 * Feed IN[0..LEN) to JOB (EOF: no more input follows) and pass all output
 * to OUT.  Returns 0 once the input is consumed (with EOF: the job is done),
 * -EPROTO when librsync reports an error (its text in *WHY), or OUT's error.
 */
int job_pump(struct rs_job *job, const void *in, size_t len, bool eof,
	     pump_out_fn *out, void *arg, const char **why);
/* Client: send the librsync signature of FD (SIZE bytes) as SIG frames. */
int delta_send_sig(struct conn *c, int fd, uint64_t size, const char **why);
/* What the signatures of a server's clients may hold, all and each. */
struct sig_budget {
	atomic_uint_fast64_t *held; /* by all connections */
	uint64_t pool;		    /* cap on *held */
	uint64_t limit;		    /* cap on one signature */
	uint64_t taken;		    /* by this one */
};

/*
 * Server: receive SIG frames up to SIG_END into a signature with its hash
 * table built.  Each frame is charged to B for the memory librsync will
 * hold for its blocks before librsync sees it: -EMSGSIZE when that would
 * pass B->limit, -ENOMEM when B->pool (*WHY says which).  Free with
 * delta_free_sig(), then sig_budget_release().
 */
int delta_recv_sig(struct conn *c, struct sig_budget *b,
		   struct rs_signature **sig, const char **why);
void sig_budget_release(struct sig_budget *b);
void delta_free_sig(struct rs_signature *sig);
/*
 * Server: send R as DELTA frames of at most CHUNK bytes against SIG, then
 * END.  Returns 0 or -errno.
 */
int delta_send(struct conn *c, struct reader *r, struct rs_signature *sig,
	       size_t chunk, const char **why);
/* Client: a patch job applying a delta to the basis file BASIS. */
struct rs_job *delta_patch_begin(FILE *basis);
void delta_job_free(struct rs_job *job);

/* ---- server (server.c) ---- */

/* Defaults of --max-clients, --idle-timeout and --sig-memory. */
#define SERVER_MAX_CLIENTS 64
#define SERVER_IDLE_NS (30ULL * 1000000000)
/*
 * The built-in loopback server of a pull serves only its own client, which
 * the machine under test may stall for long: it is cut off only after this.
 */
#define SERVER_LOOPBACK_IDLE_NS (600ULL * 1000000000)
#define SERVER_SIG_MEMORY (64ULL << 20)
/* One signature may take this share of --sig-memory. */
#define SERVER_SIG_SHARE 4
/* Connections still saying hello, per client slot. */
#define SERVER_PENDING_PER_CLIENT 4

struct pending;

struct server {
	const struct source *src;
	uint64_t rate; /* per-connection send limit, 0 = none */
	unsigned max_clients;
	uint64_t idle_ns;    /* 0 = wait forever */
	uint64_t sig_memory; /* bytes of signature held by all clients */
	int verbose;
	int lfd;
	char addr[NET_ADDR_MAX]; /* "HOST:PORT" actually bound, numeric */
	atomic_bool stop;
	uint64_t deadline_ns;	 /* stop accepting then (0 = never) */
	struct net_conns conns;	 /* the connection threads (accept loop's) */
	struct pending *pending; /* hellos on their way (accept loop) */
	size_t n_pending;
	atomic_uint_fast64_t sig_held;
	atomic_uint_fast64_t n_conns, n_files, n_deltas, n_dropped, n_refused;
	atomic_uint_fast64_t bytes_out;
};

/*
 * Bind and listen on ADDR ("HOST:PORT"; port 0 = any).  0, -EINVAL when
 * ADDR cannot be parsed or resolved, or -errno (*WHAT names the step).
 */
int server_listen(struct server *s, const char *addr, const char **what);
/*
 * Accept and serve until s->stop, a stop signal or the deadline, then close
 * every connection and join their threads.  Returns 0 or -errno.
 */
int server_run(struct server *s);
/* pthread entry point for server_run() (the embedded loopback server). */
void *server_thread(void *arg);
/*
 * Serve the connected socket FD, whose hello has been read, on this thread
 * as a connection thread does (without its closing log line): 0 when
 * the client is done, or -errno with *WHY naming the step.  FD stays open.
 * The seam of the server's fuzz target (tests/fuzz/fuzz-music-server.c).
 */
int server_serve_fd(struct server *s, int fd, const char **why);

/* ---- the committer thread (commit.c) ---- */

/*
 * A file in the destination: its names relative to DIRFD, opened without
 * following links (lib/safe-open), and that directory's path for messages.
 */
struct dest_names {
	int dirfd;
	char *dir;   /* "DEST" or "DEST/sub" */
	char *dest;  /* "NAME" */
	char *part;  /* ".NAME.fm-part": what is being written */
	char *basis; /* ".NAME.fm-basis": a partial copy kept as basis */
};

void dest_names_release(struct dest_names *p);

struct commit_item;

struct committer {
	pthread_t tid;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct commit_item *head, **tailp;
	unsigned pending; /* queued or being committed */
	bool quit;
	int err; /* first error, -errno */
	char errmsg[512];
};

/* Start the thread.  0 or -errno. */
int committer_start(struct committer *cm);
/*
 * Queue a finished file: FD is fsync'd and closed, P->part renamed to
 * P->dest, P->basis removed.  The committer owns FD and *P from here (*P
 * is left empty).
 */
void committer_add(struct committer *cm, int fd, struct dest_names *p);
/* Wait for everything queued.  0, or the first error (text into MSG). */
int committer_drain(struct committer *cm, char *msg, size_t len);
/* The first error so far, without waiting (0 if none). */
int committer_error(struct committer *cm, char *msg, size_t len);
/* Drain, then end the thread.  As committer_drain(). */
int committer_stop(struct committer *cm, char *msg, size_t len);

/* ---- client (client.c) ---- */

struct client {
	const char *host, *port;
	const char *dest;
	uint64_t rate; /* 0 = unlimited */
	unsigned retries;
	bool loop;
	bool fdatasync;
	int verbose;
	uint64_t deadline_ns; /* stop then (0 = never) */
	struct meter meter;
	/* results */
	uint64_t wire_in, wire_out;
	uint64_t files, deltas, uptodate, reconnects, passes;
	uint64_t pace_start_ns, end_ns;
	bool timed_out;
	/*
	 * Gives the connected socket (or -errno) instead of dialling
	 * host:port.  NULL in the program: the seam of the client's fuzz
	 * target (tests/fuzz/fuzz-music-client.c).
	 */
	int (*connect)(struct client *cl);
	int dest_fd;		/* the destination directory */
	struct dest_names left; /* partial file kept for a resume */
	struct committer committer;
	char err[512];
};

/*
 * Open (creating it if needed) the destination directory DIR: fd, or -1
 * with a one-line message in ERR when it cannot be opened or is another
 * user's directory that others may write to (lib/safe-open).
 */
int dest_open(const char *dir, char *err, size_t len);
/*
 * Pull the folder into c->dest, opened as c->dest_fd (closed here).  0,
 * -EINTR (signal), or -1 with c->err.
 */
int client_run(struct client *c);

/* ---- local player (player.c) ---- */

struct player {
	uint64_t rate;
	bool loop;
	uint64_t deadline_ns;
	struct meter meter;
	uint64_t files;
	uint64_t start_ns, end_ns;
	char err[512];
};

/* Play PATHS (files or folders).  0, -EINTR, or -1 with p->err. */
int player_run(struct player *p, char **paths, int n);

#endif
