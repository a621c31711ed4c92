// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Single-line work for latency-output: classify a line (timestamped, plain,
 * or malformed and why), parse the stream layout back for --from, and
 * format the numeric columns.  Pure functions without I/O or allocation, so
 * the fuzz target can drive them with any bytes.
 */
#include <config.h>

#include <string.h>

#include "lib/progress.h"
#include "lib/timing.h"
#include "latency-output/latout.h"

#define ONES 0x0101010101010101ULL
#define HIGHS 0x8080808080808080ULL

static bool junk_byte(unsigned char c)
{
	/* Tab and ESC (colour codes) are text; CR and LF never get here. */
	return (c < 0x20 && c != '\t' && c != 0x1b) || c == 0x7f;
}

bool lo_has_junk(const char *line, size_t len)
{
	size_t i = 0;

	/*
	 * Eight bytes at a time: flag any byte below 0x20 or equal to 0x7f;
	 * only a flagged word (a tab, usually) is looked at byte by byte.
	 */
	for (; i + 8 <= len; i += 8) {
		uint64_t w, lo, del;

		memcpy(&w, line + i, 8);
		lo = (w - 0x20 * ONES) & ~w & HIGHS;
		del = ((w ^ (0x7f * ONES)) - ONES) & ~(w ^ (0x7f * ONES)) &
		      HIGHS;
		if (lo | del) {
			size_t k;

			for (k = 0; k < 8; k++)
				if (junk_byte((unsigned char)line[i + k]))
					return true;
		}
	}
	for (; i < len; i++)
		if (junk_byte((unsigned char)line[i]))
			return true;
	return false;
}

/* A first field that starts with a digit and holds a point wants to be a
 * timestamp ("12.5x", "1.2.3", "1e3.5"); "3 files" is plain text. */
static bool looks_like_ts(const char *line, size_t len)
{
	size_t i;

	if (!len || line[0] < '0' || line[0] > '9')
		return false;
	for (i = 1; i < len && line[i] != ' ' && line[i] != '\t'; i++)
		if (line[i] == '.')
			return true;
	return false;
}

void lo_line_parse(const char *line, size_t len, const char *by,
		   struct lo_line *out)
{
	size_t end;

	out->timed = false;
	out->ts = 0;
	out->key = NULL;
	out->key_len = 0;
	out->bad = LO_OK;
	if (!len) {
		out->bad = LO_EMPTY;
		return;
	}
	if (lo_has_junk(line, len))
		out->bad = LO_BINARY;
	else if (progress_parse_ts(line, len, &out->ts, &end) &&
		 out->ts <= INT64_MAX)
		out->timed = true;
	else if (looks_like_ts(line, len))
		out->bad = LO_BAD_TS;
	if (!out->timed)
		out->ts = 0;
	/* Junk makes no group name: such a line goes with the keyless. */
	if (by && out->bad != LO_BINARY)
		out->key = progress_find_key(line, len, by, &out->key_len);
}

bool lo_parse_seconds(const char *line, size_t len, size_t *pos, int64_t *ns)
{
	size_t i = *pos, digits = 0;
	uint64_t sec = 0, frac = 0;
	unsigned fd = 0;
	bool neg = false;

	if (i < len && line[i] == '-') {
		neg = true;
		i++;
	}
	while (i < len && line[i] >= '0' && line[i] <= '9') {
		/* Ten digits of seconds reach the year 2286. */
		if (++digits > 10)
			return false;
		sec = sec * 10 + (uint64_t)(line[i++] - '0');
	}
	/* Keep the nanoseconds within int64_t. */
	if (!digits || sec > 9000000000ULL)
		return false;
	if (i < len && line[i] == '.') {
		i++;
		while (i < len && line[i] >= '0' && line[i] <= '9') {
			if (fd == 9)
				return false;
			frac = frac * 10 + (uint64_t)(line[i++] - '0');
			fd++;
		}
		if (!fd)
			return false;
		for (; fd < 9; fd++)
			frac *= 10;
	}
	*ns = (int64_t)(sec * NSEC_PER_SEC + frac);
	if (neg)
		*ns = -*ns;
	*pos = i;
	return true;
}

bool lo_series_parse(const char *line, size_t len, int64_t *epoch_ns,
		     size_t *orig)
{
	size_t i = 0;
	int64_t v;
	int col;

	/* Three right-aligned numbers, then " -- ". */
	for (col = 0; col < 3; col++) {
		while (i < len && line[i] == ' ')
			i++;
		if (!lo_parse_seconds(line, len, &i, &v))
			return false;
		if (col == 0)
			*epoch_ns = v;
		if (i >= len || line[i] != ' ')
			return false;
	}
	if (len - i < 3 || memcmp(line + i, " --", 3))
		return false;
	i += 3;
	/* "-- " then the line; an empty original line loses the space. */
	if (i < len) {
		if (line[i] != ' ')
			return false;
		i++;
	}
	*orig = i;
	return true;
}

