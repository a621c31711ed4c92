// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --format=html: the comparison as one self-contained page, the one to
 * attach to a bug report.  Where it came from (labels, kernels, setups,
 * the command line, the test), the headline verdicts, a table with a row
 * a figure and compared label (the baseline's mean and spread, the change
 * with its interval, p, the smallest change the data could have seen and
 * one of four states), the same for seqbench and ringbench, then the
 * pictures (compare-svg.c).  Every string from a result goes through
 * cmp_html_write(); the page loads nothing: its Content-Security-Policy
 * allows no source at all but its own style and its one script, named by
 * hash, so even a string that escaped the escaping could not run.  The
 * page reads without JavaScript; the script only sorts and filters.
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json-read.h"
#include "lib/output.h"
#include "lib/stats.h"
#include "lib/xalloc.h"
#include "compare/compare.h"

/* The characters HTML gives a meaning, as references; the rest as is. */
static void html_chars(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			fputc(*s, f);
		}
	}
}

void cmp_html_write(FILE *f, const char *s)
{
	char *e = text_escape(s);

	html_chars(f, e);
	free(e);
}

/* clang-format off */
static const char page_style[] =
	"body{font:14px/1.4 system-ui,sans-serif;margin:1.5em auto;"
	"max-width:80em;padding:0 1em;color:#222;background:#fff}\n"
	"h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em}\n"
	"table{border-collapse:collapse;margin:.5em 0}\n"
	"th,td{border:1px solid #ccc;padding:.2em .5em;text-align:right;"
	"vertical-align:top}\n"
	"th{background:#f2f2f2}td.t,th.t{text-align:left}\n"
	"table.figures th{cursor:pointer}\n"
	"tr.worse td.state{background:#f8d0d0;font-weight:bold}\n"
	"tr.better td.state{background:#d0f0d0;font-weight:bold}\n"
	"li.worse{color:#a00}li.better{color:#060}\n"
	"code,.cmd{font-family:monospace;word-break:break-all}\n"
	"dt{font-weight:bold}dd{margin:0 0 .4em 1.5em}\n"
	"figure{display:inline-block;margin:.5em;vertical-align:top;"
	"max-width:100%}\n"
	"figure svg{max-width:100%;height:auto}\n"
	"figcaption{font-size:.9em;color:#444;max-width:42em}\n"
	".note{color:#555}\n"
	"body:has(#changed-only:checked) tr[data-changed=\"0\"]{display:none}\n"
	"body.changed-only tr[data-changed=\"0\"]{display:none}\n";

/*
 * Sorting by a click on a heading and the "changed rows only" box; no
 * inline handler (the policy below refuses them all).  The policy names
 * this script by its SHA-256: change one, change the other (t9801 and
 * the browser test check that they agree).
 */
static const char page_script[] =
	"(function(){\n"
	"var box=document.getElementById('changed-only');\n"
	"function filt(){document.body.classList.toggle('changed-only',"
	"box.checked);}\n"
	"box.addEventListener('change',filt);filt();\n"
	"function key(td){var v=td.getAttribute('data-v');\n"
	"return v===null?td.textContent:parseFloat(v);}\n"
	"document.querySelectorAll('table.figures').forEach(function(t){\n"
	"t.querySelectorAll('thead th').forEach(function(th,i){\n"
	"th.addEventListener('click',function(){\n"
	"var b=t.tBodies[0],rows=Array.prototype.slice.call(b.rows);\n"
	"var up=th.getAttribute('data-up')!=='1';th.setAttribute('data-up',"
	"up?'1':'0');\n"
	"rows.sort(function(x,y){var a=key(x.cells[i]),c=key(y.cells[i]);\n"
	"if(typeof a==='number'&&typeof c==='number'){\n"
	"if(isNaN(a))return 1;if(isNaN(c))return -1;return up?a-c:c-a;}\n"
	"a=String(a);c=String(c);return up?a.localeCompare(c):"
	"c.localeCompare(a);});\n"
	"rows.forEach(function(r){b.appendChild(r);});});});});\n"
	"})();\n";
/* clang-format on */

/* base64 of the SHA-256 of page_script, as the policy names it. */
#define PAGE_SCRIPT_SHA256 "sha256-Vly773xdHojdvmh5krOuIMJJ3ObZ0REIN5Xkh+xzQvo="

