/**
 * The stdio transport of `./fds mcp`: one JSON-RPC message per line on stdin, one per line on
 * stdout. Unlike the SDK's StdioServerTransport, which closes (and the process ends, status 0, in
 * silence) when a line outgrows its buffer, a line this transport cannot take is answered: over
 * MAX_LINE_BYTES (its bytes are skipped up to the next newline), not JSON, or not a JSON-RPC
 * message each get a JSON-RPC error on stdout (id null: the request's id is unknown) and a line on
 * stderr, and the server goes on reading. It ends when stdin ends (or fails).
 */
import type { Readable, Writable } from "node:stream"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js"
import { ErrorCode, type JSONRPCMessage, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js"
import { formatLine } from "../../snapshots/Log.ts"

/** The longest line taken: the SDK's own buffer limit (10 MiB). */
export const MAX_LINE_BYTES = 10 * 1024 * 1024

const NEWLINE = 0x0a

export class McpStdioTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void
  /** Why stdin failed, if it did: the process must stop, and says so by its status. */
  failure: Error | null = null

  /** The bytes of the line being read. */
  private chunks: Buffer[] = []
  private size = 0
  /** The line being read went over the limit: its bytes are dropped up to its newline. */
  private skipping = false
  private closed = false

  private readonly stdin: Readable
  private readonly stdout: Writable
  /** Writes a line for whoever runs the process (stderr). */
  private readonly log: (line: string) => void

  constructor(
    stdin: Readable = process.stdin,
    stdout: Writable = process.stdout,
    log: (line: string) => void = (line) => void process.stderr.write(`${line}\n`),
  ) {
    this.stdin = stdin
    this.stdout = stdout
    this.log = log
  }

  private readonly onData = (chunk: Buffer) => {
    let start = 0
    for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, start)) {
      this.take(chunk.subarray(start, at))
      this.endLine()
      start = at + 1
    }
    if (start < chunk.length) this.take(chunk.subarray(start))
  }

  private readonly onEnd = () => void this.close()

  private readonly onStdinError = (error: Error) => {
    this.failure = error
    this.onerror?.(error)
    void this.close()
  }

  private take(bytes: Buffer) {
    if (this.skipping || bytes.length === 0) return
    if (this.size + bytes.length > MAX_LINE_BYTES) {
      this.chunks = []
      this.size = 0
      this.skipping = true
      return
    }
    this.chunks.push(bytes)
    this.size += bytes.length
  }

  private endLine() {
    if (this.skipping) {
      this.skipping = false
      this.refuse(ErrorCode.InvalidRequest, `message too large: a line over ${MAX_LINE_BYTES} bytes was skipped`)
      return
    }
    const line = Buffer.concat(this.chunks).toString("utf8").replace(/\r$/, "")
    this.chunks = []
    this.size = 0
    if (line.trim() === "") return
    let json: unknown
    try {
      json = JSON.parse(line)
    } catch {
      this.refuse(ErrorCode.ParseError, "parse error: a line that is not JSON was skipped")
      return
    }
    const message = JSONRPCMessageSchema.safeParse(json)
    if (!message.success) {
      this.refuse(ErrorCode.InvalidRequest, "invalid request: a line that is not a JSON-RPC message was skipped")
      return
    }
    this.onmessage?.(message.data)
  }

  /** The error on stdout for the client, and a line on stderr for whoever runs the process. */
  private refuse(code: number, message: string) {
    this.log(formatLine("warn", `mcp stdio: ${message}`))
    void this.send({ jsonrpc: "2.0", id: null, error: { code, message } } as unknown as JSONRPCMessage)
  }

  async start(): Promise<void> {
    this.stdin.on("data", this.onData)
    this.stdin.on("end", this.onEnd)
    this.stdin.on("error", this.onStdinError)
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(`${JSON.stringify(message)}\n`)) resolve()
      else this.stdout.once("drain", resolve)
    })
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    this.stdin.off("data", this.onData)
    this.stdin.off("end", this.onEnd)
    this.stdin.off("error", this.onStdinError)
    this.stdin.pause()
    this.chunks = []
    this.onclose?.()
  }
}
