/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * latency-plan's private interface: run-test.sh's options and config files
 * (plan-config.c), read and checked once per run for the driver, which
 * keeps the printed form as the run's `config`.
 */
#ifndef COMPARE_PLAN_H
#define COMPARE_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Room for the options (plan-config.c counts them). */
#define PLAN_CFG_MAX_KEYS 64
/* The largest config file read. */
#define PLAN_CFG_MAX_BYTES (64u << 10)

struct plan_config {
	char *value[PLAN_CFG_MAX_KEYS]; /* NULL: not set (the default) */
	const char *action;		/* NULL (run), "help" or "version" */
	bool print_config, restore;
	uint64_t mem_limit_bytes, swap_bytes; /* 0: not a size */
};

/*
 * Read the config file text BUF[0..LEN) (name=value lines; blank lines and
 * # comments skipped) into C, its values checked as on the command line;
 * PATH names it in messages.  Returns 0, or -EINVAL with a one-line
 * message (to free) in *ERR, the hostile bytes in it escaped.
 */
int plan_config_read(struct plan_config *c, const char *path, const char *buf,
		     size_t len, char **err);
/*
 * Read run-test.sh's command line ARGV: first the files of its --config
 * options, then every option in order (the command line wins).  -h,
 * --help, -V, --version stop the reading and set C->action.  Returns 0 or
 * -EINVAL with the message in *ERR.
 */
int plan_config_args(struct plan_config *c, int argc, char **argv, char **err);
/*
 * Fill in the defaults (--quick's first; LATENCY_DEFAULT_RATIO,
 * LATENCY_QUICK_RATIO, LATENCY_DEFAULT_COMMITS, LATENCY_QUICK_COMMITS from
 * the environment) and check the paths.  Returns 0 or -EINVAL and *ERR.
 */
int plan_config_resolve(struct plan_config *c, char **err);
/*
 * Print C: as a config file, or for the shell (SHELL): action=,
 * print_config=, restore=, every key with _ for -, mem_limit_bytes= and
 * swap_bytes=, then each line of the config file after "config_line=".
 * No value holds a control character.
 */
void plan_config_print(FILE *f, const struct plan_config *c, bool shell);
void plan_config_release(struct plan_config *c);

#endif
