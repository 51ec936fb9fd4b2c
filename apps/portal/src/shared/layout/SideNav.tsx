import { Link } from '../router';

export interface NavItem {
  /** A portal route, e.g. `/status`. */
  to: string;
  label: string;
}

export interface ExternalNavItem {
  /** A plain URL outside the portal's router, e.g. `/api/docs`. */
  href: string;
  label: string;
}

export interface SideNavProps {
  label: string;
  items: readonly NavItem[];
  resources?: readonly ExternalNavItem[];
}

/** The left navigation: portal sections, then links to resources outside the portal. */
export function SideNav({ label, items, resources = [] }: SideNavProps) {
  return (
    <nav className="side-nav" aria-label={label}>
      <ul className="side-nav__list">
        {items.map((item) => (
          <li key={item.to}>
            <Link className="side-nav__link" to={item.to}>
              {item.label}
            </Link>
          </li>
        ))}
      </ul>
      {resources.length > 0 && (
        <>
          <h2 className="side-nav__heading" id="side-nav-resources">
            Resources
          </h2>
          <ul className="side-nav__list" aria-labelledby="side-nav-resources">
            {resources.map((item) => (
              <li key={item.href}>
                <a className="side-nav__link" href={item.href}>
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
        </>
      )}
    </nav>
  );
}
