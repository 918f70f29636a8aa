/**
 * The template cutoff (paper 002, 3.2 steps 8-9): the histogram of how many strings occur in how many
 * pages, in a fixed number of bins, is bimodal (a power law of content strings on the left, template
 * strings on the right). The cut is where the energy of eq. 3.1 is least:
 *
 *   E(x, y) = Σ_{i < b} (i − x)² h_i + Σ_{i ≥ b} (i − y)² h_i,   b = (x + y) / 2
 *
 * found by brute force over all bin pairs x < y (prefix sums make each pair O(1)). The paper is
 * conservative (it would rather keep a template string than lose one): among the pairs whose energy
 * is within a tolerance of the least, the lowest cut wins.
 */

export interface CutoffOptions {
  /** Number of histogram bins (the paper: 100). */
  readonly bins: number;
  /** Relative energy slack for the conservative choice: pairs with E <= E_min × (1 + tolerance) compete. */
  readonly energyTolerance: number;
}

export interface Cutoff {
  /** First bin counted as template; `bins` when there is nothing to keep. */
  readonly bin: number;
  /** Least document frequency whose bin is at or above `bin`. */
  readonly minimumDocuments: number;
  /** The cut as a share of pages in [0, 1]: strings in more than this share of pages are template. */
  readonly share: number;
  /** The two modes (bin centres x and y of eq. 3.1) of the chosen pair, and its energy. */
  readonly lowMode: number;
  readonly highMode: number;
  readonly energy: number;
}

/** Bin of a document frequency: bin i holds shares of pages in (i / bins, (i + 1) / bins]. */
export function binOfDocuments(documents: number, pageCount: number, bins: number): number {
  return Math.min(bins - 1, Math.max(0, Math.ceil((documents * bins) / pageCount) - 1));
}

export function documentHistogram(documents: Int32Array, pageCount: number, bins: number): Float64Array {
  const histogram = new Float64Array(bins);
  for (let i = 0; i < documents.length; i++) histogram[binOfDocuments(documents[i]!, pageCount, bins)]++;
  return histogram;
}

export function findCutoff(histogram: Float64Array, pageCount: number, options: CutoffOptions): Cutoff {
  const bins = histogram.length;
  // Prefix sums: weight[k] = Σ_{i<k} h_i, first[k] = Σ_{i<k} i h_i, second[k] = Σ_{i<k} i² h_i.
  const weight = new Float64Array(bins + 1);
  const first = new Float64Array(bins + 1);
  const second = new Float64Array(bins + 1);
  for (let i = 0; i < bins; i++) {
    weight[i + 1] = weight[i]! + histogram[i]!;
    first[i + 1] = first[i]! + i * histogram[i]!;
    second[i + 1] = second[i]! + i * i * histogram[i]!;
  }
  if (weight[bins] === 0) return emptyCutoff(bins, pageCount);
  // Σ_{from ≤ i < to} (i − centre)² h_i from the prefix sums.
  const spread = (from: number, to: number, centre: number): number =>
    second[to]! - second[from]! - 2 * centre * (first[to]! - first[from]!) + centre * centre * (weight[to]! - weight[from]!);
  const energyOf = (low: number, high: number): number => {
    const cut = Math.ceil((low + high) / 2);
    return spread(0, cut, low) + spread(cut, bins, high);
  };
  let least = Infinity;
  for (let low = 0; low < bins; low++) for (let high = low + 1; high < bins; high++) least = Math.min(least, energyOf(low, high));
  const allowed = least * (1 + options.energyTolerance) + 1e-9;
  let best = { cut: bins, low: 0, high: 0, energy: Infinity };
  for (let low = 0; low < bins; low++) {
    for (let high = low + 1; high < bins; high++) {
      const energy = energyOf(low, high);
      const cut = Math.ceil((low + high) / 2);
      if (energy <= allowed && (cut < best.cut || (cut === best.cut && energy < best.energy))) best = { cut, low, high, energy };
    }
  }
  return {
    bin: best.cut,
    minimumDocuments: Math.floor((best.cut * pageCount) / bins) + 1,
    share: best.cut / bins,
    lowMode: best.low,
    highMode: best.high,
    energy: best.energy,
  };
}

function emptyCutoff(bins: number, pageCount: number): Cutoff {
  return { bin: bins, minimumDocuments: pageCount + 1, share: 1, lowMode: 0, highMode: 0, energy: 0 };
}
