// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for lib/output: JSON, CSV, command lines, atomic files, and
 * the escaping that keeps strings from input files inert on a terminal, in
 * Markdown, CSV and JSON.
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/json-read.h"
#include "lib/output.h"
#include "lib/xalloc.h"
#include "tests/tap.h"

static char *buf;
static size_t len;

static FILE *mem(void)
{
	free(buf);
	buf = NULL;
	len = 0;
	return open_memstream(&buf, &len);
}

static void json(void)
{
	struct json j;
	FILE *f = mem();

	json_init(&j, f, false);
	json_object_begin(&j, NULL);
	json_str(&j, "s", "a\"b\\c\nd\te\x01");
	json_u64(&j, "u", 18446744073709551615ULL);
	json_i64(&j, "i", -5);
	json_double(&j, "d", 0.25);
	json_double(&j, "nan", NAN);
	json_bool(&j, "b", true);
	json_null(&j, "n");
	json_ns_as_s(&j, "t", 1500000);
	json_array_begin(&j, "a");
	json_u64(&j, NULL, 1);
	json_object_begin(&j, NULL);
	json_str(&j, "k", "v");
	json_object_end(&j);
	json_array_begin(&j, NULL);
	json_array_end(&j);
	json_array_end(&j);
	json_object_begin(&j, "empty");
	json_object_end(&j);
	json_object_end(&j);
	json_finish(&j);
	fclose(f);
	is_str(buf,
	       "{\"s\":\"a\\\"b\\\\c\\nd\\te\\u0001\",\"u\":"
	       "18446744073709551615,"
	       "\"i\":-5,\"d\":0.25,\"nan\":null,\"b\":true,\"n\":null,"
	       "\"t\":0.001500000,\"a\":[1,{\"k\":\"v\"},[]],\"empty\":{}}\n",
	       "compact JSON, escaped, nested");

	f = mem();
	json_init(&j, f, true);
	json_object_begin(&j, NULL);
	json_u64(&j, "a", 1);
	json_array_begin(&j, "l");
	json_u64(&j, NULL, 2);
	json_array_end(&j);
	json_object_end(&j);
	json_finish(&j);
	fclose(f);
	is_str(buf, "{\n  \"a\": 1,\n  \"l\": [\n    2\n  ]\n}\n",
	       "pretty JSON");
}

static void header(void)
{
	char *argv[] = { "prog", "-t", "8", "it's", "a b", NULL };
	struct run_info ri;
	struct json j;
	FILE *f;

	run_info_init(&ri, "prog", 5, argv);
	ri.has_seed = true;
	ri.seed = 137;
	f = mem();
	json_init(&j, f, false);
	json_object_begin(&j, NULL);
	json_run_header(&j, &ri);
	json_object_end(&j);
	fclose(f);
	ok(strstr(buf,
		  "\"format_version\":1,\"program\":\"prog\",\"version\":\"") ==
		   buf + 1,
	   "header starts with format_version, program, version");
	ok(strstr(buf, "\"command_line\":\"prog -t 8 'it'\\\\''s' 'a b'\"") !=
		   NULL,
	   "command line shell-quoted");
	ok(strstr(buf, "\"argv\":[\"prog\",\"-t\",\"8\",\"it's\",\"a b\"]") !=
		   NULL,
	   "argv list");
	ok(strstr(buf, "\"seed\":137") != NULL, "seed recorded");
	ok(strstr(buf, "\"kernel\":\"") && strstr(buf, "\"start_time\":\"20"),
	   "kernel and start time recorded");
}

static void misc(void)
{
	char b[64];
	FILE *f;

	format_iso8601(b, sizeof(b), 1764678024123456789ULL);
	is_str(b, "2025-12-02T12:20:24.123Z", "ISO 8601 UTC with ms");
	f = mem();
	csv_field(f, "plain", ',');
	csv_field(f, "a,b", ',');
	csv_field(f, "say \"hi\"", '\n');
	fclose(f);
	is_str(buf, "plain,\"a,b\",\"say \"\"hi\"\"\"\n", "CSV quoting");
}

