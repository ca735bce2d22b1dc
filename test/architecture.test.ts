/**
 * The layering of DESIGN.md: schemas ← snapshots ← pipeline | api | accounts. api/ and pipeline/
 * meet only in snapshots/ and schemas/; accounts/ (keys, quotas, users, mail, alerts) is its own
 * product that the server (api/) and the daemon (ops/) compose, and it knows neither of them. The
 * composition root ops/ is imported by nothing.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join, relative } from "node:path"
import { describe, expect, it } from "vitest"

const root = join(import.meta.dirname, "..")
const sources = (dir: string): string[] =>
  readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts"))
    .map((e) => join(e.parentPath, e.name))

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

  // One snapshot handle (SnapshotHandle.ts) is the leaf the swap, the past batches and the store
  // build on; a type import counts, since a circle of types is a circle of concepts.
  it("api/snapshot/ has no import cycle, type-only imports included", () => {
    const folder = "api/snapshot/"
    const edges = new Map(
      sources(folder).map((file) => [relative(root, file), importsOf(file).filter((target) => target.startsWith(folder))] as const),
    )
    const cycles: string[] = []
    const state = new Map<string, "visiting" | "done">()
    const visit = (file: string, path: ReadonlyArray<string>): void => {
      if (state.get(file) === "done") return
      if (state.get(file) === "visiting") {
        cycles.push([...path.slice(path.indexOf(file)), file].join(" → "))
        return
      }
      state.set(file, "visiting")
      for (const target of edges.get(file) ?? []) visit(target, [...path, file])
      state.set(file, "done")
    }
    for (const file of [...edges.keys()].sort()) visit(file, [])
    expect(cycles).toEqual([])
  })
})
