/**
 * Which mailbox and which mail domain an address reaches, so that the mail limits count mailboxes,
 * not spellings (mail still goes to the address as typed). Lower-cased; the domain in its ASCII
 * form (IDNA: `München.de` and `xn--mnchen-3ya.de`, full-width letters and plain ones are one
 * domain); a `+tag` dropped from the local part (sub-addressing, RFC 5233: Gmail, Outlook, iCloud,
 * Fastmail, Proton and most mail servers deliver `name+tag` to `name`); for Gmail also the dots in
 * the local part, and googlemail.com read as gmail.com (Google delivers all of them to one
 * mailbox). Other providers' rules (Yahoo's `-`) are not guessed: such an address counts as a
 * mailbox of its own, still under the per-domain limit.
 */
import { domainToASCII } from "node:url"

const GMAIL = new Set(["gmail.com", "googlemail.com"])

const parts = (address: string): { readonly local: string; readonly domain: string } => {
  const at = address.lastIndexOf("@")
  const domain = address.slice(at + 1).toLowerCase()
  const ascii = domainToASCII(domain)
  return { local: address.slice(0, at).toLowerCase(), domain: GMAIL.has(ascii) ? "gmail.com" : ascii === "" ? domain : ascii }
}

/** The mail domain of an address, as the per-domain limit counts it. */
export const mailDomain = (address: string): string => parts(address).domain

/** The mailbox an address reaches, as the per-address limit counts it. */
export const mailboxKey = (address: string): string => {
  const { local, domain } = parts(address)
  const plus = local.indexOf("+")
  const base = plus < 0 ? local : local.slice(0, plus)
  return `${domain === "gmail.com" ? base.replaceAll(".", "") : base}@${domain}`
}
