// Buffers kept in memory under a bound on their bytes: the least recently used go first. For
// work whose result is a pure function of its key (a rendered page, a rendered letter), so an
// entry never needs invalidating, only room.
export class ByteCache {
  private readonly entries = new Map<string, Buffer>();
  private readonly making = new Map<string, Promise<Buffer>>();
  private bytes = 0;

  /** `maxEntryBytes`: a larger buffer is answered but not kept (it would push out many others). */
  constructor(
    private readonly maxBytes: number,
    private readonly maxEntryBytes = maxBytes,
  ) {}

  /**
   * The kept buffer, else `make`'s, kept: callers asking for a key while it is being made share
   * that one making (a letter's page images all ask for its PDF at once). A failure is not kept.
   */
  async remembered(key: string, make: () => Promise<Buffer>): Promise<Buffer> {
    const kept = this.get(key);
    if (kept) return kept;
    const pending = this.making.get(key);
    if (pending) return pending;
    const making = make();
    this.making.set(key, making);
    try {
      const made = await making;
      this.set(key, made);
      return made;
    } finally {
      this.making.delete(key);
    }
  }

  get(key: string): Buffer | undefined {
    const kept = this.entries.get(key);
    if (kept) {
      this.entries.delete(key);
      this.entries.set(key, kept);
    }
    return kept;
  }

  set(key: string, value: Buffer): void {
    if (value.length > this.maxEntryBytes || this.entries.has(key)) return;
    this.entries.set(key, value);
    this.bytes += value.length;
    for (const [oldest, old] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= old.length;
    }
  }
}
