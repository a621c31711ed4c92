/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A small, strict JSON reader (RFC 8259) for the results the suite writes:
 * parse a whole document into a tree, then look members up by key path.
 * Strict means: no comments, no trailing commas, no NaN/Infinity, no leading
 * zeros, no control characters or invalid UTF-8 in strings, no lone
 * surrogates, no duplicate keys in one object, nothing after the document.
 * Safe means: bounded nesting, every length checked, errors by return value
 * with the line and column of the first problem, never a crash on any input.
 */
#ifndef LATENCY_JSON_READ_H
#define LATENCY_JSON_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Deepest nesting of arrays and objects accepted. */
#define JSON_READ_MAX_DEPTH 64

enum json_type {
	JSON_NULL,
	JSON_FALSE,
	JSON_TRUE,
	JSON_NUMBER,
	JSON_STRING,
	JSON_ARRAY,
	JSON_OBJECT,
};

/*
 * One value.  Strings are unescaped UTF-8, NUL-terminated, with their byte
 * length in len (a \u0000 escape makes len the only reliable length).
 * Numbers keep both the value and the literal text (in str), so a caller
 * can print a figure exactly as it was written.  Arrays and objects hold
 * COUNT children in ITEMS; an object's children carry their member name in
 * KEY, in document order.
 */
struct json_node {
	enum json_type type;
	char *key;
	char *str;
	size_t len;
	double num;
	size_t count;
	struct json_node *items;
};

/* Where and why parsing stopped; line and column count from 1. */
struct json_read_error {
	size_t offset;
	size_t line;
	size_t column;
	char msg[96];
};

/*
 * Parse the LEN bytes at BUF (no terminating NUL needed) into a new tree
 * stored in *ROOT.  Returns 0, -EINVAL for a document that is not strict
 * JSON (ERR, when not NULL, says where and why), or -ENOMEM.  On error
 * *ROOT is NULL.  Free the tree with json_read_free().
 */
int json_read_parse(const char *buf, size_t len, struct json_node **root,
		    struct json_read_error *err);

/*
 * Read and parse the file at PATH, refusing files over MAX_BYTES.  Only a
 * regular file is read (a FIFO or a device would block or never end):
 * -EISDIR for a directory, -EINVAL with ERR's line 0 and its msg "not a
 * regular file" for anything else.  Returns 0, -errno from open/read,
 * -EFBIG when too large, or as json_read_parse() (whose errors have a
 * line of 1 or more).
 */
int json_read_file(const char *path, size_t max_bytes, struct json_node **root,
		   struct json_read_error *err);

/* Free a tree from json_read_parse() (NULL is fine). */
void json_read_free(struct json_node *root);

/* The member KEY of object OBJ, or NULL (also when OBJ is no object). */
const struct json_node *json_read_member(const struct json_node *obj,
					 const char *key);

/* Element I of array ARR, or NULL. */
const struct json_node *json_read_index(const struct json_node *arr, size_t i);

/*
 * Follow PATH from N: components separated by '.', each a member name, or
 * a decimal index when the current value is an array ("results.0.phases").
 * An empty PATH is N itself.  Returns NULL when any step is missing.
 */
const struct json_node *json_read_path(const struct json_node *n,
				       const char *path);

/*
 * The number at PATH below N into *OUT.  Returns 0, -ENOENT when absent
 * (a JSON null counts as absent), or -EINVAL when not a number.
 */
int json_read_number(const struct json_node *n, const char *path, double *out);

/* The string at PATH below N, or NULL when absent or not a string. */
const char *json_read_string(const struct json_node *n, const char *path);

/* "null", "false", "true", "number", "string", "array" or "object". */
const char *json_type_name(enum json_type type);

/*
 * Fuzzing entry point (libFuzzer's LLVMFuzzerTestOneInput calls it): parse
 * SIZE bytes, walk and free the tree.  Returns 0 whether or not the input
 * was valid; anything else (a crash, a leak, a sanitizer report) is a bug.
 */
int json_read_fuzz(const uint8_t *data, size_t size);

/*
 * Read the whole regular file at PATH into a new NUL-terminated buffer
 * (*BUF, to free; its length without the NUL in *LEN), refusing files over
 * MAX_BYTES.  For files that may have been planted: a symlink is not
 * followed (-ELOOP) and anything but a regular file is refused without
 * blocking (-EISDIR for a directory, -EINVAL for a FIFO, device or socket).
 * Returns 0, -errno from open/read, -EFBIG or -ENOMEM; on error *BUF is
 * NULL.  Parse JSON from it with json_read_parse().
 */
int json_read_load(const char *path, size_t max_bytes, char **buf, size_t *len);

/*
 * Open PATH for reading as json_read_load() does (a regular file only, no
 * symlink followed, never blocking), for a file too large to load whole.
 * Returns the descriptor (O_NONBLOCK, which a regular file ignores; close
 * it) or -errno as json_read_load().
 */
int json_read_open(const char *path);

/*
 * The unsigned integer at PATH below N into *OUT, exactly as written (not
 * through a double).  Returns 0, -ENOENT when absent or null, -EINVAL when
 * not a number or not a plain integer (a sign, a fraction or an exponent),
 * or -ERANGE above UINT64_MAX.
 */
int json_read_u64(const struct json_node *n, const char *path, uint64_t *out);

/*
 * The length of the well-formed UTF-8 sequence at S, of which AVAIL bytes
 * may be read, or 0 when S does not start one (overlong forms, surrogates,
 * code points above U+10FFFF and AVAIL 0 are not well-formed).
 */
size_t json_read_utf8_len(const unsigned char *s, size_t avail);

/*
 * How deep N nests: 0 for a scalar, 1 for an array or object of scalars
 * (an empty one too), and so on.  At most JSON_READ_MAX_DEPTH for a tree
 * from json_read_parse().
 */
int json_read_depth(const struct json_node *n);

#endif