/* One hostile string through every writer, exactly. */
static void escaping(void)
{
	static const struct {
		const char *in, *text, *md, *csv, *json;
	} cases[] = {
		{ "plain 6.1-rc2", "plain 6.1-rc2", "plain 6.1-rc2",
		  "plain 6.1-rc2", "\"plain 6.1-rc2\"" },
		{ "a\nb\x1b[31mc|d\"e", "a\\nb\\x1b[31mc|d\"e",
		  "a\\\\nb\\\\x1b\\[31mc\\|d\"e", "\"a\\nb\\x1b[31mc|d\"\"e\"",
		  "\"a\\nb\\u001b[31mc|d\\\"e\"" },
		{ "back\\slash\ttab\r", "back\\\\slash\\ttab\\r",
		  "back\\\\\\\\slash\\\\ttab\\\\r", "back\\\\slash\\ttab\\r",
		  "\"back\\\\slash\\ttab\\r\"" },
		/* A spreadsheet would run these as formulas. */
		{ "=1+2", "=1+2", "=1+2", "\"'=1+2\"", "\"=1+2\"" },
		{ "-rc1,x", "-rc1,x", "-rc1,x", "\"'-rc1,x\"", "\"-rc1,x\"" },
		{ "@SUM(A1)", "@SUM(A1)", "@SUM(A1)", "\"'@SUM(A1)\"",
		  "\"@SUM(A1)\"" },
		/* Markdown and inline HTML. */
		{ "<img src=x>`*_[~&", "<img src=x>`*_[~&",
		  "\\<img src=x\\>\\`\\*\\_\\[\\~\\&", "<img src=x>`*_[~&",
		  "\"<img src=x>`*_[~&\"" },
		/* UTF-8: kept; DEL, C1 CSI, bidi override and bad bytes not. */
		{ "caf\xc3\xa9 \x7f\xc2\x9b\xe2\x80\xae\xff\xc3",
		  "caf\xc3\xa9 \\x7f\\u009b\\u202e\\xff\\xc3",
		  "caf\xc3\xa9 \\\\x7f\\\\u009b\\\\u202e\\\\xff\\\\xc3",
		  "caf\xc3\xa9 \\x7f\\u009b\\u202e\\xff\\xc3",
		  "\"caf\xc3\xa9 \\u007f\\u009b\\u202e\\ufffd\\ufffd\"" },
		/* Overlong '/', a surrogate, beyond U+10FFFF. */
		{ "\xc0\xaf\xed\xa0\x80\xf4\x90\x80\x80",
		  "\\xc0\\xaf\\xed\\xa0\\x80\\xf4\\x90\\x80\\x80", NULL, NULL,
		  "\"\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\"
		  "ufffd\"" },
		/* A 4-byte character is fine. */
		{ "\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80", NULL, NULL,
		  "\"\xf0\x9f\x98\x80\"" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *e = text_escape(cases[i].in);
		FILE *f;

		is_str(e, cases[i].text, "text_escape, case %zu", i);
		free(e);
		f = mem();
		text_write(f, cases[i].in);
		fclose(f);
		is_str(buf, cases[i].text, "text_write, case %zu", i);
		if (cases[i].md) {
			f = mem();
			md_cell_write(f, cases[i].in);
			fclose(f);
			is_str(buf, cases[i].md, "md_cell_write, case %zu", i);
		}
		if (cases[i].csv) {
			f = mem();
			csv_field(f, cases[i].in, ';');
			fclose(f);
			e = xasprintf("%s;", cases[i].csv);
			is_str(buf, e, "csv_field, case %zu", i);
			free(e);
		}
		f = mem();
		json_write_string(f, cases[i].in);
		fclose(f);
		is_str(buf, cases[i].json, "json_write_string, case %zu", i);
	}
}

static void atomic(void)
{
	char dir[] = "/tmp/test-output.XXXXXX", path[128], cmd[160];
	struct atomic_file af;
	struct stat st;
	FILE *f;

	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp");
		return;
	}
	snprintf(path, sizeof(path), "%s/result.json", dir);
	is_int(atomic_open(&af, path), 0, "atomic_open");
	fputs("partial", af.f);
	fflush(af.f);
	ok(stat(path, &st) != 0, "target absent before commit");
	is_int(atomic_commit(&af), 0, "atomic_commit");
	f = fopen(path, "r");
	ok(f && fgets(cmd, sizeof(cmd), f) && !strcmp(cmd, "partial"),
	   "content in place after commit");
	if (f)
		fclose(f);
	ok(stat(path, &st) == 0 && (st.st_mode & 0777) == 0644,
	   "result readable by others (0644)");

	is_int(atomic_open(&af, path), 0, "second atomic_open");
	fputs("torn", af.f);
	atomic_abort(&af);
	f = fopen(path, "r");
	ok(f && fgets(cmd, sizeof(cmd), f) && !strcmp(cmd, "partial"),
	   "abort leaves the old content");
	if (f)
		fclose(f);
	snprintf(path, sizeof(path), "%s/no/such/dir/x", dir);
	is_int(atomic_open(&af, path), -ENOENT, "missing directory -> -ENOENT");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	is_int(system(cmd), 0, "cleanup");
}

