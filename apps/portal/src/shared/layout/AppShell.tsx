import type { MouseEvent, ReactNode, RefObject } from 'react';
import { API_DOCS_URL, PRODUCT_NAME } from '../links';

export const MAIN_CONTENT_ID = 'main-content';

export interface AppShellProps {
  /** The left navigation (usually a {@link SideNav}). */
  navigation: ReactNode;
  children: ReactNode;
  /** Lets the app move focus to the main region after a route change. */
  mainRef?: RefObject<HTMLElement | null>;
}

/**
 * The page frame: a skip link, the banner with the product name, the left navigation, the main
 * region and the footer. Each is a landmark, so assistive technology can jump between them.
 */
export function AppShell({ navigation, children, mainRef }: AppShellProps) {
  // The router owns the URL hash, so the skip link moves focus itself instead of following `#id`.
  function skipToContent(event: MouseEvent<HTMLAnchorElement>) {
    event.preventDefault();
    document.getElementById(MAIN_CONTENT_ID)?.focus();
  }

  return (
    <div className="shell">
      <a className="skip-link" href={`#${MAIN_CONTENT_ID}`} onClick={skipToContent}>
        Skip to content
      </a>
      <header className="shell__header">
        <a className="brand" href="#/" aria-label={`${PRODUCT_NAME} developer portal, home`}>
          <span className="brand__mark" aria-hidden="true">
            G
          </span>
          <span className="brand__name">{PRODUCT_NAME}</span>
          <span className="brand__tagline">Developer portal</span>
        </a>
        <a className="shell__header-link" href={API_DOCS_URL}>
          API docs
        </a>
      </header>
      <div className="shell__body">
        <aside className="shell__sidebar">{navigation}</aside>
        <main id={MAIN_CONTENT_ID} className="shell__main" tabIndex={-1} ref={mainRef}>
          {children}
        </main>
      </div>
      <footer className="shell__footer">
        <p>
          {PRODUCT_NAME} — a self-hostable payment gateway. <a href={API_DOCS_URL}>API reference</a>
        </p>
      </footer>
    </div>
  );
}
