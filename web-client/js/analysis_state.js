// What the viewer knows of a game's engine analysis (issue 32), as a pure reducer over the
// server's answers, so the page only draws it: whether one was asked for, its progress while the
// engine works ("Analysing move 23 of 61"), and once done each position's evaluation, best move
// and the mark of the move played from it. Tested in Node (tests/web/unit/analysis.test.js).

import { t } from './i18n/index.js';

// The marks of a move, worst last, as chess writes them (docs/records.md, "Marks").
export const MARKS = {
  inaccuracy: { symbol: '?!' },
  mistake: { symbol: '?' },
  blunder: { symbol: '??' },
};
export const markSymbol = (mark) => MARKS[mark]?.symbol ?? '';
export const markWord = (mark) => (MARKS[mark] ? t(`analysis.mark_${mark}`) : '');

// The thresholds the server uses unless it says otherwise (docs/analysis.md).
export const DEFAULT_THRESHOLDS = { inaccuracy: 0.1, mistake: 0.2, blunder: 0.3 };

// status: 'unknown' (not asked yet), 'none' (never analysed), 'requesting', 'queued',
// 'running', 'done', 'failed', 'refused' (the server said no: the game is being played, too
// many requests; `error` says why).
export const initialAnalysis = Object.freeze({ status: 'unknown', done: 0, total: 0, positions: [], accuracy: null,
  thresholds: DEFAULT_THRESHOLDS, error: '' });

const SERVER_STATES = new Set(['none', 'queued', 'running', 'done', 'failed']);

// action: {type: 'request'} (Analyse pressed), {type: 'answer', body} (a GET or POST answer),
// {type: 'refused', message} (4xx), {type: 'error', message} (no answer: polling goes on).
export function analysisReducer(state, action) {
  switch (action.type) {
    case 'request': return { ...state, status: 'requesting', error: '' };
    case 'answer': {
      const body = action.body ?? {};
      const status = SERVER_STATES.has(body.state) ? body.state : 'failed';
      return {
        status,
        done: Number(body.done) || 0,
        total: Number(body.total) || 0,
        positions: Array.isArray(body.positions) ? body.positions : [],
        accuracy: Array.isArray(body.accuracy) ? body.accuracy : null,
        thresholds: { ...DEFAULT_THRESHOLDS, ...body.thresholds },
        error: status === 'failed' ? String(body.error ?? t('analysis.failed')) : '',
      };
    }
    case 'refused': return { ...state, status: 'refused', error: action.message };
    case 'error': return { ...state, error: action.message };
    default: return state;
  }
}

// While the engine works the page asks again about once a second.
export const isWorking = (state) => ['requesting', 'queued', 'running'].includes(state.status);
export const isDone = (state) => state.status === 'done';
// Analyse may be pressed when there is none yet, or again after a refusal or a failure.
export const canRequest = (state) => ['none', 'refused', 'failed'].includes(state.status);

export function progressText(state) {
  if (state.status === 'requesting') return t('analysis.asking');
  // Queued says nothing of how many wait before it (the server does not tell): no "others are ahead".
  if (state.status === 'queued') return t('analysis.queued');
  if (state.status !== 'running') return '';
  if (!state.total) return t('analysis.running');
  return t('analysis.running_move', { n: Math.min(state.done + 1, state.total), total: state.total });
}

// How far the engine is, 0 to 1, for the progress bar.
export const progressShare = (state) => (state.total ? Math.min(1, state.done / state.total) : 0);

// The analysis of position `index` (the state after `index` actions), or null.
export const positionAt = (state, index) => state.positions.find((p) => p?.index === index) ?? state.positions[index] ?? null;

// The mark of the move that led to version `version` (played from position version − 1).
export const markOfMove = (state, version) => (version > 0 ? positionAt(state, version - 1)?.mark ?? null : null);

// Versions whose move is marked, in order: {version, mark}.
export const markedMoves = (state) => state.positions
  .filter((p) => p && MARKS[p.mark])
  .map((p) => ({ version: (p.index ?? state.positions.indexOf(p)) + 1, mark: p.mark }));
