// The bindings the Worker tests see through `env` from "cloudflare:test" are the Worker's own: those of
// wrangler.toml (Cloudflare.Env, src/worker-configuration.d.ts) and the optional vars it reads (src/http/shared/bindings.ts),
// and in the control Worker's project its own CROSS_SITE.
type OptionalBindings = import("../../src/http/shared/bindings").OptionalBindings;
declare namespace Cloudflare {
  interface Env extends OptionalBindings {
    /** The cross-site table's shards: bound in the control Worker's project (wrangler.control.toml) only. */
    CROSS_SITE?: import("../../src/consumer").CrossSiteNamespace;
  }
}
