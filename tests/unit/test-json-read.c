// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for lib/json-read: what strict JSON accepts and refuses (with
 * where and why), unescaping, numbers, key-path lookup, files, and a short
 * deterministic mutation run through the fuzzing entry point.
 */
#include <config.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/json-read.h"
#include "tests/tap.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static int parse(const char *s, struct json_node **root,
		 struct json_read_error *err)
{
	return json_read_parse(s, strlen(s), root, err);
}

static void test_valid(void)
{
	static const char *const docs[] = {
		"{}",
		"[]",
		" \t\r\n{ } ",
		"0",
		"-0",
		"1.5e-3",
		"-12E+2",
		"\"\"",
		"true",
		"false",
		"null",
		"[1,[2,[3]],{\"a\":{}}]",
		"{\"a\":1,\"b\":[true,false,null],\"c\":\"x\"}",
		"\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"",
		"1e308",
	};
	size_t i;

	for (i = 0; i < N(docs); i++) {
		struct json_read_error err;
		struct json_node *root;
		int r = parse(docs[i], &root, &err);

		is_int(r, 0, "accepts doc %zu", i);
		if (r)
			printf("#   error: %s\n", err.msg);
		json_read_free(root);
	}
}

struct bad {
	const char *doc;
	size_t line, column;
	const char *msg;
};

static void test_invalid(void)
{
	static const struct bad bad[] = {
		{ "", 1, 1, "empty document" },
		{ "  \n ", 2, 2, "empty document" },
		{ "{", 1, 2,
		  "unexpected end of input, expected a member name" },
		{ "[1,]", 1, 4, "unexpected ']', expected a value" },
		{ "{\"a\":1,}", 1, 8,
		  "unexpected '}', expected a member name" },
		{ "{\"a\" 1}", 1, 6, "unexpected '1', expected ':'" },
		{ "{\"a\":1 \"b\":2}", 1, 8,
		  "unexpected '\"', expected ',' or '}'" },
		{ "[1 2]", 1, 4, "unexpected '2', expected ',' or ']'" },
		{ "01", 1, 2, "leading zero in number" },
		{ "-", 1, 2, "unexpected end of input, expected a digit" },
		{ "1.", 1, 3,
		  "unexpected end of input, expected a digit after '.'" },
		{ "1e", 1, 3,
		  "unexpected end of input, expected a digit in the exponent" },
		{ ".5", 1, 1, "unexpected '.', expected a value" },
		{ "+1", 1, 1, "unexpected '+', expected a value" },
		{ "1e999", 1, 1, "number out of range" },
		{ "NaN", 1, 1, "unexpected 'N', expected a value" },
		{ "tru", 1, 1, "unexpected 't', expected a value" },
		{ "nulll", 1, 5, "trailing data after the document" },
		{ "{} {}", 1, 4, "trailing data after the document" },
		{ "/* c */ 1", 1, 1, "unexpected '/', expected a value" },
		{ "\"abc", 1, 1, "unterminated string" },
		{ "\"a\\", 1, 1, "unterminated string" },
		{ "\"\\x\"", 1, 2, "invalid escape in string" },
		{ "\"\\u12g4\"", 1, 2, "invalid \\u escape" },
		{ "\"\\u12\"", 1, 2, "invalid \\u escape" },
		{ "\"\\ud800\"", 1, 2, "lone high surrogate in \\u escape" },
		{ "\"\\ud800\\u0041\"", 1, 2,
		  "lone high surrogate in \\u escape" },
		{ "\"\\udc00\"", 1, 2, "lone low surrogate in \\u escape" },
		{ "\"a\tb\"", 1, 3, "control character in string" },
		{ "\"\xc0\xaf\"", 1, 2, "invalid UTF-8 in string" },
		{ "\"\xed\xa0\x80\"", 1, 2, "invalid UTF-8 in string" },
		{ "\"\xf4\x90\x80\x80\"", 1, 2, "invalid UTF-8 in string" },
		{ "\"\xe2\x82\"", 1, 2, "invalid UTF-8 in string" },
		{ "\xef\xbb\xbf{}", 1, 1,
		  "unexpected byte 0xef, expected a value" },
		{ "{\"a\":1,\n \"b\":2,\"a\":3}", 1, 1,
		  "duplicate member \"a\" in object" },
		{ "{\"a\\u0000b\":1}", 1, 11, "NUL in member name" },
		{ "[1,\n2,\n x]", 3, 2, "unexpected 'x', expected a value" },
	};
	size_t i;

	for (i = 0; i < N(bad); i++) {
		struct json_read_error err;
		struct json_node *root = (struct json_node *)&err;
		int r = parse(bad[i].doc, &root, &err);

		is_int(r, -EINVAL, "refuses doc %zu", i);
		ok(root == NULL, "doc %zu: no tree on error", i);
		is_str(err.msg, bad[i].msg, "doc %zu: message", i);
		is_int(err.line, bad[i].line, "doc %zu: line", i);
		is_int(err.column, bad[i].column, "doc %zu: column", i);
	}
}

