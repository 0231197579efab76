// D51 D11 Theme: light or dark, the same choice as the top bar's toggle (ui/theme.ts stores it).
import { setTheme, useTheme, type Theme } from '../../ui/theme';

const CHOICES: readonly { value: Theme; label: string }[] = [
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

export default function ThemeSection() {
  const theme = useTheme();
  return (
    <fieldset className="account-theme">
      <legend className="sr-only">Theme</legend>
      {CHOICES.map((c) => (
        <label key={c.value} className="check">
          <input type="radio" name="theme" value={c.value} checked={theme === c.value} onChange={() => setTheme(c.value)} />
          {c.label}
        </label>
      ))}
    </fieldset>
  );
}
