// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The progress-line writer every workload uses and the reader latency-output
 * uses.  The writer formats into a stack buffer and issues a single write(),
 * the only way to keep lines whole when several writers share a pipe.
 */
#include <config.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lib/progress.h"
#include "lib/timing.h"

void progress_init(struct progress *p, int fd, const char *prog)
{
	p->fd = fd;
	p->prog = prog;
	p->lines = 0;
}

int progress_emit(struct progress *p, uint64_t ts_ns, const char *fmt, ...)
{
	char buf[PROGRESS_LINE_MAX];
	size_t n, plen;
	va_list ap;
	int r;

	if (p->fd < 0)
		return 0;
	n = fmt_ns_fixed(buf, ts_ns, 9);
	buf[n++] = ' ';
	plen = strlen(p->prog);
	if (n + plen + 2 >= sizeof(buf))
		return -EMSGSIZE;
	memcpy(buf + n, p->prog, plen);
	n += plen;
	buf[n++] = ' ';
	va_start(ap, fmt);
	r = vsnprintf(buf + n, sizeof(buf) - n, fmt, ap);
	va_end(ap);
	if (r < 0 || (size_t)r + 1 >= sizeof(buf) - n)
		return -EMSGSIZE;
	n += r;
	buf[n++] = '\n';
	r = write_all(p->fd, buf, n);
	if (r == 0)
		p->lines++;
	return r;
}

bool progress_parse_ts(const char *line, size_t len, uint64_t *ns, size_t *end)
{
	uint64_t sec = 0, frac = 0;
	size_t i = 0, fd = 0;

	while (i < len && line[i] >= '0' && line[i] <= '9') {
		/*
		 * Ten digits of seconds (317 years of uptime) keep the
		 * nanoseconds within 64 bits; eleven could wrap around.
		 */
		if (i >= 10)
			return false;
		sec = sec * 10 + (uint64_t)(line[i] - '0');
		i++;
	}
	if (i == 0 || i >= len || line[i] != '.')
		return false;
	i++;
	while (i < len && line[i] >= '0' && line[i] <= '9') {
		if (fd == 9)
			return false;
		frac = frac * 10 + (uint64_t)(line[i] - '0');
		fd++;
		i++;
	}
	if (!fd || (i < len && line[i] != ' ' && line[i] != '\t'))
		return false;
	while (fd < 9) {
		frac *= 10;
		fd++;
	}
	*ns = sec * NSEC_PER_SEC + frac;
	*end = i;
	return true;
}

const char *progress_find_key(const char *line, size_t len, const char *key,
			      size_t *vlen)
{
	size_t klen = strlen(key), i = 0;

	while (i + klen < len) {
		if ((i == 0 || line[i - 1] == ' ' || line[i - 1] == '\t') &&
		    line[i + klen] == '=' && !memcmp(line + i, key, klen)) {
			size_t v = i + klen + 1, e = v;

			while (e < len && line[e] != ' ' && line[e] != '\t' &&
			       line[e] != '\n' && line[e] != '\r')
				e++;
			*vlen = e - v;
			return line + v;
		}
		i++;
	}
	return NULL;
}
