// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fragment [KEEP]: fragment free memory on purpose, for measuring
 * high-order allocation (latency-highorder) on a fragmented machine.  As
 * root.
 *
 * Every free block of a huge page's size or more (/proc/buddyinfo, zones
 * DMA32, Normal and Movable) is taken by an anonymous transparent huge page
 * (madvise(MADV_HUGEPAGE), touched once); then all of each huge page is
 * given back but one base page per KEEP bytes (default: the huge page's
 * size, so one page in every such block).  The pages given back are freed
 * when the kernel splits the huge pages, which it does in its shrinkers:
 * this writes 2 to /proc/sys/vm/drop_caches (reclaimable slab only; the
 * page cache stays).  A pass takes what the previous one left (huge pages
 * made by compaction meanwhile, blocks that other programs freed), never
 * more than half of the free memory at once, up to 8 passes, until no free
 * block of that size is left.  The pages kept are
 * locked (mlockall MCL_ONFAULT), so neither reclaim nor swap frees them,
 * and marked MADV_NOHUGEPAGE, so khugepaged does not fill them back;
 * compaction can still move them (vm.compact_unevictable_allowed), as it
 * moves any user page: that is what `echo 1 >/proc/sys/vm/compact_memory`
 * undoes, and kcompactd's proactive compaction too
 * (vm.compaction_proactiveness; 0 stops it).
 *
 * Free memory stays nearly as it was (one page in 512 is kept), but none
 * of it is left in huge-page blocks: an order-9 allocation needs
 * compaction first.  Prints "fragmented=1 passes=N kept_pages=K
 * huge_free_bytes=B" (B: what is still free in such blocks) and holds the
 * pages until SIGTERM or SIGINT.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/parse.h"

#define MAX_PASSES 8

static void on_stop(int sig)
{
	(void)sig;
}

/* Bytes free in blocks of order ORDER or more, in the zones THP uses. */
static uint64_t huge_free(unsigned order, uint64_t page)
{
	FILE *f = fopen("/proc/buddyinfo", "r");
	char line[512], zone[32];
	uint64_t sum = 0;

	if (!f)
		die_errno(EXIT_RUN_FAILED, "cannot read /proc/buddyinfo");
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, "zone");
		unsigned o = 0;
		int used;

		if (!p || sscanf(p, "zone %31s%n", zone, &used) != 1)
			continue;
		if (strcmp(zone, "DMA32") && strcmp(zone, "Normal") &&
		    strcmp(zone, "Movable"))
			continue;
		for (p += used;; o++) {
			unsigned long long n;

			if (sscanf(p, "%llu%n", &n, &used) != 1)
				break;
			p += used;
			if (o >= order)
				sum += (uint64_t)n * (page << o);
		}
	}
	fclose(f);
	return sum;
}

/* MemFree, in bytes. */
static uint64_t mem_free(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	unsigned long long kb = 0;
	char line[128];

	if (!f)
		die_errno(EXIT_RUN_FAILED, "cannot read /proc/meminfo");
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemFree: %llu kB", &kb) == 1)
			break;
	fclose(f);
	return (uint64_t)kb * 1024;
}

static void split_huge_pages(void)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);

	if (fd < 0 || write(fd, "2", 1) != 1)
		die_errno(EXIT_RUN_FAILED,
			  "cannot write /proc/sys/vm/drop_caches");
	close(fd);
}

/* Take SIZE bytes of huge pages, give back all but a page per KEEP. */
static uint64_t take(uint64_t size, uint64_t hpage, uint64_t keep,
		     uint64_t page)
{
	uint64_t off, kept = 0;
	char *m, *a;

	m = mmap(NULL, size + hpage, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (m == MAP_FAILED)
		die_errno(EXIT_RUN_FAILED, "cannot map %" PRIu64 " bytes",
			  size);
	a = (char *)(((uintptr_t)m + hpage - 1) & ~(uintptr_t)(hpage - 1));
	if (madvise(a, size, MADV_HUGEPAGE))
		die_errno(EXIT_RUN_FAILED, "madvise MADV_HUGEPAGE");
	for (off = 0; off < size; off += hpage)
		a[off] = 1;
	for (off = 0; off < size; off += keep, kept++) {
		uint64_t len = keep < size - off ? keep : size - off;

		if (len > page &&
		    madvise(a + off + page, len - page, MADV_DONTNEED))
			die_errno(EXIT_RUN_FAILED, "madvise MADV_DONTNEED");
	}
	/*
	 * khugepaged would collapse each kept page back into a huge page
	 * (max_ptes_none lets it fill 511 empty entries), taking a free block
	 * for each: 4.2 GiB within the hour of a prototype without this.
	 */
	if (madvise(a, size, MADV_NOHUGEPAGE))
		die_errno(EXIT_RUN_FAILED, "madvise MADV_NOHUGEPAGE");
	return kept;
}

int main(int argc, char **argv)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE), hpage, keep, kept = 0;
	uint64_t left;
	struct sigaction sa = { .sa_handler = on_stop };
	sigset_t block, old;
	char buf[32];
	unsigned order = 0, passes = 0;

	set_progname(argv[0]);
	if (read_small_file(
		    "/sys/kernel/mm/transparent_hugepage/hpage_pmd_size", buf,
		    sizeof(buf)) < 0 ||
	    (buf[strcspn(buf, "\n")] = '\0', parse_u64(buf, &hpage)) ||
	    hpage < page)
		die(EXIT_UNSUPPORTED, "no transparent huge pages here");
	keep = hpage;
	if (argc > 2 || (argc == 2 && (parse_size(argv[1], &keep) ||
				       keep < page || keep % page)))
		die(EXIT_USAGE, "usage: fragment [KEEP] (a multiple of the "
				"page size, e.g. 2M)");
	while ((page << order) < hpage)
		order++;
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	if (sigprocmask(SIG_BLOCK, &block, &old) ||
	    sigaction(SIGTERM, &sa, NULL) || sigaction(SIGINT, &sa, NULL))
		die_errno(EXIT_RUN_FAILED, "cannot handle signals");
	while ((left = huge_free(order, page)) >= hpage &&
	       passes < MAX_PASSES) {
		/* Never more than half of what is free at once. */
		if (left > mem_free() / 2)
			left = mem_free() / 2;
		if (left < hpage)
			left = hpage;
		kept += take(left - left % hpage, hpage, keep, page);
		split_huge_pages();
		passes++;
	}
	if (mlockall(MCL_CURRENT | MCL_ONFAULT))
		die_errno(EXIT_RUN_FAILED, "mlockall");
	printf("fragmented=1 passes=%u kept_pages=%" PRIu64
	       " huge_free_bytes=%" PRIu64 "\n",
	       passes, kept, huge_free(order, page));
	if (fflush(stdout))
		die_errno(EXIT_RUN_FAILED, "write error");
	(void)sigsuspend(&old); /* returns on SIGTERM or SIGINT */
	return EXIT_OK;
}
