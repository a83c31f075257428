package dev.georesolver.config;

import dev.georesolver.support.TestState;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The audit trail's deployment secret: {@code audit.key_env} (default {@code GEO_AUDIT_KEY}), else {@code audit.key_file}. */
class AuditKeyConfigTest {

  private static String yaml(String audit) {
    return manifest().tier("p", "generic", "http://127.0.0.1:9", "exact", 500).extra(audit).yaml();
  }

  @Test
  @DisplayName("the secret is read once from GEO_AUDIT_KEY, or the variable audit.key_env names, and never shown")
  void fromTheEnvironment() throws Exception {
    Manifest m = ManifestLoader.parse(yaml(""), Map.of("GEO_AUDIT_KEY", " s3cret "));
    assertThat(m.auditKey()).hasValueSatisfying(s -> assertThat(s.reveal()).isEqualTo("s3cret"));
    assertThat(m.describe().encode()).doesNotContain("s3cret");
    Manifest other = ManifestLoader.parse(yaml("audit: { key_env: \"MY_AUDIT\" }"), Map.of("GEO_AUDIT_KEY", "x", "MY_AUDIT", "y"));
    assertThat(other.auditKey().orElseThrow().reveal()).isEqualTo("y");
    assertThat(ManifestLoader.parse(yaml(""), Map.of()).auditKey()).isEmpty();
  }

  @Test
  @DisplayName("audit.key_file is read when the variable is unset; one that cannot be read is a manifest problem")
  void fromAFile() throws Exception {
    Path f = Files.writeString(TestState.freshDir().resolve("k"), "file-secret\n");
    assertThat(ManifestLoader.parse(yaml("audit: { key_file: \"" + f + "\" }"), Map.of()).auditKey().orElseThrow().reveal())
        .isEqualTo("file-secret");
    assertThatThrownBy(() -> ManifestLoader.parse(yaml("audit: { key_file: \"/nonexistent/k\" }"), Map.of()))
        .isInstanceOf(ManifestException.class).hasMessageContaining("audit.key_file");
  }
}
