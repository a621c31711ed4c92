/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Parsing of numbers, sizes, durations and rates, with the suite's unit
 * rules (doc/design.md, contract 1): sizes are binary (64k = 65536),
 * tiobench's "MB" is MiB; kbit/Mbit/Gbit are decimal bits per second; KB/s,
 * MB/s are binary bytes per second.  Every function takes a whole string (no
 * leading or trailing junk, no sign, no white space), stores the result only
 * on success, and returns 0, -EINVAL (junk, empty, bad unit) or -ERANGE
 * (overflow).  A decimal fraction is allowed where a unit follows ("1.5G",
 * "0.25s"); the result is rounded down to the unit of the output (bytes, ns).
 */
#ifndef LATENCY_PARSE_H
#define LATENCY_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A plain decimal integer 0 .. UINT64_MAX. */
int parse_u64(const char *s, uint64_t *out);

/*
 * A size in bytes: N, Nk/K/KiB/KB, M/MiB/MB, G, T, P, E (all powers of
 * 1024) and b/B for bytes.  A bare number is multiplied by BARE_UNIT (1 for
 * bytes; 1048576 where, as in tiobench's -s, a bare number means MiB).
 */
int parse_size_unit(const char *s, uint64_t bare_unit, uint64_t *out);
/* parse_size_unit(s, 1, out). */
int parse_size(const char *s, uint64_t *out);

/*
 * A duration in nanoseconds: ns, us, ms, s, m (minutes), h, d.  A bare
 * number means seconds.
 */
int parse_duration(const char *s, uint64_t *out_ns);

/*
 * A rate in bytes per second.  Bits (decimal): bit, kbit, Mbit, Gbit,
 * optionally followed by "/s" or written bps/kbps/Mbps/Gbps.  Bytes
 * (binary): B/s, KB/s, KiB/s, MB/s, MiB/s, GB/s, GiB/s and the bare size
 * suffixes k, M, G as rsync's --bwlimit takes them.  A bare number is
 * multiplied by BARE_UNIT bytes/s (rsync's --bwlimit: 1024).  Bits are
 * rounded down to whole bytes: 320kbit = 40000 bytes/s.
 */
int parse_rate(const char *s, uint64_t bare_unit, uint64_t *out_bytes_s);

/*
 * A plain positive decimal ("4", "2.5", "2.50"; no sign, exponent or unit)
 * as MANT / 10^SCALE exactly, trailing zeros of the fraction dropped.
 * Returns 0, -EINVAL or -ERANGE (more than 19 fraction digits, or a
 * mantissa above UINT64_MAX).  Zero is accepted ("0", mantissa 0).
 */
int parse_decimal(const char *s, uint64_t *mant, unsigned *scale);
/*
 * The same as a double, for ratios and percentages that are compared,
 * never summed: NaN when S is not such a number or is 0.
 */
double parse_decimal_positive(const char *s);

/*
 * Format BYTES as the shortest exact binary-suffixed size ("64k", "4G",
 * "1536") into BUF (at least 24 bytes).  Returns BUF.
 */
char *format_size(char *buf, uint64_t bytes);

/*
 * "HOST:PORT" or "[V6]:PORT" (PORT 0..65535) split into HOST (HLEN bytes)
 * and PORT (PLEN bytes).  Returns 0 or -EINVAL (also for a bracket inside
 * a host, as in "a]b:80").
 */
int split_host_port(const char *s, char *host, size_t hlen, char *port,
		    size_t plen);

/*
 * Undo, in place, the octal escapes the kernel writes in paths of
 * /proc/mounts, /proc/self/mountinfo and /proc/swaps ("\\040" for a space,
 * "\\134" for a backslash); any other backslash stays as it is.
 */
void parse_octal_escapes(char *s);

/*
 * Whether S holds a control character (C0 or DEL): a tab or newline would
 * split a line-based record or a key=value file written from it.
 */
bool has_control(const char *s);

#endif
