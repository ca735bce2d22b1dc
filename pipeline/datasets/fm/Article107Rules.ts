/**
 * How an internal regulation's text is read for article 107 of the income tax law. Plain rules
 * over sentences (documented in the README):
 *
 * 1. The text is cut into paragraphs (blank lines) and sentences (".", "!" or "?" followed by a
 *    capital or a digit; abbreviations such as "Art.", "N°", "D.L." do not end a sentence).
 *    Sentences without lower-case letters are headings and are ignored.
 * 2. A sentence is relevant when it names the article: "artículo 107", "art. 107", "Art.107".
 * 3. A relevant sentence is negative when it says "no se acogerá", "no podrá(n) acogerse",
 *    "no le será aplicable", "no califica", "no cumple", "ninguna serie … acogerse", "sin acogerse"…;
 *    otherwise it is positive when it says "acogerse / se acogerá / acogido", "beneficio", "cumple
 *    (con) los requisitos", "le será aplicable".
 * 4. Only positive → `declares_eligible`; only negative → `declares_not_eligible`; both, when
 *    every negative sentence names its series ("La Serie APV no se acogerá al artículo 107") →
 *    `declares_eligible` with those series as exceptions; otherwise `unknown` (contradictory, or
 *    the article is named without a declaration, or not named at all).
 * 5. `seriesException`: the upper-case labels after "con excepción de / a excepción de / excepto /
 *    salvo la(s) Serie(s) …" in relevant sentences (lists with ",", "y", "e"), plus rule 4's.
 */
import type { Article107Status } from "../../../schemas/Article107Status.ts"

/** A sentence of the regulation that the classification rests on. */
export interface Article107Evidence {
  /** 1-based line of the file where the sentence starts. */
  readonly line: number
  /** The sentence, mojibake repaired, whitespace collapsed. */
  readonly text: string
}

export interface Article107Classification {
  readonly status: Article107Status
  readonly evidence: ReadonlyArray<Article107Evidence>
  readonly seriesException: ReadonlyArray<string>
}

export interface TextLine {
  /** 1-based line in the file. */
  readonly line: number
  readonly text: string
}

const ABBREVIATIONS = new Set(["art", "arts", "n", "n°", "nº", "no", "nro", "num", "inc", "dl", "sr", "sra", "ltda", "cia", "etc", "ej"])

const stripAccents = (s: string): string => s.normalize("NFD").replace(/\p{M}/gu, "")

const isAbbreviation = (before: string): boolean => {
  const token = stripAccents(/(\S+)$/.exec(before)?.[1] ?? "").toLowerCase()
  return token.includes(".") || ABBREVIATIONS.has(token)
}