/* Names in DIR that start with PREFIX (temporary siblings left behind). */
static int count_prefixed(const char *dir, const char *prefix)
{
	struct dirent *d;
	DIR *dp = opendir(dir);
	int n = 0;

	if (!dp)
		return -1;
	while ((d = readdir(dp)))
		n += !strncmp(d->d_name, prefix, strlen(prefix));
	closedir(dp);
	return n;
}

/* A FIFO, /dev/null and a descriptor's name are written straight. */
static void atomic_straight(void)
{
	char dir[] = "/tmp/test-output.XXXXXX", path[128], got[64];
	struct atomic_file af;
	struct stat st;
	ssize_t n;
	int rd, fd;

	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp");
		return;
	}
	snprintf(path, sizeof(path), "%s/fifo", dir);
	ok(!mkfifo(path, 0600), "mkfifo");
	/* A reader first, so that opening for writing does not block. */
	rd = open(path, O_RDONLY | O_NONBLOCK);
	ok(rd >= 0, "FIFO open for reading");
	is_int(atomic_open(&af, path), 0, "atomic_open of a FIFO");
	ok(af.tmp == NULL, "a FIFO gets no temporary file");
	fputs("through the pipe", af.f);
	is_int(atomic_commit(&af), 0, "atomic_commit of a FIFO");
	n = read(rd, got, sizeof(got) - 1);
	got[n > 0 ? n : 0] = '\0';
	is_str(got, "through the pipe", "the reader got the bytes");
	ok(!lstat(path, &st) && S_ISFIFO(st.st_mode), "still a FIFO");
	is_int(count_prefixed(dir, "fifo.tmp."), 0, "no temporary beside it");
	close(rd);

	if (stat("/dev/null", &st) || !S_ISCHR(st.st_mode)) {
		/* Someone replaced it; the cases below would test that. */
		ok(1, "# SKIP /dev/null is not a character device here");
		goto descriptor;
	}
	is_int(atomic_open(&af, "/dev/null"), 0, "atomic_open of /dev/null");
	ok(af.tmp == NULL, "/dev/null gets no temporary file");
	fputs("discarded", af.f);
	is_int(atomic_commit(&af), 0, "atomic_commit of /dev/null");
	ok(!stat("/dev/null", &st) && S_ISCHR(st.st_mode),
	   "/dev/null is still a character device");
	is_int(count_prefixed("/dev", "null.tmp."), 0,
	       "no temporary file in /dev");
	is_int(atomic_open(&af, "/dev/null"), 0, "atomic_open again");
	atomic_abort(&af);
	ok(af.f == NULL && af.path == NULL, "abort of a straight file");

	/* A regular file named by its descriptor: appended where it stands. */
