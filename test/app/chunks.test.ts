// What loads when, from one build of the app with its own esbuild options (as bench/bundle.mjs uses
// them): the first bundle stays few files (the bench holds its byte budget) and draws the login form
// alone; the rest of the app's start (app/boot.tsx) is one more file, under 10 KB gzip; and each lazily
// loaded screen is a chunk of its own, under 10 KB gzip with what it brings along beyond the app's start,
// with none of its code in the JS loaded before the login form.
import * as esbuild from 'esbuild';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, test, vi } from 'vitest';
import { SHELL_ROUTES } from '../../src/app/routes';
import { KEYS } from '../../src/lib/storage';
import { REST_STYLES_ID } from '../../src/lib/styles';

const root = path.resolve(import.meta.dirname, '../..');
/** D26 / the limit for a screen's own chunk. */
const PAGE_CHUNK_MAX_GZIP = 10 * 1024;

type Outputs = esbuild.Metafile['outputs'];
let outputs: Outputs;
/** Gzip bytes (level 9) of each output file, by its path relative to the repository. */
let gzip: Map<string, number>;

// One build for every rule below.
beforeAll(async () => {
  // build.mjs is plain JavaScript (no types): its esbuild options for the app, as the bench uses them.
  const { appOptions } = (await import(/* @vite-ignore */ pathToFileURL(path.join(root, 'build.mjs')).href)) as {
    appOptions: (o: { outdir: string }) => esbuild.BuildOptions;
  };
  const options = { ...appOptions({ outdir: path.join(root, 'dist-test') }), entryPoints: { main: path.join(root, 'src/main.tsx') }, write: false, metafile: true };
  const result = (await esbuild.build(options)) as esbuild.BuildResult & { metafile: esbuild.Metafile; outputFiles: esbuild.OutputFile[] };
  outputs = result.metafile.outputs;
  gzip = new Map(result.outputFiles.map((f) => [path.relative(root, f.path), gzipSync(f.contents, { level: 9 }).length]));
}, 60_000);

/** A chunk and every chunk it imports statically (what loading it loads). */
function closure(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const i of outputs[file]!.imports) if (i.kind === 'import-statement') closure(i.path, seen);
  return seen;
}
/** The output file whose entry point ends with `suffix`, if any. */
const entry = (suffix: string) => Object.keys(outputs).find((f) => outputs[f]!.entryPoint?.endsWith(suffix));
const hasAppCode = (file: string) => Object.keys(outputs[file]!.inputs).some((i) => i.startsWith('src/'));
/** The output files loaded before the login form: the entry and what it imports statically. */
const firstBundle = () => closure(entry('src/main.tsx')!);
/** The source modules in the JS loaded before the login form. */
const firstBundleInputs = () => [...firstBundle()].flatMap((f) => Object.keys(outputs[f]!.inputs));
/** The JS loaded before any page: the first bundle and the rest of the app's start (app/boot.tsx). */
const appStart = () => closure(entry('src/app/boot.tsx')!, new Set(firstBundle()));
/** Gzip bytes a lazily loaded chunk brings along beyond the app's start (itself included). */
function bytesBeyondFirst(file: string): number {
  const first = appStart();
  return [...closure(file)].filter((f) => !first.has(f)).reduce((n, f) => n + gzip.get(f)!, 0);
}
/** A page is a lazily loaded chunk of its own, under the limit with what it brings along. */
function expectOwnChunkUnderLimit(page: string) {
  const file = entry(page);
  expect(file, `${page} is not an entry of its own`).toBeTruthy();
  expect(firstBundle().has(file!)).toBe(false);
  expect(bytesBeyondFirst(file!)).toBeLessThan(PAGE_CHUNK_MAX_GZIP);
}

