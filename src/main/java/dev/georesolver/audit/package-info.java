/**
 * The tamper-evident audit trail: what is recorded ({@link dev.georesolver.audit.AuditRecords}: every
 * fallback activation, or every answer with {@code audit.level: all}), the per-tenant hash chain and
 * its verification ({@link dev.georesolver.state.rules.AuditChain}, pure), the chain instances' and the
 * reconciler's buffer on the way to the state store ({@link dev.georesolver.audit.AuditBuffer}), the
 * {@code GET /v1/audit} route ({@link dev.georesolver.audit.AuditRoutes}) and the offline reader the
 * {@code audit verify} command uses ({@link dev.georesolver.audit.AuditReader}).
 *
 * <p>The records themselves live in the state store's {@code audit} module (SQLite table
 * {@code audit} behind triggers that refuse UPDATE and DELETE; Redis stream
 * {@code geo:audit:{tenant}}), where each tenant's chain is extended one batch at a time.
 */
package dev.georesolver.audit;
