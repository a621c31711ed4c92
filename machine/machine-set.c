// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * latency-machine set: change one kernel tunable for a run, through the
 * state record.  The first time a run sets a knob, the value it has now
 * is recorded (a sysctl or sysfs entry), so that restore gives back the
 * value from before the run however often the run changes it after
 * (run-test.sh --interleave switches a knob before every run); then the
 * new value is written.  Only the knobs lib/knob allows may be set.
 */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/knob.h"
#include "lib/opt.h"
#include "lib/output.h"
#include "lib/xalloc.h"
#include "machine/machine.h"

/* A sysctl as the record names it: vm/page-cluster -> vm.page-cluster. */
static char *record_name(const char *name, enum knob_kind kind)
{
	char *n = xstrdup(name), *p;

	if (kind == KNOB_SYSCTL)
		for (p = n; *p; p++)
			if (*p == '/')
				*p = '.';
	return n;
}

/* Has the record R an entry of KIND for the knob NAME already? */
static bool recorded(const struct record *r, const char *kind, const char *name)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		char *n;
		bool same;

		if (r->e[i].nfield < 2 || strcmp(r->e[i].field[0], kind))
			continue;
		n = record_name(r->e[i].field[1], !strcmp(kind, "sysctl")
							  ? KNOB_SYSCTL
							  : KNOB_SYSFS);
		same = !strcmp(n, name);
		free(n);
		if (same)
			return true;
	}
	return false;
}

int set_knob(pid_t owner, const char *name, const char *value)
{
	enum knob_kind kind;
	const char *why, *kname;
	char *file, *rname, *line = NULL, *argv[3];
	struct record r;
	off_t at = 0;
	int dirfd, e, status;

	/* Both may hold anything: escaped before they reach a terminal. */
	if (knob_check(name, &kind, &why))
		usage_error("set: '%s' cannot be changed: %s",
			    text_escape(name), why);
	if (!knob_value_ok(value))
		usage_error("set: '%s' is not a value a knob may be given "
			    "(letters, digits, . _ : - [ ] and single spaces)",
			    text_escape(value));
	file = knob_file(name, menv.proc, menv.sys);
	if (access(file, F_OK)) {
		status = error_ret_errno(EXIT_UNSUPPORTED,
					 "set: no knob '%s' here ('%s')", name,
					 file);
		free(file);
		return status;
	}
	/* A writer command plays the kernel's part in tests. */
	if (!menv.writer && access(file, W_OK)) {
		status = error_ret_errno(EXIT_UNSUPPORTED,
					 "set: cannot write '%s' (not root?)",
					 file);
		free(file);
		return status;
	}
	kname = kind == KNOB_SYSCTL ? "sysctl" : "sysfs";
	rname = record_name(name, kind);
	status = state_open_locked(&dirfd);
	if (status)
		goto out;
	/* The run's own record, and the run must hold the machine. */
	status = record_load_owned(dirfd, owner, &r);
	if (status)
		goto out_close;
	/* The value from before the run is recorded once, then kept. */
	if (!recorded(&r, kname, rname)) {
		argv[0] = (char *)kname;
		argv[1] = rname;
		argv[2] = NULL;
		line = entry_make(&r, 2, argv);
		status = line ? record_append(&r, line, &at) : EXIT_RUN_FAILED;
	}
	record_release(&r);
	if (status)
		goto out_close;
	e = kfile_write(file, value, 0);
	if (e && line) /* nothing was changed */
		status = record_withdraw(dirfd, at, line);
	if (e)
		status = error_ret_err(EXIT_RUN_FAILED, -e,
				       "set: the kernel refused '%s' for %s",
				       value, name);
out_close:
	(void)close(dirfd); /* also drops the lock */
out:
	free(line);
	free(rname);
	free(file);
	return status;
}
