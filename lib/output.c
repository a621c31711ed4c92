// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * JSON/CSV writers and atomic files.  The JSON writer keeps only a comma
 * flag per nesting level, so writing a result costs no allocation.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "lib/json-read.h"
#include "lib/output.h"
#include "lib/parse.h"
#include "lib/timing.h"
#include "lib/xalloc.h"

void json_init(struct json *j, FILE *f, bool pretty)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
	j->pretty = pretty;
}

static void indent(struct json *j)
{
	int i;

	if (!j->pretty)
		return;
	fputc('\n', j->f);
	for (i = 0; i < j->depth; i++)
		fputs("  ", j->f);
}

static void member(struct json *j, const char *key)
{
	if (j->depth > 0 && j->need_comma[j->depth - 1])
		fputc(',', j->f);
	if (j->depth > 0) {
		j->need_comma[j->depth - 1] = true;
		indent(j);
	}
	if (key) {
		json_write_string(j->f, key);
		fputs(j->pretty ? ": " : ":", j->f);
	}
}

static void open_level(struct json *j, const char *key, char c)
{
	member(j, key);
	fputc(c, j->f);
	if (j->depth < JSON_MAX_DEPTH - 1)
		j->depth++;
	j->need_comma[j->depth - 1] = false;
}

static void close_level(struct json *j, char c)
{
	bool had = j->depth > 0 && j->need_comma[j->depth - 1];

	if (j->depth > 0)
		j->depth--;
	if (had)
		indent(j);
	fputc(c, j->f);
}

void json_object_begin(struct json *j, const char *key)
{
	open_level(j, key, '{');
}

void json_object_end(struct json *j)
{
	close_level(j, '}');
}

void json_array_begin(struct json *j, const char *key)
{
	open_level(j, key, '[');
}

void json_array_end(struct json *j)
{
	close_level(j, ']');
}

/*
 * The well-formed UTF-8 sequence at S, of which AVAIL bytes may be read: its
 * length (json_read_utf8_len()), with its code point in *CP, or 0.
 */
static size_t utf8_seq(const unsigned char *s, size_t avail, unsigned *cp)
{
	size_t len = json_read_utf8_len(s, avail), i;
	unsigned c;

	if (len <= 1) {
		*cp = avail ? s[0] : 0;
		return len;
	}
	c = s[0] & (0x7fu >> len);
	for (i = 1; i < len; i++)
		c = c << 6 | (s[i] & 0x3fu);
	*cp = c;
	return len;
}

/* Characters a terminal acts on or that reorder what follows them. */
static bool cp_unsafe(unsigned cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x2028 ||
	       cp == 0x2029 || (cp >= 0x202a && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069);
}

/*
 * The text_escape() form of the character at S into OUT (room for 16
 * bytes, NUL-terminated); returns how many bytes of S it stands for.
 */
static size_t escape_at(const unsigned char *s, char *out)
{
	unsigned cp;
	size_t len = utf8_seq(s, strnlen((const char *)s, 4), &cp);

	if (!len) {
		snprintf(out, 16, "\\x%02x", s[0]);
		return 1;
	}
	if (cp == '\\')
		strcpy(out, "\\\\");
	else if (cp == '\n')
		strcpy(out, "\\n");
	else if (cp == '\r')
		strcpy(out, "\\r");
	else if (cp == '\t')
		strcpy(out, "\\t");
	else if (cp < 0x80 && cp_unsafe(cp))
		snprintf(out, 16, "\\x%02x", cp);
	else if (cp_unsafe(cp))
		snprintf(out, 16, "\\u%04x", cp);
	else
		snprintf(out, 16, "%.*s", (int)len, (const char *)s);
	return len;
}

char *text_escape(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	/* The longest escape, \u202e or \x1b, is 4x the bytes it spells. */
	char *buf = xmalloc(strlen(s) * 4 + 1), *o = buf, one[16];

	while (*p) {
		size_t used = escape_at(p, one), n = strlen(one);

		memcpy(o, one, n);
		o += n;
		p += used;
	}
	*o = '\0';
	return buf;
}

void text_write(FILE *f, const char *s)
{
	char *e = text_escape(s);

	fputs(e, f);
	free(e);
}

