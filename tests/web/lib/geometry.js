// Geometry checks for the boards (issue 17, bug 8): no label is drawn over another label or over
// the counters, coins and stones, no tray over another, and no label sticks out of the drawing. Runs in the page; returns
// a list of problems in words ([] when the board is clean).
export function boardOverlaps(page) {
  return page.evaluate(() => {
    const svg = document.querySelector('[data-testid=board]');
    const frame = svg.getBoundingClientRect();
    const LABELS = 'text.count, text.side-label, text.store-label, text.place-number, text.times, text.stone-count, .hand, .tray-label';
    const THINGS = '.pile circle, .coins .coin circle, .big-stone circle, .sets circle, .owner-ring';
    const visible = (node) => node.closest('.place')?.style.display !== 'none' && node.textContent !== '' || node.tagName === 'circle';
    const boxOf = (node) => {
      const r = node.getBoundingClientRect();
      return { left: r.left + 1, right: r.right - 1, top: r.top + 1, bottom: r.bottom - 1 };
    };
    const name = (node) => `${node.getAttribute('class')} "${node.textContent.trim().slice(0, 20)}"` +
      `${node.closest('[data-place]') ? ` in ${node.closest('[data-place]').dataset.place}` : ''}`;
    const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    // Counters, coins and rings are round: a label near one's box corner does not touch it.
    const meetRound = (box, thing) => {
      const r = thing.getBoundingClientRect();
      const [cx, cy, radius] = [(r.left + r.right) / 2, (r.top + r.bottom) / 2, r.width / 2];
      const nx = Math.max(box.left, Math.min(cx, box.right)), ny = Math.max(box.top, Math.min(cy, box.bottom));
      return (nx - cx) ** 2 + (ny - cy) ** 2 < radius ** 2;
    };
    const labels = [...svg.querySelectorAll(LABELS)].filter(visible).map((node) => ({ node, box: boxOf(node) }));
    const things = [...svg.querySelectorAll(THINGS)].filter((node) => node.closest('.place')?.style.display !== 'none')
      .map((node) => ({ node, box: boxOf(node) }));
    const problems = [];
    labels.forEach((a, i) => {
      const { box } = a;
      if (box.left < frame.left || box.right > frame.right || box.top < frame.top || box.bottom > frame.bottom) {
        problems.push(`${name(a.node)} sticks out of the board`);
      }
      for (const b of labels.slice(i + 1)) if (meet(box, b.box)) problems.push(`${name(a.node)} overlaps ${name(b.node)}`);
      for (const b of things) {
        // A hole's number sits inside its owner's ring by design (the ring's box is the whole hole).
        if (a.node.contains(b.node) || a.node.classList.contains('place-number') && b.node.classList.contains('owner-ring')) continue;
        if (meet(box, b.box) && meetRound(box, b.node)) problems.push(`${name(a.node)} overlaps ${name(b.node)}`);
      }
    });
    // Trays and stores do not overlap one another.
    const trays = [...svg.querySelectorAll('.tray')].filter((node) => node.closest('.place')?.style.display !== 'none');
    trays.forEach((a, i) => {
      for (const b of trays.slice(i + 1)) {
        if (meet(boxOf(a), boxOf(b))) problems.push(`the trays of ${a.closest('[data-place]').dataset.place} and ${b.closest('[data-place]').dataset.place} overlap`);
      }
    });
    return [...new Set(problems)];
  });
}

// Every pot, store, reserve and carry tray shown has a caption that says whose it is (issue 17,
// "labels for every tray and store"), at every size: colour and hover text alone do not count.
// A caption is a drawn text that names the place in `data-caption-for`; it must have words and
// be big enough to read (at least 9 px high on screen). Returns problems in words.
export function missingCaptions(page) {
  return page.evaluate(() => {
    const NEEDS_CAPTION = ['pot', 'store', 'reserve', 'carry tray', 'store of sets'];
    const svg = document.querySelector('[data-testid=board]');
    const problems = [];
    for (const place of svg.querySelectorAll('[data-place][data-kind]')) {
      if (!NEEDS_CAPTION.includes(place.dataset.kind) || place.style.display === 'none') continue;
      const id = place.dataset.place;
      const captions = [...svg.querySelectorAll(`[data-caption-for="${id}"]`)];
      const shown = captions.filter((node) => node.textContent.trim() !== '' && getComputedStyle(node).display !== 'none');
      if (!shown.length) { problems.push(`${id} (${place.dataset.kind}) has no caption`); continue; }
      for (const node of shown) {
        const box = node.getBoundingClientRect();
        if (Math.min(box.width, box.height) < 9) problems.push(`the caption of ${id} is too small to read (${Math.round(Math.min(box.width, box.height))} px)`);
      }
    }
    return problems;
  });
}
