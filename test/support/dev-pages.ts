/**
 * The dev pages as a Worker test sees them: workerd cannot read the disk, so the test origin server serves
 * ../shared/data under /data/, and a set's index names its page files.
 */

/** The page paths of a dev set (relative to /data/<set>/), in index order; null when the set is absent. */
export async function devPagePaths(origin: string, set: string): Promise<string[] | null> {
  const response = await fetch(`${origin}/data/${set}/index.jsonl`);
  if (!response.ok) return null;
  return (await response.text()).split("\n").filter((line) => line.trim() !== "").map((line) => (JSON.parse(line) as { page: string }).page);
}
