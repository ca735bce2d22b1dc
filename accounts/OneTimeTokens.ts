/**
 * One-time tokens (registration links, magic links, login codes): 256 random bits, base64url, sent
 * or handed out once; only their SHA-256 is stored. Redeeming marks the row used in the same
 * statement that finds it, so a token works exactly once even under concurrent requests.
 */
import { createHash, randomBytes } from "node:crypto"
import type { Kysely } from "kysely"
import type { AccountsDatabase, LoginTokensTable } from "./AccountsTables.ts"

export type TokenKind = LoginTokensTable["kind"]

export const newToken = (): string => randomBytes(32).toString("base64url")

export const sha256 = (text: string): string => createHash("sha256").update(text, "utf8").digest("hex")

/** Stores a new token of `kind` for `email`; returns the clear token (to mail or hand out). */
export const issueToken = async (
  db: Kysely<AccountsDatabase>,
  opts: {
    readonly kind: TokenKind
    readonly email: string
    readonly returnUrl: string | null
    readonly subject?: string | undefined
    readonly ttlMs: number
  },
  nowMs: number,
): Promise<string> => {
  const token = newToken()
  await db
    .insertInto("login_tokens")
    .values({
      token_hash: sha256(token),
      kind: opts.kind,
      email: opts.email,
      return_url: opts.returnUrl,
      subject: opts.subject ?? null,
      created_ms: nowMs,
      expires_ms: nowMs + opts.ttlMs,
      used_ms: null,
    })
    .execute()
  // Expired rows carry nothing useful; drop them as new ones come.
  await db.deleteFrom("login_tokens").where("expires_ms", "<", nowMs - 86_400_000).execute()
  return token
}

/** Uses a token: its e-mail and return URL when it is of `kind`, unused and unexpired; else undefined. */
export const redeemToken = (db: Kysely<AccountsDatabase>, kind: TokenKind, token: string, nowMs: number) =>
  db
    .updateTable("login_tokens")
    .set({ used_ms: nowMs })
    .where("token_hash", "=", sha256(token))
    .where("kind", "=", kind)
    .where("used_ms", "is", null)
    .where("expires_ms", ">", nowMs)
    .returning(["email", "return_url", "subject"])
    .executeTakeFirst()

/**
 * Uses a token as redeemToken does, and with it every other unused token of its kind for the same
 * address, in one statement: of several links mailed to one address only the first used works,
 * also when two are used at once (PostgreSQL: the second statement waits on the rows the first
 * marked, then finds them used and marks nothing).
 */
export const redeemTokenOfAddress = async (db: Kysely<AccountsDatabase>, kind: TokenKind, token: string, nowMs: number) => {
  const hash = sha256(token)
  const marked = await db
    .updateTable("login_tokens")
    .set({ used_ms: nowMs })
    .where("kind", "=", kind)
    .where("used_ms", "is", null)
    .where("email", "=", (eb) =>
      eb
        .selectFrom("login_tokens")
        .select("email")
        .where("token_hash", "=", hash)
        .where("kind", "=", kind)
        .where("used_ms", "is", null)
        .where("expires_ms", ">", nowMs),
    )
    .returning(["token_hash", "email", "return_url", "subject"])
    .execute()
  const row = marked.find((r) => r.token_hash === hash)
  return row === undefined ? undefined : { email: row.email, return_url: row.return_url, subject: row.subject }
}
