/**
 * Graph algorithms over an adjacency of numbered nodes: pure functions, no database. Nodes are
 * 0..n-1; `out[v]` lists v's successors. Every function is iterative (a call graph of a large
 * repository is deeper than any recursion limit) and deterministic: neighbours are visited in
 * ascending order, so the same graph gives the same answer byte for byte.
 */

export type Adjacency = number[][];

/** The adjacency with every edge turned around, successor lists sorted. */
export function reverse(out: Adjacency): Adjacency {
  const inn: Adjacency = out.map(() => []);
  out.forEach((succ, v) => {
    for (const w of succ) (inn[w] as number[]).push(v);
  });
  for (const l of inn) l.sort((a, b) => a - b);
  return inn;
}

export interface Reach {
  /** depth of each reached node (the starts at 0), in the order reached. */
  depth: Map<number, number>;
  /** true when a node beyond maxDepth was left unvisited. */
  cut: boolean;
}

/** Breadth-first reach from the starts, up to maxDepth edges (Infinity: all). */
export function reach(out: Adjacency, starts: number[], maxDepth = Infinity): Reach {
  const depth = new Map<number, number>();
  let frontier = [...new Set(starts)].sort((a, b) => a - b);
  for (const s of frontier) depth.set(s, 0);
  let d = 0;
  let cut = false;
  while (frontier.length > 0) {
    const next: number[] = [];
    for (const v of frontier) {
      for (const w of out[v] ?? []) {
        if (depth.has(w)) continue;
        if (d + 1 > maxDepth) {
          cut = true;
          continue;
        }
        depth.set(w, d + 1);
        next.push(w);
      }
    }
    frontier = next;
    d++;
  }
  return { depth, cut };
}

/**
 * Strongly connected components (Tarjan), iteratively with an explicit stack. Components come
 * in reverse topological order of the condensation (a component before any that reaches it),
 * each with its members ascending.
 */
export function scc(out: Adjacency): number[][] {
  const n = out.length;
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const stack: number[] = [];
  const comps: number[][] = [];
  let counter = 0;
  // Each frame: the node and the position of the next successor to look at.
  const callV: number[] = [];
  const callI: number[] = [];
  for (let root = 0; root < n; root++) {
    if (index[root] !== -1) continue;
    callV.push(root);
    callI.push(0);
    index[root] = low[root] = counter++;
    stack.push(root);
    onStack[root] = 1;
    while (callV.length > 0) {
      const top = callV.length - 1;
      const v = callV[top] as number;
      const succ = out[v] ?? [];
      const i = callI[top] as number;
      if (i < succ.length) {
        callI[top] = i + 1;
        const w = succ[i] as number;
        if (index[w] === -1) {
          index[w] = low[w] = counter++;
          stack.push(w);
          onStack[w] = 1;
          callV.push(w);
          callI.push(0);
        } else if (onStack[w]) {
          low[v] = Math.min(low[v] as number, index[w] as number);
        }
        continue;
      }
      // v is done: pop its frame, pass its low link to its parent, close its component if root.
      callV.pop();
      callI.pop();
      if (callV.length > 0) {
        const p = callV[callV.length - 1] as number;
        low[p] = Math.min(low[p] as number, low[v] as number);
      }
      if (low[v] === index[v]) {
        const comp: number[] = [];
        let w: number;
        do {
          w = stack.pop() as number;
          onStack[w] = 0;
          comp.push(w);
        } while (w !== v);
        comps.push(comp.sort((a, b) => a - b));
      }
    }
  }
  return comps;
}

/** A cycle: a component of more than one node, or one node with an edge to itself. */
export function cyclic(out: Adjacency, comp: number[]): boolean {
  if (comp.length > 1) return true;
  const v = comp[0] as number;
  return (out[v] ?? []).includes(v);
}

export interface Condensation {
  /** component of each node */
  compOf: Int32Array;
  comps: number[][];
  /** edges between components, [from, to] ascending, no self edges, each once */
  edges: [number, number][];
}

/** The DAG of strongly connected components. */
export function condense(out: Adjacency, comps = scc(out)): Condensation {
  const compOf = new Int32Array(out.length);
  comps.forEach((c, i) => {
    for (const v of c) compOf[v] = i;
  });
  const seen = new Set<string>();
  const edges: [number, number][] = [];
  out.forEach((succ, v) => {
    for (const w of succ) {
      const a = compOf[v] as number;
      const b = compOf[w] as number;
      if (a === b) continue;
      const k = `${a},${b}`;
      if (seen.has(k)) continue;
      seen.add(k);
      edges.push([a, b]);
    }
  });
  edges.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  return { compOf, comps, edges };
}

export interface Paths {
  paths: number[][];
  /** more paths existed than maxPaths, or the search budget ran out */
  cut: boolean;
}

/**
 * Simple paths from `from` to `to` of at most maxDepth edges, shortest first, then by their
 * node sequence; at most maxPaths. A node is entered only when `to` is still within reach of it
 * in the remaining depth (distances from a reverse breadth-first search), so the depth-first
 * enumeration explores no dead branch. `budget` bounds the work on graphs dense with paths.
 */
export function simplePaths(out: Adjacency, from: number, to: number, maxDepth: number, maxPaths: number, budget = 1_000_000): Paths {
  const back = reach(reverse(out), [to], maxDepth).depth;
  if (!back.has(from)) return { paths: [], cut: false };
  const found: number[][] = [];
  let cut = false;
  let steps = 0;
  // Enumerate by increasing length so the shortest come first and a cut keeps them.
  for (let len = back.get(from) as number; len <= maxDepth && !cut; len++) {
    const path = [from];
    const onPath = new Set([from]);
    const iters: number[] = [0];
    while (path.length > 0) {
      if (++steps > budget) {
        cut = true;
        break;
      }
      const v = path[path.length - 1] as number;
      const used = path.length - 1;
      if (v === to) {
        if (used === len) found.push([...path]);
        onPath.delete(path.pop() as number);
        iters.pop();
        if (found.length > maxPaths) break;
        continue;
      }
      const succ = out[v] ?? [];
      const top = iters.length - 1;
      let advanced = false;
      while ((iters[top] as number) < succ.length) {
        const w = succ[iters[top] as number] as number;
        iters[top] = (iters[top] as number) + 1;
        const dist = back.get(w);
        if (onPath.has(w) || dist === undefined || used + 1 + dist > len) continue;
        path.push(w);
        onPath.add(w);
        iters.push(0);
        advanced = true;
        break;
      }
      if (!advanced) {
        onPath.delete(path.pop() as number);
        iters.pop();
      }
    }
    if (found.length > maxPaths) {
      cut = true;
      break;
    }
  }
  return { paths: found.slice(0, maxPaths), cut };
}
