/**
 * The graph algorithms on their own: Tarjan's components on a graph deeper than any recursion
 * limit, the condensation, pruned simple paths in shortest-first order.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { condense, cyclic, reach, reverse, scc, simplePaths } from "../../src/graph/algorithms.js";

describe("graph algorithms", () => {
  it("finds components, in reverse topological order, without recursion on a 200,000-node chain", () => {
    // 0 -> 1 -> ... -> n-1 -> 0 is one component; a recursive Tarjan overflows the stack here.
    const n = 200_000;
    const out = Array.from({ length: n }, (_, i) => [(i + 1) % n]);
    const comps = scc(out);
    assert.equal(comps.length, 1);
    assert.equal(comps[0]?.length, n);
    // Two cycles joined by one edge, and a self loop.
    const g = [[1], [0, 2], [3], [2], [4]];
    const c = scc(g);
    assert.deepEqual(c, [[2, 3], [0, 1], [4]]);
    assert.ok(cyclic(g, [4]));
    assert.ok(!cyclic([[1], []], [1]));
    const dag = condense(g, c);
    assert.deepEqual(dag.edges, [[1, 0]]);
  });

  it("reaches by breadth, and says when --max-depth cut it", () => {
    const g = [[1, 2], [3], [3], []];
    assert.deepEqual([...reach(g, [0]).depth.entries()], [[0, 0], [1, 1], [2, 1], [3, 2]]);
    assert.equal(reach(g, [0], 1).cut, true);
    assert.deepEqual(reverse(g), [[], [0], [0], [1, 2]]);
  });

  it("lists simple paths shortest first, then by node order, and cuts at --max-paths", () => {
    // 0 -> 1 -> 4, 0 -> 2 -> 4, 0 -> 3 -> 2 -> 4, and a cycle 4 -> 0 that must not be followed.
    const g = [[1, 2, 3], [4], [4], [2], [0]];
    assert.deepEqual(simplePaths(g, 0, 4, 10, 10).paths, [
      [0, 1, 4],
      [0, 2, 4],
      [0, 3, 2, 4],
    ]);
    const cut = simplePaths(g, 0, 4, 10, 2);
    assert.equal(cut.cut, true);
    assert.deepEqual(cut.paths, [
      [0, 1, 4],
      [0, 2, 4],
    ]);
    assert.deepEqual(simplePaths(g, 0, 4, 1, 10).paths, []);
    assert.deepEqual(simplePaths([[1], [], []], 0, 2, 10, 10), { paths: [], cut: false });
  });
});
