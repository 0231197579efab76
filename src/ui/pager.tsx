// Previous / Next with 'Page X of Y', shared by the paged lists (customers, activity).

/** How many pages `count` rows make at `pageSize` a page (at least one). */
export const pageCount = (count: number, pageSize: number): number => Math.max(1, Math.ceil(count / pageSize));

export function Pager({ page, pages, more = false, onPage }: { page: number; pages: number; more?: boolean; onPage: (page: number) => void }) {
  // D26 `more`: the total is only known to exceed `pages` pages, so Next goes on and there is no last page.
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" className="btn" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span className="pager-status">
        Page {page} of {more ? `more than ${pages}` : pages}
      </span>
      <button type="button" className="btn" disabled={page >= pages && !more} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}
