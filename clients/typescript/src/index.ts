// The package: openapi-fetch's client, typed by the document's paths (src/schema.d.ts, generated).
export { default as createClient } from "openapi-fetch";
export type { paths, components, operations } from "./schema.js";