describe('chunks', () => {
  test('STYLE the first bundle is the entry plus one file shared with the lazily loaded screens (build.mjs firstBundleShared)', () => {
    const first = [...firstBundle()].filter(hasAppCode);
    expect(first.length, first.join(', ')).toBeLessThanOrEqual(2);
  });

  test('STYLE nothing else loads before the login form: no file of esbuild helpers alone (build.mjs firstBundleShared)', () => {
    // An entry loaded with import() that did not reach the first bundle (the refresh lock, error
    // reporting) would split the CommonJS helpers every entry reaches into a third file.
    expect([...firstBundle()].length, [...firstBundle()].join(', ')).toBeLessThanOrEqual(2);
  });

  test('SPEC §4 the session code only a signed-in person runs (session/deferred.ts) loads after the login form, as one chunk', () => {
    const deferred = ['src/session/profile.ts', 'src/session/lock.ts', 'src/session/watchers.ts', 'src/session/sign-in.ts'];
    expect(firstBundleInputs().filter((i) => deferred.includes(i))).toEqual([]);
    const chunk = entry('src/session/deferred.ts');
    expect(chunk, 'session/deferred.ts is not an entry of its own').toBeTruthy();
    expect(Object.keys(outputs[chunk!]!.inputs)).toEqual(expect.arrayContaining(deferred));
  });

  test('D15 the focus work after a route change (router/focus-page.ts) is not in the JS before the login form', () => {
    expect(firstBundleInputs()).not.toContain('src/router/focus-page.ts');
    expect(entry('src/router/focus-page.ts'), 'router/focus-page.ts is not an entry of its own').toBeTruthy();
  });

  test("SPEC §2 the route table's titles and permissions (router/route-table.ts) load with the shell, not before the login form", () => {
    expect(firstBundleInputs()).not.toContain('src/router/route-table.ts');
    const start = [...appStart()].flatMap((f) => Object.keys(outputs[f]!.inputs));
    expect(start).not.toContain('src/router/route-table.ts');
    expect(start).toContain('src/router/paths.ts'); // the pages' links, shared by all
  });

  test('SPEC §2 the first bundle draws the login form alone: the session, its HTTP client, the other routes and guards come after (app/boot.tsx)', () => {
    const rest = [
      'src/app/boot.tsx',
      'src/app/App.tsx',
      'src/app/routes.ts',
      'src/router/guards.tsx',
      'src/session/controller.ts',
      'src/http/client.ts',
      'src/lib/storage.ts',
      'src/lib/jwt.ts',
    ];
    expect(firstBundleInputs().filter((i) => rest.includes(i))).toEqual([]);
    expect(firstBundleInputs()).toEqual(expect.arrayContaining(['src/app/frame.tsx', 'src/pages/login/LoginPage.tsx', 'src/session/early.ts']));
    const start = [...appStart()].filter((f) => !firstBundle().has(f));
    expect(start.length, start.join(', ')).toBeLessThanOrEqual(2); // its entry and one file shared with every screen
    expect(start.flatMap((f) => Object.keys(outputs[f]!.inputs))).toEqual(expect.arrayContaining(rest));
  });

  test("SPEC §2 the rest of the app's start (app/boot.tsx) is under 10 KB gzip beyond the first bundle", () => {
    expect(bytesBeyondFirst(entry('src/app/boot.tsx')!)).toBe(0); // it is the app's start itself
    const rest = [...appStart()].filter((f) => !firstBundle().has(f)).reduce((n, f) => n + gzip.get(f)!, 0);
    expect(rest).toBeGreaterThan(0);
    expect(rest).toBeLessThan(PAGE_CHUNK_MAX_GZIP);
  });

  test("SPEC §2 the styles the first paint waits for (static/login.css) are under 3 KB gzip; the rest (static/app.css) load beside the app's start", async () => {
    const gz = async (name: string) => {
      const out = await esbuild.build({ entryPoints: [path.join(root, 'static', name)], bundle: true, minify: true, write: false, logLevel: 'silent' });
      return gzipSync(out.outputFiles[0]!.contents, { level: 9 }).length;
    };
    const [login, rest] = [await gz('login.css'), await gz('app.css')];
    expect(login).toBeLessThan(3 * 1024);
    expect(rest).toBeGreaterThan(login); // the bulk of the styles is not in the way of the first paint
  });

  test('SPEC §9 the toast region (ui/toaster.tsx) is not in the JS before the login form; its store is', () => {
    expect(firstBundleInputs()).not.toContain('src/ui/toaster.tsx');
    expect(firstBundleInputs()).toContain('src/ui/toast.tsx');
    expect(entry('src/ui/toaster.tsx'), 'ui/toaster.tsx is not an entry of its own').toBeTruthy();
  });

  test('D26 the customers list is a lazily loaded chunk of its own, under 10 KB gzip with what it brings along', () => {
    expectOwnChunkUnderLimit('src/pages/customers/CustomersPage.tsx');
  });

  test("D25 D27 the list's restore (customers/restore.tsx), CSV download (save-file.ts) and Deleted view's table (DeletedTable.tsx) load when first needed, not with the list", () => {
    const inputs = [...closure(entry('src/pages/customers/CustomersPage.tsx')!)].flatMap((f) => Object.keys(outputs[f]!.inputs));
    for (const part of ['src/pages/customers/restore.tsx', 'src/pages/customers/save-file.ts', 'src/pages/customers/DeletedTable.tsx']) {
      expect(inputs).not.toContain(part);
      expect(entry(part), `${part} is not an entry of its own`).toBeTruthy();
    }
  });
});

