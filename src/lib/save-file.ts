// D27 D67: a downloaded file (the customers CSV, everything as a ZIP) handed to the browser. Loaded when
// a download is asked for, beside its call: not everyone who opens the page downloads.

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
