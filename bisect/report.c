// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a bisection tells people: bisect.log (a line a decision, appended
 * as they are made; after a crash the lines the log lacks are added from
 * the decisions made again), the progress line on stderr (where the
 * search stands, the boots and time it may still take), summary.txt for a
 * mail, and --status.  Labels are checked when read (latency-vm's
 * characters), reasons and paths are escaped.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/output.h"
#include "lib/xalloc.h"
#include "bisect/bisect.h"

char *report_change(char *buf, size_t len, const struct change *c)
{
	if (isnan(c->delta))
		snprintf(buf, len, "not measured");
	else if (c->test == TEST_NONE)
		snprintf(buf, len, "%+.3g%% (not tested)", c->delta);
	else
		snprintf(buf, len, "%+.3g%% (CI %+.3g..%+.3g%%, p %.2g)",
			 c->delta, c->ci_lo, c->ci_hi, c->p);
	return buf;
}

/* The lines of DIRFD's bisect.log, counted. */
static size_t log_lines(int dirfd)
{
	char buf[4096];
	size_t n = 0;
	ssize_t r, i;
	int fd = openat(dirfd, "bisect.log", O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return 0;
	while ((r = read(fd, buf, sizeof(buf))) > 0)
		for (i = 0; i < r; i++)
			n += buf[i] == '\n';
	close(fd);
	return n;
}

int report_log(const struct bisect *b, int dirfd, size_t *logged)
{
	size_t i;
	int fd, ret = 0;

	if (*logged == (size_t)-1)
		*logged = log_lines(dirfd);
	if (*logged >= b->n_dec)
		return 0;
	fd = openat(dirfd, "bisect.log",
		    O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC,
		    0644);
	if (fd < 0)
		return -errno;
	for (i = *logged; i < b->n_dec && !ret; i++) {
		char *e = text_escape(b->dec[i].line);
		char *line = xasprintf("%s\n", e);

		ret = write_all(fd, line, strlen(line));
		free(line);
		free(e);
	}
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret)
		*logged = b->n_dec;
	return ret;
}

/* The boots that ended (counted in boots_total), and the time they took. */
static size_t boots_ended(const struct bisect *b, double *wall)
{
	size_t i, n = 0;

	*wall = 0;
	for (i = 0; i < b->n_boots; i++) {
		if (b->boots[i].end == BOOT_RUNNING)
			continue;
		n++;
		if (!isnan(b->boots[i].wall_s))
			*wall += b->boots[i].wall_s;
	}
	return n;
}

/*
 * The boots still to make, roughly: the probes a binary search of the
 * untested kernels left needs, and a validation, each the pairs a decided
 * series took on average so far (min_pairs before any).
 */
static size_t boots_left(const struct bisect *b)
{
	size_t i, left = 0, steps = 0, pairs = 0, decided = 0;

	if (b->outcome != OUT_RUNNING)
		return 0;
	for (i = 0; i < b->n; i++)
		if (b->k[i].pairs && b->k[i].state != KS_UNTESTED) {
			pairs += b->k[i].pairs;
			decided++;
		}
	pairs = decided ? (pairs + decided - 1) / decided : b->o.min_pairs;
	for (i = b->lo + 1; i < b->hi; i++)
		left += b->k[i].state == KS_UNTESTED;
	while (left) {
		steps++;
		left /= 2;
	}
	steps += b->validation == VAL_NONE; /* the validation */
	if (isnan(b->threshold))
		steps++; /* the ends */
	return steps * pairs * 2;
}

void report_progress(const struct bisect *b, const char *what, double wall_s)
{
	double boot_wall;
	size_t ended = boots_ended(b, &boot_wall), left = boots_left(b);
	double per = ended ? boot_wall / (double)ended : NAN;
	char eta[64] = "";

	if (!isnan(per) && left)
		snprintf(eta, sizeof(eta), ", about %.0f min", left * per / 60);
	inform("%s: range %s .. %s, %zu boots done (%zu used), %zu to go%s, "
	       "%.0f s so far",
	       what, b->k[b->lo].label, b->k[b->hi].label, ended, boots_done(b),
	       left, eta, wall_s);
}

/* The complete boots of series S, arm ARM, as paths. */
static void series_paths(FILE *f, const struct bisect *b,
			 const struct bisect_run *run, size_t s, char arm)
{
	size_t i;

	for (i = 0; i < b->n_boots; i++)
		if (b->boots[i].series == s && b->boots[i].arm == arm &&
		    b->boots[i].end == BOOT_DONE) {
			fputc(' ', f);
			text_write(f, run->dir);
			fprintf(f, "/%s", b->boots[i].dir);
		}
}

/* The comparison the summary's last line reproduces: the last series. */
static long last_series(const struct bisect *b)
{
	size_t i, s;

	/* Catch mode: the first step that was worse. */
	for (i = b->o.good + 1; b->o.all && i <= b->o.bad; i++)
		for (s = 0; b->k[i].state == KS_BAD && s < b->n_series; s++)
			if (b->series[s].k == i && b->series[s].ref == i - 1)
				return (long)s;
	if (b->o.all)
		return -1;
	if (b->val_series >= 0)
		return b->val_series;
	if (b->culprit >= 0 || b->outcome == OUT_RANGE)
		return -1;
	return b->n_series ? 0 : -1;
}

