// The entry. All it runs is in app/start.tsx, which build.mjs (firstBundleShared) keeps in one file
// shared with the lazily loaded screens, so this file stays a few bytes.
import { start } from './app/start';

start();
