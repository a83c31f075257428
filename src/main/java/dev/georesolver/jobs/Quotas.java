package dev.georesolver.jobs;

import dev.georesolver.bus.BatchQuota;
import dev.georesolver.config.Manifest;
import dev.georesolver.config.TenantConfig;

/**
 * A tenant's batch quota as one manifest revision sets it: the tenant's own
 * {@code batch_max_live_jobs} / {@code batch_max_live_rows} where given, else the batch section's
 * {@code tenant_max_live_jobs} / {@code tenant_max_live_rows}. Each bound names the key it came from.
 */
final class Quotas {

  private Quotas() {}

  /** The quota of {@code tenantId} under {@code m} (a tenant the manifest does not list gets the defaults). */
  static BatchQuota of(Manifest m, String tenantId) {
    TenantConfig t = m.tenants().stream().filter(c -> c.id().equals(tenantId)).findFirst().orElse(null);
    Long jobs = t == null ? null : t.batchMaxLiveJobs();
    Long rows = t == null ? null : t.batchMaxLiveRows();
    String own = "tenants[" + tenantId + "].";
    return new BatchQuota(
        jobs != null ? jobs : m.batch().tenantMaxLiveJobs(),
        rows != null ? rows : m.batch().tenantMaxLiveRows(),
        jobs != null ? own + TenantConfig.BATCH_MAX_LIVE_JOBS.key() : "batch.tenant_max_live_jobs",
        rows != null ? own + TenantConfig.BATCH_MAX_LIVE_ROWS.key() : "batch.tenant_max_live_rows");
  }
}
