// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: fake-music's frame decoder (fakemusic/proto.c) on any
 * bytes a peer may send.  The first input byte picks how to decode; the
 * rest go down one end of a socketpair, which is then shut, and the other
 * end is decoded as the client and the server do: frame headers then the
 * payload read or skipped, or whole frames up to a capacity (the client's
 * list entries, the server's requests, the HELLO buffer, a delta chunk),
 * and the checks on what the frames carry (HELLO, an ENTRY's or a GET's
 * name, END).  Beyond "no crash, no sanitizer report" it
 * checks the decoder's promises: a header's type is known and its length
 * within PROTO_MAX_BODY, a frame never fills more than its capacity, and the
 * stream ends with -ECONNRESET, -EMSGSIZE or -EPROTO only.
 * Built and run by `make fuzz`.
 */
#include <config.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "lib/err.h"
#include "fakemusic/fake-music.h"
#include "tests/fuzz/fuzz.h"

static struct conn conn; /* 64 KiB of buffer: not on the stack */
static unsigned char frame[PROTO_MAX_BODY];

/* Capacities the callers use (client list, server request, HELLO, delta). */
static const size_t caps[] = {
	PROTO_NAME_MAX + 16,
	PROTO_NAME_MAX + 1,
	15,
	PROTO_MAX_BODY,
};

/* What the callers check in a frame they took whole. */
static void look_at(uint8_t type, const unsigned char *p, size_t len)
{
	switch (type) {
	case MSG_HELLO:
		(void)proto_check_hello(p, len);
		break;
	case MSG_ENTRY:
		if (len >= 16) {
			(void)get_u64(p);
			(void)get_u64(p + 8);
			(void)proto_name_ok((const char *)p + 16, len - 16);
		}
		break;
	case MSG_GET:
		if (len >= 1)
			(void)proto_name_ok((const char *)p + 1, len - 1);
		break;
	case MSG_END:
		if (len == 16)
			(void)fnv1a64(get_u64(p), p + 8, 8);
		break;
	default:
		break;
	}
}

static int decode(unsigned mode)
{
	uint8_t type;
	uint32_t len;
	size_t got, n;
	int r;

	for (n = 0;; n++) {
		if (mode & 0x80) {
			size_t cap = caps[(mode + n) % 4];

			got = cap + 1;
			r = conn_recv_msg(&conn, &type, frame, cap, &got);
			if (r)
				return r;
			CHECK(got <= cap);
			look_at(type, frame, got);
			continue;
		}
		r = conn_recv_header(&conn, &type, &len);
		if (r)
			return r;
		CHECK(type > 0 && type < MSG_TYPE_MAX);
		CHECK(len < PROTO_MAX_BODY);
		if ((mode + n) & 1) {
			r = conn_skip(&conn, len);
		} else {
			r = conn_read(&conn, frame, len);
			if (!r)
				look_at(type, frame, len);
		}
		if (r)
			return r;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int sv[2], r;

	if (!size)
		return 0;
	CHECK(!socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv));
	/* Fuzz inputs stay far below the socket buffer: one write fits. */
	CHECK(write_all(sv[1], data + 1, size - 1) == 0);
	CHECK(!shutdown(sv[1], SHUT_WR));
	conn_init(&conn, sv[0]);
	r = decode(data[0]);
	CHECK(r == -ECONNRESET || r == -EMSGSIZE || r == -EPROTO);
	CHECK(conn.bytes_in <= size - 1);
	close(sv[0]);
	close(sv[1]);
	return 0;
}
