/** Where the download routes find the snapshot files and manifests: data/snapshots. */
import { Context, Layer } from "effect"

/** The snapshots folder the server serves (data/snapshots). */
export class DownloadsFolder extends Context.Service<DownloadsFolder, { readonly dir: string }>()("fds/api/DownloadsFolder") {
  static readonly layer = (dir: string) => Layer.succeed(DownloadsFolder)({ dir })
}
