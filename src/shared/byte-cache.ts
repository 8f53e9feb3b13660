// Buffers kept in memory under a bound on their bytes: the least recently used go first. For
// work whose result is a pure function of its key (a rendered page, a rendered letter), so an
// entry never needs invalidating, only room.
export class ByteCache {
  private readonly entries = new Map<string, Buffer>();
  private bytes = 0;

  /** `maxEntryBytes`: a larger buffer is answered but not kept (it would push out many others). */
  constructor(
    private readonly maxBytes: number,
    private readonly maxEntryBytes = maxBytes,
  ) {}

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
