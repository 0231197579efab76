// The API suite on the embedded database (PGlite), a fresh one in a temp dir.
import { defineApiSuite } from './api-suite';
import { freshDataDir, removeDir } from './helpers';

defineApiSuite('PGlite', async () => {
  const dataDir = await freshDataDir('pglite');
  return { options: { dataDir }, cleanup: async () => removeDir(dataDir) };
});
