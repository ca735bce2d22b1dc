/**
 * The layering of DESIGN.md: schemas ← snapshots ← pipeline | api | accounts. api/ and pipeline/
 * meet only in snapshots/ and schemas/; accounts/ (keys, quotas, users, mail, alerts) is its own
 * product that the server (api/) and the daemon (ops/) compose, and it knows neither of them. The
 * composition root ops/ is imported by nothing. Inside and across the folders no module reaches
 * itself through its imports, type-only ones included: a type lives with the side that owns it.
 *
 * Inside pipeline/, a data set is one file of `pipeline/datasets/<group>/` (its record, detect,
 * parse, key, fetch, stage), registered in `pipeline/datasets/Registry.ts`; the CMF format helpers
 * are `pipeline/cmf/`. The run asks the registry for roles (daily values, whole history, ...) and
 * names no data set; the data sets and the helpers never reach back into the run.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join, relative } from "node:path"
import { describe, expect, it } from "vitest"
import { DataSetName } from "../pipeline/datasets/DataSetName.ts"

const root = join(import.meta.dirname, "..")
const sources = (dir: string): string[] =>
  readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts"))
    .map((e) => join(e.parentPath, e.name))

/** Every relative specifier: `import`, `import type`, `export … from`, `import("./x")`. */
const importsOf = (file: string): string[] =>
  [...readFileSync(file, "utf8").matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)].map((m) =>
    relative(root, join(file, "..", m[1]!)),
  )

const forbidden: Record<string, ReadonlyArray<string>> = {
  schemas: ["snapshots/", "pipeline/", "api/", "accounts/", "ops/", "test/"],
  snapshots: ["pipeline/", "api/", "accounts/", "ops/", "test/"],
  pipeline: ["api/", "accounts/", "ops/", "test/"],
  api: ["pipeline/", "ops/", "test/"],
  accounts: ["api/", "pipeline/", "ops/", "test/"],
  ops: ["test/"],
}

/** The strongly connected components of more than one file (or a file importing itself). */
const circles = (graph: ReadonlyMap<string, ReadonlyArray<string>>): string[][] => {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  const visit = (v: string): void => {
    index.set(v, index.size)
    low.set(v, index.get(v)!)
    stack.push(v)
    onStack.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) !== index.get(v)) return
    const component: string[] = []
    for (let w = stack.pop()!; ; w = stack.pop()!) {
      onStack.delete(w)
      component.push(w)
      if (w === v) break
    }
    if (component.length > 1 || graph.get(v)?.includes(v)) found.push(component.sort())
  }
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v)
  return found
}

/** A shortest cycle through a file inside its component, as the files along it. */
const cyclePath = (
  graph: ReadonlyMap<string, ReadonlyArray<string>>,
  component: ReadonlyArray<string>,
  start: string,
): string[] => {
  const inside = new Set(component)
  const previous = new Map<string, string>()
  const queue = [start]
  for (let i = 0; i < queue.length; i++) {
    const v = queue[i]!
    for (const w of graph.get(v) ?? []) {
      if (!inside.has(w)) continue
      if (w === start) {
        const path = [start]
        for (let u: string | undefined = v; u !== undefined && u !== start; u = previous.get(u)) path.unshift(u)
        return path
      }
      if (!previous.has(w)) {
        previous.set(w, v)
        queue.push(w)
      }
    }
  }
  return [...component]
}

/** A cycle written from its first file in sort order, so each is printed once. */
const printed = (cycle: ReadonlyArray<string>): string => {
  const first = cycle.indexOf([...cycle].sort()[0]!)
  const from = [...cycle.slice(first), ...cycle.slice(0, first)]
  return [...from, from[0]].join(" → ")
}

