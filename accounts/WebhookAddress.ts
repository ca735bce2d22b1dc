/**
 * Where a webhook may be sent: only to public addresses, so that a key holder cannot make the
 * service call its own machines or the network it runs in (SSRF). A URL is refused when its host
 * resolves to any loopback, private (RFC 1918), CGNAT, link-local, unique-local, multicast,
 * unspecified, reserved or documentation address, IPv4-mapped, NAT64 (64:ff9b::/96, by the IPv4
 * address it carries) and 6to4/Teredo forms included;
 * FDS_WEBHOOKS_ALLOW_PRIVATE=1 lifts this (and allows http://) for a closed network or tests.
 *
 * The check runs when the endpoint is created and again on each connection (`guardedLookup`, the
 * connection's DNS look-up): a name that resolved to a public address at creation and to a
 * private one later is refused then, and the address connected to is the one checked.
 */
import { lookup } from "node:dns"
import { BlockList, isIP, type LookupFunction } from "node:net"

const blocked = new BlockList()
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  blocked.addSubnet(net, prefix, "ipv4")
  // the same through NAT64's well-known prefix (RFC 6052): 64:ff9b::a9fe:a9fe reaches 169.254.169.254 via a translator
  blocked.addSubnet(`64:ff9b::${net}`, 96 + prefix, "ipv6")
}
for (const [net, prefix] of [
  ["::", 128],
  ["::1", 128],
  // IPv4-mapped addresses (::ffff:a.b.c.d) are checked by BlockList against the IPv4 subnets above
  ["::", 96], // IPv4-compatible (deprecated)
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001::", 32], // Teredo
  ["2001:db8::", 32],
  ["2002::", 16], // 6to4
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const) {
  blocked.addSubnet(net, prefix, "ipv6")
}

/** True for an address a webhook may be sent to (a literal IPv4 or IPv6 address). */
export const isPublicAddress = (address: string): boolean => {
  const family = isIP(address)
  if (family === 0) return false
  return !blocked.check(address, family === 4 ? "ipv4" : "ipv6")
}

/** Why the URL cannot be a webhook endpoint, or null (its host is not resolved here: see `checkResolvedHost`). */
export const urlProblem = (text: string, allowPrivate: boolean): string | null => {
  if (text.length > 2000) return "at most 2000 characters"
  // the URL parser drops tabs and line breaks and trims spaces: the URL kept and shown would not be the one called
  if (/[\u0000-\u0020\u007f]/.test(text)) return "must not contain spaces or control characters (percent-encode them)"
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return "not an absolute URL"
  }
  if (url.protocol !== "https:" && !(allowPrivate && url.protocol === "http:")) return "must be an https:// URL"
  if (url.username !== "" || url.password !== "") return "must not carry a user name or password"
  if (url.hash !== "") return "must not carry a fragment"
  return null
}

/** The host of a URL as a look-up takes it (an IPv6 literal without its brackets). */
export const hostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, "$1")

/** The refusal of a host that is not public (or does not resolve), the same whatever it resolved to. */
export const NOT_PUBLIC = "its host is not a public address (it must resolve to public addresses only)"

/**
 * Resolves `host` and says why it is refused (null: every address it resolves to is public, or
 * private ones are allowed). The answer goes back to the caller, so it never says what the host
 * resolved to, nor whether it resolved at all: either would let a key holder map the service's
 * internal DNS (an internal name resolves, to a private address; a made-up one does not). With
 * private addresses allowed (a closed network) a name that does not resolve is said so.
 */
export const checkResolvedHost = (host: string, allowPrivate: boolean): Promise<string | null> =>
  new Promise((resolve) => {
    lookup(host, { all: true, verbatim: true }, (error, addresses) => {
      if (allowPrivate) return resolve(error === null ? null : `its host ${host} does not resolve`)
      if (error !== null) return resolve(NOT_PUBLIC)
      resolve(addresses.every((a) => isPublicAddress(a.address)) ? null : NOT_PUBLIC)
    })
  })

/**
 * The error of a connection refused by the guard. Its message ends in a delivery's `last_error`,
 * which the key holder reads: it names the host (theirs) but never the address it resolved to.
 */
export class WebhookAddressRefused extends Error {
  readonly code = "EWEBHOOKADDRESS"
}

/**
 * A `lookup` for the connections that send webhooks (net.connect's option): the system's
 * resolution, every address checked; the connection is refused when any is not public.
 */
export const guardedLookup =
  (allowPrivate: boolean): LookupFunction =>
  (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true, verbatim: true }, (error, addresses) => {
      if (error !== null) return (callback as (e: Error) => void)(error)
      const refused = allowPrivate ? undefined : addresses.find((a) => !isPublicAddress(a.address))
      if (refused !== undefined) {
        return (callback as (e: Error) => void)(new WebhookAddressRefused(`${hostname} is not a public address`))
      }
      if (options.all === true) return (callback as (e: null, a: typeof addresses) => void)(null, addresses)
      const first = addresses[0]
      if (first === undefined) return (callback as (e: Error) => void)(new WebhookAddressRefused(`${hostname} resolves to no address`))
      ;(callback as (e: null, a: string, f: number) => void)(null, first.address, first.family)
    })
  }
