// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rr-junk: a hostile peer for ringbench's rr server, for the tests.
 * "rr-junk PORT TEXT" connects to 127.0.0.1:PORT, sends TEXT (C escapes
 * \n and \\ understood), then prints everything the server sends until it
 * closes the connection, and exits 0 when it did within 10 s (1 when not).
 */
#include <config.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/parse.h"

static size_t unescape(const char *s, char *out)
{
	size_t n = 0;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] == 'n') {
			out[n++] = '\n';
			s++;
		} else if (s[0] == '\\' && s[1] == '\\') {
			out[n++] = '\\';
			s++;
		} else {
			out[n++] = *s;
		}
	}
	return n;
}

int main(int argc, char **argv)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	struct timeval tv = { .tv_sec = 10 };
	char *msg, buf[256];
	uint64_t port;
	size_t len;
	ssize_t n;
	int fd;

	set_progname(argv[0]);
	if (argc != 3 || parse_u64(argv[1], &port) || port > 65535)
		die(EXIT_USAGE, "usage: rr-junk PORT TEXT");
	msg = malloc(strlen(argv[2]) + 1);
	if (!msg)
		die(EXIT_RUN_FAILED, "out of memory");
	len = unescape(argv[2], msg);
	sin.sin_port = htons((uint16_t)port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sin, sizeof(sin)))
		die_errno(EXIT_RUN_FAILED, "cannot connect to port %s",
			  argv[1]);
	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
	    write_all(fd, msg, len))
		die_errno(EXIT_RUN_FAILED, "cannot send");
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		fwrite(buf, 1, (size_t)n, stdout);
	free(msg);
	if (n < 0)
		die_errno(EXIT_RUN_FAILED, "the server did not close");
	close(fd);
	return fclose(stdout) ? EXIT_RUN_FAILED : 0;
}
