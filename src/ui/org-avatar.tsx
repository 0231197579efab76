// SPEC §2: an organization is shown by its logo, or by two-letter initials when it has none.
import { useState } from 'react';

/** 'Beacon Electric' → 'BE', 'Acme' → 'AC', '  ' → '?'. */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [...(words[0] ?? '')].slice(0, 1).concat([...(words[1] ?? '')].slice(0, 1)) : [...(words[0] ?? '')].slice(0, 2);
  return letters.join('').toUpperCase() || '?';
}

/** The logo (decorative: the name is always written next to it), or the initials when there is none or it fails to load. */
export function OrgAvatar({ org, size = 'md' }: { org: { name: string; logo_url: string | null }; size?: 'sm' | 'md' | 'lg' }) {
  const [broken, setBroken] = useState<string | null>(null);
  const logo = org.logo_url && org.logo_url !== broken ? org.logo_url : null;
  return (
    <span className="org-avatar" data-size={size} aria-hidden="true">
      {logo ? <img src={logo} alt="" onError={() => setBroken(logo)} /> : initials(org.name)}
    </span>
  );
}