// The customer page, the import and the dashboard.
describe('page chunks', () => {
  const PAGES = [
    'src/pages/customers/CustomerDashboardPage.tsx',
    'src/pages/customers/ImportCustomersPage.tsx',
    'src/pages/dashboard/DashboardPage.tsx',
    'src/pages/customers/merge/MergePage.tsx', // D49
  ];
  /** Modules only these pages use: none may reach the JS loaded before the login form. */
  const PAGE_ONLY = ['src/pages/customers/detail/', 'src/pages/customers/import/', 'src/pages/dashboard/', 'src/ui/when.tsx', 'src/audit/'];

  test.each(PAGES)('%s is a lazily loaded chunk of its own, under 10 KB gzip with what it brings along', (page) => {
    expectOwnChunkUnderLimit(page);
  });

  test('nothing of these pages loads before the login form', () => {
    expect(firstBundleInputs().filter((i) => PAGE_ONLY.some((p) => i.startsWith(p)) || PAGES.includes(i))).toEqual([]);
  });
});

// D28–D30: the team, permissions, activity and invitation pages.
describe('D28–D30 page chunks', () => {
  const PAGES = ['src/pages/team/TeamPage.tsx', 'src/pages/permissions/PermissionsPage.tsx', 'src/pages/activity/ActivityPage.tsx', 'src/pages/invite/InvitePage.tsx'];
  /** Modules only these pages use: none may reach the JS loaded before the login form. */
  const PAGE_ONLY = ['src/pages/team/', 'src/pages/permissions/', 'src/pages/activity/', 'src/pages/invite/', 'src/api/team.ts', 'contract/team.ts'];

  test.each(PAGES)('%s is a lazily loaded chunk of its own, under 10 KB gzip with what it brings along', (page) => {
    expectOwnChunkUnderLimit(page);
  });

  test('nothing of these pages loads before the login form', () => {
    expect(firstBundleInputs().filter((i) => PAGE_ONLY.some((p) => i.startsWith(p)))).toEqual([]);
  });

  test('D30 the activity page does not bring the customers API along (api/customers.ts): paging is ui/pager.tsx', () => {
    const inputs = [...closure(entry('src/pages/activity/ActivityPage.tsx')!)].flatMap((f) => Object.keys(outputs[f]!.inputs));
    expect(inputs).not.toContain('src/api/customers.ts');
  });

  test("D28 the invite form (team/InviteDialogs.tsx) loads when 'Invite member' is first pressed, not with the Team page", () => {
    const inputs = [...closure(entry('src/pages/team/TeamPage.tsx')!)].flatMap((f) => Object.keys(outputs[f]!.inputs));
    expect(inputs).not.toContain('src/pages/team/InviteDialogs.tsx');
    expect(entry('src/pages/team/InviteDialogs.tsx'), 'team/InviteDialogs.tsx is not an entry of its own').toBeTruthy();
  });
});

