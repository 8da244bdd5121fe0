// A command line parses each kind of message once or twice: zod's JIT, which writes and compiles a function for each
// object schema on its first parse, costs it more than it saves (docs/performance.md "CLI start"). Zod reads the
// setting as each schema is built, so connect.ts imports this module before the client and the contract.
import { config } from 'zod';

config({ jitless: true });
