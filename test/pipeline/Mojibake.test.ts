import { describe, expect, it } from "vitest"
import { repairMojibake } from "../../pipeline/cmf/Mojibake.ts"

describe("repairMojibake", () => {
  it("repairs UTF-8 read as ISO-8859-1", () => {
    // Ñ is C3 91 in UTF-8; read as ISO-8859-1 that is "Ã" followed by the C1 control U+0091.
    expect(repairMojibake("AÃ\u0091OS")).toBe("AÑOS")
    // é is C3 A9: "Ã©".
    expect(repairMojibake("EstratÃ©gico")).toBe("Estratégico")
  })

  it("repairs UTF-8 read as windows-1252 (what TextDecoder('latin1') really is)", () => {
    // Byte 0x91 is "‘" (U+2018) in windows-1252.
    expect(repairMojibake("AÃ‘OS")).toBe("AÑOS")
    const utf8AsLatin1 = Buffer.from("PACÍFICO ÑUÑOA", "utf8").toString("latin1")
    expect(repairMojibake(utf8AsLatin1)).toBe("PACÍFICO ÑUÑOA")
  })

  it("leaves clean latin-1 and plain text unchanged", () => {
    expect(repairMojibake("ÑUÑOA")).toBe("ÑUÑOA")
    expect(repairMojibake("ADMINISTRADORA GENERAL DE FONDOS  SECURITY S.A.")).toBe(
      "ADMINISTRADORA GENERAL DE FONDOS  SECURITY S.A."
    )
    expect(repairMojibake("Inversión Estratégica")).toBe("Inversión Estratégica")
  })

  it("leaves text alone when the bytes are not valid UTF-8 or a character has no single byte", () => {
    // "Ã" followed by "x" is C3 78: not a UTF-8 sequence.
    expect(repairMojibake("AÃx")).toBe("AÃx")
    // "漢" cannot come from reading one byte as latin-1, so this was never latin-1 text.
    expect(repairMojibake("漢Ã©")).toBe("漢Ã©")
  })
})
