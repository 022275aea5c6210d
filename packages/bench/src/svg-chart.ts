/**
 * A horizontal bar chart as a standalone SVG string (no dependency): one bar per row,
 * its value and a note printed beside it, so a person reads the result at a glance.
 *
 * @example
 * ```ts
 * import { barChartSvg } from "./svg-chart.js";
 * const svg = barChartSvg({ title: "MiB/s", unit: "MiB/s", bars: [{ label: "direct", value: 640, note: "1.00×" }] });
 * ```
 */

export interface BarChart {
  readonly title: string;
  readonly unit: string;
  readonly bars: readonly { label: string; value: number; note: string }[];
}

const WIDTH = 760;
const LABEL_W = 250;
const BAR_MAX = 330;
const ROW_H = 30;
const TOP = 44;
const COLORS = [
  "#4e79a7",
  "#f28e2b",
  "#59a14f",
  "#e15759",
  "#76b7b2",
  "#edc948",
  "#b07aa1",
  "#9c755f",
];

export function barChartSvg(chart: BarChart): string {
  const max = Math.max(1e-9, ...chart.bars.map((b) => b.value));
  const height = TOP + chart.bars.length * ROW_H + 16;
  const rows = chart.bars.map((bar, i) => {
    const y = TOP + i * ROW_H;
    const w = Math.max(1, Math.round((bar.value / max) * BAR_MAX));
    const value = bar.value >= 100 ? bar.value.toFixed(0) : bar.value.toFixed(2);
    return [
      `<text x="${LABEL_W - 8}" y="${y + 19}" text-anchor="end">${escapeXml(bar.label)}</text>`,
      `<rect x="${LABEL_W}" y="${y + 5}" width="${w}" height="${ROW_H - 10}" fill="${COLORS[i % COLORS.length]}"/>`,
      `<text x="${LABEL_W + w + 6}" y="${y + 19}">${value} ${escapeXml(chart.unit)}${bar.note ? ` · ${escapeXml(bar.note)}` : ""}</text>`,
    ].join("");
  });
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="system-ui, sans-serif" font-size="13">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="12" y="26" font-size="16" font-weight="bold">${escapeXml(chart.title)}</text>`,
    ...rows,
    "</svg>",
    "",
  ].join("\n");
}

function escapeXml(s: string): string {
  return s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
