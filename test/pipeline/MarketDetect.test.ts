/** Each market source recognises its own files by content, and none of the others' (CMF files included). */
import { describe, expect, it } from "vitest"
import { AfmCategoriesSource } from "../../pipeline/datasets/market/AfmCategories.ts"
import { BenchmarkCatalogSource } from "../../pipeline/datasets/market/BenchmarkCatalog.ts"
import { BenchmarkPricesSource } from "../../pipeline/datasets/market/BenchmarkPrices.ts"
import { CmfSpheresSource } from "../../pipeline/datasets/market/CmfSpheres.ts"
import type { DataSetSource } from "../../pipeline/datasets/DataSet.ts"
import { detect } from "../../pipeline/datasets/Registry.ts"

const detectDataSet = (bytes: Uint8Array) => detect(bytes)?.name ?? null
import { IndicatorsSource } from "../../pipeline/datasets/market/Indicators.ts"
import {
  AFM_FILE,
  CARTOLA_FILE,
  CATALOG_FILE,
  CMF_UF,
  CMF_USD,
  latin1,
  PRICES_FILE,
  REGISTRY_FILE,
  SIETE_UF,
  SIETE_USD,
  SPHERES_FILE,
  utf8
} from "./marketFixtures.ts"

const SOURCES: ReadonlyArray<DataSetSource<unknown>> = [
  IndicatorsSource, AfmCategoriesSource, BenchmarkCatalogSource, BenchmarkPricesSource, CmfSpheresSource
]

const FILES: ReadonlyArray<readonly [string, Uint8Array, string | null]> = [
  ["SIETE UF", utf8(SIETE_UF), "indicators"],
  ["SIETE USD", utf8(SIETE_USD), "indicators"],
  ["SIETE, pretty-printed", utf8(JSON.stringify(JSON.parse(SIETE_UF), null, 2)), "indicators"],
  ["CMF API UF", utf8(CMF_UF), "indicators"],
  ["CMF API dólar", utf8(` \n${CMF_USD}`), "indicators"],
  ["AFM categories", latin1(AFM_FILE), "afm_categories"],
  ["AFM categories with a BOM", utf8(`\ufeff${AFM_FILE}`), "afm_categories"],
  ["benchmark catalog", latin1(CATALOG_FILE), "benchmark_catalog"],
  ["benchmark catalog as UTF-8", utf8(CATALOG_FILE), "benchmark_catalog"],
  ["benchmark prices", latin1(PRICES_FILE), "benchmark_prices"],
  ["CMF spheres", latin1(SPHERES_FILE), "cmf_spheres"],
  ["FM registry", latin1(REGISTRY_FILE), null],
  ["cartola", latin1(CARTOLA_FILE), null],
  ["Sin información", latin1("Sin información"), null],
  ["empty", latin1(""), null],
  ["Yahoo CSV with Adj Close", latin1("Date,Open,High,Low,Close,Adj Close,Volume\n"), null],
  ["CMF API euro", utf8('{"Euros":[{"Valor":"1.010,50","Fecha":"2026-01-23"}]}'), null],
  ["mindicador answer", utf8('{"serie":[{"fecha":"2025-01-01T03:00:00.000Z","valor":38419.17}]}'), null],
  ["a data row without header", latin1("8001;A;FDOACCNACLC;PESOS;2026-10-31\n"), null],
  ["PNG", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), null]
]

describe("market data sets: detection by content", () => {
  for (const [label, bytes, expected] of FILES) {
    it(`${label} → ${expected ?? "none of them"}`, () => {
      expect(SOURCES.filter((s) => s.detect(bytes)).map((s) => s.name)).toEqual(expected === null ? [] : [expected])
    })
  }

  it("a SIETE error answer is still a SIETE answer (parse then says why it is rejected)", () => {
    const denied = utf8('{"Codigo":-5,"Descripcion":"Invalid username or password","Series":{"Obs":null}}')
    expect(IndicatorsSource.detect(denied)).toBe(true)
  })

  it("the pipeline's detection never takes a market file for another data set (null until it is wired in)", () => {
    for (const [, bytes, expected] of FILES) if (expected !== null) expect([expected, null]).toContain(detectDataSet(bytes))
  })
})