descriptor:
	snprintf(path, sizeof(path), "%s/out", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0600);
	ok(fd >= 0 && write(fd, "head ", 5) == 5, "descriptor file");
	snprintf(got, sizeof(got), "/proc/self/fd/%d", fd);
	is_int(atomic_open(&af, got), 0, "atomic_open of /proc/self/fd/N");
	fputs("tail", af.f);
	is_int(atomic_commit(&af), 0, "atomic_commit of /proc/self/fd/N");
	close(fd);
	fd = open(path, O_RDONLY);
	n = fd >= 0 ? read(fd, got, sizeof(got) - 1) : -1;
	got[n > 0 ? n : 0] = '\0';
	is_str(got, "head tail", "written through the descriptor, appended");
	if (fd >= 0)
		close(fd);
	is_int(count_prefixed(dir, ""), 4, "nothing else in the directory");
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	is_int(system(path), 0, "cleanup");
}

/* stream_open: created, truncated, straight where it must be, no links. */
static void stream(void)
{
	char dir[] = "/tmp/test-output.XXXXXX", path[128], link[128], got[64];
	struct stat st;
	ssize_t n;
	int fd;

	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp");
		return;
	}
	snprintf(path, sizeof(path), "%s/kern.log", dir);
	fd = stream_open(path, 0600);
	ok(fd >= 0 && write(fd, "one line\n", 9) == 9, "a new stream");
	ok(!fstat(fd, &st) && (st.st_mode & 0777) == 0600 &&
		   (fcntl(fd, F_GETFD) & FD_CLOEXEC),
	   "created with its mode, close-on-exec");
	close(fd);
	fd = stream_open(path, 0600);
	ok(fd >= 0 && !fstat(fd, &st) && st.st_size == 0,
	   "an existing one is truncated");
	close(fd);
	/* A link planted where the stream goes: refused, its target intact. */
	snprintf(link, sizeof(link), "%s/planted", dir);
	ok(!symlink(path, link), "symlink");
	fd = open(path, O_WRONLY);
	ok(fd >= 0 && write(fd, "keep", 4) == 4, "the target holds data");
	close(fd);
	is_int(stream_open(link, 0600), -ELOOP, "a link is refused");
	fd = open(path, O_RDONLY);
	n = fd >= 0 ? read(fd, got, sizeof(got) - 1) : -1;
	got[n > 0 ? n : 0] = '\0';
	is_str(got, "keep", "and what it points to is untouched");
	if (fd >= 0)
		close(fd);
	fd = stream_open("/dev/null", 0600);
	ok(fd >= 0 && !fstat(fd, &st) && S_ISCHR(st.st_mode),
	   "/dev/null is written straight");
	if (fd >= 0)
		close(fd);
	fd = stream_open("/dev/stdout", 0600);
	ok(fd > STDERR_FILENO, "/dev/stdout: a copy of descriptor 1");
	if (fd >= 0)
		close(fd);
	snprintf(path, sizeof(path), "%s/no/such/dir", dir);
	is_int(stream_open(path, 0600), -ENOENT, "a missing directory");
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	is_int(system(path), 0, "cleanup");
}

/* json_copy: parsed JSON written again, exactly. */
static void copy(void)
{
	static const char doc[] =
		"{\"n\":1.50e2,\"big\":18446744073709551615,\"s\":"
		"\"a\\u0000b\\n\","
		"\"a\":[true,false,null,{}],\"o\":{\"k\":[]}}";
	struct json_node *root, *deep;
	const struct json_node *n;
	char nested[200];
	struct json j;
	FILE *f;
	int i;

	if (json_read_parse(doc, strlen(doc), &root, NULL)) {
		ok(0, "parse the document to copy");
		return;
	}
	f = mem();
	json_init(&j, f, false);
	is_int(json_copy(&j, NULL, root), 0, "copy");
	json_finish(&j);
	fclose(f);
	is_str(buf,
	       "{\"n\":1.50e2,\"big\":18446744073709551615,"
	       "\"s\":\"a\\u0000b\\n\",\"a\":[true,false,null,{}],"
	       "\"o\":{\"k\":[]}}\n",
	       "numbers as written, NUL kept, structure kept");
	json_read_free(root);

	/* 40 nested arrays: deeper than the writer's JSON_MAX_DEPTH. */
	for (i = 0; i < 40; i++) {
		nested[i] = '[';
		nested[40 + i] = ']';
	}
	nested[80] = '\0';
	if (json_read_parse(nested, 80, &deep, NULL)) {
		ok(0, "parse the nested document");
		return;
	}
	f = mem();
	json_init(&j, f, false);
	json_object_begin(&j, NULL);
	is_int(json_copy(&j, "deep", deep), -E2BIG, "too deep: -E2BIG");
	is_int(json_copy(&j, "none", NULL), 0, "NULL: null");
	/* Inside the object (depth 1): 30 more levels fit, 31 do not. */
	for (n = deep, i = 0; i < 9; i++)
		n = &n->items[0];
	is_int(json_copy(&j, "no", n), -E2BIG, "1 + 31 levels refused");
	is_int(json_copy(&j, "yes", &n->items[0]), 0, "1 + 30 levels copied");
	json_object_end(&j);
	json_finish(&j);
	fclose(f);
	ok(!strncmp(buf,
		    "{\"deep\":null,\"none\":null,\"no\":null,"
		    "\"yes\":[[[",
		    44),
	   "null in place of what cannot be copied");
	is_int((int)strlen(buf), 41 + 30 + 30 + 2, "30 levels written whole");
	json_read_free(deep);

	f = mem();
	json_write_string_len(f, "x\0y\"", 4);
	fclose(f);
	is_str(buf, "\"x\\u0000y\\\"\"", "json_write_string_len");
}

