// SPEC §4 a reload with a stored session: the code of the shell and of this address's page, asked for
// while the first bundle is still on the wire, where app/preload.ts could ask only once that bundle had
// run (it asks again; the browser fetches each file once). Runs inline after #lazy-imports (each file's
// imports); build.mjs writes the arguments in place of `...PRELOAD`: routes as [path segments, file], the
// files before the page, those after.
try {
  ((routes, before, after) => {
    if (navigator.onLine === false || !(localStorage.getItem('access_token') || localStorage.getItem('refresh_token'))) return;
    const have = location.pathname.split('/').filter(Boolean);
    if (have.length === 0) have.push('dashboard');
    const page = routes.find(([want]) => want.length === have.length && want.every((w, i) => w[0] === ':' || w === have[i]));
    if (!page) return;
    const imports = JSON.parse(document.getElementById('lazy-imports').textContent);
    for (const file of [...before, page[1], ...after]) {
      for (const href of [file, ...(imports[file.split('/').pop()] || [])]) {
        const link = document.createElement('link');
        link.rel = 'modulepreload';
        link.href = href;
        document.head.append(link);
      }
    }
  })(...PRELOAD);
} catch {}
