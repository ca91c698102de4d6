import { describe, expect, test } from "bun:test";
import { BINARY_UNITS, DECIMAL_UNITS, bytesToChartUnit, familyOf, formatBytes, formatNumber, isChartMemoryUnit, roundCpu, roundTo, scaleBytes } from ".";

describe("byte units", () => {
  test("the two families: decimal and binary", () => {
    expect([...DECIMAL_UNITS]).toEqual(["B", "KB", "MB", "GB", "TB"]);
    expect([...BINARY_UNITS]).toEqual(["B", "KiB", "MiB", "GiB", "TiB"]);
  });

  test("decimal steps are 1000, binary steps 1024", () => {
    expect(formatBytes(999, "decimal")).toBe("999 B");
    expect(formatBytes(1000, "decimal")).toBe("1 KB");
    expect(formatBytes(1000, "binary")).toBe("1000 B");
    expect(formatBytes(1024, "binary")).toBe("1 KiB");
    expect(formatBytes(1500, "decimal")).toBe("1.5 KB");
    expect(formatBytes(1536, "binary")).toBe("1.5 KiB");
    expect(formatBytes(2.5e6, "decimal")).toBe("2.5 MB");
    expect(formatBytes(3 * 1024 ** 3, "binary")).toBe("3 GiB");
    expect(formatBytes(1234567890, "decimal")).toBe("1.23 GB");
    expect(formatBytes(1234567890, "binary")).toBe("1.15 GiB");
  });

  test("TB and TiB are the largest units; values beyond stay in them", () => {
    expect(formatBytes(5e15, "decimal")).toBe("5000 TB");
    expect(formatBytes(2 * 1024 ** 5, "binary")).toBe("2048 TiB");
    expect(scaleBytes(1024 ** 4, "binary")).toEqual({ value: 1, unit: "TiB" });
  });

  test("zero, negatives and non-numbers show as 0 B", () => {
    for (const bad of [0, -5, Number.NaN, Number.POSITIVE_INFINITY]) expect(formatBytes(bad, "decimal")).toBe("0 B");
  });

  test("decimals can be chosen", () => {
    expect(formatBytes(1234567, "decimal", 0)).toBe("1 MB");
    expect(formatBytes(1234567, "decimal", 3)).toBe("1.235 MB");
  });
});

describe("chart units", () => {
  test("MB is 10^6 bytes, MiB 2^20", () => {
    expect(bytesToChartUnit(1_000_000, "MB")).toBe(1);
    expect(bytesToChartUnit(1_048_576, "MiB")).toBe(1);
    expect(bytesToChartUnit(1_048_576, "MB")).toBeCloseTo(1.048576, 9);
    expect(bytesToChartUnit(-1, "MiB")).toBe(0);
    expect(bytesToChartUnit(Number.NaN, "MB")).toBe(0);
  });

  test("the chart units belong to their families", () => {
    expect(familyOf("MB")).toBe("decimal");
    expect(familyOf("MiB")).toBe("binary");
    expect(isChartMemoryUnit("MiB")).toBe(true);
    expect(isChartMemoryUnit("GiB")).toBe(false);
    expect(isChartMemoryUnit(null)).toBe(false);
  });
});

describe("numbers and CPU", () => {
  test("CPU is rounded to 2 decimals and kept above 100 for several cores", () => {
    expect(roundCpu(12.3456)).toBe(12.35);
    expect(roundCpu(1.005)).toBe(1.01);
    expect(roundCpu(250.123)).toBe(250.12);
    expect(roundCpu(-3)).toBe(0);
    expect(roundCpu(Number.NaN)).toBe(0);
  });

  test("rounding never yields -0 and trailing zeros are dropped", () => {
    expect(Object.is(roundTo(-0.001, 2), 0)).toBe(true);
    expect(roundTo(-1.235, 2)).toBe(-1.24);
    expect(formatNumber(12.5)).toBe("12.5");
    expect(formatNumber(3.0)).toBe("3");
    expect(formatNumber(0.1 + 0.2)).toBe("0.3");
  });
});
