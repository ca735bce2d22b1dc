/**
 * A captcha solver command for tests (FDS_CAPTCHA_COMMAND): a node script that reads the image on
 * its stdin and prints the code the fake CMF wrote into the PNG's tEXt chunk "captcha". It solves
 * only what it is given, so a flow that does not hand it the image fails.
 */
import { writeFileSync } from "node:fs"
import { join } from "node:path"

/** Writes the script into `dir` and returns the command line that runs it. */
export const writeSolver = (dir: string): string => {
  const script = join(dir, "solve.mjs")
  writeFileSync(
    script,
    `const parts = []
for await (const c of process.stdin) parts.push(c)
const png = Buffer.concat(parts)
for (let at = 8; at + 8 <= png.length; ) {
  const length = png.readUInt32BE(at)
  const type = png.toString("latin1", at + 4, at + 8)
  if (type === "tEXt") {
    const [key, value] = png.toString("latin1", at + 8, at + 8 + length).split("\\0")
    if (key === "captcha") { process.stdout.write(value + "\\n"); process.exit(0) }
  }
  at += 12 + length
}
process.stderr.write("no captcha text in the image\\n")
process.exit(3)
`,
  )
  return `"${process.execPath}" "${script}"`
}
