/**
 * How far a route's handler is from its computation, read from the code's relative imports:
 * the files that lie on some import path from FROM to TO (what a reader opens to follow the route),
 * and the shortest and the longest such path in hops.
 *
 *   node scripts/import-path.ts FROM TO [--list]
 *   node scripts/import-path.ts api/returns/Returns.ts snapshots/compute/Returns.ts
 *
 * Paths are from the project root. Import loops are not followed twice.
 */
import { readdirSync, readFileSync } from "node:fs"
import { dirname, join, normalize, relative } from "node:path"

const root = join(import.meta.dirname, "..")
const [from, to] = process.argv.slice(2).filter((a) => !a.startsWith("--"))
if (from === undefined || to === undefined) {
  console.error("usage: node scripts/import-path.ts FROM TO [--list]")
  process.exit(2)
}

const files = ["schemas", "snapshots", "pipeline", "api", "accounts", "ops", "replica"].flatMap((dir) => {
  try {
    return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
      .filter((e) => e.isFile() && e.name.endsWith(".ts"))
      .map((e) => relative(root, join(e.parentPath, e.name)))
  } catch {
    return []
  }
})
const imports = new Map<string, string[]>(
  files.map((file) => [
    file,
    [...readFileSync(join(root, file), "utf8").matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)].map((m) =>
      normalize(join(dirname(file), m[1]!)),
    ),
  ]),
)

const reachable = (start: string): Set<string> => {
  const seen = new Set([start])
  const stack = [start]
  while (stack.length > 0) {
    for (const next of imports.get(stack.pop()!) ?? []) {
      if (!seen.has(next)) {
        seen.add(next)
        stack.push(next)
      }
    }
  }
  return seen
}

const onPath = new Set([...reachable(from)].filter((file) => reachable(file).has(to)))
const longest = new Map<string, number>()
const hops = (file: string, visiting: Set<string>): number => {
  if (file === to) return 0
  const known = longest.get(file)
  if (known !== undefined) return known
  visiting.add(file)
  let best = Number.NEGATIVE_INFINITY
  for (const next of imports.get(file) ?? []) {
    if (onPath.has(next) && !visiting.has(next)) best = Math.max(best, 1 + hops(next, visiting))
  }
  visiting.delete(file)
  longest.set(file, best)
  return best
}

const shortest = (): number => {
  const depth = new Map([[from, 0]])
  const queue = [from]
  for (let i = 0; i < queue.length; i++) {
    const file = queue[i]!
    if (file === to) return depth.get(file)!
    for (const next of imports.get(file) ?? []) {
      if (!depth.has(next)) {
        depth.set(next, depth.get(file)! + 1)
        queue.push(next)
      }
    }
  }
  return Number.NaN
}

console.log(`${from} -> ${to}: ${onPath.size} files on an import path, shortest ${shortest()} hops, longest ${hops(from, new Set())}`)
if (process.argv.includes("--list")) for (const file of [...onPath].sort()) console.log(`  ${file}`)
