/**
 * Staging's reuse of a step in a daily increment (pipeline/Stage.ts): a step that declares what it
 * reads (`stageReads`) is kept when the fingerprint of that is the previous build's, run again when
 * any of it changed (a file, the core, the batch date where rows are after it), and refused
 * anything it did not declare. Steps with counters of their calls on a sink that records writes.
 */
import { Effect, Exit } from "effect"
import { describe, expect, it } from "vitest"
import { type StagedBatch, stage } from "../../pipeline/Stage.ts"
import type { StageContext, StageInput } from "../../pipeline/datasets/StageContext.ts"
import type { DataSetAdapter, StageReads } from "../../pipeline/datasets/DataSet.ts"
import type { LoadedFile } from "../../pipeline/datasets/LoadedFile.ts"
import type { DataSetName } from "../../pipeline/datasets/DataSetName.ts"

const BASE = { from: 20261020, seed: new Map<number, number>(), series: [] }

/** The core step: one administrator, fund and series (every build stages it). */
const coreStep = (administratorName: string): DataSetAdapter =>
  ({
    name: "cartola_diaria",
    stage: (context: StageContext) =>
      Effect.sync(() => {
        context.core = {
          series: [{ asset_id: 1, concept_id: 2, run: 8001, serie: "A", currency: "$$", first_date: 20260102, last_date: 20261020 }],
          administrators: [{ provider_id: 3, rut: 96639280, name: administratorName }],
          funds: [],
          known: new Set([1]),
          aliasOf: new Map(),
          quotaSources: { bpr_series: 0, bpr_rows: 0 },
        }
      }),
  }) as unknown as DataSetAdapter

/** A reusable step writing one row per record of its data set into `tac`, counting its runs. */
const step = (name: DataSetName, reads: StageReads, body: (context: StageContext) => void = () => {}) => {
  const calls = { n: 0 }
  const adapter = {
    name,
    stageReads: reads,
    stage: (context: StageContext) =>
      Effect.sync(() => {
        calls.n++
        body(context)
        context.repairs[`${name}_runs`] = 1
        context.put("tac", context.records<{ v: number }>(name).map((r) => ({ asset_id: r.v, month: "2026-10", tac: 0.01, tac_fixed: null, tac_variable: null, tac_expenses: null })))
      }),
  } as unknown as DataSetAdapter
  return { adapter, calls }
}

const file = (name: string, records: ReadonlyArray<unknown>, latestDate?: number): LoadedFile => ({
  name,
  data: () => records,
  repairs: {},
  rows: records.length,
  ...(latestDate === undefined ? {} : { latestDate }),
})

interface Build {
  readonly files: Record<string, LoadedFile[]>
  readonly inputs: ReadonlyArray<StageInput>
  readonly date: string
  readonly administrator?: string
  readonly previous?: StagedBatch | null
}

const run = (adapters: ReadonlyArray<DataSetAdapter>, build: Build) => {
  const written: string[] = []
  const staged = Effect.runSync(
    stage(
      [coreStep(build.administrator ?? "AGF"), ...adapters],
      { files: new Map(Object.entries(build.files)) as ReadonlyMap<DataSetName, LoadedFile[]>, fiUnavailable: null },
      build.date,
      { rows: (table, rows) => void written.push(`${table} ${rows.length}`), quotas: () => {}, deleteFrom: () => {} },
      {
        base: build.previous === undefined || build.previous === null ? null : BASE,
        inputs: build.inputs,
        previous: build.previous === undefined || build.previous === null ? null : { steps: build.previous.steps, batchDate: "2026-10-19" },
      },
    ),
  )
  return { staged, written }
}

const TAC_FILES = { fm_tac: [file("tac_202609.txt", [{ v: 1 }, { v: 2 }])] }
const TAC_INPUTS: StageInput[] = [{ data_set: "fm_tac", name: "tac_202609.txt", sha256: "a".repeat(64) }]

