// tournaments_api.js: the start of the create form (local time) sent as UTC, the countdown, a
// round robin's half points, and the API's refusals in the catalogue's words.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { localToUtc, utcToLocalField, countdownText, scoreText, describeTournamentError } from '../../../web-client/js/tournaments_api.js';
import { setLanguage } from '../../../web-client/js/i18n/index.js';

describe('tournaments_api.js', () => {
  it('sends the local start as UTC and shows a UTC time back in local time', () => {
    const at = Date.UTC(2026, 11, 4, 18, 30, 5);
    const field = utcToLocalField(at);
    assert.match(field, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    assert.equal(localToUtc(field), '2026-12-04T18:30:05Z');
    assert.equal(localToUtc(''), null);
  });

  it('counts down in minutes, hours and days, never below zero', () => {
    setLanguage('en');
    const now = Date.UTC(2026, 0, 1, 12, 0, 0);
    const later = (s) => new Date(now + s * 1000).toISOString();
    assert.equal(countdownText(later(65), now), '1:05');
    assert.equal(countdownText(later(3600 + 61), now), '1:01:01');
    assert.equal(countdownText(later(86400 + 3600), now), '1 day 1:00:00');
    assert.equal(countdownText(later(-5), now), '0:00');
  });

  it('writes half points', () => {
    assert.equal(scoreText(0), '0');
    assert.equal(scoreText(0.5), '½');
    assert.equal(scoreText(2.5), '2½');
    assert.equal(scoreText(12), '12');
  });

  it('says the refusals in words', () => {
    setLanguage('en');
    assert.equal(describeTournamentError({ code: 'tournament_closed' }), 'This tournament takes no players now.');
    assert.equal(describeTournamentError({ code: 'bad_request', message: "'starts_at' is in the past" }),
      "The server did not take this: 'starts_at' is in the past");
    setLanguage('de');
    assert.equal(describeTournamentError({ code: 'tournaments_off' }), 'Dieser Server veranstaltet keine Turniere.');
    setLanguage('en');
  });
});