static void escape(void)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "plain label 6.1.0", "plain label 6.1.0" },
		{ "a\nb\tc\rd", "a\\nb\\tc\\rd" },
		{ "back\\slash", "back\\\\slash" },
		{ "\x1b[31mred\x1b[0m", "\\x1b[31mred\\x1b[0m" },
		{ "del\x7f", "del\\x7f" },
		{ "csi\xc2\x9b"
		  "2J",
		  "csi\\u009b2J" },
		{ "bad\xff\xc3", "bad\\xff\\xc3" },
		{ "caf\xc3\xa9 \xe2\x82\xac", "caf\xc3\xa9 \xe2\x82\xac" },
		{ "", "" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *e = text_escape(cases[i].in);

		is_str(e, cases[i].out, "text_escape case %zu", i);
		free(e);
	}
}

/* summary.txt's line 2, as latency-summarize and latency-compare write it. */
static void highorder_line(void)
{
	static const struct highorder_pct three[] = {
		{ 2, 100.0 },
		{ 4, 97.25 },
		{ 9, 41.2 },
	};
	static const struct highorder_pct untried[] = { { 4, NAN },
							{ 9, 100.0 / 3 } };
	static const struct highorder_pct none[] = { { 9, NAN } };
	static const struct {
		const struct highorder_pct *o;
		size_t n;
		double p99_us;
		const char *want;
	} cases[] = {
		{ three, 3, 3100,
		  " HighOrder: order-2 100.0% order-4 97.2% order-9 41.2% "
		  "(p99 fault 3.1 ms)\n" },
		{ untried, 2, 45.6,
		  " HighOrder: order-4 n/a order-9 33.3% (p99 fault 0.046 "
		  "ms)\n" },
		{ three, 1, 281,
		  " HighOrder: order-2 100.0% (p99 fault 0.281 ms)\n" },
		{ three, 1, NAN,
		  " HighOrder: order-2 100.0% (p99 fault n/a)\n" },
		{ none, 1, 12, " HighOrder: order-9 n/a (p99 fault n/a)\n" },
		{ three, 0, 12, " HighOrder: none (not probed)\n" },
	};
	char ms[FMT_FAULT_MS];
	size_t i;
	FILE *f;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		f = mem();
		highorder_line_write(f, cases[i].o, cases[i].n,
				     cases[i].p99_us);
		fclose(f);
		is_str(buf, cases[i].want, "HighOrder line case %zu", i);
	}
	is_str(fmt_fault_ms(ms, 999.9), "1.000", "fault time below 1 ms");
	is_str(fmt_fault_ms(ms, 1000), "1.0", "fault time from 1 ms");
	is_str(fmt_fault_ms(ms, -1), "n/a", "no negative fault time");
}

int main(void)
{
	json();
	header();
	misc();
	escaping();
	atomic();
	atomic_straight();
	stream();
	copy();
	escape();
	highorder_line();
	free(buf);
	return done_testing();
}
