import { useEffect, useState } from 'react';

/** The console's routes are paths under /app (the server answers index.html for each). */
export const BASE = '/app';

const listeners = new Set<() => void>();

export function navigate(to: string): void {
  window.history.pushState(null, '', `${BASE}${to}`);
  listeners.forEach((l) => l());
  window.scrollTo(0, 0);
}

export function currentPath(): string {
  const path = window.location.pathname.startsWith(BASE) ? window.location.pathname.slice(BASE.length) : '/';
  return path === '' ? '/' : path;
}

export function usePath(): string {
  const [path, setPath] = useState(currentPath());
  useEffect(() => {
    const update = () => setPath(currentPath());
    listeners.add(update);
    window.addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  return path;
}

/** A link within the console: an ordinary <a href> (keyboard, middle click) that navigates without a reload. */
export function linkProps(to: string) {
  return {
    href: `${BASE}${to}`,
    onClick: (e: React.MouseEvent) => {
      if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
      e.preventDefault();
      navigate(to);
    },
  };
}
