// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel tunables a memory test may change (see knob.h): one table of
 * allowed places, checked on names that are first made clean, so that no
 * spelling (vm/../kernel/x, //sys/power) reaches another file.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/knob.h"
#include "lib/xalloc.h"

#define PATH_CLEAN_MAX 2048
#define VALUE_MAX 256
/* The characters of a sysctl name and of a sysfs path component. */
#define NAME_CHARS                                                             \
	"abcdefghijklmnopqrstuvwxyz"                                           \
	"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-"

/* Write-only triggers: reading them gives nothing to write back. */
static const char *const vm_triggers[] = { "drop_caches", "compact_memory" };

bool path_is_clean(const char *p)
{
	const char *c = p;

	if (*p != '/' || strlen(p) > PATH_CLEAN_MAX)
		return false;
	for (const char *s = p; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return false;
	while (*c == '/') {
		size_t n = strcspn(c + 1, "/");

		if (!n && (c[1] || c != p)) /* "//", or a trailing "/" */
			return false;
		if ((n == 1 && c[1] == '.') ||
		    (n == 2 && c[1] == '.' && c[2] == '.'))
			return false;
		c += 1 + n;
	}
	return true;
}

/* Every component of the clean PATH made of NAME_CHARS, '.', ':', '@', '+'. */
static bool components_ok(const char *path)
{
	return strspn(path, NAME_CHARS ".:@+/") == strlen(path);
}

/* "vm.page-cluster" or "vm/page-cluster": the part after "vm", or NULL. */
static const char *vm_sysctl(const char *name)
{
	const char *leaf;

	if (strncmp(name, "vm.", 3) && strncmp(name, "vm/", 3))
		return NULL;
	leaf = name + 3;
	/* vm's sysctls are one level deep: no dots, no slashes below it. */
	if (!*leaf || strspn(leaf, NAME_CHARS) != strlen(leaf))
		return NULL;
	return leaf;
}

/*
 * A block device's queue knob (readahead, I/O scheduler, request size
 * limit, queue depth), in any of sysfs's spellings of the device.
 */
static bool queue_path(const char *p)
{
	static const char *const leaves[] = {
		"/queue/read_ahead_kb",
		"/queue/scheduler",
		"/queue/max_sectors_kb",
		"/queue/nr_requests",
	};
	size_t n = strlen(p), l = 0, i;
	const char *dev;

	for (i = 0; i < sizeof(leaves) / sizeof(leaves[0]); i++) {
		size_t k = strlen(leaves[i]);

		if (n > k && !strcmp(p + n - k, leaves[i])) {
			l = k;
			break;
		}
	}
	if (!l)
		return false;
	if (!strncmp(p, "/sys/devices/", 13))
		return true;
	if (!strncmp(p, "/sys/block/", 11))
		dev = p + 11;
	else if (!strncmp(p, "/sys/dev/block/", 15))
		dev = p + 15;
	else
		return false;
	/* Exactly one component between the prefix and the leaf. */
	return (size_t)(strchr(dev, '/') - p) == n - l;
}

static int refuse(const char **why, const char *reason)
{
	if (why)
		*why = reason;
	return -EINVAL;
}

int knob_check(const char *name, enum knob_kind *kind, const char **why)
{
	const char *leaf;

	if (*name != '/') {
		leaf = vm_sysctl(name);
		if (!leaf)
			return refuse(why, "only sysctls under vm. may be "
					   "changed (vm.NAME)");
		for (size_t i = 0;
		     i < sizeof(vm_triggers) / sizeof(vm_triggers[0]); i++)
			if (!strcmp(leaf, vm_triggers[i]))
				return refuse(why,
					      "a write-only trigger has no "
					      "value to restore");
		if (kind)
			*kind = KNOB_SYSCTL;
		return 0;
	}
	if (!path_is_clean(name) || !components_ok(name))
		return refuse(why, "not a clean absolute path");
	if (strncmp(name, "/sys/kernel/mm/", 15) &&
	    strncmp(name, "/sys/module/zswap/parameters/", 29) &&
	    !queue_path(name))
		return refuse(why,
			      "only sysfs knobs under /sys/kernel/mm/, "
			      "/sys/module/zswap/parameters/ and a block "
			      "device's queue/read_ahead_kb, scheduler, "
			      "max_sectors_kb and nr_requests may be changed");
	if (kind)
		*kind = KNOB_SYSFS;
	return 0;
}

char *knob_file(const char *name, const char *proc, const char *sys)
{
	enum knob_kind kind;

	if (knob_check(name, &kind, NULL)) {
		errno = EINVAL;
		return NULL;
	}
	if (kind == KNOB_SYSCTL)
		return xasprintf("%s/sys/vm/%s", proc, name + 3);
	return xasprintf("%s%s", sys, name + 4);
}

bool knob_value_ok(const char *v)
{
	size_t n = strlen(v);

	if (!n || n > VALUE_MAX || *v == ' ' || v[n - 1] == ' ' ||
	    strstr(v, "  "))
		return false;
	return strspn(v, NAME_CHARS "._:[] ") == n;
}
