import { describe, expect, it } from "vitest";
import { binOfDocuments, documentHistogram, findCutoff } from "../../src/mining/index";
import { seededRandom } from "../../scripts/lib/seeded-random";

const OPTIONS = { bins: 100, energyTolerance: 0.1 };

/** A power law of content strings on the left, a template bump at `templateMode`, uniform noise everywhere. */
function bimodal(random: () => number) {
  const templateMode = 55 + Math.floor(random() * 44);
  const width = 1 + random() * 5;
  const exponent = 1 + random() * 1.5;
  const contentMass = 2000 + random() * 20000;
  const templateMass = 20 + random() * 300;
  const noise = random() * 20;
  const histogram = new Float64Array(100);
  for (let i = 0; i < 100; i++) {
    const content = contentMass / Math.pow(i + 1, exponent);
    const template = templateMass * Math.exp(-((i - templateMode) ** 2) / (2 * width * width));
    histogram[i] = Math.max(0, Math.round(content + template + (random() - 0.5) * noise));
  }
  return { histogram, templateMode, width };
}

describe("histogram cutoff (paper 002, eq. 3.1)", () => {
  it("lands between the modes of 500 noisy synthetic bimodal histograms", () => {
    const random = seededRandom(31);
    for (let trial = 0; trial < 500; trial++) {
      const { histogram, templateMode, width } = bimodal(random);
      const cutoff = findCutoff(histogram, 100, OPTIONS);
      const context = `trial ${trial}: mode ${templateMode} ± ${width.toFixed(1)}, cut ${cutoff.bin}`;
      // The content mode is at bin 0; the cut leaves it whole and keeps the template bump whole.
      expect(cutoff.bin, context).toBeGreaterThan(2);
      expect(cutoff.bin, context).toBeLessThan(templateMode - 2 * width);
      expect(cutoff.lowMode).toBeLessThan(cutoff.bin);
      expect(cutoff.highMode).toBeGreaterThanOrEqual(cutoff.bin);
    }
  });

  it("is conservative: a tolerance never raises the cut, and usually lowers it", () => {
    const random = seededRandom(5);
    let lowered = 0;
    for (let trial = 0; trial < 100; trial++) {
      const { histogram } = bimodal(random);
      const strict = findCutoff(histogram, 100, { bins: 100, energyTolerance: 0 });
      const conservative = findCutoff(histogram, 100, OPTIONS);
      expect(conservative.bin).toBeLessThanOrEqual(strict.bin);
      if (conservative.bin < strict.bin) lowered++;
    }
    expect(lowered).toBeGreaterThan(50);
  });

  it("gives the least energy of all bin pairs when there is no tolerance (brute force check)", () => {
    const random = seededRandom(9);
    for (let trial = 0; trial < 50; trial++) {
      const histogram = Float64Array.from({ length: 20 }, () => Math.floor(random() * 30));
      const cutoff = findCutoff(histogram, 20, { bins: 20, energyTolerance: 0 });
      let least = Infinity;
      for (let x = 0; x < 20; x++) {
        for (let y = x + 1; y < 20; y++) {
          let energy = 0;
          for (let i = 0; i < 20; i++) energy += (2 * i < x + y ? (i - x) ** 2 : (i - y) ** 2) * histogram[i]!;
          least = Math.min(least, energy);
        }
      }
      expect(cutoff.energy).toBeCloseTo(least, 6);
    }
  });

  it("maps document frequencies to bins and back to the least document count kept", () => {
    expect(binOfDocuments(10, 10, 100)).toBe(99);
    expect(binOfDocuments(1, 10, 100)).toBe(9);
    expect(binOfDocuments(2, 3, 100)).toBe(66);
    const documents = Int32Array.from([2, 2, 2, 2, 2, 2, 3, 9, 10, 10, 10]);
    const histogram = documentHistogram(documents, 10, 100);
    const cutoff = findCutoff(histogram, 10, OPTIONS);
    for (let d = 1; d <= 10; d++) {
      expect(binOfDocuments(d, 10, 100) >= cutoff.bin).toBe(d >= cutoff.minimumDocuments);
    }
    expect(cutoff.minimumDocuments).toBeGreaterThan(3);
    expect(cutoff.minimumDocuments).toBeLessThanOrEqual(9);
  });

  it("keeps nothing when there are no strings", () => {
    const cutoff = findCutoff(new Float64Array(100), 10, OPTIONS);
    expect(cutoff.minimumDocuments).toBe(11);
    expect(cutoff.share).toBe(1);
  });
});
