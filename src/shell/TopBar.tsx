// SPEC §2 Top bar: menu button (only under 1024px; CSS hides it above), page title, theme toggle, user menu.
import type { Ref } from 'react';
import { Icon } from '../ui/icon';
import { ThemeToggle } from './ThemeToggle';
import { UserMenu } from './UserMenu';

interface TopBarProps {
  title: string;
  drawerOpen: boolean;
  drawerId: string;
  onMenu: () => void;
  menuButton: Ref<HTMLButtonElement>;
}

export function TopBar({ title, drawerOpen, drawerId, onMenu, menuButton }: TopBarProps) {
  return (
    <header className="topbar">
      <button ref={menuButton} type="button" className="icon-btn menu-btn" aria-label="Open menu" aria-expanded={drawerOpen} aria-controls={drawerId} onClick={onMenu}>
        <Icon name="menu" />
      </button>
      <p className="topbar-title">{title}</p>
      <div className="topbar-actions">
        <ThemeToggle />
        <UserMenu />
      </div>
    </header>
  );
}
