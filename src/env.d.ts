/// <reference types="astro/client" />

type RequestContext = import('./server/web/request-context').RequestContext;

declare namespace App {
  /**
   * `Astro.locals` is the request context (src/server/request-context.ts): built once per request by
   * src/middleware.ts, handed as it is to services.
   */
  interface Locals extends RequestContext {}
}
