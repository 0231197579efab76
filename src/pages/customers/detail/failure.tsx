// A failure said where it happened and announced (role=alert); its words come from ui/error-words.ts.

/** An error said where it happened, announced (role=alert); `id` ties it to its control. */
export function Problem({ text, id }: { text: string | null; id?: string }) {
  return (
    text && (
      <p id={id} className="write-error" role="alert">
        {text}
      </p>
    )
  );
}