static void test_depth(void)
{
	char deep[2 * JSON_READ_MAX_DEPTH + 8];
	struct json_read_error err;
	struct json_node *root;
	int d;

	for (d = 0; d < JSON_READ_MAX_DEPTH; d++) {
		deep[d] = '[';
		deep[2 * JSON_READ_MAX_DEPTH - 1 - d] = ']';
	}
	is_int(json_read_parse(deep, 2 * JSON_READ_MAX_DEPTH, &root, &err), 0,
	       "nesting of exactly %d is fine", JSON_READ_MAX_DEPTH);
	json_read_free(root);
	memmove(deep + 1, deep, 2 * JSON_READ_MAX_DEPTH);
	deep[0] = '[';
	deep[2 * JSON_READ_MAX_DEPTH + 1] = ']';
	is_int(json_read_parse(deep, 2 * JSON_READ_MAX_DEPTH + 2, &root, &err),
	       -EINVAL, "nesting of %d is refused", JSON_READ_MAX_DEPTH + 1);
	is_str(err.msg, "nesting deeper than 64", "nesting message");
}

static void test_strings(void)
{
	static const struct {
		const char *doc, *want;
		size_t len;
	} c[] = {
		{ "\"plain\"", "plain", 5 },
		{ "\"q\\\" b\\\\ s\\/ \\b\\f\\n\\r\\t\"",
		  "q\" b\\ s/ \b\f\n\r\t", 14 },
		{ "\"\\u0041\\u00e9\\u20AC\"", "A\xc3\xa9\xe2\x82\xac", 6 },
		{ "\"\\ud83d\\ude00\"", "\xf0\x9f\x98\x80", 4 },
		{ "\"a\\u0000b\"", "a\0b", 3 },
	};
	size_t i;

	for (i = 0; i < N(c); i++) {
		struct json_node *root;
		int r = parse(c[i].doc, &root, NULL);

		is_int(r, 0, "string %zu parses", i);
		if (r)
			continue;
		is_int(root->type, JSON_STRING, "string %zu type", i);
		is_int(root->len, c[i].len, "string %zu length", i);
		ok(!memcmp(root->str, c[i].want, c[i].len + 1),
		   "string %zu unescaped", i);
		json_read_free(root);
	}
}

static void test_numbers(void)
{
	static const struct {
		const char *doc;
		double want;
	} c[] = {
		{ "0", 0 },
		{ "-0.5", -0.5 },
		{ "12", 12 },
		{ "692.258", 692.258 },
		{ "1e3", 1000 },
		{ "2.5E-1", 0.25 },
		{ "130.779000", 130.779 },
	};
	size_t i;

	for (i = 0; i < N(c); i++) {
		struct json_node *root;

		if (parse(c[i].doc, &root, NULL)) {
			ok(0, "number '%s' parses", c[i].doc);
			continue;
		}
		is_int(root->type, JSON_NUMBER, "'%s' is a number", c[i].doc);
		is_double(root->num, c[i].want, 0, "'%s' value", c[i].doc);
		is_str(root->str, c[i].doc, "'%s' keeps its literal", c[i].doc);
		json_read_free(root);
	}
}

static void test_lookup(void)
{
	static const char doc[] =
		"{\"label\":\"2.6.31\",\"partial\":false,\"n\":null,"
		"\"gitk_runs\":[{\"elapsed_s\":10},{\"elapsed_s\":12.5}],"
		"\"latency\":{\"fake-gitk\":{\"p99_s\":0.25}},\"x\":\"1\"}";
	struct json_node *root;
	const struct json_node *n;
	double d = -1;

	if (parse(doc, &root, NULL)) {
		ok(0, "lookup document parses");
		return;
	}
	is_str(json_read_string(root, "label"), "2.6.31", "string by key");
	ok(json_read_string(root, "partial") == NULL, "bool is no string");
	n = json_read_path(root, "partial");
	ok(n && n->type == JSON_FALSE, "false by key");
	is_int(json_read_number(root, "gitk_runs.1.elapsed_s", &d), 0,
	       "number by path through an array");
	is_double(d, 12.5, 0, "its value");
	is_int(json_read_number(root, "latency.fake-gitk.p99_s", &d), 0,
	       "hyphenated key in a path");
	is_double(d, 0.25, 0, "its value");
	is_int(json_read_number(root, "gitk_runs.2.elapsed_s", &d), -ENOENT,
	       "index past the end is absent");
	is_int(json_read_number(root, "nope", &d), -ENOENT, "absent key");
	is_int(json_read_number(root, "n", &d), -ENOENT, "null is absent");
	is_int(json_read_number(root, "x", &d), -EINVAL,
	       "a string is not a number");
	is_int(json_read_number(root, "label.x", &d), -ENOENT,
	       "a path through a string is absent");
	ok(json_read_path(root, "gitk_runs.x") == NULL,
	   "a name on an array is absent");
	ok(json_read_path(root, "gitk_runs.-1") == NULL,
	   "a negative index is absent");
	ok(json_read_path(root, "") == root, "empty path is the node");
	n = json_read_member(root, "gitk_runs");
	ok(n && n->type == JSON_ARRAY && n->count == 2, "array member");
	ok(json_read_index(n, 0) == &n->items[0], "index 0");
	is_str(root->items[0].key, "label", "members keep document order");
	is_str(json_type_name(JSON_OBJECT), "object", "type names");
	json_read_free(root);
}

