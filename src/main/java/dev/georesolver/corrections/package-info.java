/**
 * Delivering corrections from the outbox: the {@link dev.georesolver.corrections.CorrectionsVerticle}
 * (publish on {@code geocode.corrections}, signed webhooks, each from its own durable cursor, at
 * least once), the webhook {@link dev.georesolver.corrections.Signature}, and the HTTP routes
 * mounted on the ingress router ({@link dev.georesolver.corrections.CorrectionRoutes}: the feed, the
 * Server-Sent Events stream, the reconcile figures).
 */
package dev.georesolver.corrections;
