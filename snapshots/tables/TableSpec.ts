/** How a snapshot table is declared: its DDL and the order its rows are hashed in. */
export interface TableSpec {
  readonly name: string
  readonly orderBy: string
  /** A leading key column to read the table by, for large tables (see ContentHash). */
  readonly partition?: string
  /** A YYYYMMDD column whose calendar months cut the table's digest, for large tables a daily build changes from a date on (see ContentHash). */
  readonly months?: string
  readonly ddl: string
}