/** The sentences of `lines` (one regulation body), each with the line it starts on. */
export const sentencesOf = (lines: ReadonlyArray<TextLine>): Array<Article107Evidence> => {
  const sentences: Array<Article107Evidence> = []
  let paragraph: Array<TextLine> = []
  const flush = () => {
    let text = ""
    const starts: Array<readonly [number, number]> = []
    for (const l of paragraph) {
      if (text !== "") text += " "
      starts.push([text.length, l.line])
      text += l.text.trim().replace(/\s+/g, " ")
    }
    const lineAt = (offset: number) => starts.findLast(([at]) => at <= offset)?.[1] ?? paragraph[0]!.line
    let begin = 0
    for (let i = 0; i < text.length; i++) {
      const c = text[i]!
      if (c !== "." && c !== "!" && c !== "?") continue
      const atEnd = i + 1 === text.length
      if (!atEnd && (text[i + 1] !== " " || !/[\p{Lu}\d"«(¿¡]/u.test(text[i + 2] ?? ""))) continue
      if (c === "." && !atEnd && isAbbreviation(text.slice(begin, i))) continue
      sentences.push({ line: lineAt(begin), text: text.slice(begin, i + 1) })
      begin = i + 2
    }
    if (begin < text.length) sentences.push({ line: lineAt(begin), text: text.slice(begin) })
    paragraph = []
  }
  for (const l of lines) {
    if (l.text.trim() === "") {
      if (paragraph.length > 0) flush()
    } else paragraph.push(l)
  }
  if (paragraph.length > 0) flush()
  return sentences
}

const ARTICLE_107 = /\b(?:articulo|art\.?)\s*(?:n[°º.o]?\s*)?107\b/
const NEGATIVE = new RegExp(
  "\\bno\\s+(?:(?:se|le|les|lo|la|los|las|podra|podran|sera|seran|es|son|esta|estan|estara|estaran|encuentra|" +
    "encuentran|encontrara|encontraran|ha|han|sido|tendra|tendran|resulta|resultara|resultaran)\\s+){0,4}" +
    "(?:acog|aplic|calific|cumpl|opta|goz|benefici|sujet)\\w*" +
    "|\\b(?:ninguna?|tampoco)\\b[^.]*\\b(?:acog|aplic|benefici)\\w*|\\bsin\\s+acogerse\\b"
)
const POSITIVE = /\bacog\w*|\bbenefici\w*|\bcumpl\w*\s+(?:con\s+)?(?:los\s+|las\s+)?(?:requisitos|condiciones)|\baplicable\b/
const EXCEPTION = /\b(?:con excepcion de|a excepcion de|excepto|salvo)\s+(?:para\s+)?(?:la|las)\s+series?\s+/gi
const SERIES_SUBJECT = /\b(?:la|las)\s+series?\s+/gi
const LABEL = /^[A-Z0-9][A-Z0-9-]*(?![\p{L}0-9])/u
const SEPARATOR = /^\s*(?:,|y\b|e\b)\s*(?:(?:la|las)\s+series?\s+)?/i

const RELATIVE_CLAUSE = /^\s*,?\s*(?:(?:la|las|el|los)\s+)?(?:cual|cuales|que)\b[^,.;]*/i

/**
 * The upper-case series labels listed after each match of `lead` in `plain` (accents stripped,
 * case kept), and `plain` without those phrases and a relative clause right after them
 * ("…, la cual no podrá acogerse"), which speak of the excepted series, not of the fund.
 */
const labelsAfter = (plain: string, lead: RegExp): { labels: Array<string>; rest: string } => {
  const labels: Array<string> = []
  let rest = ""
  let from = 0
  for (const m of plain.matchAll(lead)) {
    if (m.index < from) continue
    let at = m.index + m[0].length
    for (;;) {
      const label = LABEL.exec(plain.slice(at))
      if (label === null) break
      labels.push(label[0])
      at += label[0].length
      const separator = SEPARATOR.exec(plain.slice(at))
      if (separator === null || separator[0] === "" || LABEL.exec(plain.slice(at + separator[0].length)) === null) break
      at += separator[0].length
    }
    at += RELATIVE_CLAUSE.exec(plain.slice(at))?.[0].length ?? 0
    rest += plain.slice(from, m.index)
    from = at
  }
  return { labels, rest: rest + plain.slice(from) }
}

/** Classifies one regulation body (the lines between its header and footer). */
export const classifyArticle107 = (lines: ReadonlyArray<TextLine>): Article107Classification => {
  const relevant = sentencesOf(lines)
    .filter((s) => /\p{Ll}/u.test(s.text))
    .map((sentence) => {
      const plain = stripAccents(sentence.text)
      const { labels, rest } = labelsAfter(plain, EXCEPTION)
      return { sentence, plain, main: rest.toLowerCase(), exceptions: labels }
    })
    .filter((s) => ARTICLE_107.test(s.plain.toLowerCase()))
  if (relevant.length === 0) return { status: "unknown", evidence: [], seriesException: [] }
  const negative = relevant.filter((s) => NEGATIVE.test(s.main))
  const positive = relevant.filter((s) => !NEGATIVE.test(s.main) && POSITIVE.test(s.main))
  const decided = relevant.filter((s) => negative.includes(s) || positive.includes(s)).map((s) => s.sentence)
  const result = (status: Article107Status, evidence: ReadonlyArray<Article107Evidence>, extra: Array<string> = []) => ({
    status,
    evidence,
    seriesException: [...new Set([...relevant.flatMap((s) => s.exceptions), ...extra])]
  })
  if (positive.length > 0 && negative.length === 0) return result("declares_eligible", decided)
  if (negative.length > 0 && positive.length === 0) return result("declares_not_eligible", decided)
  if (positive.length > 0) {
    const named = negative.map((s) => labelsAfter(s.plain, SERIES_SUBJECT).labels)
    if (named.every((labels) => labels.length > 0)) return result("declares_eligible", decided, named.flat())
    return result("unknown", decided)
  }
  return result("unknown", relevant.map((s) => s.sentence))
}
