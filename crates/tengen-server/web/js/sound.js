// Sound: a stone's click, the beeps of the last seconds, a spoken count.
import { $ } from './dom.js';
import { lang } from './i18n.js';
import { settings } from './settings.js';

let audio = null;

function tone(freq, seconds, gain) {
  if (!settings.sound) return;
  try {
    audio ??= new AudioContext();
    if (audio.state === 'suspended') audio.resume();
    const osc = audio.createOscillator(), amp = audio.createGain(), at = audio.currentTime;
    osc.frequency.value = freq;
    amp.gain.setValueAtTime(gain, at);
    amp.gain.exponentialRampToValueAtTime(0.0001, at + seconds);
    osc.connect(amp).connect(audio.destination);
    osc.start(at);
    osc.stop(at + seconds);
  } catch (e) {
    // No audio here: the page works without it.
  }
}

export const stoneSound = () => tone(180, 0.07, 0.3);

// One second of the last ten: shown, beeped, spoken if asked for.
export function countDown(seconds) {
  $('#countdown').textContent = String(seconds);
  tone(seconds <= 3 ? 1320 : 880, 0.12, 0.15);
  if (settings.speak && 'speechSynthesis' in window) {
    const u = new SpeechSynthesisUtterance(String(seconds));
    u.lang = lang === 'zh' ? 'zh-CN' : 'en-US';
    speechSynthesis.speak(u);
  }
}
