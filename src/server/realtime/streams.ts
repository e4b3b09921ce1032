/**
 * The open live streams of this process (CHT-08): each registers how to end itself, so a draining process
 * (SIGTERM) ends them at once with a retry hint instead of waiting out its grace period; the browser
 * reconnects to another process and resyncs from its Last-Event-ID.
 */
export class StreamHub {
  private readonly open = new Set<() => void>();

  /** Adds a stream; `end` closes it. Returns the removal, called when the stream ends on its own. */
  add(end: () => void): () => void {
    this.open.add(end);
    return () => {
      this.open.delete(end);
    };
  }

  get size(): number {
    return this.open.size;
  }

  /** Ends every open stream (the process is draining). */
  endAll(): void {
    for (const end of [...this.open]) {
      try {
        end();
      } catch {
        // A stream that fails to end is gone anyway.
      }
    }
    this.open.clear();
  }
}
