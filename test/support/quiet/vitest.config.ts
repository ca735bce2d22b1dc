/**
 * The project's vitest settings, run on the fixture beside this file only (it fails on purpose):
 * test/testOutput.test.ts runs it to see what a run prints. Not part of the suite. The project's
 * split of the suite into projects is left out: each project names its own files.
 */
import { defineConfig } from "vitest/config"
import project from "../../../vitest.config.ts"

const { projects: _projects, ...settings } = project.test ?? {}

export default defineConfig({ ...project, test: { ...settings, include: ["test/support/quiet/*.fixture.ts"] } })
