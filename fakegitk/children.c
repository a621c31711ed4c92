// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The parent -> children map gitk builds to draw its graph: commit nodes
 * in an array, found through an open-addressing table of node indices
 * keyed by the commit id (ids are uniform, so their first bytes are a good
 * hash), and each node's children as a linked list of edges in one array.
 * Three big allocations whatever the history size, none per commit.
 */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fakegitk/fake-gitk.h"

#define NONE UINT32_MAX

void children_map_init(struct children_map *m)
{
	memset(m, 0, sizeof(*m));
}

static uint32_t id_hash(const git_oid *id)
{
	uint32_t h;

	memcpy(&h, id->id, sizeof(h));
	return h;
}

static int grow_table(struct children_map *m)
{
	uint32_t size = m->slot ? (m->mask + 1) * 2 : 1U << 16, i;
	uint32_t *slot;

	if (size == 0)
		return -ENOMEM;
	slot = calloc(size, sizeof(*slot));
	if (!slot)
		return -ENOMEM;
	for (i = 0; i < m->nnodes; i++) {
		uint32_t s = id_hash(&m->node[i].id) & (size - 1);

		while (slot[s])
			s = (s + 1) & (size - 1);
		slot[s] = i + 1;
	}
	free(m->slot);
	m->slot = slot;
	m->mask = size - 1;
	return 0;
}

uint32_t children_map_find(const struct children_map *m, const git_oid *id)
{
	uint32_t s;

	if (!m->slot)
		return NONE;
	for (s = id_hash(id) & m->mask; m->slot[s]; s = (s + 1) & m->mask)
		if (!git_oid_cmp(&m->node[m->slot[s] - 1].id, id))
			return m->slot[s] - 1;
	return NONE;
}

uint32_t children_map_intern(struct children_map *m, const git_oid *id,
			     bool *added)
{
	struct commit_node *n;
	uint32_t s;

	*added = false;
	/* Keep the table at most 5/8 full so probes stay short. */
	if (!m->slot || (uint64_t)(m->nnodes + 1) * 8 > (uint64_t)m->mask * 5)
		if (grow_table(m))
			return NONE;
	for (s = id_hash(id) & m->mask; m->slot[s]; s = (s + 1) & m->mask)
		if (!git_oid_cmp(&m->node[m->slot[s] - 1].id, id))
			return m->slot[s] - 1;
	if (m->nnodes == m->node_cap) {
		uint32_t cap = m->node_cap ? m->node_cap * 2 : 1U << 15;

		if (cap <= m->node_cap)
			return NONE;
		n = realloc(m->node, (size_t)cap * sizeof(*n));
		if (!n)
			return NONE;
		m->node = n;
		m->node_cap = cap;
	}
	n = &m->node[m->nnodes];
	memset(n, 0, sizeof(*n));
	git_oid_cpy(&n->id, id);
	n->first_child = NONE;
	m->slot[s] = ++m->nnodes;
	*added = true;
	return m->nnodes - 1;
}

int children_map_add_edge(struct children_map *m, uint32_t parent,
			  uint32_t child)
{
	struct child_edge *e;

	if (m->nedges == m->edge_cap) {
		uint64_t cap = m->edge_cap ? m->edge_cap * 2 : 1U << 15;

		e = realloc(m->edge, cap * sizeof(*e));
		if (!e)
			return -ENOMEM;
		m->edge = e;
		m->edge_cap = cap;
	}
	e = &m->edge[m->nedges];
	e->child = child;
	e->next = m->node[parent].first_child;
	m->node[parent].first_child = (uint32_t)m->nedges++;
	m->node[parent].nchildren++;
	return 0;
}

void children_map_release(struct children_map *m)
{
	free(m->node);
	free(m->slot);
	free(m->edge);
	children_map_init(m);
}
