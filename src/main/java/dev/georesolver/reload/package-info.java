/**
 * Hot reload of the manifest: {@link dev.georesolver.reload.LiveManifest} (the revision every
 * request reads once, at its start), {@link dev.georesolver.reload.ManifestDiff} (pure: which tiers
 * are kept, changed, added, removed, and what cannot change without a restart),
 * {@link dev.georesolver.reload.ReloadStatus} (what the last attempt did, for {@code /manifest},
 * {@code /health/ready} and the log) and {@link dev.georesolver.reload.ReloadVerticle}, which
 * watches the file, answers {@code POST /admin/reload} and SIGHUP ({@link dev.georesolver.reload.HangUp}),
 * and swaps a valid new revision in between requests.
 */
package dev.georesolver.reload;
