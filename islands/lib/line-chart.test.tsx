// The chart as the server renders it: 40 points, y from 0 up to its usual tops, accessibility.
import { afterAll, describe, expect, test } from "bun:test";
import { Window } from "happy-dom";
import { renderToString } from "react-dom/server";
import { CHART_HEIGHT, CHART_POINTS, CPU_Y_MAX, LineChart, MEMORY_Y_MAX, axisMax, axisTicks, limitAxisFloor, niceStep, seedTimes, timeLabel, xLabelIndices, type LineChartProps } from "./line-chart";

const END = new Date(2024, 0, 1, 12, 34, 56).getTime();
const zeros = () => Array.from({ length: CHART_POINTS }, () => 0);
const window = new Window();
afterAll(() => window.close());

function render(props: Partial<LineChartProps> & Pick<LineChartProps, "points">) {
  const html = renderToString(<LineChart title="CPU" times={seedTimes(END)} yMax={CPU_Y_MAX} unit="%" {...props} />);
  const doc = window.document as unknown as Document;
  doc.body.innerHTML = html;
  const line = doc.querySelector(".stats-chart-line")!.getAttribute("points")!.split(" ").map((p) => p.split(",").map(Number) as [number, number]);
  return {
    html,
    doc,
    line,
    max: Number(doc.querySelector(".stats-chart-plot")!.getAttribute("data-max")),
    yLabels: [...doc.querySelectorAll(".stats-chart-y > span:not(.stats-chart-y-size)")].map((s) => s.textContent),
    xLabels: [...doc.querySelectorAll(".stats-chart-x > span")].map((s) => s.textContent),
    img: doc.querySelector("[role=img]")!,
  };
}

describe("seeding", () => {
  test("40 points 3 s apart, ending at the given time", () => {
    const times = seedTimes(END);
    expect(times.length).toBe(40);
    expect(times.at(-1)).toBe(END);
    expect(times[0]).toBe(END - 39 * 3000);
    expect(new Set(times.slice(1).map((t, i) => t - times[i]!))).toEqual(new Set([3000]));
  });

  test("a seeded chart draws 40 zero points on the floor, with clock-time labels ending at the last point", () => {
    const { line, max, xLabels } = render({ points: zeros() });
    expect(line.length).toBe(40);
    expect(line[0]).toEqual([0, 100]);
    expect(line.at(-1)).toEqual([100, 100]);
    expect(line.every(([, y]) => y === 100)).toBe(true);
    expect(max).toBe(100);
    expect(xLabels.at(-1)).toBe("12:34:56");
    expect(xLabels.every((l) => /^\d\d:\d\d:\d\d$/.test(l!))).toBe(true);
    expect(xLabelIndices(40)).toEqual([7, 15, 23, 31, 39]);
  });

  test("the plot is 250 px high and as wide as its container", () => {
    const { img, doc } = render({ points: zeros() });
    expect(CHART_HEIGHT).toBe(250);
    expect((img as HTMLElement).getAttribute("style")).toContain("height:250px");
    const svg = doc.querySelector("svg")!;
    expect(svg.getAttribute("viewBox")).toBe("0 0 100 100");
    expect(svg.getAttribute("width")).toBe("100%");
  });
});

