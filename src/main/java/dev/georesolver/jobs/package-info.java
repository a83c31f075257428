/**
 * Batch jobs off the synchronous path: the {@link dev.georesolver.jobs.BatchVerticle} (loads a
 * submitted file into the store, then works the jobs' rows through {@code geocode.resolve} /
 * {@code geocode.reverse} as batch traffic, bounded and slowing down when tiers push back) and
 * {@link dev.georesolver.jobs.BatchRoutes} (the {@code /v1/batches} HTTP API, mounted by the
 * ingress). The pure rules — the in-flight window ({@link dev.georesolver.jobs.Window}), what counts
 * as a push back ({@link dev.georesolver.jobs.Pushback}), a job's public view with its rate and ETA
 * ({@link dev.georesolver.jobs.JobView}), a stored row ({@link dev.georesolver.jobs.StoredRows}) —
 * are unit-tested without Vert.x.
 */
package dev.georesolver.jobs;