static void summary_body(FILE *f, const struct bisect *b,
			 const struct bisect_run *run, double wall_s)
{
	double boot_wall;
	size_t ended = boots_ended(b, &boot_wall), i;
	long s = last_series(b);
	char t[200];

	fprintf(f, "metric: %s (lower is better), ",
		fig_desc[b->o.metric].name);
	if (b->o.all)
		fputs("no threshold (catch mode: each step tested)\n", f);
	else if (isnan(b->threshold))
		fputs("no threshold (the ends not judged)\n", f);
	else
		fprintf(f, "threshold %+.3g%%\n", b->threshold);
	if (b->o.all)
		fputs("catch mode: each kernel's change is against the one "
		      "before it\n",
		      f);
	else
		fprintf(f, "ends: %s .. %s: %s in %zu pairs\n",
			b->k[b->o.good].label, b->k[b->o.bad].label,
			report_change(t, sizeof(t), &b->ends),
			b->k[b->o.bad].pairs);
	if (b->culprit >= 0) {
		fprintf(f, "culprit: %s (", b->k[b->culprit].label);
		text_write(f, b->k[b->culprit].kernel);
		fprintf(f, ")\nchange against its predecessor %s: %s\n",
			b->k[b->lo].label,
			report_change(t, sizeof(t), &b->boundary));
		fprintf(f, "validation: %s in %zu fresh pairs: %s\n",
			report_change(t, sizeof(t), &b->val), b->val.pairs,
			b->validation == VAL_VALIDATED	     ? "validated"
			: b->validation == VAL_NOT_VALIDATED ? "not validated"
							     : "not yet made");
	} else if (b->outcome == OUT_RANGE) {
		fprintf(f, "range: %s .. %s\n", b->k[b->lo + 1].label,
			b->k[b->hi].label);
	}
	fputs("kernels:\n", f);
	for (i = 0; i < b->n; i++) {
		fprintf(f, "  %-24s %-8s %2zu pairs  %s", b->k[i].label,
			kstate_name[b->k[i].state], b->k[i].pairs,
			report_change(t, sizeof(t), &b->k[i].ch));
		if (b->k[i].reason) {
			fputs("  ", f);
			text_write(f, b->k[i].reason);
		}
		fputc('\n', f);
	}
	fprintf(f, "boots: %zu (%zu used), %.0f s of boots, %.0f s in all\n",
		ended, boots_done(b), boot_wall, wall_s);
	if (s >= 0) {
		fputs("reproduce: latency-compare", f);
		series_paths(f, b, run, (size_t)s, 'a');
		series_paths(f, b, run, (size_t)s, 'b');
		fputc('\n', f);
	}
}

/* The headline of B. */
static void headline(FILE *f, const struct bisect *b, bool stopped)
{
	fputs("latency-bisect: ", f);
	if (b->outcome == OUT_FOUND)
		fprintf(f, "%s is the culprit (%s)\n", b->k[b->culprit].label,
			b->validation == VAL_VALIDATED ? "validated"
						       : "not validated");
	else if (b->outcome == OUT_RANGE)
		fprintf(f, "the culprit is in the range %s .. %s\n",
			b->k[b->lo + 1].label, b->k[b->hi].label);
	else if (b->outcome == OUT_CAUGHT)
		fprintf(f, "every step of %s .. %s tested: %s\n",
			b->k[b->o.good].label, b->k[b->o.bad].label,
			b->dec[b->n_dec - 1].line);
	else if (b->outcome == OUT_NOT_REPRODUCED)
		fprintf(f, "not reproduced between %s and %s\n",
			b->k[b->o.good].label, b->k[b->o.bad].label);
	else
		fprintf(f, "%s\n",
			stopped ? "stopped (resume with --continue)"
				: "running");
}

int report_summary(const struct bisect *b, const struct bisect_run *run,
		   double wall_s)
{
	char *path = xasprintf("%s/summary.txt", run->dir);
	struct atomic_file af;
	int ret = atomic_open(&af, path);

	free(path);
	if (ret < 0)
		return ret;
	headline(af.f, b, b->outcome == OUT_RUNNING);
	summary_body(af.f, b, run, wall_s);
	ret = atomic_commit(&af);
	atomic_abort(&af);
	return ret;
}

int report_status(const char *dir)
{
	struct bisect b;
	struct bisect_run run;
	struct action next;
	size_t i;

	memset(&b, 0, sizeof(b));
	memset(&run, 0, sizeof(run));
	run.dir = xstrdup(dir);
	run.dirfd = -1;
	state_read(&b, &run, dir);
	for (i = 0; i < b.n_boots; i++)
		if (b.boots[i].end == BOOT_DONE && isnan(b.boots[i].value))
			die(EXIT_USAGE, "%s/bisect.json: bad boots.value", dir);
	decide(&b, &next);
	headline(stdout, &b, true);
	summary_body(stdout, &b, &run, run.wall_before_s);
	if (next.boot)
		printf("next: %s, pair %u of %s against %s\n",
		       next.arm == 'a' ? "the reference" : "the kernel",
		       next.pair, b.k[b.series[next.series].k].label,
		       b.k[b.series[next.series].ref].label);
	bisect_release(&b);
	bisect_run_release(&run);
	return 0;
}
