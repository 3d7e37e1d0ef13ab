// Small helpers for sentences: "3 beans", "a, b and c", ", with 2 relays".
export const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export const list = (parts) => (parts.length < 2 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`);

// A turn of several laps: each lap after the first is a relay.
export const relays = (laps) => (laps > 1 ? `, with ${plural(laps - 1, 'relay')}` : '');
