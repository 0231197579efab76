// Previous / Next with 'Page X of Y', shared by the paged lists (customers, activity).

/** How many pages `count` rows make at `pageSize` a page (at least one). */
export const pageCount = (count: number, pageSize: number): number => Math.max(1, Math.ceil(count / pageSize));

export function Pager({ page, pages, onPage }: { page: number; pages: number; onPage: (page: number) => void }) {
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" className="btn" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span className="pager-status">
        Page {page} of {pages}
      </span>
      <button type="button" className="btn" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}
