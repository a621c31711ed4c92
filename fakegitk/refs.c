// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The refs a load starts from (all refs and HEAD, as gitk --all) and
 * --list-refs, which prints them so that a driver can tell a changed
 * repository.  libgit2's ref iterator silently skips a loose ref file it
 * cannot parse (and then shows the packed ref that file shadowed), where git
 * stops with "bad object": the loose refs are therefore checked here first
 * and a broken one is an error, never a quietly smaller history.  The list
 * is sorted by name, so the order of the walk does not depend on which refs
 * happen to be packed.
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <git2.h>

#include "lib/err.h"
#include "lib/xalloc.h"

#include "fakegitk/fake-gitk.h"

struct ref_list {
	git_repository *repo;
	const char *repo_path;
	git_odb *odb; /* set when objects are checked */
	struct ref_tip *tip;
	size_t n, cap;
};

/* One loose ref file NAME: skipped as git skips it, or looked up. */
static int check_loose_ref(const struct ref_list *l, const char *name)
{
	size_t len = strlen(name);
	git_reference *ref;
	int valid = 0, r;

	/* A ref being updated right now; git ignores these too. */
	if (len > 5 && !strcmp(name + len - 5, ".lock"))
		return 0;
	if (git_reference_name_is_valid(&valid, name) || !valid) {
		warn("repository '%s': ignoring ref with broken name '%s'",
		     l->repo_path, name);
		return 0;
	}
	r = git_reference_lookup(&ref, l->repo, name);
	if (r == GIT_ENOTFOUND)
		return 0; /* deleted since the directory was read */
	if (r)
		return git_fail("repository '%s': bad ref '%s'", l->repo_path,
				name);
	git_reference_free(ref);
	return 0;
}

static int link_to_dir(const struct ref_list *l, const char *name)
{
	git_error_set_str(GIT_ERROR_REFERENCE, "a link to a directory");
	return git_fail("repository '%s': bad ref '%s'", l->repo_path, name);
}

/* Check the loose refs in directory PATH, whose ref prefix is NAME. */
static int check_loose_dir(const struct ref_list *l, const char *path,
			   const char *name)
{
	DIR *d = opendir(path);
	struct dirent *de;
	int r = 0;

	if (!d)
		return errno == ENOENT ? 0
				       : error_errno("repository '%s': cannot "
						     "read '%s'",
						     l->repo_path, path);
	while (!r && (de = readdir(d))) {
		char *sub, *subname;
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		sub = xasprintf("%s/%s", path, de->d_name);
		subname = xasprintf("%s/%s", name, de->d_name);
		/* A symbolic link is a ref (old git wrote symrefs so). */
		if (lstat(sub, &st))
			r = errno == ENOENT ? 0
					    : error_errno("repository '%s': "
							  "cannot read '%s'",
							  l->repo_path, sub);
		else if (S_ISDIR(st.st_mode))
			r = check_loose_dir(l, sub, subname);
		else if (S_ISLNK(st.st_mode) && !stat(sub, &st) &&
			 S_ISDIR(st.st_mode))
			/* libgit2 follows it, loops and loses refs. */
			r = link_to_dir(l, subname);
		else
			r = check_loose_ref(l, subname);
		free(sub);
		free(subname);
	}
	closedir(d);
	return r;
}

/* Add NAME -> ID, first checking that the object is there if asked. */
static int add(struct ref_list *l, const char *name, const git_oid *id)
{
	if (l->odb && !git_odb_exists(l->odb, id)) {
		char hex[GIT_OID_HEXSZ + 1];

		git_error_set_str(GIT_ERROR_ODB, "object not found");
		return git_fail("repository '%s': bad object %s of ref '%s'",
				l->repo_path,
				git_oid_tostr(hex, sizeof(hex), id), name);
	}
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 64;
		l->tip = xreallocarray(l->tip, l->cap, sizeof(*l->tip));
	}
	l->tip[l->n].name = xstrdup(name);
	git_oid_cpy(&l->tip[l->n].oid, id);
	l->n++;
	return 0;
}

/* Resolve REF and add it; a dangling symbolic ref is skipped. */
static int add_ref(struct ref_list *l, git_reference *ref)
{
	const char *name = git_reference_name(ref);
	git_reference *res;
	int r = git_reference_resolve(&res, ref);

	if (r == GIT_ENOTFOUND) {
		/* An unborn HEAD is normal; git skips the others quietly. */
		if (strcmp(name, "HEAD"))
			warn("repository '%s': ignoring dangling symbolic "
			     "ref '%s'",
			     l->repo_path, name);
		return 0;
	}
	if (r)
		return git_fail("repository '%s': bad ref '%s'", l->repo_path,
				name);
	r = add(l, name, git_reference_target(res));
	git_reference_free(res);
	return r;
}

static int by_name(const void *a, const void *b)
{
	const struct ref_tip *x = a, *y = b;

	return strcmp(x->name, y->name);
}

static int collect(struct ref_list *l)
{
	git_reference_iterator *it;
	git_reference *ref;
	char *refs_dir;
	int r, e = 0;

	refs_dir = xasprintf("%srefs", git_repository_commondir(l->repo));
	r = check_loose_dir(l, refs_dir, "refs");
	free(refs_dir);
	if (r)
		return r;
	if (git_reference_iterator_new(&it, l->repo))
		return git_fail("repository '%s': cannot list refs",
				l->repo_path);
	while (!r && (e = git_reference_next(&ref, it)) == 0) {
		r = add_ref(l, ref);
		git_reference_free(ref);
	}
	git_reference_iterator_free(it);
	if (!r && e != GIT_ITEROVER)
		return git_fail("repository '%s': cannot list refs",
				l->repo_path);
	/* HEAD is part of --all: a detached one adds its own commits. */
	if (!r && git_reference_lookup(&ref, l->repo, "HEAD") == 0) {
		r = add_ref(l, ref);
		git_reference_free(ref);
	}
	return r;
}

int refs_collect(git_repository *repo, const char *repo_path,
		 bool check_objects, struct ref_tip **out, size_t *n)
{
	struct ref_list l;
	int r;

	memset(&l, 0, sizeof(l));
	l.repo = repo;
	l.repo_path = repo_path;
	if (check_objects && git_repository_odb(&l.odb, repo))
		return git_fail("repository '%s': cannot open its objects",
				repo_path);
	r = collect(&l);
	git_odb_free(l.odb);
	if (r) {
		refs_free(l.tip, l.n);
		return r;
	}
	if (l.n) /* qsort wants an array, even of nothing */
		qsort(l.tip, l.n, sizeof(*l.tip), by_name);
	*out = l.tip;
	*n = l.n;
	return 0;
}

void refs_free(struct ref_tip *tips, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(tips[i].name);
	free(tips);
}

int list_refs(const char *repo_path)
{
	git_repository *repo;
	struct ref_tip *tips;
	size_t n, i;
	int r;

	if (git_repository_open_ext(&repo, repo_path,
				    GIT_REPOSITORY_OPEN_NO_SEARCH, NULL)) {
		git_fail("cannot open repository '%s'", repo_path);
		return EXIT_RUN_FAILED;
	}
	r = refs_collect(repo, repo_path, true, &tips, &n);
	git_repository_free(repo);
	if (r)
		return EXIT_RUN_FAILED;
	for (i = 0; i < n; i++) {
		char hex[GIT_OID_HEXSZ + 1];

		printf("%s %s\n", git_oid_tostr(hex, sizeof(hex), &tips[i].oid),
		       tips[i].name);
	}
	refs_free(tips, n);
	return EXIT_OK;
}
