// The package: openapi-fetch's client, typed by the document's paths (src/schema.ts, generated:
// types only, compiled to dist/src/schema.d.ts so that the published package carries them).
export { default as createClient } from "openapi-fetch";
export type { paths, components, operations } from "./schema.js";
