import { createServer } from "node:net";

/**
 * A port free on `host` just now (the system's pick, then let go): for a server another process starts, which
 * cannot be handed port 0 and tell its choice back, or a port where nothing listens.
 */
export function freePort(host = "127.0.0.1"): Promise<number> {
  return new Promise((found, failed) => {
    const probe = createServer();
    probe.once("error", failed);
    probe.listen(0, host, () => {
      const address = probe.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      probe.close(() => found(port));
    });
  });
}
