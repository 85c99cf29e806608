// The rating-history chart of a profile: the ratings after each rated game, drawn as a line from the
// starting rating, scaled into a small box. Pure: the page draws the SVG from these numbers.

/** A rating after a rated game (`history` of `GET /api/players/{name}`). */
export interface RatingPoint {
  game_id?: string;
  at: number;
  rating: number;
  rd: number;
}

export interface ChartBox {
  width: number;
  height: number;
  /** Room left of the plot for the scale's labels, and around it. */
  left: number;
  pad: number;
}

export interface Chart {
  /** The plotted points (the start first), in SVG coordinates. */
  points: { x: number; y: number; rating: number }[];
  /** The SVG path through them. */
  path: string;
  /** The rating scale: its lowest and highest values and their heights. */
  low: number;
  high: number;
  yLow: number;
  yHigh: number;
}

/** Every new account's rating (docs/protocol.md, Ratings). */
export const START_RATING = 1500;

/** The chart of `history` (oldest first) from the starting rating. The scale spans the ratings shown,
 * rounded out to multiples of 50 and at least 100 wide, so that small changes do not look like cliffs.
 * Games are evenly spaced (a rating changes per game, not per day). Non-finite ratings are left out. */
export function ratingChart(history: RatingPoint[], box: ChartBox, start = START_RATING): Chart {
  const ratings = [start, ...history.map((p) => p.rating).filter((r) => Number.isFinite(r))];
  let low = Math.floor(Math.min(...ratings) / 50) * 50;
  let high = Math.ceil(Math.max(...ratings) / 50) * 50;
  if (high - low < 100) {
    const mid = (high + low) / 2;
    low = Math.floor((mid - 50) / 50) * 50;
    high = low + 100;
    if (Math.max(...ratings) > high) high += 50;
  }
  const x0 = box.left;
  const x1 = box.width - box.pad;
  const yHigh = box.pad;
  const yLow = box.height - box.pad;
  const step = ratings.length > 1 ? (x1 - x0) / (ratings.length - 1) : 0;
  const y = (r: number) => yLow - ((r - low) / (high - low)) * (yLow - yHigh);
  const round = (v: number) => Math.round(v * 10) / 10;
  const points = ratings.map((r, i) => ({ x: round(x0 + i * step), y: round(y(r)), rating: r }));
  const path = points.map((p, i) => `${i ? 'L' : 'M'}${p.x} ${p.y}`).join(' ');
  return { points, path, low, high, yLow, yHigh };
}

/** A rating as shown: rounded to a whole number. */
export function shownRating(r: number | null | undefined): string {
  return typeof r === 'number' && Number.isFinite(r) ? String(Math.round(r)) : '—';
}