/* What the state of a change is, direction-aware. */
enum html_state {
	ST_NONE,	 /* not compared (the baseline itself) */
	ST_WORSE,	 /* significant, the bad way */
	ST_BETTER,	 /* significant, the good way */
	ST_SAME,	 /* no change larger than the MDE */
	ST_INCONCLUSIVE, /* too few samples or too wide an interval */
	ST_MACHINE,	 /* the machine's state: named, not judged */
};

static const char *const state_class[] = {
	[ST_NONE] = "none",
	[ST_WORSE] = "worse",
	[ST_BETTER] = "better",
	[ST_SAME] = "same",
	[ST_INCONCLUSIVE] = "inconclusive",
	[ST_MACHINE] = "machine",
};

/* What would decide an inconclusive change measured by test T. */
static const char *decider(enum cmp_test t)
{
	switch (t) {
	case TEST_NONE:
		return "needs two runs or more on each side";
	case TEST_RUNS:
		return "more runs would decide";
	case TEST_RESULTS:
	case TEST_SPREAD:
		return "more boots (results) of each label would decide";
	case TEST_PAIRED:
		return "more interleaved pairs would decide";
	case TEST_PAIRED_BOOTS:
		return "more paired boots would decide";
	}
	return "";
}

/*
 * The state of change C: SIG is its significance as judged (corrected
 * for the other figures where it is not the lead), UP_WORSE whether a
 * rise is worse.  "Same" needs the whole interval inside the MDE, else
 * the data could still hide a change it was meant to see.
 */
static enum html_state state_of(const struct change *c, bool sig, bool up_worse,
				bool machine)
{
	if (c->test == TEST_NONE || isnan(c->delta))
		return ST_INCONCLUSIVE;
	if (machine)
		return ST_MACHINE;
	if (sig)
		return (c->delta > 0) == up_worse ? ST_WORSE : ST_BETTER;
	/* Both sides the same constant (no pages swapped): nothing moved. */
	if (isnan(c->mde_pct))
		return c->delta == 0 && c->p == 1 ? ST_SAME : ST_INCONCLUSIVE;
	if (!isnan(c->ci_lo) && !isnan(c->ci_hi) &&
	    (c->ci_lo < -c->mde_pct || c->ci_hi > c->mde_pct))
		return ST_INCONCLUSIVE;
	return ST_SAME;
}

/* A number cell, its value kept for sorting; "-" when absent. */
static void td_num(FILE *f, double v, int decimals, bool sign, const char *unit)
{
	if (isnan(v)) {
		fputs("<td data-v=\"NaN\">-</td>", f);
		return;
	}
	fprintf(f,
		sign ? "<td data-v=\"%.9g\">%+.*f%s</td>"
		     : "<td data-v=\"%.9g\">%.*f%s</td>",
		v, decimals, v, unit);
}

static void td_text(FILE *f, const char *s)
{
	fputs("<td class=\"t\">", f);
	cmp_html_write(f, s);
	fputs("</td>", f);
}

static void td_p(FILE *f, double p)
{
	if (isnan(p))
		fputs("<td data-v=\"NaN\">-</td>", f);
	else if (p < 0.0001)
		fprintf(f, "<td data-v=\"%.3g\">&lt;0.0001</td>", p);
	else
		fprintf(f, "<td data-v=\"%.9g\">%.4f</td>", p, p);
}

/* The change, its interval and the MDE, as percent or a difference. */
static void td_change(FILE *f, const struct change *c, enum change_kind kind)
{
	const char *u = kind == CHANGE_PCT ? "%" : "";

	td_num(f, c->delta, kind == CHANGE_PCT ? 2 : 1, true, u);
	if (isnan(c->ci_lo) || isnan(c->ci_hi))
		fputs("<td data-v=\"NaN\">-</td>", f);
	else
		fprintf(f, "<td data-v=\"%.9g\">%+.2f%% to %+.2f%%</td>",
			c->ci_lo, c->ci_lo, c->ci_hi);
	td_num(f, c->mde_pct, 2, false, "%");
}

static void td_state(FILE *f, enum html_state s, const struct change *c)
{
	fprintf(f, "<td class=\"state t\">%s", state_class[s]);
	if (s == ST_SAME && !isnan(c->mde_pct))
		fprintf(f,
			" <span class=\"note\">(no change larger than "
			"%.2f%%)</span>",
			c->mde_pct);
	else if (s == ST_INCONCLUSIVE)
		fprintf(f, " <span class=\"note\">(%s)</span>",
			decider(c->test));
	else if (s == ST_MACHINE)
		fputs(" <span class=\"note\">(the machine's, not "
		      "judged)</span>",
		      f);
	fputs("</td>", f);
}

