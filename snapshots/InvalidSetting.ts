/** A setting given a wrong value, as effect's Config says it: the one shape the pipeline, the API and ops fail a read with. */
import { Config, Schema, SchemaIssue } from "effect"

/** A setting given a wrong value; `message` names the setting and says what it needs. */
export const invalidSetting = (message: string, input: unknown): Config.ConfigError =>
  new Config.ConfigError(new Schema.SchemaError(new SchemaIssue.InvalidValue({ message }, input)))
