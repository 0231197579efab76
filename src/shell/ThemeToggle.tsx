// SPEC §2 top bar dark-mode toggle; D11 stores the choice.
import { Icon } from '../ui/icon';
import { toggleTheme, useTheme } from '../ui/theme';

export function ThemeToggle() {
  const dark = useTheme() === 'dark';
  const label = dark ? 'Switch to light mode' : 'Switch to dark mode';
  return (
    <button type="button" className="icon-btn" aria-label={label} title={label} onClick={() => toggleTheme()}>
      <Icon name={dark ? 'sun' : 'moon'} />
    </button>
  );
}
