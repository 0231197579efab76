// The floor of bench/browser.mjs: a bare React 19 page with a login form comparable to the app's
// (Email, Password, Remember Me, Log In; controlled inputs, the same two required-field messages), and
// nothing else: no router, session, styles or telemetry. Built with the app's esbuild options.
import { useState, type FormEvent } from 'react';
import { createRoot } from 'react-dom/client';

function LoginFloor() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(true);
  const [errors, setErrors] = useState<{ email?: string; password?: string }>({});
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setErrors({ email: email.trim() ? undefined : 'Email is required', password: password ? undefined : 'Password is required' });
  };
  return (
    <main>
      <form onSubmit={submit} noValidate aria-labelledby="login-title">
        <h1 id="login-title">Login</h1>
        <label htmlFor="email">Email</label>
        <input id="email" name="email" type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} />
        {errors.email && <p role="alert">{errors.email}</p>}
        <label htmlFor="password">Password</label>
        <input id="password" name="password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
        {errors.password && <p role="alert">{errors.password}</p>}
        <label>
          <input type="checkbox" name="remember_me" checked={remember} onChange={(e) => setRemember(e.target.checked)} />
          Remember Me
        </label>
        <button type="submit">Log In</button>
      </form>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(<LoginFloor />);
