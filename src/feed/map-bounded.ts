/**
 * Runs an async task for every input with at most `concurrency` tasks in flight, and returns the results
 * in input order. A task that rejects yields its fallback for that input; the others go on.
 */
export async function mapBounded<Input, Output>(
  inputs: readonly Input[],
  concurrency: number,
  task: (input: Input, index: number) => Promise<Output>,
  fallback: (error: unknown, input: Input, index: number) => Output,
): Promise<Output[]> {
  const results = new Array<Output>(inputs.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < inputs.length) {
      const index = next++;
      try {
        results[index] = await task(inputs[index], index);
      } catch (error) {
        results[index] = fallback(error, inputs[index], index);
      }
    }
  };
  const workers: Promise<void>[] = [];
  for (let count = 0; count < Math.max(1, Math.min(concurrency, inputs.length)); count++) workers.push(worker());
  await Promise.all(workers);
  return results;
}