/* A row of label I and figure KEY (ours, never a result's string). */
static void tr_open(FILE *f, size_t i, const char *key, enum html_state s)
{
	fprintf(f, "<tr id=\"row-%zu-%s\" class=\"%s\" data-changed=\"%d\">", i,
		key, state_class[s], s == ST_WORSE || s == ST_BETTER);
}

/* Spread of the samples a label's figure is tested on (NaN under 2). */
static double spread_of(const struct figure *fg)
{
	return fg->n >= 2 ? stats_stddev_of(fg->samples, fg->n) : NAN;
}

static int decimals_of(enum fig f)
{
	if (f == FIG_EPU || f == FIG_ERPU || f == FIG_SPU || f == FIG_WPU)
		return 4;
	return fig_desc[f].count ? 1 : 3;
}

static void figure_rows(FILE *f, const struct cmp_label *l, size_t i,
			double alpha)
{
	const struct cmp_label *b = &l[0];
	struct cmp_changed ch;
	enum fig lead = cmp_lead(b, &l[i]);
	size_t k;
	int g;

	if (i)
		cmp_changed_find(b, &l[i], alpha, &ch);
	for (g = 0; g < FIG_COUNT; g++) {
		struct change c = CHANGE_UNTESTED;
		enum html_state s = ST_NONE;
		bool sig;

		if (fig_desc[g].change == CHANGE_NONE ||
		    (isnan(b->fig[g].value) && isnan(l[i].fig[g].value)))
			continue;
		if (i) {
			c = cmp_change(b, &l[i], (enum fig)g, alpha);
			/* The lead is tested alone; the others survive Holm's. */
			sig = g == (int)lead ? c.significant : false;
			for (k = 0; k < ch.n_fig && g != (int)lead; k++)
				sig |= ch.fig[k] == g;
			s = state_of(&c, sig, true, fig_desc[g].machine);
		}
		tr_open(f, i, fig_desc[g].key, s);
		fprintf(f, "<td class=\"t\">%s</td>", fig_desc[g].name);
		td_text(f, l[i].label);
		td_num(f, b->fig[g].value, decimals_of((enum fig)g), false, "");
		td_num(f, spread_of(&b->fig[g]), decimals_of((enum fig)g),
		       false, "");
		td_num(f, l[i].fig[g].value, decimals_of((enum fig)g), false,
		       "");
		if (!i) {
			/* One label alone: its figures, nothing to compare. */
			fputs("<td>-</td><td>-</td><td>-</td><td>-</td><td>-</"
			      "td>"
			      "<td class=\"state t\">baseline</td></tr>\n",
			      f);
			continue;
		}
		td_change(f, &c, fig_desc[g].change);
		td_p(f, c.p);
		fprintf(f, "<td class=\"t\">%s</td>",
			c.test == TEST_NONE ? "-" : cmp_test_name(c.test));
		td_state(f, s, &c);
		fputs("</tr>\n", f);
	}
}

static const char *const figure_heads[] = {
	"figure", "label", "baseline", "spread", "mean",  "change",
	"CI",	  "MDE",   "p",	       "test",	 "state",
};

static void thead(FILE *f, const char *const *heads, size_t n)
{
	size_t k;

	fputs("<thead><tr>", f);
	for (k = 0; k < n; k++)
		fprintf(f, "<th%s>%s</th>",
			!strcmp(heads[k], "figure") ||
					!strcmp(heads[k], "label") ||
					!strcmp(heads[k], "config") ||
					!strcmp(heads[k], "test") ||
					!strcmp(heads[k], "state")
				? " class=\"t\""
				: "",
			heads[k]);
	fputs("</tr></thead>\n<tbody>\n", f);
}

static void table_figures(FILE *f, const struct cmp_label *l, size_t n,
			  double alpha)
{
	size_t i;

	fputs("<table id=\"verdict\" class=\"figures\">\n", f);
	thead(f, figure_heads, sizeof(figure_heads) / sizeof(*figure_heads));
	/* A label alone (a run's own page) shows its figures. */
	for (i = n > 1; i < n; i++)
		if (l[0].has_run && l[i].has_run)
			figure_rows(f, l, i, alpha);
	fputs("</tbody></table>\n", f);
}

/* seqbench: a rate, higher is better. */
struct sb_ctx {
	FILE *f;
	double alpha;
	size_t row;
};

