// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for seqbench's readahead (seqbench/readahead.c) on a fake
 * sysfs tree: which devices serve the reads of a device, through a
 * partition, device-mapper and md (a machine like this one has neither),
 * and that --readahead's set and restore write every one of them.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "lib/xalloc.h"
#include "seqbench/seqbench.h"
#include "tests/tap.h"

static char root[] = "/tmp/test-seqbench-ra.XXXXXX";

static void put(const char *rel, const char *text)
{
	char *path = xasprintf("%s/%s", root, rel), *cmd;
	FILE *f;

	cmd = xasprintf("mkdir -p \"$(dirname '%s')\"", path);
	if (system(cmd))
		exit(99);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f))
		exit(99);
	free(cmd);
	free(path);
}

static void link_to(const char *target, const char *rel)
{
	char *path = xasprintf("%s/%s", root, rel), *cmd;

	cmd = xasprintf("mkdir -p \"$(dirname '%s')\"", path);
	if (system(cmd) || symlink(target, path))
		exit(99);
	free(cmd);
	free(path);
}

/* A disk with a partition, a second one, md over both, dm over md and dm
 * over the first partition alone. */
static void make_tree(void)
{
	put("devices/pci/block/sda/dev", "8:0\n");
	put("devices/pci/block/sda/queue/read_ahead_kb", "128\n");
	put("devices/pci/block/sda/sda2/dev", "8:2\n");
	put("devices/pci/block/sda/sda2/partition", "2\n");
	put("devices/pci/block/sdb/dev", "8:16\n");
	put("devices/pci/block/sdb/queue/read_ahead_kb", "256\n");
	put("devices/pci/block/sdb/sdb1/dev", "8:17\n");
	put("devices/pci/block/sdb/sdb1/partition", "1\n");
	put("devices/virtual/block/md0/dev", "9:0\n");
	put("devices/virtual/block/md0/queue/read_ahead_kb", "1024\n");
	link_to("../../../../pci/block/sda/sda2",
		"devices/virtual/block/md0/slaves/sda2");
	link_to("../../../../pci/block/sdb/sdb1",
		"devices/virtual/block/md0/slaves/sdb1");
	put("devices/virtual/block/dm-0/dev", "253:0\n");
	put("devices/virtual/block/dm-0/queue/read_ahead_kb", "4096\n");
	link_to("../../md0", "devices/virtual/block/dm-0/slaves/md0");
	put("devices/virtual/block/dm-1/dev", "253:1\n");
	put("devices/virtual/block/dm-1/queue/read_ahead_kb", "512\n");
	link_to("../../../../pci/block/sda/sda2",
		"devices/virtual/block/dm-1/slaves/sda2");
	link_to("../../devices/pci/block/sda", "dev/block/8:0");
	link_to("../../devices/pci/block/sda/sda2", "dev/block/8:2");
	link_to("../../devices/pci/block/sdb", "dev/block/8:16");
	link_to("../../devices/virtual/block/md0", "dev/block/9:0");
	link_to("../../devices/virtual/block/dm-0", "dev/block/253:0");
	link_to("../../devices/virtual/block/dm-1", "dev/block/253:1");
}

/* The names of RA, the first one then the others sorted: "dm-0 md0 ..." */
static char *names(const struct sb_ra *ra)
{
	char *s = xstrdup(""), *t;
	size_t i, j;

	for (i = 1; i < ra->n; i++)
		for (j = i + 1; j < ra->n; j++)
			if (strcmp(ra->dev[i].name, ra->dev[j].name) > 0) {
				struct sb_ra_dev d = ra->dev[i];

				ra->dev[i] = ra->dev[j];
				ra->dev[j] = d;
			}
	for (i = 0; i < ra->n; i++) {
		t = xasprintf("%s%s%s:%llu", s, i ? " " : "", ra->dev[i].name,
			      (unsigned long long)ra->dev[i].old_kb);
		free(s);
		s = t;
	}
	return s;
}

