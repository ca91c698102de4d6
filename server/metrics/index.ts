// Prometheus metrics of the panel (docs/metrics.md): GET /metrics renders what the background
// collector last heard from each node, the panel's HTTP counters, open sockets and the gauges
// other parts register. Its public surface.
export { registerGauge } from "./registry";
export { HttpMetrics } from "./http";
export { startMetricsCollector, collectNodeMetrics, METRICS_INTERVAL_MS } from "./collector";
export { renderMetrics } from "./render";
export { checkMetricsToken, metricsEnabled } from "./token";
export { flavorFor, OPENMETRICS_CONTENT_TYPE, TEXT_CONTENT_TYPE } from "./exposition";
