// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * librsync glue: the client sends the signature of the version it has, the
 * server answers with a delta against it, the client patches.  All four
 * librsync jobs (signature, load signature, delta, patch) are driven by one
 * streaming pump, so no temporary signature or delta file ever exists.
 */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include <librsync.h>

#include "lib/err.h"
#include "lib/xalloc.h"

#include "fakemusic/fake-music.h"

#define JOB_OUT 65536

/* librsync's reason reaches the user through our message (rs_strerror). */
static void no_trace(rs_loglevel level, char const *msg)
{
	(void)level;
	(void)msg;
}

void delta_init(void)
{
	rs_trace_to(no_trace);
}

int job_pump(rs_job_t *job, const void *in, size_t len, bool eof,
	     pump_out_fn *out, void *arg, const char **why)
{
	char obuf[JOB_OUT];
	rs_buffers_t b = {
		.next_in = (char *)in,
		.avail_in = len,
		.eof_in = eof,
	};

	for (;;) {
		size_t before = b.avail_in, produced;
		rs_result res;

		b.next_out = obuf;
		b.avail_out = sizeof(obuf);
		res = rs_job_iter(job, &b);
		if (res != RS_DONE && res != RS_BLOCKED) {
			*why = rs_strerror(res);
			return -EPROTO;
		}
		produced = sizeof(obuf) - b.avail_out;
		if (produced) {
			int r = out(arg, obuf, produced);

			if (r)
				return r;
		}
		if (res == RS_DONE)
			return 0;
		if (!produced && before == b.avail_in) {
			if (!b.avail_in && !eof)
				return 0;
			/* Blocked with nothing left to give it. */
			*why = "truncated librsync stream";
			return -EPROTO;
		}
	}
}

static int send_sig_frame(void *arg, const void *buf, size_t len)
{
	return conn_send(arg, MSG_SIG, buf, len, NULL, 0);
}

int delta_send_sig(struct conn *c, int fd, uint64_t size, const char **why)
{
	rs_magic_number magic = RS_RK_BLAKE2_SIG_MAGIC;
	size_t block_len = 0, strong_len = (size_t)-1;
	unsigned char *buf;
	rs_job_t *job;
	int r = 0;

	/* The smallest strong sum that is safe for this size: we check a
	 * whole-file hash at the end anyway. */
	if (rs_sig_args((rs_long_t)size, &magic, &block_len, &strong_len) !=
	    RS_DONE) {
		*why = "bad signature arguments";
		return -EINVAL;
	}
	job = rs_sig_begin(block_len, strong_len, magic);
	buf = xmalloc(JOB_OUT);
	if (lseek(fd, 0, SEEK_SET) < 0)
		r = -errno;
	while (!r) {
		ssize_t n = read_full(fd, buf, JOB_OUT);

		if (n < 0) {
			*why = "read basis";
			r = (int)n;
			break;
		}
		r = job_pump(job, buf, (size_t)n, n < JOB_OUT, send_sig_frame,
			     c, why);
		if (n < JOB_OUT)
			break;
	}
	free(buf);
	rs_job_free(job);
	return r ? r : conn_send(c, MSG_SIG_END, NULL, 0, NULL, 0);
}

static int no_output(void *arg, const void *buf, size_t len)
{
	(void)arg;
	(void)buf;
	(void)len;
	return 0;
}

/* A signature starts with magic, block length and strong sum length. */
#define SIG_HEADER 12
#define SIG_STRONG_MAX 64

/*
 * What librsync holds for one block of a signature: the weak and strong
 * sums rounded up to 4 bytes, twice while its array grows by doubling, and
 * about 32 bytes of hash table.  Counting blocks, not bytes, is what keeps
 * a signature of 1-byte strong sums (5 bytes a block on the wire, ~48 in
 * memory) inside the budget.
 */
static uint64_t block_cost(uint32_t strong)
{
	return 2 * ((4 + (uint64_t)strong + 3) & ~3ULL) + 32;
}

/* Charge COST bytes to B: 0, -EMSGSIZE (this one) or -ENOMEM (the pool). */
static int charge(struct sig_budget *b, uint64_t cost, const char **why)
{
	if (cost > b->limit - b->taken) {
		*why = "signature too large";
		return -EMSGSIZE;
	}
	if (atomic_fetch_add(b->held, cost) + cost > b->pool) {
		atomic_fetch_sub(b->held, cost);
		*why = "signature memory of the server exhausted";
		return -ENOMEM;
	}
	b->taken += cost;
	return 0;
}