static void test_file(void)
{
	char path[] = "/tmp/test-json-read.XXXXXX";
	struct json_read_error err;
	struct json_node *root;
	int fd = mkstemp(path);

	if (fd < 0) {
		ok(0, "mkstemp");
		return;
	}
	if (write(fd, "{\"a\": [1, 2]}\n", 14) != 14)
		ok(0, "write");
	close(fd);
	is_int(json_read_file(path, 14, &root, &err), 0,
	       "file of exactly the limit");
	ok(root && json_read_path(root, "a.1") != NULL, "file contents");
	json_read_free(root);
	is_int(json_read_file(path, 13, &root, &err), -EFBIG,
	       "file over the limit");
	ok(root == NULL, "no tree for a file over the limit");
	unlink(path);
	is_int(json_read_file(path, 100, &root, &err), -ENOENT, "missing file");
	is_int(json_read_file("/", 100, &root, &err), -EISDIR, "directory");
	/* A FIFO without a writer would block open() for good. */
	if (mkfifo(path, 0600)) {
		ok(0, "mkfifo");
		return;
	}
	is_int(json_read_file(path, 100, &root, &err), -EINVAL,
	       "FIFO refused, without blocking");
	ok(err.line == 0 && !strcmp(err.msg, "not a regular file"),
	   "FIFO: line 0, not a regular file");
	unlink(path);
	is_int(json_read_file("/dev/null", 100, &root, &err), -EINVAL,
	       "character device refused");
}

/* Mutate a valid document byte by byte; the parser must survive it all. */
static void test_fuzz_smoke(void)
{
	static const char seed[] =
		"{\"label\":\"a\\u00e9\",\"runs\":[{\"elapsed_s\":1.5e1},"
		"null,true,false,-0],\"o\":{\"k\":\"\\ud83d\\ude00\"}}";
	unsigned char buf[sizeof(seed)];
	uint64_t x = 0x89;
	int i;

	for (i = 0; i < 20000; i++) {
		size_t len = sizeof(seed) - 1, k;

		memcpy(buf, seed, len);
		for (k = 0; k < 3; k++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			buf[(x >> 33) % len] = (unsigned char)(x >> 13);
		}
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		json_read_fuzz(buf, (x >> 33) % (len + 1));
	}
	ok(1, "20000 mutated documents parsed or refused without a crash");
	ok(json_read_fuzz((const uint8_t *)seed, sizeof(seed) - 1) == 0,
	   "fuzz entry accepts the seed");
}

/* json_read_load: regular files only, bounded, never blocking. */
static void test_load(void)
{
	char dir[] = "/tmp/test-json-load.XXXXXX", path[64], link[80];
	size_t len = 7;
	char *buf = (char *)1;
	FILE *f;
	int fd;

	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp");
		return;
	}
	snprintf(path, sizeof(path), "%s/f", dir);
	f = fopen(path, "w");
	ok(f && fputs("a=1\nb", f) >= 0 && fclose(f) == 0, "write a file");
	is_int(json_read_load(path, 5, &buf, &len), 0, "exactly the limit");
	ok(buf && len == 5 && !strcmp(buf, "a=1\nb"), "contents, NUL-ended");
	free(buf);
	is_int(json_read_load(path, 4, &buf, &len), -EFBIG, "over the limit");
	ok(!buf && !len, "nothing returned over the limit");
	snprintf(link, sizeof(link), "%s/l", dir);
	ok(symlink(path, link) == 0, "symlink");
	is_int(json_read_load(link, 100, &buf, &len), -ELOOP,
	       "a symlink is not followed");
	snprintf(link, sizeof(link), "%s/p", dir);
	ok(mkfifo(link, 0600) == 0, "fifo");
	is_int(json_read_load(link, 100, &buf, &len), -EINVAL,
	       "a FIFO is refused without blocking");
	is_int(json_read_open(link), -EINVAL, "json_read_open: FIFO refused");
	fd = json_read_open(path);
	ok(fd >= 0 && read(fd, dir + sizeof(dir) - 1, 0) == 0,
	   "json_read_open: a regular file");
	if (fd >= 0)
		close(fd);
	is_int(json_read_load(dir, 100, &buf, &len), -EISDIR, "directory");
	is_int(json_read_load("/dev/null", 100, &buf, &len), -EINVAL,
	       "a device is refused");
	snprintf(link, sizeof(link), "%s/none", dir);
	is_int(json_read_load(link, 100, &buf, &len), -ENOENT, "missing");
	snprintf(link, sizeof(link), "rm -rf '%s'", dir);
	is_int(system(link), 0, "cleanup");
}

