/**
 * A fund's declaration about article 107 of the income tax law, as the batch read it from the
 * fund's internal regulation (docs/formats.md §12), in the reference's Article107DetailResponse
 * shape. `evidence.seriesException` says whether some series are excepted from the declaration;
 * `exceptedSeries` names them. Without a regulation in the batch the status is `unknown`.
 */
import type Database from "better-sqlite3"
import { formatRun } from "../../schemas/Ids.ts"
import type { Article107Status } from "../../schemas/Article107Status.ts"
import { prepared } from "../../snapshots/readers/MarketDb.ts"
import type { FundRef } from "./MarketCartera.ts"

export const ARTICLE107_PARSER_VERSION = "article107_text_v1"
export const ARTICLE107_CLASSIFIER_VERSION = "article107_rules_v1"
export const ARTICLE107_DISCLAIMER =
  "What the fund's internal regulation declares about article 107 of the income tax law, read automatically from " +
  "its text; not tax advice and not a CMF or SII ruling. Check the regulation itself."

interface Article107Row {
  status: string
  regulation_date: string
  evidence: string
  series_exception: string
}

const ruleOf = (status: string, excepted: boolean): string =>
  status === "declares_eligible"
    ? excepted
      ? "positive_with_series_exceptions"
      : "positive_only"
    : status === "declares_not_eligible"
      ? "negative_only"
      : "undecided"

export const article107Detail = (db: Database.Database, fund: FundRef) => {
  const row = prepared(db, "SELECT status, regulation_date, evidence, series_exception FROM article107 WHERE run = ?").get(fund.run) as
    | Article107Row
    | undefined
  const base = { run: formatRun(fund.run), fundId: String(fund.concept_id), fundName: fund.name }
  const review = { status: null, reviewedAt: null, reviewedBy: null, note: null }
  if (row === undefined) {
    return {
      ...base,
      article107RegulationStatus: "unknown" as Article107Status,
      sourceFreshness: "unknown" as "fresh" | "stale" | "unknown",
      statusReason: "no internal regulation of this fund in the batch",
      regulationDate: null,
      lastSuccessfulAssessmentAt: null,
      updatedAt: null,
      source: { cmfDocumentId: null, observedCmfDocumentId: null, url: null, sha256: null, cmfDepositDate: null, cmfLastModifiedDate: null, fetchedAt: null },
      review,
      evidence: null,
      disclaimer: ARTICLE107_DISCLAIMER,
    }
  }
  const sentences = JSON.parse(row.evidence) as Array<{ line: number; text: string }>
  const excepted = JSON.parse(row.series_exception) as string[]
  const first = sentences[0]
  return {
    ...base,
    article107RegulationStatus: row.status as Article107Status,
    sourceFreshness: "fresh" as "fresh" | "stale" | "unknown",
    statusReason:
      sentences.length === 0
        ? "the regulation does not mention article 107"
        : `decided by ${sentences.length} sentence(s) of the regulation naming article 107`,
    regulationDate: row.regulation_date,
    lastSuccessfulAssessmentAt: null,
    updatedAt: null,
    source: {
      cmfDocumentId: null,
      observedCmfDocumentId: null,
      url: null,
      sha256: null,
      cmfDepositDate: row.regulation_date,
      cmfLastModifiedDate: null,
      fetchedAt: null,
    },
    review,
    evidence:
      first === undefined && excepted.length === 0
        ? null
        : {
            text: first?.text ?? null,
            page: null,
            offset: null,
            line: first?.line ?? null,
            section: null,
            seriesException: excepted.length > 0,
            exceptedSeries: excepted,
            sentences,
            ruleId: ruleOf(row.status, excepted.length > 0),
            parserVersion: ARTICLE107_PARSER_VERSION,
            classifierVersion: ARTICLE107_CLASSIFIER_VERSION,
          },
    disclaimer: ARTICLE107_DISCLAIMER,
  }
}
