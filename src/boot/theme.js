// D11: a stored theme wins, else the system preference; runs inline before first paint.
try {
  let t = localStorage.getItem('theme');
  if (t !== 'dark' && t !== 'light') t = matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  if (t === 'dark') document.documentElement.classList.add('dark');
} catch {}
