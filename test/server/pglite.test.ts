// The API suite on the embedded database (PGlite), a fresh one in a temp dir.
import { defineApiSuite } from './api-suite';
import { removeDir, tempDir } from './helpers';

defineApiSuite('PGlite', async () => {
  const dataDir = tempDir('pglite');
  return { options: { dataDir }, cleanup: async () => removeDir(dataDir) };
});