static void sb_row(void *ctx, const struct cmp_label *l, size_t i,
		   const struct sb_group *g, const struct cmp_sb_row *row)
{
	struct sb_ctx *x = ctx;
	char ph[SB_PHASE_TEXT], key[96];
	enum html_state s = i ? state_of(&row->change, row->change.significant,
					 false, false)
			      : ST_NONE;

	snprintf(key, sizeof(key), "sb%zu", x->row++);
	tr_open(x->f, i, key, s);
	fprintf(x->f, "<td class=\"t\">%s %gMiB %gB t%g</td>",
		cmp_sb_phase(g, ph), g->size_mib, g->block_bytes, g->threads);
	td_text(x->f, l->label);
	fprintf(x->f, "<td>%zu</td>", g->n);
	td_num(x->f, row->mean, 2, false, "");
	td_num(x->f, row->sd, 2, false, "");
	if (!i) {
		fputs("<td>-</td><td>-</td><td>-</td><td>-</td>"
		      "<td class=\"state t\">baseline</td></tr>\n",
		      x->f);
		return;
	}
	td_change(x->f, &row->change, CHANGE_PCT);
	td_p(x->f, row->change.p);
	td_state(x->f, s, &row->change);
	fputs("</tr>\n", x->f);
}

static void table_seqbench(FILE *f, const struct cmp_label *l, size_t n,
			   double alpha)
{
	static const char *const heads[] = {
		"config", "label", "runs", "MiB/s", "stddev",
		"change", "CI",	   "MDE",  "p",	    "state",
	};
	struct sb_ctx x = { f, alpha, 0 };

	if (!cmp_has_seqbench(l, n))
		return;
	fputs("<h2 id=\"seqbench\">seqbench</h2>\n"
	      "<table id=\"seqbench-table\" class=\"figures\">\n",
	      f);
	thead(f, heads, sizeof(heads) / sizeof(*heads));
	cmp_sb_each(l, n, alpha, sb_row, &x);
	fputs("</tbody></table>\n", f);
}

/* ringbench: the rate higher is better, the times lower. */
struct rb_ctx {
	FILE *f;
	size_t row;
};

static void rb_row(void *ctx, const struct cmp_label *l, size_t i,
		   const struct rb_group *g, const struct cmp_rb_row *row)
{
	struct rb_ctx *x = ctx;
	char key[64];
	int k;

	for (k = 0; k < RBF_COUNT; k++) {
		const struct change *c = &row->change[k];
		enum html_state s =
			i ? state_of(c, c->significant, k != RBF_RATE, false)
			  : ST_NONE;

		if (isnan(row->mean[k]))
			continue;
		snprintf(key, sizeof(key), "rb%zu-%s", x->row, rb_fig_name[k]);
		tr_open(x->f, i, key, s);
		td_text(x->f, g->config);
		fprintf(x->f, "<td class=\"t\">%s</td>", rb_fig_name[k]);
		td_text(x->f, l->label);
		td_num(x->f, row->mean[k], 3, false, "");
		td_num(x->f, row->sd[k], 3, false, "");
		if (!i) {
			fputs("<td>-</td><td>-</td><td>-</td><td>-</td>"
			      "<td class=\"state t\">baseline</td></tr>\n",
			      x->f);
			continue;
		}
		td_change(x->f, c, CHANGE_PCT);
		td_p(x->f, c->p);
		td_state(x->f, s, c);
		fputs("</tr>\n", x->f);
	}
	x->row++;
}

static void table_ringbench(FILE *f, const struct cmp_label *l, size_t n,
			    double alpha)
{
	static const char *const heads[] = {
		"config", "figure", "label", "mean", "stddev",
		"change", "CI",	    "MDE",   "p",    "state",
	};
	struct rb_ctx x = { f, 0 };

	if (!cmp_has_ringbench(l, n))
		return;
	fputs("<h2 id=\"ringbench\">ringbench</h2>\n"
	      "<table id=\"ringbench-table\" class=\"figures\">\n",
	      f);
	thead(f, heads, sizeof(heads) / sizeof(*heads));
	cmp_rb_each(l, n, alpha, rb_row, &x);
	fputs("</tbody></table>\n", f);
}

