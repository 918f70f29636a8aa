// The part of autocannon's API that scripts/load.ts uses (the package ships no type declarations).
declare module "autocannon" {
  interface Options {
    url: string;
    method?: "GET" | "POST";
    body?: string;
    headers?: Record<string, string>;
    connections?: number;
    /** Seconds. */
    duration?: number;
    /** Seconds per request. */
    timeout?: number;
    /** The requests each connection sends in turn; onResponse hears each answer with its body. */
    requests?: readonly { onResponse?: (status: number, body: string) => void }[];
  }
  interface Histogram {
    average: number;
    p50: number;
    p99: number;
    max: number;
    total: number;
  }
  interface Result {
    requests: Histogram;
    latency: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
  }
  interface Instance extends PromiseLike<Result> {
    on(event: "response", listener: (client: unknown, status: number, bytes: number, time: number) => void): void;
  }
  function autocannon(options: Options): Instance;
  export default autocannon;
}
