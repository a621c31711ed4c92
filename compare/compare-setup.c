// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Where each result ran, and where two results differ in it: on the
 * machine or in a latency-vm guest (result.json "vm": the accelerator, the
 * memory and CPUs given to QEMU, QEMU's version, its disk cache), on which
 * device stack ("device", else the guest's plain disks) and with which
 * kernel command line (sysinfo/before/cmdline, else "vm.cmdline").  A KVM
 * result beside a TCG one, a 512M guest beside a 1G one, a crypted LVM
 * beside a plain disk measure different machines: the comparison is made
 * and the difference said beside it, between the labels and between the
 * results of one label.  The kernel release is what labels differ in, and
 * a command-line parameter a label names is what that label is about:
 * neither is a difference of setup.  Everything here comes from the
 * results: a member of another type than expected is left out, strings
 * are cut at SYSINFO_MAX_BYTES, and the writers escape them.
 */
#include <config.h>

#include <ctype.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/err.h"
#include "lib/json-read.h"
#include "lib/output.h"
#include "lib/xalloc.h"
#include "compare/compare.h"

enum sf_kind { SF_STR, SF_NUM };

/* The fields compared, in the order they are said. */
enum sf {
	F_MACHINE,
	F_ACCEL,
	F_MEMORY,
	F_CPUS,
	F_QEMU,
	F_DISK_CACHE,
	F_STACK,
	F_CIPHER,
	F_FS,
	F_CMDLINE,
	N_FIELDS
};

#define SF(f, key, text, kind, member)                                         \
	[f] = { key, text, kind, offsetof(struct cmp_setup, member) }

static const struct {
	const char *key;  /* in JSON */
	const char *text; /* in the notes */
	enum sf_kind kind;
	size_t offset; /* of the char * or double in struct cmp_setup */
} fields[N_FIELDS] = {
	SF(F_MACHINE, "machine", "machine", SF_STR, machine),
	SF(F_ACCEL, "accel", "accel", SF_STR, accel),
	SF(F_MEMORY, "memory_bytes", "memory", SF_NUM, memory_bytes),
	SF(F_CPUS, "cpus", "cpus", SF_NUM, cpus),
	SF(F_QEMU, "qemu_version", "QEMU", SF_STR, qemu_version),
	SF(F_DISK_CACHE, "disk_cache", "disk cache", SF_STR, disk_cache),
	SF(F_STACK, "device_stack", "device stack", SF_STR, stack),
	SF(F_CIPHER, "device_cipher", "cipher", SF_STR, cipher),
	SF(F_FS, "device_fs", "scratch fs", SF_STR, fs),
	SF(F_CMDLINE, "cmdline", "kernel command line", SF_STR, cmdline),
};

/*
 * Command-line parameters that say where the kernel and its root file
 * system are, not how the kernel runs: two machines boot from different
 * places.
 */
static const char *const boot_params[] = { "BOOT_IMAGE", "initrd", "root", "ro",
					   "rw" };

char *cmp_sysinfo_line(const char *json_file, const char *name)
{
	const char *slash;
	char *path, *buf, *nl;
	size_t len;
	int ret, dir;

	if (!json_file)
		return NULL;
	slash = strrchr(json_file, '/');
	dir = slash ? (int)(slash - json_file) + 1 : 0;
	path = xasprintf("%.*ssysinfo/before/%s", dir, json_file, name);
	ret = json_read_load(path, SYSINFO_MAX_BYTES, &buf, &len);
	free(path);
	if (ret)
		return NULL;
	/* The line ends at a NUL or a newline. */
	nl = strchr(buf, '\n');
	if (nl)
		*nl = '\0';
	if (!*buf) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* The string at PATH of N, cut at SYSINFO_MAX_BYTES; NULL if none. */
static char *str_at(const struct json_node *n, const char *path)
{
	const char *s = n ? json_read_string(n, path) : NULL;

	return s && *s ? xasprintf("%.*s", SYSINFO_MAX_BYTES, s) : NULL;
}

/* The number at PATH of N, NaN unless a finite one of 0 or more. */
static double num_at(const struct json_node *n, const char *path)
{
	double v;

	if (!n || json_read_number(n, path, &v) || !isfinite(v) || v < 0)
		return NAN;
	return v;
}

void cmp_setup_load(struct cmp_setup *s, const char *file,
		    const struct json_node *root)
{
	const struct json_node *vm = json_read_member(root, "vm");
	const struct json_node *dev = json_read_member(root, "device");

	if (vm && vm->type != JSON_OBJECT)
		vm = NULL;
	if (dev && dev->type != JSON_OBJECT)
		dev = NULL;
	memset(s, 0, sizeof(*s));
	s->known = true;
	s->machine = xstrdup(vm ? "vm" : "host");
	s->accel = str_at(vm, "accel");
	s->memory_bytes = num_at(vm, "memory_bytes");
	s->cpus = num_at(vm, "cpus");
	s->qemu_version = str_at(vm, "qemu_version");
	s->disk_cache = str_at(vm, "disk_cache");
	/* A guest's plain disks have no device.json: its vm says so. */
	s->stack = dev ? str_at(dev, "stack") : str_at(vm, "device");
	s->cipher = str_at(dev, "cipher");
	s->fs = str_at(dev, "fs");
	s->cmdline = cmp_sysinfo_line(file, "cmdline");
	if (!s->cmdline)
		s->cmdline = str_at(vm, "cmdline");
}

void cmp_setup_release(struct cmp_setup *s)
{
	size_t i;

	for (i = 0; i < N_FIELDS; i++)
		if (fields[i].kind == SF_STR)
			free(*(char **)((char *)s + fields[i].offset));
}

static const char *str_of(const struct cmp_setup *s, size_t f)
{
	return *(char *const *)((const char *)s + fields[f].offset);
}

static double num_of(const struct cmp_setup *s, size_t f)
{
	return *(const double *)((const char *)s + fields[f].offset);
}

/* Word W of a command line (up to a blank) and its length. */
static size_t word_len(const char *w)
{
	return strcspn(w, " \t");
}

static bool is_boot_param(const char *w, size_t len)
{
	size_t i, name = strcspn(w, "=");

	if (name > len)
		name = len;
	for (i = 0; i < sizeof(boot_params) / sizeof(boot_params[0]); i++)
		if (strlen(boot_params[i]) == name &&
		    !strncmp(w, boot_params[i], name))
			return true;
	return false;
}

/* Does LABEL hold S[0..LEN) (at least 3 bytes), ignoring case? */
static bool label_holds(const char *label, const char *s, size_t len)
{
	size_t i, n = strlen(label);

	if (len < 3 || len > n)
		return false;
	for (i = 0; i + len <= n; i++)
		if (!strncasecmp(label + i, s, len))
			return true;
	return false;
}

/*
 * Is word W (LEN bytes) what one of the labels A and B is about: does
 * either hold its name, the name's part before a '.' (a module's), or its
 * value?  "zswap.enabled=1" is what a label "zswap" is about.
 */
static bool label_about(const char *a, const char *b, const char *w, size_t len)
{
	const char *parts[3];
	size_t plen[3], i, name = strcspn(w, "=");

	if (name > len)
		name = len;
	parts[0] = w;
	plen[0] = name;
	parts[1] = w;
	plen[1] = strcspn(w, ".");
	if (plen[1] > name)
		plen[1] = 0;
	parts[2] = w + name + 1;
	plen[2] = name < len ? len - name - 1 : 0;
	for (i = 0; i < 3; i++)
		if ((a && label_holds(a, parts[i], plen[i])) ||
		    (b && label_holds(b, parts[i], plen[i])))
			return true;
	return false;
}

/* How often word W (LEN bytes) starts in command line C before END. */
static size_t word_count(const char *c, const char *end, const char *w,
			 size_t len)
{
	size_t n = 0, l;

	for (c += strspn(c, " \t"); *c && c < end;
	     c += l, c += strspn(c, " \t")) {
		l = word_len(c);
		n += l == len && !strncmp(c, w, len);
	}
	return n;
}

/*
 * The words of command line A that B lacks (the K-th of a word when B has
 * it fewer than K times), each as PREFIX and the word to F, after a blank
 * when *N words came before; words that tell where the kernel boots from
 * are left out, and so, between labels LA and LB, are the words the labels
 * are about.  Adds to *N how many.
 */
static void words_lacking(FILE *f, const char *a, const char *b, const char *la,
			  const char *lb, char prefix, size_t *n)
{
	const char *w;
	size_t l;

	for (w = a + strspn(a, " \t"); *w; w += l, w += strspn(w, " \t")) {
		l = word_len(w);
		if (is_boot_param(w, l) || (la && label_about(la, lb, w, l)))
			continue;
		if (word_count(b, b + strlen(b), w, l) > word_count(a, w, w, l))
			continue;
		fprintf(f, "%s%c%.*s", *n ? " " : "", prefix, (int)l, w);
		++*n;
	}
}

/*
 * The words command lines A and B differ in, "-WORD" for A's, "+WORD" for
 * B's, as a new string, or NULL when none is left (see words_lacking();
 * LA and LB are NULL within a label).
 */
static char *cmdline_diff(const char *a, const char *b, const char *la,
			  const char *lb)
{
	char *buf = NULL;
	size_t len = 0, n = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		xalloc_die();
	words_lacking(f, a, b, la, lb, '-', &n);
	words_lacking(f, b, a, la, lb, '+', &n);
	if (fclose(f))
		xalloc_die();
	if (!n) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* The result of L whose setup is known first, or NULL. */
static const struct cmp_result *first_known(const struct cmp_label *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (l->r[i]->setup.known)
			return l->r[i];
	return NULL;
}

/*
 * Do A and B (labels LA, LB; NULL within a label) differ in field F?
 * Only a field both know is compared.  The words of a command line that
 * differ go to *WORDS (a new string).
 */
static bool differs(const struct cmp_setup *a, const struct cmp_setup *b,
		    size_t f, const char *la, const char *lb, char **words)
{
	*words = NULL;
	if (fields[f].kind == SF_NUM)
		return !isnan(num_of(a, f)) && !isnan(num_of(b, f)) &&
		       num_of(a, f) != num_of(b, f);
	if (!str_of(a, f) || !str_of(b, f))
		return false;
	if (f == F_CMDLINE) {
		*words = cmdline_diff(str_of(a, f), str_of(b, f), la, lb);
		return *words != NULL;
	}
	return strcmp(str_of(a, f), str_of(b, f)) != 0;
}

/*
 * Call FN for field F of results A and B (of labels LA and LB) if they
 * differ; returns 1 if they do.
 */
static size_t each_field(const struct cmp_label *la, const struct cmp_label *lb,
			 const struct cmp_result *a, const struct cmp_result *b,
			 size_t f, cmp_setup_fn *fn, void *ctx)
{
	struct cmp_setup_diff d = { (int)f, fields[f].key, la, lb, a, b, NULL };
	bool within = la == lb;

	if (!differs(&a->setup, &b->setup, f, within ? NULL : la->label,
		     within ? NULL : lb->label, &d.words))
		return 0;
	fn(ctx, &d);
	free(d.words);
	return 1;
}

size_t cmp_setup_each(const struct cmp_label *base, const struct cmp_label *l,
		      cmp_setup_fn *fn, void *ctx)
{
	const struct cmp_result *ra = first_known(base), *rl = first_known(l);
	size_t f, i, n = 0, one;

	if (!rl)
		return 0;
	for (f = 0; f < N_FIELDS && base != l && ra; f++)
		n += each_field(base, l, ra, rl, f, fn, ctx);
	/* Within L, each field once: the first result unlike the first. */
	for (f = 0; f < N_FIELDS; f++) {
		for (i = 0, one = 0; i < l->n && !one; i++)
			if (l->r[i] != rl && l->r[i]->setup.known)
				one = each_field(l, l, rl, l->r[i], f, fn, ctx);
		n += one;
	}
	return n;
}

/* VALUE of field F of S as the notes say it, into BUF. */
static const char *value_text(char *buf, size_t len, const struct cmp_setup *s,
			      size_t f)
{
	double v;

	if (fields[f].kind == SF_STR) {
		snprintf(buf, len, "%s", str_of(s, f));
		return buf;
	}
	v = num_of(s, f);
	if (f == F_MEMORY && fmod(v, 1048576) == 0)
		snprintf(buf, len, "%.0f MiB", v / 1048576);
	else
		snprintf(buf, len, "%.15g%s", v, f == F_MEMORY ? " bytes" : "");
	return buf;
}

/* Where S ran: a latency-vm guest, or (no "vm") not under latency-vm. */
static const char *where(const struct cmp_setup *s)
{
	return strcmp(s->machine, "vm") ? "outside latency-vm"
					: "in a latency-vm guest";
}

const char *cmp_result_name(const struct cmp_result *r)
{
	return r->run_label ? r->run_label : r->path;
}

/*
 * The words of WORDS with PREFIX ('-' or '+'), without it, to F when F
 * is not NULL; whether there is any.
 */
static bool words_with(FILE *f, const char *words, char prefix)
{
	const char *w;
	size_t len;
	bool any = false;

	for (w = words; *w; w += len + (w[len] == ' ')) {
		len = strcspn(w, " ");
		if (*w != prefix)
			continue;
		if (f)
			fprintf(f, "%s%.*s", any ? " " : "", (int)len - 1,
				w + 1);
		any = true;
	}
	return any;
}

/* "HEAD: kernel command line: only A has X; only B has Y". */
static char *cmdline_text(const char *head, const char *a, const char *b,
			  const char *words)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	bool minus = words_with(NULL, words, '-');

	if (!f)
		xalloc_die();
	fprintf(f, "%s: kernel command line: ", head);
	if (minus) {
		fprintf(f, "only %s has ", a);
		words_with(f, words, '-');
	}
	if (words_with(NULL, words, '+')) {
		fprintf(f, "%sonly %s has ", minus ? "; " : "", b);
		words_with(f, words, '+');
	}
	if (fclose(f))
		xalloc_die();
	return buf;
}

char *cmp_setup_text(const struct cmp_setup_diff *d)
{
	const char *a, *b;
	char va[SYSINFO_MAX_BYTES + 16], vb[SYSINFO_MAX_BYTES + 16];
	char *head, *s;

	if (d->la == d->lb) {
		head = xasprintf("setup differs within %s", d->la->label);
		a = cmp_result_name(d->a);
		b = cmp_result_name(d->b);
	} else {
		head = xstrdup("setup differs");
		a = d->la->label;
		b = d->lb->label;
	}
	if (d->field == F_CMDLINE)
		s = cmdline_text(head, a, b, d->words);
	else if (d->field == F_MACHINE)
		s = xasprintf("%s: %s ran %s, %s %s", head, a,
			      where(&d->a->setup), b, where(&d->b->setup));
	else
		s = xasprintf(
			"%s: %s ran with %s %s, %s with %s", head, a,
			fields[d->field].text,
			value_text(va, sizeof(va), &d->a->setup, d->field), b,
			value_text(vb, sizeof(vb), &d->b->setup, d->field));
	free(head);
	return s;
}

static void json_value(struct json *j, const struct cmp_setup *s, size_t f)
{
	if (fields[f].kind == SF_NUM)
		json_double(j, NULL, num_of(s, f));
	else
		json_str(j, NULL, str_of(s, f));
}

static void json_diff(struct json *j, const struct cmp_setup_diff *d)
{
	const char *w;
	char *word;
	size_t len;

	json_object_begin(j, NULL);
	json_str(j, "field", d->key);
	json_str(j, "between", d->la == d->lb ? "results" : "labels");
	json_array_begin(j, "paths");
	json_str(j, NULL, d->a->path);
	json_str(j, NULL, d->b->path);
	json_array_end(j);
	json_array_begin(j, "values");
	json_value(j, &d->a->setup, d->field);
	json_value(j, &d->b->setup, d->field);
	json_array_end(j);
	if (d->words) {
		json_array_begin(j, "words");
		for (w = d->words; *w; w += len + (w[len] == ' ')) {
			len = strcspn(w, " ");
			word = xasprintf("%.*s", (int)len, w);
			json_str(j, NULL, word);
			free(word);
		}
		json_array_end(j);
	}
	json_object_end(j);
}

void cmp_setup_json(struct json *j, const struct cmp_setup_diffs *d)
{
	size_t i;

	json_array_begin(j, "setup_differs");
	for (i = 0; i < d->n; i++)
		json_diff(j, &d->d[i]);
	json_array_end(j);
}

static void warn_diff(void *ctx, const struct cmp_setup_diff *d)
{
	char *s = cmp_setup_text(d), *e = text_escape(s);

	(void)ctx;
	warn("%s", e);
	free(e);
	free(s);
}

size_t cmp_setup_warn(const struct cmp_label *l, size_t n)
{
	size_t i, warned = 0;

	for (i = 0; i < n; i++)
		warned += cmp_setup_each(&l[0], &l[i], warn_diff, NULL);
	return warned;
}