static void test_u64(void)
{
	static const struct {
		const char *doc;
		int ret;
		uint64_t val;
	} cases[] = {
		{ "{\"v\":0}", 0, 0 },
		{ "{\"v\":18446744073709551615}", 0, UINT64_MAX },
		{ "{\"v\":9007199254740993}", 0, 9007199254740993ULL },
		{ "{\"v\":18446744073709551616}", -ERANGE, 0 },
		{ "{\"v\":-1}", -EINVAL, 0 },
		{ "{\"v\":-0}", -EINVAL, 0 },
		{ "{\"v\":1.0}", -EINVAL, 0 },
		{ "{\"v\":1e3}", -EINVAL, 0 },
		{ "{\"v\":\"5\"}", -EINVAL, 0 },
		{ "{\"v\":true}", -EINVAL, 0 },
		{ "{\"v\":null}", -ENOENT, 0 },
		{ "{}", -ENOENT, 0 },
	};
	size_t i;

	for (i = 0; i < N(cases); i++) {
		struct json_node *root;
		uint64_t v = 42;
		int r;

		if (parse(cases[i].doc, &root, NULL)) {
			ok(0, "parse %s", cases[i].doc);
			continue;
		}
		r = json_read_u64(root, "v", &v);
		is_int(r, cases[i].ret, "u64 of %s", cases[i].doc);
		is_u64(v, r ? 42 : cases[i].val, "value of %s", cases[i].doc);
		json_read_free(root);
	}
}

static void test_utf8(void)
{
	static const struct {
		const char *s;
		size_t avail, len;
	} cases[] = {
		{ "a", 1, 1 },
		{ "\xc3\xa9", 2, 2 },
		{ "\xc3\xa9", 1, 0 },	  /* cut short */
		{ "\xc0\x80", 2, 0 },	  /* overlong NUL */
		{ "\xed\xa0\x80", 3, 0 }, /* surrogate */
		{ "\xe2\x82\xac", 3, 3 },
		{ "\xf0\x9f\x98\x80", 4, 4 },
		{ "\xf4\x90\x80\x80", 4, 0 }, /* above U+10FFFF */
		{ "\x80", 1, 0 },	      /* continuation byte */
		{ "\xc2\x9b", 2, 2 },	      /* U+009B, a C1 control */
		{ "", 0, 0 },
	};
	size_t i;

	for (i = 0; i < N(cases); i++)
		is_int((int)json_read_utf8_len(
			       (const unsigned char *)cases[i].s,
			       cases[i].avail),
		       (int)cases[i].len, "utf8 case %zu", i);
}

static void test_depth_of(void)
{
	static const struct {
		const char *doc;
		int depth;
	} cases[] = {
		{ "1", 0 },
		{ "\"s\"", 0 },
		{ "[]", 1 },
		{ "{}", 1 },
		{ "[1,2]", 1 },
		{ "[[],[[]]]", 3 },
		{ "{\"a\":{\"b\":[0]}}", 3 },
	};
	size_t i;

	for (i = 0; i < N(cases); i++) {
		struct json_node *root;

		if (parse(cases[i].doc, &root, NULL)) {
			ok(0, "parse %s", cases[i].doc);
			continue;
		}
		is_int(json_read_depth(root), cases[i].depth, "depth of %s",
		       cases[i].doc);
		json_read_free(root);
	}
}

int main(void)
{
	test_valid();
	test_invalid();
	test_depth();
	test_strings();
	test_numbers();
	test_lookup();
	test_file();
	test_fuzz_smoke();
	test_load();
	test_u64();
	test_utf8();
	test_depth_of();
	return done_testing();
}
