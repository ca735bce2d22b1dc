/**
 * `./fds verify --from URL [--key K] [--batch ID] [--back N | --to BATCH] [--pubkey FILE]
 * [--files DIR] [--timeout SECONDS]`: checks a server's signed releases (ops/VerifyRelease.ts).
 * `--files DIR`: the batch's files as downloaded before (named as the release names them), checked
 * there instead of downloaded. `--pubkey FILE`: the public key pinned (a private key is refused);
 * without it the server's own key is used, with a warning on stderr. `--timeout`: how long an
 * answer may keep verify waiting (default 30 s). The API key: `--key`, else FDS_VERIFY_KEY (read
 * redacted). Exit 0 when every check holds, 1 naming the first that failed (one line, no stack),
 * 2 for bad arguments.
 */
import { readFileSync, statSync } from "node:fs"
import { parseArgs } from "node:util"
import { Config, Redacted } from "effect"
import { isBatchId } from "../schemas/Batches.ts"
import { readSettings } from "../pipeline/Settings.ts"
import { publicKeyOf, VerifyFailed, verifyReleases } from "./VerifyRelease.ts"

const usage =
  "usage: verify --from URL [--key K] [--batch ID] [--back N | --to BATCH] [--pubkey FILE] [--files DIR] [--timeout SECONDS]   (FDS_VERIFY_KEY: the API key)"

/** The largest key file read (a PEM public key is a few hundred bytes). */
const MAX_PUBKEY_BYTES = 16 * 1024

export const verifyCommand = async (argv: ReadonlyArray<string>): Promise<number> => {
  let values: Record<string, string | undefined>
  try {
    values = parseArgs({
      args: [...argv],
      options: {
        from: { type: "string" },
        key: { type: "string" },
        batch: { type: "string" },
        back: { type: "string" },
        to: { type: "string" },
        pubkey: { type: "string" },
        files: { type: "string" },
        timeout: { type: "string" },
      },
    }).values
  } catch (e) {
    console.error(`fds verify: ${(e as Error).message}\n${usage}`)
    return 2
  }
  const bad = (why: string) => {
    console.error(`fds verify: ${why}\n${usage}`)
    return 2
  }
  if (values.from === undefined || !URL.canParse(values.from)) return bad("--from takes the server's URL")
  if (values.back !== undefined && values.to !== undefined) return bad("--back and --to exclude each other")
  const back = values.back === undefined ? null : Number(values.back)
  if (back !== null && !(Number.isSafeInteger(back) && back >= 0)) return bad("--back takes a whole number of links, 0 or more")
  for (const [name, id] of [["--to", values.to], ["--batch", values.batch]] as const) {
    if (id !== undefined && !isBatchId(id)) return bad(`${name} takes a batch id (<date>-<16 hex digits>)`)
  }
  const timeout = Number(values.timeout ?? "30")
  if (values.timeout === "" || !(Number.isFinite(timeout) && timeout > 0 && timeout <= 3600)) return bad("--timeout takes a number of seconds, more than 0 and at most 3600")
  let apiKey = values.key ?? ""
  if (apiKey === "") {
    try {
      apiKey = Redacted.value(readSettings(Config.Redacted("FDS_VERIFY_KEY").pipe(Config.withDefault(Redacted.make("")))))
    } catch (e) {
      return bad((e as Error).message)
    }
  }
  if (apiKey === "") return bad("an API key of the server is needed: --key or FDS_VERIFY_KEY")
  let publicKeyPem: string | null = null
  if (values.pubkey !== undefined) {
    try {
      const size = statSync(values.pubkey).size
      if (size > MAX_PUBKEY_BYTES) return bad(`${values.pubkey} is ${size} bytes: not a PEM public key (at most ${MAX_PUBKEY_BYTES})`)
      publicKeyPem = readFileSync(values.pubkey, "utf8")
    } catch (e) {
      return bad(`cannot read ${values.pubkey}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`)
    }
    try {
      publicKeyOf(publicKeyPem, values.pubkey)
    } catch (e) {
      return bad((e as Error).message)
    }
  }
  try {
    const checked = await verifyReleases({
      from: values.from,
      apiKey,
      batch: values.batch ?? null,
      publicKeyPem,
      files: values.files ?? null,
      to: values.to ?? null,
      back,
      timeoutMs: timeout * 1000,
      say: (line) => console.log(line),
      warn: (line) => console.error(line),
    })
    console.log(`verified: ${checked[0]} and its files; the chain back to ${checked.at(-1)} (${checked.length} release(s))`)
    return 0
  } catch (e) {
    // whatever went wrong, one line naming it: a hostile or foreign server is no reason for a stack trace
    const message = e instanceof VerifyFailed ? e.message : `unexpected error checking ${values.from}: ${e instanceof Error ? e.message : String(e)}`
    console.error(`verify failed: ${message.replace(/\s+/g, " ")}`)
    return 1
  }
}
