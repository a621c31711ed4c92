/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Clocks, absolute-deadline sleeping and fast number formatting.  Every
 * interval in the suite is CLOCK_MONOTONIC in 64-bit nanoseconds.
 */
#ifndef LATENCY_TIMING_H
#define LATENCY_TIMING_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#define NSEC_PER_USEC 1000ULL
#define NSEC_PER_MSEC 1000000ULL
#define NSEC_PER_SEC 1000000000ULL

/* CLOCK_MONOTONIC now, in ns.  Never fails on Linux. */
uint64_t mono_ns(void);
/* CLOCK_REALTIME now, in ns since the epoch. */
uint64_t real_ns(void);
/* Process CPU time (user + system of all threads), in ns. */
uint64_t cpu_ns(void);
/* The calling thread's CPU time, in ns (time it was not running is not in it). */
uint64_t thread_cpu_ns(void);

/*
 * Sleep until CLOCK_MONOTONIC reaches DEADLINE_NS (TIMER_ABSTIME, so no
 * drift accumulates).  A signal interrupts the sleep only if STOP is
 * non-NULL and *STOP has become non-zero.  Returns 0 when the deadline was
 * reached, -EINTR when stopped.
 */
int sleep_until_ns(uint64_t deadline_ns, const volatile sig_atomic_t *stop);

/*
 * Deadline pacing at RATE units per second from START_NS: the moment by
 * which AMOUNT units should have been handled.  RATE must be non-zero.
 */
uint64_t pace_deadline_ns(uint64_t start_ns, uint64_t amount, uint64_t rate);

/*
 * Write V in decimal to BUF (at least 21 bytes); returns the number of
 * characters, with no terminating NUL.
 */
size_t fmt_u64(char *buf, uint64_t v);
/*
 * Write NS as seconds with DECIMALS (0..9) digits after the point, rounded
 * to nearest, e.g. fmt_ns_fixed(buf, 1500000, 4) -> "0.0015".  BUF needs
 * 32 bytes.  Returns the number of characters (no NUL written).
 */
size_t fmt_ns_fixed(char *buf, uint64_t ns, unsigned decimals);
/*
 * fmt_ns_fixed() right-aligned in a field of WIDTH characters (wider values
 * are not cut).  Returns the number of characters.
 */
size_t fmt_ns_padded(char *buf, uint64_t ns, unsigned decimals, unsigned width);
/*
 * Format a duration for people: "1.234 s", "87.5 ms", "312 us", "45 ns"
 * (three significant digits).  Returns BUF, which needs 32 bytes.
 */
char *fmt_duration(char *buf, uint64_t ns);
/*
 * Format SECONDS (>= 0) as "MM:SS.mmm", the elapsed form of the 2009
 * headline "LABEL Elapsed:MM:SS.mmm(stddev:SSS.sss) Failures:N": at least
 * two digits of minutes (more when needed, never hours), rounded to the
 * millisecond.  Negative or non-finite input gives "-".  BUF needs 32
 * bytes; returns BUF.
 */
char *fmt_mmss(char *buf, double seconds);

#endif
