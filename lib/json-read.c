// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The strict JSON reader: a recursive-descent parser over a length-bounded
 * buffer (recursion is bounded by JSON_READ_MAX_DEPTH), building a tree of
 * json_node.  Results are read once and looked up a few times, so the tree
 * favours simplicity over speed: member lookup is a linear scan.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/json-read.h"

struct parser {
	const unsigned char *buf;
	size_t len;
	size_t pos;
	int depth;
	int ret; /* first error: -EINVAL or -ENOMEM */
	struct json_read_error *err;
};

static int fail_at(struct parser *p, size_t at, const char *fmt, ...)
	PRINTF_LIKE(3, 4);

static int fail_at(struct parser *p, size_t at, const char *fmt, ...)
{
	struct json_read_error *e = p->err;
	va_list ap;
	size_t i;

	if (p->ret)
		return p->ret;
	p->ret = -EINVAL;
	if (!e)
		return p->ret;
	if (at > p->len)
		at = p->len;
	e->offset = at;
	e->line = 1;
	e->column = 1;
	for (i = 0; i < at; i++) {
		if (p->buf[i] == '\n') {
			e->line++;
			e->column = 1;
		} else {
			e->column++;
		}
	}
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return p->ret;
}

static int fail_nomem(struct parser *p)
{
	if (!p->ret) {
		p->ret = -ENOMEM;
		if (p->err)
			snprintf(p->err->msg, sizeof(p->err->msg),
				 "out of memory");
	}
	return p->ret;
}

/* Name the byte at the current position for an error message. */
static int fail_unexpected(struct parser *p, const char *expected)
{
	unsigned char c;

	if (p->pos >= p->len)
		return fail_at(p, p->pos,
			       "unexpected end of input, expected %s",
			       expected);
	c = p->buf[p->pos];
	if (c >= 0x20 && c < 0x7f)
		return fail_at(p, p->pos, "unexpected '%c', expected %s", c,
			       expected);
	return fail_at(p, p->pos, "unexpected byte 0x%02x, expected %s", c,
		       expected);
}

static void skip_space(struct parser *p)
{
	while (p->pos < p->len) {
		unsigned char c = p->buf[p->pos];

		if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
			break;
		p->pos++;
	}
}

static int parse_value(struct parser *p, struct json_node *n);

static int parse_literal(struct parser *p, struct json_node *n,
			 const char *word, enum json_type type)
{
	size_t wlen = strlen(word);

	if (p->len - p->pos < wlen || memcmp(p->buf + p->pos, word, wlen) != 0)
		return fail_unexpected(p, "a value");
	p->pos += wlen;
	n->type = type;
	return 0;
}

static bool is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static size_t skip_digits(struct parser *p)
{
	size_t start = p->pos;

	while (p->pos < p->len && is_digit(p->buf[p->pos]))
		p->pos++;
	return p->pos - start;
}

/* -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static int parse_number(struct parser *p, struct json_node *n)
{
	size_t start = p->pos, len;
	char *end;

	if (p->buf[p->pos] == '-')
		p->pos++;
	if (p->pos < p->len && p->buf[p->pos] == '0') {
		p->pos++;
		if (p->pos < p->len && is_digit(p->buf[p->pos]))
			return fail_at(p, p->pos, "leading zero in number");
	} else if (!skip_digits(p)) {
		return fail_unexpected(p, "a digit");
	}
	if (p->pos < p->len && p->buf[p->pos] == '.') {
		p->pos++;
		if (!skip_digits(p))
			return fail_unexpected(p, "a digit after '.'");
	}
	if (p->pos < p->len && (p->buf[p->pos] | 0x20) == 'e') {
		p->pos++;
		if (p->pos < p->len &&
		    (p->buf[p->pos] == '+' || p->buf[p->pos] == '-'))
			p->pos++;
		if (!skip_digits(p))
			return fail_unexpected(p, "a digit in the exponent");
	}
	len = p->pos - start;
	n->str = malloc(len + 1);
	if (!n->str)
		return fail_nomem(p);
	memcpy(n->str, p->buf + start, len);
	n->str[len] = '\0';
	n->len = len;
	n->type = JSON_NUMBER;
	/* The grammar was checked above; strtod only converts. */
	n->num = strtod(n->str, &end);
	if (isinf(n->num))
		return fail_at(p, start, "number out of range");
	return 0;
}