describe("architecture", () => {
  for (const [folder, banned] of Object.entries(forbidden)) {
    it(`${folder}/ imports none of ${banned.join(", ")}`, () => {
      const offending = sources(folder).flatMap((file) =>
        importsOf(file)
          .filter((target) => banned.some((b) => target.startsWith(b)))
          .map((target) => `${relative(root, file)} → ${target}`),
      )
      expect(offending).toEqual([])
    })
  }

  // a type import counts: a circle of types is a circle of concepts
  it("no import circles across schemas, snapshots, pipeline, api, accounts, ops", () => {
    const graph = new Map(
      Object.keys(forbidden)
        .flatMap(sources)
        .map((file) => [relative(root, file), importsOf(file)] as const),
    )
    // each circle as the shortest way back through each of its files, so a big one shows its arrows
    const found = circles(graph).flatMap((c) => [...new Set(c.map((file) => `${c.length} files: ${printed(cyclePath(graph, c, file))}`))])
    expect(found).toEqual([])
  })

  // a folder (or a top-level file) of pipeline/ as one node: e.g. a data set that reaches the run,
  // even through another folder, would draw the run into the data sets
  it("no import circles between pipeline's folders", () => {
    const unit = (file: string): string => {
      const parts = file.split("/")
      return parts.length > 2 ? `${parts[0]}/${parts[1]}/` : file
    }
    const edges = new Map<string, Set<string>>()
    for (const file of sources("pipeline")) {
      const from = unit(relative(root, file))
      for (const target of importsOf(file).filter((t) => t.startsWith("pipeline/"))) {
        if (unit(target) !== from) edges.set(from, (edges.get(from) ?? new Set()).add(unit(target)))
      }
    }
    const graph = new Map([...edges].map(([k, v]) => [k, [...v]] as const))
    const found = circles(graph).map((c) => `${c.length} folders: ${printed(cyclePath(graph, c, c[0]!))}`)
    expect(found).toEqual([])
  })

  it("pipeline/cmf/ imports nothing of pipeline/ outside it: the format helpers know no data set", () => {
    const offending = sources("pipeline/cmf").flatMap((file) =>
      importsOf(file)
        .filter((t) => t.startsWith("pipeline/") && !t.startsWith("pipeline/cmf/"))
        .map((t) => `${relative(root, file)} → ${t}`),
    )
    expect(offending).toEqual([])
  })

  // api/ and snapshots/ are left out: their table and route names ("article107", "cmf_spheres",
  // "benchmark_prices", ...) are the published ones, which happen to spell some data sets' names
  it("no data set is named in pipeline/ outside pipeline/datasets/, nor its module imported from outside", () => {
    const names = new Set<string>(DataSetName.literals)
    const outside = (file: string) => !relative(root, file).startsWith("pipeline/datasets/")
    const named = sources("pipeline")
      .filter(outside)
      .flatMap((file) =>
        [...readFileSync(file, "utf8").matchAll(/(["'`])([a-z0-9_]+)\1/g)]
          .filter((m) => names.has(m[2]!))
          .map((m) => `${relative(root, file)}: ${m[0]}`),
      )
    const imported = Object.keys(forbidden)
      .flatMap(sources)
      .filter(outside)
      .flatMap((file) =>
        importsOf(file)
          .filter((t) => /^pipeline\/datasets\/[^/]+\//.test(t))
          .map((t) => `${relative(root, file)} → ${t}`),
      )
    expect([...named, ...imported]).toEqual([])
  })

  it("the registry imports only data sets and pipeline/cmf/, and reaches nothing of the run", () => {
    const registry = join(root, "pipeline/datasets/Registry.ts")
    const direct = importsOf(registry).filter((t) => !t.startsWith("pipeline/datasets/") && !t.startsWith("pipeline/cmf/"))
    // what the data sets stand on: their helpers, the CMF's HTTP (fetch/) and the settings it reads
    const allowed = ["pipeline/datasets/", "pipeline/cmf/", "pipeline/fetch/", "pipeline/Settings.ts", "schemas/", "snapshots/"]
    const reached = new Set<string>()
    const queue = [relative(root, registry)]
    for (let i = 0; i < queue.length; i++) {
      for (const t of importsOf(join(root, queue[i]!))) {
        if (reached.has(t)) continue
        reached.add(t)
        if (t.startsWith("pipeline/")) queue.push(t)
      }
    }
    const run = [...reached].filter((t) => !allowed.some((a) => t.startsWith(a))).sort()
    expect({ direct, run }).toEqual({ direct: [], run: [] })
  })
})
