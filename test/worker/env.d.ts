// The bindings the Worker tests see through `env` from "cloudflare:test" are the Worker's own: those of
// wrangler.toml (Cloudflare.Env, src/worker-configuration.d.ts) and the optional vars it reads (src/http/shared/bindings.ts).
type OptionalBindings = import("../../src/http/shared/bindings").OptionalBindings;
declare namespace Cloudflare {
  interface Env extends OptionalBindings {}
}
