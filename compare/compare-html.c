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
	"td{white-space:nowrap}td.t{white-space:normal;min-width:5em;"
	"overflow-wrap:anywhere}td.state{min-width:13em}\n"
	"dl{display:grid;grid-template-columns:max-content auto;"
	"gap:.2em 1em}dt{font-weight:bold}dd{margin:0}\n"
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

/* The class of a row and its state cell; uncompared rows have none. */
static const char *state_class(enum cmp_state s)
{
	return cmp_state_name(s) ? cmp_state_name(s) : "none";
}

/* What would decide an inconclusive change, in words. */
static const char *need_words(enum cmp_need n)
{
	switch (n) {
	case CMP_NEED_NOTHING:
		break;
	case CMP_NEED_RUNS:
		return "more runs would decide";
	case CMP_NEED_BOOTS:
		return "more boots (results) of each label would decide";
	case CMP_NEED_PAIRS:
		return "pairs would decide: paired boots or an interleaved run";
	case CMP_NEED_QUIET:
		return "a run where neither side's machine or host is busier "
		       "would decide";
	}
	return "too few samples to test";
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

static void td_state(FILE *f, const struct cmp_judged *j)
{
	fprintf(f, "<td class=\"state t\">%s",
		j->state == CMP_UNCOMPARED ? "not compared"
					   : state_class(j->state));
	/* SAME without an MDE: one value in every sample of both sides. */
	if (j->state == CMP_SAME && isnan(j->c.mde_pct))
		fputs(" <span class=\"note\">(one value on both sides)</span>",
		      f);
	else if (j->state == CMP_SAME)
		fprintf(f,
			" <span class=\"note\">(no change larger than "
			"%.2f%%)</span>",
			j->c.mde_pct);
	else if (j->state == CMP_INCONCLUSIVE)
		fprintf(f, " <span class=\"note\">(%s)</span>",
			need_words(j->need));
	fputs("</td>", f);
}

/* A row of label I and figure KEY (ours, never a result's string). */
static void tr_open(FILE *f, size_t i, const char *key, enum cmp_state s)
{
	fprintf(f, "<tr id=\"row-%zu-%s\" class=\"%s\" data-changed=\"%d\">", i,
		key, state_class(s), s == CMP_WORSE || s == CMP_BETTER);
}

/* The cells of a compared row after its values: change to state. */
static void td_judged(FILE *f, const struct cmp_judged *j,
		      enum change_kind kind)
{
	td_change(f, &j->c, kind);
	td_p(f, j->c.p);
	fprintf(f, "<td class=\"t\">%s</td>",
		j->c.test == TEST_NONE ? "-" : cmp_test_name(j->c.test));
	td_state(f, j);
	fputs("</tr>\n", f);
}

/* The same for the baseline's own row: nothing compared. */
static void td_baseline(FILE *f)
{
	fputs("<td>-</td><td>-</td><td>-</td><td>-</td><td>-</td>"
	      "<td class=\"state t\">baseline</td></tr>\n",
	      f);
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

/*
 * A row a compared figure of entry I against the baseline; for a label
 * alone (a run's own page) a row a figure it has, nothing compared.
 */
static void figure_rows(FILE *f, const struct cmp_comparison *c, size_t i)
{
	const struct cmp_label *b = &c->labels[0], *l = &c->labels[i];
	const struct cmp_entry *e = &c->e[i];
	int g;

	for (g = 0; g < FIG_COUNT; g++) {
		const struct cmp_judged *j = &e->fig[g];
		int dec = decimals_of((enum fig)g);

		if (fig_desc[g].change == CHANGE_NONE ||
		    (isnan(b->fig[g].value) && isnan(l->fig[g].value)))
			continue;
		tr_open(f, i, fig_desc[g].key, i ? j->state : CMP_UNCOMPARED);
		fprintf(f, "<td class=\"t\">%s</td>", fig_desc[g].name);
		td_text(f, l->label);
		td_num(f, b->fig[g].value, dec, false, "");
		td_num(f, spread_of(&b->fig[g]), dec, false, "");
		td_num(f, l->fig[g].value, dec, false, "");
		if (i)
			td_judged(f, j, fig_desc[g].change);
		else
			td_baseline(f);
	}
}

static const char *const figure_heads[] = {
	"figure", "label", "baseline", "spread", "mean",  "change",
	"CI",	  "MDE",   "p",	       "test",	 "state",
};

static void thead(FILE *f, const char *const *heads, size_t n, size_t left)
{
	size_t k;

	fputs("<thead><tr>", f);
	for (k = 0; k < n; k++)
		fprintf(f, "<th%s>%s</th>",
			k < left || !strcmp(heads[k], "test") ||
					!strcmp(heads[k], "state")
				? " class=\"t\""
				: "",
			heads[k]);
	fputs("</tr></thead>\n<tbody>\n", f);
}

static void table_figures(FILE *f, const struct cmp_comparison *c)
{
	size_t i;

	fputs("<table id=\"verdict\" class=\"figures\">\n", f);
	thead(f, figure_heads, sizeof(figure_heads) / sizeof(*figure_heads), 2);
	for (i = c->n > 1; i < c->n; i++)
		if (c->labels[0].has_run && c->labels[i].has_run)
			figure_rows(f, c, i);
	fputs("</tbody></table>\n", f);
}

/* High-order allocation success per order: higher is better. */
static void table_high_order(FILE *f, const struct cmp_comparison *c)
{
	static const char *const heads[] = {
		"order",  "label", "attempts", "success%",
		"change", "p",	   "MDE",      "state",
	};
	size_t i, k;

	if (!c->has_ho)
		return;
	fputs("<h2 id=\"high-order\">High-order allocations</h2>\n"
	      "<table id=\"high-order-table\" class=\"figures\">\n",
	      f);
	thead(f, heads, sizeof(heads) / sizeof(*heads), 2);
	for (i = 0; i < c->n; i++) {
		for (k = 0; k < c->labels[i].n_ho; k++) {
			const struct cmp_ho *h = &c->labels[i].ho[k];
			const struct cmp_ho_judged *j = &c->e[i].ho[k];
			char key[32];
			struct cmp_judged s = { .state = j->state,
						.need = j->need };

			s.c.mde_pct = j->c.mde_pp;
			snprintf(key, sizeof(key), "order-%u", h->order);
			tr_open(f, i, key, i ? j->state : CMP_UNCOMPARED);
			fprintf(f, "<td class=\"t\">%u</td>", h->order);
			td_text(f, c->labels[i].label);
			fprintf(f, "<td>%llu</td>",
				(unsigned long long)h->attempts);
			td_num(f, cmp_ho_pct(h), 1, false, "");
			if (!i || !j->c.tested) {
				fputs("<td>-</td><td>-</td><td>-</td>"
				      "<td class=\"state t\">-</td></tr>\n",
				      f);
				continue;
			}
			td_num(f, j->c.diff_pp, 1, true, " pp");
			td_p(f, j->c.p);
			td_num(f, j->c.mde_pp, 1, false, " pp");
			td_state(f, &s);
			fputs("</tr>\n", f);
		}
	}
	fputs("</tbody></table>\n", f);
}

/* seqbench: a rate, higher is better; a row a configuration and label. */
static void table_seqbench(FILE *f, const struct cmp_comparison *c)
{
	static const char *const heads[] = {
		"config", "label", "runs", "MiB/s", "stddev", "change",
		"CI",	  "MDE",   "p",	   "test",  "state",
	};
	size_t i, config = 0;

	if (!c->has_seqbench)
		return;
	fputs("<h2 id=\"seqbench\">seqbench</h2>\n"
	      "<table id=\"seqbench-table\" class=\"figures\">\n",
	      f);
	thead(f, heads, sizeof(heads) / sizeof(*heads), 2);
	for (i = 0; i < c->n_sb_rows; i++) {
		const struct cmp_row_ref *r = &c->sb_rows[i];
		const struct sb_group *g = &c->labels[r->label].sb[r->k];
		const struct cmp_sb_row *row = &c->e[r->label].sb[r->k];
		const struct cmp_judged *j = &c->e[r->label].sb_judged[r->k];
		char ph[SB_PHASE_TEXT], key[32];

		/* Rows of one configuration share its number. */
		if (i && cmp_sb_order(&c->labels[r[-1].label].sb[r[-1].k], g))
			config++;
		snprintf(key, sizeof(key), "sb%zu", config);
		tr_open(f, r->label, key, r->label ? j->state : CMP_UNCOMPARED);
		fprintf(f, "<td class=\"t\">%s %gMiB %gB t%g</td>",
			cmp_sb_phase(g, ph), g->size_mib, g->block_bytes,
			g->threads);
		td_text(f, c->labels[r->label].label);
		fprintf(f, "<td>%zu</td>", g->n);
		td_num(f, row->mean, 2, false, "");
		td_num(f, row->sd, 2, false, "");
		if (r->label)
			td_judged(f, j, CHANGE_PCT);
		else
			td_baseline(f);
	}
	fputs("</tbody></table>\n", f);
}

/* ringbench: the rate higher is better, the times lower. */
static void table_ringbench(FILE *f, const struct cmp_comparison *c)
{
	static const char *const heads[] = {
		"config", "figure", "label", "mean", "stddev", "change",
		"CI",	  "MDE",    "p",     "test", "state",
	};
	size_t i, config = 0;
	int k;

	if (!c->has_ringbench)
		return;
	fputs("<h2 id=\"ringbench\">ringbench</h2>\n"
	      "<table id=\"ringbench-table\" class=\"figures\">\n",
	      f);
	thead(f, heads, sizeof(heads) / sizeof(*heads), 3);
	for (i = 0; i < c->n_rb_rows; i++) {
		const struct cmp_row_ref *r = &c->rb_rows[i];
		const struct rb_group *g = &c->labels[r->label].rb[r->k];
		const struct cmp_rb_row *row = &c->e[r->label].rb[r->k];

		if (i && strcmp(c->labels[r[-1].label].rb[r[-1].k].config,
				g->config))
			config++;
		for (k = 0; k < RBF_COUNT; k++) {
			const struct cmp_judged *j =
				&c->e[r->label].rb_judged[r->k][k];
			char key[48];

			if (isnan(row->mean[k]))
				continue;
			snprintf(key, sizeof(key), "rb%zu-%s", config,
				 rb_fig_name[k]);
			tr_open(f, r->label, key,
				r->label ? j->state : CMP_UNCOMPARED);
			td_text(f, g->config);
			fprintf(f, "<td class=\"t\">%s</td>", rb_fig_name[k]);
			td_text(f, c->labels[r->label].label);
			td_num(f, row->mean[k], 3, false, "");
			td_num(f, row->sd[k], 3, false, "");
			if (r->label)
				td_judged(f, j, CHANGE_PCT);
			else
				td_baseline(f);
		}
	}
	fputs("</tbody></table>\n", f);
}

static void put_notes(FILE *f, const struct cmp_notes *no, const char *open,
		      const char *close)
{
	size_t k;

	for (k = 0; k < no->n; k++) {
		fputs(open, f);
		cmp_html_write(f, no->line[k]);
		fputs(close, f);
	}
}

/* The verdict of each label against the baseline, its notes under it. */
static void verdicts(FILE *f, const struct cmp_comparison *c)
{
	size_t i;

	fputs("<h2 id=\"verdicts\">Verdict</h2>\n<ul id=\"verdict-list\">\n",
	      f);
	if (c->n < 2)
		fputs("<li>one label: nothing to compare, its figures "
		      "below</li>\n",
		      f);
	else if (!c->has_run)
		fputs("<li>no run-test.sh result to judge: each row below is "
		      "judged on its own</li>\n",
		      f);
	for (i = 1; i < c->n; i++) {
		const struct cmp_entry *e = &c->e[i];

		if (!e->judged)
			continue;
		fprintf(f, "<li class=\"%s\">",
			state_class(e->fig[e->lead].state));
		cmp_html_write(f, e->verdict);
		if (e->notes.n) {
			fputs("<ul>", f);
			put_notes(f, &e->notes, "<li class=\"note\">", "</li>");
			fputs("</ul>", f);
		}
		fputs("</li>\n", f);
	}
	fputs("</ul>\n", f);
	if (c->spread_note) {
		fputs("<p class=\"note\">", f);
		cmp_html_write(f, c->spread_note);
		fputs("</p>\n", f);
	}
	put_notes(f, &c->notes, "<p class=\"note\">", "</p>\n");
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

static void provenance(FILE *f, const struct cmp_comparison *c,
		       const struct run_info *ri)
{
	const struct cmp_options *o = c->o;
	char cmd[4096], when[64];

	format_command_line(cmd, sizeof(cmd), ri->argc, ri->argv);
	format_iso8601(when, sizeof(when), ri->start_real_ns);
	fputs("<h2 id=\"provenance\">What was compared</h2>\n", f);
	provenance_labels(f, c->labels, c->n);
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
static void headline(FILE *f, const struct cmp_comparison *c,
		     const struct run_info *ri)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		xalloc_die();
	/* Escaped for a terminal already: only HTML's characters remain. */
	cmp_report(m, CMP_2009, c, ri);
	if (fclose(m))
		xalloc_die();
	if (len) {
		fputs("<pre id=\"headline\">", f);
		html_chars(f, buf);
		fputs("</pre>\n", f);
	}
	free(buf);
}

void cmp_report_html(FILE *f, const struct cmp_comparison *c,
		     const struct run_info *ri)
{
	page_head(f, c->labels, c->n);
	headline(f, c, ri);
	provenance(f, c, ri);
	verdicts(f, c);
	fputs("<h2 id=\"figures\">Figures</h2>\n"
	      "<p><label><input type=\"checkbox\" id=\"changed-only\"> "
	      "changed rows only</label> <span class=\"note\">(worse or "
	      "better: significant at alpha, the figures besides the lead "
	      "after Holm's correction; same: the interval lies within the "
	      "MDE; a click on a heading sorts)</span></p>\n",
	      f);
	if (c->has_run)
		table_figures(f, c);
	table_high_order(f, c);
	table_seqbench(f, c);
	table_ringbench(f, c);
	cmp_html_plots(f, c);
	fprintf(f, "<script>\n%s</script>\n</body>\n</html>\n", page_script);
}
