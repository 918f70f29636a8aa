// The bindings the Worker tests see through `env` from "cloudflare:test" are the Worker's own.
type WorkerEnv = import("../../src/worker").Env;
declare namespace Cloudflare {
  interface Env extends WorkerEnv {}
}
