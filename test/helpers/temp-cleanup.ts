// Loaded before every test file (vitest `setupFiles`): once the file's own hooks have run, the temp directories it made
// with `tempDir` are removed. Registered first, this `afterAll` runs after the file's own (vitest runs after-hooks as a
// stack), so servers and sshd have been stopped by then.
import { afterAll } from 'vitest';
import { removeTempDirs } from './server.js';

afterAll(() => removeTempDirs());
