// D27: the exported CSV handed to the browser as a download. Loaded when Export CSV is pressed, beside
// the export's own call (CustomersPage.tsx): not everyone who opens the list exports it.

/** An object URL handed to the browser's download is kept this long, then released. */
const DOWNLOAD_URL_LIFETIME_MS = 60_000;

/** D27: hands a Blob to the browser as a download (the bearer token went with the fetch, not a link). */
export function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), DOWNLOAD_URL_LIFETIME_MS);
}