char *fmt_fault_ms(char *buf, double us)
{
	if (!isfinite(us) || us < 0)
		snprintf(buf, FMT_FAULT_MS, "n/a");
	else
		snprintf(buf, FMT_FAULT_MS, "%.*f", us >= 1000 ? 1 : 3,
			 us / 1000);
	return buf;
}

void highorder_line_write(FILE *f, const struct highorder_pct *o, size_t n,
			  double p99_us)
{
	char ms[FMT_FAULT_MS];
	bool probed = false;
	size_t i;

	fputs(" HighOrder:", f);
	if (!n) {
		fputs(" none (not probed)\n", f);
		return;
	}
	for (i = 0; i < n; i++) {
		fprintf(f, " order-%u ", o[i].order);
		if (isfinite(o[i].pct))
			fprintf(f, "%.1f%%", o[i].pct);
		else
			fputs("n/a", f);
		probed |= isfinite(o[i].pct);
	}
	/* No probe, no time. */
	if (!probed || !isfinite(p99_us) || p99_us < 0)
		fputs(" (p99 fault n/a)\n", f);
	else
		fprintf(f, " (p99 fault %s ms)\n", fmt_fault_ms(ms, p99_us));
}

void md_cell_write(FILE *f, const char *s)
{
	char *e = text_escape(s), *p;

	for (p = e; *p; p++) {
		if (strchr("\\`*_|<>[]~&", *p))
			fputc('\\', f);
		fputc(*p, f);
	}
	free(e);
}

void json_write_string(FILE *f, const char *s)
{
	json_write_string_len(f, s, strlen(s));
}

void json_write_string_len(FILE *f, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	const unsigned char *end = p + len;

	fputc('"', f);
	for (; p < end; p++) {
		unsigned cp;
		size_t n;

		if (*p >= 0x80) {
			n = utf8_seq(p, (size_t)(end - p), &cp);
			if (!n)
				fputs("\\ufffd", f);
			else if (cp_unsafe(cp))
				fprintf(f, "\\u%04x", cp);
			else
				fwrite(p, 1, n, f);
			p += n ? n - 1 : 0;
			continue;
		}
		switch (*p) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		default:
			/* Control bytes escaped; other bytes pass as they are. */
			if (*p < 0x20 || *p == 0x7f)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

void json_str(struct json *j, const char *key, const char *val)
{
	member(j, key);
	if (val)
		json_write_string(j->f, val);
	else
		fputs("null", j->f);
}

void json_u64(struct json *j, const char *key, uint64_t val)
{
	member(j, key);
	fprintf(j->f, "%llu", (unsigned long long)val);
}

void json_i64(struct json *j, const char *key, int64_t val)
{
	member(j, key);
	fprintf(j->f, "%lld", (long long)val);
}

void json_double(struct json *j, const char *key, double val)
{
	member(j, key);
	if (isfinite(val))
		fprintf(j->f, "%.10g", val);
	else
		fputs("null", j->f);
}

void json_bool(struct json *j, const char *key, bool val)
{
	member(j, key);
	fputs(val ? "true" : "false", j->f);
}

void json_null(struct json *j, const char *key)
{
	member(j, key);
	fputs("null", j->f);
}

void json_ns_as_s(struct json *j, const char *key, uint64_t ns)
{
	char buf[32];
	size_t n = fmt_ns_fixed(buf, ns, 9);

	member(j, key);
	fwrite(buf, 1, n, j->f);
}

void json_finish(struct json *j)
{
	fputc('\n', j->f);
}

void format_iso8601(char *buf, size_t len, uint64_t real_ns)
{
	time_t t = (time_t)(real_ns / NSEC_PER_SEC);
	struct tm tm;
	char tmp[40];

	gmtime_r(&t, &tm);
	strftime(tmp, sizeof(tmp), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf, len, "%s.%03lluZ", tmp,
		 (unsigned long long)(real_ns % NSEC_PER_SEC / NSEC_PER_MSEC));
}

void format_command_line(char *buf, size_t len, int argc, char **argv)
{
	size_t n = 0;
	int i;

	if (!len)
		return;
	buf[0] = '\0';
	for (i = 0; i < argc && n + 1 < len; i++) {
		const char *a = argv[i];
		bool plain = *a != '\0';
		const char *p;

		for (p = a; *p; p++)
			if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOP"
				    "QRSTUVWXYZ0123456789-_./=:,+@%",
				    *p))
				plain = false;
		if (i && n + 1 < len)
			buf[n++] = ' ';
		if (plain) {
			for (p = a; *p && n + 1 < len; p++)
				buf[n++] = *p;
			continue;
		}
		/* Single quotes; an embedded quote becomes '\''. */
		if (n + 1 < len)
			buf[n++] = '\'';
		for (p = a; *p && n + 4 < len; p++) {
			if (*p == '\'') {
				memcpy(buf + n, "'\\''", 4);
				n += 4;
			} else {
				buf[n++] = *p;
			}
		}
		if (n + 1 < len)
			buf[n++] = '\'';
	}
	buf[n] = '\0';
}