void sig_budget_release(struct sig_budget *b)
{
	atomic_fetch_sub(b->held, b->taken);
	b->taken = 0;
}

/* Where the signature stream stands: its header, then whole blocks. */
struct sig_stream {
	unsigned char head[SIG_HEADER];
	uint64_t bytes;
	uint32_t block; /* bytes per block on the wire, once known */
};

/*
 * The cost of the blocks that BUF[0..LEN) completes.  Called before
 * librsync sees the bytes, so a refused frame never grows its memory.
 */
static uint64_t frame_cost(struct sig_stream *st, const unsigned char *buf,
			   size_t len)
{
	uint64_t before = st->bytes, blocks;
	uint32_t strong;

	for (size_t i = 0; st->bytes + i < SIG_HEADER && i < len; i++)
		st->head[st->bytes + i] = buf[i];
	st->bytes += len;
	if (st->bytes < SIG_HEADER)
		return 0;
	if (!st->block) {
		strong = (uint32_t)st->head[8] << 24 |
			 (uint32_t)st->head[9] << 16 |
			 (uint32_t)st->head[10] << 8 | st->head[11];
		/* librsync refuses what is out of range; count it small. */
		if (!strong || strong > SIG_STRONG_MAX)
			strong = 1;
		st->block = 4 + strong;
	}
	if (before < SIG_HEADER)
		before = SIG_HEADER;
	blocks = (st->bytes - SIG_HEADER) / st->block -
		 (before - SIG_HEADER) / st->block;
	return blocks * block_cost(st->block - 4);
}

int delta_recv_sig(struct conn *c, struct sig_budget *b, rs_signature_t **sig,
		   const char **why)
{
	unsigned char *buf = xmalloc(PROTO_MAX_BODY);
	rs_job_t *job = rs_loadsig_begin(sig);
	struct sig_stream st = { .bytes = 0 };
	int r;

	*why = "signature";
	for (;;) {
		uint8_t type;
		size_t len;

		/* Read into our one bounded buffer, then charge. */
		r = conn_recv_msg(c, &type, buf, PROTO_MAX_BODY, &len);
		if (r)
			break;
		if (type != MSG_SIG && type != MSG_SIG_END) {
			*why = "expected a signature";
			r = -EPROTO;
			break;
		}
		r = charge(b, frame_cost(&st, buf, len), why);
		if (r)
			break;
		r = job_pump(job, buf, len, type == MSG_SIG_END, no_output,
			     NULL, why);
		if (r || type == MSG_SIG_END)
			break;
	}
	rs_job_free(job);
	free(buf);
	if (!r && rs_build_hash_table(*sig) != RS_DONE) {
		*why = "cannot index signature";
		r = -EPROTO;
	}
	if (r && *sig) {
		rs_free_sumset(*sig);
		*sig = NULL;
	}
	return r;
}

void delta_free_sig(rs_signature_t *sig)
{
	if (sig)
		rs_free_sumset(sig);
}

struct delta_out {
	struct conn *c;
	size_t chunk;
};

static int send_delta_frames(void *arg, const void *buf, size_t len)
{
	struct delta_out *d = arg;
	const unsigned char *p = buf;

	while (len) {
		size_t n = len < d->chunk ? len : d->chunk;
		int r = conn_send(d->c, MSG_DELTA, p, n, NULL, 0);

		if (r)
			return r;
		p += n;
		len -= n;
	}
	return 0;
}

int delta_send(struct conn *c, struct reader *rd, rs_signature_t *sig,
	       size_t chunk, const char **why)
{
	struct delta_out d = { c, chunk };
	unsigned char *buf = xmalloc(JOB_OUT);
	rs_job_t *job = rs_delta_begin(sig);
	uint64_t hash = FNV1A64_INIT;
	int r = 0;

	while (!r) {
		ssize_t n = reader_read(rd, buf, JOB_OUT);

		if (n < 0) {
			*why = "read";
			r = (int)n;
			break;
		}
		hash = fnv1a64(hash, buf, (size_t)n);
		r = job_pump(job, buf, (size_t)n, n == 0, send_delta_frames, &d,
			     why);
		if (n == 0)
			break;
	}
	rs_job_free(job);
	free(buf);
	return r ? r : proto_send_end(c, rd->off, hash);
}

rs_job_t *delta_patch_begin(FILE *basis)
{
	return rs_patch_begin(rs_file_copy_cb, basis);
}

void delta_job_free(rs_job_t *job)
{
	rs_job_free(job);
}
