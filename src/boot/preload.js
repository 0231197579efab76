// The code asked for while the first bundle is still on the wire, where the app could ask only once that
// bundle had run (it asks again; the browser fetches each file once). Runs inline after #lazy-imports
// (each file's imports); build.mjs writes the arguments in place of `...PRELOAD`: the rest of the app's
// start, routes as [path segments, file], the files before the page, those after.
// The first bundle draws a cold load of /login with no stored session alone (app/start.tsx): nothing
// else shares the network with it. Anywhere else the rest of the app's start and of its styles (the page
// links only the login form's, static/login.css) is needed at once, and
// SPEC §4 on a reload with a stored session the code of the shell and of this address's page too.
// With an access token the session's load would use as it is, the current-user call goes out here too,
// and the session's first call takes its answer (src/http/early.ts): the same checks as
// session/load.ts (well-formed, not about to expire, the refresh lifetime not passed) and the same
// headers as http/client.ts (the token, this tab's organization as the session restores it).
try {
  ((boot, routes, before, after) => {
    const stored = (key) => localStorage.getItem(key);
    let imports;
    const preload = (file) => {
      imports ??= JSON.parse(document.getElementById('lazy-imports')?.textContent || '{}');
      for (const href of [file, ...(imports[file.split('/').pop()] || [])]) {
        const link = document.createElement('link');
        link.rel = 'modulepreload';
        link.href = href;
        document.head.append(link);
      }
    };
    // The rest of the app's styles (lib/styles.ts makes the same element, and reads how its load went).
    const styles = () => {
      const href = document.querySelector('link[data-rest]')?.dataset.rest;
      if (!href) return;
      const link = document.createElement('link');
      link.id = 'rest-styles';
      link.rel = 'stylesheet';
      link.href = href;
      link.addEventListener('load', () => (link.dataset.state = 'loaded'), { once: true });
      link.addEventListener('error', () => (link.dataset.state = 'failed'), { once: true });
      document.head.append(link);
    };
    const start = () => {
      styles();
      preload(boot);
    };
    if (navigator.onLine === false) return;
    const signedOut = !(stored('access_token') || stored('refresh_token'));
    if (signedOut) {
      if (location.pathname !== '/login') start();
      return;
    }
    try {
      const access = stored('access_token') || '';
      const parts = access.split('.');
      const payload = parts.length === 3 && parts.every((p) => /^[A-Za-z0-9_-]+=*$/.test(p)) && JSON.parse(atob(parts[1].replace(/-/g, '+').replace(/_/g, '/')));
      const whole = (raw) => (raw !== null && /^-?\d{1,15}$/.test(raw.trim()) ? Number(raw.trim()) : null);
      const refreshEnds = whole(stored('refresh_expires_at'));
      // A minute's margin over the session's 10 s: the app's own check comes up to a few seconds later.
      if (
        typeof payload?.exp === 'number' &&
        payload.exp * 1000 - Date.now() > 60_000 &&
        !(stored('refresh_token') && refreshEnds !== null && refreshEnds <= Date.now())
      ) {
        const config = window.__APP_CONFIG__ || {};
        const base = typeof config.apiBase === 'string' ? config.apiBase.replace(/\/+$/, '') : '/api';
        const headers = { Accept: 'application/json', Authorization: `Bearer ${access}` };
        const org = whole(stored('current_org_id'));
        if (org !== null) headers['X-Organization-ID'] = String(org);
        const url = `${base}/v1/auth/me/`;
        const response = fetch(url, { method: 'GET', headers, credentials: 'omit' });
        response.catch(() => {}); // a failure is the app's to see, when it takes the answer
        window.__earlyMe = { key: url + JSON.stringify(headers), response }; // http/early.ts callKey
      }
    } catch {}
    start();
    const have = location.pathname.split('/').filter(Boolean);
    if (have.length === 0) have.push('dashboard');
    const page = routes.find(([want]) => want.length === have.length && want.every((w, i) => w[0] === ':' || w === have[i]));
    if (page) for (const file of [...before, page[1], ...after]) preload(file);
  })(...PRELOAD);
} catch {}
