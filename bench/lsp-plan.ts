// The seeded plan of edits and hovers that bench/lsp.ts sends, the same for every server
// it measures: keystrokes at code positions (each typed, then deleted again, so the text
// returns to the original), a hover behind each, and the typing pause after it.
import { keystroke, rng } from './stats';

export interface Pos {
  line: number;
  character: number;
}
export interface Step {
  kind: 'type' | 'delete';
  at: Pos;
  char: string;
  hover: Pos & { onKey: boolean };
  pauseMs: number;
}

/** The seeded edit plan, the same for every server: pairs of type-then-delete at code positions. */
export function plan(text: string, keys: Pos[], seed: number, edits: number): Step[] {
  const next = rng(seed);
  const lines = text.split('\n');
  const code = lines.map((l, i) => [l, i] as const).filter(([l]) => l.trim().length > 0);
  const codePos = (): Pos => {
    const [l, line] = code[Math.floor(next() * code.length)];
    return { line, character: Math.floor(next() * (l.length + 1)) };
  };
  const hoverPos = () => {
    // Half on a key expression (a diagnostic's start, one character in), half anywhere in the code.
    if (next() < 0.5) {
      const k = keys[Math.floor(next() * keys.length)];
      return { line: k.line, character: k.character + 1, onKey: true };
    }
    return { ...codePos(), onKey: false };
  };
  // Typing cadence: 55% of keystrokes follow within the 150 ms debounce, the rest after a
  // pause long enough for the debounced re-analysis and publish to start.
  const pause = () => (next() < 0.55 ? 20 + next() * 120 : 160 + next() * 240);
  const steps: Step[] = [];
  while (steps.length < edits) {
    const at = codePos();
    const char = keystroke(next);
    steps.push({ kind: 'type', at, char, hover: hoverPos(), pauseMs: pause() });
    steps.push({ kind: 'delete', at, char, hover: hoverPos(), pauseMs: pause() });
  }
  return steps;
}