// Add and Edit Customer load as chunks of their own (app/routes.ts) that share the form; the login
// form's JS stays as it was.
describe('customer form chunks', () => {
  const PAGES = ['src/pages/customers/AddCustomerPage.tsx', 'src/pages/customers/EditCustomerPage.tsx'];

  test.each(PAGES)('%s is a lazily loaded chunk under 10 KB gzip with what it brings along', (page) => {
    expectOwnChunkUnderLimit(page);
  });

  test("D26 Edit Customer loads the form's code beside its data call (a chunk of its own), not before it", () => {
    const inputs = [...closure(entry('src/pages/customers/EditCustomerPage.tsx')!)].flatMap((f) => Object.keys(outputs[f]!.inputs));
    expect(inputs).not.toContain('src/pages/customers/CustomerForm.tsx');
    expect(entry('src/pages/customers/CustomerForm.tsx'), 'customers/CustomerForm.tsx is not an entry of its own').toBeTruthy();
  });

  test('none of the form is in the JS loaded before the login form', () => {
    expect(firstBundleInputs().filter((i) => /pages\/customers\/(CustomerForm|form\/|AddCustomerPage|EditCustomerPage)/.test(i))).toEqual([]);
  });
});

// SPEC §4 a reload's code asked for from the page itself (src/boot/preload.js, inline in index.html),
// before the first bundle has run: the rest of the app's start, and for every shell route the page's file
// and the shell's, as app/preload.ts asks for them; nothing for a signed-out visitor of the login form
// (the first bundle draws it alone).
describe('early preload (src/boot/preload.js)', () => {
  type Early = [boot: string, routes: [string[], string][], before: string[], after: string[]];
  let early: Early;
  /** The script as index.html has it. */
  let script = '';
  beforeAll(async () => {
    const built = (await import(/* @vite-ignore */ pathToFileURL(path.join(root, 'build.mjs')).href)) as {
      earlyPreload: (m: { outputs: Outputs }, url: (f: string) => string) => Early;
      earlyPreloadScript: (m: { outputs: Outputs }, url: (f: string) => string) => string;
    };
    early = built.earlyPreload({ outputs }, (f) => f);
    script = built.earlyPreloadScript({ outputs }, (f) => f);
  });
  const REST_STYLES = '/assets/app-REST.css';
  /** The stylesheets the script added on the last linksAt: the rest of the app's styles, or none. */
  let styles: string[] = [];
  type Settings = { handleDisabledFileLoadingAsSuccess: boolean };
  const settings = () => (window as unknown as { happyDOM: { settings: Settings } }).happyDOM.settings;
  /** The modulepreload links the script adds at `pathname`, with the page's #lazy-imports as the build writes it. */
  function linksAt(pathname: string): string[] {
    const login = document.createElement('link'); // the login form's styles (no rel: the test window fetches nothing)
    login.dataset.rest = REST_STYLES;
    document.head.append(login);
    const lazy = document.createElement('script');
    lazy.id = 'lazy-imports';
    lazy.type = 'application/json';
    const imports: Record<string, string[]> = {};
    for (const f of Object.keys(outputs)) imports[path.basename(f)] = [...closure(f)].filter((g) => g !== f && !firstBundle().has(g));
    lazy.textContent = JSON.stringify(imports);
    document.head.append(lazy);
    window.history.replaceState(null, '', pathname);
    const loads = settings().handleDisabledFileLoadingAsSuccess;
    settings().handleDisabledFileLoadingAsSuccess = true;
    new Function(script)();
    settings().handleDisabledFileLoadingAsSuccess = loads;
    const links = [...document.head.querySelectorAll<HTMLLinkElement>('link[rel=modulepreload]')].map((l) => l.getAttribute('href')!);
    styles = [...document.head.querySelectorAll<HTMLLinkElement>('link[rel=stylesheet]')].map((l) => `${l.id} ${l.getAttribute('href')}`);
    document.head.replaceChildren();
    return links;
  }
  test('SPEC §2 every shell route, in the route table’s order, with its page’s own file (the lazy group’s for the small screens)', () => {
    expect(early[1].map(([segments]) => `/${segments.join('/')}`)).toEqual(SHELL_ROUTES.map((r) => r.path));
    // The loader's import(), as the test's module system writes it ('/src/pages/…/Page.tsx').
    const imported = /import\w*\(\s*["']\/?([^"']+)["']/;
    for (const [i, route] of SHELL_ROUTES.entries()) {
      expect(outputs[early[1][i]![1]]!.entryPoint, route.path).toBe(imported.exec(String(route.load))?.[1]);
    }
  });

  test("SPEC §4 with a stored session: the app's start, the session code, the reload data, the shell, the page, the load error and the toast region, each with its imports", () => {
    localStorage.setItem(KEYS.refreshToken, 'stored');
    const links = linksAt('/customers/12');
    const files = [early[0], ...early[2], entry('src/pages/customers/CustomerDashboardPage.tsx')!, ...early[3]];
    expect(links).toEqual(files.flatMap((f) => [f, ...[...closure(f)].filter((g) => g !== f && !firstBundle().has(g))]));
    expect(links).toContain(entry('src/session/deferred.ts'));
    expect(links).toContain(entry('src/ui/toaster.tsx')); // start() asks for it: no script of a reload waits for the app to run
    expect(linksAt('/')).toContain(entry('src/pages/dashboard/DashboardPage.tsx'));
    expect(linksAt('/customers/new/')).toContain(entry('src/pages/customers/AddCustomerPage.tsx'));
  });

  test("SPEC §2 nothing at /login without a stored session (the first bundle draws it alone); elsewhere only the app's start; offline (D7) nothing", () => {
    const start = [early[0], ...[...closure(early[0])].filter((g) => g !== early[0] && !firstBundle().has(g))];
    expect(entry('src/app/boot.tsx')).toBe(early[0]);
    expect(linksAt('/login')).toEqual([]);
    expect(linksAt('/dashboard')).toEqual(start);
    expect(linksAt('/invite/abc')).toEqual(start);
    localStorage.setItem(KEYS.accessToken, 'stored'); // a session as the app stores it (SPEC §3), either token
    expect(linksAt('/login')).toEqual(start); // the stored session's load decides what it shows
    expect(linksAt('/dashboard')).toContain(entry('src/pages/dashboard/DashboardPage.tsx'));
    expect(linksAt('/no-such-page')).toEqual(start);
    const offline = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    expect(linksAt('/dashboard')).toEqual([]);
    offline.mockRestore();
  });

  test("the rest of the app's styles (lib/styles.ts) are asked for wherever the app's start is: not at /login without a stored session, nothing offline (D7)", () => {
    const rest = [`${REST_STYLES_ID} ${REST_STYLES}`]; // the element lib/styles.ts looks for
    linksAt('/login');
    expect(styles).toEqual([]);
    linksAt('/dashboard');
    expect(styles).toEqual(rest);
    localStorage.setItem(KEYS.refreshToken, 'stored');
    linksAt('/login');
    expect(styles).toEqual(rest);
    linksAt('/customers/12');
    expect(styles).toEqual(rest);
    const offline = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    linksAt('/dashboard');
    expect(styles).toEqual([]);
    offline.mockRestore();
  });
});

// D13: error reporting loads after first render, so it costs the login screen nothing (this build is the
// real one: build.mjs's options and chunk layout).
describe('D13 error reporting and the first load', () => {
  test('D13 no @sentry code in the JS loaded before first render; it is reachable only by dynamic import', () => {
    expect(firstBundleInputs()).toContain('src/pages/login/LoginPage.tsx'); // this is the first load
    expect(firstBundleInputs().filter((i) => i.includes('@sentry'))).toEqual([]);
    const sentryChunks = Object.keys(outputs).filter((f) => Object.keys(outputs[f]!.inputs).some((i) => i.includes('@sentry/browser')));
    expect(sentryChunks.length).toBeGreaterThan(0); // bundled, outside the static closure of the entry: only import() reaches it
  });
});