static int hex4(const unsigned char *s, unsigned *out)
{
	unsigned v = 0;
	int i;

	for (i = 0; i < 4; i++) {
		unsigned char c = s[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			v |= (c | 0x20) - 'a' + 10;
		else
			return -1;
	}
	*out = v;
	return 0;
}

static size_t put_utf8(char *out, unsigned cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | cp >> 12);
		out[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | cp >> 18);
	out[1] = (char)(0x80 | (cp >> 12 & 0x3f));
	out[2] = (char)(0x80 | (cp >> 6 & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/*
 * Length of the well-formed UTF-8 sequence at S (at most AVAIL bytes), or 0:
 * no overlong forms, no surrogates, nothing above U+10FFFF.
 */
static size_t utf8_len(const unsigned char *s, size_t avail)
{
	unsigned char c = s[0];
	size_t n, i;
	unsigned lo = 0x80, hi = 0xbf;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (avail < n || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

/* A \uXXXX escape (with its low surrogate, if any) at p->pos, after "\u". */
static int parse_u_escape(struct parser *p, unsigned *cp)
{
	size_t at = p->pos - 2;
	unsigned lo;

	if (p->len - p->pos < 4 || hex4(p->buf + p->pos, cp))
		return fail_at(p, at, "invalid \\u escape");
	p->pos += 4;
	if (*cp >= 0xdc00 && *cp <= 0xdfff)
		return fail_at(p, at, "lone low surrogate in \\u escape");
	if (*cp < 0xd800 || *cp > 0xdbff)
		return 0;
	if (p->len - p->pos < 6 || p->buf[p->pos] != '\\' ||
	    p->buf[p->pos + 1] != 'u' || hex4(p->buf + p->pos + 2, &lo) ||
	    lo < 0xdc00 || lo > 0xdfff)
		return fail_at(p, at, "lone high surrogate in \\u escape");
	p->pos += 6;
	*cp = 0x10000 + ((*cp - 0xd800) << 10) + (lo - 0xdc00);
	return 0;
}

static int parse_escape(struct parser *p, char *out, size_t *o)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *hit;
	unsigned char c;
	unsigned cp = 0;

	if (p->pos + 1 >= p->len)
		return fail_at(p, p->pos, "unexpected end of input in string");
	c = p->buf[p->pos + 1];
	p->pos += 2;
	if (c == 'u') {
		if (parse_u_escape(p, &cp))
			return p->ret;
		*o += put_utf8(out + *o, cp);
		return 0;
	}
	hit = c ? strchr(from, c) : NULL;
	if (!hit)
		return fail_at(p, p->pos - 2, "invalid escape in string");
	out[(*o)++] = to[hit - from];
	return 0;
}

/* A string at p->pos (the opening quote) into *OUT, unescaped. */
static int parse_string(struct parser *p, char **out, size_t *out_len)
{
	size_t start = ++p->pos, end = start, o = 0;
	char *s;

	/* Find the closing quote to size the buffer: escapes only shrink. */
	while (end < p->len && p->buf[end] != '"')
		end += p->buf[end] == '\\' ? 2 : 1;
	if (end >= p->len)
		return fail_at(p, start - 1, "unterminated string");
	s = malloc(end - start + 1);
	if (!s)
		return fail_nomem(p);
	while (p->pos < end) {
		unsigned char c = p->buf[p->pos];
		size_t n;

		if (c == '\\') {
			if (parse_escape(p, s, &o))
				goto fail;
			continue;
		}
		if (c < 0x20) {
			fail_at(p, p->pos, "control character in string");
			goto fail;
		}
		n = utf8_len(p->buf + p->pos, end - p->pos);
		if (!n) {
			fail_at(p, p->pos, "invalid UTF-8 in string");
			goto fail;
		}
		memcpy(s + o, p->buf + p->pos, n);
		o += n;
		p->pos += n;
	}
	p->pos = end + 1;
	s[o] = '\0';
	*out = s;
	*out_len = o;
	return 0;
fail:
	free(s);
	return p->ret;
}

/* Make room for one more child of N, zeroed, counted so it gets freed. */
static struct json_node *add_child(struct parser *p, struct json_node *n,
				   size_t *cap)
{
	struct json_node *c;

	if (n->count == *cap) {
		size_t ncap = *cap ? *cap * 2 : 4;
		struct json_node *items;

		if (ncap > SIZE_MAX / sizeof(*items)) {
			fail_nomem(p);
			return NULL;
		}
		items = realloc(n->items, ncap * sizeof(*items));
		if (!items) {
			fail_nomem(p);
			return NULL;
		}
		n->items = items;
		*cap = ncap;
	}
	c = &n->items[n->count++];
	memset(c, 0, sizeof(*c));
	return c;
}

static int cmp_key(const void *a, const void *b)
{
	const struct json_node *const *x = a, *const *y = b;

	return strcmp((*x)->key, (*y)->key);
}

/* Reject duplicate member names: sorted copy, neighbours compared. */
static int check_duplicates(struct parser *p, const struct json_node *n,
			    size_t at)
{
	const struct json_node **v;
	size_t i;

	if (n->count < 2)
		return 0;
	v = malloc(n->count * sizeof(*v));
	if (!v)
		return fail_nomem(p);
	for (i = 0; i < n->count; i++)
		v[i] = &n->items[i];
	qsort(v, n->count, sizeof(*v), cmp_key);
	for (i = 1; i < n->count; i++) {
		if (!strcmp(v[i - 1]->key, v[i]->key)) {
			fail_at(p, at, "duplicate member \"%.40s\" in object",
				v[i]->key);
			break;
		}
	}
	free(v);
	return p->ret;
}

static int parse_object(struct parser *p, struct json_node *n)
{
	size_t cap = 0, at = p->pos;

	n->type = JSON_OBJECT;
	p->pos++;
	skip_space(p);
	if (p->pos < p->len && p->buf[p->pos] == '}') {
		p->pos++;
		return 0;
	}
	for (;;) {
		struct json_node *c;
		size_t klen;

		if (p->pos >= p->len || p->buf[p->pos] != '"')
			return fail_unexpected(p, "a member name");
		c = add_child(p, n, &cap);
		if (!c)
			return p->ret;
		if (parse_string(p, &c->key, &klen))
			return p->ret;
		if (strlen(c->key) != klen)
			return fail_at(p, p->pos - 1, "NUL in member name");
		skip_space(p);
		if (p->pos >= p->len || p->buf[p->pos] != ':')
			return fail_unexpected(p, "':'");
		p->pos++;
		if (parse_value(p, c))
			return p->ret;
		skip_space(p);
		if (p->pos < p->len && p->buf[p->pos] == ',') {
			p->pos++;
			skip_space(p);
			continue;
		}
		if (p->pos < p->len && p->buf[p->pos] == '}')
			break;
		return fail_unexpected(p, "',' or '}'");
	}
	p->pos++;
	return check_duplicates(p, n, at);
}

static int parse_array(struct parser *p, struct json_node *n)
{
	size_t cap = 0;

	n->type = JSON_ARRAY;
	p->pos++;
	skip_space(p);
	if (p->pos < p->len && p->buf[p->pos] == ']') {
		p->pos++;
		return 0;
	}
	for (;;) {
		struct json_node *c = add_child(p, n, &cap);

		if (!c || parse_value(p, c))
			return p->ret;
		skip_space(p);
		if (p->pos < p->len && p->buf[p->pos] == ',') {
			p->pos++;
			continue;
		}
		if (p->pos < p->len && p->buf[p->pos] == ']')
			break;
		return fail_unexpected(p, "',' or ']'");
	}
	p->pos++;
	return 0;
}

static int parse_value(struct parser *p, struct json_node *n)
{
	int r;

	skip_space(p);
	if (p->pos >= p->len)
		return fail_unexpected(p, "a value");
	switch (p->buf[p->pos]) {
	case '{':
	case '[':
		if (p->depth >= JSON_READ_MAX_DEPTH)
			return fail_at(p, p->pos, "nesting deeper than %d",
				       JSON_READ_MAX_DEPTH);
		p->depth++;
		r = p->buf[p->pos] == '{' ? parse_object(p, n)
					  : parse_array(p, n);
		p->depth--;
		return r;
	case '"':
		n->type = JSON_STRING;
		return parse_string(p, &n->str, &n->len);
	case 't':
		return parse_literal(p, n, "true", JSON_TRUE);
	case 'f':
		return parse_literal(p, n, "false", JSON_FALSE);
	case 'n':
		return parse_literal(p, n, "null", JSON_NULL);
	case '-':
	case '0' ... '9':
		return parse_number(p, n);
	default:
		return fail_unexpected(p, "a value");
	}
}

static void node_release(struct json_node *n)
{
	size_t i;

	for (i = 0; i < n->count; i++)
		node_release(&n->items[i]);
	free(n->items);
	free(n->key);
	free(n->str);
}

void json_read_free(struct json_node *root)
{
	if (!root)
		return;
	node_release(root);
	free(root);
}

int json_read_parse(const char *buf, size_t len, struct json_node **root,
		    struct json_read_error *err)
{
	struct parser p = { (const unsigned char *)buf, len, 0, 0, 0, err };
	struct json_node *n;

	*root = NULL;
	if (err)
		memset(err, 0, sizeof(*err));
	n = calloc(1, sizeof(*n));
	if (!n)
		return fail_nomem(&p);
	skip_space(&p);
	if (p.pos >= p.len)
		fail_at(&p, p.pos, "empty document");
	else if (!parse_value(&p, n)) {
		skip_space(&p);
		if (p.pos < p.len)
			fail_at(&p, p.pos, "trailing data after the document");
	}
	if (p.ret) {
		json_read_free(n);
		return p.ret;
	}
	*root = n;
	return 0;
}

/*
 * Open PATH for reading, never blocking on a FIFO or a device: only a
 * regular file is accepted, and with REGULAR_ONLY a symlink is not
 * followed.  Returns the descriptor or -errno (-EISDIR for a directory,
 * -EINVAL for another kind of file).
 */
static int open_input(const char *path, bool regular_only)
{
	int flags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
	struct stat st;
	int fd, r;

	if (regular_only)
		flags |= O_NOFOLLOW;
	fd = open(path, flags);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		r = -errno;
		close(fd);
		return r;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	}
	return fd;
}

/* Read all of FD (at most MAX_BYTES) into a new NUL-terminated buffer. */
static int read_bounded(int fd, size_t max_bytes, char **out, size_t *len)
{
	ssize_t got;
	char *buf;

	/* Read one byte more than allowed to tell "too big" from "exact". */
	if (max_bytes > SIZE_MAX - 2)
		max_bytes = SIZE_MAX - 2;
	buf = malloc(max_bytes + 2);
	if (!buf)
		return -ENOMEM;
	got = read_full(fd, buf, max_bytes + 1);
	if (got < 0 || (size_t)got > max_bytes) {
		free(buf);
		return got < 0 ? (int)got : -EFBIG;
	}
	buf[got] = '\0';
	*out = buf;
	*len = (size_t)got;
	return 0;
}

int json_read_file(const char *path, size_t max_bytes, struct json_node **root,
		   struct json_read_error *err)
{
	size_t len;
	char *buf;
	int fd, r;

	*root = NULL;
	if (err)
		memset(err, 0, sizeof(*err));
	fd = open_input(path, false);
	if (fd == -EINVAL && err)
		snprintf(err->msg, sizeof(err->msg), "not a regular file");
	if (fd < 0)
		return fd;
	r = read_bounded(fd, max_bytes, &buf, &len);
	close(fd);
	if (r)
		return r;
	r = json_read_parse(buf, len, root, err);
	free(buf);
	return r;
}

const struct json_node *json_read_member(const struct json_node *obj,
					 const char *key)
{
	size_t i;

	if (!obj || obj->type != JSON_OBJECT)
		return NULL;
	for (i = 0; i < obj->count; i++)
		if (!strcmp(obj->items[i].key, key))
			return &obj->items[i];
	return NULL;
}

const struct json_node *json_read_index(const struct json_node *arr, size_t i)
{
	if (!arr || arr->type != JSON_ARRAY || i >= arr->count)
		return NULL;
	return &arr->items[i];
}

const struct json_node *json_read_path(const struct json_node *n,
				       const char *path)
{
	char part[256];

	while (n && *path) {
		size_t len = strcspn(path, ".");

		if (len >= sizeof(part))
			return NULL;
		memcpy(part, path, len);
		part[len] = '\0';
		path += len;
		if (*path == '.')
			path++;
		if (n->type == JSON_ARRAY) {
			char *end;
			unsigned long long i;

			if (!len || !is_digit((unsigned char)part[0]))
				return NULL;
			errno = 0;
			i = strtoull(part, &end, 10);
			if (*end || errno)
				return NULL;
			n = json_read_index(n, i);
		} else {
			n = json_read_member(n, part);
		}
	}
	return n;
}

int json_read_number(const struct json_node *n, const char *path, double *out)
{
	n = json_read_path(n, path);
	if (!n || n->type == JSON_NULL)
		return -ENOENT;
	if (n->type != JSON_NUMBER)
		return -EINVAL;
	*out = n->num;
	return 0;
}

const char *json_read_string(const struct json_node *n, const char *path)
{
	n = json_read_path(n, path);
	return n && n->type == JSON_STRING ? n->str : NULL;
}

const char *json_type_name(enum json_type type)
{
	static const char *const names[] = {
		"null", "false", "true", "number", "string", "array", "object",
	};

	return (unsigned)type < sizeof(names) / sizeof(names[0]) ? names[type]
								 : "?";
}

/*
 * Visit every node once, and look the first few members of each object up
 * by name (a member must find itself: duplicates are refused).
 */
static size_t walk(const struct json_node *n)
{
	size_t i, sum = 1;

	for (i = 0; i < n->count; i++) {
		if (n->type == JSON_OBJECT && i < 8 &&
		    json_read_member(n, n->items[i].key) != &n->items[i])
			abort();
		sum += walk(&n->items[i]);
	}
	return sum;
}

int json_read_fuzz(const uint8_t *data, size_t size)
{
	struct json_read_error err;
	struct json_node *root;
	double d;

	if (json_read_parse((const char *)data, size, &root, &err))
		return 0;
	(void)walk(root);
	(void)json_read_number(root, "a.0.b", &d);
	(void)json_read_string(root, "0");
	json_read_free(root);
	return 0;
}

/*
 * Additions for latency-summarize, which reads a result directory where
 * every file may be hostile: loading a regular file only, exact unsigned
 * integers, and the UTF-8 check for text that is not JSON.
 */

int json_read_open(const char *path)
{
	return open_input(path, true);
}

int json_read_load(const char *path, size_t max_bytes, char **buf, size_t *len)
{
	int fd = open_input(path, true), r;

	*buf = NULL;
	*len = 0;
	if (fd < 0)
		return fd;
	r = read_bounded(fd, max_bytes, buf, len);
	close(fd);
	return r;
}

int json_read_u64(const struct json_node *n, const char *path, uint64_t *out)
{
	const char *p;
	uint64_t v = 0;

	n = json_read_path(n, path);
	if (!n || n->type == JSON_NULL)
		return -ENOENT;
	if (n->type != JSON_NUMBER)
		return -EINVAL;
	/* The literal, not the double: counters go past 2^53 exactly. */
	for (p = n->str; *p; p++) {
		if (!is_digit((unsigned char)*p))
			return -EINVAL;
		if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			return -ERANGE;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	*out = v;
	return 0;
}

size_t json_read_utf8_len(const unsigned char *s, size_t avail)
{
	return avail ? utf8_len(s, avail) : 0;
}

int json_read_depth(const struct json_node *n)
{
	int deepest = 0, d;
	size_t i;

	for (i = 0; i < n->count; i++) {
		d = json_read_depth(&n->items[i]);
		if (d > deepest)
			deepest = d;
	}
	return n->type == JSON_ARRAY || n->type == JSON_OBJECT ? deepest + 1
							       : 0;
}
