// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Pacing to absolute deadlines and the progress meter.  A step is due at
 * start + bytes / rate, so late steps catch up and early ones wait: the
 * long-run rate is exact and, with small steps, the stream is even.  The
 * meter prints a progress line (doc/design.md, contract 1) each time another
 * 0.1 s of audio has been received and written (and, with --fdatasync, is on
 * disk), so both network and disk stalls show up as long gaps between lines.
 */
#include <config.h>

#include <errno.h>
#include <unistd.h>

#include "lib/timing.h"

#include "fakemusic/fake-music.h"

/*
 * Catch-up after a stall runs at most at 5/4 of the rate: a second pacer,
 * a leaky bucket (GCRA) at that rate that tolerates CATCH_UP_SLACK_NS of
 * lateness, so that late wake-ups on a busy machine do not add up.
 */
#define CATCH_UP_NUM 5
#define CATCH_UP_DEN 4
#define CATCH_UP_SLACK_NS (20 * NSEC_PER_MSEC)

void pace_reset(struct pace *p, uint64_t rate, uint64_t done)
{
	p->rate = rate;
	p->start_ns = mono_ns();
	p->base = done;
	p->tat_ns = 0;
}

uint64_t pace_due(const struct pace *p, uint64_t done)
{
	uint64_t due, floor;

	if (!p->rate)
		return 0;
	due = pace_deadline_ns(p->start_ns, done - p->base, p->rate);
	/*
	 * Behind schedule (a stall), the deadline is in the past: catching up
	 * at full speed would follow every stall with a burst.  On schedule
	 * the deadline is always the later of the two.
	 */
	floor = p->tat_ns > CATCH_UP_SLACK_NS ? p->tat_ns - CATCH_UP_SLACK_NS
					      : 0;
	return due > floor ? due : floor;
}

void pace_step(struct pace *p, uint64_t n)
{
	uint64_t now = mono_ns();

	if (!p->rate)
		return;
	if (p->tat_ns < now)
		p->tat_ns = now;
	p->tat_ns +=
		pace_deadline_ns(0, n * CATCH_UP_DEN, p->rate * CATCH_UP_NUM);
}

int pace_wait(const struct pace *p, uint64_t done,
	      const volatile sig_atomic_t *sig)
{
	if (!p->rate)
		return 0;
	return sleep_until_ns(pace_due(p, done), sig);
}

size_t pace_chunk(uint64_t rate)
{
	uint64_t c = rate / 100;

	if (!rate || c > 65536)
		return 65536;
	return c < 512 ? 512 : (size_t)c;
}

void meter_init(struct meter *m, int fd, uint64_t unit)
{
	progress_init(&m->prog, fd, "fake-music");
	m->unit = unit;
	m->bytes = 0;
	m->next = unit;
	m->start_ns = m->last_ns = mono_ns();
	m->max_gap_ns = 0;
	m->lines = 0;
	m->wire = 0;
	m->sync_fd = -1;
	m->emit_failed = false;
}

int meter_add(struct meter *m, uint64_t n)
{
	m->bytes += n;
	while (m->bytes >= m->next) {
		uint64_t now;
		int r;

		if (m->sync_fd >= 0 && fdatasync(m->sync_fd))
			return -errno;
		now = mono_ns();
		if (now - m->last_ns > m->max_gap_ns)
			m->max_gap_ns = now - m->last_ns;
		m->last_ns = now;
		r = progress_emit(&m->prog, now, "bytes=%llu wire=%llu",
				  (unsigned long long)m->next,
				  (unsigned long long)m->wire);
		if (r) {
			m->emit_failed = true;
			return r;
		}
		m->lines++;
		m->next += m->unit;
	}
	return 0;
}
