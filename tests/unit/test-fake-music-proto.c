// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for fake-music's wire protocol (fakemusic/proto.c): safe
 * names, HOST:PORT parsing, framing over a socketpair, the limits a peer
 * cannot cross, the hello check and the END hash.
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "fakemusic/fake-music.h"
#include "tests/tap.h"

static const struct {
	const char *name;
	bool ok;
} names[] = {
	{ "track-01.mp3", true }, { "disc2/bonus.mp3", true },
	{ "a/b/c", true },	  { "..hidden", true },
	{ "a..b", true },	  { "", false },
	{ "/etc/passwd", false }, { "..", false },
	{ ".", false },		  { "../secret", false },
	{ "a/../../b", false },	  { "a/..", false },
	{ "a//b", false },	  { "a/", false },
	{ "./a", false },
};

static const struct {
	const char *in, *host, *port;
} addrs[] = {
	{ "127.0.0.1:873", "127.0.0.1", "873" },
	{ "localhost:0", "localhost", "0" },
	{ "[::1]:8730", "::1", "8730" },
	{ "127.0.0.1", NULL, NULL },
	{ "127.0.0.1:", NULL, NULL },
	{ ":80", NULL, NULL },
	{ "host:65536", NULL, NULL },
	{ "host:8x", NULL, NULL },
	{ "::1:80", NULL, NULL },
	{ "[::1]80", NULL, NULL },
};

static void test_names(void)
{
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		ok(proto_name_ok(names[i].name, strlen(names[i].name)) ==
			   names[i].ok,
		   "name '%s' %s", names[i].name,
		   names[i].ok ? "accepted" : "refused");
	ok(!proto_name_ok("a\0b", 3), "name with a NUL refused");
}

static void test_addrs(void)
{
	for (size_t i = 0; i < sizeof(addrs) / sizeof(addrs[0]); i++) {
		char host[64], port[16];
		int r = split_host_port(addrs[i].in, host, sizeof(host), port,
					sizeof(port));

		if (!addrs[i].host) {
			is_int(r, -EINVAL, "'%s' refused", addrs[i].in);
			continue;
		}
		is_int(r, 0, "'%s' parsed", addrs[i].in);
		is_str(host, addrs[i].host, "'%s' host", addrs[i].in);
		is_str(port, addrs[i].port, "'%s' port", addrs[i].in);
	}
}

static struct conn ca, cb;

static void test_frames(int a, int b)
{
	unsigned char buf[64];
	uint8_t type;
	uint32_t len32;
	size_t len;

	conn_init(&ca, a);
	conn_init(&cb, b);
	is_int(conn_send(&ca, MSG_ENTRY, "abc", 3, "de", 2), 0, "send");
	is_int(conn_recv_msg(&cb, &type, buf, sizeof(buf), &len), 0, "recv");
	is_int(type, MSG_ENTRY, "type survives");
	ok(len == 5 && !memcmp(buf, "abcde", 5), "payload survives");
	is_u64(ca.bytes_out, PROTO_HDR + 5, "bytes out counted");
	is_u64(cb.bytes_in, PROTO_HDR + 5, "bytes in counted");

	is_int(conn_send(&ca, MSG_DATA, buf, 10, NULL, 0), 0, "send 10");
	is_int(conn_recv_msg(&cb, &type, buf, 4, &len), -EMSGSIZE,
	       "payload larger than the caller's buffer refused");
	is_int(conn_skip(&cb, 10), 0, "skip it");

	is_int(write(a, "\xff\xff\xff\xff\x08", 5), 5, "raw oversized");
	is_int(conn_recv_header(&cb, &type, &len32), -EMSGSIZE,
	       "oversized frame refused");
	is_int(write(a, "\0\0\0\x01\x00", 5), 5, "raw type 0");
	is_int(conn_recv_header(&cb, &type, &len32), -EPROTO, "type 0 refused");
	is_int(write(a, "\0\0\0\x01\x63", 5), 5, "raw type 99");
	is_int(conn_recv_header(&cb, &type, &len32), -EPROTO,
	       "unknown type refused");
	is_int(write(a, "\0\0\0\0\x01", 5), 5, "raw empty body");
	is_int(conn_recv_header(&cb, &type, &len32), -EPROTO,
	       "zero length refused");
	is_int(proto_send_end(&ca, 1234, 0x0102030405060708ULL), 0, "END");
	is_int(conn_recv_msg(&cb, &type, buf, sizeof(buf), &len), 0,
	       "END read");
	ok(type == MSG_END && len == 16 && get_u64(buf) == 1234 &&
		   get_u64(buf + 8) == 0x0102030405060708ULL,
	   "END carries size and hash, big-endian");
	close(a);
	is_int(conn_recv_header(&cb, &type, &len32), -ECONNRESET,
	       "end of stream is -ECONNRESET");
}

int main(void)
{
	unsigned char h[16];
	int sv[2];

	test_names();
	test_addrs();
	is_int(proto_check_hello(h, proto_hello(h)), 0, "our hello is good");
	h[5]++;
	is_int(proto_check_hello(h, 6), -EPROTONOSUPPORT, "other version");
	h[0] = 'X';
	is_int(proto_check_hello(h, 6), -EPROTO, "bad magic");
	is_int(proto_check_hello(h, 3), -EPROTO, "short hello");
	/* FNV-1a 64 test vectors. */
	is_u64(fnv1a64(FNV1A64_INIT, "", 0), 0xcbf29ce484222325ULL, "fnv ''");
	is_u64(fnv1a64(FNV1A64_INIT, "a", 1), 0xaf63dc4c8601ec8cULL, "fnv 'a'");
	is_u64(fnv1a64(fnv1a64(FNV1A64_INIT, "foo", 3), "bar", 3),
	       fnv1a64(FNV1A64_INIT, "foobar", 6), "fnv runs in pieces");
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		skip_all("no socketpair");
	test_frames(sv[0], sv[1]);
	close(sv[1]);
	return done_testing();
}
