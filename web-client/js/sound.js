// A short beep made with Web Audio (no sound file to load), played when a Plex! race opens and
// only if the player turned sound on in the header: sound is off by default.
import { sound } from './storage.js';

let audio = null;

export function beep() {
  if (!sound.get()) return;
  try {
    audio ??= new AudioContext();
    const tone = audio.createOscillator();
    const volume = audio.createGain();
    tone.frequency.value = 880;
    volume.gain.setValueAtTime(0.2, audio.currentTime);
    volume.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
    tone.connect(volume).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.35);
  } catch { /* no audio on this device: the banner says it anyway */ }
}
