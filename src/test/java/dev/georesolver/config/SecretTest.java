package dev.georesolver.config;

import dev.georesolver.provider.CredentialPlacement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** A tier's credential: read from its source, and never shown by {@code toString}. */
class SecretTest {

  private static final CredentialPlacement HEADER = CredentialPlacement.header("X-Api-Key");

  private static CredentialConfig fromEnv(String var) {
    return new CredentialConfig(HEADER, var, null);
  }

  private static CredentialConfig fromFile(Path file) {
    return new CredentialConfig(HEADER, null, file.toString());
  }

  @Test
  void shouldNeverShowTheValueInToString() {
    Secret s = Secret.of("hunter2-abcdef");

    assertThat(s.toString()).doesNotContain("hunter2").isEqualTo("Secret[redacted]");
    assertThat("key=" + s).doesNotContain("hunter2");
    assertThat(s.reveal()).isEqualTo("hunter2-abcdef");
  }

  @Test
  void shouldReadTheValueFromTheEnvironmentVariable() {
    assertThat(Secret.read(fromEnv("TIER_KEY"), Map.of("TIER_KEY", "k-123", "OTHER", "x")))
        .hasValueSatisfying(s -> assertThat(s.reveal()).isEqualTo("k-123"));
  }

  @Test
  void shouldBeEmptyWhenTheVariableIsUnset() {
    assertThat(Secret.read(fromEnv("TIER_KEY"), Map.of("OTHER", "x"))).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", " ", "\t\n"})
  void shouldBeEmptyWhenTheVariableIsBlank(String value) {
    assertThat(Secret.read(fromEnv("TIER_KEY"), Map.of("TIER_KEY", value))).isEmpty();
  }

  @Test
  void shouldReadTheFileWithItsTrailingNewlineTrimmed(@TempDir Path dir) throws Exception {
    Path file = Files.writeString(dir.resolve("key"), "k-456\n");

    assertThat(Secret.read(fromFile(file), Map.of())).hasValueSatisfying(s -> assertThat(s.reveal()).isEqualTo("k-456"));
  }

  @Test
  void shouldTrimAWindowsLineEnding(@TempDir Path dir) throws Exception {
    Path file = Files.writeString(dir.resolve("key"), "k-789\r\n");

    assertThat(Secret.read(fromFile(file), Map.of())).hasValueSatisfying(s -> assertThat(s.reveal()).isEqualTo("k-789"));
  }

  @Test
  void shouldBeEmptyWhenTheFileIsBlank(@TempDir Path dir) throws Exception {
    Path file = Files.writeString(dir.resolve("key"), "  \n");

    assertThat(Secret.read(fromFile(file), Map.of())).isEmpty();
  }

  @Test
  void shouldBeEmptyWhenTheFileIsMissing(@TempDir Path dir) {
    assertThat(Secret.read(fromFile(dir.resolve("absent")), Map.of())).isEmpty();
  }

  @Test
  void shouldBeEmptyWithoutACredential() {
    assertThat(Secret.read(null, Map.of())).isEmpty();
  }
}
