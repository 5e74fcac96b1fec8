// The entry of the server's child processes (the report engine) when they run from TypeScript: a child
// process started with node does not inherit tsx's loader, so this plain module loads the child's own
// module, the first argument (a file URL), through tsx's API. A built server forks its .js directly.
import { tsImport } from 'tsx/esm/api';

await tsImport(process.argv[2], import.meta.url);
