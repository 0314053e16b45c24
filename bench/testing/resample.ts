/**
 * How far a benchmark's figure moves with its noise: a bootstrap. The loads behind the figure are
 * drawn again with replacement (each group of its own loads), the figure computed again each time,
 * and the middle 90 % of those figures printed with it. On a shared machine a bench run's ratio
 * moves from run to run; the interval says so in the run itself.
 */

/** The middle of `xs` (the mean of the two middle values for an even count). */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  if (s.length === 0) return 0;
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/** A small seeded generator (mulberry32): the same loads give the same interval. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The 5th and 95th percentiles of `figure` over `rounds` resamples of `groups` (each group drawn
 * with replacement, to its own size).
 */
export function interval(
  groups: readonly (readonly number[])[],
  figure: (groups: number[][]) => number,
  rounds = 2000,
): [number, number] {
  const random = generator(0x5eed);
  const figures: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const drawn = groups.map((xs) => Array.from(xs, () => xs[Math.floor(random() * xs.length)] as number));
    figures.push(figure(drawn));
  }
  figures.sort((a, b) => a - b);
  return [figures[Math.floor(rounds * 0.05)] as number, figures[Math.floor(rounds * 0.95)] as number];
}
