/**
 * The MCP tools, in the order tools/list gives them: each one a route of the API (or a few) called
 * in-process on the call's snapshot (McpTool.ts says what a tool is).
 */
import { BATCH_TOOLS } from "./BatchTools.ts"
import { FUND_TOOLS } from "./FundTools.ts"
import { HISTORY_TOOLS } from "./HistoryTools.ts"
import { HOLDERS_TOOLS } from "./HoldersTools.ts"
import { MARKET_TOOLS } from "./MarketTools.ts"
import type { Tool } from "./McpTool.ts"

const byName = new Map([...FUND_TOOLS, ...HISTORY_TOOLS, ...MARKET_TOOLS, ...HOLDERS_TOOLS, ...BATCH_TOOLS].map((t) => [t.name, t]))
const tool = (name: string): Tool => byName.get(name)!

export const TOOLS: ReadonlyArray<Tool> = [
  "search_funds",
  "get_fund",
  "get_returns",
  "compare_funds",
  "market_summary",
  "fund_portfolio",
  "who_holds",
  "list_investment_funds",
  "tac_changes",
  "data_status",
  "get_price_history",
  "get_tac_history",
  "list_batches",
  "list_changes_since_batch",
  "fund_flows",
].map(tool)