describe("staging steps kept by an increment", () => {
  it("a step whose files did not change is kept (not run, nothing written), with its repairs; a changed file runs it again", () => {
    const tac = step("fm_tac", {})
    const cold = run([tac.adapter], { files: TAC_FILES, inputs: TAC_INPUTS, date: "2026-10-20" })
    expect(tac.calls.n).toBe(1)
    expect(cold.written).toEqual(["tac 2"])
    expect(cold.staged.steps.fm_tac?.tables).toEqual(["tac"])

    const next = run([tac.adapter], { files: TAC_FILES, inputs: TAC_INPUTS, date: "2026-10-21", previous: cold.staged })
    expect(tac.calls.n).toBe(1)
    expect(next.written).toEqual([])
    expect(next.staged.keptSteps).toEqual(["fm_tac"])
    expect(next.staged.reusedTables).toEqual(["tac"])
    expect(next.staged.repairs).toMatchObject({ fm_tac_runs: 1 })
    expect(next.staged.steps.fm_tac).toEqual(cold.staged.steps.fm_tac)

    const changed = [{ ...TAC_INPUTS[0]!, sha256: "b".repeat(64) }]
    const again = run([tac.adapter], { files: TAC_FILES, inputs: changed, date: "2026-10-22", previous: next.staged })
    expect(tac.calls.n).toBe(2)
    expect(again.written).toEqual(["tac 2"])
    expect(again.staged.keptSteps).toEqual([])
    expect(again.staged.steps.fm_tac?.fingerprint).not.toBe(cold.staged.steps.fm_tac?.fingerprint)
  })

  it("a cold build (no base) runs every step even with the previous steps given", () => {
    const tac = step("fm_tac", {})
    const cold = run([tac.adapter], { files: TAC_FILES, inputs: TAC_INPUTS, date: "2026-10-20" })
    const { staged } = run([tac.adapter], { files: TAC_FILES, inputs: TAC_INPUTS, date: "2026-10-21", previous: null })
    expect(tac.calls.n).toBe(2)
    expect(staged.keptSteps).toEqual([])
    expect(staged.steps.fm_tac?.fingerprint).toBe(cold.staged.steps.fm_tac?.fingerprint)
  })

  it("a step that reads the core runs again when the core changed", () => {
    const tac = step("fm_tac", { core: true }, (context) => void context.core)
    const cold = run([tac.adapter], { files: TAC_FILES, inputs: TAC_INPUTS, date: "2026-10-20" })
    run([tac.adapter], { files: TAC_FILES, inputs: TAC_INPUTS, date: "2026-10-21", previous: cold.staged })
    expect(tac.calls.n).toBe(1)
    run([tac.adapter], { files: TAC_FILES, inputs: TAC_INPUTS, date: "2026-10-21", previous: cold.staged, administrator: "AGF RENAMED" })
    expect(tac.calls.n).toBe(2)
  })

  it("a step that cuts rows at the batch date is kept only once no row of its files is after it", () => {
    const indicators = step("indicators", { cutoff: ["indicators"] }, (context) => void context.cutoff)
    const files = { indicators: [file("uf.json", [{ v: 1 }], 20261021)] }
    const inputs: StageInput[] = [{ data_set: "indicators", name: "uf.json", sha256: "c".repeat(64) }]
    const d20 = run([indicators.adapter], { files, inputs, date: "2026-10-20" })
    // a row is after the 20th: the 21st stages it, so the step runs again
    const d21 = run([indicators.adapter], { files, inputs, date: "2026-10-21", previous: d20.staged })
    expect(indicators.calls.n).toBe(2)
    // every row is on or before the 21st and the 22nd alike: kept
    const d22 = run([indicators.adapter], { files, inputs, date: "2026-10-22", previous: d21.staged })
    expect(indicators.calls.n).toBe(2)
    expect(d22.staged.keptSteps).toEqual(["indicators"])
  })

  it("a step reading what it did not declare fails, naming the step and what it read", () => {
    const undeclared: Array<[string, (context: StageContext) => unknown]> = [
      ["the fm_registry files", (context) => context.records("fm_registry")],
      ["the core", (context) => context.core],
      ["the batch date", (context) => context.cutoff],
      ["whether the FI part is available", (context) => context.fiUnavailable],
    ]
    for (const [what, read] of undeclared) {
      const tac = step("fm_tac", {}, (context) => void read(context))
      const exit = Effect.runSyncExit(
        stage(
          [coreStep("AGF"), tac.adapter],
          { files: new Map(Object.entries(TAC_FILES)) as ReadonlyMap<DataSetName, LoadedFile[]>, fiUnavailable: null },
          "2026-10-20",
          { rows: () => {}, quotas: () => {}, deleteFrom: () => {} },
          { base: null, inputs: TAC_INPUTS, previous: null },
        ),
      )
      expect(Exit.isFailure(exit)).toBe(true)
      expect(String(Exit.isFailure(exit) ? exit.cause : "")).toContain(`staging step fm_tac reads ${what}, which its stageReads does not declare`)
    }
  })
})