describe("y axis", () => {
  test("memory tops out at 1000 in MB and 1025 in MiB until the data needs more", () => {
    expect(MEMORY_Y_MAX).toEqual({ MB: 1000, MiB: 1025 });
    expect(render({ points: zeros(), yMax: MEMORY_Y_MAX.MB, unit: "MB" }).max).toBe(1000);
    expect(render({ points: zeros(), yMax: MEMORY_Y_MAX.MiB, unit: "MiB" }).max).toBe(1025);
    expect(render({ points: [...zeros().slice(1), 1024], yMax: MEMORY_Y_MAX.MiB, unit: "MiB" }).max).toBe(1025);
    const grown = render({ points: [...zeros().slice(1), 1001], yMax: MEMORY_Y_MAX.MB, unit: "MB" });
    expect(grown.max).toBe(1250);
    expect(grown.yLabels).toEqual(["0", "250", "500", "750", "1000", "1250"]);
  });

  test("the y minimum is 0 and values below it stay on the floor", () => {
    const { line, yLabels } = render({ points: [...zeros().slice(2), -5, 50] });
    expect(yLabels[0]).toBe("0");
    expect(line.at(-2)).toEqual([expect.closeTo(97.436, 3), 100]);
    expect(line.at(-1)![1]).toBe(50);
  });

  test("CPU tops out at no less than 100 and grows above it for several cores", () => {
    expect(render({ points: [...zeros().slice(1), 12.34] }).max).toBe(100);
    expect(render({ points: [...zeros().slice(1), 100] }).max).toBe(100);
    const busy = render({ points: [...zeros().slice(1), 250.5] });
    expect(busy.max).toBeGreaterThanOrEqual(250.5);
    expect(busy.max).toBe(300);
    expect(busy.line.at(-1)![1]).toBeCloseTo(100 - (250.5 / 300) * 100, 2);
    expect(axisMax([150.01], 100)).toBe(200);
  });

  test("ticks are round steps from 0 up to the top", () => {
    expect(axisTicks(100)).toEqual([0, 20, 40, 60, 80, 100]);
    expect(axisTicks(1000)).toEqual([0, 200, 400, 600, 800, 1000]);
    expect(axisTicks(1025)).toEqual([0, 250, 500, 750, 1000]);
    expect(axisTicks(200)).toEqual([0, 50, 100, 150, 200]);
    expect([niceStep(20), niceStep(20.2), niceStep(205), niceStep(0.3)]).toEqual([20, 25, 250, 0.5]);
  });
});

describe("text", () => {
  test("the latest value is shown and is the accessible name of the image", () => {
    const { doc, img } = render({ points: [...zeros().slice(1), 42.5], describe: (v) => `CPU now ${v}` });
    expect(doc.querySelector(".stats-chart-latest")!.textContent).toBe("42.5\u00a0%");
    expect(img.getAttribute("aria-label")).toBe("CPU now 42.5\u00a0%");
    expect(doc.querySelector(".stats-chart-title")!.textContent).toBe("CPU");
  });

  test("a caller can show its own latest text, and controls sit outside the image", () => {
    const { doc, img } = render({ points: zeros(), unit: "MB", latestText: "1.5 GB", actions: <button type="button">MB</button> });
    expect(img.getAttribute("aria-label")).toBe("CPU: 1.5 GB");
    expect(img.querySelector("button")).toBeNull();
    expect(doc.querySelector("figcaption button")).not.toBeNull();
  });

  test("time labels are the clock time, hours to seconds", () => {
    expect(timeLabel(new Date(2024, 0, 1, 9, 5, 7).getTime())).toBe("09:05:07");
    expect(timeLabel(new Date(2024, 0, 1, 21, 0, 0).getTime())).toBe("21:00:00");
  });

  test("with a limit the axis fits the limit, a little above it, not the usual floor", () => {
    expect(limitAxisFloor(48)).toBe(60);
    expect(limitAxisFloor(50.33)).toBe(60);
    expect(limitAxisFloor(1024)).toBe(1250);
    const { doc } = render({ points: zeros(), unit: "MiB", yMax: MEMORY_Y_MAX.MiB, limit: { value: 48, label: "limit 48 MiB" } });
    expect(doc.querySelector(".stats-chart-plot")!.getAttribute("data-max")).toBe("60");
    const spike = render({ points: [...zeros().slice(1), 100], unit: "MiB", yMax: MEMORY_Y_MAX.MiB, limit: { value: 48, label: "limit 48 MiB" } });
    expect(Number(spike.doc.querySelector(".stats-chart-plot")!.getAttribute("data-max"))).toBeGreaterThanOrEqual(100);
  });
});
