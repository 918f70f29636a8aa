// A loopback HTTP server that hands every request to a Worker in workerd (Miniflare dispatches in-process), so that a
// browser can reach it: the demo page's test and the cross-origin clients' test drive Chromium against it.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { WorkerdHandle } from "./workerd";

export interface WorkerBridge {
  readonly url: string;
  readonly server: Server;
  close(): Promise<void>;
}

export async function bridgeWorker(worker: WorkerdHandle, host = "127.0.0.1"): Promise<WorkerBridge> {
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
    const headers = Object.entries(request.headers).flatMap(([name, value]) => (typeof value === "string" ? [[name, value] as [string, string]] : []));
    const answer = await worker.fetch(request.url ?? "/", { method: request.method, headers, body });
    response.writeHead(answer.status, Object.fromEntries(answer.headers));
    response.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((done) => server.listen(0, host, done));
  return {
    url: `http://${host}:${(server.address() as AddressInfo).port}`,
    server,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
