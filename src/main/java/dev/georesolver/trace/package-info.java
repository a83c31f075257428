/**
 * Tracing: W3C trace context in and out, and OpenTelemetry spans when an OTLP endpoint is
 * configured ({@link dev.georesolver.trace.Tracing}). A request's trace is a server span at the
 * ingress, the chain's walk span under it with one span per rung, and under each rung the tier's
 * attempt spans (HTTP client spans with the semantic conventions, {@code url.full} redacted by
 * {@link dev.georesolver.trace.UrlRedaction}). {@link dev.georesolver.trace.Hop} is what each
 * part holds of it; the context crosses the event bus in
 * {@link dev.georesolver.bus.Addresses#TRACEPARENT_HEADER}. With tracing off no SDK exists and the
 * caller's context is passed through; trace ids are W3C-format either way
 * ({@link dev.georesolver.trace.TraceIds}). This package must not hold request logic nor name a
 * tier or adapter.
 */
package dev.georesolver.trace;
