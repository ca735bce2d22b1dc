/**
 * The layering of DESIGN.md: schemas ← snapshots ← pipeline | api | accounts. api/ and pipeline/
 * meet only in snapshots/ and schemas/; accounts/ (keys, quotas, users, mail, alerts) is its own
 * product that the server (api/) and the daemon (ops/) compose, and it knows neither of them. The
 * composition root ops/ is imported by nothing. Inside and across the folders no module reaches
 * itself through its imports, type-only ones included: a type lives with the side that owns it.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join, relative } from "node:path"
import { describe, expect, it } from "vitest"

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
})