static void resolve(void)
{
	static const struct {
		unsigned maj, min;
		const char *want;
	} cases[] = {
		{ 8, 0, "sda:128" },
		{ 8, 2, "sda:128" }, /* a partition: its disk's queue */
		{ 8, 16, "sdb:256" },
		{ 253, 1, "dm-1:512 sda:128" },
		{ 9, 0, "md0:1024 sda:128 sdb:256" },
		{ 253, 0, "dm-0:4096 md0:1024 sda:128 sdb:256" },
	};
	struct sb_ra ra;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int r = sb_ra_resolve(root, makedev(cases[i].maj, cases[i].min),
				      &ra);
		char *got = r ? xasprintf("error %d", r) : names(&ra);

		is_str(got, cases[i].want, "%u:%u resolves to %s", cases[i].maj,
		       cases[i].min, cases[i].want);
		free(got);
		sb_ra_release(&ra);
	}
	is_int(sb_ra_resolve(root, makedev(0, 42), &ra), -ENODEV,
	       "major 0 (tmpfs, overlay): no block device");
	is_int(sb_ra_resolve(root, makedev(8, 99), &ra), -ENODEV,
	       "a device sysfs does not know");
}

static char *knob(const char *rel)
{
	static char buf[64];
	char *path = xasprintf("%s/%s", root, rel);
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (!f || !fgets(buf, sizeof(buf), f))
		snprintf(buf, sizeof(buf), "unreadable");
	if (f)
		fclose(f);
	free(path);
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

static void set_restore(void)
{
	struct sb_error err;
	struct sb_ra ra;

	/* The record is another test's business: a stand-in that agrees. */
	setenv("LATENCY_MACHINE", "true", 1);
	unsetenv("LATENCY_MACHINE_OWNER");
	memset(&err, 0, sizeof(err));
	is_int(sb_ra_resolve(root, makedev(253, 1), &ra), 0, "resolve dm-1");
	is_int(sb_ra_set(&ra, 64, &err), 0, "set 64 KiB");
	is_str(knob("devices/virtual/block/dm-1/queue/read_ahead_kb"), "64",
	       "dm-1 set");
	is_str(knob("devices/pci/block/sda/queue/read_ahead_kb"), "64",
	       "and the disk under it");
	ok(ra.own_record, "standalone: our own record");
	is_int(sb_ra_restore(&ra, 0, &err), 0, "restore");
	is_str(knob("devices/virtual/block/dm-1/queue/read_ahead_kb"), "512",
	       "dm-1 back");
	is_str(knob("devices/pci/block/sda/queue/read_ahead_kb"), "128",
	       "the disk back");
	is_int(err.err, 0, "no error");
	sb_ra_release(&ra);

	/* The record refused: nothing is written. */
	setenv("LATENCY_MACHINE", "false", 1);
	is_int(sb_ra_resolve(root, makedev(8, 16), &ra), 0, "resolve sdb");
	is_int(sb_ra_set(&ra, 64, &err), -1, "set fails without a record");
	is_str(err.msg,
	       "latency-machine begin exited with status 1 (see its message "
	       "above)",
	       "and says why");
	is_str(knob("devices/pci/block/sdb/queue/read_ahead_kb"), "256",
	       "sdb untouched");
	sb_ra_release(&ra);

	/* Run by the driver: its record, no begin of our own. */
	setenv("LATENCY_MACHINE", "true", 1);
	setenv("LATENCY_MACHINE_OWNER", "1", 1);
	memset(&err, 0, sizeof(err));
	is_int(sb_ra_resolve(root, makedev(8, 16), &ra), 0, "resolve sdb");
	is_int(sb_ra_set(&ra, 32, &err), 0, "set under a driver");
	ok(!ra.own_record, "the driver's record");
	is_int(sb_ra_restore(&ra, 0, &err), 0, "restore");
	is_str(knob("devices/pci/block/sdb/queue/read_ahead_kb"), "256",
	       "sdb back");
	sb_ra_release(&ra);
	setenv("LATENCY_MACHINE_OWNER", "x", 1);
	is_int(sb_ra_resolve(root, makedev(8, 16), &ra), 0, "resolve sdb");
	is_int(sb_ra_set(&ra, 32, &err), -1, "a bad owner is refused");
	sb_ra_release(&ra);
}

int main(void)
{
	char *cmd;

	if (!mkdtemp(root))
		skip_all("cannot make a temporary directory");
	make_tree();
	resolve();
	set_restore();
	cmd = xasprintf("rm -rf '%s'", root);
	is_int(system(cmd), 0, "cleanup");
	free(cmd);
	return done_testing();
}
