// The bindings the Worker tests see through `env` from "cloudflare:test" are the Worker's own.
declare namespace Cloudflare {
  interface Env extends import("../../src/worker").Env {}
}
