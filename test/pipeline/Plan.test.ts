/**
 * The batch's decisions as pure functions, on worked examples: each case states the facts a run
 * would have gathered and the decision a person would take from them.
 */
import { describe, expect, it } from "vitest"
import { type BatchFacts, type BuiltBatch, type InputFacts, plan, planInputs, refuseFutureDate } from "../../pipeline/Plan.ts"

const inputFacts = (over: Partial<InputFacts> = {}): InputFacts => ({
  today: "2026-11-25",
  dataSets: ["fm_registry", "cartola_diaria"],
  required: [{ dataSet: "fm_registry", missing: "no FM registry (fm_ident2) among the inputs" }],
  dailyValues: ["cartola_diaria", "fm_bpr_daily"],
  hold: null,
  ...over,
})

const built = (batch_date: string, file: string, inputs: string[], pipeline_version = "0.4.0"): BuiltBatch => ({ batch_date, file, inputs, pipeline_version })

const facts = (over: Partial<BatchFacts> = {}): BatchFacts => ({
  today: "2026-11-25",
  inputs: [
    { name: "fm_ident2.txt", sha256: "r1" },
    { name: "ffmm_todos_20261101_20261124.txt", sha256: "c1" },
  ],
  firstQuotaDate: "2026-11-02",
  latestQuotaDate: "2026-11-24",
  latestQuotaFile: { dataSet: "cartola_diaria", name: "ffmm_todos_20261101_20261124.txt" },
  built: [],
  served: null,
  onDisk: () => true,
  wasPublished: () => true,
  pipelineVersion: "0.4.0",
  ...over,
})

describe("planInputs: before parsing", () => {
  it("refuses a batch date after today, before anything else", () => {
    expect(refuseFutureDate("2026-11-26", "2026-11-25")).toEqual({
      kind: "reject",
      reason: "batch date 2026-11-26 is in the future (today is 2026-11-25)",
      batchDate: "2026-11-26",
    })
    expect(refuseFutureDate("2026-11-25", "2026-11-25")).toBeNull()
    expect(planInputs(inputFacts({ date: "2026-12-01", dataSets: [] })).kind).toBe("reject")
  })

  it("refuses inputs without the registry, or without any daily values (the cartola or the BPR will do)", () => {
    expect(planInputs(inputFacts({ dataSets: ["cartola_diaria"] }))).toEqual({
      kind: "reject",
      reason: "no FM registry (fm_ident2) among the inputs",
      batchDate: null,
    })
    expect(planInputs(inputFacts({ dataSets: ["fm_registry", "fm_tac"] }))).toEqual({
      kind: "reject",
      reason: "no daily values (cartola_diaria or fm_bpr_daily) among the inputs",
      batchDate: null,
    })
    expect(planInputs(inputFacts({ dataSets: ["fm_registry", "fm_bpr_daily"] })).kind).toBe("proceed")
  })

  it("leaves CURRENT where a rollback put it while no new file came", () => {
    const held = planInputs(inputFacts({ hold: { batchDate: "2026-11-20", file: "2026-11-20-abc.sqlite", recordedAt: "2026-11-24T10:00:00Z" } }))
    expect(held).toMatchObject({ kind: "unchanged", batchDate: "2026-11-20", file: "2026-11-20-abc.sqlite" })
    expect(held.kind === "unchanged" && held.note).toMatch(/^held by the rollback to 2026-11-20/)
  })
})

describe("plan: after parsing", () => {
  it("publishes the latest daily value's date", () => {
    expect(plan(facts())).toEqual({ kind: "publish", batchDate: "2026-11-24" })
  })

  it("refuses values that hold no rows, and values dated after today (naming the file)", () => {
    expect(plan(facts({ latestQuotaDate: null, firstQuotaDate: null }))).toEqual({ kind: "reject", reason: "the daily values hold no rows", batchDate: null })
    const future = plan(facts({ latestQuotaDate: "2026-11-26" }))
    expect(future).toEqual({
      kind: "reject",
      reason: "cartola_diaria ffmm_todos_20261101_20261124.txt field FECHA_INF: daily values dated 2026-11-26, after today (2026-11-25)",
      batchDate: null,
    })
  })

  it("takes --date only within the values: not before the first, not after the latest", () => {
    expect(plan(facts({ date: "2026-11-10" }))).toEqual({ kind: "publish", batchDate: "2026-11-10" })
    expect(plan(facts({ date: "2026-11-01" }))).toMatchObject({ kind: "reject", batchDate: "2026-11-01" })
    expect(plan(facts({ date: "2026-11-25" }))).toMatchObject({ kind: "reject", batchDate: "2026-11-25" })
  })

  it("never moves CURRENT back unasked: values ending before the served batch are refused, naming what changed", () => {
    const decision = plan(
      facts({
        latestQuotaDate: "2026-11-20",
        built: [built("2026-11-24", "2026-11-24-x.sqlite", ["r1", "c0"])],
        served: { batchDate: "2026-11-24", file: "2026-11-24-x.sqlite" },
      }),
    )
    expect(decision).toEqual({
      kind: "reject",
      reason:
        "the daily values now end on 2026-11-20, before the published batch 2026-11-24 (changed since it was built: ffmm_todos_20261101_20261124.txt); nothing was published. To build an earlier day on purpose, run with --date 2026-11-20",
      batchDate: "2026-11-20",
    })
    // …unless asked with --date.
    expect(plan(facts({ date: "2026-11-20", served: { batchDate: "2026-11-24", file: "f" } }))).toEqual({ kind: "publish", batchDate: "2026-11-20" })
  })

  it("the same inputs, date and version as the served batch change nothing; any difference publishes again", () => {
    const same = built("2026-11-24", "2026-11-24-x.sqlite", ["c1", "r1"])
    const served = { batchDate: "2026-11-24", file: "2026-11-24-x.sqlite" }
    expect(plan(facts({ built: [same], served }))).toEqual({ kind: "unchanged", batchDate: "2026-11-24", file: "2026-11-24-x.sqlite" })
    // another pipeline version, the file gone from disk, or CURRENT elsewhere: built again
    expect(plan(facts({ built: [built("2026-11-24", "2026-11-24-x.sqlite", ["c1", "r1"], "0.3.3")], served })).kind).toBe("publish")
    expect(plan(facts({ built: [same], served, onDisk: () => false })).kind).toBe("publish")
    expect(plan(facts({ built: [same], served: { batchDate: "2026-11-24", file: "other.sqlite" } })).kind).toBe("publish")
    // one input more (a new TAC file): built again
    expect(plan(facts({ built: [same], served, inputs: [...facts().inputs, { name: "tac.xls", sha256: "t1" }] })).kind).toBe("publish")
  })
})