void run_info_init(struct run_info *ri, const char *program, int argc,
		   char **argv)
{
	struct utsname u;

	memset(ri, 0, sizeof(*ri));
	ri->program = program;
	ri->format_version = OUTPUT_FORMAT_VERSION;
	ri->argc = argc;
	ri->argv = argv;
	ri->start_real_ns = real_ns();
	if (uname(&u) == 0) {
		snprintf(ri->kernel, sizeof(ri->kernel), "%s", u.release);
		snprintf(ri->hostname, sizeof(ri->hostname), "%s", u.nodename);
	}
}

void json_run_header(struct json *j, const struct run_info *ri)
{
	char buf[8192];
	int i;

	json_u64(j, "format_version", ri->format_version);
	json_str(j, "program", ri->program);
	json_str(j, "version", PACKAGE_VERSION);
	format_command_line(buf, sizeof(buf), ri->argc, ri->argv);
	json_str(j, "command_line", buf);
	json_array_begin(j, "argv");
	for (i = 0; i < ri->argc; i++)
		json_str(j, NULL, ri->argv[i]);
	json_array_end(j);
	if (ri->has_seed)
		json_u64(j, "seed", ri->seed);
	json_str(j, "kernel", ri->kernel);
	json_str(j, "hostname", ri->hostname);
	format_iso8601(buf, sizeof(buf), ri->start_real_ns);
	json_str(j, "start_time", buf);
	format_iso8601(buf, sizeof(buf),
		       ri->end_real_ns ? ri->end_real_ns : real_ns());
	json_str(j, "end_time", buf);
}

void csv_field(FILE *f, const char *s, char sep)
{
	char *e = text_escape(s), *p;
	bool formula = e[0] && strchr("=+-@", e[0]);

	if (formula || strpbrk(e, ",\"")) {
		fputs(formula ? "\"'" : "\"", f);
		for (p = e; *p; p++) {
			if (*p == '"')
				fputc('"', f);
			fputc(*p, f);
		}
		fputc('"', f);
	} else {
		fputs(e, f);
	}
	fputc(sep, f);
	free(e);
}

/*
 * The descriptor PATH names when it is one of ours (/dev/stdout,
 * /dev/stderr, /dev/fd/N, /proc/self/fd/N), else -1.  Reopening such a path
 * would start a new file offset (and renaming over it replace a link in
 * /dev), so it is written through the descriptor the shell opened.
 */
static int named_fd(const char *path)
{
	static const char *const dirs[] = { "/dev/fd/", "/proc/self/fd/" };
	uint64_t n;
	size_t i;

	if (!strcmp(path, "/dev/stdout"))
		return STDOUT_FILENO;
	if (!strcmp(path, "/dev/stderr"))
		return STDERR_FILENO;
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		size_t len = strlen(dirs[i]);

		if (!strncmp(path, dirs[i], len) &&
		    !parse_u64(path + len, &n) && n <= INT_MAX)
			return (int)n;
	}
	return -1;
}

/* Anything but a regular file (or a new path) is written straight. */
static int open_straight(struct atomic_file *af, const char *path)
{
	int fd = named_fd(path), e;

	if (fd >= 0)
		fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	else
		fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	af->f = fdopen(fd, "w");
	if (!af->f) {
		e = errno;
		(void)close(fd); /* nothing written yet */
		return -e;
	}
	af->path = xstrdup(path);
	return 0;
}