/* The verdict of each label against the baseline, its notes under it. */
static void verdicts(FILE *f, const struct cmp_label *l, size_t n, double alpha)
{
	struct cmp_notes no = { 0, NULL };
	size_t i, k;

	fputs("<h2 id=\"verdicts\">Verdict</h2>\n<ul id=\"verdict-list\">\n",
	      f);
	if (n < 2)
		fputs("<li>one label: nothing to compare, its figures "
		      "below</li>\n",
		      f);
	for (i = 1; i < n; i++) {
		struct change c;
		char *v;

		if (!l[0].has_run || !l[i].has_run)
			continue;
		c = cmp_change(&l[0], &l[i], cmp_lead(&l[0], &l[i]), alpha);
		v = cmp_verdict(&l[0], &l[i], alpha);
		fprintf(f, "<li class=\"%s\">",
			state_class[state_of(&c, c.significant, true, false)]);
		cmp_html_write(f, v);
		free(v);
		cmp_verdict_notes(&l[0], &l[i], &no);
		if (no.n)
			fputs("<ul>", f);
		for (k = 0; k < no.n; k++) {
			fputs("<li class=\"note\">", f);
			cmp_html_write(f, no.line[k]);
			fputs("</li>", f);
		}
		if (no.n)
			fputs("</ul>", f);
		cmp_notes_release(&no);
		fputs("</li>\n", f);
	}
	fputs("</ul>\n", f);
	if (cmp_spread_note(l, n)) {
		fputs("<p class=\"note\">", f);
		cmp_html_write(f, cmp_spread_note(l, n));
		fputs("</p>\n", f);
	}
	for (i = 0; i < n; i++)
		cmp_host_notes(&l[i], &no);
	for (k = 0; k < no.n; k++) {
		fputs("<p class=\"note\">", f);
		cmp_html_write(f, no.line[k]);
		fputs("</p>\n", f);
	}
	cmp_notes_release(&no);
}

static void put_or_dash(FILE *f, const char *s)
{
	if (s)
		cmp_html_write(f, s);
	else
		fputs("-", f);
}

/* A string member of a result's JSON, escaped, or "-". */
static void put_json_str(FILE *f, const struct cmp_result *r, const char *key)
{
	const char *v = r->json ? json_read_string(r->json, key) : NULL;

	put_or_dash(f, v);
}

/* Where a result ran: host or VM (accel, memory, CPUs), its devices. */
static void put_setup(FILE *f, const struct cmp_setup *s)
{
	if (!s->known) {
		fputs("-", f);
		return;
	}
	put_or_dash(f, s->machine);
	if (s->accel) {
		fputs(", accel ", f);
		cmp_html_write(f, s->accel);
	}
	if (!isnan(s->memory_bytes))
		fprintf(f, ", %.0f MiB", s->memory_bytes / 1048576.0);
	if (!isnan(s->cpus))
		fprintf(f, ", %.0f CPUs", s->cpus);
	if (s->stack) {
		fputs(", device ", f);
		cmp_html_write(f, s->stack);
		if (s->cipher) {
			fputs(" ", f);
			cmp_html_write(f, s->cipher);
		}
		if (s->fs) {
			fputs(" ", f);
			cmp_html_write(f, s->fs);
		}
	}
}

static void provenance_labels(FILE *f, const struct cmp_label *l, size_t n)
{
	size_t i, j;

	fputs("<table id=\"labels\">\n<thead><tr><th class=\"t\">label</th>"
	      "<th>results</th><th>runs</th><th class=\"t\">result</th>"
	      "<th class=\"t\">kernel</th><th class=\"t\">setup</th>"
	      "<th class=\"t\">command line</th></tr></thead>\n<tbody>\n",
	      f);
	for (i = 0; i < n; i++) {
		for (j = 0; j < l[i].n; j++) {
			const struct cmp_result *r = l[i].r[j];

			fprintf(f, "<tr id=\"label-%zu-%zu\">", i, j);
			if (!j) {
				fprintf(f, "<td class=\"t\" rowspan=\"%zu\">",
					l[i].n);
				cmp_html_write(f, l[i].label);
				fprintf(f,
					"%s%s</td><td rowspan=\"%zu\">%zu"
					"</td><td rowspan=\"%zu\">",
					i ? "" : " (baseline)",
					l[i].partial ? " [partial]" : "",
					l[i].n, l[i].n, l[i].n);
				if (l[i].has_run)
					fprintf(f, "%zu", l[i].runs);
				else
					fputs("-", f);
				fputs("</td>", f);
			}
			fputs("<td class=\"t\">", f);
			cmp_html_write(f, cmp_result_name(r));
			fputs("</td><td class=\"t\">", f);
			put_json_str(f, r, "kernel");
			fputs("</td><td class=\"t\">", f);
			put_setup(f, &r->setup);
			fputs("</td><td class=\"t cmd\">", f);
			put_json_str(f, r, "command_line");
			fputs("</td></tr>\n", f);
		}
	}
	fputs("</tbody></table>\n", f);
}

