/**
 * Routes the proxy tests need on the test origin beyond its static files: redirects, one with a
 * root-relative Location and one with an absolute Location on the origin itself.
 */
import type { OriginRoutes } from "./origin-server";

const PAGE_PATH = "/fixtures/proxy/page.html";

export const PROXY_ORIGIN_ROUTES: OriginRoutes = {
  "/redirect/relative": (_request, response) => {
    response.writeHead(302, { location: PAGE_PATH, "cache-control": "no-store" }).end();
  },
  "/redirect/absolute": (request, response) => {
    response.writeHead(301, { location: `http://${request.headers.host}${PAGE_PATH}`, "cache-control": "max-age=60" }).end();
  },
};
