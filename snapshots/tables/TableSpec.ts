/** How a snapshot table is declared: its DDL and the order its rows are hashed in. */
export interface TableSpec {
  readonly name: string
  readonly orderBy: string
  /** A leading key column to read the table by, for large tables (see ContentHash). */
  readonly partition?: string
  readonly ddl: string
}