int stream_open(const char *path, mode_t mode)
{
	struct stat st;
	int fd = named_fd(path);

	if (fd >= 0)
		fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	else if (!lstat(path, &st) && !S_ISREG(st.st_mode) &&
		 !S_ISLNK(st.st_mode))
		fd = open(path, O_WRONLY | O_NOCTTY | O_NOFOLLOW | O_CLOEXEC);
	else
		fd = open(path,
			  O_WRONLY | O_CREAT | O_TRUNC | O_NOCTTY | O_NOFOLLOW |
				  O_CLOEXEC,
			  mode);
	return fd < 0 ? -errno : fd;
}

int atomic_open(struct atomic_file *af, const char *path)
{
	struct stat st;
	int fd;

	memset(af, 0, sizeof(*af));
	if (!strcmp(path, "-")) {
		af->f = stdout;
		return 0;
	}
	if (named_fd(path) >= 0 || (!stat(path, &st) && !S_ISREG(st.st_mode)))
		return open_straight(af, path);
	af->path = xstrdup(path);
	af->tmp = xasprintf("%s.tmp.XXXXXX", path);
	fd = mkstemp(af->tmp);
	if (fd < 0) {
		int e = errno;

		free(af->path);
		free(af->tmp);
		memset(af, 0, sizeof(*af));
		return -e;
	}
	/* mkstemp makes 0600; results are meant to be shared. */
	(void)fchmod(fd, 0644);
	af->f = fdopen(fd, "w");
	if (!af->f) {
		int e = errno;

		close(fd);
		unlink(af->tmp);
		free(af->path);
		free(af->tmp);
		memset(af, 0, sizeof(*af));
		return -e;
	}
	return 0;
}

int atomic_commit(struct atomic_file *af)
{
	int r = 0;

	if (!af->f)
		return -EBADF;
	if (!af->tmp) {
		/* stdout (no path) stays open; a straight file is closed. */
		if (fflush(af->f) || ferror(af->f))
			r = errno ? -errno : -EIO;
		if (af->path && fclose(af->f) && !r)
			r = -errno;
		free(af->path);
		af->path = NULL;
		af->f = NULL;
		return r;
	}
	if (fflush(af->f) || ferror(af->f))
		r = errno ? -errno : -EIO;
	if (!r && fsync(fileno(af->f)))
		r = -errno;
	if (fclose(af->f) && !r)
		r = -errno;
	af->f = NULL;
	if (!r && rename(af->tmp, af->path))
		r = -errno;
	if (r)
		unlink(af->tmp);
	free(af->tmp);
	free(af->path);
	af->tmp = af->path = NULL;
	return r;
}

void atomic_abort(struct atomic_file *af)
{
	if (af->tmp) {
		if (af->f)
			(void)fclose(af->f); /* discarded anyway */
		unlink(af->tmp);
	} else if (af->path && af->f) {
		/* Written straight: what went out cannot be taken back. */
		(void)fclose(af->f);
	}
	free(af->tmp);
	free(af->path);
	memset(af, 0, sizeof(*af));
}

/*
 * Copying parsed JSON and escaping text for people: the writers
 * latency-summarize needs to pass other programs' results on without
 * splicing their text.
 */

static void copy_value(struct json *j, const char *key,
		       const struct json_node *v)
{
	size_t i;

	switch (v->type) {
	case JSON_NULL:
		json_null(j, key);
		break;
	case JSON_FALSE:
	case JSON_TRUE:
		json_bool(j, key, v->type == JSON_TRUE);
		break;
	case JSON_NUMBER:
		/* The reader checked the literal: it is valid JSON as is. */
		member(j, key);
		fputs(v->str, j->f);
		break;
	case JSON_STRING:
		member(j, key);
		json_write_string_len(j->f, v->str, v->len);
		break;
	case JSON_ARRAY:
	case JSON_OBJECT:
		if (v->type == JSON_ARRAY)
			json_array_begin(j, key);
		else
			json_object_begin(j, key);
		for (i = 0; i < v->count; i++)
			copy_value(j,
				   v->type == JSON_OBJECT ? v->items[i].key
							  : NULL,
				   &v->items[i]);
		if (v->type == JSON_ARRAY)
			json_array_end(j);
		else
			json_object_end(j);
		break;
	}
}

int json_copy(struct json *j, const char *key, const struct json_node *v)
{
	if (!v) {
		json_null(j, key);
		return 0;
	}
	if (j->depth + json_read_depth(v) > JSON_MAX_DEPTH - 1) {
		json_null(j, key);
		return -E2BIG;
	}
	copy_value(j, key, v);
	return 0;
}
