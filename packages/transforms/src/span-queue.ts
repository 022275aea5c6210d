/**
 * The redactor's pending spans: input ranges decided to be redacted whose marker is not out
 * yet. They are kept sorted and disjoint with a gap between any two (touching spans merge),
 * so they all lie in the held bytes and number at most half the window. Each span is three
 * numbers (start, end, rule) in one packed array read from `head`: removing the first is
 * O(1), and the common addition (the last span growing, or a new span after it) touches only
 * the end.
 */
export class SpanQueue {
  /** `[start, end, rule]` of span k at `3 * (head + k)`. Offsets pass 2^31: doubles. */
  private data = new Float64Array(3 * 16);
  private head = 0;
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Input offset of the first span's first byte (only when `size > 0`). */
  get firstStart(): number {
    return this.data[3 * this.head]!;
  }

  get firstEnd(): number {
    return this.data[3 * this.head + 1]!;
  }

  get firstRule(): number {
    return this.data[3 * this.head + 2]!;
  }

  removeFirst(): void {
    this.count--;
    this.head = this.count === 0 ? 0 : this.head + 1;
  }

  clear(): void {
    this.head = 0;
    this.count = 0;
  }

  /**
   * Remove the spans that start at or before `cursor` (they touch a span ending there);
   * returns the furthest end among `cursor` and theirs.
   */
  absorbInto(cursor: number): number {
    let end = cursor;
    while (this.count > 0 && this.firstStart <= end) {
      if (this.firstEnd > end) end = this.firstEnd;
      this.removeFirst();
    }
    return end;
  }

  /**
   * Add `[start, end)` for `rule`, merging every span it overlaps or touches. A merged span
   * is named after the span that starts first (ties: the lower rule index).
   */
  add(start: number, end: number, rule: number): void {
    // Ends increase and new spans mostly come last: search from the end, so many
    // redactions in one chunk stay linear (invariant 4).
    let i = this.count;
    while (i > 0 && this.endAt(i - 1) >= start) i--;
    if (i === this.count || this.startAt(i) > end) {
      this.insert(i, start, end, rule);
      return;
    }
    let mergedStart = this.startAt(i);
    let mergedEnd = Math.max(this.endAt(i), end);
    let mergedRule = this.ruleAt(i);
    if (start < mergedStart || (start === mergedStart && rule < mergedRule)) mergedRule = rule;
    if (start < mergedStart) mergedStart = start;
    let j = i + 1;
    while (j < this.count && this.startAt(j) <= mergedEnd) {
      if (this.endAt(j) > mergedEnd) mergedEnd = this.endAt(j);
      j++;
    }
    const at = 3 * (this.head + i);
    this.data[at] = mergedStart;
    this.data[at + 1] = mergedEnd;
    this.data[at + 2] = mergedRule;
    if (j > i + 1) this.removeRange(i + 1, j);
  }

  /**
   * True when adding `[start, end)` for a rule no lower than `rule` would change nothing:
   * one span holds it, and starts before it or is named by a rule no higher than `rule`.
   */
  covers(start: number, end: number, rule: number): boolean {
    // The last spans are the likeliest (what was just decided): search from the end.
    for (let k = this.count - 1; k >= 0; k--) {
      const s = this.startAt(k);
      if (s > start) continue;
      return this.endAt(k) >= end && (s < start || this.ruleAt(k) <= rule);
    }
    return false;
  }

  private startAt(k: number): number {
    return this.data[3 * (this.head + k)]!;
  }

  private endAt(k: number): number {
    return this.data[3 * (this.head + k) + 1]!;
  }

  private ruleAt(k: number): number {
    return this.data[3 * (this.head + k) + 2]!;
  }

  private insert(k: number, start: number, end: number, rule: number): void {
    if (3 * (this.head + this.count + 1) > this.data.length) this.makeRoom();
    const at = 3 * (this.head + k);
    if (k < this.count) this.data.copyWithin(at + 3, at, 3 * (this.head + this.count));
    this.data[at] = start;
    this.data[at + 1] = end;
    this.data[at + 2] = rule;
    this.count++;
  }

  /** Remove spans `[from, to)` (indices from the first). */
  private removeRange(from: number, to: number): void {
    const end = 3 * (this.head + this.count);
    this.data.copyWithin(3 * (this.head + from), 3 * (this.head + to), end);
    this.count -= to - from;
  }

  /** Move the spans to the front, and double the storage when they fill more than half. */
  private makeRoom(): void {
    const used = 3 * this.count;
    const data = used * 2 >= this.data.length ? new Float64Array(this.data.length * 2) : this.data;
    data.set(this.data.subarray(3 * this.head, 3 * this.head + used), 0);
    this.data = data;
    this.head = 0;
  }
}
