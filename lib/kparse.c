// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Strict parsers for the kernel's text formats; see kparse.h.  Everything
 * walks (pointer, length) pairs with explicit bounds: no strto*(), no
 * sscanf(), no reliance on a NUL, so the same code serves files read from
 * /proc, records read from /dev/kmsg and bytes from a fuzzer.
 */
#include <config.h>

#include <errno.h>
#include <string.h>

#include "lib/kparse.h"

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

int kparse_u64(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (!len)
		return -EINVAL;
	for (i = 0; i < len; i++)
		if (!is_digit(s[i]))
			return -EINVAL;
	for (i = 0; i < len; i++) {
		unsigned d = (unsigned)(s[i] - '0');

		if (v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

int kparse_i64(const char *s, size_t len, int64_t *out)
{
	bool neg = len && s[0] == '-';
	uint64_t v;
	int r = kparse_u64(s + neg, len - neg, &v);

	if (r)
		return r;
	if (v > (uint64_t)INT64_MAX + neg)
		return -ERANGE;
	/* -(2^63) has no positive twin: negate in unsigned arithmetic. */
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return 0;
}

int kparse_fixed(const char *s, size_t len, unsigned scale, uint64_t *out)
{
	const char *dot = memchr(s, '.', len);
	size_t wlen = dot ? (size_t)(dot - s) : len;
	size_t flen = dot ? len - wlen - 1 : 0;
	uint64_t whole, frac = 0, unit = 1;
	unsigned i;
	int r;

	if (scale > 9 || flen > scale || (dot && !flen))
		return -EINVAL;
	r = kparse_u64(s, wlen, &whole);
	if (!r && flen)
		r = kparse_u64(dot + 1, flen, &frac);
	if (r)
		return r;
	for (i = 0; i < scale; i++)
		unit *= 10;
	for (i = (unsigned)flen; i < scale; i++)
		frac *= 10;
	if (whole > (UINT64_MAX - frac) / unit)
		return -ERANGE;
	*out = whole * unit + frac;
	return 0;
}

bool kparse_line(const char *buf, size_t len, size_t *pos, const char **line,
		 size_t *line_len)
{
	const char *nl;

	if (*pos >= len)
		return false;
	*line = buf + *pos;
	nl = memchr(*line, '\n', len - *pos);
	*line_len = nl ? (size_t)(nl - *line) : len - *pos;
	*pos += *line_len + (nl != NULL);
	return true;
}

/*
 * Tokens of S[0..LEN) split at every SEP: "a  b" is "a", "", "b" and "a "
 * ends with an empty token, so doubled or trailing separators fail the
 * parse of that token instead of slipping through.
 */
struct tok {
	const char *s;
	size_t len, pos;
	bool end;
	char sep;
};

static void tok_init(struct tok *t, const char *s, size_t len, char sep)
{
	t->s = s;
	t->len = len;
	t->pos = 0;
	t->end = false;
	t->sep = sep;
}

static bool tok_next(struct tok *t, const char **w, size_t *wlen)
{
	const char *sep;

	if (t->end)
		return false;
	*w = t->s + t->pos;
	sep = memchr(*w, t->sep, t->len - t->pos);
	if (sep) {
		*wlen = (size_t)(sep - *w);
		t->pos += *wlen + 1;
	} else {
		*wlen = t->len - t->pos;
		t->pos = t->len;
		t->end = true;
	}
	return true;
}

/* The next token as an unsigned or a signed number. */
static int tok_u64(struct tok *t, uint64_t *v)
{
	const char *w;
	size_t n;

	return tok_next(t, &w, &n) ? kparse_u64(w, n, v) : -EINVAL;
}

static int tok_i64(struct tok *t, int64_t *v)
{
	const char *w;
	size_t n;

	return tok_next(t, &w, &n) ? kparse_i64(w, n, v) : -EINVAL;
}

/* The next token is "KEY=VALUE": VALUE into *V, *VLEN. */
static bool tok_key(struct tok *t, const char *key, const char **v,
		    size_t *vlen)
{
	size_t klen = strlen(key);
	const char *w;
	size_t n;

	if (!tok_next(t, &w, &n) || n <= klen || memcmp(w, key, klen) ||
	    w[klen] != '=')
		return false;
	*v = w + klen + 1;
	*vlen = n - klen - 1;
	return true;
}

int kparse_u64_file(const char *buf, size_t len, uint64_t *out)
{
	if (len && buf[len - 1] == '\n')
		len--;
	return kparse_u64(buf, len, out);
}

int kparse_kv_line(const char *line, size_t len, const char **key,
		   size_t *key_len, uint64_t *val)
{
	const char *sp = memchr(line, ' ', len);
	uint64_t v;
	int r;

	if (!sp || sp == line)
		return -EINVAL;
	r = kparse_u64(sp + 1, len - (size_t)(sp - line) - 1, &v);
	if (r)
		return r;
	*key = line;
	*key_len = (size_t)(sp - line);
	*val = v;
	return 0;
}

int kparse_kv_find(const char *buf, size_t len, const char *key, uint64_t *val)
{
	size_t klen = strlen(key), pos = 0, n;
	const char *line;

	while (kparse_line(buf, len, &pos, &line, &n)) {
		const char *k;
		size_t kl;

		if (n < klen || memcmp(line, key, klen) ||
		    (n > klen && line[klen] != ' '))
			continue;
		return kparse_kv_line(line, n, &k, &kl, val);
	}
	return -ENOENT;
}

/* Whether KEY, maybe a "PREFIX*" sum, stands for the line key K (KL). */
static bool key_matches(const char *key, const char *k, size_t kl)
{
	size_t n = strlen(key);

	if (!n || key[n - 1] != '*')
		return kl == n && !memcmp(k, key, n);
	n--;
	return kl >= n && !memcmp(k, key, n) && (kl == n || k[n] == '_');
}

int kparse_kv_pick(const char *buf, size_t len, const char *const *keys,
		   size_t n, uint64_t *vals, bool *have, size_t *bad)
{
	size_t pos = 0, ll, i;
	const char *line;

	for (i = 0; i < n; i++) {
		have[i] = false;
		vals[i] = 0;
	}
	while (kparse_line(buf, len, &pos, &line, &ll)) {
		const char *sp = memchr(line, ' ', ll);
		size_t kl = sp ? (size_t)(sp - line) : ll;

		for (i = 0; i < n; i++) {
			const char *k;
			size_t klen;
			uint64_t v;
			bool sum = keys[i][0] &&
				   keys[i][strlen(keys[i]) - 1] == '*';
			int r;

			if (!key_matches(keys[i], line, kl) ||
			    (have[i] && !sum))
				continue;
			r = kparse_kv_line(line, ll, &k, &klen, &v);
			if (!r && sum && __builtin_add_overflow(vals[i], v, &v))
				r = -ERANGE;
			if (r) {
				*bad = i;
				return r;
			}
			vals[i] = v;
			have[i] = true;
		}
	}
	return 0;
}

/* "some avg10=1.50 avg60=0.00 avg300=0.00 total=12345" into L. */
static int psi_line(const char *s, size_t len, struct kparse_psi_line *l)
{
	static const char *const avg[3] = { "avg10", "avg60", "avg300" };
	uint64_t a[3], total;
	struct tok t;
	const char *v;
	size_t n;
	int i, r;

	tok_init(&t, s, len, ' ');
	(void)tok_next(&t, &v, &n); /* the kind, checked by the caller */
	for (i = 0; i < 3; i++) {
		if (!tok_key(&t, avg[i], &v, &n))
			return -EINVAL;
		r = kparse_fixed(v, n, 2, &a[i]);
		if (r)
			return r;
	}
	if (!tok_key(&t, "total", &v, &n))
		return -EINVAL;
	r = kparse_u64(v, n, &total);
	if (r)
		return r;
	if (tok_next(&t, &v, &n))
		return -EINVAL;
	l->have = true;
	l->avg10 = a[0];
	l->avg60 = a[1];
	l->avg300 = a[2];
	l->total_us = total;
	return 0;
}

int kparse_psi(const char *buf, size_t len, struct kparse_psi *out)
{
	struct kparse_psi p;
	size_t pos = 0, n;
	const char *line;
	int r;

	memset(&p, 0, sizeof(p));
	while (kparse_line(buf, len, &pos, &line, &n)) {
		struct kparse_psi_line *l;

		if (n > 5 && !memcmp(line, "some ", 5))
			l = &p.some;
		else if (n > 5 && !memcmp(line, "full ", 5))
			l = &p.full;
		else
			return -EINVAL;
		if (l->have)
			return -EINVAL;
		r = psi_line(line, n, l);
		if (r)
			return r;
	}
	*out = p;
	return 0;
}

/*
 * /proc/PID/stat up to its state (field 3): T then walks the fields after
 * it, and *STATE is its letter.
 */
static int pid_stat_state(const char *buf, size_t len, struct tok *t,
			  char *state)
{
	const char *w;
	size_t n, end = len;

	/* The command name may hold spaces and parentheses: its end is the
	 * last ')'. */
	while (end && buf[end - 1] != ')')
		end--;
	if (!end || end >= len || buf[end] != ' ')
		return -EINVAL;
	if (buf[len - 1] == '\n')
		len--;
	tok_init(t, buf + end + 1, len - end - 1, ' ');
	if (!tok_next(t, &w, &n) || n != 1)
		return -EINVAL;
	*state = w[0];
	return 0;
}

/* Fields 4-8 (ppid ... tpgid) and 16-21 (cutime ... itrealvalue) are signed. */
static bool pid_field_signed(int field)
{
	return (field >= 4 && field <= 8) || (field >= 16 && field <= 21);
}

/*
 * /proc/PID/stat's state (field 3) into *STATE and fields 4 to LAST into
 * F[0 .. LAST - 4], each a well-formed number of its sign (a signed one
 * stored as its two's complement).
 */
static int pid_stat_fields(const char *buf, size_t len, char *state,
			   uint64_t *f, int last)
{
	struct tok t;
	int field, r;

	r = pid_stat_state(buf, len, &t, state);
	for (field = 4; !r && field <= last; field++) {
		int64_t i;

		if (!pid_field_signed(field)) {
			r = tok_u64(&t, &f[field - 4]);
			continue;
		}
		r = tok_i64(&t, &i);
		f[field - 4] = (uint64_t)i;
	}
	return r;
}

int kparse_pid_stat(const char *buf, size_t len, uint64_t *majflt,
		    uint64_t *cmajflt)
{
	uint64_t f[13 - 3];
	char state;
	int r = pid_stat_fields(buf, len, &state, f, 13);

	if (r)
		return r;
	*majflt = f[12 - 4];
	*cmajflt = f[13 - 4];
	return 0;
}

int kparse_pid_cpu(const char *buf, size_t len, struct kparse_pid_cpu *out)
{
	uint64_t f[17 - 3];
	char state;
	int r = pid_stat_fields(buf, len, &state, f, 17);

	if (r)
		return r;
	/* cutime and cstime are signed in the kernel's format, never < 0. */
	if ((int64_t)f[16 - 4] < 0 || (int64_t)f[17 - 4] < 0)
		return -EINVAL;
	out->ppid = (int64_t)f[4 - 4];
	out->flags = f[9 - 4];
	out->utime = f[14 - 4];
	out->stime = f[15 - 4];
	out->cutime = f[16 - 4];
	out->cstime = f[17 - 4];
	return 0;
}

int kparse_pid_start(const char *buf, size_t len, char *state, int64_t *ppid,
		     uint64_t *start)
{
	uint64_t f[22 - 3];
	char s;
	int r = pid_stat_fields(buf, len, &s, f, 22);

	if (r)
		return r;
	*state = s;
	if (ppid)
		*ppid = (int64_t)f[4 - 4];
	*start = f[22 - 4];
	return 0;
}

int kparse_proc_stat_busy(const char *buf, size_t len, uint64_t *ticks)
{
	uint64_t v[3];
	struct tok t;
	const char *line;
	size_t n, pos = 0;
	int i, r;

	if (!kparse_line(buf, len, &pos, &line, &n) || n < 4 ||
	    memcmp(line, "cpu ", 4))
		return -EINVAL;
	/* "cpu" is padded to the width of "cpu0": one blank or more. */
	for (pos = 3; pos < n && line[pos] == ' '; pos++)
		;
	tok_init(&t, line + pos, n - pos, ' ');
	for (i = 0; i < 3; i++)
		if ((r = tok_u64(&t, &v[i])))
			return r;
	if (v[0] > UINT64_MAX - v[1] || v[0] + v[1] > UINT64_MAX - v[2])
		return -ERANGE;
	*ticks = v[0] + v[1] + v[2];
	return 0;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

int kparse_colon_find(const char *buf, size_t len, const char *key,
		      uint64_t *val, bool *kb)
{
	size_t klen = strlen(key), pos = 0, n, i;
	const char *line;
	uint64_t v;
	bool unit;
	int r;

	while (kparse_line(buf, len, &pos, &line, &n)) {
		if (n <= klen || memcmp(line, key, klen) || line[klen] != ':')
			continue;
		for (i = klen + 1; i < n && is_blank(line[i]); i++)
			;
		if (i == klen + 1)
			return -EINVAL;
		unit = n - i > 3 && !memcmp(line + n - 3, " kB", 3);
		r = kparse_u64(line + i, n - i - (unit ? 3 : 0), &v);
		if (r)
			return r;
		*val = v;
		*kb = unit;
		return 0;
	}
	return -ENOENT;
}

int kparse_status_kb(const char *buf, size_t len, const char *key, uint64_t *kb)
{
	uint64_t v;
	bool unit;
	int r = kparse_colon_find(buf, len, key, &v, &unit);

	if (r)
		return r;
	if (!unit)
		return -EINVAL;
	*kb = v;
	return 0;
}

int kparse_word(const char *line, size_t len, size_t idx, const char **w,
		size_t *wlen)
{
	size_t i = 0, k, start;

	for (k = 0;; k++) {
		while (i < len && is_blank(line[i]))
			i++;
		if (i == len)
			return -ENOENT;
		start = i;
		while (i < len && !is_blank(line[i]))
			i++;
		if (k == idx) {
			*w = line + start;
			*wlen = i - start;
			return 0;
		}
	}
}

/* Digits up to UINT32_MAX. */
static int u32(const char *s, size_t len, uint32_t *out)
{
	uint64_t v;
	int r = kparse_u64(s, len, &v);

	if (r)
		return r;
	if (v > UINT32_MAX)
		return -ERANGE;
	*out = (uint32_t)v;
	return 0;
}

/* "MAJ:MIN" of S[0..LEN). */
static int dev_pair(const char *s, size_t len, uint32_t *major, uint32_t *minor)
{
	const char *colon = memchr(s, ':', len);
	uint32_t a, b;
	int r;

	if (!colon)
		return -EINVAL;
	r = u32(s, (size_t)(colon - s), &a);
	if (!r)
		r = u32(colon + 1, len - (size_t)(colon - s) - 1, &b);
	if (r)
		return r;
	*major = a;
	*minor = b;
	return 0;
}

int kparse_dev(const char *buf, size_t len, uint32_t *major, uint32_t *minor)
{
	if (len && buf[len - 1] == '\n')
		len--;
	return dev_pair(buf, len, major, minor);
}

int kparse_hex_file(const char *buf, size_t len, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (len && buf[len - 1] == '\n')
		len--;
	if (!len)
		return -EINVAL;
	for (i = 0; i < len; i++) {
		char c = buf[i];
		unsigned d;

		if (is_digit(c))
			d = (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			return -EINVAL;
		if (v >> 60)
			return -ERANGE;
		v = v << 4 | d;
	}
	*out = v;
	return 0;
}

/* "(0, 2688, 23826)" and blanks only after it: its largest number. */
static int zone_protection(const char *s, size_t len, uint64_t *most)
{
	uint64_t m = 0, v;
	size_t i = 0, start;
	int r;

	while (i < len && is_blank(s[i]))
		i++;
	if (i == len || s[i++] != '(')
		return -EINVAL;
	for (;;) {
		while (i < len && is_blank(s[i]))
			i++;
		start = i;
		while (i < len && is_digit(s[i]))
			i++;
		r = kparse_u64(s + start, i - start, &v);
		if (r)
			return r;
		m = v > m ? v : m;
		while (i < len && is_blank(s[i]))
			i++;
		if (i < len && s[i] == ',') {
			i++;
			continue;
		}
		if (i == len || s[i++] != ')')
			return -EINVAL;
		break;
	}
	while (i < len && is_blank(s[i]))
		i++;
	if (i != len)
		return -EINVAL;
	*most = m;
	return 0;
}

/* "Node N, zone NAME": N and NAME into Z. */
static int zone_head(const char *line, size_t len, struct kparse_zone *z)
{
	const char *w[5];
	size_t n[5], k;
	uint32_t node;
	int r;

	for (k = 0; k < 5; k++)
		if (kparse_word(line, len, k, &w[k], &n[k]))
			break;
	if (k != 4 || n[1] < 2 || w[1][n[1] - 1] != ',' || n[2] != 4 ||
	    memcmp(w[2], "zone", 4))
		return -EINVAL;
	r = u32(w[1], n[1] - 1, &node);
	if (r)
		return r;
	z->kind = KPARSE_ZONE_HEAD;
	z->node = node;
	z->name = w[3];
	z->name_len = n[3];
	return 0;
}

int kparse_zone_line(const char *line, size_t len, struct kparse_zone *out)
{
	struct kparse_zone z = { .kind = KPARSE_ZONE_OTHER };
	const char *w, *first = NULL, *last = NULL, *prev_end = NULL;
	size_t n, k, last_n = 0, i;
	int r = 0;

	if (len >= 5 && !memcmp(line, "Node ", 5)) {
		r = zone_head(line, len, &z);
	} else if (!kparse_word(line, len, 0, &w, &n) && n == 11 &&
		   !memcmp(w, "protection:", 11)) {
		r = zone_protection(w + n, len - (size_t)(w + n - line),
				    &z.val);
		z.kind = KPARSE_ZONE_PROTECTION;
	} else {
		for (k = 0; !kparse_word(line, len, k, &w, &n); k++) {
			if (!first)
				first = w;
			if (last)
				prev_end = last + last_n;
			last = w;
			last_n = n;
		}
		for (i = 0; prev_end && i < last_n && is_digit(last[i]); i++)
			;
		if (prev_end && i == last_n) {
			r = kparse_u64(last, last_n, &z.val);
			z.kind = KPARSE_ZONE_FIELD;
			z.name = first;
			z.name_len = (size_t)(prev_end - first);
		}
	}
	if (r)
		return r;
	*out = z;
	return 0;
}

int kparse_mountinfo(const char *line, size_t len, struct kparse_mountinfo *out)
{
	struct kparse_mountinfo m;
	const char *w;
	size_t n;
	uint64_t id;
	struct tok t;
	int r;

	if (len && line[len - 1] == '\n')
		len--;
	tok_init(&t, line, len, ' ');
	if ((r = tok_u64(&t, &id)) || (r = tok_u64(&t, &id)))
		return r;
	if (!tok_next(&t, &w, &n))
		return -EINVAL;
	r = dev_pair(w, n, &m.major, &m.minor);
	if (r)
		return r;
	if (!tok_next(&t, &m.root, &m.root_len) ||
	    !tok_next(&t, &m.point, &m.point_len) || !tok_next(&t, &w, &n))
		return -EINVAL;
	/* Optional tags ("shared:1") up to the separator. */
	do
		if (!tok_next(&t, &w, &n) || !n)
			return -EINVAL;
	while (n != 1 || w[0] != '-');
	if (!tok_next(&t, &m.fstype, &m.fstype_len) ||
	    !tok_next(&t, &m.source, &m.source_len) ||
	    !tok_next(&t, &m.super, &m.super_len) || tok_next(&t, &w, &n) ||
	    !m.root_len || !m.point_len || !m.fstype_len)
		return -EINVAL;
	*out = m;
	return 0;
}

int kparse_kmsg(const char *rec, size_t len, struct kparse_kmsg *out)
{
	const char *nl = memchr(rec, '\n', len), *semi, *w;
	size_t first = nl ? (size_t)(nl - rec) : len, n;
	struct kparse_kmsg k;
	uint64_t pri;
	struct tok t;
	int r;

	semi = memchr(rec, ';', first);
	if (!semi)
		return -EINVAL;
	tok_init(&t, rec, (size_t)(semi - rec), ',');
	if ((r = tok_u64(&t, &pri)) || (r = tok_u64(&t, &k.seq)) ||
	    (r = tok_u64(&t, &k.ts_us)))
		return r;
	if (pri > UINT32_MAX)
		return -ERANGE;
	/* The flags ("-", "c", "+"); fields after them (caller=) may come. */
	if (!tok_next(&t, &w, &n) || !n)
		return -EINVAL;
	k.pri = (uint32_t)pri;
	k.text = semi + 1;
	k.text_len = first - (size_t)(semi + 1 - rec);
	*out = k;
	return 0;
}

int kparse_syslog_line(const char *line, size_t len, struct kparse_syslog *out)
{
	const char *gt, *rb, *ts;
	uint64_t pri, us;
	size_t i;
	int r;

	if (len < 2 || line[0] != '<')
		return -EINVAL;
	gt = memchr(line, '>', len);
	if (!gt)
		return -EINVAL;
	r = kparse_u64(line + 1, (size_t)(gt - line) - 1, &pri);
	if (r)
		return r;
	if (pri > UINT32_MAX)
		return -ERANGE;
	i = (size_t)(gt - line) + 1;
	if (i >= len || line[i] != '[')
		return -EINVAL;
	/* The seconds are right-aligned in a field of five: "[    1.5]". */
	for (i++; i < len && line[i] == ' '; i++)
		;
	ts = line + i;
	rb = memchr(ts, ']', len - i);
	if (!rb)
		return -EINVAL;
	r = kparse_fixed(ts, (size_t)(rb - ts), 6, &us);
	if (r)
		return r;
	i = (size_t)(rb - line) + 1;
	if (i < len && line[i] == ' ')
		i++;
	out->pri = (uint32_t)pri;
	out->ts_us = us;
	out->text = line + i;
	out->text_len = len - i;
	return 0;
}

static bool is_event_char(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z') || c == '_';
}

/*
 * The rest of a trace line from its "[" at AT: "[CPU] [FLAGS] TS: EVENT:
 * FIELDS", where the kernel pads TS to five digits of seconds, into T.
 * Returns false when it does not follow that format.
 */
static bool trace_tail(const char *line, size_t len, size_t at,
		       struct kparse_trace *t)
{
	const char *p = line + at + 1, *end = line + len, *w, *rb;
	uint64_t cpu;
	size_t n;
	int pass;

	rb = memchr(p, ']', (size_t)(end - p));
	if (!rb || kparse_u64(p, (size_t)(rb - p), &cpu) || cpu > UINT32_MAX)
		return false;
	p = rb + 1;
	/* "TS:" or, with the irq-info column (the default), "FLAGS TS:". */
	for (pass = 0;; pass++) {
		if (pass > 1 || p >= end || *p != ' ')
			return false;
		while (p < end && *p == ' ')
			p++;
		w = p;
		while (p < end && *p != ' ')
			p++;
		n = (size_t)(p - w);
		if (n > 1 && w[n - 1] == ':' &&
		    !kparse_fixed(w, n - 1, 9, &t->ts_ns))
			break;
	}
	if (p >= end || *p != ' ')
		return false;
	w = ++p;
	while (p < end && is_event_char(*p))
		p++;
	if (p == w || p >= end || *p != ':' || (p + 1 < end && p[1] != ' '))
		return false;
	t->event = w;
	t->event_len = (size_t)(p - w);
	p += p + 1 < end ? 2 : 1;
	t->fields = p;
	t->fields_len = (size_t)(end - p);
	t->cpu = (uint32_t)cpu;
	return true;
}

/*
 * The start of DASH's "-PID" before the "[" at AT, past the padding and an
 * optional "(TGID)" column (the record-tgid option); 0 when there is none.
 */
static size_t pid_dash(const char *line, size_t at, uint64_t *pid)
{
	size_t i = at, digits_end;

	while (i && line[i - 1] == ' ')
		i--;
	if (i == at)
		return 0;
	if (i && line[i - 1] == ')') {
		while (i && line[i - 1] != '(')
			i--;
		if (!i)
			return 0;
		i--;
		if (!i || line[i - 1] != ' ')
			return 0;
		while (i && line[i - 1] == ' ')
			i--;
	}
	digits_end = i;
	while (i && is_digit(line[i - 1]))
		i--;
	if (i == digits_end || i < 2 || line[i - 1] != '-' ||
	    kparse_u64(line + i, digits_end - i, pid) || *pid > INT32_MAX)
		return 0;
	return i - 1;
}

int kparse_trace_line(const char *line, size_t len, struct kparse_trace *out)
{
	size_t at, dash, start;
	struct kparse_trace t;

	for (at = 1; at < len; at++) {
		uint64_t pid;

		if (line[at] != '[' || line[at - 1] != ' ')
			continue;
		dash = pid_dash(line, at, &pid);
		if (!dash || !trace_tail(line, len, at, &t))
			continue;
		for (start = 0; start < dash && line[start] == ' '; start++)
			;
		t.comm = line + start;
		t.comm_len = dash - start;
		t.pid = (int32_t)pid;
		*out = t;
		return 0;
	}
	return -EINVAL;
}

int kparse_trace_field(const char *fields, size_t len, const char *key,
		       int64_t *val)
{
	struct tok t;
	const char *v;
	size_t n;

	tok_init(&t, fields, len, ' ');
	while (!t.end)
		if (tok_key(&t, key, &v, &n))
			return kparse_i64(v, n, val);
	return -ENOENT;
}

const char *kparse_strerror(int r)
{
	switch (r) {
	case -EINVAL:
		return "malformed";
	case -ERANGE:
		return "number out of range";
	case -ENOENT:
		return "missing";
	default:
		return strerror(-r);
	}
}
