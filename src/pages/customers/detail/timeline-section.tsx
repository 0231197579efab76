// D24: the notes-and-history section's frame, shared by the timeline (Timeline.tsx) and the page's
// stand-in while the timeline's code loads (lazy-timeline.tsx): the same region, heading and words.
import type { ReactNode, Ref } from 'react';

export function TimelineSection({ heading, children }: { heading?: Ref<HTMLHeadingElement>; children: ReactNode }) {
  return (
    <section className="card timeline-card" aria-labelledby="timeline-title">
      <h2 id="timeline-title" ref={heading} tabIndex={-1}>
        Notes and history
      </h2>
      {children}
    </section>
  );
}