static void provenance(FILE *f, const struct cmp_label *l, size_t n,
		       const struct cmp_options *o, const struct run_info *ri)
{
	char cmd[4096], when[64];

	format_command_line(cmd, sizeof(cmd), ri->argc, ri->argv);
	format_iso8601(when, sizeof(when), ri->start_real_ns);
	fputs("<h2 id=\"provenance\">What was compared</h2>\n", f);
	provenance_labels(f, l, n);
	fputs("<dl id=\"meta\">\n<dt>made by</dt><dd>latency-compare "
	      "(" PACKAGE_NAME " " PACKAGE_VERSION ") at ",
	      f);
	cmp_html_write(f, when);
	fputs("</dd>\n<dt>command line</dt><dd class=\"cmd\">", f);
	cmp_html_write(f, cmd);
	fprintf(f,
		"</dd>\n<dt>test</dt><dd>Welch's t-test on runs, or on the "
		"result means when a label holds several results (boots); "
		"paired runs or boots as a one-sample t-test of the "
		"differences; alpha %g; intervals at %g%%; MDE: the smallest "
		"change seen with %.0f%% power</dd>\n"
		"<dt>correction</dt><dd>the lead figure (elapsed per user-CPU "
		"second where both sides have it, else elapsed) is tested at "
		"alpha alone; every other figure is significant only if it "
		"survives Holm's step-down correction over all of them</dd>\n"
		"<dt>workload</dt><dd>",
		o->alpha, (1 - o->alpha) * 100, CMP_POWER * 100);
	cmp_html_write(f, o->workload);
	fputs(" (its stalls and latency distribution)</dd>\n</dl>\n", f);
}

static void page_head(FILE *f, const struct cmp_label *l, size_t n)
{
	size_t i;

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" "
	      "content=\"default-src 'none'; img-src data:; "
	      "style-src 'unsafe-inline'; script-src '" PAGE_SCRIPT_SHA256
	      "'\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, "
	      "initial-scale=1\">\n"
	      "<meta name=\"generator\" "
	      "content=\"latency-compare " PACKAGE_VERSION
	      "\">\n<title>latency-compare: ",
	      f);
	for (i = 0; i < n && i < 4; i++) {
		fputs(i ? " vs " : "", f);
		cmp_html_write(f, l[i].label);
	}
	fputs(n > 4 ? " ...</title>\n" : "</title>\n", f);
	fprintf(f, "<style>\n%s</style>\n</head>\n<body>\n", page_style);
	fputs("<h1>latency-compare: ", f);
	for (i = 0; i < n; i++) {
		fputs(i ? " vs " : "", f);
		cmp_html_write(f, l[i].label);
	}
	fputs("</h1>\n", f);
}

/* The 2009 lines (summary.txt's headline) of every label, as they are. */
static void headline(FILE *f, const struct cmp_label *l, size_t n,
		     const struct cmp_options *o, const struct run_info *ri)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		xalloc_die();
	/* Escaped for a terminal already: only HTML's characters remain. */
	cmp_report(m, CMP_2009, l, n, o, ri);
	if (fclose(m))
		xalloc_die();
	if (len) {
		fputs("<pre id=\"headline\">", f);
		html_chars(f, buf);
		fputs("</pre>\n", f);
	}
	free(buf);
}

void cmp_report_html(FILE *f, const struct cmp_label *l, size_t n,
		     const struct cmp_options *o, const struct run_info *ri)
{
	page_head(f, l, n);
	headline(f, l, n, o, ri);
	provenance(f, l, n, o, ri);
	verdicts(f, l, n, o->alpha);
	fputs("<h2 id=\"figures\">Figures</h2>\n"
	      "<p><label><input type=\"checkbox\" id=\"changed-only\"> "
	      "changed rows only</label> <span class=\"note\">(worse or "
	      "better: significant at alpha, the figures besides the lead "
	      "after Holm's correction; a click on a heading sorts)</span>"
	      "</p>\n",
	      f);
	table_figures(f, l, n, o->alpha);
	table_seqbench(f, l, n, o->alpha);
	table_ringbench(f, l, n, o->alpha);
	cmp_html_plots(f, l, n, o);
	fprintf(f, "<script>\n%s</script>\n</body>\n</html>\n", page_script);
}
