/** The sample's curated series renames (`series_renames.txt`, `RUN;OLD_SERIE;NEW_SERIE;FIRST_DATE`). */
import { writeFile } from "node:fs/promises"
import { join } from "node:path"
import { isoOf } from "../Calendar.ts"
import type { ExtrasContext } from "./ExtrasContext.ts"

/**
 * One line per renamed series of the universe (fund 0: B → BPRIV from its first business day on
 * or after 2024-03-01). Fund 1's absorbed series is not a rename and is not listed.
 */
export const writeRenamesFile = async (ctx: ExtrasContext): Promise<string> => {
  const lines = ["RUN;OLD_SERIE;NEW_SERIE;FIRST_DATE"]
  for (const s of ctx.universe.series) {
    if (s.renamed !== null) lines.push(`${s.fund.run};${s.label};${s.renamed.label};${isoOf(s.renamed.from)}`)
  }
  const path = join(ctx.out, "series_renames.txt")
  await writeFile(path, Buffer.from(lines.join("\n") + "\n", "latin1"))
  return path
}
