/** What the operator reads when a run fails on a defect: the defect's message, not a printed Cause. */
import { Cause } from "effect"
import { describe, expect, it } from "vitest"
import { failureText } from "../../pipeline/Failure.ts"

const errno = (code: string, message: string) => Object.assign(new Error(message), { code })

describe("failureText", () => {
  it("a file-system error: its message (which names the path), and that the folder must be writable", () => {
    const text = failureText(Cause.die(errno("EACCES", "EACCES: permission denied, open '/srv/fds/data/pipeline.lock'")))
    expect(text).toBe(
      "EACCES: permission denied, open '/srv/fds/data/pipeline.lock' (the data folder must be writable by the user running the pipeline)",
    )
    expect(text).not.toContain("Cause(")
  })

  it("SQLite's own words for an unwritable database get the same hint; any other error its message alone", () => {
    expect(failureText(Cause.die(new Error("attempt to write a readonly database")))).toMatch(
      /^attempt to write a readonly database \(a database under the data folder cannot be written/,
    )
    expect(failureText(Cause.die(new Error("disk I/O error")))).toBe("disk I/O error")
    expect(failureText(Cause.die("not an error"))).toContain("not an error")
  })
})
