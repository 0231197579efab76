// The entry. All it runs is in app/start.tsx, which the lazily loaded screens reach too (through
// ui/first-bundle.ts), so this file stays a few bytes and the JS before the login form is one file.
import { start } from './app/start';

start();