static const char digit_pairs[201] = "00010203040506070809"
				     "10111213141516171819"
				     "20212223242526272829"
				     "30313233343536373839"
				     "40414243444546474849"
				     "50515253545556575859"
				     "60616263646566676869"
				     "70717273747576777879"
				     "80818283848586878889"
				     "90919293949596979899";

static const uint64_t pow10_u64[10] = {
	1ULL,	   10ULL,      100ULL,	    1000ULL,	  10000ULL,
	100000ULL, 1000000ULL, 10000000ULL, 100000000ULL, 1000000000ULL,
};

/* Write V's last N digits (zero-filled) ending just before Q. */
static inline char *put_digits(char *q, uint64_t v, unsigned n)
{
	for (; n >= 2; n -= 2) {
		q -= 2;
		memcpy(q, digit_pairs + 2 * (v % 100), 2);
		v /= 100;
	}
	if (n)
		*--q = (char)('0' + v % 10);
	return q;
}

static const char spaces[32] = "                                ";

static inline unsigned count_digits(uint64_t v)
{
	unsigned n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/*
 * The body of lo_fmt_col() for a constant D, so that every division below
 * is by a constant and compiles to a multiplication: this runs three times
 * per line of the stream.  The digits go straight to their place in BUF
 * after a fixed-size store of spaces (no narrow stores read back wide,
 * which would stall).  C, when given, remembers the integer part:
 * consecutive lines mostly share their whole seconds.
 */
static inline __attribute__((always_inline)) size_t
fmt_col(char *buf, int64_t v, const unsigned d, unsigned width,
	struct lo_col *c)
{
	const uint64_t unit = pow10_u64[9 - d];
	bool neg = v < 0;
	uint64_t u = neg ? -(uint64_t)v : (uint64_t)v;
	uint64_t scaled = (u + unit / 2) / unit; /* round half up */
	uint64_t whole = scaled / pow10_u64[d];
	bool hit = c && c->valid && c->whole == whole && c->neg == neg;
	unsigned ilen = hit ? c->len : count_digits(whole) + neg;
	unsigned n = ilen + (d ? d + 1 : 0);
	unsigned pad = n < width ? width - n : 0;
	char *p = buf + pad;

	memcpy(buf, spaces, sizeof(spaces));
	if (hit) {
		memcpy(p, c->s, sizeof(c->s));
	} else {
		uint64_t w = whole;
		char *q = p + ilen;

		while (w >= 100) {
			q = put_digits(q, w % 100, 2);
			w /= 100;
		}
		put_digits(q, w, w >= 10 ? 2 : 1);
		if (neg)
			*p = '-';
		if (c) {
			c->valid = true;
			c->whole = whole;
			c->neg = neg;
			c->len = (unsigned char)ilen;
			memcpy(c->s, p, sizeof(c->s));
		}
	}
	if (d) {
		p[ilen] = '.';
		put_digits(p + ilen + 1 + d, scaled % pow10_u64[d], d);
	}
	return pad + n;
}

#define FMT_COL_CASES(buf, v, decimals, width, c)                              \
	switch (decimals) {                                                    \
	case 0:                                                                \
		return fmt_col(buf, v, 0, width, c);                           \
	case 1:                                                                \
		return fmt_col(buf, v, 1, width, c);                           \
	case 2:                                                                \
		return fmt_col(buf, v, 2, width, c);                           \
	case 3:                                                                \
		return fmt_col(buf, v, 3, width, c);                           \
	case 4:                                                                \
		return fmt_col(buf, v, 4, width, c);                           \
	case 5:                                                                \
		return fmt_col(buf, v, 5, width, c);                           \
	case 6:                                                                \
		return fmt_col(buf, v, 6, width, c);                           \
	case 7:                                                                \
		return fmt_col(buf, v, 7, width, c);                           \
	case 8:                                                                \
		return fmt_col(buf, v, 8, width, c);                           \
	default:                                                               \
		return fmt_col(buf, v, 9, width, c);                           \
	}

size_t lo_fmt_col(char *buf, int64_t v, unsigned decimals, unsigned width){
	FMT_COL_CASES(buf, v, decimals, width, NULL)
}

size_t lo_fmt_col_cached(char *buf, int64_t v, unsigned decimals,
			 unsigned width, struct lo_col *c)
{
	FMT_COL_CASES(buf, v, decimals, width, c)
}
