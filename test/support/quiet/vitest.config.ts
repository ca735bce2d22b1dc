/**
 * The project's vitest settings, run on the fixture beside this file only (it fails on purpose):
 * test/testOutput.test.ts runs it to see what a run prints. Not part of the suite.
 */
import { defineConfig } from "vitest/config"
import project from "../../../vitest.config.ts"

export default defineConfig({ ...project, test: { ...project.test, include: ["test/support/quiet/*.fixture.ts"] } })
