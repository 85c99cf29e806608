// Sounds of a game page: a soft click when a move is made, a two-note chime when it becomes the player's
// turn, a short high blip for a chat message (web/src/ui/chat.ts). Synthesised with the Web Audio API (no audio files to load); a mute switch kept on the device.

const KEY = 'tabula:muted';

let ctx: AudioContext | null = null;
/** How many sounds were played (and would have been heard), for the page's tests. */
let played = 0;

export type Sound = 'move' | 'turn' | 'chat';

export function isMuted(): boolean {
  try {
    return localStorage.getItem(KEY) === '1';
  } catch {
    return false;
  }
}

export function setMuted(muted: boolean): void {
  try {
    if (muted) localStorage.setItem(KEY, '1');
    else localStorage.removeItem(KEY);
  } catch {
    /* storage disabled: the switch holds for this page only */
  }
}

/** The notes of each sound: frequency (Hz), start and length (s). */
const NOTES: Record<Sound, [number, number, number][]> = {
  move: [[520, 0, 0.06]],
  turn: [[660, 0, 0.12], [880, 0.13, 0.16]],
  chat: [[990, 0, 0.05]],
};

/** Plays a sound unless muted. Browsers start audio only after the page was interacted with; before
 * that the sound is skipped silently. */
export function playSound(sound: Sound): void {
  if (isMuted()) return;
  try {
    ctx ??= new AudioContext();
    if (ctx.state === 'suspended') void ctx.resume();
    const t0 = ctx.currentTime;
    for (const [freq, start, len] of NOTES[sound]) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = 'sine';
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, t0 + start);
      gain.gain.exponentialRampToValueAtTime(0.2, t0 + start + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, t0 + start + len);
      osc.connect(gain).connect(ctx.destination);
      osc.start(t0 + start);
      osc.stop(t0 + start + len + 0.02);
    }
    played++;
    document.documentElement.dataset.soundsPlayed = String(played);
  } catch {
    /* no audio on this device */
  }
}
