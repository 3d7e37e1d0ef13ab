// The states of the game the history viewer shows, fetched a page at a time as they are needed
// (issue 46: a long Njaka game's states are many megabytes, a page is a few states): a stored
// game's from GET /api/games/<id>/positions?from=, an imported record's from POST
// /api/records/<key>/positions?from= (analysis_api.js). Pages answer {from, total, states, next}.
//
// first: the page from position 0. get(v): state v if it is here (else undefined); load(v):
// makes states v - 1 and v here (a step to v is animated from v - 1); entries(): [v, state] of
// every state here.
export function createPositions(source, first) {
  const known = new Map();
  const keep = (page) => page.states.forEach((state, k) => known.set(page.from + k, state));
  keep(first);
  const fetchFrom = async (from) => keep(await source.positions(from));
  return {
    total: first.total,
    get: (v) => known.get(v),
    entries: () => [...known],
    async load(v) {
      if (v > 0 && !known.has(v - 1)) await fetchFrom(v - 1);
      if (!known.has(v)) await fetchFrom(v);
    },
  };
}
