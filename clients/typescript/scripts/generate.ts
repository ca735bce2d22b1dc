/**
 * Writes src/openapi.d.ts, the types of the service's contract, from its /openapi.json with
 * openapi-typescript (tools/openapi-typescript: it needs the TypeScript 5 compiler API):
 *
 *   node clients/typescript/scripts/generate.ts [--from <URL or file of /openapi.json>] [--out <file>]
 *
 * `--from` defaults to $FDS_BASE_URL/openapi.json (http://127.0.0.1:8080 without it); `--out` to
 * src/openapi.d.ts beside this folder. The document needs no key. test/clients/typescript.test.ts
 * regenerates from a running server and fails when the checked-in file differs.
 */
import { readFile, writeFile } from "node:fs/promises"
import { fileURLToPath, pathToFileURL } from "node:url"
import { parseArgs } from "node:util"

const GENERATOR = new URL("../../../tools/openapi-typescript/node_modules/openapi-typescript/dist/index.mjs", import.meta.url)

const HEADER = `/**
 * The service's contract as types, generated from /openapi.json by clients/typescript/scripts/generate.ts
 * (openapi-typescript). Do not edit: run the script again.
 */

`

/** The types of an OpenAPI document (its JSON text), as the file's text. */
export const generate = async (document: string): Promise<string> => {
  // typed by hand: its own declarations would bring the TypeScript 5 compiler's into this check
  const { default: openapiTS, astToString } = (await import(GENERATOR.href)) as {
    readonly default: (schema: unknown) => Promise<unknown>
    readonly astToString: (ast: unknown) => string
  }
  return HEADER + astToString(await openapiTS(JSON.parse(document)))
}

const read = async (from: string): Promise<string> => {
  if (!/^https?:\/\//.test(from)) return readFile(from, "utf8")
  const response = await fetch(from)
  if (!response.ok) throw new Error(`${from}: HTTP ${response.status}`)
  return response.text()
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { values } = parseArgs({ options: { from: { type: "string" }, out: { type: "string" } } })
  const from = values.from ?? `${process.env.FDS_BASE_URL ?? "http://127.0.0.1:8080"}/openapi.json`
  const out = values.out ?? fileURLToPath(new URL("../src/openapi.d.ts", import.meta.url))
  await writeFile(out, await generate(await read(from)))
  console.log(`${from} → ${out}`)
}
