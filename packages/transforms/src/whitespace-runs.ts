/**
 * Whitespace runs inside the exact automaton's matches. A multi-line literal matches any
 * whitespace run where it has whitespace, and the automaton reads a run of n bytes as one
 * symbol, so a match (or a partial match) covers its depth in symbols plus n - 1 extra bytes
 * for each run it spans. This log keeps, for the last runs a state can span, the total extra
 * bytes when each began: the extra bytes of the last k runs are one subtraction.
 */
export class WhitespaceRuns {
  /** Total extra bytes when run r began, at `r & mask`. */
  private readonly extraAtRunStart: Float64Array;
  private readonly mask: number;
  private runs = 0;
  private extraTotal = 0;

  /** A log for states that span at most `maxRuns` runs. */
  constructor(maxRuns: number) {
    // The smallest power of two ≥ maxRuns + 2.
    this.extraAtRunStart = new Float64Array(1 << (32 - Math.clz32(maxRuns + 1)));
    this.mask = this.extraAtRunStart.length - 1;
  }

  /** Extra bytes of the last `runs` whitespace runs. */
  extraOf(runs: number): number {
    if (runs === 0) return 0;
    return this.extraTotal - this.extraAtRunStart[(this.runs - runs) & this.mask]!;
  }

  /** A whitespace byte was read: `continued` when it extended the run the automaton was in. */
  note(continued: boolean): void {
    if (continued) this.extraTotal++;
    else this.extraAtRunStart[this.runs++ & this.mask] = this.extraTotal;
  }

  clear(): void {
    this.runs = 0;
    this.extraTotal = 0;
  }
}
