// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Number parsing for every command line in the suite.  All the work is done
 * in integers (128-bit in between) so "320kbit" is exactly 40000 bytes/s and
 * "1.5G" exactly 1610612736 bytes; floating point never enters.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "lib/parse.h"

typedef unsigned __int128 u128;

/* A decimal number split into integer part and fraction num/den. */
struct decimal {
	u128 whole;
	u128 frac; /* digits after the point */
	u128 den;  /* 10^number of fraction digits */
	int has_point;
};

/* Parse digits[.digits]; return the position after them, or NULL. */
static const char *scan_decimal(const char *s, struct decimal *d)
{
	const char *p = s;
	int digits = 0;

	d->whole = 0;
	d->frac = 0;
	d->den = 1;
	d->has_point = 0;
	while (*p >= '0' && *p <= '9') {
		d->whole = d->whole * 10 + (*p - '0');
		if (d->whole > UINT64_MAX)
			return NULL;
		p++;
		digits++;
	}
	if (*p == '.') {
		d->has_point = 1;
		p++;
		while (*p >= '0' && *p <= '9') {
			/* Digits beyond 1e-18 cannot change a 64-bit result. */
			if (d->den < (u128)1000000000000000000ULL * 10) {
				d->frac = d->frac * 10 + (*p - '0');
				d->den *= 10;
			}
			p++;
			digits++;
		}
	}
	return digits ? p : NULL;
}

/* (whole + frac/den) * num / div, rounded down; -ERANGE past 64 bits. */
static int scale(const struct decimal *d, uint64_t num, uint64_t div,
		 uint64_t *out)
{
	u128 w = d->whole * num;
	u128 f;

	if (d->whole && w / d->whole != num)
		return -ERANGE;
	/* frac < den <= 1e19 and num < 2^64: the product fits in 128 bits. */
	f = d->frac * num / d->den;
	w += f;
	w /= div;
	if (w > UINT64_MAX)
		return -ERANGE;
	*out = (uint64_t)w;
	return 0;
}

struct unit {
	const char *name;
	uint64_t num;
	uint64_t div;
};

static int parse_with_units(const char *s, const struct unit *units,
			    uint64_t bare_num, uint64_t bare_div, uint64_t *out)
{
	struct decimal d;
	const char *rest;
	const struct unit *u;

	if (!s)
		return -EINVAL;
	rest = scan_decimal(s, &d);
	if (!rest) {
		/* Distinguish overflow of the digits from junk. */
		if (*s >= '0' && *s <= '9')
			return -ERANGE;
		return -EINVAL;
	}
	if (!*rest) {
		if (d.has_point && bare_num == 1 && bare_div == 1)
			return -EINVAL;
		return scale(&d, bare_num, bare_div, out);
	}
	for (u = units; u->name; u++)
		if (!strcmp(rest, u->name))
			return scale(&d, u->num, u->div, out);
	return -EINVAL;
}

int parse_u64(const char *s, uint64_t *out)
{
	static const struct unit none[] = { { NULL, 0, 0 } };

	return parse_with_units(s, none, 1, 1, out);
}

#define KIB 1024ULL
#define MIB (KIB * 1024)
#define GIB (MIB * 1024)
#define TIB (GIB * 1024)
#define PIB (TIB * 1024)
#define EIB (PIB * 1024)

/* clang-format off */
static const struct unit size_units[] = {
	{ "b", 1, 1 }, { "B", 1, 1 },
	{ "k", KIB, 1 }, { "K", KIB, 1 }, { "KB", KIB, 1 }, { "KiB", KIB, 1 },
	{ "kB", KIB, 1 }, { "kiB", KIB, 1 },
	{ "m", MIB, 1 }, { "M", MIB, 1 }, { "MB", MIB, 1 }, { "MiB", MIB, 1 },
	{ "g", GIB, 1 }, { "G", GIB, 1 }, { "GB", GIB, 1 }, { "GiB", GIB, 1 },
	{ "t", TIB, 1 }, { "T", TIB, 1 }, { "TB", TIB, 1 }, { "TiB", TIB, 1 },
	{ "p", PIB, 1 }, { "P", PIB, 1 }, { "PB", PIB, 1 }, { "PiB", PIB, 1 },
	{ "e", EIB, 1 }, { "E", EIB, 1 }, { "EB", EIB, 1 }, { "EiB", EIB, 1 },
	{ NULL, 0, 0 }
};

static const struct unit duration_units[] = {
	{ "ns", 1, 1 }, { "us", 1000, 1 }, { "ms", 1000000, 1 },
	{ "s", 1000000000ULL, 1 }, { "sec", 1000000000ULL, 1 },
	{ "m", 60000000000ULL, 1 }, { "min", 60000000000ULL, 1 },
	{ "h", 3600000000000ULL, 1 }, { "d", 86400000000000ULL, 1 },
	{ NULL, 0, 0 }
};

