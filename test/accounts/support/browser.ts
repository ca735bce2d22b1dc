/** Debian's Chromium driven by playwright-core: a fresh profile, loopback only. */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type BrowserContext, chromium } from "playwright-core"

export const CHROMIUM = "/usr/bin/chromium"

export interface Browser {
  readonly context: BrowserContext
  readonly close: () => Promise<void>
}

/** A browser with a new profile; every request off 127.0.0.1 is aborted (no network beyond loopback). */
export const openBrowser = async (options: { readonly javaScriptEnabled?: boolean } = {}): Promise<Browser> => {
  const profile = mkdtempSync(join(tmpdir(), "fds-chromium-"))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  })
  await context.route("**/*", (route) =>
    new URL(route.request().url()).hostname === "127.0.0.1" ? route.continue() : route.abort(),
  )
  return {
    context,
    close: async () => {
      await context.close()
      rmSync(profile, { recursive: true, force: true })
    },
  }
}
