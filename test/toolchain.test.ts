import { describe, expect, it } from "vitest"

describe("toolchain", () => {
  it("runs on the project's Node 24 LTS, not the machine's Node", () => {
    expect(process.versions.node.split(".")[0]).toBe("24")
  })
})