static const struct unit rate_units[] = {
	{ "bit", 1, 8 }, { "bit/s", 1, 8 }, { "bps", 1, 8 },
	{ "kbit", 1000, 8 }, { "kbit/s", 1000, 8 }, { "kbps", 1000, 8 },
	{ "Kbit", 1000, 8 }, { "Kbit/s", 1000, 8 },
	{ "Mbit", 1000000, 8 }, { "Mbit/s", 1000000, 8 }, { "Mbps", 1000000, 8 },
	{ "mbit", 1000000, 8 },
	{ "Gbit", 1000000000, 8 }, { "Gbit/s", 1000000000, 8 },
	{ "Gbps", 1000000000, 8 },
	{ "B/s", 1, 1 },
	{ "k", KIB, 1 }, { "K", KIB, 1 }, { "KB/s", KIB, 1 }, { "KiB/s", KIB, 1 },
	{ "kB/s", KIB, 1 },
	{ "m", MIB, 1 }, { "M", MIB, 1 }, { "MB/s", MIB, 1 }, { "MiB/s", MIB, 1 },
	{ "g", GIB, 1 }, { "G", GIB, 1 }, { "GB/s", GIB, 1 }, { "GiB/s", GIB, 1 },
	{ NULL, 0, 0 }
};
/* clang-format on */

int parse_size_unit(const char *s, uint64_t bare_unit, uint64_t *out)
{
	if (!bare_unit)
		return -EINVAL;
	return parse_with_units(s, size_units, bare_unit, 1, out);
}

int parse_size(const char *s, uint64_t *out)
{
	return parse_size_unit(s, 1, out);
}

int parse_duration(const char *s, uint64_t *out_ns)
{
	return parse_with_units(s, duration_units, 1000000000ULL, 1, out_ns);
}

int parse_rate(const char *s, uint64_t bare_unit, uint64_t *out_bytes_s)
{
	if (!bare_unit)
		return -EINVAL;
	return parse_with_units(s, rate_units, bare_unit, 1, out_bytes_s);
}

char *format_size(char *buf, uint64_t bytes)
{
	static const char suffix[] = "kMGTPE";
	int i = -1;

	while (bytes && !(bytes % 1024) && i < 5) {
		bytes /= 1024;
		i++;
	}
	if (i < 0)
		snprintf(buf, 24, "%llu", (unsigned long long)bytes);
	else
		snprintf(buf, 24, "%llu%c", (unsigned long long)bytes,
			 suffix[i]);
	return buf;
}

int split_host_port(const char *s, char *host, size_t hlen, char *port,
		    size_t plen)
{
	const char *colon, *h = s;
	uint64_t num;
	size_t n;

	if (s[0] == '[') {
		const char *close = strchr(s, ']');

		if (!close || close[1] != ':')
			return -EINVAL;
		h = s + 1;
		n = (size_t)(close - h);
		colon = close + 1;
	} else {
		colon = strrchr(s, ':');
		if (!colon || strchr(s, ':') != colon)
			return -EINVAL;
		n = (size_t)(colon - s);
	}
	if (!n || n >= hlen || !colon[1] || strlen(colon + 1) >= plen)
		return -EINVAL;
	/* A bracket belongs around a whole IPv6 host, never in one. */
	if (memchr(h, '[', n) || memchr(h, ']', n))
		return -EINVAL;
	if (parse_u64(colon + 1, &num) || num > 65535)
		return -EINVAL;
	memcpy(host, h, n);
	host[n] = '\0';
	strcpy(port, colon + 1);
	return 0;
}

bool has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

void parse_octal_escapes(char *s)
{
	char *d = s;

	for (; *s; s++, d++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
		    s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*d = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				    (s[3] - '0'));
			s += 3;
		} else {
			*d = *s;
		}
	}
	*d = '\0';
}

/* Append the digits S[0..LEN) to *M; -EINVAL on junk, -ERANGE on overflow. */
static int add_digits(uint64_t *m, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		uint64_t d = (uint64_t)(s[i] - '0');

		if (s[i] < '0' || s[i] > '9')
			return -EINVAL;
		if (*m > (UINT64_MAX - d) / 10)
			return -ERANGE;
		*m = *m * 10 + d;
	}
	return 0;
}

int parse_decimal(const char *s, uint64_t *mant, unsigned *scale)
{
	const char *dot = strchr(s, '.');
	size_t ilen = dot ? (size_t)(dot - s) : strlen(s);
	size_t flen = dot ? strlen(dot + 1) : 0;
	uint64_t m = 0;
	int r;

	if (!ilen || (dot && !flen))
		return -EINVAL;
	/* Trailing zeros of the fraction add nothing ("2.50" is 25/10). */
	while (flen && dot[flen] == '0')
		flen--;
	r = add_digits(&m, s, ilen);
	if (!r && dot)
		r = add_digits(&m, dot + 1, flen);
	if (r)
		return r;
	if (flen > 19)
		return -ERANGE;
	*mant = m;
	*scale = (unsigned)flen;
	return 0;
}

double parse_decimal_positive(const char *s)
{
	uint64_t m;
	unsigned sc;

	if (parse_decimal(s, &m, &sc) || !m)
		return NAN;
	return (double)m / pow(10, sc);
}
