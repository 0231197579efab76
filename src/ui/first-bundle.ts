// Imported first by every lazily loaded entry: app/lazy.ts (the shell and most screens) and each
// screen with a chunk of its own (pages/customers/CustomersPage.tsx). esbuild puts the first-bundle
// modules that lazy entries use into shared files chosen by WHICH entries use them, and each such
// file loads before the login form (bench/bundle.mjs budget). Naming app/start.tsx here (everything
// main.tsx runs) makes every lazy entry reach the whole first bundle, React DOM included: so there is
// exactly one such file, the entry is a stub, and no code is split between the two (each split costs
// the import/export lists and a second gzip stream). Nothing more to name when a screen is added.
// build.mjs (firstBundleShared) adds the same import to every other module loaded with import().
import '../app/start';
